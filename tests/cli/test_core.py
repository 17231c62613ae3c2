"""End-to-end tests of the core commands through the CLI, on the toy test system."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli
from tablelog.store.format import MAGIC
from tablelog.store.log import LogFile
from tablelog.store.snapshot import snapshot_path
from tests.support import toy
from tests.support.cli import invoke, ok, refused

toy.install()


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A fresh toy log with seed 7."""
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "toy", "--seed", "7", "--title", "Test night")
    return path


def state_json(log: Path, *extra: str) -> dict:
    return json.loads(ok(log, "state", "--json", *extra))


def test_init_refuses_to_overwrite(log: Path) -> None:
    """init on an existing file exits 3 and leaves it unchanged."""
    err = refused(log, "init", "--system", "toy", status=3)
    assert "already exists" in err


def test_init_unknown_system_is_a_usage_error(tmp_path: Path) -> None:
    """An unknown --system is a usage error (exit 2) and creates nothing."""
    result = invoke(tmp_path / "x.tlog", "init", "--system", "gurps")
    assert result.exit_code == 2
    assert not (tmp_path / "x.tlog").exists()


def test_append_prints_event_and_changes(log: Path) -> None:
    """An appending command prints `#SEQ type description` and each changed value."""
    out = ok(log, "toy", "add", "a", "5")
    assert out.splitlines() == [
        "#1 toy.CounterAdded name='a' points=5",
        "    characters.a.hp: - -> 5",
        "    characters.a.hp_max: - -> 5",
    ]


def test_state_json_fields(log: Path) -> None:
    """state --json has the SPEC's top-level keys and hides private keys."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "2")
    data = state_json(log)
    assert data["system"] == "toy"
    assert data["title"] == "Test night"
    assert data["seq"] == 2
    assert data["characters"] == {"a": {"hp": 3, "hp_max": 5}}
    assert data["items"] == {}
    assert data["deck"] is None


def test_state_of_one_entity_and_unknown_name(log: Path) -> None:
    """state NAME shows one entity; an unknown NAME exits 1 naming it."""
    ok(log, "toy", "add", "a", "5")
    assert json.loads(ok(log, "state", "a", "--json")) == {"hp": 5, "hp_max": 5}
    assert "UNKNOWN-NAME" in refused(log, "state", "zed")


def test_refused_command_changes_nothing(log: Path) -> None:
    """A command refused by a rule exits 1 with `error: RULE-ID: …` and leaves the log as it was."""
    ok(log, "toy", "add", "a", "5")
    err = refused(log, "toy", "spend", "a", "6")
    assert err == "error: TOY-SPEND-1: a has 5, needs 6\n"


def test_dry_run_appends_nothing(log: Path) -> None:
    """--dry-run shows the event it would append and leaves the log unchanged."""
    ok(log, "toy", "add", "a", "5")
    before = log.read_bytes()
    out = ok(log, "toy", "spend", "a", "2", "--dry-run")
    assert out.splitlines()[:2] == [
        "dry run: nothing appended",
        "#2 toy.PointsSpent name='a' points=2",
    ]
    assert log.read_bytes() == before


def test_state_at_is_the_past_state(log: Path) -> None:
    """state --at SEQ is the state right after SEQ, ignoring undo markers appended later."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "2")
    ok(log, "undo")
    assert state_json(log)["characters"]["a"]["hp"] == 5
    assert state_json(log, "--at", "2")["characters"]["a"]["hp"] == 3
    assert state_json(log, "--at", "1")["characters"]["a"]["hp"] == 5


def test_undo_latest_then_redo(log: Path) -> None:
    """undo without SEQ undoes the latest action; redo restores it at its place."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "2")
    assert ok(log, "undo", "--reason", "misread").splitlines()[0] == "#3 core.Undone #2 (misread)"
    assert state_json(log)["characters"]["a"]["hp"] == 5
    assert ok(log, "redo").splitlines()[0] == "#4 core.Redone #2"
    assert state_json(log)["characters"]["a"]["hp"] == 3


def test_undo_refused_when_later_events_depend(log: Path) -> None:
    """Undoing an older action that later events need is refused, naming them."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "2")
    ok(log, "toy", "spend", "a", "3")
    err = refused(log, "undo", "1")
    assert err.startswith("error: CORE-UNDO: #1 cannot be undone: later events depend on it: ")
    assert "#2 toy.PointsSpent" in err and "#3 toy.PointsSpent" in err


def test_undo_older_independent_action(log: Path) -> None:
    """An older action may be undone when the later ones still apply without it."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "2")
    ok(log, "toy", "spend", "a", "1")
    ok(log, "undo", "2")
    assert state_json(log)["characters"]["a"]["hp"] == 4


def test_redo_refused_when_it_no_longer_fits(log: Path) -> None:
    """Redoing a spend that later spends have made impossible is refused."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "4")
    ok(log, "undo")
    ok(log, "toy", "spend", "a", "3")
    err = refused(log, "redo", "2")
    assert "CORE-REDO" in err and "#4 toy.PointsSpent" in err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("undo", "99"), "there is no event #99"),
        (("redo",), "nothing to redo"),
    ],
)
def test_undo_redo_bad_targets(log: Path, args: tuple[str, ...], fragment: str) -> None:
    """Undo or redo of something that is not there exits 1 and says why."""
    ok(log, "toy", "add", "a", "5")
    assert fragment in refused(log, *args)


def test_undo_twice_and_marker_target(log: Path) -> None:
    """An undone event cannot be undone again, nor can a marker be undone."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "1")
    ok(log, "undo", "2")
    assert "already undone" in refused(log, "undo", "2")
    assert "marker" in refused(log, "undo", "3")


def test_undo_on_empty_log(log: Path) -> None:
    """undo on a log with no action exits 1."""
    assert "nothing to undo" in refused(log, "undo")


def test_log_all_marks_undone_and_json(log: Path) -> None:
    """log hides undone events; --all shows them marked; --json prints one object per line."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "add", "b", "2")
    ok(log, "undo")
    plain = ok(log, "log")
    assert [line.split()[0] for line in plain.splitlines()] == ["#1", "#3"]
    marked = ok(log, "log", "--all").splitlines()
    assert marked[1].startswith("#2 [undone] ")
    rows = [json.loads(line) for line in ok(log, "log", "--all", "--json").splitlines()]
    assert [(r["seq"], r["type"], r["undone"]) for r in rows] == [
        (1, "toy.CounterAdded", False),
        (2, "toy.CounterAdded", True),
        (3, "core.Undone", False),
    ]
    assert rows[0]["actor"] == "gm" and rows[0]["data"] == {"name": "a", "points": 5}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", rows[0]["at"])


def test_log_entity_filter_and_actor(log: Path) -> None:
    """log --entity shows only events involving that name; --actor is recorded."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "add", "b", "2", actor="kyra")
    lines = ok(log, "log", "--entity", "b").splitlines()
    assert len(lines) == 1 and " kyra toy.CounterAdded name='b'" in lines[0]


def test_history_shows_changes_and_rules(log: Path) -> None:
    """history NAME lists each change old -> new with the rule and the formula inputs."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "add", "b", "2")
    ok(log, "toy", "spend", "a", "2")
    out = ok(log, "history", "a")
    assert "#2" not in out
    assert "    hp: 5 -> 3" in out
    assert "    · rule TOY-SPEND-1" in out
    assert "    · before = 5" in out
    rows = [json.loads(line) for line in ok(log, "history", "a", "--json").splitlines()]
    assert [r["seq"] for r in rows] == [1, 3]
    assert rows[1]["changes"] == [{"field": "hp", "old": 5, "new": 3}]


def test_history_unknown_name(log: Path) -> None:
    """history of a name the session does not have exits 1."""
    assert "UNKNOWN-NAME" in refused(log, "history", "nobody")


def test_replay_until(log: Path) -> None:
    """replay narrates events in order with their changes, stopping at --until."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "2")
    ok(log, "note", "a ruling")
    out = ok(log, "replay", "--until", "2").splitlines()
    assert [line.split()[0] for line in out if line.startswith("#")] == ["#1", "#2"]
    assert "    characters.a.hp: 5 -> 3" in out


def test_note_is_logged(log: Path) -> None:
    """note appends a core.Noted event; an empty note is refused."""
    assert ok(log, "note", "GM: the bridge holds").startswith(
        "#1 core.Noted 'GM: the bridge holds'"
    )
    assert "CORE-NOTE" in refused(log, "note", "  ")


@pytest.mark.rule("CORE-RANDOM")
def test_an_undo_never_rewinds_the_next_roll(log: Path) -> None:
    """A roll is keyed by the seed, its place and the latest undo: after an undo the same roll
    is drawn afresh (an undone roll tells nothing of the next), and the log records each."""
    ok(log, "toy", "add", "a", "5")
    rolled = []
    for _ in range(6):
        rolled.append(ok(log, "toy", "roll", "a").splitlines()[0].split(" ", 1)[1])
        ok(log, "undo")
    assert len(set(rolled)) > 1, rolled


def test_verify_ok_and_flipped_byte(log: Path) -> None:
    """verify exits 0 on a sound log and 1 naming the record when a byte was flipped."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "spend", "a", "1")
    assert ok(log, "verify").startswith("ok: ")
    data = bytearray(log.read_bytes())
    data[-3] ^= 0x01
    log.write_bytes(bytes(data))
    result = invoke(log, "verify")
    assert result.exit_code == 1
    assert "corrupt record #2 at byte" in result.stderr
    other = invoke(log, "state")
    assert other.exit_code == 3 and "corrupt record #2" in other.stderr


def test_torn_tail_is_reported_and_repaired(log: Path) -> None:
    """A cut last record: state still works (warns), appends refuse, verify --repair fixes it."""
    ok(log, "toy", "add", "a", "5")
    torn_at = log.stat().st_size  # where the next record starts
    ok(log, "toy", "spend", "a", "1")
    whole = log.read_bytes()
    log.write_bytes(whole[:-4])
    assert state_json(log)["characters"]["a"]["hp"] == 5
    reads = (
        ("state",),
        ("status",),
        ("log",),
        ("history", "a"),
        ("replay",),
        ("export",),
        ("report", "--output", str(log.parent / "r.md")),
    )
    for read in reads:  # every read warns alike (status did not)
        result = invoke(log, *read)
        assert result.exit_code == 0, read
        assert (
            f"warning: torn last record at byte {torn_at} (a crash mid-append) is ignored; "
            "run: tablelog verify --repair\n"
        ) == result.stderr, read
    assert invoke(log, "verify").exit_code == 1
    err = refused(log, "toy", "spend", "a", "1", status=3)
    assert "verify --repair" in err
    script = log.parent / "dry.txt"
    script.write_text("toy spend a 1\n")
    for appending in (
        ("toy", "spend", "a", "1", "--dry-run"),
        ("undo",),
        ("toy", "spend", "a", "99"),
        ("run", "--dry-run", str(script)),
    ):  # as the append would: exit 3
        assert "torn last record" in refused(log, *appending, status=3), appending
    out = ok(log, "verify", "--repair")
    assert out.startswith("repaired: torn last record at byte")
    assert Path(str(log) + ".bak").read_bytes() == whole[:-4]
    ok(log, "toy", "spend", "a", "1")
    assert state_json(log)["characters"]["a"]["hp"] == 4


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "no log at"),
        (b"", "empty file: not a tablelog log"),
        (b"PK\x03\x04 not a log at all", "wrong magic"),
        (MAGIC[:5], "truncated header at byte 5"),
    ],
)
def test_unusable_log_files_exit_3(tmp_path: Path, content: bytes | None, fragment: str) -> None:
    """A missing, empty or foreign file gets exit 3 and a clear message, for reads and appends."""
    path = tmp_path / "bad.tlog"
    if content is not None:
        path.write_bytes(content)
    for args in (("state",), ("log",), ("note", "x"), ("undo",)):
        assert fragment in refused(path, *args, status=3)


def test_malformed_options_are_usage_errors(log: Path) -> None:
    """Bad option values exit 2 and change nothing."""
    refused(log, "toy", "add", "a", "five", status=2)
    refused(log, "undo", "0", status=2)
    refused(log, "state", "--at", "-1", status=2)


def test_run_script_stops_at_refused_line(tmp_path: Path) -> None:
    """run appends line by line and stops at the first refused line, naming its number."""
    script = tmp_path / "s.txt"
    script.write_text(
        "init --system toy\n# a comment\ntoy add b 4\n\ntoy spend b 9\ntoy spend b 1\n"
    )
    log = tmp_path / "r.tlog"
    result = invoke(log, "run", str(script))
    assert result.exit_code == 1
    assert result.stderr == f"error: TOY-SPEND-1: {script} line 5: b has 4, needs 9\n"
    assert state_json(log)["seq"] == 1


def test_run_atomic_all_or_nothing(log: Path, tmp_path: Path) -> None:
    """run --atomic appends nothing when a line is refused, and everything when none is."""
    bad = tmp_path / "bad.txt"
    bad.write_text("toy add c 4\ntoy spend c 1\ntoy spend c 9\n")
    result = invoke(log, "run", str(bad), "--atomic")
    assert result.exit_code == 1 and result.stdout == ""  # no event printed that is not on disk
    assert "nothing appended" in result.stderr
    good = tmp_path / "good.txt"
    good.write_text('tablelog toy add c 4\ntoy spend c 1\nnote "two words"\n')
    printed = [
        line for line in ok(log, "run", str(good), "--atomic").splitlines() if line.startswith("#")
    ]
    assert printed == [
        "#1 toy.CounterAdded name='c' points=4",
        "#2 toy.PointsSpent name='c' points=1",
        "#3 core.Noted 'two words'",
    ]
    data = state_json(log)
    assert data["seq"] == 3 and data["characters"]["c"]["hp"] == 3


def test_run_atomic_with_init_takes_the_log_back(tmp_path: Path) -> None:
    """An atomic script that creates the log and then fails leaves no log behind."""
    script = tmp_path / "s.txt"
    script.write_text("init --system toy\ntoy add b 1\ntoy spend b 2\n")
    log = tmp_path / "new.tlog"
    assert invoke(log, "run", str(script), "--atomic").exit_code == 1
    assert not log.exists()


def test_run_dry_run_appends_nothing(log: Path, tmp_path: Path) -> None:
    """run --dry-run runs every line against the state and appends nothing."""
    script = tmp_path / "s.txt"
    script.write_text("toy add c 4\ntoy spend c 1\n")
    before = log.read_bytes()
    out = ok(log, "run", str(script), "--dry-run")
    assert "#2 toy.PointsSpent name='c' points=1" in out
    assert log.read_bytes() == before


def test_run_usage_error_names_line(log: Path, tmp_path: Path) -> None:
    """A script line with bad usage exits 2 naming the line; an unclosed quote too."""
    script = tmp_path / "s.txt"
    script.write_text("toy add c\n")
    assert "line 1" in refused(log, "run", str(script), status=2)
    script.write_text('note "unclosed\n')
    assert "line 1" in refused(log, "run", str(script), status=2)


def test_every_command_has_help() -> None:
    """Every core command has a --help text with an example."""
    from click.testing import CliRunner

    from tablelog.cli.main import cli

    for name in (
        "init",
        "state",
        "log",
        "history",
        "undo",
        "redo",
        "replay",
        "run",
        "note",
        "verify",
    ):
        result = CliRunner().invoke(cli, [name, "--help"])
        assert result.exit_code == 0
        assert "Example" in result.output, name


def test_change_lines_are_compact() -> None:
    """Lists show what they gained or lost; whole new or removed records show on one line."""
    from tablelog.cli.core import change_lines
    from tablelog.projections.core import diff

    before = {
        "items": {"stone": {"a": 1, "b": 2, "c": 3, "d": 4}},
        "characters": {"V": {"formulas": ["x"], "effects": [{"t": 3}, {"t": 1}]}},
    }
    after = {
        "items": {},
        "characters": {"V": {"formulas": ["x", "y"], "effects": [{"t": 2}, {"t": 1}]}},
    }
    assert change_lines(diff(before, after)) == [
        "items.stone: removed",
        "characters.V.formulas: +y",
        "characters.V.effects[0].t: 3 -> 2",
    ]
    assert change_lines([("hand", ["AS", "KD"], ["KD", "AS"])]) == [
        'hand: ["AS", "KD"] -> ["KD", "AS"]'
    ]


def test_past_positions_beyond_the_end_are_refused(log: Path) -> None:
    """state --at and replay --until past the last event exit 1 naming the last seq."""
    ok(log, "toy", "add", "a", "5")
    assert "CORE-SEQ: there is no event #9 (the log ends at #1)" in refused(
        log, "state", "--at", "9"
    )
    assert "CORE-SEQ" in refused(log, "replay", "--until", "2")


def test_init_options_belong_to_their_system(tmp_path: Path) -> None:
    """--clock and --deck are magicpunk options; another system refuses them as usage errors."""
    path = tmp_path / "p.tlog"
    result = invoke(path, "init", "--system", "toy", "--clock", "1 10:00")
    assert result.exit_code == 2 and "toy sessions take no --clock" in result.stderr
    assert not path.exists()


def test_blank_actor_is_a_usage_error(log: Path) -> None:
    """An empty --actor is refused before anything is logged."""
    refused(log, "--actor", "", "note", "x", status=2)


def test_script_lines_cannot_switch_log(log: Path, tmp_path: Path) -> None:
    """A script line with --log or --actor is a usage error naming the line."""
    script = tmp_path / "s.txt"
    script.write_text(f"--log {tmp_path / 'other.tlog'} note x\n")
    assert "line 1" in refused(log, "run", str(script), status=2)
    assert not (tmp_path / "other.tlog").exists()


def test_run_refuses_a_binary_script(log: Path, tmp_path: Path) -> None:
    """A script that is not UTF-8 text exits 2 naming the file."""
    script = tmp_path / "s.bin"
    script.write_bytes(b"\xff\xfe\x00garbage")
    assert "is not a UTF-8 text file" in refused(log, "run", str(script), status=2)


def test_buffered_runs_say_nothing_was_appended(log: Path, tmp_path: Path) -> None:
    """run --dry-run ends with a dry-run line; a refused --atomic run says nothing was appended."""
    script = tmp_path / "s.txt"
    script.write_text("toy add c 4\n")
    assert ok(log, "run", str(script), "--dry-run").splitlines()[-1] == (
        "dry run: 1 line ran; nothing appended"
    )
    script.write_text("toy add c 4\ntoy spend c 5\n")
    err = refused(log, "run", str(script), "--atomic")
    assert "nothing appended: the whole script is refused" in err


def test_dry_run_script_with_init_leaves_no_files(tmp_path: Path) -> None:
    """A dry-run script that starts with init leaves neither a log nor a lock file."""
    script = tmp_path / "s.txt"
    script.write_text("init --system toy\ntoy add b 1\n")
    ok(tmp_path / "new.tlog", "run", str(script), "--dry-run")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.txt"]


def test_lock_problems_are_exit_3_not_tracebacks(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad lock timeout setting or a log that cannot be locked exits 3 with a message."""
    monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", "abc")
    assert "TABLELOG_LOCK_TIMEOUT must be a number of seconds, got 'abc'" in refused(
        log, "note", "x", status=3
    )
    monkeypatch.delenv("TABLELOG_LOCK_TIMEOUT")
    from tablelog.store import lock

    def no_locks(fd: int) -> bool:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(lock, "_try_lock", no_locks)  # a file system without locks
    assert refused(log, "note", "x", status=3) == f"error: cannot lock {log}: No locks available\n"


def test_verify_repair_and_salvage_together_is_a_usage_error(log: Path) -> None:
    """--repair and --salvage do different things to different files: choose one."""
    err = refused(log, "verify", "--repair", "--salvage", str(log.parent / "out.tlog"), status=2)
    assert "choose one of --repair (cut a torn tail) and --salvage OUT" in err
    assert not (log.parent / "out.tlog").exists()


def test_a_fifo_at_the_log_or_lock_path_is_exit_3_not_a_hang(log: Path, tmp_path: Path) -> None:
    """Opening a FIFO waits for its other end: the log is checked to be a regular file first,
    so the command ends at once with a message; a FIFO at the old lock file's name is ignored
    (the lock is on the log itself)."""
    os.mkfifo(Path(str(log) + ".lock"))
    assert ok(log, "note", "x").startswith("#1 core.Noted")
    fifo = tmp_path / "fifo.tlog"
    os.mkfifo(fifo)
    result = invoke(fifo, "state")
    assert (result.exit_code, result.stderr) == (3, f"error: {fifo}: not a regular file\n")


def test_an_import_from_a_fifo_is_refused_not_a_hang(log: Path, tmp_path: Path) -> None:
    """`import fifo.tlog --log o.tlog` once waited for the FIFO's writer forever (the attack's
    `mkfifo fifo.tlog; timeout 15 tablelog import fifo.tlog --log o.tlog`); every input file
    is now opened as `--log` is: exit 2 at once, "not a regular file", nothing created. A
    directory and `/dev/zero` likewise; `-` still reads a pipe (stdin)."""
    fifo = tmp_path / "fifo.tlog"
    os.mkfifo(fifo)
    target = tmp_path / "o.tlog"
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("import of a FIFO blocked"))
    signal.alarm(10)
    try:
        for source in (str(fifo), str(tmp_path), "/dev/zero"):
            result = invoke(target, "import", source)
            assert (result.exit_code, result.stdout) == (2, "")
            assert result.stderr.endswith(
                f"Invalid value for 'SOURCE': {source}: not a regular file\n"
            )
    finally:
        signal.alarm(0)
    assert not target.exists()
    ok(log, "note", "x")
    exported = ok(log, "export")
    result = CliRunner().invoke(cli, ["--log", str(target), "import", "-"], input=exported)
    assert (result.exit_code, result.stdout) == (
        0,
        f"imported {target}: toy session "
        f"{LogFile(str(log)).open().session_id}, 1 "
        "records, hash chain intact, replays\n",
    )


def test_a_fifo_at_the_snapshot_path_is_no_snapshot_not_a_hang(log: Path) -> None:
    """The snapshot cache is opened without blocking: a FIFO there is ignored like any damaged
    cache (an alarm turns a regression into a failure, not a hung test run)."""
    ok(log, "toy", "add", "a", "5")
    expected = ok(log, "state")
    snap = Path(snapshot_path(str(log)) or "")
    snap.unlink(missing_ok=True)
    os.mkfifo(snap)
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("opening the snapshot FIFO blocked"))
    signal.alarm(10)
    try:
        assert ok(log, "state") == expected
        assert ok(log, "toy", "spend", "a", "2").startswith("#2 toy.PointsSpent")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


@pytest.fixture
def pair(log: Path) -> Path:
    """A toy log with counters a (5) and b (5), then one two-event action (#3, #4)."""
    ok(log, "toy", "add", "a", "5")
    ok(log, "toy", "add", "b", "5")
    ok(log, "toy", "spend-both", "a", "b", "2")
    return log


def test_undo_takes_back_a_whole_action(pair: Path) -> None:
    """undo takes back every event one command appended, one marker each, in one append."""
    out = ok(pair, "undo").splitlines()
    assert out[:2] == ["#5 core.Undone #3", "#6 core.Undone #4"]
    hp = {k: v["hp"] for k, v in state_json(pair)["characters"].items()}
    assert hp == {"a": 5, "b": 5}


def test_undo_of_any_event_of_an_action_takes_back_all_of_it(pair: Path) -> None:
    """Naming the second event of an action undoes the first with it."""
    assert ok(pair, "undo", "4").splitlines()[:2] == ["#5 core.Undone #3", "#6 core.Undone #4"]


def test_redo_restores_a_whole_action_and_undo_then_takes_the_redo_back(pair: Path) -> None:
    """redo restores every event of the action; a later plain undo undoes that redone action."""
    ok(pair, "undo")
    ok(pair, "note", "meanwhile", actor="Ann")  # another seat's action: gm's redo still stands
    assert ok(pair, "redo").splitlines()[:2] == ["#8 core.Redone #3", "#9 core.Redone #4"]
    assert state_json(pair)["characters"]["a"]["hp"] == 3
    assert ok(pair, "undo").splitlines()[:2] == ["#10 core.Undone #3", "#11 core.Undone #4"]


def test_records_of_one_command_share_one_time_and_times_increase(pair: Path) -> None:
    """Every record of one command has the same `at`, and `at` strictly increases per command."""
    rows = [json.loads(line) for line in ok(pair, "log", "--json").splitlines()]
    ats = [r["at"] for r in rows]
    assert ats[2] == ats[3]
    assert ats[0] < ats[1] < ats[2]


def test_events_too_large_to_store_are_refused(log: Path) -> None:
    """A note over the record limit, or a title over the header limit, is refused up front."""
    err = refused(log, "note", "x" * 1_100_000)
    assert "CORE-SIZE: core.Noted would take" in err
    ok(log, "note", "small")
    err = refused(log, "undo", "--reason", "x" * 1_100_000)  # once appended: the log broke
    assert "CORE-SIZE: core.Undone would take" in err
    assert ok(log, "verify").startswith("ok: ")
    path = log.parent / "t.tlog"
    result = invoke(path, "init", "--system", "toy", "--title", "t" * 70_000)
    assert result.exit_code == 1 and "CORE-SIZE" in result.stderr
    assert not path.exists()


def test_times_increase_even_when_the_clock_goes_back(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock set back hours still gives each command a later `at` than the last record; one
    set back years (a dead clock battery) dates its commands by itself, before the record before
    them (seq orders the log): the append works and `verify` warns, exit 0 (issue 32 item 12)."""
    import datetime as dt

    import tablelog.store.stamp as stamp_module

    ok(log, "note", "now")
    hours = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=5)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    monkeypatch.setattr(stamp_module, "now_utc", lambda: hours)
    ok(log, "note", "then")
    ok(log, "note", "again")
    ats = [json.loads(line)["at"] for line in ok(log, "log", "--json").splitlines()]
    assert ats[0] < ats[1] < ats[2]
    assert ats[2] == stamp_module.after(ats[1])
    monkeypatch.setattr(stamp_module, "now_utc", lambda: "2000-01-01T00:00:00.000000Z")
    ok(log, "note", "in 2000")
    ats = [json.loads(line)["at"] for line in ok(log, "log", "--json").splitlines()]
    assert ats[-1] == "2000-01-01T00:00:00.000000Z"
    result = invoke(log, "verify")
    assert result.exit_code == 0
    assert "is dated 2000-01-01T00:00:00.000000Z, more than a day before the record" in (
        result.stderr
    )


def test_a_snapshot_never_hides_damage_before_it(log: Path, tmp_path: Path) -> None:
    """With a snapshot of the log, a flipped byte early in the log still stops every command."""
    script = tmp_path / "s.txt"
    script.write_text("".join(f"toy add c{i} {i}\n" for i in range(30)))
    ok(log, "run", str(script))
    assert Path(snapshot_path(str(log)) or "").exists()
    data = bytearray(log.read_bytes())
    data[len(data) // 3] ^= 0x40
    log.write_bytes(bytes(data))
    for args in (("state",), ("note", "x"), ("undo",)):
        err = refused(log, *args, status=3)
        assert "corrupt record #" in err


def test_every_core_command_is_in_the_command_table() -> None:
    """docs/COMMANDS.md's command table (above its generated reference) names every core
    command."""
    from tablelog.cli.main import cli

    doc = Path(__file__).resolve().parents[2] / "docs" / "COMMANDS.md"
    table = doc.read_text(encoding="utf-8").split("\n## Reference\n", 1)[0]
    from tablelog import systems

    for name in sorted(set(cli.list_commands(None)) - set(systems.names())):  # type: ignore[arg-type]
        assert f"`tablelog {name}" in table, name


def test_a_past_position_inside_a_command_is_the_state_after_that_command(pair: Path) -> None:
    """state --at and replay --until inside one command's events mean after the whole command."""
    ok(pair, "undo")  # markers #5 and #6, one command
    after_undo = state_json(pair)
    assert state_json(pair, "--at", "5") == after_undo
    assert state_json(pair, "--at", "3")["seq"] == 4
    assert state_json(pair, "--at", "3")["characters"]["b"]["hp"] == 3
    lines = ok(pair, "replay", "--until", "5").splitlines()
    assert [line for line in lines if line.startswith("#")][-1].startswith("#6 ")
    assert lines[-2:] == ["    characters.a.hp: 3 -> 5", "    characters.b.hp: 3 -> 5"]


def test_scripts_cannot_run_scripts(log: Path, tmp_path: Path) -> None:
    """A script line that runs a script (itself, say) is a usage error naming the line."""
    script = tmp_path / "s.txt"
    script.write_text(f"note one\nrun {script}\n")
    err = refused(log, "run", str(script), "--atomic", status=2)
    assert "line 2: a script cannot run another script" in err


def test_undo_inside_a_buffered_run_is_refused(log: Path, tmp_path: Path) -> None:
    """undo in run --atomic or --dry-run is refused rather than undoing an older logged action."""
    ok(log, "toy", "add", "a", "5")
    script = tmp_path / "s.txt"
    script.write_text("note one\nundo\n")
    for flag in ("--atomic", "--dry-run"):
        assert "CORE-UNDO" in refused(log, "run", str(script), flag)
    ok(log, "run", str(script))
    assert state_json(log)["characters"]["a"]["hp"] == 5
    assert [
        r["undone"] for r in map(json.loads, ok(log, "log", "--all", "--json").splitlines())
    ] == [False, True, False]


def test_log_entity_of_a_name_no_event_names(log: Path) -> None:
    """log --entity of a name that no event involves exits 1, like history and state do."""
    ok(log, "toy", "add", "a", "5")
    assert "UNKNOWN-NAME" in refused(log, "log", "--entity", "nobody")
    ok(log, "undo")
    assert ok(log, "log", "--entity", "a") == ""  # named, but only by an undone event


@pytest.mark.parametrize("value", ["abc", "1.5", "0", "-3", "9999999999999999999", "9" * 5000])
def test_bad_snapshot_spacing_is_one_error_line(
    log: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """$TABLELOG_SNAPSHOT_EVERY that is no whole number of events: exit 3, one line, no change."""
    monkeypatch.setenv("TABLELOG_SNAPSHOT_EVERY", value)
    err = refused(log, "note", "x", status=3)
    assert (
        f"error: TABLELOG_SNAPSHOT_EVERY must be a whole number of events from 1 to "
        f"1000000000, got {value!r}\n" == err
    )


def test_empty_snapshot_spacing_is_the_default(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty $TABLELOG_SNAPSHOT_EVERY counts as unset (1000), as shells pass ``VAR=``."""
    monkeypatch.setenv("TABLELOG_SNAPSHOT_EVERY", "")
    ok(log, "note", "x")
    assert '"seq": 1' in ok(log, "state", "--json")


@pytest.mark.slow
def test_python_dash_m_runs_the_same_command_line(tmp_path: Path) -> None:
    """``python -m tablelog`` is the ``tablelog`` script: same output, same exit statuses."""
    import subprocess
    import sys

    log = str(tmp_path / "m.tlog")
    made = subprocess.run(
        [sys.executable, "-m", "tablelog", "--log", log, "init", "--system", "pf2e"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    again = subprocess.run(
        [sys.executable, "-m", "tablelog", "--log", log, "init", "--system", "pf2e"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 3
    assert again.stderr.startswith("error: ") and "Traceback" not in again.stderr
