"""Write the stubs of a new rule system (`make new-system NAME=…`, docs/NEW-SYSTEM.md).

``python -m tools.new_system NAME [--root DIR]`` writes, in the tree at DIR (default: this
repository), one working system: a rule, one event and its evolver and describer, one command
and its decider, its CLI group with one command, its typed record, its declaration and its
registry line, its doc (with the command reference `make docs` generates), its rules.toml block,
its line in the README's list of systems and in the import contracts, and its campaign script
(tests/data/campaigns/NAME.txt). Every stub passes the lint and the contract suite; then
`make frozen SYSTEM=NAME` records its frozen log. What the stubs leave to you is the checklist of
docs/NEW-SYSTEM.md, "What the stubs leave to you".
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"[a-z][a-z0-9]{1,11}")
TAKEN = ("core", "toy")  # the core's modules and the tests' toy system

FILES: dict[str, str] = {
    "tablelog/rules/$name/__init__.py": '''\
"""The rules of $title: what its deciders check (docs/$name.md, "Rules").

Rule IDs: $PREFIX-ADD-1 (rules.toml).
"""

from __future__ import annotations

from tablelog.rules.core import require
from tablelog.text import msg

__all__ = ["ADD_RULE", "check_hp"]

ADD_RULE = "$PREFIX-ADD-1"


def check_hp(hp: int) -> None:
    """Check a new character's HP.

    Args:
        hp: The HP it starts with.

    Raises:
        RuleViolation: $PREFIX-ADD-1 if it is below 1.

    Source: (the seed and section this rule implements); $PREFIX-ADD-1.
    """
    require(
        hp >= 1,
        ADD_RULE,
        msg("$name.hp.low", "HP must be at least 1, not {hp}", hp=hp),
    )
''',
    "tablelog/events/$name/__init__.py": '''\
"""$title events (immutable facts, past tense). Importing this package registers every
``$name.*`` event type."""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event

__all__ = ["CharacterAdded"]


@event("$name.CharacterAdded", entities=("name",), rules=("$PREFIX-ADD-1",))
@attrs.frozen
class CharacterAdded(Event):
    """A character joined with its HP."""

    name: str
    hp: int
''',
    "tablelog/projections/$name/entities.py": '''\
"""The $name state records, typed (the contract test checks the frozen logs' records against
them)."""

# No ``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from evaluated
# annotations, and the contract test reads ``__required_keys__``.
from typing import TypedDict

__all__ = ["Character"]


class Character(TypedDict):
    """A character (``state.characters``), added by ``CharacterAdded``."""

    hp: int
    hp_max: int
''',
    "tablelog/projections/$name/__init__.py": '''\
"""The projection of $name: its initial state and its evolvers (recorded facts, applied
as they are: an evolver never checks a rule)."""

from __future__ import annotations

from typing import Any

from tablelog.events.$name import CharacterAdded
from tablelog.projections.core import State, evolver

__all__ = ["init_state"]


def init_state(state: State, options: dict[str, Any]) -> None:
    """Set up a new $name session (it takes no ``init`` options)."""


@evolver(CharacterAdded)
def _character_added(state: State, e: CharacterAdded) -> None:
    state.characters[e.name] = {"hp": e.hp, "hp_max": e.hp}
''',
    "tablelog/commands/$name/__init__.py": '''\
"""$title commands and their deciders (pure: state, command -> events or RuleViolation)."""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.events import $name as events
from tablelog.events.core import Event
from tablelog.projections.core import State
from tablelog.rules import $name as rules
from tablelog.rules.core import require
from tablelog.text import msg

__all__ = ["AddCharacter", "decide_add_character"]


@attrs.frozen
class AddCharacter:
    """Add a character with a new name and its HP."""

    name: str
    hp: int


@decider(AddCharacter)
def decide_add_character(state: State, c: AddCharacter) -> list[Event]:
    """Add a character with a new name and at least 1 HP.

    Raises:
        RuleViolation: $PREFIX-ADD-1 for a name taken or HP below 1.
    """
    require(
        c.name not in state.characters,
        rules.ADD_RULE,
        msg("$name.name.taken", "{name} is already at the table", name=c.name),
    )
    rules.check_hp(c.hp)
    return [events.CharacterAdded(name=c.name, hp=c.hp)]
''',
    "tablelog/texts/$name.py": '''\
"""The texts of the $name events: their one-line descriptions, as data."""

from __future__ import annotations

from tablelog.events.$name import CharacterAdded
from tablelog.text import Msg, msg
from tablelog.texts.core import describes

__all__: list[str] = []


@describes(CharacterAdded)
def _character_added(e: CharacterAdded) -> Msg:
    return msg(
        "$name.character.added",
        "{name} joins with {hp} HP",
        name=e.name,
        hp=e.hp,
    )
''',
    "tablelog/cli/$name.py": '''\
"""``tablelog $name …``: $title (thin: parse options -> command -> execute)."""

from __future__ import annotations

import click

from tablelog.cli.core import appending
from tablelog.commands.$name import AddCharacter

__all__ = ["group"]

group = click.Group(
    "$name",
    help="$title: $description.",
)


@group.command("add")
@click.argument("name")
@click.option("--hp", type=click.IntRange(1, 10**6), default=10, show_default=True, help="HP.")
@appending
def add(ctx: click.Context, name: str, hp: int) -> object:
    """Add a character. Example: tablelog $name add Ada --hp 12"""
    return AddCharacter(name=name, hp=hp)
''',
    "tablelog/systems/$name.py": '''\
"""$title, declared: the one value the core reads (docs/$name.md)."""

from __future__ import annotations

from tablelog.commands import $name as commands
from tablelog.projections import $name as projection
from tablelog.projections.$name.entities import Character
from tablelog.systems.declaration import System, handlers, lazy_group

__all__ = ["SYSTEM"]

SYSTEM = System(
    name="$name",
    title="$title",
    description="$description",
    handlers=handlers(
        "tablelog.events.$name",
        "tablelog.projections.$name",
        "tablelog.commands.$name",
    ),
    init_state=projection.init_state,
    group=lazy_group("tablelog.cli.$name"),
    code=(
        "tablelog.events.$name",
        "tablelog.projections.$name",
        "tablelog.rules.$name",
    ),
    records=(Character,),
    texts="tablelog.texts.$name",
    adds={commands.AddCharacter: "name"},
)
''',
    "docs/$name.md": """\
# $title

$description. Its rules are the `$PREFIX-` entries of `tablelog rules --system $name`.

## Commands

| command | what it does |
|---|---|
| `tablelog $name add NAME --hp N` | add a character ($PREFIX-ADD-1) |

## Reference

<!-- [[[help $name]]] -->
<!-- [[[end]]] -->
""",
    "tests/data/campaigns/$name.txt": """\
# $title — a campaign that uses every $name event.
# Run on a new log:  tablelog --log $name.tlog run tests/data/campaigns/$name.txt
# Events: CharacterAdded; core: Noted, Undone, Redone.
init --system $name --title "A first $name campaign"
$name add Ada --hp 12
$name add Brin --hp 9
note "Ada and Brin set out."
$name add Cass --hp 7
undo
redo
$name add Dov --hp 15
""",
}

RULES_BLOCK = """
["$PREFIX-ADD-1"]
title = "A new character"
system = "$name"
seed = "(the seed file and section this rule implements)"
text = "A character's name is new at the table and its HP at least 1."
"""


def generate(name: str, root: Path, title: str = "", description: str = "") -> list[Path]:
    """Write the stubs of system ``name`` into the tree at ``root`` and register it there.

    Args:
        name: The system id: lower-case letters and digits, 2-12 characters (not core).
        root: The repository tree to write into (its ``tablelog/`` package, docs, tests).
        title: Its name in prose (default: ``name`` capitalised).
        description: One line (default: a placeholder to replace).

    Returns:
        The files written or edited, relative to ``root``.

    Raises:
        ValueError: a malformed name, or a system of that name already exists.
    """
    if not NAME.fullmatch(name) or name in TAKEN:
        raise ValueError(f"a system name is 2-12 lower-case letters and digits: {name!r}")
    registry = root / "tablelog" / "systems" / "__init__.py"
    if not registry.exists():
        raise ValueError(f"{root} is not a tablelog tree (no {registry.relative_to(root)})")
    if (root / "tablelog" / "systems" / f"{name}.py").exists() or (
        f'"{name}":' in registry.read_text("utf-8")
    ):
        raise ValueError(f"system {name!r} exists already in {root}")
    values = {
        "name": name,
        "title": title or name.capitalize(),
        "description": description or f"{name}, a new system (describe it here)",
        "PREFIX": name.upper(),
    }
    written = []
    for path, text in FILES.items():
        target = root / Template(path).substitute(values)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(Template(text).substitute(values), "utf-8")
        written.append(target)
    written += _edit_shared(root, values)
    _regenerate_docs(root)
    return [p.relative_to(root) for p in written]


def _edit_shared(root: Path, values: dict[str, str]) -> list[Path]:
    """Add the system to the shared places: the registry, rules.toml, the README, the import
    contracts."""
    name = values["name"]
    registry = root / "tablelog" / "systems" / "__init__.py"
    _replace(registry, "\n}\n", f'\n    "{name}": "tablelog.systems.{name}",\n}}\n')
    rules = root / "tablelog" / "rules" / "data" / "rules.toml"
    block = Template(RULES_BLOCK).substitute(values)
    rules.write_text(rules.read_text("utf-8") + block, "utf-8")
    readme = root / "README.md"
    lines = readme.read_text("utf-8").splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if re.match(r"- `\w+` — ", line))
    lines.insert(
        last + 1, f"- `{name}` — {values['description']}: [docs/{name}.md](docs/{name}.md)\n"
    )
    readme.write_text("".join(lines), "utf-8")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    for layer in ("rules", "events", "projections", "commands", "texts", "cli"):
        text = re.sub(
            rf'("tablelog\.{layer}\.\w+",\n)(\])',
            rf'\1    "tablelog.{layer}.{name}",\n\2',
            text,
            count=1,
        )
    pyproject.write_text(text, "utf-8")
    return [registry, rules, readme, pyproject]


def _replace(path: Path, old: str, new: str) -> None:
    """Replace the one ``old`` of ``path`` by ``new``."""
    text = path.read_text("utf-8")
    if text.count(old) != 1:
        raise ValueError(f"{path}: expected one {old!r}")
    path.write_text(text.replace(old, new), "utf-8")


def _regenerate_docs(root: Path) -> None:
    """Run `make docs` (tools/helpdoc.py) in the tree, whose registry now names the system."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    subprocess.run([sys.executable, "-m", "tools.helpdoc"], cwd=root, env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    """Write a new system's stubs; print the files and what is left to do."""
    parser = argparse.ArgumentParser(prog="python -m tools.new_system", description=__doc__)
    parser.add_argument("name", help="the system id (lower-case letters and digits)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree (default: this one)")
    parser.add_argument("--title", default="", help="its name in prose")
    parser.add_argument("--description", default="", help="one line describing it")
    args = parser.parse_args(argv)
    try:
        written = generate(args.name, args.root.resolve(), args.title, args.description)
    except ValueError as exc:
        print(f"new-system: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    print(
        f"next: make frozen SYSTEM={args.name}; then the checklist of docs/NEW-SYSTEM.md, "
        '"What the stubs leave to you"'
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
