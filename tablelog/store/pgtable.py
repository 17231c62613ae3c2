"""A PostgreSQL table's connection and rows, for the PostgreSQL store
(:mod:`tablelog.store.postgres`): the connection a table keeps, its row in ``tablelog_tables``,
its records read a page of rows at a time as the frames the one reader checks, and its writer
lock (a session-level advisory lock).
"""

from __future__ import annotations

import collections
import itertools
import os
import threading
import weakref
import zlib
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any

from tablelog.store.errors import LogError, record_error
from tablelog.store.format import (
    MAX_RECORD_BYTES,
    FormatError,
    Position,
    header_version,
    parse_header,
)
from tablelog.store.names import redact
from tablelog.store.pgsql import (
    SQL,
    StoreUnavailable,
    connect,
    db_errors,
    lock_timeout_setting,
    one_line,
    upgraded,
)
from tablelog.text import Msg, msg

__all__ = [
    "TableConnection",
    "most_connections",
    "header_row",
    "frames",
    "length_to",
    "digest_to",
    "insert_table",
    "AdvisoryLock",
]

_FIRST_PAGE, _LAST_PAGE = 64, 4096  # rows per read: small reads stay cheap, long ones fast


def most_connections() -> int:
    """Return how many table connections a process keeps open at most:
    ``$TABLELOG_PG_CONNECTIONS`` (or its older name ``$TABLELOG_SERVER_CONNECTIONS``; default
    32, at least 1).

    A server holding hundreds of tables would otherwise hold a connection per table and run
    out of the server's ``max_connections`` (PostgreSQL's default is 100): its next command was
    a 503 (issue 26's paced load, 200 tables, on PostgreSQL). Beyond the limit a table that
    needs a connection takes over the least recently used idle one of the same store (no new
    connection, no round trip)."""
    text = os.environ.get("TABLELOG_PG_CONNECTIONS") or os.environ.get(
        "TABLELOG_SERVER_CONNECTIONS", "32"
    )
    try:
        return max(1, int(text))
    except ValueError:
        return 32


_OPEN: collections.OrderedDict[int, weakref.ref[TableConnection]] = collections.OrderedDict()
_OPEN_LOCK = threading.Lock()  # guards _OPEN (least recently used first)
_GONE: list[int] = []  # keys of connections closed, taken out of _OPEN under _OPEN_LOCK
_KEYS = itertools.count()  # a TableConnection's key in _OPEN (an id() may be used again)


class TableConnection:
    """The connection a table uses (autocommit), made on first use and made again after it was
    closed or lost. The process keeps at most :func:`most_connections` open: beyond it a table
    takes over the least recently used idle connection of another table of the same store (the
    other table gets one again when it next needs one). A connection is idle when no statement
    runs on it, no transaction is open and its table holds no lock on it and has not pinned it
    (:meth:`pin`: a transaction or a COPY of its own).

    Args:
        url: The store's libpq URL (may hold a password: never printed).
        path: What messages call the table.
    """

    def __init__(self, url: str, path: str) -> None:
        self.url, self.path = url, path
        self.conn: Any = None
        self.locks = 0  # session-level locks held and pins: the connection stays this table's
        self.busy = threading.RLock()  # held while a statement runs on the connection
        self.key = next(_KEYS)

    def get(self) -> Any:
        """Return the connection, taking over an idle one or connecting when there is none.

        Raises:
            LogError: a bad URL, the server cannot be reached, or it refuses us (a wrong
                password, a missing database), in one line.
        """
        with self.busy:
            conn = self.conn
            if conn is not None and not conn.closed:
                with _OPEN_LOCK:
                    if self.key in _OPEN:
                        _OPEN.move_to_end(self.key)
                return conn
            self.conn = _taken_over(self) or self._connect()
            key = self.key
            with _OPEN_LOCK:
                _purge()
                _OPEN[key] = weakref.ref(self, lambda _ref: _forget(key))
            return self.conn

    def _connect(self) -> Any:
        import psycopg

        store = redact(self.url)
        try:
            conn = connect(self.url)
        except psycopg.ProgrammingError as exc:
            raise LogError(
                msg("store.url.bad", "bad store URL {url}: {why}", url=store, why=one_line(exc))
            ) from None
        except psycopg.Error as exc:
            raise StoreUnavailable(
                msg(
                    "store.db.connect",
                    "cannot connect to {url}: {why}",
                    url=store,
                    why=one_line(exc),
                )
            ) from None
        with db_errors(self.path):  # a connection made again waits for locks as the first did
            conn.execute(SQL.LOCK_TIMEOUT, (lock_timeout_setting(),))
        return conn

    def query(self, sql: str, params: tuple[Any, ...], binary: bool = False) -> Any:
        """Run one statement; return its cursor (its rows are read into it: fetching them
        needs no connection).

        Raises:
            LogError: the database refused, or cannot be used (one line naming the table).
        """
        with self.busy, db_errors(self.path):
            return self.get().execute(sql, params, binary=binary)

    def pin(self) -> Any:
        """Return the connection, kept by this table until :meth:`unpin` or :meth:`close` (for
        a transaction or a COPY that spans several calls)."""
        with self.busy:
            conn = self.get()
            self.locks += 1
            return conn

    def unpin(self) -> None:
        """Let another table take the connection over again once it is idle."""
        with self.busy:
            self.locks = max(0, self.locks - 1)

    def close(self) -> None:
        """Close the connection (the next use connects again)."""
        with self.busy:
            conn, self.conn, self.locks = self.conn, None, 0
            _forget(self.key)
            if conn is not None:
                conn.close()

    def idle(self) -> bool:
        """Whether another table may take the connection over now: open, no lock or pin held,
        no transaction open (the caller holds ``busy``)."""
        import psycopg.pq

        conn = self.conn
        return (
            conn is not None
            and not conn.closed
            and self.locks == 0
            and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        )


def _forget(key: int) -> None:
    """Take a closed (or dropped) connection out of the count. It never takes ``_OPEN_LOCK``: a
    log's ``__del__`` and a weak reference's callback run wherever the garbage collector does,
    also inside a block that holds the lock (which is not reentrant); the key waits in
    ``_GONE`` for the lock's next holder (a list's append is atomic)."""
    _GONE.append(key)


def _purge() -> None:
    """Take the keys of closed connections out of ``_OPEN`` (hold ``_OPEN_LOCK``)."""
    while _GONE:
        _OPEN.pop(_GONE.pop(), None)


def _taken_over(needing: TableConnection) -> Any:
    """Return the idle connection of another table of the same store, least recently used
    first, once the process holds :func:`most_connections` (its table no longer holds it); None
    below the limit, or when none is idle (the process goes over the limit for now). An idle
    connection of another store over the limit is closed instead."""
    most = most_connections()  # reads the environment: not under the lock
    with _OPEN_LOCK:
        _purge()
        if len(_OPEN) < most:
            return None
        others = [ref() for key, ref in list(_OPEN.items()) if key != needing.key]
    closing: list[TableConnection] = []
    for other in others:
        if other is None or not other.busy.acquire(blocking=False):
            continue
        try:
            if not other.idle():
                continue
            if other.url != needing.url:
                closing.append(other)
                continue
            conn, other.conn = other.conn, None
            _forget(other.key)
            return conn
        finally:
            other.busy.release()
    if closing:
        closing[0].close()
    return None


def frames(
    db: TableConnection,
    table_id: str,
    after: tuple[int, int],
    seen: Callable[[int, bytes], None],
) -> Iterator[tuple[int, bytes]]:
    """Yield ``(offset in the file form, payload)`` of each record after ``after`` (its seq and
    where it ends in the file form), a page of rows at a time (each page one query: a long read
    sees what was committed meanwhile, and never half a command), each payload within the length
    bound and matching its CRC-32, as a file's frames; ``seen(seq, payload)`` is told of each.

    Raises:
        LogError: the database cannot be used, or a payload that fails its check.
    """
    (seq, offset), limit = after, _FIRST_PAGE
    while True:
        rows = db.query(SQL.ROWS, (table_id, seq, limit), True).fetchall()
        for found, crc, data in rows:
            payload, seq = bytes(data), seq + 1
            fault: Msg | str = ""
            if zlib.crc32(payload) != crc:
                fault = msg("store.record.crc", "record checksum mismatch")
            if len(payload) > MAX_RECORD_BYTES:
                fault = msg(
                    "store.record.too_long",
                    "record length {length} is over the limit",
                    length=len(payload),
                )
            if fault:
                raise record_error(db.path, seq, offset, fault, "corrupt record")
            seen(seq, payload)
            yield offset, payload
            offset, seq = offset + 8 + len(payload), int(found)
        if len(rows) < limit:
            return
        limit = min(limit * 4, _LAST_PAGE)


def header_row(db: TableConnection, table_id: str) -> bytes:
    """Return table ``table_id``'s header bytes (its row in ``tablelog_tables``), setting the
    connection's lock timeout; migrate a store of an older schema version first.

    Raises:
        LogError: no such table (or no tablelog schema yet), a schema of another version, or
            the database cannot be used.
    """
    import psycopg

    with db.busy, db_errors(db.path):
        conn = db.get()
        try:
            row = conn.execute(SQL.OPEN, (lock_timeout_setting(), table_id)).fetchone()
        except psycopg.errors.UndefinedTable:  # no tablelog schema in this database yet
            row = None
        if row is not None:
            upgraded(conn, row[1])
    if row is None or row[2] is None:
        store = redact(db.url)
        raise LogError(
            msg(
                "store.db.no_table",
                "no table {table} in {url} (create one with: tablelog --log {log} init)",
                table=repr(table_id),
                url=store,
                log=f"{store}#{table_id}",
            )
        )
    return bytes(row[2])


def length_to(db: TableConnection, table_id: str, seq: int) -> int:
    """Return the length in the file form of the records up to ``seq`` (LogError)."""
    return int(db.query(SQL.LENGTH, (table_id, seq)).fetchone()[0])


def digest_to(db: TableConnection, table_id: str, header: bytes, pos: Position) -> int:
    """Return the digest of a table up to record ``pos.seq`` (≥ 1), computed by the server where
    the rows are: the header's CRC-32 continued over the MD5 of the records' payload MD5s in seq
    order; -1 when the table does not hold every record up to ``pos.seq``, or they do not end
    where ``pos``'s span says (LogError: the database cannot be used)."""
    digest, count, length = db.query(SQL.DIGEST, (table_id, pos.seq)).fetchone()
    ends = len(header) + int(length)
    if digest is None or count != pos.seq or (pos.span is not None and pos.span[1] != ends):
        return -1
    return zlib.crc32(bytes.fromhex(digest), zlib.crc32(header))


def insert_table(conn: Any, table_id: str, header: bytes) -> bool:
    """Insert a table's row (its header bytes and the columns read from them); return False
    when the table exists.

    Raises:
        LogError: ``header`` is not a header; psycopg.Error: the database refused.
    """
    try:
        fields, _ = parse_header(header)
    except FormatError as exc:
        raise LogError(
            msg("store.db.bad_header", "not a tablelog header: {message}", message=exc.msg)
        ) from None
    values = (table_id, header, header_version(header), fields.system, fields.title)
    row = conn.execute(SQL.CREATE, (*values, fields.session_id, fields.created)).fetchone()
    return row is not None


class AdvisoryLock:
    """A held session-level advisory lock (release it, or leave the ``with`` block)."""

    def __init__(self, db: TableConnection, key: int) -> None:
        self.db = db
        self.key: int | None = key

    def release(self) -> None:
        key, self.key = self.key, None
        if key is None:
            return
        try:
            with self.db.busy:
                conn = self.db.conn
                if conn is not None and not conn.closed:
                    with db_errors(self.db.path):
                        conn.execute(SQL.UNLOCK, (key,))
        finally:
            self.db.locks -= 1

    def __enter__(self) -> AdvisoryLock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
