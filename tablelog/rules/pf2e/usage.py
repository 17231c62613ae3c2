"""Which runes may be etched onto which base items (usage tokens, PF2E-RUNE-2 and PF2E-RUNE-6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tablelog.rules.core import RuleViolation
from tablelog.rules.pf2e.catalogue import BaseItem, Rune, base_items, runes
from tablelog.text import Listed, Msg, Term, msg

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
            msg(
                "pf2e.fit.shield_only_reinforcing",
                "{base} is a shield: it takes only reinforcing runes, not {rune} ({form} "
                "{category} rune)",
                base=_base_name(base),
                rune=Term("pf2e.rune", rune.id),
                form=Term("pf2e.form", rune.form),
                category=Term("pf2e.category", rune.item),
            ),
        )
    if rune.item != base.category:
        raise RuleViolation(
            "PF2E-RUNE-6",
            msg(
                "pf2e.fit.wrong_category",
                "{rune} is {rune_category} rune; {base} is {base_category}",
                rune=Term("pf2e.rune", rune.id),
                rune_category=_a_category(rune.item),
                base=_base_name(base),
                base_category=_a_category(base.category),
            ),
        )
    held = list(held)
    clash = next((r for r in held if r.family == _EXCLUDED.get(rune.usage)), None)
    if clash is not None:
        raise RuleViolation(
            "PF2E-RUNE-6",
            msg(
                "pf2e.fit.holy_unholy",
                "{rune} cannot go on a weapon that holds a {clash} rune: holy and unholy runes "
                "exclude each other",
                rune=Term("pf2e.rune", rune.id),
                clash=Term("pf2e.rune", clash.id),
            ),
        )
    families = frozenset(r.family for r in held)
    if not USAGE_TESTS[rune.usage](base, families):
        raise RuleViolation(
            "PF2E-RUNE-6",
            msg(
                "pf2e.fit.usage",
                "{rune} needs usage {usage}; {base} ({kind}) does not qualify",
                rune=Term("pf2e.rune", rune.id),
                usage=Term("pf2e.usage", rune.usage),
                base=_base_name(base),
                kind=_describe(base),
            ),
        )


def fits(rune: Rune, base: BaseItem, held: Iterable[Rune] = ()) -> bool:
    """Return True if :func:`check_fits` accepts the rune on this item."""
    try:
        check_fits(rune, base, held)
    except RuleViolation:
        return False
    return True


def _base_name(base: BaseItem) -> Term:
    return Term("pf2e.base_item_name", base.name)


_A_CATEGORY = {
    "weapon": msg("pf2e.category.a_weapon", "a weapon"),
    "armor": msg("pf2e.category.an_armor", "an armor"),
    "shield": msg("pf2e.category.a_shield", "a shield"),
    "runestone": msg("pf2e.category.a_runestone", "a runestone"),
}
"""An item category with its English article (``a weapon``, ``an armor``)."""


def _a_category(word: str) -> Msg:
    known = _A_CATEGORY.get(word)
    if known is not None:
        return known
    article = "an" if word[:1] in "aeiou" else "a"
    return msg(
        "pf2e.category.with_article",
        "{article} {category}",
        article=article,
        category=Term("pf2e.category", word),
    )


def _describe(base: BaseItem) -> Msg:
    if base.category == "weapon":
        return msg(
            "pf2e.fit.weapon_kind",
            "{subtype} weapon, damage {damage}",
            subtype=Term("pf2e.subtype", base.subtype),
            damage=_damage(base.damage_types),
        )
    traits: Msg | Listed = (
        Listed(tuple(Term("pf2e.trait", t) for t in base.traits), "space")
        if base.traits
        else msg("pf2e.fit.no_traits", "no traits")
    )
    return msg(
        "pf2e.fit.armor_kind",
        "{armor_category} armor, {traits}",
        armor_category=Term("pf2e.armor_category", base.armor_category),
        traits=traits,
    )


def _damage(letters: tuple[str, ...]) -> Msg | Term:
    """Return damage type letters as ``B/P/S`` (``-`` for none)."""
    if not letters:
        return msg("pf2e.fit.no_damage", "-")
    first = Term("pf2e.damage_type", letters[0])
    if len(letters) == 1:
        return first
    return msg("pf2e.fit.damage_types", "{first}/{rest}", first=first, rest=_damage(letters[1:]))
