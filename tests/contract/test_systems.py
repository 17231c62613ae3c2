"""The contract every registered rule system keeps, checked for each one (the toy one too).

A system is one declaration (tablelog/systems/<system>.py, one registry line): these tests read
only that declaration, so a fifth system is checked without a line here. Every event type has an
evolver and round-trips through the codec; every command has help with an example and is in the
command table of the system's doc; every rule ID a refusal or an event names is in the system's
list; its frozen logs fold to the state they were recorded with; its commands are refused on
another system's log.
"""

from __future__ import annotations

import ast
import importlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import attrs
import click
import pytest
from click.testing import CliRunner

from tablelog import systems
from tablelog.cli.main import cli
from tablelog.events.codec import from_record, to_record
from tablelog.events.core import MARKERS
from tablelog.projections.core import State, fold, undone_after
from tablelog.rules import reference
from tablelog.rules.core import RuleViolation
from tablelog.session import Session
from tablelog.store.format import FORMAT_VERSION
from tablelog.store.log import LogFile
from tests.support import toy
from tests.support.cli import ok
from tests.support.shapes import problems
from tests.unit.rules.test_reference import RULE_ID, rule_arguments

toy.install()

ROOT = Path(__file__).resolve().parents[2]
FROZEN = ROOT / "tests" / "data" / "frozen"
DOCS = ROOT / "docs"
REAL = sorted(systems.REGISTRY)
EVERY = systems.names()
# The logs each system's events were recorded in by a released tablelog (toy: the first format).
RECORDED = {name: sorted(FROZEN.glob(f"format-*/{name}-*.tlog")) for name in REAL}
RECORDED["toy"] = [ROOT / "tests" / "data" / "first-format.tlog"]
FROZEN_LOGS = [(name, log) for name in REAL for log in RECORDED[name]]


def test_the_registry_holds_the_real_systems_and_tests_add_the_toy_one() -> None:
    """The real systems, one registry line each (the four of the seeds at least; a fifth adds
    its line and nothing here); the toy system is registered by the tests, never by the
    registry."""
    assert {"fate", "magicpunk", "pf2e", "saga"} <= set(REAL)
    assert "toy" not in REAL
    assert sorted([*REAL, "toy"]) == EVERY
    assert all(systems.get(name).name == name for name in EVERY)


@pytest.mark.parametrize("name", EVERY)
def test_every_event_type_has_an_evolver_and_a_tag_of_its_system(name: str) -> None:
    """Each declared event type is tagged ``<system>.<Name>`` and has an evolver; a
    precondition and a decider are declared only for the system's own types."""
    handlers = systems.get(name).handlers
    assert handlers.events and handlers.deciders
    assert [e.TYPE for e in handlers.events if not e.TYPE.startswith(f"{name}.")] == []
    assert set(handlers.events) == set(handlers.evolvers)
    assert set(handlers.preconditions) <= set(handlers.events)


@pytest.mark.parametrize("name", EVERY)
def test_every_event_type_round_trips_through_the_codec(name: str) -> None:
    """Every event type occurs in the system's recorded logs, and every recorded event encodes
    and decodes back to itself."""
    handlers = systems.get(name).handlers
    own = {e.TYPE for e in handlers.events}
    met = set()
    for path in RECORDED[name]:
        for rec in LogFile(str(path)).scan():
            if rec.type not in own:
                continue
            event = from_record(rec.type, rec.v, rec.data)
            assert event == from_record(*to_record(event)), (path.name, rec.seq)
            met.add(rec.type)
    assert own == met


def _leaves(command: click.Command, path: str) -> Iterator[tuple[str, click.Command]]:
    if isinstance(command, click.Group):
        for sub_name, sub in command.commands.items():
            yield from _leaves(sub, f"{path} {sub_name}")
    else:
        yield path, command


def _groups(command: click.Command, path: str) -> Iterator[tuple[str, click.Group]]:
    if isinstance(command, click.Group):
        yield path, command
        for sub_name, sub in command.commands.items():
            yield from _groups(sub, f"{path} {sub_name}")


@pytest.mark.parametrize("name", EVERY)
def test_every_command_is_listed_by_its_groups_help(name: str) -> None:
    """``tablelog --help`` lists the system's group, and each group's ``--help`` lists every
    command and group in it."""
    assert f"  {name} " in CliRunner().invoke(cli, ["--help"]).output
    for path, group in _groups(systems.get(name).group(), name):
        listing = CliRunner().invoke(cli, [*path.split(), "--help"]).output.split("Commands:")[1]
        for sub_name in group.commands:
            assert f"\n  {sub_name} " in listing or f"\n  {sub_name}\n" in listing, (path, sub_name)


@pytest.mark.parametrize("name", EVERY)
def test_every_command_has_help_with_an_example(name: str) -> None:
    """Each command of the system's group says what it does and gives an
    ``Example: tablelog <system> …`` line."""
    leaves = list(_leaves(systems.get(name).group(), name))
    assert leaves
    for path, command in leaves:
        text = " ".join((command.help or "").split())
        assert command.get_short_help_str(), path
        assert f"Example: tablelog {path}" in text, path
        result = CliRunner().invoke(cli, [*path.split(), "--help"])
        assert (result.exit_code, "Example: tablelog" in result.output) == (0, True), path


@pytest.mark.parametrize("name", REAL)
def test_every_command_is_in_the_systems_doc(name: str) -> None:
    """The command table of the system's doc (docs/<system>.md, "Commands") names every command
    of its group (the generated reference below it is checked by tests/contract/test_docs.py)."""
    section = (DOCS / f"{name}.md").read_text("utf-8").split("\n## Commands\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    for path, _ in _leaves(systems.get(name).group(), name):
        assert f"`tablelog {path} " in section or f"`tablelog {path}`" in section, path


def _system_files(name: str) -> list[Path]:
    """The source files of the system's modules: its handlers' and its ``code`` packages'."""
    declared = systems.get(name)
    handlers = declared.handlers
    modules = {
        fn.__module__
        for table in (handlers.evolvers, handlers.preconditions, handlers.deciders)
        for fn in table.values()
    }
    modules |= {cls.__module__ for cls in handlers.events} | set(declared.code)
    files = set()
    for module in modules:
        found = Path(importlib.import_module(module).__file__ or "")
        files |= set(found.parent.rglob("*.py")) if found.name == "__init__.py" else {found}
    return sorted(files)


def _named_ids(name: str) -> set[str]:
    """The rule IDs the system's refusals (RuleViolation, require) and events' rules name."""
    trees = [ast.parse(p.read_text("utf-8")) for p in _system_files(name)]
    found = {rule for e in systems.get(name).handlers.events for rule in e.RULES}
    found |= rule_arguments(trees)
    return {i for i in found if RULE_ID.fullmatch(i) or i.startswith(f"{name.upper()}-")}


@pytest.mark.parametrize("name", EVERY)
def test_every_rule_id_the_system_names_is_in_its_list(name: str) -> None:
    """Each rule ID a refusal or an event of the system names is one of its own rules.toml
    entries (or its declared list) or a core one."""
    declared = systems.get(name)
    entries = reference.entries()
    own = (
        declared.rule_ids
        if declared.rule_ids is not None
        else {rule for rule, entry in entries.items() if entry.system == name}
    )
    allowed = set(own) | {rule for rule, entry in entries.items() if entry.system == "core"}
    named = _named_ids(name)
    assert sorted(named - allowed) == []
    assert named & set(own), "the system's refusals name none of its own rules"


@pytest.mark.parametrize(
    ("name", "frozen"), FROZEN_LOGS, ids=[str(log.relative_to(FROZEN)) for _, log in FROZEN_LOGS]
)
def test_a_frozen_log_folds_verifies_and_gives_its_recorded_state(
    name: str, frozen: Path, tmp_path: Path
) -> None:
    """The log (copied: commands may write a snapshot beside it) verifies, and state --json is
    exactly what the release that wrote it printed, with and without a snapshot."""
    path = tmp_path / frozen.name
    shutil.copy(frozen, path)
    recorded = json.loads(frozen.with_suffix(".state.json").read_text(encoding="utf-8"))
    assert name == recorded["system"]
    assert ok(path, "verify").startswith(f"ok: {path}: {recorded['seq']} records")
    assert recorded == json.loads(ok(path, "state", "--json"))
    (tmp_path / (frozen.name + ".snap")).unlink(missing_ok=True)
    assert recorded == json.loads(ok(path, "state", "--json"))


@pytest.mark.parametrize(
    ("name", "frozen"), FROZEN_LOGS, ids=[str(log.relative_to(FROZEN)) for _, log in FROZEN_LOGS]
)
def test_every_record_of_a_frozen_log_is_one_its_system_declares(name: str, frozen: Path) -> None:
    """After every event of the log, each character and item record has the shape of one of
    the system's ``records`` TypedDicts (the ones mypy checks its code against): no key the
    declaration lacks, every key it requires, each value of its declared type."""
    declared = systems.get(name).records
    assert declared, f"{name} declares no record types"
    session = Session(str(frozen), snapshots=False)
    state, undone = session.blank_state(), undone_after(session.markers())
    for rec, event in session.events():
        fold(state, [(rec.seq, None if rec.type in MARKERS else event)], undone)
        for name_, record in [*state.characters.items(), *state.items.items()]:
            found = [problems(record, kind, name_) for kind in declared]
            assert min(found, key=len) == [], f"#{rec.seq} {rec.type}"


# The systems a released tablelog wrote format-1 logs of (history: a later system never has one).
FIRST_FORMAT_SYSTEMS = ("fate", "magicpunk", "pf2e", "saga")


@pytest.mark.parametrize("name", REAL)
def test_every_real_system_has_frozen_logs_of_each_format_it_was_released_in(name: str) -> None:
    """A released tablelog wrote a log of the system in the current format, and in the first
    format too for the systems that format was current for."""
    kept = {log.parent.name for log in RECORDED[name]}
    assert f"format-{FORMAT_VERSION}" in kept
    assert ("format-1" in kept) == (name in FIRST_FORMAT_SYSTEMS)


@pytest.mark.parametrize("name", EVERY)
def test_its_commands_are_refused_on_another_systems_log(name: str) -> None:
    """Every command the system declares is refused (CORE-SYSTEM) on another system's state
    before its decider runs, so it never reads a state it does not know."""
    other = "pf2e" if name != "pf2e" else "saga"
    for command_type in systems.get(name).handlers.deciders:
        with pytest.raises(RuleViolation) as refusal:
            systems.decide(State(system=other), object.__new__(command_type))
        assert (
            "CORE-SYSTEM",
            f"a {name} command on a {other} log: this session's events are {other} events",
        ) == (refusal.value.rule_id, refusal.value.message)


@pytest.mark.parametrize("name", EVERY)
def test_its_declared_fields_name_what_exists(name: str) -> None:
    """``acts_for`` names a field of each command, its hidden events and headlines name its own
    event types and their fields, and its ``init`` options are click options."""
    declared = systems.get(name)
    own = {e.TYPE: e for e in declared.handlers.events}
    for command_type, field in declared.acts_for.items():
        assert command_type in declared.handlers.deciders, command_type
        assert field in attrs.fields_dict(command_type), (command_type, field)
    for kind, (owner, _, fields) in declared.hidden.owner_events.items():
        assert {owner, *fields} <= set(attrs.fields_dict(own[kind])), kind
    for kind, (_, data_fields) in declared.hidden.enemy_sheets.items():
        assert {"sheet", *data_fields} <= set(attrs.fields_dict(own[kind])), kind
    assert set().union(*(h.types for h in declared.headlines)) <= set(own)
    assert all(isinstance(option, click.Option) for option in declared.options)


def test_every_packaged_data_file_is_declared_by_the_system_that_reads_it() -> None:
    """Each catalogue in tablelog/rules/data is one system's ``data_files`` (its snapshot key),
    and each declared file exists; rules.toml is the rule reference, no system's; glossary/ holds
    the words of a system (or the core) in each language, which no fold reads (a name is
    resolved when a command is decided), each named after its system."""
    data = ROOT / "tablelog" / "rules" / "data"
    declared = [f for name in EVERY for f in systems.get(name).data_files]
    assert len(declared) == len(set(declared))
    files = [p.name for p in data.iterdir() if p.name not in ("rules.toml", "glossary")]
    assert sorted(files) == sorted(declared)
    assert {p.stem for p in (data / "glossary").glob("*.toml")} <= {*EVERY, "core"}


def test_an_unknown_system_and_an_unknown_command_are_refused_with_their_names() -> None:
    """A log naming a system this installation lacks is SystemUnavailable naming the known
    ones; a command no system decides is CORE-COMMAND."""
    with pytest.raises(systems.SystemUnavailable) as unknown:
        systems.get("dnd5e")
    known = ", ".join(EVERY)
    assert f"unknown system 'dnd5e' (known: {known})" == str(unknown.value)
    with pytest.raises(RuleViolation) as refusal:
        systems.decide(State(system="toy"), object())
    assert (
        refusal.value.rule_id,
        refusal.value.message,
    ) == ("CORE-COMMAND", "object is not a toy command")


@pytest.mark.parametrize(("name", "frozen"), FROZEN_LOGS)
def test_a_record_with_hidden_enemy_fields_reads_as_a_sentence_to_players(
    name: str, frozen: Path
) -> None:
    """Every record of a type with hidden enemy fields (``Hidden.enemy_sheets``,
    ``enemy_events``), its unit made an enemy and the record redacted for a player, still reads
    as a sentence of what the player may know: either the redacted record makes an event, or
    the system describes the redacted form (``describes_redacted``); never a blank line or
    "(details hidden)" (issue 30: a hidden enemy's arrival and fall are public lines)."""
    from tablelog.server.redact import Viewer
    from tablelog.server.views import described

    hidden = systems.get(name).hidden
    for rec in LogFile(str(frozen)).scan():
        data = json.loads(json.dumps(rec.data))
        if rec.type in hidden.enemy_sheets:
            data["sheet"]["side"], unit = "enemy", data["name"]
        elif rec.type in hidden.enemy_events:
            unit = data[hidden.enemy_events[rec.type][0]]
        else:
            continue
        viewer = Viewer("player", frozenset(), name, enemies=frozenset({unit}))
        line = viewer.record({"seq": rec.seq, "type": rec.type, "v": rec.v, "data": data})
        assert line is not None
        text = described(line)[0]
        assert text and "details hidden" not in text and unit in text, (rec.type, text)


@pytest.mark.parametrize("name", EVERY)
def test_the_damage_a_system_rolls_on_hidden_targets_names_fields_that_exist(name: str) -> None:
    """``Hidden.rolled`` names the target, dealer and damage fields of its own event types."""
    own = {e.TYPE: e for e in systems.get(name).handlers.events}
    for kind, (target, dealer, damage) in systems.get(name).hidden.rolled.items():
        assert {target, damage, *([dealer] if dealer else [])} <= set(attrs.fields_dict(own[kind]))


NAMED_HELD = {("Play", "cards"), ("Charge", "cards"), ("Circulate", "cards")}
"""Command fields named like a given outcome that name cards the actor holds, not cards drawn
(``circulate --cards`` chooses which held cards leave; tablelog draws the replacements)."""
NEVER_ROLLED = {("TakeLeisureEvent", "roll")}
"""Rolls tablelog never makes, always reported at the table, by a command that is the GM's
(``magicpunk leisure … --roll``): no table option can hand them to a player."""


@pytest.mark.rule("CORE-GIVEN")
@pytest.mark.parametrize("name", EVERY)
def test_every_option_that_reports_a_drawn_or_rolled_outcome_is_given(name: str) -> None:
    """Every command field that reports cards drawn, dice or a random factor (``cards``, ``dice``,
    ``roll``) is in the system's ``given`` with a core table option, unless it names held cards;
    ``given`` names only fields its commands have; the rolled predicates name its events."""
    from tablelog.events.core import GIVEN_OPTIONS

    declared = systems.get(name)
    for command in declared.handlers.deciders:
        fields = {f.name for f in attrs.fields(command)}
        given = dict(declared.given.get(command, ()))
        for field in fields & {"cards", "dice", "roll"}:
            if (command.__name__, field) in NEVER_ROLLED:
                assert command not in declared.acts_for, command.__name__
            elif (command.__name__, field) not in NAMED_HELD:
                assert field in given, (command.__name__, field)
        assert set(given) <= fields, (command.__name__, given)
        assert set(given.values()) <= set(GIVEN_OPTIONS), (command.__name__, given)
    types = {cls.TYPE for cls in declared.handlers.evolvers}
    assert set(declared.rolled) <= types, set(declared.rolled) - types
