"""The pf2e state records, typed: a character and an item (docs/pf2e.md, "State records").

The records stay plain dicts (``state --json``, snapshots and replay read them as they are);
these TypedDicts let ``mypy --strict`` check every key the pf2e code reads or writes, and the
contract test checks every record of the frozen logs against them.

- :class:`Character` (``state.characters``): a crafter or wearer, added by ``CharacterAdded``:
  level, Crafting rank and magical crafting (PF2E-ETCH-1), the formulas known (PF2E-FORMULA-1),
  what they spent (PF2E-PRICE-1, PF2E-XFER-2).
- :class:`Item` (``state.items``): a weapon, armor, shield or runestone, added by ``ItemAdded``:
  its etched runes and what an :class:`~tablelog.events.pf2e.ItemSheet` derives from them
  (PF2E-RUNE-1..6, PF2E-PRICE-1), who holds it, whether it is invested (PF2E-INVEST-1) and the
  long etch in progress (:class:`Etching`, PF2E-ETCH-2). Seed: pf2e-runes.ja.txt.
"""

# No ``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from evaluated
# annotations (Python 3.11), and the contract test reads ``__required_keys__``.
from typing import NotRequired, TypedDict, cast

from tablelog.projections.core import State

__all__ = ["Character", "Etching", "Item", "characters", "items"]


class Character(TypedDict):
    """A character: ``spent_gp`` is the JSON number of ``_spent_cp`` (private, exact cp)."""

    level: int
    crafting: str
    """Crafting rank: one of ``rules.pf2e.RANKS`` as the event recorded it."""
    magical_crafting: bool
    formulas: list[str]
    """Rune ids, in the order learned."""
    spent_gp: int | float
    _spent_cp: int


class Etching(TypedDict):
    """A long etch in progress (PF2E-ETCH-2): the rune id and the crafter's name."""

    rune: str
    by: str


class Item(TypedDict):
    """An item: what its last :class:`~tablelog.events.pf2e.ItemSheet` recorded, and more.

    The sheet's fields (``name`` … ``invested_trait``) are None, and ``category`` too, only on
    an item of a v1 ``ItemAdded`` whose base item today's catalogue no longer knows, until an
    etch or transfer assigns a sheet (the legacy path, docs/pf2e.md). ``hardness``, ``hp_max``
    and ``bt`` appear once a shield's sheet is assigned.
    """

    base: str
    category: str | None
    """``weapon``, ``armor``, ``shield`` or ``runestone`` (the base item catalogue's)."""
    owner: str | None
    name: str | None
    level: int | None
    price_gp: int | float | None
    potency: int | None
    striking: int | None
    resilient: int | None
    reinforcing: int | None
    property: list[str] | None
    """Active property rune ids, etch order."""
    dormant: list[str] | None
    """Etched property rune ids with no effect (PF2E-XFER-5, PF2E-PROP-1)."""
    rarity: str | None
    invested_trait: bool | None
    runes: list[str]
    """Every etched rune id, etch order."""
    invested: bool
    etching: Etching | None
    hardness: NotRequired[int]
    hp_max: NotRequired[int | None]
    bt: NotRequired[int | None]


def characters(state: State) -> dict[str, Character]:
    """Return the session's characters by name (the records themselves, not copies)."""
    return cast(dict[str, Character], state.characters)


def items(state: State) -> dict[str, Item]:
    """Return the session's items by id (the records themselves, not copies)."""
    return cast(dict[str, Item], state.items)
