"""The one reader of every store: each record's envelope checked, then whole commands only.

A store hands the reader its *frames*, ``(offset, payload)`` of each record after a position
whose framing it checked (a log file: each length within bounds and each CRC-32; a PostgreSQL
table: each payload against its ``crc`` column). The reader checks each envelope
(:mod:`tablelog.store.envelope`: the seq counts on by one from the position) and hands the
records over a whole batch at a time (every record of one command, or of one atomic run): a
batch the frames end inside was cut by a crash, and is never handed over (its first record's
offset is the read's ``torn_at``). Where the read ended, the position after its last record
handed over, is the read's ``end``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, Protocol

from tablelog.store.envelope import Check
from tablelog.store.errors import record_error
from tablelog.store.format import COMMAND_KEY, REQUEST_KEY, Position, chain_hash
from tablelog.text import msg

__all__ = ["Record", "after", "StoredRecord", "Outcome", "read", "stored"]


Record = tuple[int, Any, int, int, bytes]
"""``(seq, envelope, offset, end, payload)`` of one checked record, as a read hands it over:
the envelope is a dict, or for a fold a :class:`~tablelog.store.envelope.FoldEnvelope`;
``offset`` and ``end`` are where it lies in the log's file form (what messages name it by);
its chain hash, when needed, is ``chain_hash(payload)``. A plain tuple: a fold reads a million."""


def after(record: Record) -> Position:
    """Return the position right after ``record``."""
    seq, _, offset, end, payload = record
    return Position(seq, chain_hash(payload), (offset, end))


class StoredRecord(NamedTuple):
    """One record as read back: envelope fields plus its byte offset in the file form.

    ``cmd`` is the command id (the seq of the command's first record; None in a log written
    before command ids), ``req`` the command's request id on its first record, else None.
    """

    seq: int
    type: str
    v: int
    at: str
    actor: str
    data: dict[str, Any]
    offset: int
    cmd: int | None = None
    req: str | None = None

    @classmethod
    def of(cls, seq: int, env: dict[str, Any], offset: int) -> StoredRecord:
        """Return the record of a checked envelope ``env`` (seq ``seq`` at byte ``offset``)."""
        return cls(
            seq,
            env["type"],
            env["v"],
            env["at"],
            env["actor"],
            env["data"],
            offset,
            env.get(COMMAND_KEY),
            env.get(REQUEST_KEY),
        )


class Outcome(Protocol):
    """Where a read leaves what it found: the store's ``end`` and ``torn_at``."""

    path: str
    end: Position | None
    torn_at: int | None


def read(
    frames: Iterable[tuple[int, bytes]], start: Position, check: Check, out: Outcome
) -> Iterator[Record]:
    """Yield the checked records of ``frames`` (read after ``start``), whole batches only.

    Args:
        frames: ``(offset, payload)`` of each record after ``start``, framing checked.
        start: The position the frames follow.
        check: The envelope check (:func:`tablelog.store.envelope.checker`).
        out: Where the read leaves ``end`` (the position after the last record handed over;
            ``start`` when none) and ``torn_at`` (set only when the frames end inside a
            batch: the offset of its first record).

    Raises:
        LogError: a record that fails a check, or a batch count out of turn, naming it.
    """
    seq, need = start.seq, 0
    batch: list[Record] = []
    last: Record | None = None  # the last record handed over
    out.end = start
    try:
        for offset, payload in frames:
            seq += 1
            env, more = check(payload, offset, seq)
            item = (seq, env, offset, offset + 8 + len(payload), payload)
            if batch:
                need -= 1
                if more != need:
                    message = msg(
                        "store.record.batch_count",
                        "batch count {found} where {need} was expected",
                        found=repr(more),
                        need=need,
                    )
                    raise record_error(out.path, seq, offset, message, "corrupt record")
                batch.append(item)
                if need:
                    continue
                for last in batch:  # noqa: B007 - the batch is whole: hand its records over
                    yield last
                batch = []
            elif more:
                batch, need = [item], more
            else:
                yield item
                last = item
        if batch:  # the frames end inside a batch: a crash mid-append
            out.torn_at = batch[0][2]
    finally:
        if last is not None:
            out.end = after(last)


def stored(records: Iterable[Record]) -> Iterator[StoredRecord]:
    """Yield each record (read with dict envelopes) as a :class:`StoredRecord`."""
    for seq, env, offset, _, _ in records:
        yield StoredRecord.of(seq, env, offset)
