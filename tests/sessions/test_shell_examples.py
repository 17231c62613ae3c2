"""The example sessions typed into `tablelog shell` (through a pseudo-terminal, the system
word left out after `init`) append exactly the events `tablelog run` appends (`at` aside)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tablelog.cli.scripts import script_lines
from tests.support.cli import ok
from tests.support.needs import missing
from tests.support.shell import events, leave, spawn, type_line

try:
    import pexpect  # noqa: F401 - tests/support/shell.py drives it
except ModuleNotFoundError:
    missing("needs pexpect (make test installs it: pip install pexpect)")

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.txt"))


def seeded(script: Path) -> list[str]:
    """The script's command lines, `init` given a fixed seed (magicpunk draws from it)."""
    lines = [shlex.join(argv) for _, argv in script_lines(script.read_text("utf-8"))]
    return [
        f"{line} --seed 11" if line.startswith("init") and "--seed" not in line else line
        for line in lines
    ]


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_shell_appends_what_run_appends(script: Path, tmp_path: Path) -> None:
    """Every line of the example typed at the prompt; the two logs hold the same events."""
    lines = seeded(script)
    by_run = tmp_path / "run.tlog"
    (tmp_path / "script.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    ok(by_run, "run", str(tmp_path / "script.txt"))
    by_shell = tmp_path / "shell.tlog"
    child = spawn(by_shell, tmp_path / "history")
    system = lines[0].split("--system ")[1].split()[0]
    for line in lines:
        typed = line.removeprefix(f"{system} ")  # the shell implies the log's system
        printed = type_line(child, typed)
        assert "error:" not in printed, (typed, printed)
    assert leave(child) == 0
    assert events(by_run) == events(by_shell)
    assert len(events(by_shell)) >= 15
