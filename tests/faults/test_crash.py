"""Fault injection: crashes mid-append, torn tails, failed writes, directory fsync."""

from __future__ import annotations

import os
import random
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablelog.commands.core import AddNote
from tablelog.session import LogError, Session
from tablelog.store.log import LogFile
from tablelog.store.repair import repair, salvage
from tablelog.store.snapshot import snapshot_path
from tests.support import toy
from tests.support.cli import invoke, ok

toy.install()

HERE = Path(__file__).resolve().parent
TOYCLI = str(HERE / "toycli.py")
ENV = {**os.environ, "TABLELOG_LOCK_TIMEOUT": "20"}


def cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run the real tablelog command (toy system installed) in a child process."""
    return subprocess.run(
        [sys.executable, TOYCLI, *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        **kwargs,
    )  # type: ignore[call-overload]


def test_cut_at_every_offset_then_repair_restores_appends(tmp_path: Path) -> None:
    """Cut anywhere in the last record: every earlier event stays, verify --repair fixes it."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "a", "9")
    ok(log, "toy", "spend", "a", "2")
    ok(log, "note", "the last one")
    whole = log.read_bytes()
    last = LogFile(str(log)).scan_all()[-1].offset
    for size in range(last + 1, len(whole)):
        log.write_bytes(whole[:size])
        Path(snapshot_path(str(log)) or "").unlink(missing_ok=True)
        assert Session(str(log)).state().characters["a"]["hp"] == 7, size
        assert invoke(log, "verify").exit_code == 1, size
        assert ok(log, "verify", "--repair").startswith(
            f"repaired: torn last record at byte {last} truncated; backup at "
        ), size
        assert log.read_bytes() == whole[:last], size
        ok(log, "toy", "spend", "a", "1")
        assert ok(log, "verify").startswith(
            f"ok: {log}: 3 records, hash chain intact, replays (toy)\nhead: 3:"
        )
        for backup in tmp_path.glob("s.tlog.bak*"):
            backup.unlink()


@pytest.mark.slow
def test_sigkill_during_appends_loses_no_reported_event(tmp_path: Path) -> None:
    """24 children killed at random moments: every reported append survives, and the log
    verifies after repair."""
    rng = random.Random(20261130)
    torn = 0
    for trial in range(24):
        log = tmp_path / f"k{trial}.tlog"
        ok(log, "init", "--system", "toy")
        child = subprocess.Popen(
            [sys.executable, str(HERE / "appender.py"), str(log)],
            stdout=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        assert child.stdout is not None
        first = child.stdout.readline()  # the child is in its loop of appends
        time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        reported = [line.split(" ", 1) for line in (first + out).splitlines()]
        assert reported, f"trial {trial}: the child reported nothing"
        if repair(LogFile(str(log))) is not None:
            torn += 1
        assert ok(log, "verify").startswith(f"ok: {log}: ")
        texts = {r.seq: r.data["text"] for r in LogFile(str(log)).scan()}
        for seq, text in reported:
            assert texts[int(seq)].startswith(text), (trial, seq)
        assert sorted(texts) == list(range(1, len(texts) + 1))
        ok(log, "note", "after the crash")
    assert torn >= 1, "no kill landed mid-write: the test did not test torn tails"


def _limit_file_size(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_write_failing_part_way_leaves_the_log_as_before(tmp_path: Path) -> None:
    """A file-size limit hit mid-append: exit 3, a clear error, and the log bytes unchanged."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "a", "9")
    before = log.read_bytes()
    done = cli(
        "--log",
        str(log),
        "note",
        "y" * 60_000,
        preexec_fn=lambda: _limit_file_size(len(before) + 1000),
    )
    assert done.returncode == 3
    assert done.stderr == (
        f"error: could not append to {log}: File too large; the log is unchanged\n"
    )
    assert log.read_bytes() == before
    assert ok(log, "verify").startswith(
        f"ok: {log}: 1 records, hash chain intact, replays (toy)\nhead: 1:"
    )


def test_atomic_run_failing_part_way_appends_nothing(tmp_path: Path) -> None:
    """An atomic run whose single write hits the file-size limit appends none of its lines."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    before = log.read_bytes()
    script = tmp_path / "s.txt"
    script.write_text("".join(f"note 'line {i} {'z' * 500}'\n" for i in range(40)))
    done = cli(
        "--log",
        str(log),
        "run",
        "--atomic",
        str(script),
        preexec_fn=lambda: _limit_file_size(len(before) + 5000),
    )
    assert done.returncode == 3
    assert "File too large; the log is unchanged" in done.stderr
    assert "Traceback" not in done.stderr
    assert log.read_bytes() == before


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the path of every directory that is fsynced."""
    synced: list[str] = []
    real = os.fsync

    def spy(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return synced


def test_directory_is_fsynced_when_a_log_is_created(tmp_path: Path, fsyncs: list[str]) -> None:
    """Creating a log fsyncs its parent directory."""
    Session.create(str(tmp_path / "s.tlog"), "toy")
    assert fsyncs == [str(tmp_path)]


def test_directory_is_fsynced_when_a_snapshot_is_replaced(
    tmp_path: Path, fsyncs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing (and replacing) a snapshot fsyncs its directory (the user's private cache) after
    the rename; nothing but the log is written beside the log (no lock file, no snapshot)."""
    from tablelog import replay

    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 2)
    session = Session.create(str(tmp_path / "s.tlog"), "toy")
    fsyncs.clear()
    for i in range(4):
        session.execute(AddNote(text=f"n{i}"))
    snap = snapshot_path(str(tmp_path / "s.tlog"))
    assert snap is not None and Path(snap).exists()
    assert fsyncs == [os.path.dirname(snap)] * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.tlog"]


def test_directory_is_fsynced_on_repair_and_salvage(tmp_path: Path, fsyncs: list[str]) -> None:
    """repair (backup + truncation) and salvage (a new file) fsync the directory."""
    log = tmp_path / "s.tlog"
    session = Session.create(str(log), "toy")
    session.execute(AddNote(text="one"))
    session.execute(AddNote(text="two"))
    log.write_bytes(log.read_bytes()[:-2])
    fsyncs.clear()
    assert repair(LogFile(str(log))) is not None
    salvage(LogFile(str(log)), str(tmp_path / "copy.tlog"))
    assert fsyncs == [str(tmp_path)] * 3  # the backup's name, the cut, the salvaged copy


def test_lock_held_past_the_timeout_is_exit_3(tmp_path: Path) -> None:
    """An append that cannot get the lock in time fails with exit 3 and appends nothing."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    before = log.read_bytes()
    holder = LogFile(str(log)).lock()  # acquired
    try:
        done = subprocess.run(
            [sys.executable, TOYCLI, "--log", str(log), "note", "x"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "TABLELOG_LOCK_TIMEOUT": "0.3"},
        )
    finally:
        holder.release()
    assert done.returncode == 3
    assert done.stderr == f"error: {log} is locked by another writer (waited 0.3 s)\n"
    assert log.read_bytes() == before


def test_while_locked_a_sound_log_verifies_and_a_dry_run_still_runs(tmp_path: Path) -> None:
    """With the writer lock held elsewhere: ``verify --repair`` of a sound log finds nothing to
    cut without the lock, so it needs none and says ok at once (it used to wait and exit 3);
    ``run --dry-run`` writes nothing, so it needs no lock and runs; the log is unchanged."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "a", "5")
    script = tmp_path / "s.txt"
    script.write_text("toy spend a 2\n")
    before = log.read_bytes()
    env = {**os.environ, "TABLELOG_LOCK_TIMEOUT": "0.3"}
    holder = LogFile(str(log)).lock()  # acquired
    try:
        verify, dry = (
            subprocess.run(
                [sys.executable, TOYCLI, "--log", str(log), *argv],
                capture_output=True,
                text=True,
                timeout=60,
                env=env,
            )
            for argv in (["verify", "--repair"], ["run", "--dry-run", str(script)])
        )
    finally:
        holder.release()
    assert (verify.returncode, verify.stderr) == (0, "")
    assert verify.stdout.startswith(f"ok: {log}: 1 records, hash chain intact"), verify.stdout
    assert dry.returncode == 0, dry.stderr
    assert "dry run: 1 line ran; nothing appended" in dry.stdout
    assert log.read_bytes() == before


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    """``tablelog log | head -1``: the command ends by SIGPIPE like any filter, with nothing on
    stderr (it once ended with exit 1, "refused", and no message)."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    script = tmp_path / "notes.txt"
    script.write_text("".join(f"note 'ruling number {i}'\n" for i in range(1500)))
    ok(log, "run", "--atomic", str(script))
    reader = subprocess.Popen(
        [sys.executable, TOYCLI, "--log", str(log), "log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None and reader.stderr is not None
    assert reader.stdout.readline().startswith(b"#1 ")
    reader.stdout.close()
    assert reader.wait(timeout=60) == -signal.SIGPIPE
    assert reader.stderr.read() == b""
    reader.stderr.close()


def test_log_error_is_raised_not_swallowed_on_a_shrunk_log(tmp_path: Path) -> None:
    """A log cut shorter than the position a command was decided on is refused clearly."""
    log = tmp_path / "s.tlog"
    session = Session.create(str(log), "toy")
    session.execute(AddNote(text="one"))
    session.state()
    log.write_bytes(log.read_bytes()[:-5])
    with pytest.raises(LogError, match="shrank under us"):
        session.execute(AddNote(text="two"))
