"""Helpers to drive the tablelog CLI in-process (click's CliRunner) from tests."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from tablelog.cli.main import cli


def invoke(log: Path | str, *args: str, actor: str = "gm") -> Result:
    """Run ``tablelog --log LOG --actor ACTOR ARGS…`` and return click's result."""
    return CliRunner().invoke(cli, ["--log", str(log), "--actor", actor, *args])


def ok(log: Path | str, *args: str, actor: str = "gm") -> str:
    """Run a command that must succeed; return its stdout (fails the test with stderr otherwise)."""
    result = invoke(log, *args, actor=actor)
    assert result.exit_code == 0, f"{args}: exit {result.exit_code}\n{result.output}"
    return result.stdout


def refused(log: Path | str, *args: str, status: int = 1) -> str:
    """Run a command that must fail with ``status`` and leave the log byte-for-byte unchanged.

    Returns:
        Its stderr.
    """
    path = Path(log)
    before = path.read_bytes() if path.exists() else None
    result = invoke(log, *args)
    assert result.exit_code == status, f"{args}: exit {result.exit_code}\n{result.output}"
    after = path.read_bytes() if path.exists() else None
    assert after == before, f"{args}: the log changed"
    return result.stderr
