"""The PostgreSQL append (tablelog/store/pgappend.py): one record or several stored alike, the
append and its notification in one round trip, a failed notification, a lost connection."""

from __future__ import annotations

import time
import zlib
from typing import Any

import pytest

from tablelog.commands.core import AddNote
from tablelog.session import Session
from tablelog.store import pgappend
from tablelog.store.log import LogError
from tablelog.store.pgsql import connect
from tablelog.store.postgres import PostgresLog
from tablelog.store.url import open_log
from tests.support import toy
from tests.support.pg import PgServer

toy.install()


def backend_pid(session: Session) -> int:
    """Return the PostgreSQL backend of the session's table's connection."""
    log: Any = session.log
    return int(log.connection().execute("SELECT pg_backend_pid()").fetchone()[0])


def test_a_failed_notification_leaves_the_append_committed(
    pg: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notification runs in its own transaction after the append's: when it fails, the
    command is appended all the same and reported as appended."""
    spec = pg.table()
    Session.create(spec, "toy", seed=1).log.close()
    monkeypatch.setattr(pgappend, "NOTIFY", "SELECT 1 / 0, %b::text, %b::text")
    session = Session(spec)
    outcome = session.execute(AddNote(text="noted"))
    assert outcome.written and [a.seq for a in outcome.applied] == [1]
    assert [r.data["text"] for r in open_log(spec).scan()] == ["noted"]
    assert session.execute(AddNote(text="again")).applied[0].seq == 2


def test_an_append_on_a_lost_connection_is_one_error_then_the_next_connects(pg: PgServer) -> None:
    """The server ends the table's connection between two commands: the next append is one
    LogError that says the command may or may not be in the table (here: not); the one after
    connects again and appends."""
    spec = pg.table()
    Session.create(spec, "toy", seed=1).log.close()
    session = Session(spec)
    session.execute(AddNote(text="first"))
    pg.sql("SELECT pg_terminate_backend(%s)", (backend_pid(session),))
    with pytest.raises(LogError, match="may or may not be in the table"):
        session.execute(AddNote(text="lost"))
    assert [r.data["text"] for r in open_log(spec).scan()] == ["first"]
    assert session.execute(AddNote(text="second")).applied[0].seq == 2
    assert [r.data["text"] for r in open_log(spec).scan()] == ["first", "second"]


def test_a_lost_race_stamps_after_the_record_it_caught_up_with_without_reading_it_again(
    pg: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a lost race the command's time follows the table's new last record, which the
    catch-up has just read: no query reads that record back (PostgresLog.envelope_at)."""
    spec = pg.table()
    Session.create(spec, "toy", seed=1).log.close()
    late, early = Session(spec), Session(spec)
    late.state()
    early.execute(AddNote(text="early"))
    rows: list[int] = []
    row = PostgresLog._row
    monkeypatch.setattr(PostgresLog, "_row", lambda self, seq: rows.append(seq) or row(self, seq))
    late.execute(AddNote(text="late"))
    assert rows == []
    stamps = [r.at for r in open_log(spec).scan()]
    assert len(stamps) == 2 and stamps[0] < stamps[1]


def test_one_record_and_several_store_the_same_columns(pg: PgServer) -> None:
    """A command of one record goes through the one-value insert (APPEND_ONE), one of several
    through the arrays (APPEND): both store every column as the file form has it (seq, CRC-32
    of the payload, type, actor, time, command id, request id), and read back as written."""
    spec = pg.table()
    Session.create(spec, "toy", seed=1).log.close()
    log = open_log(spec)
    log.open()
    assert log.start is not None
    one = [
        {
            "type": "core.Noted",
            "v": 1,
            "at": "2026-01-01T00:00:01.000000Z",
            "actor": "gm",
            "data": {"text": "one"},
            "cmd": 1,
            "req": "r-1",
        }
    ]
    several = [
        {
            "type": "core.Noted",
            "v": 1,
            "at": "2026-01-01T00:00:02.000000Z",
            "actor": "Ann",
            "data": {"text": f"part {i}"},
            "cmd": 2,
        }
        for i in range(3)
    ]
    end = log.append(one, log.start)
    log.append(several, end)
    rows = pg.sql(
        "SELECT seq, crc, type, actor, to_char(at AT TIME ZONE 'UTC', "
        "'HH24:MI:SS'), cmd, req FROM tablelog_records WHERE table_id = %s ORDER BY seq",
        (spec.rpartition("#")[2],),
    )
    stored = list(open_log(spec).scan())
    assert [r[0] for r in rows] == [1, 2, 3, 4] == [s.seq for s in stored]
    assert [s.data["text"] for s in stored] == ["one", "part 0", "part 1", "part 2"]
    assert [(r[2], r[3], r[4], r[5], r[6]) for r in rows] == [
        ("core.Noted", "gm", "00:00:01", 1, "r-1"),
        *[("core.Noted", "Ann", "00:00:02", 2, None)] * 3,
    ]
    payloads = pg.sql(
        "SELECT crc, payload FROM tablelog_records WHERE table_id = %s ORDER BY seq",
        (spec.rpartition("#")[2],),
    )
    assert all(zlib.crc32(bytes(p)) == c for c, p in payloads)


def notes(conn: Any, timeout_s: float = 0.3) -> list[str]:
    """The payloads of the notifications ``conn`` (LISTENing) received, waiting at most
    ``timeout_s`` seconds after the last one."""
    return [n.payload for n in conn.notifies(timeout=timeout_s)]


def test_appends_notify_a_listener_and_no_one_else(
    pg: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a listener (tablelog.store.pgsql.listen: LISTEN, and the listeners' lock held
    shared) every append notifies it. With none, the append's NOTIFY finds the lock free,
    sends nothing, and the connection's next appends for QUIET_S seconds send no NOTIFY at
    all (a bare LISTEN without the lock hears nothing); past that (the test ends the quiet
    itself, counting no wall-clock time), a listener that came meanwhile is notified again."""
    from tablelog.store.pgsql import CHANNEL, listen

    monkeypatch.setattr(pgappend, "QUIET_S", 60.0)  # the quiet ends when the test says so
    spec = pg.table()
    table_id = spec.rsplit("#", 1)[1]
    Session.create(spec, "toy", seed=1).log.close()
    session = Session(spec)
    heard = connect(pg.url)
    listen(heard)
    try:
        for text in ("a", "b", "c"):
            session.execute(AddNote(text=text))
        assert [f"{table_id} 1", f"{table_id} 2", f"{table_id} 3"] == notes(heard)
    finally:
        heard.close()
    bare = connect(pg.url)
    bare.execute(f"LISTEN {CHANNEL}")  # listens, but does not hold the lock
    try:
        session.execute(AddNote(text="d"))  # the NOTIFY finds no listener: quiet from now
        conn: Any = session.log.connection()  # type: ignore[attr-defined]
        assert conn.tablelog_quiet_until > 0
        session.execute(AddNote(text="e"))  # within QUIET_S: no NOTIFY sent
        assert notes(bare) == []
        late = connect(pg.url)
        listen(late)
        try:
            session.execute(AddNote(text="f"))  # still quiet: the late listener looks itself
            assert notes(late, 0.1) == []
            conn.tablelog_quiet_until = time.monotonic() - 1  # QUIET_S has passed (no sleep:
            session.execute(AddNote(text="g"))  # a loaded machine made a 0.5 s quiet lapse)
            assert [f"{table_id} 7"] == notes(late)
        finally:
            late.close()
    finally:
        bare.close()
    assert [r.data["text"] for r in open_log(spec).scan()] == list("abcdefg")
