"""A log holds one system's events: another system's commands are refused (CORE-SYSTEM)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tablelog import systems
from tablelog.commands import core
from tablelog.projections.core import State
from tablelog.rules.core import RuleViolation
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
    assert err == (f"error: CORE-SYSTEM: a {other} command on a {system} log: this session's "
                   f"events are {system} events\n")
    ok(log, *COMMANDS[system])  # its own system's command still goes through
    assert ok(log, "verify").startswith("ok: ")


def test_every_system_command_type_is_refused_elsewhere() -> None:
    """Every registered command of every system is refused on another system's state before
    its decider runs (so it never reads a state it does not know)."""
    assert set(COMMANDS) <= set(systems.SYSTEMS)  # the four game systems (tests add a toy one)
    for system in COMMANDS:
        importlib.import_module(f"tablelog.commands.{system}")
    owned = dict(core._SYSTEMS)
    assert set(owned.values()) == set(COMMANDS)
    assert len(owned) >= 40
    for command_type, system in owned.items():
        other = "pf2e" if system != "pf2e" else "saga"
        with pytest.raises(RuleViolation) as refusal:
            core.decide(State(system=other), object.__new__(command_type))
        assert refusal.value.rule_id == "CORE-SYSTEM", command_type


def test_core_commands_belong_to_every_system() -> None:
    """A note is a note in any session."""
    assert core.AddNote not in core._SYSTEMS
    events = core.decide(State(system="saga"), core.AddNote("a ruling"))
    assert [e.TYPE for e in events] == ["core.Noted"]
