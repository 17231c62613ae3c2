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

import zlib
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any

from tablelog.store.base import is_record
from tablelog.store.envelope import checker
from tablelog.store.errors import LogError, LogMovedOn, record_error
from tablelog.store.format import (
    COMMAND_KEY,
    MAX_RECORD_BYTES,
    REQUEST_KEY,
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
from tablelog.store.pgsql import (
    CHANNEL,
    SQL,
    StoreUnavailable,
    connect,
    db_errors,
    ensure_schema,
    lock_key,
    lock_timeout_setting,
    one_line,
    upgraded,
)
from tablelog.store.reader import Record, StoredRecord, read, stored

__all__ = ["PostgresLog", "insert_table"]

_FIRST_PAGE, _LAST_PAGE = 64, 4096  # rows per read: small reads stay cheap, long ones fast


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
        self.signer: Callable[[bytes], bytes] | None = None  # records are not signed here
        self._conn: Any = None
        self._header = b""
        self._tail: tuple[int, bytes] | None = None  # the last record its reader read

    # -- connection ------------------------------------------------------------------------

    def connection(self) -> Any:
        """Return this table's connection (autocommit), connecting on first use.

        Raises:
            LogError: a bad URL, the server cannot be reached, or it refuses us (a wrong
                password, a missing database), in one line.
        """
        if self._conn is not None and not self._conn.closed:
            return self._conn
        import psycopg

        store = redact(self.url)
        try:
            self._conn = connect(self.url)
        except psycopg.ProgrammingError as exc:
            raise LogError(f"bad store URL {store}: {one_line(exc)}") from None
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot connect to {store}: {one_line(exc)}") from None
        return self._conn

    def close(self) -> None:
        """Close the connection (the next use connects again)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - a closing interpreter; nothing to report to
            pass

    def _query(self, sql: str, params: tuple[Any, ...], binary: bool = False) -> Any:
        """Run one statement on the table's connection; return its cursor (LogError)."""
        with db_errors(self.path):
            return self.connection().execute(sql, params, binary=binary)

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
            with db_errors(log.path):
                ensure_schema(conn)
                created = insert_table(conn, log.table_id, header)
            if created:
                log.open()
                return log
            log.close()
            if table_id is not None:
                raise LogError(f"{log.path} already exists; refusing to overwrite it")
        raise LogError(f"cannot create a new table in {redact(url)}")

    def open(self) -> Header:
        """Read and check the table's header (as a log file's); migrate a store of an older
        schema version first.

        Raises:
            LogError: no such table (or no tablelog schema yet), a schema of another version,
                a damaged header, or the database cannot be used.
        """
        import psycopg

        conn = self.connection()
        with db_errors(self.path):
            try:
                row = conn.execute(SQL.OPEN, (lock_timeout_setting(), self.table_id)).fetchone()
            except psycopg.errors.UndefinedTable:  # no tablelog schema in this database yet
                row = None
            if row is not None:
                upgraded(conn, row[1])
        if row is None or row[2] is None:
            raise LogError(
                f"no table {self.table_id!r} in {redact(self.url)} (create one "
                f"with: tablelog --log {redact(self.url)}#{self.table_id} init)"
            )
        head = bytes(row[2])
        try:
            header, size = parse_header(head)
        except FormatError as exc:
            raise LogError(f"{self.path}: {exc}", exc.offset) from None
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
            start = self._spanned(after)
        assert self.version is not None
        self.torn_at = self.in_flight = None
        self.end = start
        check = checker(self.path, self.version, start, chain, fold)
        return read(self._frames(start), start, check, self)

    def scan(self, after: Position | None = None, chain: bool = False) -> Iterator[StoredRecord]:
        """Yield every record after ``after`` as a StoredRecord (see :meth:`records`)."""
        return stored(self.records(after, chain))

    def _frames(self, start: Position) -> Iterator[tuple[int, bytes]]:
        """Yield ``(offset in the file form, payload)`` of each row after ``start``, its
        payload within the length bound and matching its CRC-32 (as a file's frames)."""
        seq, offset, limit = start.seq, start.span[1], _FIRST_PAGE  # type: ignore[index]
        while True:
            rows = self._query(SQL.ROWS, (self.table_id, seq, limit), True).fetchall()
            for found, crc, data in rows:
                payload, seq = bytes(data), seq + 1
                if len(payload) > MAX_RECORD_BYTES:
                    message = f"record length {len(payload)} is over the limit"
                    raise record_error(self.path, seq, offset, message, "corrupt record")
                if zlib.crc32(payload) != crc:
                    message = "record checksum mismatch"
                    raise record_error(self.path, seq, offset, message, "corrupt record")
                self._tail = (seq, payload)
                yield offset, payload
                offset, seq = offset + 8 + len(payload), int(found)
            if len(rows) < limit:
                return
            limit = min(limit * 4, _LAST_PAGE)

    def _row(self, seq: int) -> tuple[int, bytes] | None:
        """Return ``(crc, payload)`` of record ``seq``, or None."""
        row = self._query(SQL.RECORD, (self.table_id, seq), True).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def _spanned(self, pos: Position) -> Position:
        """Return ``pos`` with its record's span in the file form (counted when not known).

        Raises:
            LogError: the table holds no record ``pos.seq`` with the hash ``pos.prev``.
        """
        if pos.span is not None:
            return pos
        found = self.position(pos.seq)
        if found is None or found != pos:
            raise LogError(f"{self.path}: holds no record #{pos.seq} with that chain hash")
        return found

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
        end = len(self._header) + int(self._query(SQL.LENGTH, (self.table_id, seq)).fetchone()[0])
        return Position(seq, chain_hash(row[1]), (end - 8 - len(row[1]), end))

    def holds(self, pos: Position) -> bool:
        """Return whether the table holds record ``pos.seq`` with chain hash ``pos.prev``, its
        CRC-32 intact."""
        if pos.seq == 0:
            return pos == self._opened()
        row = self._row(pos.seq)
        return row is not None and zlib.crc32(row[1]) == row[0] and is_record(row[1], pos)

    def prefix_digest(self, pos: Position) -> int:
        """Return the digest of the table up to record ``pos.seq`` for a checkpoint's check
        that nothing before it changed: the header's CRC-32, continued over the MD5 of the
        records' payload MD5s in seq order, computed by the server where the rows are. -1
        when the table does not hold every record up to ``pos.seq``, or they do not end where
        ``pos``'s span says.

        Raises:
            LogError: the database cannot be used.
        """
        value = zlib.crc32(self.header_bytes())
        if pos.seq == 0:
            return value
        digest, count, length = self._query(SQL.DIGEST, (self.table_id, pos.seq)).fetchone()
        ends = len(self._header) + int(length)
        if digest is None or count != pos.seq or (pos.span is not None and pos.span[1] != ends):
            return -1
        return zlib.crc32(bytes.fromhex(digest), value)

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
            raise record_error(self.path, pos.seq, where, "cannot be read back")
        return env

    def ends_at(self, pos: Position) -> bool:
        """Return whether the table's last record is still ``pos.seq`` (one indexed query)."""
        last = self._query(SQL.LAST, (self.table_id,)).fetchone()[0]
        return int(last or 0) == pos.seq

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
        import psycopg

        from tablelog.store.pgappend import append_and_notify

        try:
            records, end = records_of(envelopes, self._spanned(expected))
        except (TypeError, ValueError, OverflowError) as exc:
            raise LogError(
                f"cannot store the events in {self.path}: {exc}; the table is unchanged"
            ) from None
        rows = _rows(self.table_id, records)
        try:
            with db_errors(self.path):
                try:  # one round trip: the append commits, then the notification is sent
                    note = f"{self.table_id} {end.seq}"
                    inserted = append_and_notify(self.connection(), rows, CHANNEL, note)
                except psycopg.errors.UniqueViolation:
                    raise LogMovedOn() from None
        except LogError as exc:
            self.close()  # its state is unknown: the next use connects again
            raise type(exc)(
                f"{exc}; the connection was lost while committing: the command "
                "may or may not be in the table (look with tablelog log; a "
                "retry with the same --request-id appends it at most once)"
            ) from None
        if inserted == 0:  # the first seq was taken: another writer appended first
            raise LogMovedOn()
        if inserted != len(envelopes):
            raise LogError(
                f"{self.path}: the database appended {inserted} of {len(envelopes)} records"
            )
        self.end = end
        return end

    def lock(self) -> _AdvisoryLock:
        """Take the table's exclusive writer lock: a PostgreSQL advisory lock held by this
        connection (appends take it shared), waiting up to ``$TABLELOG_LOCK_TIMEOUT``.

        Raises:
            LogLocked: held by another writer past the timeout; LogError: no database.
        """
        self._opened()  # sets this connection's lock_timeout
        key = lock_key(self.table_id)
        self._query(SQL.LOCK, (key,))
        return _AdvisoryLock(self, key)

    # -- snapshots, subscription, removal --------------------------------------------------

    def load_snapshot(self) -> bytes | None:
        """Return the body of the table's snapshot row when its digest checks, else None."""
        from tablelog.store.snapshot import unsealed

        row = self._query(SQL.SNAPSHOT, (self.table_id,), True).fetchone()
        return None if row is None else unsealed(bytes(row[0]))

    def save_snapshot(self, body: bytes) -> None:
        """Replace the table's snapshot row (LogError when the database refuses)."""
        from tablelog.store.snapshot import seal_unkeyed

        self._query(SQL.SAVE_SNAPSHOT, (self.table_id, seal_unkeyed(body)))

    def waiter(self) -> Any:
        """Return a waiter that LISTENs for this table's appends (tablelog.store.follow)."""
        from tablelog.store.follow import PostgresWaiter

        return PostgresWaiter(self)

    def drop(self) -> None:
        """Delete the table, its records and its snapshot (a table this process just created
        and does not keep)."""
        with db_errors(self.path), self.connection().transaction():
            self.connection().execute(SQL.DROP, (self.table_id,) * 3)


def insert_table(conn: Any, table_id: str, header: bytes) -> bool:
    """Insert a table's row (its header bytes and the columns read from them); return False
    when the table exists.

    Raises:
        LogError: ``header`` is not a header; psycopg.Error: the database refused.
    """
    try:
        fields, _ = parse_header(header)
    except FormatError as exc:
        raise LogError(f"not a tablelog header: {exc}") from None
    values = (table_id, header, header_version(header), fields.system, fields.title)
    row = conn.execute(SQL.CREATE, (*values, fields.session_id, fields.created)).fetchone()
    return row is not None


def _rows(table_id: str, records: list[Record]) -> dict[str, Any]:
    """Return the parameters of :mod:`tablelog.store.pgappend`'s insert for a batch: one value
    per column for a command of one record, else one list per column."""
    columns: dict[str, list[Any]] = {}
    for seq, env, _, _, payload in records:
        for key, value in (
            ("seq", seq),
            ("crc", zlib.crc32(payload)),
            ("payload", payload),
            ("type", env["type"]),
            ("actor", env["actor"]),
            ("at", env["at"]),
            ("cmd", env.get(COMMAND_KEY)),
            ("req", env.get(REQUEST_KEY)),
        ):
            columns.setdefault(key, []).append(value)
    one = len(records) == 1
    rows: dict[str, Any] = {k: v[0] if one else v for k, v in columns.items()}
    rows.update(table=table_id, lock=lock_key(table_id), first=records[0][0])
    return rows


class _AdvisoryLock:
    """A held session-level advisory lock (release it, or leave the ``with`` block)."""

    def __init__(self, log: PostgresLog, key: int) -> None:
        self.log = log
        self.key: int | None = key

    def release(self) -> None:
        key, self.key = self.key, None
        conn = self.log._conn
        if key is not None and conn is not None and not conn.closed:
            with db_errors(self.log.path):
                conn.execute(SQL.UNLOCK, (key,))

    def __enter__(self) -> _AdvisoryLock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
