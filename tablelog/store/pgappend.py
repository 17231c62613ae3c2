"""A command's append to a PostgreSQL table in one round trip, through psycopg's own prepared
statements and pipeline (docs/STORES.md, "One round trip per command").

The append is the hot path of every appending command: the insert of the command's records
(:data:`APPEND_ONE` for a command of one record, most are; :data:`APPEND` with one array per
column for several), which takes the table's writer lock shared first, prepared once per
connection (psycopg's ``prepare=True``), every parameter in PostgreSQL's binary format, in its own
transaction (durable: the default ``synchronous_commit``). When a connection may be listening,
the notification (:data:`NOTIFY`) follows in the same round trip, in its own transaction, which
does not wait for a disk flush (a ``NOTIFY`` inside the append's transaction would hold
PostgreSQL's notify lock across that flush and serialise every writer's commit): one pipeline of
``BEGIN``, the insert, ``COMMIT`` and the notification, and one wait for the answers. A
notification no connection listened for makes the next :data:`QUIET_S` seconds of this
connection's appends the insert alone.
"""

from __future__ import annotations

import functools
import time
import zlib
from typing import Any

from tablelog.store.errors import LogError, LogMovedOn
from tablelog.store.format import COMMAND_KEY, REQUEST_KEY
from tablelog.store.pgsql import CHANNEL, LISTENERS_LOCK, db_errors, lock_key
from tablelog.store.reader import Record
from tablelog.text import msg

__all__ = ["APPEND", "APPEND_ONE", "NOTIFY", "QUIET_S", "append", "append_and_notify"]

# One statement per command (atomic on its own): the table's writer lock is taken shared before
# the first row is inserted; the records' times are text, cast by the server, as a log file
# keeps them. A command whose first seq is already taken, or whose record before it is not in
# the table as it was decided on (that seq with that CRC-32: a table restored from an older
# backup lost or changed its tail), inserts nothing (no row written and rolled back, no error,
# never a gap or a broken chain): it lost a race, and its writer catches up; one that races
# another's uncommitted insert still meets the unique key.
APPEND = (
    "INSERT INTO tablelog_records (table_id, seq, crc, payload, type, actor, at, cmd, req) "
    "SELECT %(table)b, r.* FROM unnest(%(seq)b::bigint[], %(crc)b::bigint[], "
    "%(payload)b::bytea[], %(type)b::text[], %(actor)b::text[], "
    "%(at)b::text[]::timestamptz[], %(cmd)b::bigint[], %(req)b::text[]) AS r "
    "WHERE pg_advisory_xact_lock_shared(%(lock)b)::text = '' AND NOT EXISTS "
    "(SELECT FROM tablelog_records WHERE table_id = %(table)b AND seq = %(first)b) "
    "AND (%(first)b::bigint = 1 OR EXISTS (SELECT FROM tablelog_records "
    "WHERE table_id = %(table)b AND seq = %(first)b::bigint - 1 AND crc = %(before)b::bigint))"
)
# A command of one record: the same insert with one value per column (no arrays to build or
# parse: a fifth less CPU per append in the client).
APPEND_ONE = (
    "INSERT INTO tablelog_records (table_id, seq, crc, payload, type, actor, at, cmd, req) "
    "SELECT %(table)b, %(seq)b, %(crc)b, %(payload)b, %(type)b, %(actor)b, "
    "%(at)b::timestamptz, %(cmd)b, %(req)b "
    "WHERE pg_advisory_xact_lock_shared(%(lock)b)::text = '' AND NOT EXISTS "
    "(SELECT FROM tablelog_records WHERE table_id = %(table)b AND seq = %(seq)b) "
    "AND (%(seq)b::bigint = 1 OR EXISTS (SELECT FROM tablelog_records "
    "WHERE table_id = %(table)b AND seq = %(seq)b::bigint - 1 AND crc = %(before)b::bigint))"
)
# A notification is no data (a reader also looks every second): its transaction commits
# without waiting for a disk flush. It is sent only when a connection listens: every listener
# holds LISTENERS_LOCK shared (tablelog.store.pgsql.listen), so a writer that can take it alone
# for its transaction has no one to notify, sends nothing (no row) and keeps quiet for
# QUIET_S seconds (another writer's try at the same moment only makes this one notify).
NOTIFY = (
    "SELECT set_config('synchronous_commit', 'off', true), pg_notify(%b, %b) "
    "WHERE NOT pg_try_advisory_xact_lock({}, {})".format(*LISTENERS_LOCK)
)
QUIET_S = 1.0  # a listener that came meanwhile has its own look at the table every LOOK_S


def append(db: Any, table_id: str, records: list[Record], before: int = 0) -> None:
    """Append one command's ``records`` (framed: :func:`tablelog.store.framing.records_of`) to
    table ``table_id`` on ``db`` (its :class:`~tablelog.store.pgtable.TableConnection`), if
    its first seq is still free and the record before it is still the one whose payload's
    CRC-32 is ``before`` (any for a first record); committed, then notified, before it returns.

    Raises:
        LogMovedOn: another writer appended at this seq (or this request id) first.
        LogError: the database refused, or the connection was lost (while committing: the
            command may or may not be in the table, and the message says so).
    """
    import psycopg

    note = f"{table_id} {records[-1][0]}"
    try:
        with db_errors(db.path):
            try:
                rows = _rows(table_id, records, before)
                with db.busy:
                    inserted = append_and_notify(db.get(), rows, CHANNEL, note)
            except psycopg.errors.UniqueViolation:
                raise LogMovedOn() from None
    except LogError as exc:
        db.close()  # its state is unknown: the next use connects again
        raise type(exc)(
            msg(
                "store.db.lost_commit",
                "{message}; the connection was lost while committing: the command may or may "
                "not be in the table (look with tablelog log; a retry with the same "
                "--request-id appends it at most once)",
                message=exc.msg,
            )
        ) from None
    if inserted == 0:  # the first seq was taken, or the one before it is gone: catch up
        raise LogMovedOn()
    if inserted != len(records):
        raise LogError(
            msg(
                "store.db.partial",
                "{path}: the database appended {inserted} of {count} records",
                path=db.path,
                inserted=inserted,
                count=len(records),
            )
        )


def _rows(table_id: str, records: list[Record], before: int) -> dict[str, Any]:
    """Return the parameters of :data:`APPEND` for a batch: one value per column for a
    command of one record (:data:`APPEND_ONE`), else one list per column."""
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
    rows.update(table=table_id, lock=lock_key(table_id), first=records[0][0], before=before)
    return rows


def append_and_notify(conn: Any, rows: dict[str, Any], channel: str, note: str) -> int:
    """Insert one command's records (``rows``: one value per column for a command of one
    record, else one list per column; see :data:`APPEND`), committed, and then ``NOTIFY
    channel, note`` when a connection listens, in one round trip on ``conn`` (a psycopg
    connection, autocommit); return the number of records inserted.

    A notification that fails is ignored: the records are committed, and readers also look
    every second. After a notification no one listened for, the next :data:`QUIET_S` seconds of
    appends on ``conn`` send none: each is its insert alone (a plain prepared statement).

    Returns:
        The records inserted: 0 when the command's first seq was taken (it lost a race).

    Raises:
        psycopg.Error: the append failed (``UniqueViolation``: another writer appended at this
            seq, or this request id, first), or the connection was lost. Either way the
            connection is closed (the next use connects again): after a failed pipeline, the
            statements psycopg takes as prepared are not all prepared on the server.
    """
    import psycopg

    _int8(conn)
    statement = APPEND_ONE if type(rows["seq"]) is int else APPEND
    if getattr(conn, "tablelog_quiet_until", 0.0) > time.monotonic():  # no one to notify
        alone = _cursor(conn)
        try:
            alone.execute(statement, rows, prepare=True)
        except psycopg.Error:
            conn.close()  # as after a failed pipeline: the next use connects again
            raise
        return max(0, int(alone.rowcount))
    # Fresh cursors: a result left on a cursor by an earlier append must not pass for this one's.
    begin, insert, commit, heard = (conn.cursor() for _ in range(4))
    try:
        with conn.pipeline():
            begin.execute("BEGIN")
            insert.execute(statement, rows, prepare=True)
            commit.execute("COMMIT")
            heard.execute(NOTIFY, (channel, note), prepare=True)
    except psycopg.Error:
        conn.close()  # after a failed pipeline psycopg's prepared statements are not the server's
        if not _committed(commit):  # the append's error (a notification's is ignored)
            raise
    if _unheard(heard):
        conn.tablelog_quiet_until = time.monotonic() + QUIET_S
    return max(0, int(insert.rowcount))


def _cursor(conn: Any) -> Any:
    """Return the cursor of ``conn``'s appends that notify no one (made once per connection: a
    cursor made per append was a third of psycopg's share of its CPU)."""
    found = getattr(conn, "tablelog_cursor", None)
    if found is None:
        found = conn.tablelog_cursor = conn.cursor()
    return found


def _committed(cursor: Any) -> bool:
    """Whether the ``COMMIT`` that ``cursor`` ran succeeded."""
    from psycopg import pq

    result = cursor.pgresult
    return result is not None and result.status == pq.ExecStatus.COMMAND_OK


def _unheard(cursor: Any) -> bool:
    """Whether the notification that ``cursor`` ran says no connection listened (no row)."""
    from psycopg import pq

    result = cursor.pgresult
    return result is not None and result.status == pq.ExecStatus.TUPLES_OK and not result.ntuples


@functools.cache
def _int8_dumper() -> Any:
    from psycopg.types.numeric import Int8BinaryDumper

    return Int8BinaryDumper


def _int8(conn: Any) -> None:
    """Make ``conn`` send every int as a binary ``bigint`` (once): psycopg picks the smallest
    type that holds the value, and a prepared statement needs one type per parameter."""
    if not getattr(conn, "tablelog_int8", False):
        conn.adapters.register_dumper(int, _int8_dumper())
        conn.tablelog_int8 = True
