"""Every integer option and argument is bounded (a number beyond a record's int64 is a usage
error, exit 2, one line), and usage errors print one `error:` line naming the command's help."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from tablelog.cli.core import MAX_SEQ
from tablelog.cli.main import cli
from tests.support.cli import ok


def commands(
    command: click.Command, path: str, ctx: click.Context
) -> Iterator[tuple[str, click.Command]]:
    """Yield ``(path, command)`` for the command and every command under it."""
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from commands(sub, f"{path} {name}", ctx)


def test_every_integer_parameter_is_bounded() -> None:
    """No integer option or argument of any command (every system's) is open-ended or beyond
    int64 (`log --tail 99999999999999999999999` was an OverflowError traceback); the tests' toy
    system aside."""
    unbounded = [
        f"{path} {param.name}"
        for path, command in commands(cli, "tablelog", click.Context(cli))
        if not path.startswith("tablelog toy")  # the tests' own system, installed by some
        for param in command.params
        if isinstance(param.type, click.types.IntParamType)
        and not all(
            bound is not None and abs(bound) <= MAX_SEQ
            for bound in (getattr(param.type, "min", None), getattr(param.type, "max", None))
        )
    ]
    assert unbounded == []


def tablelog(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real entry point (its usage-error line) in a process."""
    return subprocess.run(
        [sys.executable, "-c", "from tablelog.cli.main import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("tail", ["99999999999999999999999", "9223372036854775808"])
def test_a_huge_tail_is_one_usage_line(tmp_path: Path, tail: str) -> None:
    """`log --tail N` beyond int64: exit 2, one line, no traceback."""
    log = tmp_path / "b.tlog"
    ok(log, "init", "--system", "pf2e", "--seed", "7")
    result = tablelog("--log", str(log), "log", "--tail", tail)
    assert (
        2,
        f"error: Invalid value for '--tail': {tail} is not in the range "
        "1<=x<=9223372036854775807. (see: tablelog log --help)\n",
    ) == (result.returncode, result.stderr)


def test_a_missing_argument_is_one_usage_line(tmp_path: Path) -> None:
    """click's four-line usage block is one `error:` line."""
    result = tablelog("--log", str(tmp_path / "b.tlog"), "retire")
    assert (
        result.returncode,
        result.stderr,
    ) == (2, "error: Missing argument 'NAME'. (see: tablelog retire --help)\n")
