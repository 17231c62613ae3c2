"""A log file's append under its writer lock (:meth:`tablelog.store.logfile.LogFile.append`).

The writer writes through the descriptor it locked, opened in append mode: it writes to the very
file it locked, and never seeks back over bytes it did not write. Before writing it checks that
the file at the path is still the one it locked (else the command catches up on the new one)
and that it still ends where the command was decided; every record of the batch goes in one
write, then an fsync; a failed write is cut back (docs/RELIABILITY.md).
"""

from __future__ import annotations

import os
from typing import Any

from tablelog.store.envelope import refuse_a_time_ahead
from tablelog.store.errors import LogError, LogMovedOn, torn_error
from tablelog.store.files import append_all
from tablelog.store.format import Position
from tablelog.store.framing import frame
from tablelog.text import msg

__all__ = ["appended"]


def appended(log: Any, envelopes: list[dict[str, Any]], expected: Position) -> Position:
    """Append one batch after ``expected`` to ``log`` (a :class:`~tablelog.store.logfile.LogFile`
    whose writer lock is held); return the new end, after fsync.

    Raises:
        LogMovedOn: another writer appended since ``expected``, or the log at the path was
            replaced by another file (then the caller catches up on that one).
        LogError: no lock held, a torn tail, a time too far ahead, a value msgpack cannot hold,
            or a failed write (then the file is cut back to its size before the append).
    """
    held = log._held
    if held is None or held.fd is None:
        raise LogError(
            msg("store.append.unlocked", "{path}: an append without the writer lock", path=log.path)
        )
    fd = held.fd  # the locked file itself, in append mode: we write to what we locked
    if not held.still_at_path(fd):  # replaced under the lock: catch up on the new file
        raise LogMovedOn()
    size, ends = os.fstat(fd).st_size, expected.span[1]  # type: ignore[index]
    if size != ends:
        if size < ends:
            raise LogError(
                msg(
                    "store.append.shrank",
                    "{path} shrank under us (now {size} bytes)",
                    path=log.path,
                    size=size,
                )
            )
        _moved_or_torn(log, expected)
    refuse_a_time_ahead(log.path, envelopes, expected.seq)
    sign = log.signer if log.version and log.version >= 2 else None
    try:
        data, end = frame(envelopes, expected, sign)
    except (TypeError, ValueError, OverflowError) as exc:  # a value msgpack cannot hold
        raise LogError(
            msg(
                "store.append.unstorable",
                "cannot store the events in {path}: {why}; the log is unchanged",
                path=log.path,
                why=str(exc),
            )
        ) from None
    append_all(fd, data, size, log.path)
    log.end = end
    return end


def _moved_or_torn(log: Any, expected: Position) -> None:
    """Raise why a log does not end at ``expected``: records after it (LogMovedOn), or a torn
    tail (LogError, the repair hint)."""
    for _ in log.records(expected):
        raise LogMovedOn()
    if log.torn_at is not None:
        raise torn_error(log)
    raise LogMovedOn()
