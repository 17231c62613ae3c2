"""What can go wrong with a table, on any store: the errors every store raises.

Every message that names a record by its seq and byte offset is made by :func:`record_error`
(``"PATH: record #N at byte X: …"``; ``corrupt record`` when its bytes fail the reader's
checks). A record's byte offset is where it lies in the table's file form (what ``tablelog
copy`` writes to a file): it names the record in messages on every store, and is never how a
store is asked for one (that is its seq, and a position's chain hash).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "LogError",
    "LogLocked",
    "LogUnwritable",
    "LogMovedOn",
    "record_error",
    "torn_error",
]


class LogError(Exception):
    """The log cannot be used: missing, not a tablelog file, corrupt, or locked (exit status 3).

    Attributes:
        offset: The byte offset of the record (or header field) at fault, when known.
        seq: The seq of the record at fault, when known.
    """

    def __init__(self, message: str, offset: int | None = None, seq: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset
        self.seq = seq


class LogLocked(LogError):
    """The writer lock cannot be taken: held past the timeout, or its file cannot be used."""


class LogUnwritable(LogError):
    """A file the command must write (a backup, a cut) could not be written in full: a full
    disk, a read-only directory; what was written is taken back (exit status 3)."""


class LogMovedOn(Exception):
    """Another writer appended after the position a command was decided on: decide again."""


def record_error(
    path: str, seq: int, offset: int, message: object, what: str = "record"
) -> LogError:
    """Return the error for record ``seq`` at byte ``offset`` of the log ``path`` that cannot
    be used: ``"{path}: {what} #{seq} at byte {offset}: {message}"`` (exit status 3).

    Args:
        path: What messages call the log (:attr:`tablelog.store.base.Log.path`).
        seq: The record's seq.
        offset: Where the record starts in the log's file form.
        message: What is wrong with it.
        what: ``record``, or ``corrupt record`` when its bytes fail the reader's checks.
    """
    return LogError(f"{path}: {what} #{seq} at byte {offset}: {message}", offset, seq)


def torn_error(log: Any) -> LogError:
    """Return the refusal of an append to a log whose latest read ended in a torn command (a
    crash mid-append: only a log file ever has one).

    Args:
        log: The log (:class:`tablelog.store.base.Log`), its ``torn_at`` set by that read.
    """
    return LogError(
        f"{log.path}: torn last record at byte {log.torn_at} (a crash "
        "mid-append); run: tablelog verify --repair",
        log.torn_at,
    )
