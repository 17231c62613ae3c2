"""Time commands: rest packages with sleep and dawn circulation (MP-REST-1), and dawn."""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.commands.magicpunk.cards import circulation
from tablelog.events.core import Event
from tablelog.events.magicpunk import DawnReached, RestTaken
from tablelog.projections.core import State, evolve, require
from tablelog.projections.magicpunk.entities import characters, items
from tablelog.projections.magicpunk.table import (
    adopts,
    character,
    check_rule_adopted,
    clock_now,
)
from tablelog.rules.magicpunk import clock
from tablelog.rules.magicpunk.text import listing
from tablelog.text import msg

__all__ = ["Rest", "Dawn"]


@attrs.frozen
class Rest:
    """A rest package (``10m``, ``1h``, ``8h``) for ``who`` (None: every character).

    ``sleep``: True (``--sleep``), False (``--no-sleep``) or None (the package's default).
    """

    package: str
    who: tuple[str, ...] | None = None
    sleep: bool | None = None


@attrs.frozen
class Dawn:
    """Advance the clock to the next 06:00 (items circulate, MP-CIRC-2)."""


def _circulations(work: State, kind: str, at: int, sleepers: tuple[str, ...]) -> list[Event]:
    """Decide the circulations of one moment, characters and items in the order added; none
    when the table did not adopt that circulation (``init --rules``)."""
    if kind == "sleep":
        holders = [n for n in work.characters if n in sleepers]
        rule, adopted = "MP-CIRC-1", adopts(work, "sleep-circulation")
    else:
        holders = list(work.items)
        rule, adopted = "MP-CIRC-2", adopts(work, "dawn-circulation")
    events: list[Event] = []
    for holder in holders if adopted else ():
        held = tuple(
            characters(work)[holder]["hand"] if kind == "sleep" else items(work)[holder]["cards"]
        )
        if held:
            events.append(circulation(work, holder, held, rule, at))
            evolve(work, events[-1])
    return events


def _moments(
    work: State, moments: list[clock.RestMoment], sleepers: tuple[str, ...]
) -> list[Event]:
    events: list[Event] = []
    for moment in moments:
        events += _circulations(work, moment.kind, moment.at, sleepers)
    return events


def _check_resting(who: tuple[str, ...] | None) -> None:
    """Refuse an empty list of who rests, a blank name, or a name given twice."""
    if who is None:
        return
    require(
        who,
        "MP-REST-1",
        msg(
            "magicpunk.rest.nobody",
            "nobody named to rest: name who rests, or leave --who out for every character",
        ),
    )
    require(
        all(name.strip() for name in who),
        "MP-REST-1",
        msg("magicpunk.rest.blank", "a blank name among who rests"),
    )
    twice = [n for n in dict.fromkeys(who) if who.count(n) > 1]
    require(
        not twice,
        "MP-REST-1",
        msg(
            "magicpunk.rest.twice",
            "{names} named twice among who rests: name each character once",
            names=listing(twice),
        ),
    )


@decider(Rest)
def decide_rest(state: State, c: Rest) -> list[Event]:
    """Decide a rest: advance the clock; sleep circulates sleepers' hands after 1 hour of
    sleep, and dawn (06:00) circulates every item, in clock order.

    Raises:
        RuleViolation: MP-REST-1 for an unknown package, a 10-minute rest with sleep, an empty
            list of who rests or a name given twice; UNKNOWN-NAME for an unknown character;
            MP-ADOPT when the table does not use rest packages.

    Source: 休息パッケージ, 魔煌の循環; MP-REST-1, MP-CIRC-1, MP-CIRC-2.
    """
    check_rule_adopted(state, "rests")
    sleep = clock.rest_sleeps(c.package, c.sleep)
    who = tuple(state.characters) if c.who is None else c.who
    _check_resting(c.who)
    for name in who:
        character(state, name)
    start = clock_now(state)
    minutes = clock.REST_PACKAGES[c.package]
    rest = RestTaken(package=c.package, who=who, sleep=sleep, start=start, end=start + minutes)
    work = state.copy()
    evolve(work, rest)
    moments = clock.rest_moments(start, minutes, sleep)
    return [rest, *_moments(work, moments, who if sleep else ())]


@decider(Dawn)
def decide_dawn(state: State, c: Dawn) -> list[Event]:
    """Decide dawn: the clock moves to the next 06:00 and every item circulates (MP-CIRC-2),
    its new cards drawn into its owner's hand; without MP-CIRC-2 adopted only the clock moves."""
    start = clock_now(state)
    reached = DawnReached(start=start, end=clock.next_dawn(start))
    work = state.copy()
    evolve(work, reached)
    return [reached, *_circulations(work, "dawn", reached.end, ())]
