"""A fold's work on one record: the event its data decodes to, the evolver it goes to, and the
error that names the record when it cannot be folded (:mod:`tablelog.replay`'s hot loop).

Every error names the record by its seq and its byte offset in the log's file form
(:func:`tablelog.store.errors.record_error`); a fold refuses an event of another system than the
log's, whatever systems are loaded.
"""

from __future__ import annotations

from typing import Any

from tablelog import systems
from tablelog.events.codec import CodecError, UnreadableData, decoder
from tablelog.events.core import Event, event_class
from tablelog.projections.core import State, no_evolver
from tablelog.rules.core import RuleViolation
from tablelog.store.envelope import FoldEnvelope
from tablelog.store.errors import LogError, record_error
from tablelog.store.format import decode_payload
from tablelog.text import msg

__all__ = [
    "check_system",
    "marker_target",
    "decoder_of",
    "entry_of",
    "still_readable",
    "decoded",
    "misfit",
    "failure",
]


def check_system(kind: str, system: str, path: str, seq: int, offset: int) -> None:
    """Refuse an event of another system than the log's (whatever systems are loaded).

    Raises:
        LogError: the type tag names a known system (:func:`systems.names`) other than
            ``system``.
    """
    own = kind.partition(".")[0]
    if own != system and own in systems.names():
        said = msg(
            "core.fold.other_system",
            "a {own} event ({kind}) in a {system} log",
            own=own,
            kind=kind,
            system=system,
        )
        raise record_error(path, seq, offset, said)


def marker_target(kind: str, env: FoldEnvelope, seq: int, offset: int, path: str) -> int:
    """Return the seq an undo/redo marker targets; it must be an earlier one (LogError)."""
    target: int = decoded(decoder_of(path, kind, env.v, seq, offset), env, seq, offset, path).target
    if not 0 < target < seq:  # undo and redo take back what is already logged
        said = msg(
            "core.fold.marker_target",
            "{kind} targets #{target}, which is not an earlier event",
            kind=kind,
            target=target,
        )
        raise record_error(path, seq, offset, said)
    return target


def decoder_of(path: str, kind: str, version: int, seq: int, offset: int) -> Any:
    """Return the codec's decoder of ``(kind, version)`` records (LogError: naming record
    ``seq`` when there is none: an unknown type or version)."""
    try:
        return decoder(kind, version)
    except CodecError as exc:
        raise record_error(path, seq, offset, exc) from None


def entry_of(
    table: dict[type, Any], path: str, kind: str, version: int, seq: int, offset: int
) -> tuple[int, Any, Any]:
    """Return ``(version, decoder, evolver)`` for ``(kind, version)`` records."""
    decode = decoder_of(path, kind, version, seq, offset)
    cls = event_class(kind)
    typed = table.get(cls, _no_evolver) if cls is not None else _no_evolver
    return version, decode, typed


def _no_evolver(state: State, event: Event) -> None:
    raise RuleViolation("CORE-EVENT", no_evolver(event.TYPE))


def still_readable(env: FoldEnvelope, seq: int, offset: int, path: str) -> Any:
    """Return a folded record's data unpacked (a dict the reader checked in full as it is).

    Raises:
        LogError: bytes msgpack cannot decode (bad UTF-8, nesting too deep …): the corrupt
            record, as the general reader names it.
    """
    data: Any = env.data
    if type(data) is dict:
        return data
    try:
        return decode_payload(data)
    except Exception as exc:  # msgpack raises several types; all mean the same
        message = msg(
            "store.envelope.malformed",
            "malformed record payload ({kind})",
            kind=type(exc).__name__,
        )
        raise record_error(path, seq, offset, message, "corrupt record") from None


def decoded(decode: Any, env: FoldEnvelope, seq: int, offset: int, path: str) -> Any:
    """Return the event of a folded record's data, or raise its LogError."""
    try:
        return decode(env.data)
    except CodecError as exc:
        return misfit(decode, exc, env, seq, offset, path)


def misfit(
    decode: Any, exc: CodecError, env: FoldEnvelope, seq: int, offset: int, path: str
) -> Any:
    """Raise the LogError of a record whose data the codec refused with ``exc``: packed data
    that is not msgpack is the corrupt record the general reader names (its message is
    msgpack's, as it always was); data that msgpack reads is decoded from that map.

    Raises:
        LogError: always, unless msgpack reads what the codec could not and it fits.
    """
    if not isinstance(exc, UnreadableData):
        raise record_error(path, seq, offset, exc) from None
    try:
        return decode(still_readable(env, seq, offset, path))
    except CodecError as again:
        raise record_error(path, seq, offset, again) from None


def failure(exc: Exception, seq: int, path: str) -> LogError:
    """Return the LogError for an event that does not apply during a fold."""
    if isinstance(exc, RuleViolation):
        said = msg(
            "core.fold.refused",
            "{path}: event #{seq} does not replay: {rule}: {message}",
            path=path,
            seq=seq,
            rule=exc.rule_id,
            message=exc.msg,
        )
        return LogError(said, None, seq)
    said = msg(
        "core.fold.failed",
        "{path}: event #{seq} does not replay ({kind}: {why})",
        path=path,
        seq=seq,
        kind=type(exc).__name__,
        why=str(exc),
    )
    return LogError(said, None, seq)
