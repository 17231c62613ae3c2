"""Which runes may be etched onto which base items (usage tokens, PF2E-RUNE-2 and PF2E-RUNE-6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tablelog.rules.core import RuleViolation
from tablelog.rules.pf2e.catalogue import BaseItem, Rune, base_items, runes

__all__ = ["check_fits", "fits", "is_thrown", "USAGE_TESTS", "usages_taken"]


def is_thrown(base: BaseItem) -> bool:
    """True if the weapon has a ``thrown-N`` trait (melee or ranged)."""
    return any(t.startswith("thrown") for t in base.traits)


def _melee(b: BaseItem) -> bool:
    return b.subtype == "melee"


def _deals(b: BaseItem, *letters: str) -> bool:
    return any(letter in b.damage_types for letter in letters)


def _armor_in(b: BaseItem, *categories: str) -> bool:
    return b.armor_category in categories


_Test = Callable[[BaseItem, frozenset[str]], bool]

USAGE_TESTS: dict[str, _Test] = {
    "weapon": lambda b, held: True,
    "melee-weapon": lambda b, held: _melee(b),
    "thrown-weapon": lambda b, held: is_thrown(b),
    "bludgeoning-weapon": lambda b, held: _deals(b, "B"),
    "slashing-melee-weapon": lambda b, held: _melee(b) and _deals(b, "S"),
    "piercing-or-slashing-weapon": lambda b, held: _deals(b, "P", "S"),
    "piercing-or-slashing-melee-weapon": lambda b, held: _melee(b) and _deals(b, "P", "S"),
    "melee-weapon-monk": lambda b, held: _melee(b) and "monk" in b.traits,
    "clan-dagger": lambda b, held: b.id == "clan-dagger",
    "weapon-without-holy": lambda b, held: "holy" not in held,
    "weapon-without-unholy": lambda b, held: "unholy" not in held,
    "armor": lambda b, held: True,
    "light-armor": lambda b, held: _armor_in(b, "light"),
    "heavy-armor": lambda b, held: _armor_in(b, "heavy"),
    "medium-or-heavy-armor": lambda b, held: _armor_in(b, "medium", "heavy"),
    "medium-or-heavy-metal-armor": lambda b, held: (
        _armor_in(b, "medium", "heavy") and "metal" in b.traits
    ),
    "light-or-medium-nonmetal-armor": lambda b, held: (
        _armor_in(b, "light", "medium") and "metal" not in b.traits
    ),
    "metal-armor": lambda b, held: "metal" in b.traits,
    "shield": lambda b, held: True,
}
"""Usage token -> test on (base item, families of the runes already on it)."""


def usages_taken(usage: str) -> set[str]:
    """Return the usage tokens whose runes every item of ``usage`` can take: ``usage`` itself
    and each token that holds for every catalogue base item ``usage`` holds for (a melee weapon
    takes ``weapon`` runes; a heavy armor ``medium-or-heavy-armor`` ones), no runes held yet;
    the catalogue's base items are the only ones an item is made from. A token no base item
    has takes its own and its category's universal ones.

    Args:
        usage: A rune usage token of the catalogue (``melee-weapon``).

    Returns:
        Usage tokens of the same item category (weapon, armor, shield).

    Source: pf2e-runes.ja.txt, ルーン (使用方法); PF2E-RUNE-6.
    """
    category = {r.usage: r.item for r in runes().values()}
    bases = [b for b in base_items().values() if b.category == category[usage]]

    def qualifying(token: str) -> set[str]:
        return {b.id for b in bases if USAGE_TESTS[token](b, frozenset())}

    mine = qualifying(usage) or {b.id for b in bases}
    return {
        token
        for token, item in category.items()
        if item == category[usage] and (token == usage or qualifying(token) >= mine)
    }


_EXCLUDED = {"weapon-without-holy": "holy", "weapon-without-unholy": "unholy"}
"""Usage token -> the rune family whose presence excludes the rune (PF2E-RUNE-6)."""


def check_fits(rune: Rune, base: BaseItem, held: Iterable[Rune] = ()) -> None:
    """Refuse a rune that may not be etched onto this kind of item.

    A runestone takes any one rune (its one-rune limit is PF2E-STONE-1, checked elsewhere).
    Explorer's clothing (armor category ``unarmored``) takes ``armor`` runes but fails every
    token that names light, medium or heavy armor.

    Args:
        rune: The rune to etch or transfer.
        base: The base item it would go on.
        held: The runes already on the item (for holy/unholy exclusion).

    Raises:
        RuleViolation: PF2E-RUNE-2 for any rune other than reinforcing on a shield;
            PF2E-RUNE-6 when the item type or usage token does not match (naming the holy or
            unholy rune that excludes the other).

    Source: pf2e-runes.ja.txt, ルーン (使用方法, 探検家の服, 盾); PF2E-RUNE-2, PF2E-RUNE-6.
    """
    if base.category == "runestone":
        return
    if base.category == "shield" and rune.item != "shield":
        raise RuleViolation(
            "PF2E-RUNE-2",
            f"{base.name} is a shield: it takes only reinforcing "
            f"runes, not {rune.id} ({rune.form} {rune.item} rune)",
        )
    if rune.item != base.category:
        raise RuleViolation(
            "PF2E-RUNE-6",
            f"{rune.id} is {_article(rune.item)} {rune.item} "
            f"rune; {base.name} is {_article(base.category)} {base.category}",
        )
    held = list(held)
    clash = next((r for r in held if r.family == _EXCLUDED.get(rune.usage)), None)
    if clash is not None:
        raise RuleViolation(
            "PF2E-RUNE-6",
            f"{rune.id} cannot go on a weapon that holds a "
            f"{clash.id} rune: holy and unholy runes exclude each other",
        )
    families = frozenset(r.family for r in held)
    if not USAGE_TESTS[rune.usage](base, families):
        raise RuleViolation(
            "PF2E-RUNE-6",
            f"{rune.id} needs usage {rune.usage}; {base.name} ({_describe(base)}) does not qualify",
        )


def fits(rune: Rune, base: BaseItem, held: Iterable[Rune] = ()) -> bool:
    """Return True if :func:`check_fits` accepts the rune on this item."""
    try:
        check_fits(rune, base, held)
    except RuleViolation:
        return False
    return True


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _describe(base: BaseItem) -> str:
    if base.category == "weapon":
        return f"{base.subtype} weapon, damage {'/'.join(base.damage_types) or '-'}"
    traits = " ".join(base.traits) or "no traits"
    return f"{base.armor_category} armor, {traits}"
