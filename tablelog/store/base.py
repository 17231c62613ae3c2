"""The store interface: what the session, the replay, ``verify`` and the snapshot cache use.

A *store* holds tables; a *table* is one log (docs/FORMAT.md: the same header, the same
envelopes, the same msgpack bytes, the same hash chain). :class:`Log` is one table of a store,
opened; two implementations satisfy it:

- :class:`tablelog.store.log.LogFile`: a log file (``PATH``, or ``file:DIR#ID`` for
  ``DIR/ID.tlog``), appends under a lock file.
- :class:`tablelog.store.postgres.PostgresLog`: a table in PostgreSQL
  (``postgresql://…#ID``), one row per record holding the record's payload bytes, one
  transaction per command.

Positions (:class:`~tablelog.store.format.Position`) mean the same on both: a PostgreSQL table's
byte offsets are the offsets its records have in the file form of the log (what ``tablelog copy``
writes), so checkpoints, the reader's checks and error messages read alike (docs/STORES.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

from tablelog.store.format import Header, Position, chain_hash, decode_payload

__all__ = ["Log", "Lock", "holds_record"]


class Lock(AbstractContextManager["Lock"], Protocol):
    """A table's exclusive writer lock, held (release it, or leave the ``with`` block)."""

    def release(self) -> None: ...


class Log(Protocol):
    """One table of a store, opened (see the implementations for what each method raises:
    always :class:`~tablelog.store.log.LogError` when the table cannot be used).

    Attributes:
        kind: ``file`` or ``postgresql``.
        path: What messages call the table (a file path, or the store URL without its password
            and ``#ID``).
        spec: The ``--log`` value that opens it again (may hold a password: never print it).
        header, version, start: After :meth:`open`: the header, the format version, the
            position before the first record.
        end, torn_at: After a full read: the position after the last whole command, and the
            offset of a torn last command (a file cut mid-append; never on PostgreSQL) or None.
        in_flight: After a full read: the offset of a last command another writer was still
            writing, holding the lock past the timeout (not read, not torn), or None.
    """

    kind: str
    path: str
    spec: str
    header: Header | None
    version: int | None
    start: Position | None
    end: Position | None
    torn_at: int | None
    in_flight: int | None

    def open(self) -> Header:
        """Read and check the header."""

    def header_bytes(self) -> bytes:
        """Return the header's bytes (a log file's first ``start.offset`` bytes)."""

    def size(self) -> int:
        """Return the length in bytes of the log's file form (its end offset)."""

    def scan(self, start: Position | None = None, chain: bool = False) -> Iterator[Any]:
        """Yield every whole record after ``start`` as a StoredRecord, checked."""

    def records(
        self, start: Position | None = None, chain: bool = False, fold: bool = False
    ) -> Iterator[Any]:
        """Yield ``(seq, envelope, offset, end, payload)`` of every whole record after
        ``start``, checked (a ``fold`` leaves the types of ``at``, ``actor``, ``prev`` out)."""

    def lock(self) -> Lock:
        """Take the table's exclusive writer lock (waiting up to $TABLELOG_LOCK_TIMEOUT)."""

    def append(
        self, envelopes: list[dict[str, Any]], expected: Position, locked: bool = False
    ) -> Position:
        """Append one command's records if the table still ends at ``expected`` (else
        LogMovedOn); durable before it returns the new end."""

    def envelope_at(self, end: Position) -> dict[str, Any]:
        """Return the envelope of the record that ends at ``end``."""

    def last_at(self, end: Position) -> str:
        """Return the ``at`` of the record that ends at ``end`` (``""`` for an empty log)."""

    def payload_at(self, end: Position) -> bytes | None:
        """Return the payload of the record at ``end.last``..``end.offset``, or None when no
        whole record lies there."""

    def prefix_crc(self, offset: int, start: int = 0, crc: int = 0) -> int:
        """Return the CRC-32 of the file form's bytes before ``offset``, continuing ``crc``
        (that of the bytes before ``start``); -1 when they cannot be read."""

    def position(self, seq: int) -> Position | None:
        """Return the position right after record ``seq`` (0: the start), or None when the
        table holds no record ``seq`` (yet)."""

    def read_snapshot(self, session_id: str, code: str) -> list[Any]:
        """Return the snapshot's checkpoints, or ``[]`` (missing, foreign, stale, damaged)."""

    def write_snapshot(self, session_id: str, code: str, checkpoints: list[Any]) -> None:
        """Replace the snapshot (raises OSError or LogError: callers ignore it, it is a cache)."""

    def torn_error(self) -> Exception:
        """Return the refusal of an append to a table that ends in a torn command."""

    def repair(self) -> tuple[int, str] | None:
        """Cut a torn last command after a backup; None when there was nothing to cut."""

    def salvage(self, out: str, before: int | None = None) -> tuple[int, int, int | None]:
        """Copy the header and the whole commands before the first bad record to ``out``."""

    def waiter(self) -> Any:
        """Return a :class:`tablelog.store.follow.Waiter` for this table's appends."""

    def close(self) -> None:
        """Release what the table holds open (a connection); it opens again when used."""


def holds_record(log: Log, end: Position) -> bool:
    """Return whether ``log``'s record ``end.seq`` lies at ``end.last``..``end.offset`` with the
    chain hash ``end.prev`` (a checkpoint is bound to its record's own seq and bytes).

    Args:
        log: An opened log.
        end: The position after the record (``seq``, ``offset``, ``prev``, ``last``).
    """
    start, last = log.start, end.last
    if start is None or not start.offset <= last < end.offset or end.offset - last - 8 > (1 << 20):
        return False
    payload = log.payload_at(end)
    if payload is None or chain_hash(payload) != end.prev:
        return False
    try:
        env = decode_payload(payload)
    except Exception:  # noqa: BLE001 - not a record at all
        return False
    return type(env) is dict and type(env.get("seq")) is int and env["seq"] == end.seq
