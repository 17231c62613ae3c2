"""The PostgreSQL store's schema, statements, connections and error messages (docs/STORES.md).

The schema is created on first use (under an advisory lock, so concurrent first users do not
race) and carries its version in ``tablelog_schema``. A store of an older version is migrated
when this tablelog first opens it (:data:`MIGRATIONS`, under the same lock, in one
transaction), every table in it kept as it is; a store of a newer version is refused.

| version | what it changed |
|---|---|
| 1 | the schema of issue 16: a record's row held its byte offset in the file form |
| 2 | ``tablelog_records.file_offset`` dropped: a table is read by seq, and a record's offset
  in the file form is counted from the payloads before it (issue 31) |
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import re
from collections.abc import Iterator
from typing import Any

from tablelog.store.errors import LogError, LogLocked
from tablelog.store.waiting import lock_timeout_s
from tablelog.text import msg

__all__ = [
    "StoreUnavailable",
    "SCHEMA_VERSION",
    "CHANNEL",
    "connect",
    "ensure_schema",
    "db_errors",
    "lock_key",
    "one_line",
    "SQL",
]

SCHEMA_VERSION = 2
CHANNEL = "tablelog"  # NOTIFY channel: the payload is "TABLE_ID LAST_SEQ" after every append
# Every LISTENing connection holds this advisory lock shared (the two-int key space, apart from
# the tables' bigint keys) for as long as it is connected: a writer that can take it alone has
# no one to notify (tablelog.store.pgappend.NOTIFY).
LISTENERS_LOCK = (0x74626C67, 1)  # ("tblg", 1)
_SCHEMA_LOCK = 0x74626C6F67  # advisory lock key ("tblog") held while the schema is created

SCHEMA = """
CREATE TABLE IF NOT EXISTS tablelog_schema (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    version integer NOT NULL
);
INSERT INTO tablelog_schema (version) VALUES (2) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS tablelog_tables (
    table_id text PRIMARY KEY CHECK (table_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    header bytea NOT NULL,
    format smallint NOT NULL,
    system text NOT NULL,
    title text NOT NULL,
    session_id text NOT NULL,
    created timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS tablelog_records (
    table_id text NOT NULL,
    seq bigint NOT NULL CHECK (seq >= 1),
    crc bigint NOT NULL,
    payload bytea NOT NULL,
    type text NOT NULL,
    actor text NOT NULL,
    at timestamptz NOT NULL,
    cmd bigint,
    req text,
    PRIMARY KEY (table_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS tablelog_records_req
    ON tablelog_records (table_id, req) WHERE req IS NOT NULL;
CREATE TABLE IF NOT EXISTS tablelog_snapshots (
    table_id text PRIMARY KEY,
    body bytea NOT NULL
);
"""

MIGRATIONS = {
    1: "ALTER TABLE tablelog_records DROP COLUMN IF EXISTS file_offset",
}
"""The statement that brings a store of each older version to the next one."""


class SQL:
    """The statements the store runs (psycopg ``%s`` placeholders)."""

    OPEN = (
        "SELECT set_config('lock_timeout', %s, false), s.version, t.header "
        "FROM tablelog_schema s LEFT JOIN tablelog_tables t ON t.table_id = %s"
    )
    VERSION = "SELECT version FROM tablelog_schema"
    CREATE = (
        "INSERT INTO tablelog_tables (table_id, header, format, system, title, "
        "session_id, created) VALUES (%s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT DO NOTHING RETURNING table_id"
    )
    # The append and its notification: tablelog.store.pgappend (prepared, one round trip).
    ROWS = (
        "SELECT seq, crc, payload FROM tablelog_records WHERE table_id = %s AND seq > %s "
        "ORDER BY seq LIMIT %s"
    )
    RECORD = "SELECT crc, payload FROM tablelog_records WHERE table_id = %s AND seq = %s"
    # The last record: its seq and payload (whose chain hash is the table's head).
    LAST = "SELECT seq, payload FROM tablelog_records WHERE table_id = %s ORDER BY seq DESC LIMIT 1"
    # The digest of a prefix, how many records it holds and their length in the file form.
    DIGEST = (
        "SELECT md5(string_agg(md5(payload), '' ORDER BY seq)), count(*), "
        "coalesce(sum(8 + length(payload)), 0) FROM tablelog_records "
        "WHERE table_id = %s AND seq <= %s"
    )
    # The length in the file form of the records up to a seq (where the next one starts).
    LENGTH = (
        "SELECT coalesce(sum(8 + length(payload)), 0) FROM tablelog_records "
        "WHERE table_id = %s AND seq <= %s"
    )
    LOCK_TIMEOUT = "SELECT set_config('lock_timeout', %s, false)"
    LOCK = "SELECT pg_advisory_lock(%s)"
    UNLOCK = "SELECT pg_advisory_unlock(%s)"
    SNAPSHOT = "SELECT body FROM tablelog_snapshots WHERE table_id = %s"
    SAVE_SNAPSHOT = (
        "INSERT INTO tablelog_snapshots (table_id, body) VALUES (%s, %s) "
        "ON CONFLICT (table_id) DO UPDATE SET body = excluded.body"
    )
    DROP = (
        "DELETE FROM tablelog_records WHERE table_id = %s; "
        "DELETE FROM tablelog_snapshots WHERE table_id = %s; "
        "DELETE FROM tablelog_tables WHERE table_id = %s"
    )
    TABLES = "SELECT table_id FROM tablelog_tables ORDER BY table_id"


class StoreUnavailable(LogError):
    """The database cannot be reached or used (a lost connection, a server restarting): the
    table was not read or written; try again (exit status 3)."""


# psycopg logs the errors it ignores while cleaning up a lost connection; Python would print
# them on stderr, beside the one error line that already says what happened.
logging.getLogger("psycopg").addHandler(logging.NullHandler())


def connect(url: str) -> Any:
    """Return a new autocommit connection to ``url`` (a libpq URL).

    Raises:
        psycopg.Error: the server cannot be reached, refuses us, or the URL is bad.
    """
    extra: dict[str, Any] = {"autocommit": True, "fallback_application_name": "tablelog"}
    if "connect_timeout" not in url:
        extra["connect_timeout"] = 10
    return _connection_class().connect(url, **extra)


@functools.cache
def _connection_class() -> Any:
    """Return psycopg's Connection, closing itself when it is dropped: a table's log keeps its
    connection for as long as the log lives, and Python may drop the two in either order (at
    exit, or in a reference cycle), where psycopg's own class would warn."""
    import psycopg

    class Connection(psycopg.Connection):
        def __del__(self, *args: Any) -> None:
            if hasattr(self, "pgconn") and not self.closed:
                with contextlib.suppress(Exception):
                    self.close()

    return Connection


def ensure_schema(conn: Any) -> None:
    """Create the schema when it is missing, migrate one of an older version; refuse a store
    of a version this tablelog does not know.

    Raises:
        LogError: the store's schema is of a version this tablelog does not know.
        psycopg.Error: the database refused (e.g. no right to create or alter tables).
    """
    import psycopg

    try:
        row = conn.execute(SQL.VERSION).fetchone()
    except psycopg.errors.UndefinedTable:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            conn.execute(SCHEMA)
        row = conn.execute(SQL.VERSION).fetchone()
    upgraded(conn, row[0] if row else None)


def upgraded(conn: Any, version: int | None) -> None:
    """Migrate a store of an older schema ``version`` to this tablelog's (under the schema
    lock, in one transaction, looking at the version again under it: concurrent first users
    migrate once); refuse one this tablelog does not know.

    Raises:
        LogError: a version this tablelog does not know, or a migration the database refused.
    """
    import psycopg

    if version in MIGRATIONS:
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                version = conn.execute(SQL.VERSION + " FOR UPDATE").fetchone()[0]
                while version in MIGRATIONS:
                    conn.execute(MIGRATIONS[version])
                    version += 1
                conn.execute("UPDATE tablelog_schema SET version = %s", (version,))
        except psycopg.Error as exc:
            raise LogError(
                msg(
                    "store.db.migrate",
                    "cannot migrate the store's tablelog schema to version {version}: {why}",
                    version=SCHEMA_VERSION,
                    why=one_line(exc),
                )
            ) from None
    check_version(version)


def check_version(version: int | None) -> None:
    """Refuse a store whose schema version is not this tablelog's (LogError)."""
    if version != SCHEMA_VERSION:
        raise LogError(
            msg(
                "store.db.schema_version",
                "the store's tablelog schema is version {found}, this tablelog knows version "
                "{known}: use a tablelog that knows it",
                found=str(version),
                known=SCHEMA_VERSION,
            )
        )


def listen(conn: Any) -> None:
    """``LISTEN tablelog`` on ``conn`` (autocommit), then hold :data:`LISTENERS_LOCK` shared
    until it closes, so writers notify it (docs/STORES.md, Live appends)."""
    conn.execute(f"LISTEN {CHANNEL}")
    conn.execute("SELECT pg_advisory_lock_shared(%s, %s)", LISTENERS_LOCK)


def lock_key(table_id: str) -> int:
    """Return the advisory lock key of a table (a signed 64-bit hash of its id)."""
    digest = hashlib.blake2b(b"tablelog:" + table_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def lock_timeout_setting() -> str:
    """Return ``$TABLELOG_LOCK_TIMEOUT`` as PostgreSQL's ``lock_timeout`` (0 there means wait
    forever, so 0 seconds becomes 1 ms)."""
    return f"{max(1, round(lock_timeout_s() * 1000))}ms"


def one_line(exc: BaseException) -> str:
    """Return a database error's message on one line (psycopg's span several)."""
    text = re.sub(r"\s+", " ", str(exc)).strip()
    return text or type(exc).__name__


@contextlib.contextmanager
def db_errors(where: str, timeout: str = "") -> Iterator[None]:
    """Turn psycopg's errors into one-line LogErrors naming ``where`` (the table); a lock
    that timed out names ``timeout`` (default: ``$TABLELOG_LOCK_TIMEOUT``'s).

    Raises:
        LogLocked: a lock was not free within the timeout.
        LogError: any other database error.
    """
    import psycopg

    try:
        yield
    except psycopg.errors.LockNotAvailable:
        raise LogLocked(
            msg(
                "store.db.locked",
                "{path} is locked by another writer (waited {wait})",
                path=where,
                wait=timeout or lock_timeout_setting(),
            )
        ) from None
    except psycopg.OperationalError as exc:
        raise StoreUnavailable(
            msg(
                "store.db.unusable",
                "{path}: cannot use the database: {why}",
                path=where,
                why=one_line(exc),
            )
        ) from None
    except psycopg.Error as exc:
        raise LogError(
            msg(
                "store.db.refused",
                "{path}: the database refused: {why}",
                path=where,
                why=one_line(exc),
            )
        ) from None
