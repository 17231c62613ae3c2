"""Power correction and damage reduction: resistances, the target's stat, five elements.

Source: saga-eb-damage.ja.txt, 威力補正, 威力軽減ボーナス, 五行ボーナス, ダメージ軽減量;
SAGA-ATK-3, SAGA-ATK-8, SAGA-ATK-9, SAGA-ATK-10.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga.figures import Figure, Number, num_text
from tablelog.rules.saga.text import term
from tablelog.text import msg

__all__ = [
    "base_attack_damage",
    "damage_reduction",
    "effective_attribute",
    "five_element_bonus",
    "five_element_power_bonus",
    "floor_minus_sqrt",
    "power_correction",
    "resistance_void",
]


def resistance_void(attributes: Sequence[str], *, ignore_defense: bool = False) -> bool:
    """Return whether the target's attribute resistance is void for a tech.

    Void for attributeless techs (only ``none``, or no attribute at all) and for techs with
    'ignore defense' (防御力無効).

    Source: saga-eb-damage.ja.txt, 威力軽減ボーナス; SAGA-ATK-8.
    """
    return ignore_defense or all(a == "none" for a in attributes)


def effective_attribute(
    attributes: Sequence[str], resistances: Mapping[str, int]
) -> tuple[str, int]:
    """Return the effective attribute: the tech attribute the target resists least, and that value.

    Ties go to the first attribute in the tech's order (Decision). ``none`` is skipped.

    Args:
        attributes: The tech's attack attributes, in source order.
        resistances: The target's resistance by attribute (slash … elec).

    Raises:
        RuleViolation: SAGA-ATK-8 if the target has no resistance for an attribute.

    Source: saga-eb-damage.ja.txt, 威力軽減ボーナス (有効属性); SAGA-ATK-8.
    """
    best: tuple[str, int] | None = None
    for attr in attributes:
        if attr == "none":
            continue
        if attr not in resistances:
            raise RuleViolation(
                "SAGA-ATK-8",
                msg(
                    "saga.resist.needed",
                    "the target's {attribute} resistance is needed",
                    attribute=term("attribute", attr),
                ),
            )
        if best is None or resistances[attr] < best[1]:
            best = (attr, resistances[attr])
    if best is None:
        raise RuleViolation(
            "SAGA-ATK-8",
            msg("saga.resist.attributeless", "an attributeless tech has no effective attribute"),
        )
    return best


def five_element_power_bonus(lv_self: int, lv_battle: int) -> Fraction:
    """Return (Lv_self + Lv_battle) × 0.01 if the sum ≥ 0, else × 0.05.

    Source: saga-eb-damage.ja.txt, 五行ボーナス (五行威力ボーナス); SAGA-ATK-9.
    """
    total = lv_self + lv_battle
    return Fraction(total, 100) if total >= 0 else Fraction(total * 5, 100)


def five_element_bonus(element: str | None, lv_self: int, lv_battle: int, lv_target: int) -> Figure:
    """Return the five-element bonus = power bonus − resistance bonus (0 without an element).

    Args:
        element: The tech's element (wood fire earth metal water) or None.
        lv_self: The actor's level in that element; lv_battle: the battle's; lv_target: the
            target's.

    Source: saga-eb-damage.ja.txt, 五行ボーナス; SAGA-ATK-9.
    """
    if element is None:
        return Figure(Fraction(0), {"five_element_bonus": "0"})
    power = five_element_power_bonus(lv_self, lv_battle)
    resist = Fraction(lv_target, 100)
    value = power - resist
    return Figure(
        value,
        {
            "five_element": element,
            "five_levels": f"self {lv_self}, battle {lv_battle}, target {lv_target}",
            "five_power_bonus": num_text(power),
            "five_resistance_bonus": num_text(resist),
            "five_element_bonus": num_text(value),
        },
    )


def power_correction(
    resistance: Number | None, target_stat: Number | None, five_bonus: Number
) -> Figure:
    """Return 1 − (attribute resistance bonus + resistance ability bonus) + five-element bonus.

    Args:
        resistance: The effective resistance, or None when resistance is void (bonus 0).
        target_stat: The target's dependent stat (体 or 集), or None if the tech names none.
            It applies even when resistance is void.
        five_bonus: The five-element bonus.

    Source: saga-eb-damage.ja.txt, 威力補正; SAGA-ATK-8.
    """
    attr_bonus = Fraction(resistance) * 5 / 1000 if resistance is not None else Fraction(0)
    stat_bonus = Fraction(target_stat) * 25 / 10000 if target_stat is not None else Fraction(0)
    value = 1 - (attr_bonus + stat_bonus) + Fraction(five_bonus)
    return Figure(
        value,
        {
            "attribute_resistance_bonus": num_text(attr_bonus),
            "resistance_ability_bonus": num_text(stat_bonus),
            "power_correction": num_text(value),
        },
    )


def damage_reduction(resistance: Number | None) -> Figure:
    """Return the damage reduction √(effective resistance × 3) as its radicand.

    The value is the radicand ``max(0, 3R)`` (0 when resistance is void): the reduction itself
    is its square root, kept exact by :func:`base_attack_damage`. A negative resistance
    (weakness) gives 0 (Decision in RULES.md).

    Source: saga-eb-damage.ja.txt, ダメージ軽減量; SAGA-ATK-10.
    """
    radicand = max(Fraction(0), Fraction(resistance) * 3) if resistance is not None else Fraction(0)
    root = math.isqrt(radicand.numerator // radicand.denominator)
    exact = Fraction(root * root) == radicand
    text = str(root) if exact else f"√{num_text(radicand)} (≈{math.sqrt(radicand):.6f})"
    return Figure(radicand, {"damage_reduction": text})


def floor_minus_sqrt(x: Number, radicand: Number) -> int:
    """Return ⌊x − √radicand⌋ exactly, for a rational x and a rational radicand ≥ 0."""
    x, radicand = Fraction(x), Fraction(radicand)
    n = math.floor(x - math.isqrt(math.floor(radicand)))

    def fits(m: int) -> bool:  # m ≤ x − √r  ⇔  x − m ≥ 0 and (x − m)² ≥ r
        return x - m >= 0 and (x - m) ** 2 >= radicand

    while not fits(n):
        n -= 1
    while fits(n + 1):
        n += 1
    return n


def base_attack_damage(compound: Number, correction: Number, reduction_radicand: Number) -> Figure:
    """Return ⌊base attack damage⌋ = ⌊max(0, compound power × power correction − reduction)⌋.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージ：基本攻撃ダメージ; SAGA-ATK-3 (floor: SAGA-ATK-2).
    """
    scaled = Fraction(compound) * Fraction(correction)
    value = max(0, floor_minus_sqrt(scaled, reduction_radicand))
    return Figure(
        value,
        {
            "compound_x_correction": num_text(scaled),
            "base_attack_damage_floored": str(value),
        },
    )
