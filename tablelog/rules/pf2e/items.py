"""What a runed item is: name, level, price, potency, active and dormant property runes, shields.

An item is described by its base item and the runes etched on it in etch order (fundamental and
property ids mixed). Everything here is a pure function of those two.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tablelog.rules.pf2e.catalogue import POTENCY_FAMILIES, BaseItem, Rune, runes

__all__ = [
    "ItemFacts",
    "item_facts",
    "base_rarity",
    "item_name",
    "item_level",
    "item_price_cp",
    "potency",
    "tier_of",
    "split_property",
    "shield_stats",
    "REINFORCING",
]

REINFORCING: dict[int, tuple[tuple[int, int], tuple[int, int], tuple[int, int]]] = {
    1: ((3, 8), (44, 64), (22, 32)),
    2: ((3, 10), (52, 80), (26, 40)),
    3: ((3, 13), (64, 104), (32, 52)),
    4: ((5, 15), (80, 120), (40, 60)),
    5: ((5, 17), (84, 136), (42, 68)),
    6: ((7, 20), (108, 160), (54, 80)),
}
"""Reinforcing tier -> ((hardness +, max), (HP +, max), (BT +, max)).

Source: GM Core p. 231 reinforcing rune entry, as carried by the Foundry VTT pf2e system
(foundryvtt/pf2e, src/module/item/physical/runes.ts, FUNDAMENTAL_SHIELD_RUNE_DATA: hardness and
HP increase/max) and the GM Core text (BT increase/max: half of the HP figures).
"""

_SECONDARY = {"weapon": "striking", "armor": "resilient", "shield": "reinforcing"}


@attrs.frozen
class ItemFacts:
    """Everything derived from a base item and its etched runes.

    Attributes:
        name: e.g. ``"+1 striking flaming longsword"`` (PF2E-RUNE-3).
        level: Item level (PF2E-RUNE-5).
        price_cp: Price in copper pieces (PF2E-PRICE-1).
        potency, striking, resilient, reinforcing: Tier of each fundamental (0 = none).
        property: Active property rune ids, etch order.
        dormant: Property rune ids over the potency limit (PF2E-XFER-5). A runestone's rune is
            neither: the stone only holds it (it is in the item's ``runes``).
        invested_trait: Armor with runes (PF2E-INVEST-1).
        rarity: The base item's rarity, whatever its runes (PF2E-RUNE-4).
        hardness, hp_max, bt: Shields only, else None.
    """

    name: str
    level: int
    price_cp: int
    potency: int
    striking: int
    resilient: int
    reinforcing: int
    property: tuple[str, ...]
    dormant: tuple[str, ...]
    invested_trait: bool
    rarity: str = "common"
    hardness: int | None = None
    hp_max: int | None = None
    bt: int | None = None


def _runes(ids: Sequence[str]) -> list[Rune]:
    catalogue = runes()
    return [catalogue[i] for i in ids]


def tier_of(ids: Sequence[str], *families: str) -> int:
    """Return the tier of the first etched rune of the given families (0 if none)."""
    return next((r.tier for r in _runes(ids) if r.family in families), 0)


def potency(ids: Sequence[str]) -> int:
    """Return the item's potency value: the tier of its weapon or armor potency rune."""
    return tier_of(ids, *POTENCY_FAMILIES)


def split_property(ids: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split the property runes into (applying, dormant), each in etch order.

    The item holds as many working property runes as its potency value; the earliest etched
    keep the slots and the most recently etched go dormant first (PF2E-XFER-5 decision). Every
    etched property rune takes a slot. Of the runes in the slots, only the highest tier of each
    rune applies (the earliest of equal tiers): the others have no effect and are dormant too
    (PF2E-PROP-1).

    Source: pf2e-runes.ja.txt, ルーンの転送 (効果を停止) and 性質ルーン (同じルーンを複数彫刻された
    場合、最も高レベルのものが1つだけ適用される); PF2E-RUNE-2, PF2E-XFER-5, PF2E-PROP-1.
    """
    props = [r for r in _runes(ids) if not r.is_fundamental]
    slotted = props[: potency(ids)]
    best: dict[str, Rune] = {}
    for r in slotted:
        if r.family not in best or r.tier > best[r.family].tier:
            best[r.family] = r
    applying = sorted(best.values(), key=slotted.index)
    dormant = list(props)
    for r in applying:
        dormant.remove(r)
    return tuple(r.id for r in applying), tuple(r.id for r in dormant)


def item_name(base: BaseItem, ids: Sequence[str]) -> str:
    """Return the item's name: potency, other fundamentals, active property runes, base item.

    Dormant runes do not appear. A runestone is named after the rune it holds.

    Source: pf2e-runes.ja.txt, ルーン (名前の順); PF2E-RUNE-3.
    """
    held = _runes(ids)
    if base.category == "runestone":
        return " ".join([r.name for r in held] + [base.name])
    parts = []
    level = potency(ids)
    if level:
        parts.append(f"+{level}")
    secondary = _SECONDARY.get(base.category)
    parts += [r.name for r in held if r.family == secondary]
    active, _ = split_property(ids)
    parts += [runes()[i].name for i in active]
    return " ".join(parts + [base.name])


def item_level(base: BaseItem, ids: Sequence[str]) -> int:
    """Return the highest level of the base item and every etched rune (dormant included).

    Source: pf2e-runes.ja.txt, ルーン (アイテムのレベル); PF2E-RUNE-5.
    """
    return max([base.level] + [r.level for r in _runes(ids)])


def item_price_cp(base: BaseItem, ids: Sequence[str]) -> int:
    """Return the item's price in cp.

    Weapons and armor cost the sum of their rune prices, or the base price if higher; shields
    and runestones cost the base price plus their runes. Dormant runes count (still etched).

    Source: printed price tables (not in the seed); PF2E-PRICE-1, PF2E-XFER-5.
    """
    total = sum(r.price_cp for r in _runes(ids))
    if base.category in ("shield", "runestone"):
        return base.price_cp + total
    return max(base.price_cp, total) if ids else base.price_cp


def shield_stats(base: BaseItem, tier: int) -> tuple[int, int, int]:
    """Return (hardness, HP, BT) of a shield with a reinforcing rune of ``tier`` (0: none).

    Each value rises by the rune's increase up to its maximum; a value already above the
    maximum is kept.

    Source: GM Core reinforcing rune (see :data:`REINFORCING`); PF2E-RUNE-1.
    """
    values = (base.hardness or 0, base.hp or 0, base.bt or 0)
    if not tier:
        return values
    pairs = zip(values, REINFORCING[tier], strict=True)
    raised = [min(v + inc, max(v, cap)) for v, (inc, cap) in pairs]
    return raised[0], raised[1], raised[2]


def base_rarity(base: BaseItem) -> str:
    """Return the rarity a runed item keeps: its base item's (runes do not change it).

    Source: pf2e-runes.ja.txt, ルーン (同じバルクと同じ稀少度); PF2E-RUNE-4.
    """
    return next((t for t in ("unique", "rare", "uncommon") if t in base.traits), "common")


def item_facts(base: BaseItem, ids: Sequence[str]) -> ItemFacts:
    """Return every derived fact of the item (see :class:`ItemFacts`).

    Args:
        base: The base item.
        ids: Rune ids etched on it, in etch order (active and dormant).
    """
    stone = base.category == "runestone"
    active, dormant = ((), ()) if stone else split_property(ids)
    reinforcing = tier_of(ids, "reinforcing")
    shield = shield_stats(base, reinforcing) if base.category == "shield" else (None,) * 3
    return ItemFacts(
        name=item_name(base, ids),
        level=item_level(base, ids),
        price_cp=item_price_cp(base, ids),
        potency=potency(ids),
        striking=tier_of(ids, "striking"),
        resilient=tier_of(ids, "resilient"),
        reinforcing=reinforcing,
        property=active,
        dormant=dormant,
        invested_trait=base.category == "armor" and bool(ids),
        rarity=base_rarity(base),
        hardness=shield[0],
        hp_max=shield[1],
        bt=shield[2],
    )
