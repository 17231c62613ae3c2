"""The PostgreSQL store: a table of it is the log of docs/FORMAT.md, one row per record.

A row holds the record's exact payload bytes (the msgpack envelope) and their CRC-32, and the
columns queries need (type, actor, time, command and request ids); the table's header bytes are
kept whole in ``tablelog_tables``. A table is read by seq, a page of rows at a time, through the
one reader of every store (:mod:`tablelog.store.reader`: each payload against its CRC-32, each
envelope, contiguous seq, whole batches, the hash chain under ``verify``); a record's byte offset
in the file form (what ``tablelog copy`` writes to a file) is counted from the payloads before
it, and names it in messages as on a file. Appending is one transaction per command
(:mod:`tablelog.store.pgappend`): the primary key on (table, seq) is the expected-position
check (a conflict: another writer appended first, decide again), a unique partial index keeps
request ids unique per table. Connections are made with psycopg 3, on first use. Schema:
:mod:`tablelog.store.pgsql`.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from tablelog.store.base import is_record, placed
from tablelog.store.envelope import FarOff, checker
from tablelog.store.errors import LogError, LogMovedOn, exists_error, record_error
from tablelog.store.follow import PostgresWaiter
from tablelog.store.format import (
    FormatError,
    Header,
    Position,
    chain_hash,
    decode_payload,
    header_position,
    header_version,
    parse_header,
)
from tablelog.store.framing import records_of
from tablelog.store.names import new_table_id, redact
from tablelog.store.pgappend import append as append_rows
from tablelog.store.pgsql import (
    SQL,
    db_errors,
    ensure_schema,
    lock_key,
)
from tablelog.store.pgtable import (
    AdvisoryLock,
    TableConnection,
    digest_to,
    frames,
    header_row,
    insert_table,
    length_to,
)
from tablelog.store.reader import Record, StoredRecord, read, stored
from tablelog.store.snapshot import seal_unkeyed, unsealed
from tablelog.text import msg

__all__ = ["PostgresLog", "insert_table"]


class PostgresLog:
    """Table ``table_id`` of the PostgreSQL store at ``url`` (a libpq URL): the store
    interface, :class:`tablelog.store.base.Log`.

    ``path`` (what messages say) is the URL without its password, then ``#`` and the id.
    """

    kind = "postgresql"

    def __init__(self, url: str, table_id: str) -> None:
        self.url, self.table_id = url, table_id
        self.path = f"{redact(url)}#{table_id}"
        self.spec = f"{url}#{table_id}"
        self.header: Header | None = None
        self.version: int | None = None
        self.start: Position | None = None
        self.end: Position | None = None
        self.torn_at: int | None = None  # never set: a command commits whole or not at all
        self.in_flight: int | None = None  # never set: an uncommitted command is not seen
        self.far_off: FarOff = {}  # what reads with ``chain`` found dated far off
        self.signer: Callable[[bytes], bytes] | None = None  # records are not signed here
        self._db = TableConnection(url, self.path)
        self._header = b""
        self._tail: tuple[int, bytes] | None = None  # the last record read or appended

    def connection(self) -> Any:
        """Return this table's connection (autocommit), connecting on first use (LogError),
        kept by this table until :meth:`release` or :meth:`close` (no other table takes it over
        meanwhile: for a transaction or a COPY of its own)."""
        return self._db.pin()

    def release(self) -> None:
        """Let other tables take the connection :meth:`connection` returned over again."""
        self._db.unpin()

    def close(self) -> None:
        """Close the connection (the next use connects again)."""
        self._db.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # a closing interpreter: nothing to report to
            self.close()

    # -- creating and opening --------------------------------------------------------------

    @classmethod
    def create(cls, url: str, table_id: str | None, header: bytes) -> PostgresLog:
        """Create table ``table_id`` (a new id when None) holding only ``header`` (its bytes);
        create the schema on first use (or migrate an older one).

        Raises:
            LogError: the table exists (refusing to overwrite it), or the database refused.
        """
        for _ in range(8):
            log = cls(url, table_id or new_table_id())
            conn = log.connection()
            try:
                with db_errors(log.path):
                    ensure_schema(conn)
                    created = insert_table(conn, log.table_id, header)
            finally:
                log.release()
            if created:
                log.open()
                return log
            log.close()
            if table_id is not None:
                raise exists_error(log.path)
        raise LogError(
            msg("store.no_new_table", "cannot create a new table in {where}", where=redact(url))
        )

    def open(self) -> Header:
        """Read and check the table's header (as a log file's); migrate a store of an older
        schema version first.

        Raises:
            LogError: no such table (or no tablelog schema yet), a schema of another version,
                a damaged header, or the database cannot be used.
        """
        head = header_row(self._db, self.table_id)
        try:
            header, size = parse_header(head)
        except FormatError as exc:
            raise LogError(
                msg("store.path_fault", "{path}: {message}", path=self.path, message=exc.msg),
                exc.offset,
            ) from None
        self._header = head[:size]
        self.header, self.version = header, header_version(head)
        self.start = header_position(self._header)
        return header

    def _opened(self) -> Position:
        if self.start is None:
            self.open()
        assert self.start is not None
        return self.start

    def header_bytes(self) -> bytes:
        """Return the header's bytes, as a log file begins with them."""
        self._opened()
        return self._header

    # -- reading ---------------------------------------------------------------------------

    def records(
        self, after: Position | None = None, chain: bool = False, fold: bool = False
    ) -> Iterator[Record]:
        """Return an iterator of every record after ``after`` (default: the first), read a page
        of rows at a time (each page one query: a long read sees what was committed meanwhile,
        and never half a command), each checked as on a file.

        Raises:
            LogError: the database cannot be used, ``after`` is no record of the table, or a
                corrupt record (when it is reached).
        """
        start = self._opened()
        if after is not None:
            start = placed(self, after)
        assert self.version is not None
        self.torn_at = self.in_flight = None
        self.end = start
        check = checker(self.path, self.version, start, chain, fold, self.far_off)
        return read(self._frames(start), start, check, self)

    def scan(self, after: Position | None = None, chain: bool = False) -> Iterator[StoredRecord]:
        """Yield every record after ``after`` as a StoredRecord (see :meth:`records`)."""
        return stored(self.records(after, chain))

    def _frames(self, start: Position) -> Iterator[tuple[int, bytes]]:
        """The frames of the rows after ``start`` (:func:`tablelog.store.pgtable.frames`)."""
        assert start.span is not None

        def seen(seq: int, payload: bytes) -> None:
            self._tail = (seq, payload)

        return frames(self._db, self.table_id, (start.seq, start.span[1]), seen)

    def _row(self, seq: int) -> tuple[int, bytes] | None:
        """Return ``(crc, payload)`` of record ``seq``, or None."""
        row = self._db.query(SQL.RECORD, (self.table_id, seq), True).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def position(self, seq: int) -> Position | None:
        """Return the position right after record ``seq`` (0: before the first record), or
        None when the table holds no record ``seq``.

        Raises:
            LogError: the database cannot be used.
        """
        start = self._opened()
        if seq == 0:
            return start
        row = self._row(seq)
        if row is None:
            return None
        end = len(self._header) + length_to(self._db, self.table_id, seq)
        return Position(seq, chain_hash(row[1]), (end - 8 - len(row[1]), end))

    def holds(self, pos: Position) -> bool:
        """Return whether the table holds record ``pos.seq`` with chain hash ``pos.prev``, its
        CRC-32 intact."""
        if pos.seq == 0:
            return pos == self._opened()
        row = self._row(pos.seq)
        return row is not None and zlib.crc32(row[1]) == row[0] and is_record(row[1], pos)

    def prefix_digest(self, pos: Position) -> int:
        """Return the digest of the table up to record ``pos.seq``, for a checkpoint's check
        that nothing before it changed (:func:`tablelog.store.pgtable.digest_to`; LogError)."""
        head = self.header_bytes()
        return zlib.crc32(head) if pos.seq == 0 else digest_to(self._db, self.table_id, head, pos)

    def envelope_at(self, pos: Position) -> dict[str, Any]:
        """Return the envelope of record ``pos.seq`` (≥ 1): from the record this table's
        reader read last when it is that one (a command that lost a race has just read it: no
        second query), else read back.

        Raises:
            LogError: that record is missing or damaged.
        """
        tail = self._tail
        if tail is not None and tail[0] == pos.seq and chain_hash(tail[1]) == pos.prev:
            payload: bytes | None = tail[1]
        else:
            row = self._row(pos.seq)
            payload = row[1] if row is not None and zlib.crc32(row[1]) == row[0] else None
        try:
            env = decode_payload(payload) if payload is not None else None
        except Exception:  # noqa: BLE001 - any malformed payload: the error below
            env = None
        if not (type(env) is dict and type(env.get("at")) is str and type(env.get("actor")) is str):
            where = pos.span[0] if pos.span is not None else 0
            said = msg("store.read_back", "cannot be read back")
            raise record_error(self.path, pos.seq, where, said)
        return env

    def ends_at(self, pos: Position) -> bool:
        """Return whether the table's last record is still ``pos``: its seq and its chain hash
        (one indexed query; a table restored from an older backup, or rewritten, does not)."""
        row = self._db.query(SQL.LAST, (self.table_id,), True).fetchone()
        if row is None:
            return pos.seq == 0
        return int(row[0]) == pos.seq and chain_hash(bytes(row[1])) == pos.prev

    # -- appending -------------------------------------------------------------------------

    def append(
        self, envelopes: list[dict[str, Any]], expected: Position, locked: bool = False
    ) -> Position:
        """Append one command's records in one transaction, if the table still ends at
        ``expected`` (its primary key on (table, seq) decides); committed before it returns.

        Raises:
            LogMovedOn: another writer appended since ``expected`` (or appended this request
                id first): decide again.
            LogError: the database refused, or the connection was lost (while committing: the
                command may or may not be in the table, and the message says so).
        """
        try:
            records, end = records_of(envelopes, placed(self, expected))
        except (TypeError, ValueError, OverflowError) as exc:
            raise LogError(
                msg(
                    "store.append.unstorable_table",
                    "cannot store the events in {path}: {why}; the table is unchanged",
                    path=self.path,
                    why=str(exc),
                )
            ) from None
        append_rows(self._db, self.table_id, records, self._crc_of(expected))
        self.end, self._tail = end, (records[-1][0], records[-1][4])
        return end

    def _crc_of(self, pos: Position) -> int:
        """Return the CRC-32 of record ``pos.seq``'s payload (0 for the header): what the
        append checks is still the record before it. Known without a query when it is the
        record last read or appended here; else read, its hash checked.

        Raises:
            LogMovedOn: the table no longer holds that record (it lost or changed its tail).
        """
        if pos.seq == 0:
            return 0
        tail = self._tail
        if tail is None or tail[0] != pos.seq or chain_hash(tail[1]) != pos.prev:
            row = self._row(pos.seq)
            if row is None or chain_hash(row[1]) != pos.prev:
                raise LogMovedOn()
            tail = (pos.seq, row[1])
        return zlib.crc32(tail[1])

    def lock(self) -> AdvisoryLock:
        """Take the table's exclusive writer lock: a PostgreSQL advisory lock held by this
        connection (appends take it shared), waiting up to ``$TABLELOG_LOCK_TIMEOUT``.

        Raises:
            LogLocked: held by another writer past the timeout; LogError: no database.
        """
        self._opened()  # sets this connection's lock_timeout
        key = lock_key(self.table_id)
        with self._db.busy:  # held, the lock keeps its connection open (AdvisoryLock.release)
            self._db.query(SQL.LOCK, (key,))
            self._db.locks += 1
        return AdvisoryLock(self._db, key)

    # -- snapshots, subscription, removal --------------------------------------------------

    def load_snapshot(self) -> bytes | None:
        """Return the body of the table's snapshot row when its digest checks, else None."""
        row = self._db.query(SQL.SNAPSHOT, (self.table_id,), True).fetchone()
        return None if row is None else unsealed(bytes(row[0]))

    def save_snapshot(self, body: bytes) -> None:
        """Replace the table's snapshot row (LogError when the database refuses)."""
        self._db.query(SQL.SAVE_SNAPSHOT, (self.table_id, seal_unkeyed(body)))

    def waiter(self) -> Any:
        """Return a waiter that LISTENs for this table's appends (tablelog.store.follow)."""
        return PostgresWaiter(self)

    def drop(self) -> None:
        """Delete the table, its records and its snapshot (a table this process just created
        and does not keep)."""
        conn = self.connection()
        try:
            with db_errors(self.path), conn.transaction():
                conn.execute(SQL.DROP, (self.table_id,) * 3)
        finally:
            self.release()
