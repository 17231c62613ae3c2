"""Evolvers and preconditions of the table events: characters, items, time, turns and rounds.

HP (damage, healing) and briefing are in :mod:`tablelog.projections.magicpunk.combat`.
"""

from __future__ import annotations

from tablelog.events.magicpunk import (
    CharacterAdded,
    CoverTaken,
    DawnReached,
    ItemAdded,
    ItemReadied,
    RestTaken,
    RoundStarted,
    TurnTaken,
)
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.magicpunk.entities import Character, characters, items, table_of
from tablelog.rules.core import Unknown
from tablelog.rules.magicpunk import clock
from tablelog.rules.magicpunk.optional import check_adopted
from tablelog.text import Msg, msg

__all__ = [
    "adopts",
    "check_rule_adopted",
    "clock_now",
    "set_clock",
    "character",
    "check_free_name",
]


def adopts(state: State, rule: str) -> bool:
    """Return whether the table adopted the optional rule ``rule`` (``init --rules``)."""
    rules = table_of(state).get("rules")
    return rules is None or rule in rules


def check_rule_adopted(state: State, rule: str) -> None:
    """Refuse a command of the optional rule ``rule`` when the table did not adopt it.

    Raises:
        RuleViolation: MP-ADOPT naming the rule.
    """
    check_adopted(table_of(state).get("rules"), rule)


def clock_now(state: State) -> int:
    """Return the session clock in absolute minutes since day 1 00:00."""
    return clock.absolute(state.clock["day"], state.clock["minutes"])


def set_clock(state: State, total: int) -> None:
    """Set the session clock from absolute minutes."""
    state.clock["day"], state.clock["minutes"] = clock.from_absolute(total)


def _acted(acted: bool) -> Msg:
    if acted:
        return msg("magicpunk.cover.had_acted", "had acted")
    return msg("magicpunk.cover.had_not_acted", "had not acted")


def character(state: State, name: str) -> Character:
    """Return the character ``name`` (for deciders and preconditions; evolvers are total).

    Raises:
        RuleViolation: UNKNOWN-NAME if there is none.
    """
    require(
        name in state.characters,
        "UNKNOWN-NAME",
        msg("magicpunk.unknown.character", "no character named {name!r}", name=name),
        Unknown("name", name),
    )
    return characters(state)[name]


def check_free_name(state: State, name: str) -> None:
    """Refuse ``name`` when a character or item already has it (CORE-NAME)."""
    require(
        name not in state.characters and name not in state.items,
        "CORE-NAME",
        msg("magicpunk.name.taken", "a character or item named {name!r} already exists", name=name),
    )


@precondition(CharacterAdded)
def _check_character_added(state: State, e: CharacterAdded) -> None:
    check_free_name(state, e.name)


@evolver(CharacterAdded)
def _character_added(state: State, e: CharacterAdded) -> None:
    characters(state)[e.name] = {
        "hp": e.hp_max,
        "hp_max": e.hp_max,
        "hand": [],
        "body": e.body,
        "sense": e.sense,
        "intellect": e.intellect,
        "magic": e.magic,
        "skills": dict(e.skills),
        "money": e.money,
        "spell_money": 0,
        "money_at_creation": e.money,
        "money_from_scenarios": 0,
        "money_converted": 0,
        "spells": {},
        "items": [],
        "acted": False,
        "stays_acted": False,
        "lifestyle": None,
    }


@precondition(ItemAdded)
def _check_item_added(state: State, e: ItemAdded) -> None:
    owner = character(state, e.owner)
    check_free_name(state, e.item)
    require(
        e.price <= owner["money"],
        "MP-MONEY",
        msg(
            "magicpunk.money.item_too_dear",
            "{owner} has {money} Mj, {item} costs {price} Mj",
            owner=e.owner,
            money=owner["money"],
            item=e.item,
            price=e.price,
        ),
    )


@evolver(ItemAdded)
def _item_added(state: State, e: ItemAdded) -> None:
    owner = characters(state).get(e.owner)
    if owner is not None:
        owner["money"] -= e.price
        owner["items"] = [*owner["items"], e.item]
    items(state)[e.item] = {
        "owner": e.owner,
        "cards": [],
        "price": e.price,
        "gear_slots": e.gear_slots,
        "readied": False,
        "gear_active": None,
    }


@precondition(ItemReadied)
def _check_item_readied(state: State, e: ItemReadied) -> None:
    require(
        e.item in state.items,
        "UNKNOWN-NAME",
        msg("magicpunk.unknown.item", "no item named {name!r}", name=e.item),
        Unknown("name", e.item),
    )


@evolver(ItemReadied)
def _item_readied(state: State, e: ItemReadied) -> None:
    item = items(state).get(e.item)
    if item is not None:
        item["readied"], item["gear_active"] = True, e.gear_active


@precondition(RestTaken)
def _check_rest_taken(state: State, e: RestTaken) -> None:
    require(
        clock_now(state) == e.start,
        "MP-REST-1",
        msg(
            "magicpunk.clock.rest_moved",
            "the rest starts at {start}, but the clock is at {now}",
            start=clock.at_msg(e.start),
            now=clock.at_msg(clock_now(state)),
        ),
    )


@evolver(RestTaken)
def _rest_taken(state: State, e: RestTaken) -> None:
    set_clock(state, e.end)


@precondition(DawnReached)
def _check_dawn_reached(state: State, e: DawnReached) -> None:
    require(
        clock_now(state) == e.start,
        "MP-CIRC-2",
        msg(
            "magicpunk.clock.dawn_moved",
            "dawn is counted from {start}, but the clock is at {now}",
            start=clock.at_msg(e.start),
            now=clock.at_msg(clock_now(state)),
        ),
    )


@evolver(DawnReached)
def _dawn_reached(state: State, e: DawnReached) -> None:
    set_clock(state, e.end)


@precondition(CoverTaken)
def _check_cover_taken(state: State, e: CoverTaken) -> None:
    ch = character(state, e.coverer)
    character(state, e.covered)
    require(
        ch["acted"] == e.was_acted,
        "MP-COVER-1",
        msg(
            "magicpunk.cover.acted_changed",
            "the cover was decided when {coverer} {was} this round, but {coverer} {now}",
            coverer=e.coverer,
            was=_acted(e.was_acted),
            now=_acted(ch["acted"]),
        ),
    )


@evolver(CoverTaken)
def _cover_taken(state: State, e: CoverTaken) -> None:
    ch = characters(state).get(e.coverer)
    if ch is not None:
        ch["acted"] = True
        ch["stays_acted"] = ch["stays_acted"] or e.stays_acted


@precondition(TurnTaken)
def _check_turn_taken(state: State, e: TurnTaken) -> None:
    require(
        not character(state, e.name)["acted"],
        "MP-COVER-1",
        msg("magicpunk.turn.acted", "{name} has already acted this round", name=e.name),
    )


@evolver(TurnTaken)
def _turn_taken(state: State, e: TurnTaken) -> None:
    ch = characters(state).get(e.name)
    if ch is not None:
        ch["acted"] = True


@evolver(RoundStarted)
def _round_started(state: State, e: RoundStarted) -> None:
    table = table_of(state)
    table["round"] = e.number
    for ch in characters(state).values():
        ch["acted"], ch["stays_acted"] = ch["stays_acted"], False
