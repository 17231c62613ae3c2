"""Evolvers of the table events: characters, items, time, combat and briefing."""

from __future__ import annotations

from typing import Any

from tablelog.events.magicpunk import (
    BriefingEnded,
    BriefingStarted,
    CharacterAdded,
    CoverTaken,
    DamageTaken,
    DawnReached,
    Healed,
    ItemAdded,
    ItemReadied,
    PreparationTaken,
    RestTaken,
    RoundStarted,
    TurnTaken,
)
from tablelog.projections.core import State, evolver, require
from tablelog.rules.magicpunk import clock, combat

__all__ = ["table_of", "clock_now", "set_clock", "character"]


def table_of(state: State) -> dict[str, Any]:
    """Return the system's private table record (round, briefing, roll and leisure counters)."""
    return state.extra.setdefault("magicpunk", {})  # type: ignore[no-any-return]


def clock_now(state: State) -> int:
    """Return the session clock in absolute minutes since day 1 00:00."""
    return clock.absolute(state.clock["day"], state.clock["minutes"])


def set_clock(state: State, total: int) -> None:
    """Set the session clock from absolute minutes."""
    state.clock["day"], state.clock["minutes"] = clock.from_absolute(total)


def _when(total: int) -> str:
    return clock.clock_text(*clock.from_absolute(total))


def _acted(acted: bool) -> str:
    return "had acted" if acted else "had not acted"


def character(state: State, name: str) -> dict[str, Any]:
    """Return the character ``name``.

    Raises:
        RuleViolation: UNKNOWN-NAME if there is none.
    """
    require(name in state.characters, "UNKNOWN-NAME", f"no character named {name!r}")
    return state.characters[name]


@evolver(CharacterAdded)
def _character_added(state: State, e: CharacterAdded) -> None:
    require(e.name not in state.characters and e.name not in state.items, "CORE-NAME",
            f"a character or item named {e.name!r} already exists")
    state.characters[e.name] = {
        "hp": e.hp_max, "hp_max": e.hp_max, "hand": [], "body": e.body, "sense": e.sense,
        "intellect": e.intellect, "magic": e.magic, "skills": dict(e.skills),
        "money": e.money, "spell_money": 0, "money_at_creation": e.money,
        "money_from_scenarios": 0, "money_converted": 0, "spells": {}, "items": [],
        "acted": False, "stays_acted": False, "lifestyle": None,
    }


@evolver(ItemAdded)
def _item_added(state: State, e: ItemAdded) -> None:
    owner = character(state, e.owner)
    require(e.item not in state.items and e.item not in state.characters, "CORE-NAME",
            f"a character or item named {e.item!r} already exists")
    require(e.price <= owner["money"], "MP-MONEY",
            f"{e.owner} has {owner['money']} Mj, {e.item} costs {e.price} Mj")
    owner["money"] -= e.price
    owner["items"] = [*owner["items"], e.item]
    state.items[e.item] = {"owner": e.owner, "cards": [], "price": e.price,
                           "gear_slots": e.gear_slots, "readied": False, "gear_active": None}


@evolver(ItemReadied)
def _item_readied(state: State, e: ItemReadied) -> None:
    require(e.item in state.items, "UNKNOWN-NAME", f"no item named {e.item!r}")
    state.items[e.item].update(readied=True, gear_active=e.gear_active)


@evolver(RestTaken)
def _rest_taken(state: State, e: RestTaken) -> None:
    require(clock_now(state) == e.start, "MP-REST-1",
            f"the rest starts at {_when(e.start)}, but the clock is at {_when(clock_now(state))}")
    set_clock(state, e.end)


@evolver(DawnReached)
def _dawn_reached(state: State, e: DawnReached) -> None:
    require(clock_now(state) == e.start, "MP-CIRC-2",
            f"dawn is counted from {_when(e.start)}, but the clock is at "
            f"{_when(clock_now(state))}")
    set_clock(state, e.end)


@evolver(DamageTaken)
def _damage_taken(state: State, e: DamageTaken) -> None:
    ch = character(state, e.target)
    if e.covering is not None:
        character(state, e.covering)
        require(ch["acted"], "MP-COVER-1", f"{e.target} takes the hit for {e.covering} only "
                "after declaring cover (which leaves it acted)")
    ch["hp"] = combat.hp_after_damage(ch["hp"], e.amount, e.pull_punches)


@evolver(Healed)
def _healed(state: State, e: Healed) -> None:
    ch = character(state, e.target)
    ch["hp"] = combat.hp_after_heal(ch["hp"], ch["hp_max"], e.amount)


@evolver(CoverTaken)
def _cover_taken(state: State, e: CoverTaken) -> None:
    ch = character(state, e.coverer)
    character(state, e.covered)
    require(ch["acted"] == e.was_acted, "MP-COVER-1",
            f"the cover was decided when {e.coverer} {_acted(e.was_acted)} this round, but "
            f"{e.coverer} {_acted(ch['acted'])}")
    acted, stays = combat.cover_outcome(e.was_acted)
    ch["acted"] = acted
    ch["stays_acted"] = ch["stays_acted"] or stays


@evolver(TurnTaken)
def _turn_taken(state: State, e: TurnTaken) -> None:
    ch = character(state, e.name)
    require(not ch["acted"], "MP-COVER-1", f"{e.name} has already acted this round")
    ch["acted"] = True


@evolver(RoundStarted)
def _round_started(state: State, e: RoundStarted) -> None:
    table = table_of(state)
    table["round"] = e.number
    for ch in state.characters.values():
        ch["acted"], ch["stays_acted"] = ch["stays_acted"], False


@evolver(BriefingStarted)
def _briefing_started(state: State, e: BriefingStarted) -> None:
    table_of(state)["briefing"] = {"package": e.package, "by_actor": {}, "by_side": {}}


@evolver(PreparationTaken)
def _preparation_taken(state: State, e: PreparationTaken) -> None:
    briefing = table_of(state).get("briefing")
    require(briefing is not None, "MP-BRIEF-1", "no briefing is under way")
    assert briefing is not None
    key = f"{e.side}:{e.who}"
    combat.briefing_allows(briefing["package"], briefing["by_actor"].get(key, 0))
    briefing["by_actor"][key] = briefing["by_actor"].get(key, 0) + 1
    briefing["by_side"][e.side] = briefing["by_side"].get(e.side, 0) + 1


@evolver(BriefingEnded)
def _briefing_ended(state: State, e: BriefingEnded) -> None:
    require(table_of(state).get("briefing") is not None, "MP-BRIEF-1", "no briefing is under way")
    table_of(state)["briefing"] = None
