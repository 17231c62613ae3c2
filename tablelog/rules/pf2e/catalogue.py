"""The packaged pf2e catalogues: runes (with legacy aliases) and base items.

Read once from ``tablelog/rules/data/pf2e_runes.csv`` and ``pf2e_base_items.csv`` with
:mod:`importlib.resources`; money is turned into integer copper pieces (1 gp = 100 cp) on load.
"""

from __future__ import annotations

import csv
import functools
import io
from decimal import Decimal
from importlib import resources

import attrs

from tablelog.rules.core import RuleViolation, Unknown
from tablelog.text import msg

__all__ = [
    "Rune",
    "BaseItem",
    "runes",
    "base_items",
    "rune",
    "base_item",
    "resolve_rune",
    "POTENCY_FAMILIES",
    "cp_from_gp_text",
    "gp_from_cp",
]

POTENCY_FAMILIES = ("weapon-potency", "armor-potency")
"""Rune families whose tier is the item's potency value (PF2E-RUNE-1)."""


@attrs.frozen
class Rune:
    """One rune of the catalogue (one tier of a family).

    Attributes:
        id: Catalogue id (``"greater-striking"``).
        name: Display name used in item names (``"greater striking"``).
        form: ``"fundamental"`` or ``"property"``.
        family: Tiers of one rune share it (``"striking"``).
        tier: 1 for the base tier, higher for greater/major/... versions.
        item: What it is etched on: ``"weapon"``, ``"armor"`` or ``"shield"``.
        level: Item level of the rune.
        price_cp: Price in copper pieces.
        usage: Usage token (data/README.md), e.g. ``"melee-weapon"``.
        aliases: Legacy ids that name this rune (``("disrupting",)``).
    """

    id: str
    name: str
    form: str
    family: str
    tier: int
    item: str
    level: int
    price_cp: int
    rarity: str
    usage: str
    aliases: tuple[str, ...] = ()

    @property
    def is_fundamental(self) -> bool:
        """True for potency, striking, resilient and reinforcing runes."""
        return self.form == "fundamental"


@attrs.frozen
class BaseItem:
    """One base item of the catalogue.

    Attributes:
        category: ``"weapon"``, ``"armor"``, ``"shield"`` or ``"runestone"``.
        subtype: Weapons: ``"melee"`` or ``"ranged"``; else ``""``.
        armor_category: Armor: ``"unarmored"``, ``"light"``, ``"medium"``, ``"heavy"``.
        damage_types: Weapons: letters ``B``, ``P``, ``S``.
        traits: Trait tokens (``"thrown-10"``, ``"metal"`` …).
        price_cp: Price in copper pieces.
        hardness, hp, bt: Shields only (else None).
    """

    id: str
    name: str
    category: str
    subtype: str
    armor_category: str
    damage_types: tuple[str, ...]
    traits: tuple[str, ...]
    level: int
    price_cp: int
    hardness: int | None = None
    hp: int | None = None
    bt: int | None = None


def cp_from_gp_text(text: str) -> int:
    """Return the copper pieces in a gp amount written in decimal (``"0.2"`` -> 20).

    Raises:
        ValueError: if the amount is not a whole number of cp.
    """
    cp = Decimal(text) * 100
    if cp != cp.to_integral_value():
        raise ValueError(f"{text} gp is not a whole number of copper pieces")
    return int(cp)


def gp_from_cp(cp: int) -> int | float:
    """Return a cp amount as a JSON gp number: an int when whole (``115000`` -> ``1150``),
    else a float (``749850`` -> ``7498.5``)."""
    whole, rest = divmod(cp, 100)
    return whole if rest == 0 else cp / 100


def _rows(filename: str) -> list[dict[str, str]]:
    text = resources.files("tablelog.rules").joinpath("data", filename).read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _int_or_none(text: str) -> int | None:
    return int(text) if text.strip() else None


@functools.cache
def runes() -> dict[str, Rune]:
    """Return every rune of the catalogue by id (legacy aliases not included)."""
    out = {}
    for row in _rows("pf2e_runes.csv"):
        out[row["id"]] = Rune(
            id=row["id"],
            name=row["name"],
            form=row["form"],
            family=row["family"],
            tier=int(row["tier"]),
            item=row["item"],
            level=int(row["level"]),
            price_cp=cp_from_gp_text(row["price_gp"]),
            rarity=row["rarity"],
            usage=row["usage"],
            aliases=tuple(row["aliases"].split()),
        )
    return out


@functools.cache
def _aliases() -> dict[str, str]:
    return {alias: r.id for r in runes().values() for alias in r.aliases}


@functools.cache
def base_items() -> dict[str, BaseItem]:
    """Return every base item of the catalogue by id."""
    out = {}
    for row in _rows("pf2e_base_items.csv"):
        out[row["id"]] = BaseItem(
            id=row["id"],
            name=row["name"],
            category=row["category"],
            subtype=row["subtype"],
            armor_category=row["armor_category"],
            damage_types=tuple(row["damage_types"].split()),
            traits=tuple(row["traits"].split()),
            level=int(row["level"]),
            price_cp=cp_from_gp_text(row["price_gp"]),
            hardness=_int_or_none(row["hardness"]),
            hp=_int_or_none(row["hp"]),
            bt=_int_or_none(row["bt"]),
        )
    return out


def resolve_rune(name: str) -> str | None:
    """Return the catalogue id for a rune id or legacy alias, or None if unknown.

    ``"disrupting"`` -> ``"vitalizing"`` (the remaster renamed it); ids are matched after
    lower-casing and turning spaces into hyphens, so ``"Greater Striking"`` works too.

    Source: data/README.md (aliases column); PF2E-RUNE-5 names the disrupting rune.
    """
    key = name.strip().lower().replace(" ", "-")
    if key in runes():
        return key
    return _aliases().get(key)


def rune(name: str, rule_id: str = "UNKNOWN-NAME") -> Rune:
    """Return the rune called ``name`` (id or legacy alias).

    Raises:
        RuleViolation: ``rule_id`` (UNKNOWN-NAME) if no rune of the catalogue has that id or
            alias.
    """
    found = resolve_rune(name)
    if found is None:
        raise RuleViolation(
            rule_id,
            msg(
                "pf2e.rune.unknown", "unknown rune {name!r} (not in the rune catalogue)", name=name
            ),
            unknown=Unknown("rune", name),
        )
    return runes()[found]


def base_item(name: str, rule_id: str = "UNKNOWN-NAME") -> BaseItem:
    """Return the base item called ``name``.

    Raises:
        RuleViolation: ``rule_id`` if the base item catalogue has no such id.
    """
    found = base_items().get(name.strip().lower())
    if found is None:
        raise RuleViolation(
            rule_id,
            msg(
                "pf2e.base_item.unknown",
                "unknown base item {name!r} (not in the base item catalogue)",
                name=name,
            ),
            unknown=Unknown("base item", name),
        )
    return found
