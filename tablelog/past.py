"""A log's past as the session reads it besides the fold: a summary of each record and the
markers up to a seq (what undo and redo read), and the decoded events (history, exports).

The undo decider (:mod:`tablelog.actions`) is pure; this reads what it needs through the store's
interface (:class:`tablelog.store.base.Log`), starting near the action it looks for when a
checkpoint of the replay (:class:`tablelog.replay.Replayer`) lies before it.
"""

from __future__ import annotations

from collections.abc import Iterator

from tablelog import actions
from tablelog.events.codec import CodecError, from_record
from tablelog.events.core import MARKERS, Event
from tablelog.replay import Replayer
from tablelog.store.base import Log
from tablelog.store.errors import record_error
from tablelog.store.format import COMMAND_KEY, Position
from tablelog.store.reader import StoredRecord

__all__ = ["summaries", "markers", "events"]


def summaries(replayer: Replayer, near: int | None = None) -> Iterator[actions.Summary]:
    """Yield a summary per record (see :data:`actions.Summary`), for undo and redo to find
    actions.

    Args:
        replayer: The log's fold machinery (its log, its checkpoints, whether it checks the
            hash chain).
        near: Start at the latest checkpoint before this seq, unless the action there began
            before the checkpoint (then read the whole log); None: the whole log.

    Raises:
        LogError: a record cannot be read.
    """
    log = replayer.log
    start = replayer.pick(near - 1, None) if near is not None else None
    boundary = _command_at(replayer, start.end) if start is not None else None
    first = True
    for seq, env, *_ in log.records(start.end if start is not None else None, replayer.chain):
        key = actions.summary(
            seq,
            env.get(COMMAND_KEY),
            env["at"],
            env["actor"],
            env["type"],
            env["data"].get("target"),
        )
        if first and boundary is not None and key[1] == boundary:
            yield from summaries(replayer, None)
            return
        first = False
        yield key


def _command_at(replayer: Replayer, end: Position) -> object:
    """Return the command key of the record that ends at ``end`` (see actions.summary)."""
    env = replayer.log.envelope_at(end)
    return actions.summary(end.seq, env.get(COMMAND_KEY), env["at"], env["actor"], env["type"])[1]


def markers(log: Log, chain: bool, until: int | None = None) -> actions.Markers:
    """Return the latest undo/redo marker of each target (up to seq ``until``), read from the
    whole log: what decides which events are undone.

    Args:
        log: The opened log.
        chain: Check the hash chain of every record read (``verify``).
        until: The last seq to read; None: the whole log.

    Raises:
        LogError: a record cannot be read, or a marker targets no earlier event.
    """
    found = actions.Markers()
    for rec in log.scan(chain=chain):
        if until is not None and rec.seq > until:
            break
        if rec.type in MARKERS:
            target = rec.data.get("target")
            if type(target) is not int or not 0 < target < rec.seq:
                shown = f"#{target}" if type(target) is int else repr(target)
                raise record_error(
                    log.path,
                    rec.seq,
                    rec.offset,
                    f"{rec.type} targets {shown}, which is not an earlier event",
                )
            found.add(rec.seq, rec.type, target)
    return found


def events(log: Log, chain: bool, until: int | None = None) -> Iterator[tuple[StoredRecord, Event]]:
    """Yield ``(record, event)`` for every whole record (up to seq ``until``), decoded.

    Args:
        log: The opened log (its system loaded: :func:`tablelog.systems.get`).
        chain: Check the hash chain of every record read (``verify``).
        until: The last seq to read; None: the whole log.

    Raises:
        LogError: a corrupt record or one that does not decode (offset and seq named).
    """
    for rec in log.scan(chain=chain):
        if until is not None and rec.seq > until:
            return
        try:
            yield rec, from_record(rec.type, rec.v, rec.data)
        except CodecError as exc:
            raise record_error(log.path, rec.seq, rec.offset, exc) from None
