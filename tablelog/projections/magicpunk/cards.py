"""Evolvers and preconditions of the mana-card events.

The evolvers move the cards each event records; the preconditions check that they are where the
event takes them from (MP-CARDS) and that the clock has reached a circulation's time.
"""

from __future__ import annotations

from tablelog.events.magicpunk import CardsCharged, CardsCirculated, CardsDrawn, CardsPlayed
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.magicpunk.entities import deck_of
from tablelog.projections.magicpunk.table import character, clock_now
from tablelog.projections.magicpunk.zones import (
    check_held,
    check_pile,
    give_to_holder,
    put_discard,
    take_from_holder,
    take_from_pile,
)
from tablelog.rules.core import Unknown
from tablelog.rules.magicpunk import clock
from tablelog.text import msg


@precondition(CardsDrawn)
def _check_drawn(state: State, e: CardsDrawn) -> None:
    character(state, e.who)
    check_pile(state, e.cards, e.reshuffle_at)


@evolver(CardsDrawn)
def _drawn(state: State, e: CardsDrawn) -> None:
    take_from_pile(state, e.cards, e.reshuffle_at)
    give_to_holder(state, e.who, e.cards)
    deck_of(state)["draws_made"] += 1


@precondition(CardsPlayed)
def _check_played(state: State, e: CardsPlayed) -> None:
    character(state, e.who)
    check_held(state, e.who, e.cards)


@evolver(CardsPlayed)
def _played(state: State, e: CardsPlayed) -> None:
    take_from_holder(state, e.who, e.cards)
    put_discard(state, e.cards)


@precondition(CardsCharged)
def _check_charged(state: State, e: CardsCharged) -> None:
    character(state, e.by)
    require(
        e.item in state.items,
        "UNKNOWN-NAME",
        msg("magicpunk.unknown.item", "no item named {name!r}", name=e.item),
        Unknown("name", e.item),
    )
    check_held(state, e.by, e.cards)


@evolver(CardsCharged)
def _charged(state: State, e: CardsCharged) -> None:
    take_from_holder(state, e.by, e.cards)
    give_to_holder(state, e.item, e.cards)


@precondition(CardsCirculated)
def _check_circulated(state: State, e: CardsCirculated) -> None:
    if e.at_minute is not None:
        require(
            clock_now(state) >= e.at_minute,
            e.rule,
            msg(
                "magicpunk.clock.circulates_later",
                "{holder} circulates at {at}, but the clock is at {now}",
                holder=e.holder,
                at=e.at,
                now=clock.at_msg(clock_now(state)),
            ),
        )
    check_held(state, e.holder, e.discarded)
    check_pile(state, e.drawn, e.reshuffle_at, e.discarded)
    if e.drawn_to is not None:
        character(state, e.drawn_to)


@evolver(CardsCirculated)
def _circulated(state: State, e: CardsCirculated) -> None:
    take_from_holder(state, e.holder, e.discarded)
    put_discard(state, e.discarded)
    take_from_pile(state, e.drawn, e.reshuffle_at)
    give_to_holder(state, e.holder if e.drawn_to is None else e.drawn_to, e.drawn)
    deck_of(state)["draws_made"] += 1
