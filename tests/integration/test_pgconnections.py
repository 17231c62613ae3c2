"""A process holding many PostgreSQL tables keeps at most ``$TABLELOG_PG_CONNECTIONS`` open
(tablelog/store/pgtable.py): idle ones are closed least recently used first and connect again
on their next use; a connection holding a table's writer lock is never closed."""

from __future__ import annotations

from typing import Any

import pytest

from tablelog.commands.core import AddNote
from tablelog.session import Session
from tablelog.store import pgtable
from tablelog.store.url import open_log
from tests.support import toy
from tests.support.pg import PgServer

toy.install()


def open_connections(pg: PgServer, database: str) -> set[int]:
    """Return the backends of the tablelog connections the server holds to ``database``."""
    rows = pg.sql(
        "SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
        (database, "tablelog"),
    )
    return {int(row[0]) for row in rows}


def test_many_tables_stay_within_the_connection_limit(
    pg: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve tables, each appended to in turn three times, with a limit of 4: the server never
    sees more than 4 of this process's connections, the tables take them over from one another
    (no more than 4 are ever made), and every append lands."""
    monkeypatch.setenv("TABLELOG_PG_CONNECTIONS", "4")
    url = pg.new_database()
    database = url.rsplit("/", 1)[1].split("?")[0]
    specs = [f"{url}#conn{n:02d}" for n in range(12)]
    for spec in specs:
        Session.create(spec, "toy", seed=1)
    sessions = [Session(spec) for spec in specs]
    most, made = 0, set()
    for round_ in range(3):
        for session in sessions:
            session.execute(AddNote(text=f"round {round_}"))
            now = open_connections(pg, database)
            most, made = max(most, len(now)), made | now
    assert most <= 4
    assert len(made) <= 4  # taken over, not closed and made again
    for spec in specs:
        texts = [r.data["text"] for r in open_log(spec).scan()]
        assert texts == ["round 0", "round 1", "round 2"]


def test_a_locked_table_keeps_its_connection(pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table holding its writer lock (a session-level advisory lock, as verify --repair and
    a migration take it) is passed over when room is made: the lock stays held."""
    monkeypatch.setenv("TABLELOG_PG_CONNECTIONS", "1")
    url = pg.new_database()
    held = Session.create(f"{url}#held", "toy", seed=1)
    other = Session.create(f"{url}#other", "toy", seed=1)
    log: Any = held.log
    with log.lock():
        before = backend_pid(log)
        other.execute(AddNote(text="beside a held lock"))
        assert backend_pid(log) == before
        locks = pg.sql(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = %s", (before,)
        )
        assert locks[0][0] == 1
    other.execute(AddNote(text="after the lock"))  # now it may be closed: it connects again
    held.execute(AddNote(text="and this one too"))
    assert pgtable.most_connections() == 1


def backend_pid(log: Any) -> int:
    """Return the PostgreSQL backend of a table's connection."""
    return int(log.connection().execute("SELECT pg_backend_pid()").fetchone()[0])


def test_a_log_dropped_while_the_count_is_locked_does_not_wait_for_it(pg: PgServer) -> None:
    """A table's log garbage-collected while a thread holds the count's lock (its ``__del__``
    closes the connection, and the collector runs wherever Python allocates: once inside
    ``most_connections()`` under that lock, which hung a whole test run): the close returns at
    once, and the next connection of the process takes the closed one out of the count."""
    import gc
    import threading

    url = pg.new_database()
    spec = f"{url}#dropped"
    Session.create(spec, "toy", seed=1).log.close()
    session = Session(spec)
    session.state()
    key = session.log._db.key  # type: ignore[attr-defined]
    assert key in pgtable._OPEN
    done = threading.Event()

    def drop() -> None:
        nonlocal session
        with pgtable._OPEN_LOCK:
            del session
            gc.collect()
        done.set()

    worker = threading.Thread(target=drop, daemon=True)
    worker.start()
    assert done.wait(10), "the log's close waited for the lock its own thread held"
    Session(spec).state()  # a new connection: the dropped one is out of the count
    assert key not in pgtable._OPEN
