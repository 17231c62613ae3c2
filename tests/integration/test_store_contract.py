"""One contract, every store: each test runs on a log file (``file:DIR#ID``) and on a PostgreSQL
table (``postgresql://…#ID``) through the same session, CLI and store interface (SERVER.md §1).

The PostgreSQL runs use ``$TABLELOG_TEST_PG`` or a throwaway pgserver (tests/support/pg.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest

from tablelog.commands.core import AddNote, Undo
from tablelog.replay import Replayer
from tablelog.session import Session
from tablelog.store.follow import follow
from tablelog.store.format import Position
from tablelog.store.log import LogError, LogMovedOn
from tablelog.store.reader import after
from tablelog.store.snapshot import read_checkpoints, snapshot_path
from tablelog.store.url import open_log
from tests.support import toy
from tests.support.cli import invoke, ok
from tests.support.pg import PgServer

toy.install()

TOYCLI = str(Path(__file__).resolve().parents[1] / "faults" / "toycli.py")
ENV = {**os.environ, "TABLELOG_LOCK_TIMEOUT": "60"}


class Store:
    """Where a contract test makes its tables: a directory of log files, or a PostgreSQL
    database."""

    def __init__(self, kind: str, url: str, pg: PgServer | None = None) -> None:
        self.kind, self.url, self.pg = kind, url, pg

    def new(self) -> str:
        """Return ``STORE_URL#ID`` of a table that does not exist yet."""
        return f"{self.url}#t{uuid.uuid4().hex[:12]}"

    def damage(self, spec: str, seq: int) -> None:
        """Change one byte of record ``seq``'s payload (its CRC-32 no longer matches)."""
        log = open_log(spec)
        pos = log.position(seq)
        assert pos is not None
        if self.pg is None:
            assert pos.span is not None
            with open(log.path, "r+b") as f:
                f.seek(pos.span[1] - 1)
                last = f.read(1)
                f.seek(pos.span[1] - 1)
                f.write(bytes([last[0] ^ 0x01]))
        else:
            self.pg.sql(
                # the last byte flipped (set to 0 it stayed the same 1 time in 256: a prev hash
                # ending in 0x00)
                "UPDATE tablelog_records SET payload = set_byte(payload, length(payload) - 1, "
                "get_byte(payload, length(payload) - 1) # 1) WHERE table_id = %s AND seq = %s",
                (spec.rpartition("#")[2], seq),
            )
        log.close()

    def spoil_snapshot(self, spec: str) -> None:
        """Replace the table's snapshot with garbage."""
        if self.pg is None:
            where = snapshot_path(open_log(spec).path)
            assert where is not None
            Path(where).write_bytes(b"\x89TBSNAP\n garbage")
        else:
            self.pg.sql(
                "UPDATE tablelog_snapshots SET body = 'garbage' WHERE table_id = %s",
                (spec.rpartition("#")[2],),
            )


@pytest.fixture(params=["file", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """Each store kind in turn."""
    if request.param == "file":
        return Store("file", f"file:{tmp_path}")
    pg: PgServer = request.getfixturevalue("pg")
    return Store("postgresql", pg.url, pg)


def payloads(spec: str) -> list[tuple[int, bytes]]:
    """Return ``(seq, payload bytes)`` of every record of a table."""
    log = open_log(spec)
    try:
        return [(seq, payload) for seq, _, _, _, payload in log.records(chain=True)]
    finally:
        log.close()


def table(store: Store) -> str:
    """Create a toy table with counter a = 9; return its ``--log`` value."""
    spec = store.new()
    ok(spec, "init", "--system", "toy", "--seed", "7")
    ok(spec, "toy", "add", "a", "9")
    return spec


def child(*args: str) -> subprocess.Popen[str]:
    """Start the real tablelog command (toy system) in a child process."""
    return subprocess.Popen(
        [sys.executable, TOYCLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


# -- creating, appending, reading ---------------------------------------------------------


def test_init_creates_a_table_and_refuses_an_existing_one(store: Store) -> None:
    """init creates the table; a second init on the same id is exit 3 and changes nothing."""
    spec = table(store)
    before = payloads(spec)
    result = invoke(spec, "init", "--system", "toy")
    assert result.exit_code == 3
    assert (
        result.stderr.startswith("error: ")
        and "already exists; refusing to overwrite" in result.stderr
        and result.stderr.count("\n") == 1
    )
    assert payloads(spec) == before


def test_init_on_a_store_url_alone_prints_a_new_id(store: Store) -> None:
    """``init --log STORE_URL`` makes a table with a new id, prints it, and the id opens it."""
    out = ok(store.url, "init", "--system", "toy")
    table_id = out.splitlines()[-1].removeprefix("table id: ")
    assert out.splitlines()[-1] == f"table id: {table_id}" and len(table_id) == 8
    spec = f"{store.url}#{table_id}"
    assert ok(spec, "note", "here") == "#1 core.Noted 'here'\n"


def test_appends_read_back_with_seq_actor_and_command_ids(store: Store) -> None:
    """What the CLI appends reads back in order, with actor, type and command ids."""
    spec = table(store)
    ok(spec, "toy", "spend", "a", "2", actor="kyra")
    records = list(open_log(spec).scan())
    assert [(r.seq, r.type, r.actor, r.cmd) for r in records] == [
        (1, "toy.CounterAdded", "gm", 1),
        (2, "toy.PointsSpent", "kyra", 2),
    ]
    assert ok(spec, "state", "a", "--json") == '{"hp": 7, "hp_max": 9}\n'


def test_a_stale_append_is_refused_and_writes_nothing(store: Store) -> None:
    """Appending at a position the table has moved past raises LogMovedOn; nothing changes."""
    spec = table(store)
    log = open_log(spec)
    log.open()
    stale = log.start
    assert stale is not None
    before = payloads(spec)
    envelope = {
        "type": "core.Noted",
        "v": 1,
        "at": "2026-01-01T00:00:00.000000Z",
        "actor": "gm",
        "data": {"text": "late"},
        "cmd": 1,
    }
    with pytest.raises(LogMovedOn):
        log.append([envelope], stale)
    assert payloads(spec) == before


def test_a_command_that_lost_a_race_is_decided_again(store: Store) -> None:
    """A session decided on an old state catches up and decides on the new one."""
    spec = table(store)
    late, early = Session(spec), Session(spec)
    assert late.state().characters["a"]["hp"] == 9
    early.execute(toy.SpendPoints("a", 5))
    outcome = late.execute(toy.SpendPoints("a", 3))
    assert [a.seq for a in outcome.applied] == [3]
    assert Session(spec).state().characters["a"]["hp"] == 1


def test_catch_up_folds_only_what_others_appended(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's catch_up applies the records another writer appended to its state in
    memory (no fold from a checkpoint), and a lost race catches up the same way: the state is
    the one a fresh fold gives."""
    spec = table(store)
    mine, other = Session(spec), Session(spec)
    mine.state()
    other.execute(toy.SpendPoints("a", 2))
    other.execute(AddNote(text="elsewhere"))

    def no_fold(*_: object) -> None:
        raise AssertionError("folded")

    monkeypatch.setattr(Replayer, "fold", no_fold)
    assert mine.catch_up().characters["a"]["hp"] == 7
    other.execute(toy.SpendPoints("a", 3))
    assert [a.seq for a in mine.execute(toy.SpendPoints("a", 1)).applied] == [5]
    monkeypatch.undo()
    assert (mine.catch_up().seq, mine.state().characters["a"]["hp"]) == (5, 3)
    assert Session(spec).state() == mine.state()


def test_catch_up_after_an_undo_elsewhere_folds_again(store: Store) -> None:
    """When another writer's records include an undo, catch_up gives the state a fresh fold
    gives (the undone action taken out)."""
    spec = table(store)
    mine, other = Session(spec), Session(spec)
    other.execute(toy.SpendPoints("a", 4))
    assert mine.state().characters["a"]["hp"] == 5
    other.execute(Undo(2))
    assert mine.catch_up().characters["a"]["hp"] == 9
    assert Session(spec).state() == mine.state()


def test_a_lost_race_catches_up_from_the_records_appended_since(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a lost race the session folds only the records appended since its state (no fold
    from a checkpoint), and decides on the same state a fresh fold gives."""
    spec = table(store)
    late, early = Session(spec), Session(spec)
    assert late.state().characters["a"]["hp"] == 9
    early.execute(toy.SpendPoints("a", 2))
    early.execute(AddNote(text="between"))
    folds: list[int | None] = []
    fold = Replayer.fold
    monkeypatch.setattr(
        Replayer, "fold", lambda self, until=None: folds.append(until) or fold(self, until)
    )
    outcome = late.execute(toy.SpendPoints("a", 3))
    assert folds == []
    assert [a.seq for a in outcome.applied] == [4]
    assert outcome.applied[0].changes == [("characters.a.hp", 7, 4)]
    assert late.state() == Session(spec).state()
    assert late.state().characters["a"]["hp"] == 4


def test_a_lost_race_to_an_undo_folds_the_log_again(store: Store) -> None:
    """When the records appended since hold an undo, the session folds again (the undone set
    changed) and decides on the state without the undone action."""
    spec = table(store)
    late, early = Session(spec), Session(spec)
    assert late.state().characters["a"]["hp"] == 9
    early.execute(toy.SpendPoints("a", 5))
    early.execute(Undo(target=2))
    outcome = late.execute(toy.SpendPoints("a", 3))
    assert [a.seq for a in outcome.applied] == [4]
    assert outcome.applied[0].changes == [("characters.a.hp", 9, 6)]
    assert late.state() == Session(spec).state()


def test_four_processes_race_and_nothing_is_lost(store: Store) -> None:
    """4 CLI processes × 10 lines on one table: 40 records, seq contiguous, each once."""
    spec = store.new()
    ok(spec, "init", "--system", "toy")
    scripts = []
    for w in range(4):
        path = Path(f"{os.environ.get('TMPDIR', '/tmp')}/w{uuid.uuid4().hex}.txt")
        path.write_text("".join(f"note 'w{w} line {i}'\n" for i in range(10)))
        scripts.append(path)
    procs = [child("--log", spec, "--actor", f"w{w}", "run", str(s)) for w, s in enumerate(scripts)]
    results = [p.communicate(timeout=300) for p in procs]
    for s in scripts:
        s.unlink()
    assert [p.returncode for p in procs] == [0] * 4, results
    records = list(open_log(spec).scan())
    assert [r.seq for r in records] == list(range(1, 41))
    assert sorted(r.data["text"] for r in records) == sorted(
        f"w{w} line {i}" for w in range(4) for i in range(10)
    )


# -- request ids --------------------------------------------------------------------------


def test_a_repeated_request_id_appends_nothing_and_answers_the_first(store: Store) -> None:
    """The same --request-id twice: the second appends nothing and shows the first's events."""
    spec = table(store)
    assert ok(spec, "toy", "spend", "a", "2", "--request-id", "r-1") == (
        "#2 toy.PointsSpent name='a' points=2\n    characters.a.hp: 9 -> 7\n"
    )
    assert ok(spec, "toy", "spend", "a", "2", "--request-id", "r-1") == (
        "request r-1 was appended already as #2: nothing appended\n"
        "#2 toy.PointsSpent name='a' points=2\n    characters.a.hp: 9 -> 7\n"
    )
    assert [seq for seq, _ in payloads(spec)] == [1, 2]


def test_racing_processes_with_one_request_id_append_once(store: Store) -> None:
    """Four processes send the same request id at once: exactly one command is appended."""
    spec = table(store)
    procs = [child("--log", spec, "note", "once", "--request-id", "draw-7") for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outs
    records = list(open_log(spec).scan())
    assert [(r.seq, r.req) for r in records] == [(1, None), (2, "draw-7")]
    assert (
        sorted(out for out, _ in outs)[-1] == "request draw-7 was appended already as #2: "
        "nothing appended\n#2 core.Noted 'once'\n"
    )


# -- batches ------------------------------------------------------------------------------


def test_a_command_of_two_events_is_one_batch(store: Store) -> None:
    """A two-event command: both records carry its command id, the first counts one more."""
    spec = table(store)
    ok(spec, "toy", "add", "b", "4")
    ok(spec, "toy", "spend-both", "a", "b", "1")
    records = list(open_log(spec).records())
    assert [(env["seq"], env.get("cmd"), env.get("more")) for _, env, *_ in records][-2:] == [
        (3, 3, 1),
        (4, 3, None),
    ]


def test_an_atomic_run_appends_every_line_or_none(store: Store, tmp_path: Path) -> None:
    """``run --atomic`` with a refused last line appends nothing; without it, all lines."""
    spec = table(store)
    script = tmp_path / "s.txt"
    script.write_text("note one\ntoy spend a 5\ntoy spend a 5\n")
    before = payloads(spec)
    assert invoke(spec, "run", "--atomic", str(script)).exit_code == 1
    assert payloads(spec) == before
    script.write_text("note one\ntoy spend a 5\n")
    ok(spec, "run", "--atomic", str(script))
    assert [seq for seq, _ in payloads(spec)] == [1, 2, 3]
    written = [(env["seq"], env["cmd"], env.get("more")) for _, env, *_ in open_log(spec).records()]
    assert written[1:] == [(2, 2, 1), (3, 3, None)]  # one batch, a command id per line


# -- damage -------------------------------------------------------------------------------


def test_a_damaged_record_is_found_by_every_read(store: Store) -> None:
    """A changed payload byte: verify names the record (exit 1), state refuses (exit 3)."""
    spec = table(store)
    ok(spec, "note", "two")
    ok(spec, "note", "three")
    store.damage(spec, 2)
    result = invoke(spec, "verify")
    assert result.exit_code == 1
    assert "corrupt record #2 at byte" in result.stderr and "checksum mismatch" in result.stderr
    assert "--salvage OUT" in result.stderr
    assert invoke(spec, "state").exit_code == 3


def test_a_machine_whose_clock_runs_years_ahead_bricks_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bo's machine, its clock in 2031, appends a note (acknowledged: dated by his clock, within
    his own horizon); every other machine then appends after it, dated by its own clock, and
    undoes it; `verify` exits 0 warning of #2 (dated 2031) and of #3 (dated before it), and
    every record is kept (issue 32 item 12: the log was called corrupt, appends refused)."""
    import tablelog.store.envelope as envelope_module
    import tablelog.store.stamp as stamp_module

    spec = table(store)
    with monkeypatch.context() as fast:
        fast.setattr(stamp_module, "now_utc", lambda: "2031-06-01T12:00:00.000000Z")
        fast.setattr(envelope_module, "time_horizon", lambda: "2031-06-02T12:00:00.000000Z")
        assert ok(spec, "note", "from 2031", actor="bo").startswith("#2 core.Noted")
    assert ok(spec, "note", "today").startswith("#3 core.Noted")
    assert ok(spec, "undo", actor="bo").startswith("#4 core.Undone #2")
    records = list(open_log(spec).scan())
    assert [r.seq for r in records] == [1, 2, 3, 4]
    assert records[2].at < records[1].at and records[2].at < records[3].at
    result = invoke(spec, "verify")
    name = open_log(spec).path
    assert (result.exit_code, result.stdout.startswith(f"ok: {name}: 4 records")) == (0, True)
    ahead = (
        f"warning: {name}: record #2 at byte {records[1].offset} is dated "
        "2031-06-01T12:00:00.000000Z, more than a day after this machine's clock ("
    )
    before = (
        f"warning: {name}: record #3 at byte {records[2].offset} is dated {records[2].at}, "
        "more than a day before the record before it (2031-06-01T12:00:00.000000Z): a wrong "
        "clock dated one of them; seq orders the log, nothing is lost"
    )
    lines = result.stderr.splitlines()
    assert (2, True, before) == (len(lines), lines[0].startswith(ahead), lines[1])


def test_salvage_keeps_the_commands_before_the_damage(store: Store, tmp_path: Path) -> None:
    """verify --salvage OUT copies the whole commands before the damaged record to OUT."""
    spec = table(store)
    ok(spec, "note", "two")
    ok(spec, "note", "three")
    store.damage(spec, 3)
    out = store.new()
    assert ok(spec, "verify", "--salvage", out).startswith("salvaged: 2 records (")
    assert [seq for seq, _ in payloads(out)] == [1, 2]
    assert ok(out, "verify").startswith("ok: ")


def test_repair_says_what_it_does_on_each_store(store: Store) -> None:
    """verify --repair on a sound table: nothing cut; on PostgreSQL it says why."""
    spec = table(store)
    out = ok(spec, "verify", "--repair")
    name = open_log(spec).path
    expected = f"ok: {name}: 1 records, hash chain intact, replays (toy)\n"
    if store.kind == "postgresql":
        expected = (
            "nothing to repair: a PostgreSQL table never ends in a torn record (each "
            "command is one transaction)\n"
        ) + expected
    assert out.startswith(expected) and out[len(expected) :].startswith("head: 1:")


# -- snapshots ----------------------------------------------------------------------------


def test_snapshots_are_kept_in_the_store_and_never_change_a_result(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checkpoints every 2 events are stored; state with them, without them and with a
    spoiled snapshot are equal."""
    monkeypatch.setenv("TABLELOG_SNAPSHOT_EVERY", "2")
    spec = table(store)
    for _ in range(6):
        ok(spec, "toy", "spend", "a", "1")
    log = open_log(spec)
    header = log.open()
    from tablelog.replay import code_version

    saved = read_checkpoints(log, header.session_id, code_version("toy"))
    assert [cp.end.seq for cp in saved] == [2, 4, 6]
    want = Session(spec, snapshots=False).state()
    assert Session(spec).state() == want
    store.spoil_snapshot(spec)
    assert read_checkpoints(log, header.session_id, code_version("toy")) == []
    assert Session(spec).state() == want


def test_a_snapshot_does_not_hide_damage_before_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record damaged before a checkpoint: the checkpoint is not used; state exits 3."""
    monkeypatch.setenv("TABLELOG_SNAPSHOT_EVERY", "2")
    spec = table(store)
    for _ in range(4):
        ok(spec, "toy", "spend", "a", "1")
    store.damage(spec, 2)
    assert invoke(spec, "state").exit_code == 3


# -- copy ---------------------------------------------------------------------------------


def test_copy_to_every_store_keeps_every_byte(store: Store, tmp_path: Path) -> None:
    """file → store → file: the same payload bytes, the same file bytes at the end."""
    source = tmp_path / "source.tlog"
    ok(source, "init", "--system", "toy", "--seed", "3")
    ok(source, "toy", "add", "a", "9")
    ok(source, "toy", "add", "b", "9")
    ok(source, "toy", "spend-both", "a", "b", "2", "--request-id", "x")
    ok(source, "undo")
    middle, back = store.new(), tmp_path / "back.tlog"
    out = ok("x", "copy", str(source), middle)
    assert out == (
        f"copied 6 records from {source} to {open_log(middle).path}: hash chain "
        "intact, replays (toy)\n"
    )
    assert payloads(middle) == payloads(str(source))
    ok("x", "copy", middle, str(back))
    assert back.read_bytes() == source.read_bytes()


def test_copy_refuses_an_existing_target(store: Store, tmp_path: Path) -> None:
    """A target that exists is refused (exit 3) and left as it was."""
    spec, source = table(store), tmp_path / "s.tlog"
    ok(source, "init", "--system", "toy")
    before = payloads(spec)
    result = invoke("x", "copy", str(source), spec)
    assert (result.exit_code, result.stderr.count("\n")) == (3, 1)
    assert "already exists; refusing to overwrite it" in result.stderr
    assert payloads(spec) == before


def test_copy_of_a_format_1_log_stays_format_1(store: Store, tmp_path: Path) -> None:
    """A frozen format-1 log copied into the store and back is byte-for-byte the same, and an
    append there writes a format-1 record (no command id)."""
    frozen = (
        Path(__file__).resolve().parents[1] / "data" / "frozen" / "format-1" / "pf2e-downtime.tlog"
    )
    middle, back = store.new(), tmp_path / "back.tlog"
    ok("x", "copy", str(frozen), middle)
    ok("x", "copy", middle, str(back))
    assert back.read_bytes() == frozen.read_bytes()
    ok(middle, "note", "later")
    log = open_log(middle)
    last = list(log.scan())[-1]
    assert (log.version, last.type, last.cmd) == (1, "core.Noted", None)


# -- subscription -------------------------------------------------------------------------


def test_follow_yields_each_record_after_a_seq_once_as_it_is_appended(store: Store) -> None:
    """A follower from seq 1 sees records 2..6, in order, each once, appended by others."""
    spec = table(store)
    ok(spec, "note", "two")
    seen: list[tuple[int, Any]] = []
    done = threading.Event()

    def listen() -> None:
        log = open_log(spec)
        for record in follow(log, after=1, timeout_s=20, stop=done):
            seen.append((record.seq, record.data.get("text")))
            if record.seq == 6:
                done.set()
        log.close()

    thread = threading.Thread(target=listen)
    thread.start()
    for i in range(3, 7):
        ok(spec, "note", f"n{i}")
    thread.join(30)
    assert seen == [(2, "two"), (3, "n3"), (4, "n4"), (5, "n5"), (6, "n6")]


def test_follow_after_the_end_waits_and_times_out(store: Store) -> None:
    """Following after the last seq yields nothing until an append, and stops at its timeout."""
    spec = table(store)
    log = open_log(spec)
    assert list(follow(log, after=1, timeout_s=0.3)) == []
    assert list(follow(log, after=5, timeout_s=0.3)) == []
    log.close()


# -- opening ------------------------------------------------------------------------------


def test_an_unknown_table_id_is_one_error_line(store: Store) -> None:
    """A table id the store does not hold: exit 3, one line naming it."""
    spec = store.new()
    result = invoke(spec, "state")
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and spec.rpartition("#")[2] in result.stderr


def test_a_bad_table_id_is_one_error_line(store: Store) -> None:
    """A table id with a character outside [A-Za-z0-9_-]: exit 3, one line."""
    result = invoke(f"{store.url}#no/slash", "state")
    assert (result.exit_code, result.stderr) == (
        3,
        "error: 'no/slash' is not a table id (1-64 characters of A-Z a-z 0-9 _ -)\n",
    )


def test_positions_name_the_same_records(store: Store) -> None:
    """position(seq) is the seq and chain hash of record seq, where the file form has it; an
    absent seq has none; the table ends at the last one, held; a forged hash is not held, nor
    is the table's end at its seq (a rewritten last record: issue 32 item 9)."""
    spec = table(store)
    ok(spec, "note", "two")
    log = open_log(spec)
    records = list(log.records())
    second, first = log.position(2), log.position(1)
    assert second is not None and first is not None
    assert (second, second.span) == (after(records[-1]), (records[-1][2], records[-1][3]))
    assert (second.prev, log.position(3)) == (log.end.prev, None)  # type: ignore[union-attr]
    assert log.ends_at(second) and not log.ends_at(first)
    assert log.holds(second) and not log.holds(Position(2, b"\0" * 16, second.span))
    assert not log.ends_at(Position(2, b"\0" * 16, second.span))


def test_a_store_without_a_table_id_is_refused_for_reading(store: Store) -> None:
    """A store URL alone names no table: exit 3 with the init hint."""
    result = invoke(store.url, "state")
    assert result.exit_code == 3 and "names no table: add #TABLE_ID" in result.stderr


def test_session_execute_on_every_store(store: Store) -> None:
    """The session's loop appends a note with a request id on both stores."""
    spec = table(store)
    outcome = Session(spec).execute(AddNote(text="hi"), request_id="q")
    assert (outcome.written, [a.seq for a in outcome.applied]) == (True, [2])
    again = Session(spec).execute(AddNote(text="hi"), request_id="q")
    assert (again.written, again.repeated, [a.seq for a in again.applied]) == (False, True, [2])
    with pytest.raises(LogError):
        Session(store.new()).state()
