"""Snapshots: a disposable cache of folded states, kept by the store of the log.

A snapshot holds a few *checkpoints*, each the state folded up to some seq, keyed to the log's
session id, the checkpoint's position (the seq and chain hash of its last record, with where
that record lies in the file form) and a digest of the projection code. Every store keeps a
table's snapshot itself (:meth:`tablelog.store.base.Log.load_snapshot`): a log file's in this
user's private cache, sealed under this user's key (:mod:`tablelog.store.snapcache`), never
beside a shared log; a PostgreSQL table's in its ``tablelog_snapshots`` row under an unkeyed
digest. :func:`read_checkpoints` and :func:`write_checkpoints` are the snapshot cache over any
store. Anything that does not match, does not check, is too large or does not decode within
bounds is ignored: the caller folds from the log instead. The layout is in docs/FORMAT.md.

A checkpoint's state is encoded by :mod:`tablelog.store.statecodec` (plain data, tuples,
fractions, sets and big integers as extension types, decoded within bounds; never pickle).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any

import attrs
import msgpack

from tablelog.store.errors import LogError
from tablelog.store.format import Position
from tablelog.store.snapcache import (
    FIXED,
    MAX_SNAPSHOT_BYTES,
    SNAPSHOT_MAGIC,
    SNAPSHOT_VERSION,
    cache_dir,
    read_body,
    seal,
    snapshot_path,
    write_body,
)
from tablelog.store.statecodec import decode_state, encode_state

__all__ = [
    "SNAPSHOT_MAGIC",
    "MAX_SNAPSHOT_BYTES",
    "Checkpoint",
    "encode_state",
    "decode_state",
    "read_checkpoints",
    "write_checkpoints",
    "read_snapshot",
    "write_snapshot",
    "snapshot_path",
    "cache_dir",
    "seal",
    "pack_body",
    "pack_snapshot",
    "parse_snapshot",
]


@attrs.frozen
class Checkpoint:
    """A state folded up to ``end.seq``, encoded, with what it excludes and the markers seen.

    Attributes:
        end: The log position right after the checkpoint's last record (with its span).
        undone: The seqs (all <= end.seq) that the state skipped as undone.
        markers: ``(seq, kind, target)`` of the latest undo/redo marker of each target up to
            ``end.seq``, in log order (earlier ones change nothing: tablelog.actions.Markers).
        state: The encoded state fields (see :func:`encode_state`).
        prefix_crc: The store's digest of the log up to ``end``
            (:meth:`tablelog.store.base.Log.prefix_digest`): a checkpoint is used only while
            the log's prefix still has it, so damage before a checkpoint is never hidden by it.
    """

    end: Position
    undone: frozenset[int]
    markers: Iterable[tuple[int, str, int]]  # a tuple, or a copy of tablelog.actions.Markers
    state: bytes
    prefix_crc: int

    def valid_for(self, undone: set[int] | frozenset[int]) -> bool:
        """Return whether this state is the fold of its prefix under the undone set ``undone``."""
        seq = self.end.seq
        return {t for t in undone if t <= seq} == self.undone


# -- bodies, over any store --------------------------------------------------------------------


def read_checkpoints(log: Any, session_id: str, code: str) -> list[Checkpoint]:
    """Return the checkpoints of ``log``'s snapshot (:class:`tablelog.store.base.Log`), or
    ``[]`` when it is missing, foreign, stale (another session or projection code), damaged in
    any way, or the store cannot be read."""
    try:
        body = log.load_snapshot()
    except (LogError, OSError):
        return []
    return [] if body is None else _checkpoints_of(body, session_id, code)


def write_checkpoints(log: Any, session_id: str, code: str, checkpoints: list[Checkpoint]) -> None:
    """Replace ``log``'s snapshot with ``checkpoints``.

    Raises:
        OSError, LogError: it could not be written (callers ignore it: a snapshot is a cache).
    """
    log.save_snapshot(pack_body(session_id, code, checkpoints))


def pack_body(session_id: str, code: str, checkpoints: list[Checkpoint]) -> bytes:
    """Return a snapshot's body: its session, its code digest and its checkpoints."""
    body: bytes = msgpack.packb(
        {
            "session": session_id,
            "code": code,
            "checkpoints": [_checkpoint_map(cp) for cp in checkpoints],
        },
        use_bin_type=True,
    )
    return body


def _checkpoint_map(cp: Checkpoint) -> dict[str, Any]:
    last, offset = cp.end.span if cp.end.span is not None else (-1, -1)
    return {
        "seq": cp.end.seq,
        "offset": offset,
        "prev": cp.end.prev,
        "last": last,
        "undone": sorted(cp.undone),
        "markers": [list(m) for m in cp.markers],
        "state": cp.state,
        "crc": cp.prefix_crc,
    }


def _checkpoints_of(body: bytes, session_id: str, code: str) -> list[Checkpoint]:
    """Return the checkpoints of a snapshot body, or ``[]`` (foreign, stale, damaged)."""
    try:
        data = msgpack.unpackb(body, raw=False, strict_map_key=False)
        if (
            type(data) is not dict
            or data.get("session") != session_id
            or data.get("code") != code
            or type(data.get("checkpoints")) is not list
        ):
            return []
        return sorted((_checkpoint(m) for m in data["checkpoints"]), key=lambda c: c.end.seq)
    except Exception:  # a damaged cache is no cache  # noqa: BLE001
        return []


def read_snapshot(log_path: str, session_id: str, code: str) -> list[Checkpoint]:
    """Return the checkpoints of this user's snapshot of the log file ``log_path``, or ``[]``
    when it is missing, not provably this user's (MAC), foreign, stale, too large or damaged."""
    body = read_body(log_path)
    return [] if body is None else _checkpoints_of(body, session_id, code)


def write_snapshot(
    log_path: str, session_id: str, code: str, checkpoints: list[Checkpoint]
) -> None:
    """Replace this user's snapshot of the log file ``log_path`` (raises OSError)."""
    write_body(log_path, pack_body(session_id, code, checkpoints))


def pack_snapshot(session_id: str, code: str, checkpoints: list[Checkpoint]) -> bytes:
    """Return a snapshot's bytes for a store that keeps them itself (a PostgreSQL row): the
    layout of the file, with an unkeyed BLAKE2b-256 of the body where the file has its MAC (the
    database's own access rules decide who may write the row)."""
    return seal_unkeyed(pack_body(session_id, code, checkpoints))


def parse_snapshot(data: bytes, session_id: str, code: str) -> list[Checkpoint]:
    """Return the checkpoints of :func:`pack_snapshot` bytes, or ``[]`` when they are foreign,
    stale (another session or projection code), too large or damaged in any way."""
    body = unsealed(data)
    return [] if body is None else _checkpoints_of(body, session_id, code)


def seal_unkeyed(body: bytes) -> bytes:
    """Return the bytes of a snapshot ``body`` under an unkeyed BLAKE2b-256 digest."""
    digest = hashlib.blake2b(body, digest_size=32).digest()
    return FIXED.pack(SNAPSHOT_MAGIC, SNAPSHOT_VERSION, len(body), digest) + body


def unsealed(data: bytes) -> bytes | None:
    """Return the body of :func:`seal_unkeyed` bytes when they check, else None."""
    if not FIXED.size <= len(data) <= FIXED.size + MAX_SNAPSHOT_BYTES:
        return None
    magic, version, size, digest = FIXED.unpack_from(data)
    body = data[FIXED.size :]
    if (
        magic != SNAPSHOT_MAGIC
        or version != SNAPSHOT_VERSION
        or size != len(body)
        or not hmac.compare_digest(digest, hashlib.blake2b(body, digest_size=32).digest())
    ):
        return None
    return body


def _checkpoint(m: Any) -> Checkpoint:
    """Return the checkpoint of a map, checking every field's exact type (ValueError)."""
    if type(m) is not dict:
        raise ValueError("checkpoint is not a map")
    seq, offset, prev, last, crc = (m["seq"], m["offset"], m["prev"], m["last"], m["crc"])
    if not (
        _ints(seq, offset, last, crc)
        and type(prev) is bytes
        and len(prev) == 16
        and type(m["state"]) is bytes
        and type(m["undone"]) is list
        and type(m["markers"]) is list
        and _ints(*m["undone"])
    ):
        raise ValueError("checkpoint fields of the wrong type")
    markers = []
    for marker in m["markers"]:
        if (
            type(marker) is not list
            or len(marker) != 3
            or not _ints(marker[0], marker[2])
            or type(marker[1]) is not str
        ):
            raise ValueError("checkpoint marker of the wrong shape")
        markers.append((marker[0], marker[1], marker[2]))
    span = (last, offset) if last >= 0 else None
    return Checkpoint(
        Position(seq, prev, span), frozenset(m["undone"]), tuple(markers), m["state"], crc
    )


def _ints(*values: Any) -> bool:
    return all(type(v) is int and v >= -1 for v in values)
