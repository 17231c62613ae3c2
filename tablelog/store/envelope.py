"""The reader's checks of one record's envelope, on every store (docs/FORMAT.md, "What a reader
checks, in order"): its keys and their types, its seq, the optional keys of the log's format,
and under ``verify`` the hash chain and times that never go back but from a far-off one. A
record dated a day or more after this machine's clock, or a day or more before the record before
it (whose time its writer did not follow: :func:`tablelog.store.stamp.stamp`), is *far off*: a
wrong clock, not a fault (seq orders the log), noted for ``verify`` to flag (``far_off``).

A fold reads a record as a :class:`FoldEnvelope`: msgspec decodes the usual format-2 envelope
in one C pass into typed fields, leaving ``data`` packed for the event's typed decode
(:mod:`tablelog.events.mirror`), and leaving ``at``, ``actor`` and ``prev``, which no evolver
reads, to the reads that use them. Any other envelope (format 1, a long payload, a wrong type
anywhere) is unpacked and checked in full, with the full check's message.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any

import msgpack
import msgspec
from msgspec import UNSET

from tablelog.store.errors import LogError, record_error
from tablelog.store.format import (
    BATCH_KEY,
    COMMAND_KEY,
    MAX_CONTAINER_LEN,
    REQUEST_KEY,
    SIG_KEY,
    TIME_FORMAT,
    Position,
    optional_fault,
)
from tablelog.store.stamp import MAX_AHEAD_S, horizon, stepped_back
from tablelog.text import Msg, msg

__all__ = [
    "FoldEnvelope",
    "Check",
    "checker",
    "refuse_a_time_ahead",
    "time_horizon",
    "clock_now",
    "FarOff",
    "MAX_AHEAD_S",
]

MAX_FAR_OFF = 10_000  # far-off records a read notes at most (a log of them all stays bounded)
_EMPTY_HASH = hashlib.blake2b(digest_size=16)  # copied for each record's chain hash
_MAP_MARKERS = frozenset({*range(0x80, 0x90), 0xDE, 0xDF})  # fixmap, map 16, map 32

Check = Callable[[bytes, int, int], tuple[Any, int]]
"""``check(payload, offset, seq) -> (envelope, batch count)``: raises the record's LogError."""

FarOff = dict[int, tuple[int, str, str]]
"""The far-off records the reads with ``chain`` of a log met: seq → ``(byte offset, at,
before)``, ``before`` the previous record's time for a record dated a day or more before it,
``""`` for one dated a day or more after this machine's clock (and as late as the one before)."""


class FoldEnvelope(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A format-2 record's envelope as a fold reads it, ``data`` still packed (msgpack bytes,
    for the event's typed decode) or, for a record checked in full, unpacked (a dict).

    The usual envelope only: the seven keys, ``cmd`` (UNSET in a record without one) and the
    batch count (``more``, left out of a batch's last record: then UNSET); ``seq``, ``cmd``,
    ``v`` and ``more`` integers, ``type`` a string. The types of ``at``, ``actor`` and ``prev``
    are left to the reads that use them.
    """

    type: str
    v: int
    data: Any
    seq: int
    at: msgspec.Raw
    actor: msgspec.Raw
    prev: msgspec.Raw
    cmd: int | msgspec.UnsetType = msgspec.UNSET
    more: int | msgspec.UnsetType = msgspec.UNSET


class _Packed(FoldEnvelope, forbid_unknown_fields=True, gc=False):
    data: msgspec.Raw


_decode_folded = msgspec.msgpack.Decoder(_Packed).decode
_NONE = msgspec.Raw(b"")  # a fold never reads at, actor, prev


def checker(
    path: str, version: int, start: Position, chain: bool, fold: bool, far_off: FarOff | None = None
) -> Check:
    """Return the checks of the records of a log read from ``start``.

    Args:
        path: What messages call the log.
        version: Its format version (command and request ids, signatures from 2 on).
        start: Where the read starts (its ``prev``: the hash the next record chains to).
        chain: Check the hash chain and the times too (``verify``).
        fold: Check only what a fold reads (then a record is a :class:`FoldEnvelope`).
        far_off: With ``chain``, where to note each far-off record read (:data:`FarOff`).

    Returns:
        ``check(payload, offset, seq)``, which raises LogError naming the record.
    """
    full = _full_check(path, version, start, chain, fold and not chain, far_off)
    if not fold:
        return full
    cheap = not chain and version >= 2

    def check(payload: bytes, offset: int, seq: int) -> tuple[Any, int]:
        if cheap and len(payload) <= MAX_CONTAINER_LEN:  # the usual envelope: one C pass
            try:
                env = _decode_folded(payload)
            except (msgspec.MsgspecError, RecursionError):  # the full check names the fault
                pass
            else:
                more, cmd = env.more, env.cmd
                if (
                    env.seq == seq
                    and (cmd is UNSET or 0 < cmd <= seq)
                    and (more is UNSET or more > 0)
                    and memoryview(env.data)[0] in _MAP_MARKERS
                ):
                    return env, 0 if more is UNSET else more
        found, more = full(payload, offset, seq)
        folded = FoldEnvelope(found["type"], found["v"], found["data"], seq, _NONE, _NONE, _NONE)
        return folded, more

    return check


def _full_check(
    path: str, version: int, start: Position, chain: bool, loose: bool, far_off: FarOff | None
) -> Check:
    """Return the full check: the payload unpacked within bounds, every envelope key of its
    type (with ``loose``, not those of ``at``, ``actor``, ``prev``), with ``chain`` the chain
    and the times (the far-off ones noted in ``far_off``)."""
    keys = (COMMAND_KEY, REQUEST_KEY, SIG_KEY) if version >= 2 else ("", "", "")
    prev, at_before = start.prev, ""
    far = time_horizon() if chain else ""  # a record dated at or after this is far off
    noted: FarOff = far_off if far_off is not None else {}
    room = MAX_FAR_OFF if far_off is not None else 0  # how many far-off records to note

    def corrupt(message: Msg | str, offset: int, seq: int) -> LogError:
        return record_error(path, seq, offset, message, "corrupt record")

    def check(payload: bytes, offset: int, seq: int) -> tuple[dict[str, Any], int]:
        nonlocal prev, at_before
        env = _unpacked(payload, offset, seq, corrupt)
        try:  # a KeyError or TypeError here: not a map with the envelope's keys
            more = 0 if len(env) == 7 else _optional(env, seq, offset, keys, corrupt)
            ok = _typed(env, seq, loose)
        except (KeyError, TypeError):
            raise corrupt(
                msg("store.envelope.not_envelope", "record is not a tablelog envelope"), offset, seq
            ) from None
        if chain:  # verify: the chain, and times in the format, going back only from far off
            at = env["at"]
            ok = ok and env["prev"] == prev and TIME_FORMAT.fullmatch(at) is not None
            ok = ok and (at_before <= at or stepped_back(at_before, at))
        if not ok:
            fault = _fault(env, seq, prev if chain else None, at_before if chain else None)
            raise corrupt(fault, offset, seq)
        if chain:
            if (at < at_before or at_before != at >= far) and len(noted) < room:
                noted[seq] = (offset, at, at_before if at < at_before else "")
            at_before = at
            digest = _EMPTY_HASH.copy()
            digest.update(payload)
            prev = digest.digest()
        return env, more

    return check


def _unpacked(
    payload: bytes, offset: int, seq: int, corrupt: Callable[[Msg | str, int, int], LogError]
) -> Any:
    """Return a payload unpacked within the reader's bounds (its length bounds a short one)."""
    try:
        if len(payload) <= MAX_CONTAINER_LEN:
            return msgpack.unpackb(payload, strict_map_key=False)
        limit = MAX_CONTAINER_LEN
        return msgpack.unpackb(
            payload, strict_map_key=False, max_array_len=limit, max_map_len=limit
        )
    except Exception as exc:  # msgpack raises several types; all mean the same
        said = msg(
            "store.envelope.malformed",
            "malformed record payload ({kind})",
            kind=type(exc).__name__,
        )
        raise corrupt(said, offset, seq) from None


def _typed(env: dict[str, Any], seq: int, loose: bool) -> bool:
    """Return whether the envelope's keys have their types; with ``loose`` (a fold), ``at``,
    ``actor`` and ``prev`` of any type, as its one-pass decode takes them.

    Raises:
        KeyError: a key missing (then it is no envelope, for a fold too).
    """
    actor, at, prev = env["actor"], env["at"], env["prev"]
    return (
        env["seq"] == seq
        and type(env["seq"]) is int
        and type(env["type"]) is str
        and type(env["v"]) is int
        and type(env["data"]) is dict
        and (loose or (type(actor) is str and type(at) is str and type(prev) is bytes))
    )


def _optional(
    env: dict[str, Any],
    seq: int,
    offset: int,
    keys: tuple[str, str, str],
    corrupt: Callable[[Msg | str, int, int], LogError],
) -> int:
    """Check the optional keys of record ``seq``'s envelope (the batch count and ``keys``, the
    command id, request id and signature of the log's format); return its batch count.

    Raises:
        KeyError: a key the format does not have (the caller: not a tablelog envelope).
        LogError: a bad batch count, command id, request id or signature.
    """
    more = env.get(BATCH_KEY, 0)
    cmd_key, req_key, sig_key = keys
    if len(env) - 7 != (BATCH_KEY in env) + (cmd_key in env) + (req_key in env) + (sig_key in env):
        raise KeyError(BATCH_KEY)
    if BATCH_KEY in env and (type(more) is not int or more < 1):
        said = msg(
            "store.envelope.bad_batch",
            "record envelope has a bad batch count {value}",
            value=repr(more),
        )
        raise corrupt(said, offset, seq)
    fault = optional_fault(env) if env["seq"] == seq else ""
    if fault:
        raise corrupt(fault, offset, seq)
    return more  # type: ignore[no-any-return]


def _fault(env: dict[str, Any], seq: int, prev: bytes | None, at_before: str | None) -> Msg:
    """Return why an envelope with all its keys failed the reader's check (``prev``: the chain
    hash expected, ``at_before``: the time before; None when the chain is not checked)."""
    at = env.get("at")
    if env["seq"] != seq or type(env["seq"]) is not int:
        return msg(
            "store.envelope.seq",
            "seq {found} where {seq} was expected",
            found=repr(env["seq"]),
            seq=seq,
        )
    if type(at) is str and at_before is not None and not TIME_FORMAT.fullmatch(at):
        return msg(
            "store.envelope.time_format",
            "time {at} is not YYYY-MM-DDTHH:MM:SS.ffffffZ",
            at=repr(at),
        )
    if type(at) is str and at_before is not None and at < at_before:
        return msg(
            "store.envelope.time_back",
            "time {at} is before the previous record's {before} (by less than a day: "
            "no writer dates a record so)",
            at=at,
            before=at_before,
        )
    if prev is not None and env.get("prev") != prev:
        return msg("store.envelope.chain", "hash chain broken (an earlier record was edited)")
    return msg("store.envelope.types", "record envelope has fields of the wrong type")


def refuse_a_time_ahead(path: str, envelopes: list[dict[str, Any]], after: int) -> None:
    """Refuse to append records dated more than a day after this machine's clock (one
    command's records share one time) after record ``after`` of the log ``path``: no writer
    dates a record so (:func:`tablelog.store.stamp.stamp` does not follow a far-off time).

    Raises:
        LogError: the records' time is past :func:`time_horizon`.
    """
    at = envelopes[0]["at"] if envelopes else ""
    if at > time_horizon() and TIME_FORMAT.fullmatch(at):
        raise LogError(
            msg(
                "store.append.far_ahead",
                "{path}: cannot append after record #{after}: the next record would be dated "
                "{at}, more than a day after this machine's clock ({now}); the log is "
                "unchanged (if this machine's clock is wrong, set it)",
                path=path,
                after=after,
                at=at,
                now=clock_now(),
            )
        )


def time_horizon() -> str:
    """Return the latest time a record may have when written: this machine's clock plus a day
    (clocks at one table disagree by minutes, not by a day); a record read dated at or after it
    is far off."""
    return horizon(dt.datetime.now(dt.UTC))


def clock_now() -> str:
    """Return this machine's clock, UTC to the second, as messages show it."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
