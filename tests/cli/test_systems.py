"""A log holds one system's events: another system's commands are refused (CORE-SYSTEM)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelog import systems
from tablelog.commands import core
from tablelog.projections.core import State
from tests.support.cli import ok, refused

# One appending command of each system that would be valid on a fresh log of that system.
COMMANDS = {
    "pf2e": ("pf2e", "character", "add", "Zed"),
    "magicpunk": ("magicpunk", "leisure", "start"),
    "fate": ("fate", "servant", "add", "Saber", "--hp", "30", "--mp", "10"),
    "saga": ("saga", "battle", "start"),
}
PAIRS = [(log, other) for log in COMMANDS for other in COMMANDS if log != other]


@pytest.mark.parametrize(("system", "other"), PAIRS)
def test_another_systems_command_is_refused(tmp_path: Path, system: str, other: str) -> None:
    """E.g. ``magicpunk leisure start`` on a pf2e log: exit 1, CORE-SYSTEM, log unchanged (it
    was once appended, and the log no longer replayed)."""
    log = tmp_path / "x.tlog"
    ok(log, "init", "--system", system)
    err = refused(log, *COMMANDS[other])
    assert err == (
        f"error: CORE-SYSTEM: a {other} command on a {system} log: this session's "
        f"events are {system} events\n"
    )
    ok(log, *COMMANDS[system])  # its own system's command still goes through
    assert ok(log, "verify").startswith("ok: ")


def test_core_commands_belong_to_every_system() -> None:
    """A note is a note in any session."""
    assert all(core.AddNote not in systems.get(name).handlers.deciders for name in COMMANDS)
    events = systems.decide(State(system="saga"), core.AddNote("a ruling"))
    assert [e.TYPE for e in events] == ["core.Noted"]
