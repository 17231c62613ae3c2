"""Compound power: base power, tech power multiplier, SLv multiplier, displayed power.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ：基本攻撃ダメージ (複合威力, 基礎威力, 技・術威力倍率,
SLv威力倍率) and 攻撃ダメージ：技・術の表示威力; SAGA-ATK-4..7, SAGA-DISP-1.
"""

from __future__ import annotations

import math
from fractions import Fraction

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga.figures import Figure, Number, num_text
from tablelog.text import Msg, msg

__all__ = [
    "ARMED_TYPES",
    "SKILL_TYPES",
    "average_slv",
    "average_weapon_power",
    "base_power",
    "bonus_group",
    "compound_power",
    "displayed_power",
    "slv_multiplier",
    "tech_power_multiplier",
]

#: Weapon types whose base power uses weapon power × 0.03 and SLv × 0.02.
ARMED_TYPES = frozenset({"1h-sword", "2h-sword", "1h-gun", "2h-gun", "enemy"})
#: Weapon types whose base power uses (SLv + 5) × 0.05 (support-mech: Decision, like mechs).
SKILL_TYPES = frozenset(
    {"martial-arts", "monster", "melee-mech", "shooting-mech", "support-mech", "spell"}
)
_C = Fraction(1, 100)


def bonus_group(weapon_type: str, *, enemy_actor: bool = False, as_spell: bool = False) -> str:
    """Return which base-power row a tech uses: ``armed``, ``skill`` or ``inherited``.

    Args:
        weapon_type: The tech's weapon type.
        enemy_actor: The actor is an enemy: its techs count as enemy-only (armed row).
        as_spell: The tech is a spell or carries 'treated as spell' (術扱い).

    Raises:
        RuleViolation: SAGA-ATK-5 for an unknown weapon type.

    Source: saga-eb-damage.ja.txt, 基礎威力; SAGA-ATK-5.
    """
    if enemy_actor:
        return "skill" if as_spell else "armed"
    if weapon_type in ARMED_TYPES:
        return "armed"
    if weapon_type in SKILL_TYPES:
        return "skill"
    if weapon_type == "inherited":
        return "inherited"
    raise RuleViolation(
        "SAGA-ATK-5",
        msg("saga.weapon_type.unknown", "unknown weapon type {name!r}", name=weapon_type),
    )


def average_weapon_power(first: int, second: int) -> int:
    """Return the floored average weapon power of dual-wield, two-gun and sword×gun techs.

    Source: saga-eb-damage.ja.txt, 基礎威力 (平均威力、小数点以下切り捨て); SAGA-ATK-5.
    """
    return (first + second) // 2


def average_slv(sword_slv: Number, gun_slv: Number) -> Fraction:
    """Return the average of the 1H-sword and 1H-gun SLv for sword×gun techs (not floored).

    Source: saga-eb-damage.ja.txt, 基礎威力 (平均レベル); SAGA-ATK-5.
    """
    return Fraction(sword_slv + gun_slv) / 2


def _need(value: Number | None, what: Msg) -> Number:
    if value is None:
        raise RuleViolation(
            "SAGA-ATK-5",
            msg("saga.power.base_needs", "{what} is needed for this tech's base power", what=what),
        )
    return value


_WEAPON_POWER = msg("saga.what.the_weapon_power", "the weapon power")
_THE_SLV = msg("saga.what.the_slv", "the SLv")


def base_power(
    group: str, weapon_power: Number | None, slv: Number | None, ability: Number | None
) -> Figure:
    """Return the base power 20 × (1 + weapon power bonus + weapon type bonus + ability bonus).

    Args:
        group: ``armed``, ``skill`` or ``inherited`` (see :func:`bonus_group`).
        weapon_power: The weapon's power (needed for ``armed`` only).
        slv: The actor's skill level for the tech's weapon type (not needed for ``inherited``).
        ability: The actor's dependent stat, or None when the tech has no dependent ability.

    Returns:
        The exact base power (not yet ceiled) and its three bonuses.

    Raises:
        RuleViolation: SAGA-ATK-5 when a stat the formula needs is missing.

    Source: saga-eb-damage.ja.txt, 基礎威力; SAGA-ATK-5.
    """
    wp_bonus: Fraction = Fraction(0)
    wt_bonus: Fraction = Fraction(0)
    if group == "armed":
        wp_bonus = _need(weapon_power, _WEAPON_POWER) * 3 * _C
        wt_bonus = _need(slv, _THE_SLV) * 2 * _C
    elif group == "skill":
        wt_bonus = (_need(slv, _THE_SLV) + 5) * 5 * _C
    ab_bonus = Fraction(ability) * _C if ability is not None else Fraction(0)
    value = 20 * (1 + wp_bonus + wt_bonus + ab_bonus)
    return Figure(
        value,
        {
            "weapon_power_bonus": num_text(wp_bonus),
            "weapon_type_bonus": num_text(wt_bonus),
            "ability_bonus": num_text(ab_bonus),
            "base_power": num_text(value),
        },
    )


def tech_power_multiplier(
    power: int, *, release: bool = False, tech_power_effect: int = 0, tech_power_trait: int = 0
) -> Figure:
    """Return the tech power multiplier = base multiplier × awakening × role correction.

    Args:
        power: The tech power (技・術威力).
        release: The tech is 解き放つ: the base is (power + 10) × 0.05.
        tech_power_effect: The actor's tech-power effect value (awakening 覚醒補正).
        tech_power_trait: The actor's tech-power trait value (ロール補正; RULES.md says "roll").

    Source: saga-eb-damage.ja.txt, 技・術威力倍率; SAGA-ATK-6.
    """
    base = (power + 10 if release else power) * 5 * _C
    awakening = 1 + Fraction(tech_power_effect) * 2 / 10
    role = 1 + tech_power_trait * _C
    value = base * awakening * role
    return Figure(
        value,
        {
            "tech_base_multiplier": num_text(base),
            "awakening_correction": num_text(awakening),
            "role_correction": num_text(role),
            "tech_power_multiplier": num_text(value),
        },
    )


def slv_multiplier(slv: Number | None, *, inherited: bool = False) -> Figure:
    """Return the SLv power multiplier 1 + SLv / 30 (1 for inherited techs).

    Raises:
        RuleViolation: SAGA-ATK-7 if the SLv is missing for a non-inherited tech.

    Source: saga-eb-damage.ja.txt, SLv威力倍率; SAGA-ATK-7.
    """
    if inherited:
        return Figure(Fraction(1), {"slv_multiplier": "1"})
    if slv is None:
        raise RuleViolation(
            "SAGA-ATK-7",
            msg("saga.power.slv_needed", "the SLv is needed for this tech's SLv multiplier"),
        )
    value = 1 + Fraction(slv) / 30
    return Figure(value, {"slv_multiplier": num_text(value)})


def compound_power(base: Number, tech_multiplier: Number, slv_mult: Number) -> Figure:
    """Return the compound power ⌈base power⌉ × tech power multiplier × SLv multiplier.

    Source: saga-eb-damage.ja.txt, 複合威力; SAGA-ATK-4.
    """
    ceiled = math.ceil(Fraction(base))
    value = ceiled * Fraction(tech_multiplier) * Fraction(slv_mult)
    return Figure(value, {"base_power_ceiled": str(ceiled), "compound_power": num_text(value)})


def displayed_power(
    base: Number, tech_multiplier: Number, five_power_bonus: Number | None
) -> Figure:
    """Return the power shown in the tech list: ⌊base power × tech multiplier × five correction⌋.

    Args:
        base: The exact (unceiled) base power.
        tech_multiplier: The tech power multiplier.
        five_power_bonus: The five-element power bonus, or None for a tech without element.

    Source: saga-eb-damage.ja.txt, 技・術の表示威力; SAGA-DISP-1.
    """
    five = 1 + Fraction(five_power_bonus) if five_power_bonus is not None else Fraction(1)
    value = math.floor(Fraction(base) * Fraction(tech_multiplier) * five)
    return Figure(value, {"five_power_correction": num_text(five), "displayed_power": str(value)})
