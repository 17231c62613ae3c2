"""Attack correction factors: state, action, ally-only, combo rate and random.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ：攻撃ダメージ補正; SAGA-ATK-11..16.
"""

from __future__ import annotations

from fractions import Fraction

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga.figures import Figure, Number, num_text
from tablelog.text import msg

__all__ = [
    "action_correction",
    "ally_only_correction",
    "combo_correction",
    "guard_rate",
    "random_factor",
    "random_range",
    "state_correction",
]

_C = Fraction(1, 100)


def state_correction(
    power_effect_self: int,
    defense_effect_target: int,
    *,
    angry: bool = False,
    anger_trait: int = 0,
    target_tech_power_up: bool = False,
) -> Figure:
    """Return the state correction = buff × anger × awakening recoil.

    Args:
        power_effect_self: The actor's attack effect value (spell-power effect value for
            spells and techs treated as spells; the caller picks).
        defense_effect_target: The target's defense effect value.
        angry: The actor is angry (怒り): anger = 1.2 + anger-power trait × 0.01.
        anger_trait: The actor's anger-power trait value.
        target_tech_power_up: The target is in tech-power-up state (recoil 1.2).

    Source: saga-eb-damage.ja.txt, 状態補正; SAGA-ATK-12.
    """
    buff = 1 + (power_effect_self - defense_effect_target) * _C
    anger = Fraction(12, 10) + anger_trait * _C if angry else Fraction(1)
    recoil = Fraction(12, 10) if target_tech_power_up else Fraction(1)
    value = buff * anger * recoil
    return Figure(
        value,
        {
            "buff_correction": num_text(buff),
            "anger_correction": num_text(anger),
            "awakening_recoil_correction": num_text(recoil),
            "state_correction": num_text(value),
        },
    )


def guard_rate(
    *,
    protect_power: int | None = None,
    weapon_guard_rate: int = 0,
    earth_shield: bool = False,
    guard_trait_target: int = 0,
    target_guard_trait_self: int = 0,
) -> Figure:
    """Return the guard rate: the protect tech's power, else the target's self guard rate.

    Self guard rate = weapon guard rate (enemies: their own) + trait guard rate, or 99 + trait
    guard rate in earth-shield state; trait guard rate = the target's guard-rate trait + the
    actor's target-guard-rate trait.

    Source: saga-eb-damage.ja.txt, ガード補正 (ガード率, 自己ガード率, 特性ガード率); SAGA-ATK-13.
    """
    if protect_power is not None:
        return Figure(protect_power, {"guard_rate": f"{protect_power} (protect)"})
    trait = guard_trait_target + target_guard_trait_self
    own = 99 if earth_shield else weapon_guard_rate
    value = own + trait
    return Figure(value, {"guard_rate": f"{value} ({own} + trait {trait})"})


def action_correction(
    *,
    defending: bool = False,
    defend_void: str | None = None,
    defense_resist_trait: int = 0,
    guard: bool = False,
    rate: int = 0,
) -> Figure:
    """Return the action correction = defend × guard.

    Args:
        defending: The target's action is Defend.
        defend_void: Why defense resistance is void anyway (placed object, stunned, paralysed,
            petrified, ambushed, ignore-defense), or None.
        defense_resist_trait: The target's defense-resistance trait value.
        guard: A guard triggers; rate: the guard rate (clamped to 0..100).

    Source: saga-eb-damage.ja.txt, 行動補正, 防御補正, ガード補正; SAGA-ATK-13.
    """
    if defending and defend_void is None:
        defend = Fraction(7, 10) - defense_resist_trait * _C
    else:
        defend = Fraction(1)
    guard_c = 1 - max(0, min(rate, 100)) * _C if guard else Fraction(1)
    value = defend * guard_c
    parts = {"defend_correction": num_text(defend), "guard_correction": num_text(guard_c)}
    if defending and defend_void is not None:
        parts["defend_void"] = defend_void
    parts["action_correction"] = num_text(value)
    return Figure(value, parts)


def ally_only_correction(
    *,
    slayer: bool = False,
    formation_attack_rate: int = 0,
    formation_defense_rate: int = 0,
    attack_trait: int = 0,
    defense_trait: int = 0,
    instant_death_class: bool = False,
) -> Figure:
    """Return the ally-only correction = race slayer × formation × trait damage corrections.

    Enemy parties have no formation and no traits: pass 0 for their side.

    Source: saga-eb-damage.ja.txt, 味方専用補正; SAGA-ATK-14.
    """
    slay = Fraction(12, 10) if slayer else Fraction(1)
    formation = (1 + formation_attack_rate * _C) * (1 - formation_defense_rate * _C)
    attack = 1 + (attack_trait + (300 if instant_death_class else 0)) * _C
    defense = 1 - defense_trait * _C
    value = slay * formation * attack * defense
    return Figure(
        value,
        {
            "slayer_correction": num_text(slay),
            "formation_correction": num_text(formation),
            "attack_trait_correction": num_text(attack),
            "defense_trait_correction": num_text(defense),
            "ally_only_correction": num_text(value),
        },
    )


def combo_correction(combo_rate: Number | None) -> Figure:
    """Return the combo-rate correction: rate just before the tech × 0.01, or 1 outside a combo.

    Source: saga-eb-damage.ja.txt, 連携率補正; SAGA-ATK-15.
    """
    value = Fraction(combo_rate) * _C if combo_rate is not None else Fraction(1)
    return Figure(value, {"combo_correction": num_text(value)})


def random_range(width: int) -> tuple[Fraction, Fraction]:
    """Return the inclusive bounds 1 ∓ width × 0.01 of a tech's random correction (0 → 5).

    Source: saga-eb-damage.ja.txt, 技・術乱数補正; SAGA-ATK-16.
    """
    w = width or 5
    return 1 - w * _C, 1 + w * _C


def random_factor(
    width: int, *, draw: Fraction | None = None, roll: Number | None = None
) -> Fraction:
    """Return a random correction from a uniform draw in [0, 1), or check a reported roll.

    A draw picks one of the 0.0001 steps from the lower to the upper bound, both included
    (Decision: a readable four-decimal factor).

    Raises:
        RuleViolation: SAGA-ATK-16 if ``roll`` lies outside the width, or neither is given.

    Source: saga-eb-damage.ja.txt, 技・術乱数補正; SAGA-ATK-16.
    """
    lo, hi = random_range(width)
    if roll is not None:
        if not lo <= Fraction(roll) <= hi:
            raise RuleViolation(
                "SAGA-ATK-16",
                msg(
                    "saga.roll.outside",
                    "roll {roll} lies outside {low}..{high}",
                    roll=num_text(roll),
                    low=num_text(lo),
                    high=num_text(hi),
                ),
            )
        return Fraction(roll)
    if draw is None:
        raise RuleViolation(
            "SAGA-ATK-16", msg("saga.roll.no_draw", "a random correction needs a draw or a roll")
        )
    steps = int((hi - lo) * 10000) + 1
    return lo + Fraction(int(draw * steps), 10000)
