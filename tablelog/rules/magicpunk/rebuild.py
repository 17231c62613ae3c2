"""Rebuild (リビルド): abilities, skills, items and spells.

Abilities are Body, Sense, Intellect, Magic (points); skills have ranks novice, expert, master
(1, 2, 3 acquisitions); money is in Mj (integer).
"""

from __future__ import annotations

from collections.abc import Mapping

from tablelog.rules import glossary
from tablelog.rules.core import Unknown, require
from tablelog.rules.magicpunk.text import abilities as abilities_text
from tablelog.rules.magicpunk.text import skills as skills_text
from tablelog.text import Listed, Term, msg

__all__ = [
    "ABILITIES",
    "BASE_POOL",
    "BASE_ACQUISITIONS",
    "MIN_ABILITY",
    "MAX_BASE",
    "MAX_EXTRA",
    "MJ_PER_POINT",
    "SKILL_RANKS",
    "skill_rank",
    "rank_words",
    "ability_key",
    "acquisitions",
    "check_conversions",
    "check_abilities",
    "check_skills",
    "item_refund",
    "check_spell_order",
    "pay_spell",
]

ABILITIES = ("body", "sense", "intellect", "magic")
BASE_POOL = 40
BASE_ACQUISITIONS = 5
MIN_ABILITY: dict[str, int] = {"body": 4, "sense": 4, "intellect": 4, "magic": 0}
MAX_BASE = 15
MAX_EXTRA = 5
MJ_PER_POINT = 1000
SKILL_RANKS: dict[str, int] = {"novice": 1, "expert": 2, "master": 3}


def skill_rank(text: str) -> str:
    """Return the rank name for ``novice``/``expert``/``master``, 1/2/3, or the rank's name in
    Japanese or Korean (ノーヴィス, 엑스퍼트: the glossary's ``magicpunk.rank``).

    Raises:
        RuleViolation: MP-REBUILD-5 for any other rank (its ``unknown``, of kind
            ``skill rank``, makes "did you mean" suggest ranks).
    """
    by_number = {str(v): k for k, v in SKILL_RANKS.items()}
    rank = by_number.get(text.strip()) or glossary.key_of("magicpunk.rank", text)
    rank = rank or text.strip().lower()
    require(
        rank in SKILL_RANKS,
        "MP-REBUILD-5",
        msg(
            "magicpunk.rebuild.unknown_rank",
            "unknown skill rank {text!r} (novice, expert, master or 1-3)",
            text=text,
        ),
        Unknown("skill rank", text),
    )
    return rank


def rank_words() -> list[str]:
    """Return every word a skill rank goes by (ids, then names in every language)."""
    return list(dict.fromkeys([*SKILL_RANKS, *glossary.words_of("magicpunk.rank")]))


def ability_key(text: str) -> str:
    """Return the ability ``text`` names: its id (``body``) or its name in any language (身体,
    【身体】, 신체); any other text comes back as given (``--immature`` keys)."""
    bare = text.strip().strip("【】")
    return glossary.key_of("magicpunk.ability", bare) or text


def acquisitions(skills: Mapping[str, str]) -> int:
    """Return the skill acquisitions of ``{skill: rank}`` (novice 1, expert 2, master 3).

    Source: magicpunk-optional-rules.ja.txt, スキルのリビルド ①; MP-REBUILD-5.
    """
    return sum(SKILL_RANKS[rank] for rank in skills.values())


def check_conversions(
    points: int, acq: int, to_skills: int, to_money: int, to_abilities: int, skills_to_money: int
) -> None:
    """Check the GM-permitted conversions of a rebuild.

    Args:
        points: The ability-point pool (sum of the four abilities).
        acq: The skill acquisitions unlearned.
        to_skills / to_money: Ability points above 40 turned into acquisitions / 1,000 Mj each.
        to_abilities / skills_to_money: Acquisitions above 5 turned into ability points / Mj.

    Raises:
        RuleViolation: MP-REBUILD-2 or MP-REBUILD-6 for a negative conversion or one that
            takes more than the excess.

    Source: リビルド, 能力値 ② and スキル ②; MP-REBUILD-2, MP-REBUILD-6.
    """
    excess_points, excess_acq = max(0, points - BASE_POOL), max(0, acq - BASE_ACQUISITIONS)
    require(
        min(to_skills, to_money) >= 0,
        "MP-REBUILD-2",
        msg("magicpunk.rebuild.negative_points", "a conversion is 0 or more points"),
    )
    require(
        to_skills + to_money <= excess_points,
        "MP-REBUILD-2",
        msg(
            "magicpunk.rebuild.points_excess",
            "only ability points above {base} convert: the pool is {points} ({excess} above "
            "{base}), asked {to_skills} to skills and {to_money} to money",
            base=BASE_POOL,
            points=points,
            excess=excess_points,
            to_skills=to_skills,
            to_money=to_money,
        ),
    )
    require(
        min(to_abilities, skills_to_money) >= 0,
        "MP-REBUILD-6",
        msg("magicpunk.rebuild.negative_acquisitions", "a conversion is 0 or more acquisitions"),
    )
    require(
        to_abilities + skills_to_money <= excess_acq,
        "MP-REBUILD-6",
        msg(
            "magicpunk.rebuild.acquisitions_excess",
            "only acquisitions above {base} convert: {acq} acquisitions ({excess} above "
            "{base}), asked {to_abilities} to abilities and {to_money} to money",
            base=BASE_ACQUISITIONS,
            acq=acq,
            excess=excess_acq,
            to_abilities=to_abilities,
            to_money=skills_to_money,
        ),
    )


def _base_range(value: int, minimum: int) -> tuple[int, int]:
    return max(minimum, value - MAX_EXTRA), min(MAX_BASE, value)


def check_abilities(
    new: Mapping[str, int], pool: int, minimums: Mapping[str, int] | None = None
) -> None:
    """Check a rebuilt set of abilities against the point pool and the limits.

    The first 40 points must fit each ability's minimum and maximum (15); the points above 40
    add at most 5 to any ability. A split exists iff every ability's base range is non-empty
    and 40 lies between the sums of the ranges' ends.

    Args:
        new: ``{ability: value}`` for all four abilities.
        pool: The ability-point pool after conversions.
        minimums: Per-ability minimums (the immature-ability option may lower them).

    Raises:
        RuleViolation: MP-REBUILD-1 if the values do not sum to the pool; MP-REBUILD-3 if a
            value is outside min..15 (pool <= 40) or the base 40 cannot fit; MP-REBUILD-4 if
            the points above 40 would put more than 5 into an ability.

    Source: リビルド, 能力値 ①③④; MP-REBUILD-1, MP-REBUILD-3, MP-REBUILD-4.
    """
    mins = {**MIN_ABILITY, **(minimums or {})}
    total = sum(new[a] for a in ABILITIES)
    shown = abilities_text({a: new[a] for a in ABILITIES})
    require(
        total == pool,
        "MP-REBUILD-1",
        msg(
            "magicpunk.rebuild.sum",
            "abilities must sum to the pool of {pool} points, got {total} ({abilities})",
            pool=pool,
            total=total,
            abilities=shown,
        ),
    )
    for a in ABILITIES:
        require(
            mins[a] <= new[a],
            "MP-REBUILD-3",
            msg(
                "magicpunk.rebuild.below_minimum",
                "{ability} {value} is below its minimum {minimum}",
                ability=Term("magicpunk.ability", a),
                value=new[a],
                minimum=mins[a],
            ),
        )
        cap = MAX_BASE + min(MAX_EXTRA, max(0, pool - BASE_POOL))
        require(
            new[a] <= cap,
            "MP-REBUILD-3" if cap == MAX_BASE else "MP-REBUILD-4",
            msg(
                "magicpunk.rebuild.above_cap",
                "{ability} {value} is above {cap} ({most}, +{extra} at most from points above "
                "{base})",
                ability=Term("magicpunk.ability", a),
                value=new[a],
                cap=cap,
                most=MAX_BASE,
                extra=MAX_EXTRA,
                base=BASE_POOL,
            ),
        )
    ranges = {a: _base_range(new[a], mins[a]) for a in ABILITIES}
    base = min(pool, BASE_POOL)
    low, high = sum(r[0] for r in ranges.values()), sum(r[1] for r in ranges.values())
    fits = all(r[0] <= r[1] for r in ranges.values()) and low <= base <= high
    rule = "MP-REBUILD-4" if pool > BASE_POOL else "MP-REBUILD-3"
    require(
        fits,
        rule,
        msg(
            "magicpunk.rebuild.cannot_place",
            "{abilities}: cannot place {placed} points within min..{most} with at most {extra} "
            "more per ability from the {above} above {base}",
            abilities=shown,
            placed=base,
            most=MAX_BASE,
            extra=MAX_EXTRA,
            above=pool - base,
            base=BASE_POOL,
        ),
    )


def check_skills(new: Mapping[str, str], acq: int) -> None:
    """Check that the re-learned skills use exactly the acquisitions available.

    Raises:
        RuleViolation: MP-REBUILD-7 if the acquisitions differ.

    Source: リビルド, スキル ③; MP-REBUILD-7.
    """
    used = acquisitions(new)
    require(
        used == acq,
        "MP-REBUILD-7",
        msg(
            "magicpunk.rebuild.skills_acquisitions",
            "re-learn skills with exactly {acq} acquisitions, got {used} ({skills})",
            acq=acq,
            used=used,
            skills=skills_text(new),
        ),
    )


def item_refund(creation: int, scenarios: int, spells_ordinary: int, converted: int = 0) -> int:
    """Return the money refunded when every item is removed: A + B - C (+ converted Mj).

    Args:
        creation: A, money at character creation (Mj).
        scenarios: B, money gained in scenarios (Mj).
        spells_ordinary: C, ordinary money spent on spells still learned (spell-only Mj
            excluded).
        converted: Mj from earlier rebuild conversions (counted as money gained).

    Source: リビルド, アイテム ②; MP-REBUILD-8.
    """
    return creation + scenarios + converted - spells_ordinary


def check_spell_order(known: Mapping[str, tuple[str, int]], gate: str, tier: int) -> None:
    """Check that a spell of ``tier`` in ``gate`` may be learned next.

    Args:
        known: ``{spell: (gate, tier)}`` already learned.

    Raises:
        RuleViolation: MP-REBUILD-11 if the tier is below 1 or tier - 1 of the gate is missing.

    Source: リビルド, 呪文 ②; MP-REBUILD-11.
    """
    require(
        tier >= 1,
        "MP-REBUILD-11",
        msg("magicpunk.spell.tier_below_1", "a tier is 1 or more, got {tier}", tier=tier),
    )
    tiers = sorted({t for g, t in known.values() if g == gate})
    known_text = (
        msg(
            "magicpunk.spell.known_tiers",
            "known tiers: {tiers}",
            tiers=Listed(tuple(tiers), "comma"),
        )
        if tiers
        else msg("magicpunk.spell.no_tier", "no tier known yet")
    )
    require(
        tier == 1 or tier - 1 in tiers,
        "MP-REBUILD-11",
        msg(
            "magicpunk.spell.tier_order",
            "gate {gate}: learn tier {before} before tier {tier} ({known})",
            gate=gate,
            before=tier - 1,
            tier=tier,
            known=known_text,
        ),
    )


def pay_spell(price: int, spell_money: int, money: int) -> tuple[int, int]:
    """Return ``(from spell-only money, from ordinary money)`` to pay ``price`` Mj.

    Raises:
        RuleViolation: MP-REBUILD-11 if the two together do not cover the price.

    Source: リビルド, 呪文 ②; MP-REBUILD-11 (spell-only money is used first).
    """
    require(
        price >= 0,
        "MP-REBUILD-11",
        msg("magicpunk.money.price_negative", "a price is 0 Mj or more, got {price}", price=price),
    )
    from_spell = min(price, spell_money)
    rest = price - from_spell
    require(
        rest <= money,
        "MP-REBUILD-11",
        msg(
            "magicpunk.spell.not_enough",
            "the spell costs {price} Mj; {spell_money} spell-only Mj and {money} Mj are not enough",
            price=price,
            spell_money=spell_money,
            money=money,
        ),
    )
    return from_spell, rest
