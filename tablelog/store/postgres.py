"""A table of a PostgreSQL store: the log of docs/FORMAT.md, one row per record.

A row holds the record's exact payload bytes (the msgpack envelope) and its CRC-32, its byte
offset in the log's file form, and the columns queries need (type, actor, time, command and
request ids). The table's header bytes are kept whole in ``tablelog_tables``. So the reader of
:class:`~tablelog.store.log.LogFile` reads a PostgreSQL table through the same frames and the
same checks (framing, CRC-32, envelope, contiguous seq, whole batches, the hash chain under
``verify``): :class:`PostgresLog` subclasses it for that reader and replaces every file
operation. Appending is one transaction per command: the unique key on (table, seq) is the
expected-position check (a conflict: another writer appended first, decide again), a unique
partial index keeps request ids unique per table, and ``NOTIFY tablelog`` tells subscribers.
Connections are made with psycopg 3, on first use. Schema: :mod:`tablelog.store.pgsql`.
"""

from __future__ import annotations

import hashlib
import zlib
from types import TracebackType
from typing import Any

from tablelog.store.format import (
    COMMAND_KEY,
    MAX_RECORD_BYTES,
    RECORD_PREFIX,
    REQUEST_KEY,
    FormatError,
    Header,
    Position,
    chain_hash,
    decode_payload,
    header_version,
    parse_header,
)
from tablelog.store.log import LogError, LogFile, LogMovedOn, frame, record_error
from tablelog.store.pgsql import (
    CHANNEL,
    SQL,
    StoreUnavailable,
    check_version,
    connect,
    db_errors,
    ensure_schema,
    lock_key,
    lock_timeout_setting,
    one_line,
)
from tablelog.store.pgwire import append_and_notify, bytea_array, int8, int8_array, text_array
from tablelog.store.url import new_table_id, redact

__all__ = ["PostgresLog"]

_FIRST_PAGE, _LAST_PAGE = 64, 4096  # rows per read: small reads stay cheap, long ones fast


class PostgresLog(LogFile):
    """Table ``table_id`` of the PostgreSQL store at ``url`` (a libpq URL).

    ``path`` (what messages say) is the URL without its password, then ``#`` and the id.
    """

    kind = "postgresql"

    def __init__(self, url: str, table_id: str) -> None:
        super().__init__(f"{redact(url)}#{table_id}")
        self.url = url
        self.table_id = table_id
        self.spec = f"{url}#{table_id}"
        self._conn: Any = None
        self._header_bytes = b""
        self._tail: tuple[int, bytes] | None = None  # the last record's frame its reader read

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

    def _errors(self) -> Any:
        return db_errors(self.path)

    # -- creating and opening --------------------------------------------------------------

    @classmethod
    def create(cls, url: str, table_id: str | None, header: bytes) -> PostgresLog:  # type: ignore[override]
        """Create table ``table_id`` (a new id when None) holding only ``header`` (its bytes);
        create the schema on first use.

        Raises:
            LogError: the table exists (refusing to overwrite it), or the database refused.
        """
        for _ in range(8):
            log = cls(url, table_id or new_table_id())
            conn = log.connection()
            with log._errors():
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
        """Read and check the table's header (as a log file's).

        Raises:
            LogError: no such table (or no tablelog schema yet), a schema of another version,
                a damaged header, or the database cannot be used.
        """
        import psycopg

        conn = self.connection()
        with self._errors():
            try:
                row = conn.execute(SQL.OPEN, (lock_timeout_setting(), self.table_id)).fetchone()
            except psycopg.errors.UndefinedTable:  # no tablelog schema in this database yet
                row = None
        if row is None or row[2] is None:
            if row is not None:
                check_version(row[1])
            raise LogError(
                f"no table {self.table_id!r} in {redact(self.url)} (create one "
                f"with: tablelog --log {redact(self.url)}#{self.table_id} init)"
            )
        check_version(row[1])
        head = bytes(row[2])
        try:
            header, size = parse_header(head)
        except FormatError as exc:
            raise LogError(f"{self.path}: {exc}", exc.offset) from None
        self._header_bytes = head[:size]
        self.header, self.version = header, header_version(head)
        self.start = Position(0, size, hashlib.blake2b(head[:size], digest_size=16).digest(), size)
        return header

    def header_bytes(self) -> bytes:
        """Return the header's bytes, as a log file begins with them."""
        if self.start is None:
            self.open()
        return self._header_bytes

    def size(self) -> int:
        """Return the length of the table's file form (the end of its last record)."""
        if self.start is None:
            self.open()
        assert self.start is not None
        with self._errors():
            row = self.connection().execute(SQL.LAST, (self.table_id,)).fetchone()
        return self.start.offset if row is None else int(row[1]) + 8 + len(row[3])

    # -- reading ---------------------------------------------------------------------------

    def _reader(self, pos: Position) -> _Pages:
        """Return the frames after ``pos``, read a page of rows at a time."""
        return _Pages(self, pos.seq)

    def _row(self, seq: int) -> tuple[int, int, bytes] | None:
        """Return ``(file_offset, crc, payload)`` of record ``seq``, or None."""
        with self._errors():
            row = (
                self.connection().execute(SQL.RECORD, (self.table_id, seq), binary=True).fetchone()
            )
        return None if row is None else (int(row[0]), int(row[1]), bytes(row[2]))

    def payload_at(self, end: Position) -> bytes | None:
        """Return the payload of record ``end.seq`` if it lies at ``end.last``..``end.offset``
        with its CRC intact, else None."""
        row = self._row(end.seq) if end.seq > 0 else None
        if row is None:
            return None
        offset, crc, payload = row
        if offset != end.last or offset + 8 + len(payload) != end.offset:
            return None
        return payload if zlib.crc32(payload) == crc else None

    def last_at(self, end: Position) -> str:
        """Return the ``at`` of record ``end.seq`` (``""`` for an empty table): from the frame
        this table's reader read last when it is that record, whole and intact (a command that
        lost a race has just read it: no second query), else read back.

        Raises:
            LogError: that record cannot be read back whole and intact.
        """
        tail = self._tail
        if (
            end.seq
            and tail is not None
            and tail[0] == end.seq
            and len(tail[1]) == end.offset - end.last
        ):
            length, crc = RECORD_PREFIX.unpack_from(tail[1])
            payload = tail[1][8:]
            try:
                env = decode_payload(payload) if zlib.crc32(payload) == crc else None
            except Exception:  # noqa: BLE001 - any malformed payload: read it back below
                env = None
            if len(payload) == length and type(env) is dict and type(env.get("at")) is str:
                return str(env["at"])
        return super().last_at(end)

    def envelope_at(self, end: Position) -> dict[str, Any]:
        """Return the envelope of record ``end.seq`` (``end.seq`` ≥ 1).

        Raises:
            LogError: that record is missing or damaged.
        """
        payload = self.payload_at(end)
        try:
            env = decode_payload(payload) if payload is not None else None
        except Exception:  # noqa: BLE001 - any malformed payload: the error below
            env = None
        if (
            type(env) is not dict
            or type(env.get("at")) is not str
            or type(env.get("actor")) is not str
        ):
            raise record_error(self.path, end.seq, end.last, "cannot be read back")
        return env

    def position(self, seq: int) -> Position | None:
        """Return the position right after record ``seq`` (0: before the first record), or
        None when the table holds no record ``seq``.

        Raises:
            LogError: the database cannot be used.
        """
        if self.start is None:
            self.open()
        assert self.start is not None
        if seq == 0:
            return self.start
        row = self._row(seq)
        if row is None:
            return None
        offset, _, payload = row
        return Position(seq, offset + 8 + len(payload), chain_hash(payload), offset)

    def prefix_crc(self, offset: int, start: int = 0, crc: int = 0) -> int:
        """Return the digest of the table's file form before ``offset``, for a checkpoint's
        check that nothing before it changed: the header's CRC-32, continued over the MD5 of
        the records' payload MD5s in seq order, computed by the server where the rows are
        (``start`` and ``crc`` are not needed: it is one query). -1 when ``offset`` is not the
        end of a record.

        Raises:
            LogError: the database cannot be used.
        """
        head = self.header_bytes()
        value = zlib.crc32(head[:offset])
        if offset <= len(head):
            return value if offset == len(head) else -1
        with self._errors():
            digest, end = self.connection().execute(SQL.DIGEST, (self.table_id, offset)).fetchone()
        if digest is None or end != offset:
            return -1
        return zlib.crc32(bytes.fromhex(digest), value)

    # -- appending -------------------------------------------------------------------------

    def append(
        self, envelopes: list[dict[str, Any]], expected: Position, locked: bool = False
    ) -> Position:
        """Append one command's records in one transaction, if the table still ends at
        ``expected`` (its unique key on (table, seq) decides); committed before it returns.

        Raises:
            LogMovedOn: another writer appended since ``expected`` (or appended this request
                id first): decide again.
            LogError: the database refused, or the connection was lost (while committing: the
                command may or may not be in the table, and the message says so).
        """
        import psycopg

        try:
            data, end = frame(envelopes, expected)
        except (TypeError, ValueError, OverflowError) as exc:
            raise LogError(
                f"cannot store the events in {self.path}: {exc}; the table is unchanged"
            ) from None
        params = _params(self.table_id, envelopes, data, expected)
        conn = self.connection()
        try:
            with self._errors():
                try:  # one round trip: the append commits, then the notification is sent
                    inserted = append_and_notify(
                        conn, params, CHANNEL, f"{self.table_id} {end.seq}", len(envelopes) == 1
                    )
                except psycopg.errors.UniqueViolation:
                    raise LogMovedOn() from None
        except LogError as exc:
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

    def lock(self) -> _AdvisoryLock:  # type: ignore[override]  # a LogFile by its reader only
        """Take the table's exclusive writer lock: a PostgreSQL advisory lock held by this
        connection (appends take it shared), waiting up to ``$TABLELOG_LOCK_TIMEOUT``.

        Raises:
            LogLocked: held by another writer past the timeout; LogError: no database.
        """
        if self.start is None:
            self.open()  # sets this connection's lock_timeout
        key = lock_key(self.table_id)
        with self._errors():
            self.connection().execute(SQL.LOCK, (key,))
        return _AdvisoryLock(self, key)

    # -- snapshots, repair, salvage, subscription, removal ---------------------------------

    def read_snapshot(self, session_id: str, code: str) -> list[Any]:
        """Return the checkpoints of the table's snapshot row, or ``[]`` (any problem)."""
        from tablelog.store.snapshot import parse_snapshot

        try:
            with self._errors():
                row = (
                    self.connection()
                    .execute(SQL.SNAPSHOT, (self.table_id,), binary=True)
                    .fetchone()
                )
        except LogError:
            return []
        return parse_snapshot(bytes(row[0]), session_id, code) if row is not None else []

    def write_snapshot(self, session_id: str, code: str, checkpoints: list[Any]) -> None:
        """Replace the table's snapshot row (LogError when the database refuses)."""
        from tablelog.store.snapshot import pack_snapshot

        data = pack_snapshot(session_id, code, checkpoints)
        with self._errors():
            self.connection().execute(SQL.SAVE_SNAPSHOT, (self.table_id, data))

    def repair(self) -> None:
        """Nothing to cut: each command is one transaction, so a table never ends torn."""
        return None

    def salvage(self, out: str, before: int | None = None) -> tuple[int, int, int | None]:
        """Copy the header and the whole commands before the first bad record (or before
        record ``before``) into the new log ``out`` (any ``--log`` value: tablelog.store.copy).
        """
        from tablelog.store.copy import salvage_into

        return salvage_into(self, out, before)

    def waiter(self) -> Any:
        """Return a waiter that LISTENs for this table's appends (tablelog.store.follow)."""
        from tablelog.store.follow import PostgresWaiter

        return PostgresWaiter(self)

    def drop(self) -> None:
        """Delete the table, its records and its snapshot (a table this process just created
        and does not keep)."""
        with self._errors(), self.connection().transaction():
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
    row = conn.execute(
        SQL.CREATE,
        (
            table_id,
            header,
            header_version(header),
            fields.system,
            fields.title,
            fields.session_id,
            fields.created,
        ),
    ).fetchone()
    return row is not None


def _params(
    table_id: str, envelopes: list[dict[str, Any]], data: bytes, expected: Position
) -> list[bytes | None]:
    """Return the parameters of :data:`~tablelog.store.pgwire.APPEND` for a batch, in binary
    format: each record's framing split back out of ``data`` (the bytes
    :func:`~tablelog.store.log.frame` made), with its query columns, as one array per column;
    for one record, those of :data:`~tablelog.store.pgwire.APPEND_ONE` (one value each)."""
    lock = lock_key(table_id).to_bytes(8, "big", signed=True)
    if len(envelopes) == 1:
        env = envelopes[0]
        req = env.get(REQUEST_KEY)
        return [
            table_id.encode(),
            int8(expected.seq + 1),
            int8(expected.offset),
            int8(RECORD_PREFIX.unpack_from(data)[1]),
            data[8:],
            env["type"].encode(),
            env["actor"].encode(),
            env["at"].encode(),
            int8(env.get(COMMAND_KEY)),
            None if req is None else req.encode(),
            lock,
        ]
    seqs, offsets, crcs, payloads = [], [], [], []
    at, seq, offset = 0, expected.seq, expected.offset
    for _ in envelopes:
        length, crc = RECORD_PREFIX.unpack_from(data, at)
        seq += 1
        seqs.append(seq)
        offsets.append(offset)
        crcs.append(crc)
        payloads.append(data[at + 8 : at + 8 + length])
        at += 8 + length
        offset += 8 + length
    return [
        table_id.encode(),
        int8_array(seqs),
        int8_array(offsets),
        int8_array(crcs),
        bytea_array(payloads),
        text_array([e["type"] for e in envelopes]),
        text_array([e["actor"] for e in envelopes]),
        text_array([e["at"] for e in envelopes]),
        int8_array([e.get(COMMAND_KEY) for e in envelopes]),
        text_array([e.get(REQUEST_KEY) for e in envelopes]),
        lock,
    ]


class _Pages:
    """The frames (length, CRC, payload) of a table's records after a seq, as a file reads:
    ``read(n)`` returns ``n`` bytes unless the table ends first. Each page is one query (rows in
    seq order after the last one read), so a long read sees what was committed meanwhile, and
    never half a command (a command commits whole)."""

    def __init__(self, log: PostgresLog, seq: int) -> None:
        self.log = log
        self.seq = seq  # the last seq fetched
        self._rows: list[tuple[int, bytes]] = []
        self._limit = _FIRST_PAGE
        self._done = False
        self._buf = b""

    def _fetch(self) -> None:
        log = self.log
        with log._errors():
            rows = (
                log.connection()
                .execute(SQL.FRAMES, (log.table_id, self.seq, self._limit), binary=True)
                .fetchall()
            )
        if len(rows) < self._limit:
            self._done = True
        self._limit = min(self._limit * 4, _LAST_PAGE)
        if rows:
            self.seq = int(rows[-1][0])
        self._rows = [(int(r[0]), bytes(r[1])) for r in reversed(rows)]
        if self._rows:
            log._tail = self._rows[0]

    def frame(self) -> bytes | None:
        """Return the next record's frame, or None at the end."""
        if not self._rows and not self._done:
            self._fetch()
        if not self._rows:
            return None
        return self._rows.pop()[1]

    def read(self, n: int) -> bytes:
        """Return the next ``n`` bytes of frames (fewer only at the end of the table)."""
        parts, size = [self._buf], len(self._buf)
        while size < n:
            nxt = self.frame()
            if nxt is None:
                break
            if len(nxt) > MAX_RECORD_BYTES + 8:  # as a file's reader would refuse it
                parts.append(nxt[: MAX_RECORD_BYTES + 8])
                break
            parts.append(nxt)
            size += len(nxt)
        data = b"".join(parts)
        self._buf = data[n:]
        return data[:n]

    def close(self) -> None:
        self._rows, self._buf = [], b""


class _AdvisoryLock:
    """A held session-level advisory lock (release it, or leave the ``with`` block)."""

    def __init__(self, log: PostgresLog, key: int) -> None:
        self.log = log
        self.key: int | None = key

    def release(self) -> None:
        key, self.key = self.key, None
        if key is not None and self.log._conn is not None and not self.log._conn.closed:
            with self.log._errors():
                self.log._conn.execute(SQL.UNLOCK, (key,))

    def __enter__(self) -> _AdvisoryLock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
