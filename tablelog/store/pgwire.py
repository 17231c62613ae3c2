"""A command's append to a PostgreSQL table in one round trip (docs/STORES.md, Performance).

The append is the hot path of every appending command, so it goes below psycopg's cursors to
its libpq connection (``conn.pgconn``): two statements prepared once per connection
(:data:`APPEND`, :data:`NOTIFY`), parameters encoded here in PostgreSQL's binary format, and
both statements sent in one pipeline: ``APPEND``, sync, ``NOTIFY``, sync. Each sync ends its own
transaction, so the records commit (durably: the default ``synchronous_commit``) before the
notification is sent, and the notification's transaction does not wait for a disk flush (a
``NOTIFY`` in the append's own transaction would hold PostgreSQL's notify lock across that
flush and serialise every writer's commit). The client waits once for both answers. The
notification is sent only while a connection listens (:data:`NOTIFY`, :data:`QUIET_S`).
psycopg's own wait loop drives the I/O, so Ctrl-C and lost connections behave as in
``conn.execute``.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Sequence
from typing import Any

from tablelog.store.pgsql import LISTENERS_LOCK

__all__ = [
    "APPEND",
    "APPEND_ONE",
    "NOTIFY",
    "QUIET_S",
    "append_and_notify",
    "int8",
    "int8_array",
    "text_array",
    "bytea_array",
]

APPEND_NAME, APPEND_ONE_NAME = b"tablelog_append", b"tablelog_append_one"
NOTIFY_NAME = b"tablelog_notify"
# One statement per command (atomic on its own): the rows come as arrays, and the table's
# writer lock is taken shared before the first row is inserted. ``$8`` (the records' times) is
# text, cast by the server, as a log file keeps it. A command whose first seq is already taken
# inserts nothing (no row written and rolled back, no error): it lost a race; one that races
# another's uncommitted insert still meets the unique key.
APPEND = (
    b"INSERT INTO tablelog_records (table_id, seq, file_offset, crc, payload, type, actor, "
    b"at, cmd, req) SELECT $1, r.* FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], "
    b"$5::bytea[], $6::text[], $7::text[], $8::text[]::timestamptz[], $9::bigint[], "
    b"$10::text[]) AS r WHERE pg_advisory_xact_lock_shared($11)::text = '' AND NOT EXISTS "
    b"(SELECT FROM tablelog_records WHERE table_id = $1 AND seq = ($2::bigint[])[1])"
)
_APPEND_TYPES = [25, 1016, 1016, 1016, 1001, 1009, 1009, 1009, 1016, 1009, 20]  # type OIDs
# A command of one record (most are): the same insert with one value per column, so neither
# side builds or parses arrays (a fifth less CPU per append in the client: STORES.md).
APPEND_ONE = (
    b"INSERT INTO tablelog_records (table_id, seq, file_offset, crc, payload, type, actor, "
    b"at, cmd, req) SELECT $1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $9, $10 "
    b"WHERE pg_advisory_xact_lock_shared($11)::text = '' AND NOT EXISTS "
    b"(SELECT FROM tablelog_records WHERE table_id = $1 AND seq = $2)"
)
_APPEND_ONE_TYPES = [25, 20, 20, 20, 17, 25, 25, 25, 20, 25, 20]
# A notification is no data (a reader also looks every second): its transaction commits
# without waiting for a disk flush. It is sent only when a connection listens: every listener
# holds LISTENERS_LOCK shared (tablelog.store.pgsql.listen), so a writer that can take it alone
# for its transaction has no one to notify, sends nothing (no row) and keeps quiet for
# QUIET_S seconds (another writer's try at the same moment only makes this one notify).
NOTIFY = (
    b"SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2) "
    b"WHERE NOT pg_try_advisory_xact_lock(%d, %d)" % LISTENERS_LOCK
)
QUIET_S = 1.0  # a listener that came meanwhile has its own look at the table every LOOK_S

_BINARY = [1] * 11  # every parameter of both appends is in binary format
_ARRAY_HEAD = struct.Struct(">iiiii")  # dimensions, has-nulls flag, element type, length, base
_NULL = b"\xff\xff\xff\xff"


def _array(oid: int, items: list[bytes | None]) -> bytes:
    """Return a one-dimensional array in PostgreSQL's binary format (``array_recv``)."""
    parts = [_ARRAY_HEAD.pack(1, int(None in items), oid, len(items), 1)]
    for item in items:
        parts.append(_NULL if item is None else len(item).to_bytes(4, "big") + item)
    return b"".join(parts)


def int8(value: int | None) -> bytes | None:
    """Return ``bigint`` in binary format (None: NULL)."""
    return None if value is None else value.to_bytes(8, "big", signed=True)


def int8_array(values: Sequence[int | None]) -> bytes:
    """Return ``bigint[]`` in binary format (None: NULL)."""
    return _array(20, [None if v is None else v.to_bytes(8, "big", signed=True) for v in values])


def text_array(values: list[str | None]) -> bytes:
    """Return ``text[]`` in binary format (None: NULL)."""
    return _array(25, [None if v is None else v.encode() for v in values])


def bytea_array(values: list[bytes]) -> bytes:
    """Return ``bytea[]`` in binary format."""
    return _array(17, list(values))


def append_and_notify(
    conn: Any, params: list[bytes | None], channel: str, note: str, one: bool = False
) -> int:
    """Run :data:`APPEND` (with ``one``: :data:`APPEND_ONE`) with ``params`` (binary, in its
    order) and then ``NOTIFY channel, note`` when a connection listens (:data:`NOTIFY`), in
    one round trip on ``conn`` (a psycopg connection, autocommit), preparing the statements
    first on a connection that has not yet; return the number of records inserted.

    A notification that fails is ignored: the records are committed, and readers also look
    every second. After a notification no one listened for, the next :data:`QUIET_S` seconds of
    appends on ``conn`` send none (the append alone: a fifth of the CPU of an append at 16
    writers, docs/STORES.md).

    Returns:
        The records inserted: 0 when the command's first seq was taken (it lost a race).

    Raises:
        psycopg.Error: the append failed (``UniqueViolation``: another writer appended at this
            seq, or this request id, first), or the connection was lost (then it is closed,
            and the next use connects again).
    """

    pgconn = conn.pgconn
    prepare = not getattr(conn, "tablelog_prepared", False)
    notify = getattr(conn, "tablelog_quiet_until", 0.0) <= time.monotonic()
    try:
        with conn.lock:
            pgconn.enter_pipeline_mode()
            if prepare:
                pgconn.send_prepare(APPEND_NAME, APPEND, _APPEND_TYPES)
                pgconn.send_prepare(APPEND_ONE_NAME, APPEND_ONE, _APPEND_ONE_TYPES)
                pgconn.send_prepare(NOTIFY_NAME, NOTIFY, [25, 25])
                pgconn.pipeline_sync()
            statement = APPEND_ONE_NAME if one else APPEND_NAME
            pgconn.send_query_prepared(statement, params, _BINARY)
            pgconn.pipeline_sync()
            if notify:
                pgconn.send_query_prepared(NOTIFY_NAME, [channel.encode(), note.encode()])
                pgconn.pipeline_sync()
            segments = conn.wait(_segments(pgconn, 1 + prepare + notify))
            pgconn.exit_pipeline_mode()
    except BaseException:
        conn.close()  # mid-pipeline: the connection's state is unknown
        raise
    if prepare:
        _raise_error(conn, segments[0])
        conn.tablelog_prepared = True
    appended = segments[prepare]
    _raise_error(conn, appended)  # the append's; the notification's is ignored
    if notify and _unheard(segments[-1]):
        conn.tablelog_quiet_until = time.monotonic() + QUIET_S
    return int(appended[0].command_tuples or 0)


def _unheard(results: list[Any]) -> bool:
    """Whether the notification's results say no connection listened (no row)."""
    from psycopg import pq

    return bool(results) and results[0].status == pq.ExecStatus.TUPLES_OK and not results[0].ntuples


def _raise_error(conn: Any, results: list[Any]) -> None:
    """Raise the first error among ``results`` (psycopg's exception for it), if any."""
    import psycopg

    for result in results:
        if result.status == psycopg.pq.ExecStatus.FATAL_ERROR:
            raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)


def _segments(pgconn: Any, syncs: int) -> Any:
    """psycopg wait generator: send the pipeline, return the results between its ``syncs``
    syncs (one list per segment)."""
    from psycopg import OperationalError, generators, pq

    yield from generators.send(pgconn)
    segments: list[list[Any]] = [[]]
    while len(segments) <= syncs:
        got = yield from generators.fetch_many(pgconn)
        if not got:
            raise OperationalError("the connection was lost during an append")
        for result in got:
            if result.status == pq.ExecStatus.PIPELINE_SYNC:
                segments.append([])
            else:
                segments[-1].append(result)
    return segments[:-1]
