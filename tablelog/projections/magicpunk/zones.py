"""Card zones in the state: the draw pile, the discard pile, hands and items.

``state.deck`` is a :class:`~tablelog.projections.magicpunk.entities.Deck`: the draw pile is its
private ``_pile``. A card is in exactly one zone at any time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tablelog.projections.core import State
from tablelog.projections.magicpunk.entities import Deck, characters, deck_of, items
from tablelog.rules.core import RuleViolation, Unknown, require
from tablelog.rules.magicpunk.cards import CARDS_RULE
from tablelog.rules.magicpunk.text import cards as count_cards
from tablelog.text import Msg, Secret, msg

__all__ = [
    "new_deck",
    "holder_cards",
    "card_location",
    "card_hint",
    "not_in_pile",
    "check_held",
    "check_pile",
    "take_from_holder",
    "take_from_pile",
    "put_discard",
    "give_to_holder",
    "sync",
]

# Hands, items' cards and the draw pile are replaced, not changed in place; the discard pile,
# which grows all session long, is extended in place (a copy per move cost the whole pile). The
# change report of a command that moves cards several times still keeps each event's own "new"
# values: it copies the state's view after each event (tablelog.decision.applied).


def new_deck(cards: Iterable[str]) -> Deck:
    """Return the deck record of a new session: every card in the draw pile."""
    pile = list(cards)
    return {
        "size": len(pile),
        "draw_count": len(pile),
        "discard": [],
        "draws_made": 0,
        "_pile": pile,
    }


def sync(deck: Deck) -> None:
    """Refresh the visible count of the draw pile."""
    deck["draw_count"] = len(deck["_pile"])


def holder_cards(state: State, holder: str) -> list[str]:
    """Return the card list of a character's hand or an item (the live list).

    Raises:
        RuleViolation: UNKNOWN-NAME if there is no such character or item.
    """
    held = _held(state, holder)
    if held is None:
        raise RuleViolation(
            "UNKNOWN-NAME",
            msg("magicpunk.unknown.holder", "no character or item named {name!r}", name=holder),
            Unknown("name", holder),
        )
    return held


def card_location(state: State, card: str) -> str:
    """Return where ``card`` is: ``"pile"`` (the draw pile), ``"discard"`` (the discard pile),
    ``"hand"`` (a character's), ``"item"`` or ``"none"`` (not in this session's deck)."""
    return _place(state, card)[0]


def card_hint(state: State, card: str) -> Any:
    """Return ``it is …`` (``in the draw pile``, ``in Aria's hand``, ``in the item a-battery``,
    ``not in this session's deck``) as a sentence; a :class:`~tablelog.text.Secret` when that
    place is hidden from some seats (a hand, an item, the draw pile: SERVER.md §3), seen by the
    holder's seats (the draw pile: the GM's alone), blurred to :data:`HIDDEN_PLACE`."""
    kind, holder = _place(state, card)
    told = msg("magicpunk.cards.it_is", "it is {where}", where=_PLACES[kind](holder))
    if kind in ("pile", "hand", "item"):
        return Secret(told, holder, HIDDEN_PLACE)
    return told


HIDDEN_PLACE = msg("magicpunk.cards.hidden_place", "it is not where you can see it")
"""What a seat reads for a hidden card's place it may not see (a refusal at the server)."""

_PLACES = {
    "pile": lambda holder: msg("magicpunk.cards.in_pile", "in the draw pile"),
    "discard": lambda holder: msg("magicpunk.cards.in_discard", "in the discard pile"),
    "hand": lambda holder: msg("magicpunk.cards.in_hand", "in {name}'s hand", name=holder),
    "item": lambda holder: msg("magicpunk.cards.in_item", "in the item {name}", name=holder),
    "none": lambda holder: msg("magicpunk.cards.in_no_deck", "not in this session's deck"),
}


def _place(state: State, card: str) -> tuple[str, str | None]:
    """Where ``card`` is (:func:`card_location`'s kinds) and its holder (a hand's or item's)."""
    deck = deck_of(state)
    if card in deck["_pile"]:
        return "pile", None
    if card in deck["discard"]:
        return "discard", None
    for name, ch in characters(state).items():
        if card in ch["hand"]:
            return "hand", name
    for name, item in items(state).items():
        if card in item["cards"]:
            return "item", name
    return "none", None


def check_held(state: State, holder: str, cards: Iterable[str]) -> None:
    """Check that ``holder`` (character or item) holds every one of ``cards``.

    Raises:
        RuleViolation: UNKNOWN-NAME for an unknown holder; MP-CARDS for a card not held (the
            message says where it is).
    """
    held = holder_cards(state, holder)
    for card in cards:
        if card not in held:
            raise RuleViolation(
                CARDS_RULE,
                msg(
                    "magicpunk.cards.not_held",
                    "{card} is not held by {holder} ({where})",
                    card=card,
                    holder=holder,
                    where=card_hint(state, card),
                ),
            )


def check_pile(
    state: State, cards: Iterable[str], reshuffle_at: int | None, discarded: Iterable[str] = ()
) -> None:
    """Check that ``cards`` can be drawn as recorded: from the draw pile, then (from index
    ``reshuffle_at``) from the discard pile reshuffled in once the draw pile is empty.

    Args:
        discarded: Cards the same event puts on the discard pile before it draws (a
            circulation's), part of a reshuffle.

    Raises:
        RuleViolation: MP-CARDS if the reshuffle happens on a non-empty pile or a card is not
            in the pile it is drawn from.
    """
    deck = deck_of(state)
    pile, discard = list(deck["_pile"]), [*deck["discard"], *discarded]
    for i, card in enumerate(cards):
        if i == reshuffle_at:
            require(
                not pile,
                CARDS_RULE,
                msg(
                    "magicpunk.cards.reshuffle_too_soon",
                    "the discard pile is reshuffled only when the draw pile is empty, and it "
                    "holds {cards}",
                    cards=count_cards(len(pile)),
                ),
            )
            pile, discard = discard, []
        if card not in pile:
            raise RuleViolation(CARDS_RULE, not_in_pile(state, card))
        pile.remove(card)


def not_in_pile(state: State, card: str) -> Msg:
    """Return MP-CARDS's ``CARD is not in the draw pile (it is …)``."""
    return msg(
        "magicpunk.cards.not_in_pile",
        "{card} is not in the draw pile ({where})",
        card=card,
        where=card_hint(state, card),
    )


def take_from_holder(state: State, holder: str, cards: Iterable[str]) -> None:
    """Remove ``cards`` from a hand or item (total: a card or holder not there is skipped)."""
    held, gone = _held(state, holder), set(cards)
    if held is not None:
        _set_holder(state, holder, [c for c in held if c not in gone])


def give_to_holder(state: State, holder: str, cards: Iterable[str]) -> None:
    """Add ``cards`` to a hand or item (total: an unknown holder gets nothing)."""
    held = _held(state, holder)
    if held is not None:
        _set_holder(state, holder, [*held, *cards])


def _held(state: State, holder: str) -> list[str] | None:
    ch, item = characters(state).get(holder), items(state).get(holder)
    if ch is not None:
        return ch["hand"]
    return item["cards"] if item is not None else None


def _set_holder(state: State, holder: str, cards: list[str]) -> None:
    ch, item = characters(state).get(holder), items(state).get(holder)
    if ch is not None:
        ch["hand"] = cards
    elif item is not None:
        item["cards"] = cards


def take_from_pile(state: State, cards: Iterable[str], reshuffle_at: int | None) -> None:
    """Remove drawn cards from the draw pile, reshuffling the discard pile in at ``reshuffle_at``
    (total: a card not in the pile is skipped; :func:`check_pile` is the precondition)."""
    deck = deck_of(state)
    deck["_pile"] = list(deck["_pile"])
    for i, card in enumerate(cards):
        if i == reshuffle_at:
            deck["_pile"], deck["discard"] = [*deck["_pile"], *deck["discard"]], []
        if card in deck["_pile"]:
            deck["_pile"].remove(card)
    sync(deck)


def put_discard(state: State, cards: Iterable[str]) -> None:
    """Put ``cards`` on the discard pile, in order."""
    deck_of(state)["discard"].extend(cards)
