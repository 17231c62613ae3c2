"""Card commands: draw, play, charge an item, GM circulation (MP-CIRC-3).

A command that moves cards several times (a rest) applies each event it decides to a copy of
the state, so that it sees every earlier move (:mod:`tablelog.commands.magicpunk.rest`).
"""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.events.core import Event
from tablelog.events.magicpunk import CardsCharged, CardsCirculated, CardsDrawn, CardsPlayed
from tablelog.projections.core import State, random_seed, require
from tablelog.projections.magicpunk.entities import characters, deck_of, items
from tablelog.projections.magicpunk.table import character, check_rule_adopted, clock_now
from tablelog.projections.magicpunk.zones import (
    card_location,
    check_held,
    holder_cards,
    not_in_pile,
)
from tablelog.rules.core import Unknown, draw_index
from tablelog.rules.magicpunk import clock
from tablelog.rules.magicpunk.cards import (
    CARDS_RULE,
    check_once,
    plan_named_draw,
    plan_random_draw,
)
from tablelog.rules.magicpunk.text import cards as count_cards
from tablelog.rules.magicpunk.text import listing
from tablelog.text import Listed, msg, msgn

__all__ = ["Draw", "Play", "Charge", "Circulate", "circulation", "check_known"]


@attrs.frozen
class Draw:
    """``who`` draws ``count`` cards (at random) or the ``cards`` the table drew."""

    who: str
    count: int | None = None
    cards: tuple[str, ...] | None = None


@attrs.frozen
class Play:
    """``who`` plays ``cards`` from hand to the discard pile."""

    who: str
    cards: tuple[str, ...]


@attrs.frozen
class Charge:
    """``by`` moves ``cards`` from hand into ``item``."""

    item: str
    by: str
    cards: tuple[str, ...]


@attrs.frozen
class Circulate:
    """The GM makes ``holder`` circulate: every card, ``random`` cards, or the named ``cards``."""

    holder: str
    random: int | None = None
    cards: tuple[str, ...] | None = None


def check_known(state: State, cards: tuple[str, ...]) -> None:
    """Refuse cards that are not in this session's deck, or a card named twice (MP-CARDS)."""
    deck = deck_of(state)
    deck_cards = set(deck["_pile"]) | set(deck["discard"])
    deck_cards |= {c for ch in characters(state).values() for c in ch["hand"]}
    deck_cards |= {c for it in items(state).values() for c in it["cards"]}
    unknown = [c for c in cards if c not in deck_cards]
    require(
        not unknown,
        CARDS_RULE,
        msgn(
            "magicpunk.cards.not_in_deck",
            "{cards} is not in this session's deck",
            "{cards} are not in this session's deck",
            len(unknown),
            cards=listing(unknown),
        ),
    )
    check_once(cards)


def _check_held(state: State, holder: str, cards: tuple[str, ...]) -> None:
    check_known(state, cards)
    check_held(state, holder, cards)


@decider(Draw)
def decide_draw(state: State, c: Draw) -> list[Event]:
    """Decide a draw: the named cards must be in the draw pile; else pick at random."""
    character(state, c.who)
    deck = deck_of(state)
    if c.cards is not None:
        check_known(state, c.cards)
        require(
            c.count is None or c.count == len(c.cards),
            CARDS_RULE,
            msgn(
                "magicpunk.cards.count_mismatch",
                "COUNT is {count} but {n} card is named: {cards}",
                "COUNT is {count} but {n} cards are named: {cards}",
                len(c.cards),
                count=c.count,
                cards=Listed(c.cards, "space"),
            ),
        )
        for card in c.cards:
            require(
                card_location(state, card) in ("pile", "discard"),
                CARDS_RULE,
                not_in_pile(state, card),
            )
        plan = plan_named_draw(c.cards, deck["_pile"], deck["discard"])
    else:
        count = 1 if c.count is None else c.count
        require(
            count >= 1,
            CARDS_RULE,
            msg("magicpunk.cards.draw_none", "draw at least 1 card, not {count}", count=count),
        )
        plan = plan_random_draw(
            random_seed(state), deck["_pile"], deck["discard"], count, deck["draws_made"]
        )
    return [
        CardsDrawn(
            who=c.who,
            cards=plan.cards,
            draw_no=deck["draws_made"],
            named=c.cards is not None,
            reshuffle_at=plan.reshuffle_at,
        )
    ]


@decider(Play)
def decide_play(state: State, c: Play) -> list[Event]:
    """Decide playing cards: each must be in the player's hand."""
    character(state, c.who)
    require(c.cards, CARDS_RULE, msg("magicpunk.cards.play_none", "name at least one card to play"))
    _check_held(state, c.who, c.cards)
    return [CardsPlayed(who=c.who, cards=c.cards)]


@decider(Charge)
def decide_charge(state: State, c: Charge) -> list[Event]:
    """Decide charging an item: each card must be in the charger's hand."""
    character(state, c.by)
    require(
        c.item in state.items,
        "UNKNOWN-NAME",
        msg("magicpunk.unknown.item", "no item named {name!r}", name=c.item),
        Unknown("name", c.item),
    )
    require(
        c.cards, CARDS_RULE, msg("magicpunk.cards.charge_none", "name at least one card to charge")
    )
    _check_held(state, c.by, c.cards)
    return [CardsCharged(item=c.item, by=c.by, cards=c.cards)]


def circulation(
    state: State, holder: str, discarded: tuple[str, ...], rule: str, at_minute: int
) -> CardsCirculated:
    """Decide one circulation of ``discarded`` by ``holder`` (a character or item) at
    ``at_minute`` (absolute minutes), refused under ``rule``; ``state`` is not changed.

    The discarded cards go to the discard pile first, then as many are drawn (reshuffling
    the discard pile, those cards included, if the draw pile runs out): into the holder's
    hand, or for an item into its owner's hand (「…山札から引いて手札にする」: the item ends
    without them).

    Source: MP-CIRC-1, MP-CIRC-2, MP-CIRC-3.
    """
    deck = deck_of(state)
    plan = plan_random_draw(
        random_seed(state),
        deck["_pile"],
        [*deck["discard"], *discarded],
        len(discarded),
        deck["draws_made"],
    )
    item = items(state).get(holder)
    return CardsCirculated(
        holder=holder,
        discarded=discarded,
        drawn=plan.cards,
        draw_no=deck["draws_made"],
        rule=rule,
        at=clock.at_text(at_minute),
        reshuffle_at=plan.reshuffle_at,
        at_minute=at_minute,
        drawn_to=item["owner"] if item is not None else None,
    )


def _random_subset(state: State, held: list[str], count: int) -> tuple[str, ...]:
    pool, chosen = list(held), []
    made = deck_of(state)["draws_made"]
    for i in range(count):
        card = pool[draw_index(random_seed(state), len(pool), "magicpunk.circulate", made, i)]
        pool.remove(card)
        chosen.append(card)
    return tuple(chosen)


@decider(Circulate)
def decide_circulate(state: State, c: Circulate) -> list[Event]:
    """Decide a GM-forced circulation of all, ``random`` N, or the named cards (MP-CIRC-3)."""
    check_rule_adopted(state, "gm-circulation")
    held = holder_cards(state, c.holder)
    require(
        c.random is None or c.cards is None,
        "MP-CIRC-3",
        msg("magicpunk.circulate.several", "choose --all, --random N or --cards, not several"),
    )
    if c.cards is not None:
        _check_held(state, c.holder, c.cards)
        chosen = c.cards
    elif c.random is not None:
        require(
            1 <= c.random <= len(held),
            "MP-CIRC-3",
            msg(
                "magicpunk.circulate.too_many",
                "{holder} holds {cards}: cannot circulate {random} at random",
                holder=c.holder,
                cards=count_cards(len(held)),
                random=c.random,
            ),
        )
        chosen = _random_subset(state, held, c.random)
    else:
        chosen = tuple(held)
    require(
        chosen,
        "MP-CIRC-3",
        msg("magicpunk.circulate.none", "{holder} holds no cards to circulate", holder=c.holder),
    )
    return [circulation(state, c.holder, chosen, "MP-CIRC-3", clock_now(state))]
