"""What can go wrong with a table, on any store: the errors every store raises.

Every message that names a record by its seq and byte offset is made by :func:`record_error`
(``"PATH: record #N at byte X: …"``; ``corrupt record`` when its bytes fail the reader's
checks). A record's byte offset is where it lies in the table's file form (what ``tablelog
copy`` writes to a file): it names the record in messages on every store, and is never how a
store is asked for one (that is its seq, and a position's chain hash).
"""

from __future__ import annotations

from typing import Any

from tablelog.text import Msg, english, msg

__all__ = [
    "LogError",
    "LogLocked",
    "LogUnwritable",
    "LogMovedOn",
    "record_error",
    "torn_error",
    "exists_error",
    "cannot",
    "message_of",
]


class LogError(Exception):
    """The log cannot be used: missing, not a tablelog file, corrupt, or locked (exit status 3).

    Args:
        message: What is wrong: a sentence as data (:class:`~tablelog.text.Msg`, its values
            the paths, table ids, byte offsets and seqs), which each face renders in its
            reader's language; plain text is kept as it is. ``str(exc)`` is its English.

    Attributes:
        msg: The message as data (or the plain text it was given).
        offset: The byte offset of the record (or header field) at fault, when known.
        seq: The seq of the record at fault, when known.
    """

    def __init__(
        self, message: Msg | str, offset: int | None = None, seq: int | None = None
    ) -> None:
        super().__init__(english(message) if isinstance(message, Msg) else message)
        self.msg: Msg | str = message
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
    if isinstance(message, LogError):
        message = message.msg
    if what == "corrupt record":
        said = msg(
            "store.record.corrupt",
            "{path}: corrupt record #{seq} at byte {offset}: {message}",
            path=path,
            seq=seq,
            offset=offset,
            message=message,
        )
    else:
        said = msg(
            "store.record.fault",
            "{path}: record #{seq} at byte {offset}: {message}",
            path=path,
            seq=seq,
            offset=offset,
            message=message,
        )
    return LogError(said, offset, seq)


def torn_error(log: Any) -> LogError:
    """Return the refusal of an append to a log whose latest read ended in a torn command (a
    crash mid-append: only a log file ever has one).

    Args:
        log: The log (:class:`tablelog.store.base.Log`), its ``torn_at`` set by that read.
    """
    return LogError(
        msg(
            "store.torn",
            "{path}: torn last record at byte {offset} (a crash mid-append); run: "
            "tablelog verify --repair",
            path=log.path,
            offset=log.torn_at,
        ),
        log.torn_at,
    )


def exists_error(path: str) -> LogError:
    """Return the refusal to create the table ``path`` that already exists."""
    return LogError(
        msg("store.exists", "{path} already exists; refusing to overwrite it", path=path)
    )


def cannot(verb: str, path: str, why: object, after: str = "") -> Msg:
    """Return ``cannot VERB PATH: WHY`` (``after``: ``nothing copied``, ``no log was created``,
    … appended after a semicolon): the message of a file that cannot be used.

    Args:
        verb: ``create``, ``read``, ``write`` or ``lock``.
        path: The file.
        why: The system's reason (its ``strerror``, shown as it is).
        after: ``copied``, ``created``, ``salvaged``, ``repaired`` or ``unchanged``: what was
            not done (``nothing copied``, …), or ``""``.
    """
    said = {
        "create": msg("store.cannot.create", "cannot create {path}: {why}", path=path, why=why),
        "read": msg("store.cannot.read", "cannot read {path}: {why}", path=path, why=why),
        "write": msg("store.cannot.write", "cannot write {path}: {why}", path=path, why=why),
        "lock": msg("store.cannot.lock", "cannot lock {path}: {why}", path=path, why=why),
    }[verb]
    tail = {
        "": None,
        "copied": msg("store.after.copied", "{message}; nothing copied", message=said),
        "created": msg("store.after.created", "{message}; no log was created", message=said),
        "salvaged": msg("store.after.salvaged", "{message}; nothing salvaged", message=said),
        "repaired": msg("store.after.repaired", "{message}; nothing repaired", message=said),
    }[after]
    return said if tail is None else tail


def message_of(exc: BaseException) -> Msg | str:
    """Return what ``exc`` says, as a face renders it: a :class:`LogError`'s sentence as data
    (its :attr:`~LogError.msg`), any other error's text (``str(exc)``)."""
    return exc.msg if isinstance(exc, LogError) else str(exc)
