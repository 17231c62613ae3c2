"""Poison, release damage, HP changes and floors, and LP changes.

Source: saga-eb-damage.ja.txt, 毒ダメージ, 解放ダメージ, 現在HPの変動, 現在LPの変動;
SAGA-POISON-1..2, SAGA-REL-1, SAGA-HP-1..5, SAGA-LP-1..4.
"""

from __future__ import annotations

import math
from fractions import Fraction

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga.figures import Figure, Number, num_text
from tablelog.text import msg, msgn

__all__ = [
    "POISON_RANDOM_RANGE",
    "hp_after_attack",
    "hp_after_heal",
    "hp_after_poison",
    "hp_floor",
    "check_floor_rate",
    "lp_after_blood",
    "lp_after_incapacitation",
    "lp_after_wipe",
    "poison_base",
    "poison_damage",
    "poison_random",
    "release_damage",
]

POISON_RANDOM_RANGE = (Fraction(95, 100), Fraction(105, 100))


def poison_base(max_hp: int, *, enemy: bool = False, intrinsic_hp: int | None = None) -> Figure:
    """Return the base poison damage: max HP × 0.3 (enemies: max HP × 100 / intrinsic HP × 0.3).

    Raises:
        RuleViolation: SAGA-POISON-2 if an enemy has no positive intrinsic HP.

    Source: saga-eb-damage.ja.txt, 毒ダメージ：基本毒ダメージ; SAGA-POISON-2.
    """
    if not enemy:
        value = Fraction(max_hp * 3, 10)
    elif not intrinsic_hp or intrinsic_hp <= 0:
        raise RuleViolation(
            "SAGA-POISON-2",
            msg("saga.poison.no_intrinsic_hp", "an enemy's poison damage needs its intrinsic HP"),
        )
    else:
        value = Fraction(max_hp * 100, intrinsic_hp) * Fraction(3, 10)
    return Figure(value, {"base_poison_damage": num_text(value)})


def poison_random(*, draw: Fraction | None = None, roll: Number | None = None) -> Fraction:
    """Return the poison random correction in [0.95, 1.05] from a draw (0.0001 steps) or a roll.

    Raises:
        RuleViolation: SAGA-POISON-2 if the roll lies outside [0.95, 1.05].

    Source: saga-eb-damage.ja.txt, 毒乱数補正; SAGA-POISON-2.
    """
    lo, hi = POISON_RANDOM_RANGE
    if roll is not None:
        if not lo <= Fraction(roll) <= hi:
            raise RuleViolation(
                "SAGA-POISON-2",
                msg(
                    "saga.poison.roll_outside",
                    "poison roll {roll} lies outside 0.95..1.05",
                    roll=num_text(roll),
                ),
            )
        return Fraction(roll)
    if draw is None:
        raise RuleViolation(
            "SAGA-POISON-2",
            msg("saga.poison.no_draw", "a poison random correction needs a draw or a roll"),
        )
    return lo + Fraction(int(draw * 1001), 10000)


def poison_damage(base: Number, *, waiting: bool, random: Number) -> Figure:
    """Return ⌈base poison damage × wait correction × random correction⌉.

    Args:
        base: The base poison damage. waiting: the character is waiting (defending, stunned,
            paralysed, petrified, ambushed, reserve released): wait correction 0.5.
        random: The poison random correction.

    Source: saga-eb-damage.ja.txt, 毒ダメージ計算式の基本構造, 毒ダメージ補正; SAGA-POISON-2.
    """
    wait = Fraction(1, 2) if waiting else Fraction(1)
    value = math.ceil(Fraction(base) * wait * Fraction(random))
    return Figure(
        value,
        {
            "base_poison_damage": num_text(base),
            "wait_correction": num_text(wait),
            "poison_random_correction": num_text(random),
            "poison_damage": str(value),
        },
    )


def release_damage(max_hp: int, hp: int, *, overdrive: bool = False) -> Figure:
    """Return the release (解き放つ) damage min(⌊max HP × 0.2⌋, HP − 1), 0 in an overdrive.

    Source: saga-eb-damage.ja.txt, 解放ダメージ; SAGA-REL-1.
    """
    if overdrive:
        return Figure(0, {"release_damage": "0 (overdrive)"})
    fifth = max_hp * 2 // 10
    value = min(fifth, hp - 1)
    return Figure(value, {"release_fifth_of_max_hp": str(fifth), "release_damage": str(value)})


def check_floor_rate(rate: Number) -> Number:
    """Return the HP floor rate if it is a percentage from 0 to 100.

    Raises:
        RuleViolation: SAGA-HP-1 naming the rate.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージによる現在HP減少 (HP下限); SAGA-HP-1.
    """
    if not 0 <= rate <= 100:
        raise RuleViolation(
            "SAGA-HP-1",
            msg(
                "saga.hp.floor_rate_range",
                "the HP floor rate is a percentage from 0 to 100, got {rate}",
                rate=num_text(rate),
            ),
        )
    return rate


def hp_floor(max_hp: int, *, enemy: bool = False, floor_rate: Number = 0) -> int:
    """Return the HP floor: 0 for allies, ⌈max HP × floor rate × 0.01⌉ for enemies.

    The seed's floor max HP × rate × 0.01 may be fractional; HP is whole, so it is rounded up
    (Decision: HP never goes below the stated fraction of max HP).

    Source: saga-eb-damage.ja.txt, 攻撃ダメージによる現在HP減少 (HP下限); SAGA-HP-1.
    """
    if not enemy:
        return 0
    return math.ceil(max_hp * Fraction(floor_rate) / 100)


def hp_after_attack(hp: int, damage: int, floor: int, *, support: bool = False) -> int:
    """Return max(HP − damage, HP floor), and never below 1 for a support action.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージによる現在HP減少; SAGA-HP-1.
    """
    return max(hp - damage, floor, 1 if support else floor)


def hp_after_poison(hp: int, poison: int) -> int:
    """Return max(HP − poison damage, 0).

    Source: saga-eb-damage.ja.txt, 毒ダメージによる現在HP減少; SAGA-HP-2.
    """
    return max(hp - poison, 0)


def hp_after_heal(hp: int, amount: int, max_hp: int) -> int:
    """Return min(HP + amount, max HP) (drain: amount = damage; full heal: amount = max HP).

    Source: saga-eb-damage.ja.txt, 回復系の追加効果による現在HP回復; SAGA-HP-5.
    """
    return min(hp + amount, max_hp)


def lp_after_blood(
    lp: int, lp_effect: int, cost: int, *, confused: bool = False, overdrive: bool = False
) -> Figure:
    """Return the LP after a Blood tech and the new LP-damage effect value.

    Outside an overdrive LP = max(LP − cost, 0) and LP 0 incapacitates; in an overdrive no LP
    is paid. The effect value grows by the cost after every use of a Blood tech (in an
    overdrive too) unless the tech took LP to 0. The value is
    ``{"lp", "lp_damage_effect", "incapacitated"}``.

    Args:
        lp: Current LP. lp_effect: the LP-damage effect value. cost: the tech's LP cost.
        confused: A confused character may have the tech picked for it even when cost ≥ LP.
        overdrive: The character takes part in an overdrive.

    Raises:
        RuleViolation: SAGA-LP-2 if the cost is not below the current LP (and not confused),
            in an overdrive too: such a tech cannot be chosen.

    Source: saga-eb-damage.ja.txt, LPダメージの追加効果による現在LP減少 (「LPダメージ性能値が
    現在LP以上のブラッド技は行動入力時に選択できません」), LPダメージ効果値 (updated
    「ブラッド技の使用後」); SAGA-LP-2, SAGA-LP-4.
    """
    if cost >= lp and not confused:
        raise RuleViolation(
            "SAGA-LP-2",
            msgn(
                "saga.blood.cost_over_lp",
                "the Blood tech costs {cost} LP and only {n} LP remains",
                "the Blood tech costs {cost} LP and only {n} LP remain",
                lp,
                cost=cost,
            ),
        )
    after = lp if overdrive else max(lp - cost, 0)
    effect = lp_effect if after == 0 else lp_effect + cost
    return Figure(
        {"lp": after, "lp_damage_effect": effect, "incapacitated": after == 0},
        {
            "lp_cost": "0 (overdrive)" if overdrive else str(cost),
            "lp": f"{lp} -> {after}",
            "lp_damage_effect": f"{lp_effect} -> {effect}",
        },
    )


def lp_after_incapacitation(lp: int) -> int:
    """Return the LP of an ally at 0 HP who became incapacitated: LP − 1 (not below 0).

    Source: saga-eb-damage.ja.txt, 戦闘不能による現在LP減少; SAGA-LP-1.
    """
    return max(lp - 1, 0)


def lp_after_wipe(lp: int, lp_effect: int, *, incapacitated: bool, lp_max: int) -> Figure:
    """Return the LP after a party wipe / retry: −1 unless incapacitated, then + LP-damage effect.

    The recovery is capped at max LP (Decision).

    Source: saga-eb-damage.ja.txt, 全滅・再挑戦による現在LP減少, LPダメージ効果値による現在LP回復;
    SAGA-LP-3, SAGA-LP-4.
    """
    lost = lp if incapacitated else max(lp - 1, 0)
    value = min(lost + lp_effect, lp_max)
    return Figure(
        value, {"lp_after_wipe": str(lost), "lp_recovered": str(value - lost), "lp": str(value)}
    )
