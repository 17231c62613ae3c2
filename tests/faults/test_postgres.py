"""Faults on the PostgreSQL store, through real processes: many writers, a writer killed inside
its transaction, the database restarted under running commands, and every way to name a store
wrongly (docs/STORES.md)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from tablelog.session import Session
from tablelog.store.url import open_log
from tests.support import toy
from tests.support.cli import invoke, ok
from tests.support.pg import PgServer, unavailable, with_database

toy.install()

HERE = Path(__file__).resolve().parent
FROZEN = HERE.parent / "data" / "frozen"
TOYCLI = str(HERE / "toycli.py")
ENV = {**os.environ, "TABLELOG_LOCK_TIMEOUT": "60"}
NOTED = re.compile(r"^#(\d+) core\.Noted '(.*)'$")


def start(*args: str) -> subprocess.Popen[str]:
    """Start the real tablelog command (toy system installed) in a child process."""
    return subprocess.Popen(
        [sys.executable, TOYCLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def scripts(tmp_path: Path, writers: int, lines: int) -> list[Path]:
    """Write one script of ``lines`` notes per writer; return their paths."""
    paths = []
    for w in range(writers):
        path = tmp_path / f"w{w}.txt"
        path.write_text("".join(f"note 'w{w} line {i}'\n" for i in range(lines)))
        paths.append(path)
    return paths


def acknowledged(out: str) -> dict[str, int]:
    """Map each note a child reported appended (``#SEQ core.Noted 'TEXT'``) to its seq."""
    found = {}
    for line in out.splitlines():
        match = NOTED.match(line)
        if match:
            found[match.group(2)] = int(match.group(1))
    return found


def notes(spec: str) -> dict[str, int]:
    """Map every note in a table to its seq (checking the table's bytes and hash chain)."""
    log = open_log(spec)
    try:
        return {
            env["data"]["text"]: seq
            for seq, env, *_ in log.records(chain=True)
            if env["type"] == "core.Noted"
        }
    finally:
        log.close()


@pytest.mark.slow
def test_eight_processes_append_a_hundred_each_to_one_table(pg: PgServer, tmp_path: Path) -> None:
    """8 CLI processes × 100 appends to one PostgreSQL table: 800 events, seq contiguous, each
    exactly once, each writer's in its order, and the table verifies."""
    spec = pg.table()
    ok(spec, "init", "--system", "toy")
    procs = [
        start("--log", spec, "--actor", f"w{w}", "run", str(script))
        for w, script in enumerate(scripts(tmp_path, 8, 100))
    ]
    results = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err for _, err in results]
    records = list(open_log(spec).scan())
    assert [r.seq for r in records] == list(range(1, 801))
    assert sorted(r.data["text"] for r in records) == sorted(
        f"w{w} line {i}" for w in range(8) for i in range(100)
    )
    for w in range(8):
        assert [r.data["text"] for r in records if r.actor == f"w{w}"] == [
            f"w{w} line {i}" for i in range(100)
        ]
    assert ok(spec, "verify").startswith(
        f"ok: {open_log(spec).path}: 800 records, hash chain intact, replays (toy)\nhead: 800:"
    )


@pytest.mark.slow
def test_sigkill_inside_a_transaction_loses_nothing_reported(pg: PgServer) -> None:
    """10 writers killed at random moments (most inside an append's transaction): every
    reported append is in the table, no command is there in part, and appends go on."""
    rng = random.Random(20261201)
    for trial in range(10):
        spec = pg.table(f"k{trial}x")
        ok(spec, "init", "--system", "toy")
        name = f"tablelog-killed-{trial}"  # the child's connection, as the server names it
        child = subprocess.Popen(
            [sys.executable, str(HERE / "pg_appender.py"), spec],
            stdout=subprocess.PIPE,
            text=True,
            env={**ENV, "PGAPPNAME": name},
        )
        assert child.stdout is not None
        first = child.stdout.readline()  # the child is in its loop of appends
        time.sleep(rng.uniform(0.0, 0.4))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        # The killed client's last pipelined statements may still be running on the server
        # (BEGIN, the append, COMMIT were all sent): they commit or not once its backend ends.
        # Count what the table holds only then.
        deadline = time.monotonic() + 30
        while pg.sql("SELECT 1 FROM pg_stat_activity WHERE application_name = %s", (name,)):
            assert time.monotonic() < deadline, f"trial {trial}: the killed client's backend lives"
            time.sleep(0.02)
        held = {seq: text for text, seq in notes(spec).items()}
        for line in (first + out).splitlines():
            seq, label = line.split(" ", 1)
            assert held[int(seq)].startswith(label), (trial, line)
        for seq, text in held.items():  # every fourth command writes two notes: both or none
            if int(text.split()[1]) % 4 == 3:
                partner = seq + 1 if not text.endswith(" (2)") else seq - 1
                assert partner in held and held[partner].split()[1] == text.split()[1], trial
        assert ok(spec, "note", "after the kill").startswith(f"#{len(held) + 1} core.Noted")
        assert ok(spec, "verify").startswith("ok: ")


@pytest.mark.slow
def test_database_restart_under_running_commands(pg: PgServer, tmp_path: Path) -> None:
    """The server restarts while 3 writers run 150 commands each: a writer cut off exits 3 with
    one error line; every reported append is in the table; the table verifies and takes
    appends again."""
    if not pg.owned:
        unavailable("restarting needs a server the tests started (unset $TABLELOG_TEST_PG)")
    spec = pg.table()
    ok(spec, "init", "--system", "toy")
    procs = [
        start("--log", spec, "--actor", f"w{w}", "run", str(script))
        for w, script in enumerate(scripts(tmp_path, 3, 150))
    ]
    held_before = 0
    while held_before < 30:  # the writers are appending
        time.sleep(0.2)
        held_before = len(notes(spec))
    pg.restart()
    results = [p.communicate(timeout=300) for p in procs]
    statuses = [p.returncode for p in procs]
    assert set(statuses) <= {0, 3} and 3 in statuses, results
    for status, (out, err) in zip(statuses, results, strict=True):
        if status == 3:
            assert err.startswith("error: ") and err.count("\n") == 1, err
            assert re.search(r"line \d+: .*(database|connect)", err), err
        assert acknowledged(out).items() <= notes(spec).items()
    assert ok(spec, "verify").startswith("ok: ")
    assert ok(spec, "note", "after the restart").startswith("#")


def test_wrong_names_and_credentials_are_one_clear_line(pg: PgServer) -> None:
    """A bad URL, a wrong password, a missing database, an unknown table id: exit 3 and one
    line that says which."""
    role, _ = pg.password_role()
    host = re.search(r"host=[^&#]*", pg.url)
    socket = f"?{host.group(0)}" if host else ""
    cases = {
        "postgresql://localhost:notaport/db#t1": "cannot connect to postgresql://localhost:"
        "notaport/db",
        "postgresql://x@/db?bogus=1#t1": "bad store URL postgresql://x@/db?bogus=1: invalid URI "
        "query parameter",
        f"postgresql://{role}:wrong@/postgres{socket}#t1": "password authentication failed",
        f"postgresql://{role}@/postgres{socket or '?'}&password=wrong#t1": "password=***",
        f"{with_database(pg.url, 'no_such_db')}#t1": 'database "no_such_db" does not exist',
        f"{pg.url}#no_such_table": "no table 'no_such_table' in ",
        "mysql://host/db#t1": "unknown store URL scheme 'mysql'",
    }
    if not pg.owned:
        del cases[f"postgresql://{role}:wrong@/postgres{socket}#t1"]
        del cases[f"postgresql://{role}@/postgres{socket or '?'}&password=wrong#t1"]
    for spec, says in cases.items():
        result = invoke(spec, "state")
        assert result.exit_code == 3, spec
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, spec
        assert says in result.stderr, (spec, result.stderr)
        assert "wrong" not in result.stderr  # a password is never printed


def test_schema_is_created_on_first_use_with_its_version(pg: PgServer) -> None:
    """An empty database gets the schema at the first init, versioned; a newer version is
    refused with one line."""
    url = pg.new_database()
    out = ok(url, "init", "--system", "toy")
    assert pg.sql("SELECT version FROM tablelog_schema", url=url) == [(2,)]
    table_id = out.splitlines()[-1].removeprefix("table id: ")
    assert Session(f"{url}#{table_id}").state().seq == 0
    pg.sql("UPDATE tablelog_schema SET version = 3", url=url)
    result = invoke(f"{url}#{table_id}", "state")
    assert (result.exit_code, result.stderr) == (
        3,
        "error: the store's tablelog schema is "
        "version 3, this tablelog knows version 2: use "
        "a tablelog that knows it\n",
    )


SCHEMA_1 = """
CREATE TABLE tablelog_schema (one boolean PRIMARY KEY DEFAULT true CHECK (one),
    version integer NOT NULL);
INSERT INTO tablelog_schema (version) VALUES (1);
CREATE TABLE tablelog_tables (table_id text PRIMARY KEY, header bytea NOT NULL,
    format smallint NOT NULL, system text NOT NULL, title text NOT NULL,
    session_id text NOT NULL, created timestamptz NOT NULL);
CREATE TABLE tablelog_records (table_id text NOT NULL, seq bigint NOT NULL CHECK (seq >= 1),
    file_offset bigint NOT NULL, crc bigint NOT NULL, payload bytea NOT NULL, type text NOT NULL,
    actor text NOT NULL, at timestamptz NOT NULL, cmd bigint, req text,
    PRIMARY KEY (table_id, seq));
CREATE UNIQUE INDEX tablelog_records_req ON tablelog_records (table_id, req)
    WHERE req IS NOT NULL;
CREATE TABLE tablelog_snapshots (table_id text PRIMARY KEY, body bytea NOT NULL);
"""


def store_of_version_1(pg: PgServer, frozen: Path) -> str:
    """Return ``URL#ID`` of a table in a new database of schema version 1 (issue 16's) holding
    the frozen log ``frozen``, row by row as that tablelog wrote them (file offsets too)."""
    from tablelog.store.log import LogFile

    url = pg.new_database()
    pg.sql(SCHEMA_1, url=url)
    log = LogFile(str(frozen))
    header = log.open()
    pg.sql(
        "INSERT INTO tablelog_tables VALUES ('v1', %s, %s, %s, %s, %s, %s)",
        (
            log.header_bytes(),
            log.version,
            header.system,
            header.title,
            header.session_id,
            header.created,
        ),
        url=url,
    )
    for seq, env, offset, _, payload in log.records():
        pg.sql(
            "INSERT INTO tablelog_records VALUES ('v1', %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                seq,
                offset,
                zlib.crc32(payload),
                payload,
                env["type"],
                env["actor"],
                env["at"],
                env.get("cmd"),
                env.get("req"),
            ),
            url=url,
        )
    return f"{url}#v1"


def test_a_store_of_schema_version_1_is_migrated_and_every_table_kept(
    pg: PgServer, tmp_path: Path
) -> None:
    """A database a tablelog of schema version 1 wrote (a frozen campaign's table in it, its
    rows with their file offsets): the first command migrates it (version 2, the offsets
    column gone), and the table reads, verifies, folds to its recorded state, copies back to
    the very same bytes and takes appends."""
    frozen = FROZEN / "format-2" / "pf2e-campaign.tlog"
    spec = store_of_version_1(pg, frozen)
    url = spec.rpartition("#")[0]
    want = (FROZEN / "format-2" / "pf2e-campaign.state.json").read_text()
    assert json.loads(ok(spec, "state", "--json")) == json.loads(want)
    assert pg.sql("SELECT version FROM tablelog_schema", url=url) == [(2,)]
    columns = "SELECT column_name FROM information_schema.columns WHERE table_name = %s"
    assert ("file_offset",) not in pg.sql(columns, ("tablelog_records",), url=url)
    assert ok(spec, "verify").startswith(f"ok: {open_log(spec).path}: ")
    ok("x", "copy", spec, str(tmp_path / "back.tlog"))
    assert (tmp_path / "back.tlog").read_bytes() == frozen.read_bytes()
    last = Session(spec).state().seq
    assert ok(spec, "note", "after the migration").startswith(f"#{last + 1} core.Noted")


def test_serve_on_a_store_it_cannot_use_is_one_line_and_exit_3(pg: PgServer) -> None:
    """`tablelog serve --store URL` with a missing database (or a wrong password) stops at once
    with one line naming the store, its password never printed, rather than serving 503s."""
    store = with_database(pg.url, "no_such_db")
    role, _ = pg.password_role()
    host = re.search(r"host=[^&#]*", pg.url)
    cases = {store: 'database "no_such_db" does not exist'}
    if pg.owned:
        wrong = f"postgresql://{role}@/postgres?{host.group(0) if host else ''}&password=wrong"
        cases[wrong] = "password authentication failed"
    for url, says in cases.items():
        done = subprocess.run(
            [sys.executable, "-c", "from tablelog.cli.main import main; main()", "serve"]
            + ["--store", url, "--port", "0"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 3, (url, done.stderr)
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
        assert says in done.stderr and "wrong" not in done.stderr, done.stderr
        assert "serving" not in done.stdout
