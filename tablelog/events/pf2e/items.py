"""Pathfinder 2e events about characters and items: who joins, what they know, hold and invest.

:class:`ItemSheet` is how an event records an item as it left it: its runes and every fact the
rules derive from them, so that replay assigns them and never consults today's catalogues.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event

__all__ = [
    "ItemSheet",
    "CharacterAdded",
    "FormulaLearned",
    "ItemAdded",
    "ItemGiven",
    "ItemInvested",
    "RuneActivated",
]


@attrs.frozen
class ItemSheet:
    """An item as an event left it: its runes and what they make it.

    Attributes:
        runes: Every etched rune id, etch order (active, dormant, a runestone's one rune).
        name: e.g. ``"+1 striking flaming longsword"`` (PF2E-RUNE-3).
        level: Item level (PF2E-RUNE-5).
        price_cp: Price in copper pieces (PF2E-PRICE-1).
        potency, striking, resilient, reinforcing: Tier of each fundamental rune (0 = none).
        property: Active property rune ids, etch order (PF2E-RUNE-2).
        dormant: Property rune ids over the potency limit (PF2E-XFER-5).
        rarity: The base item's rarity (PF2E-RUNE-4).
        invested_trait: The item must be invested for its runes to work (PF2E-INVEST-1).
        hardness, hp_max, bt: Shields only (PF2E-RUNE-1), else None.
    """

    runes: tuple[str, ...]
    name: str
    level: int
    price_cp: int
    potency: int
    striking: int
    resilient: int
    reinforcing: int
    property: tuple[str, ...]
    dormant: tuple[str, ...]
    rarity: str
    invested_trait: bool
    hardness: int | None = None
    hp_max: int | None = None
    bt: int | None = None


@event("pf2e.CharacterAdded", entities=("name",))
@attrs.frozen
class CharacterAdded(Event):
    """A character joined: level, Crafting rank, and whether they can craft magic items."""

    name: str
    level: int
    crafting: str = "expert"
    magical_crafting: bool = True


@event("pf2e.FormulaLearned", entities=("character",), rules=("PF2E-FORMULA-1",))
@attrs.frozen
class FormulaLearned(Event):
    """A character has a rune's formula; ``bought`` formulas are paid (``price_cp``)."""

    character: str
    rune: str
    level: int
    price_cp: int
    bought: bool = False


@event("pf2e.ItemAdded", version=2, entities=("item", "owner"))
@attrs.frozen
class ItemAdded(Event):
    """An item from the base item catalogue entered play (held by ``owner``, or nobody).

    v2 records the base item's ``category`` and the new item's ``sheet`` (no runes yet); a v1
    record has neither (None: the evolver's legacy path reads today's catalogue).
    """

    item: str
    base: str
    owner: str | None = None
    category: str | None = None
    sheet: ItemSheet | None = None


@event("pf2e.ItemGiven", entities=("item", "giver", "to"))
@attrs.frozen
class ItemGiven(Event):
    """An item changed hands (an etcher must hold the item); an investment ends."""

    item: str
    giver: str | None
    to: str


@event("pf2e.ItemInvested", entities=("item", "by"), rules=("PF2E-INVEST-1",))
@attrs.frozen
class ItemInvested(Event):
    """A character invested an item with the invested trait (its runes now work)."""

    item: str
    by: str


@event("pf2e.RuneActivated", entities=("item", "by"), rules=("PF2E-ACT-1",))
@attrs.frozen
class RuneActivated(Event):
    """A rune's activated ability was used, as for activating a magic item."""

    item: str
    rune: str
    by: str
    note: str = ""
