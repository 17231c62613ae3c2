"""Magic Punk's entity records, typed: the shape of each ``characters`` and ``items`` value.

The records stay plain dicts at run time (``state --json`` and snapshots are unchanged); these
TypedDicts let ``mypy --strict`` check every key the system's code reads or writes, and the
contract test checks every record of every frozen log against them (``SYSTEM.records``).

- :class:`Character` (``state.characters``): a PC, built by ``CharacterAdded``. Its HP (core
  rules; MP-PULL-1 stops pulled punches at 0), its mana-card hand (魔煌カード, MP-CARDS), the four
  abilities and the skills ``{name: rank}`` (MP-REBUILD-1..7), its money in Mj with the rebuild
  bookkeeping (A, B and conversions: MP-REBUILD-2, MP-REBUILD-8), the spells learned
  (:class:`Spell`, MP-REBUILD-10..11), the ids of its items, the round's ``acted`` and
  ``stays_acted`` flags (MP-COVER-1) and its shared residence (:class:`Lifestyle` or None,
  同居, MP-COHAB-1).
- :class:`Item` (``state.items``): an item a character bought, built by ``ItemAdded``. Its owner,
  the mana cards charged into it (MP-CIRC-2), its price, its Ma-GEAR magic-slot occupancy and
  whether it is readied with its Ma-GEAR effect (MP-GEAR-1).

Every key of both is present in every record (no ``NotRequired`` key): the evolvers build each
record whole. Keys and values are described in docs/magicpunk.md (State).

The system's other records are typed here too: :class:`Deck` (``state.deck``: the piles of the
session's mana cards, MP-CARDS) and :class:`Table` (``state.extra["magicpunk"]``, private: the
combat round, the briefing under way (:class:`Briefing`, MP-BRIEF-1), the roll counter, the
shared leisure events taken (MP-COHAB-2) and the optional rules adopted, MP-ADOPT).
"""

# No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose annotations
# are strings takes its ``NotRequired`` keys for required ones (``__required_keys__``).
from typing import Any, NotRequired, TypedDict, cast

from tablelog.projections.core import State

__all__ = [
    "Spell",
    "Lifestyle",
    "Character",
    "Item",
    "Deck",
    "Briefing",
    "Table",
    "RECORDS",
    "characters",
    "items",
    "deck_of",
    "set_deck",
    "table_of",
]


class Spell(TypedDict):
    """A spell a character learned (``SpellLearned``; MP-REBUILD-10..11): its gate and tier,
    its price and how it was paid (Mj from money and from spell-only money; ``free``: learned
    without charge, refunded as paid)."""

    gate: str
    tier: int
    price: int
    from_money: int
    from_spell_money: int
    free: bool


class Lifestyle(TypedDict):
    """A shared residence (``ResidenceShared``; 同居, MP-COHAB-1): region and residence with
    their living points (this PC's share of the residence's) and the other PCs living there."""

    region: str
    residence: str
    region_points: int
    residence_points: int
    cohabitants: list[str]


class Character(TypedDict):
    """A PC (see the module docstring); ``skills`` maps a skill to ``novice``, ``expert`` or
    ``master``; money is in Mj."""

    hp: int
    hp_max: int
    hand: list[str]
    body: int
    sense: int
    intellect: int
    magic: int
    skills: dict[str, str]
    money: int
    spell_money: int
    money_at_creation: int
    money_from_scenarios: int
    money_converted: int
    spells: dict[str, Spell]
    items: list[str]
    acted: bool
    stays_acted: bool
    lifestyle: Lifestyle | None


class Item(TypedDict):
    """An item (see the module docstring): ``gear_slots`` is None for an item without Ma-GEAR;
    ``gear_active`` is None until it is readied."""

    owner: str
    cards: list[str]
    price: int
    gear_slots: int | None
    readied: bool
    gear_active: bool | None


class Deck(TypedDict):
    """The session's mana cards (MP-CARDS): ``size`` (cards in the deck), ``draw_count`` (cards
    in the draw pile), ``discard`` (oldest first), ``draws_made`` (active draws so far, the
    randomness key) and the private ``_pile`` (the draw pile, canonical order)."""

    size: int
    draw_count: int
    discard: list[str]
    draws_made: int
    _pile: list[str]


class Briefing(TypedDict):
    """A briefing under way (MP-BRIEF-1): its package and the preparations taken, by
    ``"side:who"`` and by side."""

    package: str
    by_actor: dict[str, int]
    by_side: dict[str, int]


class Table(TypedDict):
    """The system's private table record: the combat round, the briefing under way (or None)
    and its per-actor limit once one began, the checks rolled (the randomness key), the shared
    leisure events taken per household (MP-COHAB-2) and the optional rules adopted."""

    round: int
    briefing: Briefing | None
    briefing_limit: NotRequired[int]
    rolls: int
    leisure: dict[str, list[int]]
    rules: list[str]


RECORDS: tuple[type, ...] = (Character, Item)
"""The system's record types, declared as ``SYSTEM.records``."""


def characters(state: State) -> dict[str, Character]:
    """Return ``state.characters``, typed: the live ``{name: Character}`` dict."""
    return cast("dict[str, Character]", state.characters)


def items(state: State) -> dict[str, Item]:
    """Return ``state.items``, typed: the live ``{id: Item}`` dict."""
    return cast("dict[str, Item]", state.items)


def deck_of(state: State) -> Deck:
    """Return ``state.deck``, typed (the live record).

    Raises:
        AssertionError: Before ``init_state`` made the deck (a programming error).
    """
    assert state.deck is not None
    return cast("Deck", state.deck)


def set_deck(state: State, deck: Deck) -> None:
    """Make ``deck`` the session's deck record."""
    state.deck = cast("dict[str, Any]", deck)


def table_of(state: State) -> Table:
    """Return the system's private table record (the live record; ``init_state`` makes it)."""
    return cast("Table", state.extra.setdefault("magicpunk", {}))
