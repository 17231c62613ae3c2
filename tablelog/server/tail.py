"""The records a table hands to its event streams, log reads and command answers.

A :class:`Tail` keeps a table's latest records in memory, read once from the store however many
streams want them (a hundred subscribers cost one read), and extended from where it ends; older
records are read from the store, starting at the nearest position it has indexed. The records a
command of this process appended are taken as the store framed them (:meth:`Tail.appended`),
not read back: a command's answer costs no read.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tablelog.store.base import Log
from tablelog.store.format import Position, decode_payload
from tablelog.store.framing import records_of
from tablelog.store.reader import StoredRecord, after

__all__ = ["Tail", "Stored", "INDEX_EVERY", "TAIL"]

INDEX_EVERY = 256  # records between the positions a tail remembers (reads start near a seq)
TAIL = 512  # the latest records a tail keeps


class Stored(NamedTuple):
    """A record read by a table: its fields, and its whole envelope (for ``log --json``)."""

    rec: StoredRecord
    env: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rec, name)


class Tail:
    """The latest records of one table (not thread-safe: the table's lock guards it)."""

    def __init__(self) -> None:
        self._index: list[Position] = []  # the position after seq INDEX_EVERY × (i + 1)
        self._tail: list[Stored] = []  # the latest records read, contiguous
        self._end: Position | None = None  # the position after the tail's last record

    def after(self, log: Log, seq: int, end: int, limit: int) -> list[Stored]:
        """Return the records of ``log`` after ``seq`` up to ``end`` (at most ``limit``).

        Raises:
            LogError: the log cannot be read.
        """
        tail = self._tail
        if not tail or tail[0].seq > seq + 1:
            k = min(seq // INDEX_EVERY, len(self._index))
            found, after = self._read(log, self._index[k - 1] if k > 0 else None, seq, limit)
            if not found or found[-1].seq == end:
                self._tail, self._end = found[-TAIL:], after
            return found
        if tail[-1].seq < end:
            more, self._end = self._read(log, self._end, tail[-1].seq, end - tail[-1].seq)
            tail += more
            del tail[:-TAIL]
        first = max(0, seq + 1 - tail[0].seq)
        return tail[first : first + limit]

    def appended(self, start: Position, envelopes: list[dict[str, Any]], end: Position) -> None:
        """Take the records of one command this process appended after ``start`` (its
        ``envelopes`` as given to the store, which ended at ``end``): framed and decoded as a
        read of the store would return them. When framing them again does not end at ``end``
        (the store signed them), nothing is taken: they are read when asked for."""
        framed, framed_end = records_of(envelopes, start)
        if framed_end != end or framed_end.span != end.span:
            return
        records = []
        for record in framed:
            seq, _, offset, _, payload = record
            env = decode_payload(payload)
            records.append(Stored(StoredRecord.of(seq, env, offset), env))
            if seq % INDEX_EVERY == 0 and seq // INDEX_EVERY == len(self._index) + 1:
                self._index.append(after(record))
        if self._tail and self._end == start:
            records = self._tail + records
        self._tail, self._end = records[-TAIL:], end

    def _read(
        self,
        log: Log,
        start: Position | None,
        seq: int,
        limit: int,
    ) -> tuple[list[Stored], Position | None]:
        """Read at most ``limit`` records after ``seq`` from the store, starting at ``start``
        (None: the first record); return them and the position after the last one read. The
        log keeps its end, torn and in-flight offsets (the session's reads and appends rely on
        them)."""
        saved = log.end, log.torn_at, log.in_flight
        found: list[Stored] = []
        last = start
        try:
            for record in log.records(start):
                n, env, offset, _, _ = record
                if n % INDEX_EVERY == 0 and n // INDEX_EVERY > len(self._index):
                    self._index.append(after(record))
                if n > seq:
                    found.append(Stored(StoredRecord.of(n, env, offset), env))
                    last = after(record)
                    if len(found) >= limit:
                        break
        finally:
            log.end, log.torn_at, log.in_flight = saved
        return found, last
