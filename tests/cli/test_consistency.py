"""One kind of mistake, one answer everywhere (issue: rules fidelity, second pass, items 22-25),
on the toy test system."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import toy
from tests.support.cli import invoke, ok

toy.install()


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "toy", "--seed", "7")
    return path


@pytest.mark.rule("CORE-NAME")
def test_a_name_with_a_comma_is_refused(log: Path) -> None:
    """A name cannot hold a comma, since comma-separated options (--who A,B) list names."""
    before = log.read_bytes()
    result = invoke(log, "toy", "add", "Ann,Bo", "3")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: CORE-NAME: a name cannot hold a comma (commas separate names in options "
        "like --who A,B): 'Ann,Bo'\n",
    )
    assert before == log.read_bytes()


@pytest.mark.rule("CORE-NAME")
@pytest.mark.parametrize(
    ("actor", "why"),
    [
        ("Ann\x1b[2J", "cannot hold control characters"),
        ("A" * 65, "has 65 characters; at most 64"),
        ("Cafe\u0301", "is not in composed form"),
        ("Ann,Bo", "cannot hold a comma"),
    ],
)
def test_the_actor_gets_the_checks_of_any_name(log: Path, actor: str, why: str) -> None:
    """--actor is a name like any other: a usage error (2) naming CORE-NAME, log unchanged."""
    before = log.read_bytes()
    result = invoke(log, "note", "hello", actor=actor)
    assert result.exit_code == 2 and "CORE-NAME: the actor" in result.stderr
    assert why in result.stderr
    assert before == log.read_bytes()


def test_run_dry_run_names_the_line_it_stopped_at(log: Path, tmp_path: Path) -> None:
    """A dry run that meets a refused line says where it stopped, not that a script was refused."""
    script = tmp_path / "s.txt"
    script.write_text("toy add a 3\ntoy spend a 9\nnote never\n")
    result = invoke(log, "run", str(script), "--dry-run")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "dry run stopped at line 2; nothing appended",
        f"error: TOY-SPEND-1: {script} line 2: a has 3, needs 9",
    ]


def test_sigint_ends_a_command_with_130(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) during a command ends it with status 130, as a shell expects, and one
    line saying so — no traceback."""
    fifo = tmp_path / "script"
    os.mkfifo(fifo)
    log = tmp_path / "s.tlog"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tablelog.cli.main import main; main()",
            "--log",
            str(log),
            "run",
            str(fifo),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    with open(fifo, "w") as writer:  # the run waits on the script: interrupt it there
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        writer.close()
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted" in err
