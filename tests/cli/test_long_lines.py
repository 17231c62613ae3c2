"""A command line of millions of characters (a script may hold 4 Mi) costs time linear in its
length: `run`, the CLI and the shell split it without shlex's quadratic growth of a word, and
refuse more than MAX_WORDS words before click's parser (quadratic in their number) sees them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tablelog.cli.core import MAX_WORDS, Env
from tablelog.cli.main import cli
from tablelog.cli.shell import Shell
from tests.support.cli import ok, refused

# Generous: the linear code takes about a second here; the quadratic one took 38.6 s on an
# 800,000-character line and several minutes on the 2 Mi-character lines below.
TIMEOUT_S = 120


def run_script(log: Path, script: Path) -> subprocess.CompletedProcess[str]:
    """Run `tablelog --log LOG run SCRIPT --dry-run` in a process that must end in TIMEOUT_S."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from tablelog.cli.main import main; main()",
            "--log",
            str(log),
            "run",
            str(script),
            "--dry-run",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A pf2e log (a real system: the script runs in another process)."""
    path = tmp_path / "b.tlog"
    ok(path, "init", "--system", "pf2e", "--seed", "7")
    return path


def test_a_line_of_a_million_words_is_refused_quickly(log: Path, tmp_path: Path) -> None:
    """`note a a a …` (1,048,576 words, 2 Mi characters) exits 2 naming the limit, in time."""
    script = tmp_path / "big.txt"
    script.write_text("note " + "a " * 1024 * 1024 + "\n", encoding="utf-8")
    before = log.read_bytes()
    result = run_script(log, script)
    assert result.returncode == 2
    assert (
        f"error: {script} line 1: more than {MAX_WORDS:,} words on one command line (a "
        "text with spaces goes in quotes: it is one word)\n"
    ) == result.stderr.splitlines(keepends=True)[-1]
    assert before == log.read_bytes()


def test_a_word_of_two_mi_characters_is_split_quickly(log: Path, tmp_path: Path) -> None:
    """`note "aaa…"` (one word of 2 Mi characters) reaches the command: CORE-SIZE refuses the
    record (it would exceed 1 MiB), in time."""
    script = tmp_path / "big.txt"
    script.write_text('note "' + "a" * 2 * 1024 * 1024 + '"\n', encoding="utf-8")
    result = run_script(log, script)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1].startswith(
        f"error: CORE-SIZE: {script} line 1: core.Noted would take 2097"
    )


def test_the_cli_refuses_more_words_than_the_limit(log: Path) -> None:
    """On the command line too: MAX_WORDS + 1 arguments exit 2, one error line."""
    err = refused(log, "note", *["a"] * MAX_WORDS, status=2)
    assert f"more than {MAX_WORDS:,} words on one command line" in err


def test_the_shell_refuses_more_words_than_the_limit(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shell line of MAX_WORDS + 1 words gets one error line and the shell goes on."""
    before = log.read_bytes()
    shell = Shell(Env(log_path=str(log), actor="gm"), cli)
    assert shell.run_line("note " + "a " * MAX_WORDS) is True
    assert (
        f"error: more than {MAX_WORDS:,} words on one command line (a text with spaces "
        "goes in quotes: it is one word)\n"
    ) == capsys.readouterr().err
    assert before == log.read_bytes()
