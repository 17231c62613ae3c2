"""Mana-card events: draws, plays, charging items, circulation.

Every event records the cards it moves (drawn cards included), so replay never draws. Draws,
plays and charges follow the card decisions of RULES.md's magicpunk preamble, which have no rule
ID, so they name none; a circulation names the one MP-CIRC clause that caused it.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event


@event("magicpunk.CardsDrawn", entities=("who",))
@attrs.frozen
class CardsDrawn(Event):
    """``who`` drew ``cards`` from the draw pile (``named``: the table reported them).

    ``draw_no`` is the number of active draws before this one (the randomness key);
    ``reshuffle_at`` the index before which the discard pile became the draw pile.
    """

    who: str
    cards: tuple[str, ...]
    draw_no: int
    named: bool = False
    reshuffle_at: int | None = None


@event("magicpunk.CardsPlayed", entities=("who",))
@attrs.frozen
class CardsPlayed(Event):
    """``who`` played ``cards`` from hand to the discard pile."""

    who: str
    cards: tuple[str, ...]


@event("magicpunk.CardsCharged", entities=("item", "by"))
@attrs.frozen
class CardsCharged(Event):
    """``by`` moved ``cards`` from hand into ``item`` (e.g. an A-battery)."""

    item: str
    by: str
    cards: tuple[str, ...]


@event(
    "magicpunk.CardsCirculated",
    version=2,
    entities=("holder", "drawn_to"),
    rules=("MP-CIRC-1", "MP-CIRC-2", "MP-CIRC-3"),
)
@attrs.frozen
class CardsCirculated(Event):
    """``holder`` (character or item) discarded ``discarded``; as many were drawn: ``drawn``.

    ``rule`` is MP-CIRC-1 (sleep), MP-CIRC-2 (dawn) or MP-CIRC-3 (GM); ``at`` the clock text and
    ``at_minute`` the same time in absolute minutes (the clock must have reached it).
    ``drawn_to`` (v2) is the character whose hand the drawn cards go to, or None for the holder
    itself: an item's cards are drawn into its owner's hand (「…山札から引いて手札にする」);
    a v1 record drew them back into the holder, and is upcast with None.
    """

    holder: str
    discarded: tuple[str, ...]
    drawn: tuple[str, ...]
    draw_no: int
    rule: str
    at: str = ""
    reshuffle_at: int | None = None
    at_minute: int | None = None
    drawn_to: str | None = None
