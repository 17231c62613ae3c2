"""Evolvers of the mana-card events."""

from __future__ import annotations

from tablelog.events.magicpunk import CardsCharged, CardsCirculated, CardsDrawn, CardsPlayed
from tablelog.projections.core import State, evolver, require
from tablelog.projections.magicpunk.zones import (
    give_to_holder,
    put_discard,
    take_from_holder,
    take_from_pile,
)
from tablelog.rules.magicpunk import clock


@evolver(CardsDrawn)
def _drawn(state: State, e: CardsDrawn) -> None:
    require(e.who in state.characters, "UNKNOWN-NAME", f"no character named {e.who!r}")
    take_from_pile(state, e.cards, e.reshuffle_at)
    give_to_holder(state, e.who, e.cards)
    state.deck["draws_made"] += 1  # type: ignore[index]


@evolver(CardsPlayed)
def _played(state: State, e: CardsPlayed) -> None:
    require(e.who in state.characters, "UNKNOWN-NAME", f"no character named {e.who!r}")
    take_from_holder(state, e.who, e.cards)
    put_discard(state, e.cards)


@evolver(CardsCharged)
def _charged(state: State, e: CardsCharged) -> None:
    require(e.by in state.characters, "UNKNOWN-NAME", f"no character named {e.by!r}")
    require(e.item in state.items, "UNKNOWN-NAME", f"no item named {e.item!r}")
    take_from_holder(state, e.by, e.cards)
    give_to_holder(state, e.item, e.cards)


@evolver(CardsCirculated)
def _circulated(state: State, e: CardsCirculated) -> None:
    if e.at_minute is not None:
        now = clock.absolute(state.clock["day"], state.clock["minutes"])
        require(now >= e.at_minute, e.rule, f"{e.holder} circulates at {e.at}, but the clock "
                f"is at {clock.clock_text(state.clock['day'], state.clock['minutes'])}")
    take_from_holder(state, e.holder, e.discarded)
    put_discard(state, e.discarded)
    take_from_pile(state, e.drawn, e.reshuffle_at)
    give_to_holder(state, e.holder, e.drawn)
    state.deck["draws_made"] += 1  # type: ignore[index]
