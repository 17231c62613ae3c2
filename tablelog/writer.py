"""The write side of a session: one command's events as envelopes, stamped and appended where
the folded log ends, or buffered until the end of an atomic run.

Every record of one command shares its ``at`` (:mod:`tablelog.store.stamp`) and, from format 2
on, its command id (``cmd``: the seq of its first record); a request id goes into the first
record (docs/FORMAT.md, SERVER.md §2). The append succeeds only if the log still ends where the
command was decided (else :class:`~tablelog.store.log.LogMovedOn`: see :mod:`tablelog.retry`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tablelog.events.codec import to_record
from tablelog.events.core import Event
from tablelog.store.base import Lock, Log
from tablelog.store.errors import LogError
from tablelog.store.format import COMMAND_KEY, REQUEST_KEY, Position
from tablelog.store.stamp import stamp
from tablelog.text import msg

__all__ = ["Writer"]


class Writer:
    """Appends one log's commands.

    Args:
        log: The opened log.

    Attributes:
        end: Where the log ends as the session last folded or wrote it (None: not folded yet).
        lock: The writer lock while it is held (a busy log, an atomic run), else None.
        pending: In an atomic run, the envelopes not written yet; else None.
        written: ``(start, envelopes)`` of the latest command this writer appended on its own
            (not in an atomic run): where the log ended before it, and its envelopes as given
            to the store (the server keeps its records without reading them back).
    """

    def __init__(self, log: Log) -> None:
        self.log = log
        self.end: Position | None = None
        self.lock: Lock | None = None
        self.pending: list[dict[str, Any]] | None = None
        self.written: tuple[Position, list[dict[str, Any]]] | None = None
        self._last_at: str | None = None  # the ``at`` of the log's last record, once known

    @property
    def last_at(self) -> str | None:
        """The ``at`` of the latest command this writer appended (or read), or None."""
        return self._last_at

    def moved_on(self) -> None:
        """Forget the last record's time: others appended (stamp after their last record)."""
        self._last_at = None

    def write(self, events: list[Event], actor: str, request_id: str | None = None) -> None:
        """Append ``events`` as one command of ``actor`` (each envelope's ``actor``) where the
        log ends (:attr:`end`), or buffer them.

        Raises:
            LogMovedOn: another writer appended since :attr:`end`.
            LogError: the log cannot be written, or its last record's time is one no command
                can follow.
        """
        at = self._stamp()
        assert self.end is not None
        ids = {COMMAND_KEY: self.end.seq + 1} if (self.log.version or 1) >= 2 else {}
        envelopes = []
        for event in events:
            type_tag, version, data = to_record(event)
            envelopes.append(
                {"type": type_tag, "v": version, "at": at, "actor": actor, "data": data, **ids}
            )
        if request_id is not None:
            envelopes[0][REQUEST_KEY] = request_id
        if self.pending is not None:
            self.pending.extend(envelopes)
            self.end = Position(self.end.seq + len(envelopes), self.end.prev)  # not written yet
            return
        start, self.written = self.end, None
        self.end = self.log.append(envelopes, start, locked=self.lock is not None)
        self.written = (start, envelopes)

    def _stamp(self) -> str:
        """Return this command's ``at``: now, but after the log's last record (read again
        after every lost race), so times never go back even when a player's clock runs ahead
        of this machine's; but for a last record dated a day or more ahead of this clock (a
        wrong clock's, this one's or the record's) or at the last time of all, which is not
        followed: seq orders the log (``tablelog.store.stamp.stamp``). Every record of one
        command shares it.
        """
        assert self.end is not None
        if self._last_at is None:
            self._last_at = str(self.log.envelope_at(self.end)["at"]) if self.end.seq else ""
        try:
            self._last_at = stamp(self._last_at)
        except LogError:  # say what to do: the record is damaged, not just misdated
            path = self.log.path
            raise LogError(
                msg(
                    "core.append.bad_last_time",
                    "{path}: cannot append after record #{seq}: its time {at} is one no "
                    "command can follow (it is no time: a hostile edit or damage wrote it); keep "
                    "the records before it with: tablelog --log {path} verify --salvage OUT",
                    path=path,
                    seq=self.end.seq,
                    at=repr(self._last_at),
                )
            ) from None
        return self._last_at

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the writer lock for the block (appends in it take no lock of their own)."""
        lock = self.log.lock()
        self.lock = lock
        try:
            yield
        finally:
            self.lock = None
            lock.release()

    @contextmanager
    def buffered(self, commit: bool) -> Iterator[None]:
        """Buffer every write in the block; append them all at its end as one batch when
        ``commit`` (the lock held), else none. An exception leaves nothing written.

        Raises:
            LogError: the final append failed (nothing written).
        """
        start = self.end
        self.pending = []
        try:
            yield
            pending, self.pending = self.pending, None
            if pending and commit:
                assert start is not None
                self.end = self.log.append(pending, start, locked=True)
        finally:
            self.pending = None
