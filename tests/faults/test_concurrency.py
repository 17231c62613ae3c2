"""Concurrent writers through the real command line: nothing lost, no decision on a stale state."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablelog.store.log import LogFile
from tests.support import toy
from tests.support.cli import ok

toy.install()

TOYCLI = str(Path(__file__).resolve().parent / "toycli.py")
ENV = {**os.environ, "TABLELOG_LOCK_TIMEOUT": "60"}


def start(*args: str) -> subprocess.Popen[str]:
    """Start the real tablelog command (toy system installed) in a child process."""
    return subprocess.Popen(
        [sys.executable, TOYCLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def finish(procs: list[subprocess.Popen[str]]) -> list[tuple[int, str, str]]:
    """Wait for every child; return ``(exit status, stdout, stderr)`` of each."""
    outputs = [p.communicate(timeout=300) for p in procs]  # reads the pipes while waiting
    return [(p.returncode, out, err) for p, (out, err) in zip(procs, outputs, strict=True)]


@pytest.mark.slow
def test_eight_processes_append_a_hundred_each(tmp_path: Path) -> None:
    """8 CLI processes × 100 appends: 800 events, seq contiguous, each exactly once, log valid."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    procs = []
    for writer in range(8):
        script = tmp_path / f"w{writer}.txt"
        script.write_text("".join(f"note 'w{writer} line {i}'\n" for i in range(100)))
        procs.append(start("--log", str(log), "--actor", f"w{writer}", "run", str(script)))
    results = finish(procs)
    assert [status for status, _, _ in results] == [0] * 8, [err for _, _, err in results]
    records = LogFile(str(log)).scan_all()
    assert [r.seq for r in records] == list(range(1, 801))
    assert sorted(r.data["text"] for r in records) == sorted(
        f"w{w} line {i}" for w in range(8) for i in range(100)
    )
    for writer in range(8):  # each writer's own lines stay in its order
        mine = [r.data["text"] for r in records if r.actor == f"w{writer}"]
        assert mine == [f"w{writer} line {i}" for i in range(100)]
    assert ok(log, "verify").startswith(
        f"ok: {log}: 800 records, hash chain intact, replays (toy)\nhead: 800:"
    )


@pytest.mark.slow
def test_concurrent_spenders_always_decide_on_the_latest_state(tmp_path: Path) -> None:
    """8 processes spend 1 point 25 times each from a 200-point counter: every spend saw the
    points left by all earlier ones, and one more spend is refused."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "a", "200")
    script = tmp_path / "spend.txt"
    script.write_text("toy spend a 1\n" * 25)
    results = finish([start("--log", str(log), "run", str(script)) for _ in range(8)])
    assert [status for status, _, _ in results] == [0] * 8, [err for _, _, err in results]
    spends = [
        r.data["breakdown"]["before"]
        for r in LogFile(str(log)).scan()
        if r.type == "toy.PointsSpent"
    ]
    assert spends == list(range(200, 0, -1))
    done = subprocess.run(
        [sys.executable, TOYCLI, "--log", str(log), "toy", "spend", "a", "1"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (1, "error: TOY-SPEND-1: a has 0, needs 1\n")


def test_separate_commands_race_without_losses(tmp_path: Path) -> None:
    """Four processes racing single appending commands: all four land, seq 1..4."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    results = finish([start("--log", str(log), "note", f"racer {i}") for i in range(4)])
    assert [status for status, _, _ in results] == [0] * 4
    assert sorted(out.split(" ", 1)[0] for _, out, _ in results) == ["#1", "#2", "#3", "#4"]
    assert sorted(r.data["text"] for r in LogFile(str(log)).scan()) == [
        f"racer {i}" for i in range(4)
    ]
