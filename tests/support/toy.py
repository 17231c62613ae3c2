"""A toy rule system for testing the core without any game: counters with points.

Rules (test-only IDs): TOY-ADD-1 a counter name is new; TOY-SPEND-1 points never go below 0.
Registered as one more system by :func:`install` (no production code names it).
"""

from __future__ import annotations

import functools

import attrs
import click

from tablelog import systems
from tablelog.commands.core import decider
from tablelog.events.core import Event, event
from tablelog.projections.core import State, evolver, precondition, random_seed
from tablelog.rules.core import RuleViolation, draw_index, require
from tablelog.systems.declaration import System, handlers


@event("toy.CounterAdded", entities=("name",), rules=("TOY-ADD-1",))
@attrs.frozen
class CounterAdded(Event):
    name: str
    points: int


@event("toy.PointsSpent", entities=("name",), rules=("TOY-SPEND-1",))
@attrs.frozen
class PointsSpent(Event):
    name: str
    points: int
    breakdown: dict[str, int] = attrs.Factory(dict)


@event("toy.DieRolled", entities=("name",))
@attrs.frozen
class DieRolled(Event):
    name: str
    value: int


@attrs.frozen
class AddCounter:
    name: str
    points: int


@attrs.frozen
class SpendPoints:
    name: str
    points: int


@attrs.frozen
class RollDie:
    name: str


@attrs.frozen
class SpendBoth:
    """Spend from two counters in one command (two events: one action for undo)."""

    first: str
    second: str
    points: int


def init_state(state: State, options: dict) -> None:
    state.clock = {"rolls": 0}


@precondition(CounterAdded)
def _can_add(state: State, e: CounterAdded) -> None:
    require(e.name not in state.characters, "TOY-ADD-1", f"{e.name} exists")


@evolver(CounterAdded)
def _added(state: State, e: CounterAdded) -> None:
    state.characters[e.name] = {"hp": e.points, "hp_max": e.points, "_secret": 1}


@precondition(PointsSpent)
def _can_spend(state: State, e: PointsSpent) -> None:
    who = state.characters.get(e.name)
    if who is None or who["hp"] < e.points:  # the message is formatted only when it is raised
        have = "no counter" if who is None else f"{who['hp']} <"
        raise RuleViolation("TOY-SPEND-1", f"{e.name}: {have} {e.points}")


@evolver(PointsSpent)
def _spent(state: State, e: PointsSpent) -> None:
    who = state.characters.get(e.name)
    if who is not None:
        who["hp"] -= e.points


@precondition(DieRolled)
def _can_roll(state: State, e: DieRolled) -> None:
    require(e.name in state.characters, "UNKNOWN-NAME", f"no counter named {e.name!r}")


@evolver(DieRolled)
def _rolled(state: State, e: DieRolled) -> None:
    state.clock["rolls"] += 1
    who = state.characters.get(e.name)
    if who is not None:
        who["last_roll"] = e.value


@decider(AddCounter)
def decide_add(state: State, c: AddCounter) -> list[Event]:
    if c.name in state.characters:
        raise RuleViolation("TOY-ADD-1", f"{c.name!r} already exists")
    return [CounterAdded(c.name, c.points)]


@decider(SpendPoints)
def decide_spend(state: State, c: SpendPoints) -> list[Event]:
    who = state.characters.get(c.name)
    if who is None:
        raise RuleViolation("UNKNOWN-NAME", f"no counter named {c.name!r}")
    require(who["hp"] >= c.points, "TOY-SPEND-1", f"{c.name} has {who['hp']}, needs {c.points}")
    return [PointsSpent(c.name, c.points, {"before": who["hp"], "spent": c.points})]


@decider(RollDie)
def decide_roll(state: State, c: RollDie) -> list[Event]:
    require(c.name in state.characters, "UNKNOWN-NAME", f"no counter named {c.name!r}")
    return [DieRolled(c.name, 1 + draw_index(random_seed(state), 6, "roll", state.clock["rolls"]))]


@decider(SpendBoth)
def decide_spend_both(state: State, c: SpendBoth) -> list[Event]:
    return [
        *decide_spend(state, SpendPoints(c.first, c.points)),
        *decide_spend(state, SpendPoints(c.second, c.points)),
    ]


def _group() -> click.Group:
    """The ``tablelog toy`` group."""
    from tablelog.cli.core import appending

    group = click.Group("toy", help="Toy counters (tests only).")

    @group.command("add")
    @click.argument("name")
    @click.argument("points", type=int)
    @appending
    def add(ctx: click.Context, name: str, points: int) -> object:
        """Add a counter. Example: tablelog toy add a 5"""
        return AddCounter(name, points)

    @group.command("spend")
    @click.argument("name")
    @click.argument("points", type=int)
    @appending
    def spend(ctx: click.Context, name: str, points: int) -> object:
        """Spend points. Example: tablelog toy spend a 2"""
        return SpendPoints(name, points)

    @group.command("roll")
    @click.argument("name")
    @appending
    def roll(ctx: click.Context, name: str) -> object:
        """Roll a die. Example: tablelog toy roll a"""
        return RollDie(name)

    @group.command("spend-both")
    @click.argument("first")
    @click.argument("second")
    @click.argument("points", type=int)
    @appending
    def spend_both(ctx: click.Context, first: str, second: str, points: int) -> object:
        """Spend points from two counters at once. Example: tablelog toy spend-both a b 1"""
        return SpendBoth(first, second, points)

    return group


SYSTEM = System(
    name="toy",
    title="Toy",
    description="toy counters (tests only)",
    handlers=handlers(__name__),
    init_state=init_state,
    group=functools.cache(_group),
    code=(__name__,),
    rule_ids=frozenset({"TOY-ADD-1", "TOY-SPEND-1"}),
)


def install() -> None:
    """Make ``toy`` a system: one more registered :class:`System`, like the real four."""
    systems.register(SYSTEM)
