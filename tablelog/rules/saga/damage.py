"""Attack damage per attack process: the whole formula, its conditions, and the split display.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ, 攻撃ダメージ：ダメージ表示; SAGA-ATK-1..16,
SAGA-DISP-2, SAGA-DISP-3.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import attrs

from tablelog.rules.saga import corrections as corr
from tablelog.rules.saga import power as pw
from tablelog.rules.saga import resist as rs
from tablelog.rules.saga.catalogue import Tech
from tablelog.rules.saga.figures import Figure, Number, num_text

__all__ = [
    "DAMAGE_CAP",
    "Attacker",
    "Defender",
    "Situation",
    "attack_damage",
    "compute_hit",
    "displayed_power_of",
    "no_damage_reason",
    "process_count",
    "split_display",
]

DAMAGE_CAP = 9999
#: SAGA-ATK-1 reasons, in the seed's order.
NO_DAMAGE_REASONS = ("missed", "evaded", "parried", "countered", "petrified", "immune")


@attrs.frozen
class Attacker:
    """The acting unit's inputs: weapon power, SLv (for the tech's weapon type), dependent
    stat value (None if the tech names no ability), five-element level of the tech's element,
    effect values and trait values, formation attack rate; ``enemy`` for enemy actors."""

    weapon_power: Number | None = None
    slv: Number | None = None
    stat: Number | None = None
    five_level: int = 0
    tech_power_effect: int = 0
    attack_effect: int = 0
    spell_effect: int = 0
    tech_power_trait: int = 0
    anger_trait: int = 0
    target_guard_trait: int = 0
    attack_trait: int = 0
    formation_attack_rate: int = 0
    enemy: bool = False


@attrs.frozen
class Defender:
    """The target's inputs: resistance by attribute, dependent stat, five-element level,
    defense effect value, tech-power-up state, trait values, weapon (or own) guard rate,
    formation defense rate."""

    resistances: dict[str, int] = attrs.field(factory=dict)
    stat: Number | None = None
    five_level: int = 0
    defense_effect: int = 0
    tech_power_up: bool = False
    defense_resist_trait: int = 0
    guard_trait: int = 0
    defense_trait: int = 0
    weapon_guard_rate: int = 0
    formation_defense_rate: int = 0


@attrs.frozen
class Situation:
    """What happened at the table: defend and guard, protect, anger, slayer, combo, battle
    five-element level of the tech's element, an instant-death-class hit."""

    defending: bool = False
    defend_void: str | None = None
    guard: bool = False
    protect_power: int | None = None
    earth_shield: bool = False
    angry: bool = False
    slayer: bool = False
    instant_death_class: bool = False
    combo_rate: Number | None = None
    battle_five_level: int = 0


def no_damage_reason(
    power: int, outcome: Sequence[str] = (), *, release: bool = False
) -> str | None:
    """Return why no attack damage is computed, or None when it is.

    Args:
        power: The tech power; 0 means no damage, except for 解き放つ.
        outcome: Table outcomes among ``missed evaded parried countered petrified immune``.
        release: The tech is 解き放つ (release): its power 0 still deals damage, since the seed
            gives it its own base multiplier (power + 10) × 0.05 (Decision, issue 15).

    Source: saga-eb-damage.ja.txt, 攻撃ダメージの算出条件, 技・術威力倍率; SAGA-ATK-1, SAGA-ATK-6.
    """
    if power == 0 and not release:
        return "power 0"
    for reason in NO_DAMAGE_REASONS:
        if reason in outcome:
            return reason
    return None


def process_count(attack_count: int) -> int:
    """Return the attack processes of one activation (an attack count of 0 counts as 1).

    Source: SAGA-ATK-2.
    """
    return max(1, attack_count)


def attack_damage(base_floored: int, correction: Number, attack_count: int) -> Figure:
    """Return max(0, min(⌊⌊base attack damage⌋ × attack correction / attack count⌋, 9999)).

    Source: saga-eb-damage.ja.txt, 攻撃ダメージ計算式の基本構造; SAGA-ATK-2.
    """
    count = process_count(attack_count)
    raw = math.floor(base_floored * Fraction(correction) / count)
    value = max(0, min(raw, DAMAGE_CAP))
    parts = {"attack_count": str(count), "damage_uncapped": str(raw), "damage": str(value)}
    return Figure(value, parts)


def _group(tech: Tech, a: Attacker) -> str:
    as_spell = tech.weapon_type == "spell" or tech.has("treated-as-spell")
    return pw.bonus_group(tech.weapon_type, enemy_actor=a.enemy, as_spell=as_spell)


def _base_and_multiplier(tech: Tech, a: Attacker) -> tuple[Figure, Figure]:
    base = pw.base_power(
        _group(tech, a), a.weapon_power, a.slv, a.stat if tech.self_ability else None
    )
    tech_m = pw.tech_power_multiplier(
        tech.power,
        release=tech.has("release"),
        tech_power_effect=a.tech_power_effect,
        tech_power_trait=a.tech_power_trait,
    )
    return base, tech_m


def displayed_power_of(tech: Tech, attacker: Attacker, battle_five_level: int = 0) -> Figure:
    """Return the power a tech shows in the tech list (against enemies) for this actor.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージ：技・術の表示威力; SAGA-DISP-1.
    """
    base, tech_m = _base_and_multiplier(tech, attacker)
    five = None
    if tech.element is not None:
        five = rs.five_element_power_bonus(attacker.five_level, battle_five_level)
    return pw.displayed_power(base.value, tech_m.value, five)


def _power_figures(tech: Tech, a: Attacker, d: Defender, s: Situation) -> list[Figure]:
    base, tech_m = _base_and_multiplier(tech, a)
    slv_m = pw.slv_multiplier(a.slv, inherited=_group(tech, a) == "inherited")
    compound = pw.compound_power(base.value, tech_m.value, slv_m.value)
    void = rs.resistance_void(tech.attributes, ignore_defense=tech.has("ignore-defense"))
    parts = {"resistance": "void"}
    resistance = None
    if not void:
        attr, resistance = rs.effective_attribute(tech.attributes, d.resistances)
        parts = {"effective_attribute": attr, "effective_resistance": str(resistance)}
    five = rs.five_element_bonus(tech.element, a.five_level, s.battle_five_level, d.five_level)
    target_stat = d.stat if tech.target_ability else None
    correction = rs.power_correction(resistance, target_stat, five.value)
    reduction = rs.damage_reduction(resistance)
    floored = rs.base_attack_damage(compound.value, correction.value, reduction.value)
    return [base, tech_m, slv_m, compound, Figure(0, parts), five, correction, reduction, floored]


def _correction_figures(
    tech: Tech, a: Attacker, d: Defender, s: Situation, random: Fraction
) -> list[Figure]:
    as_spell = tech.weapon_type == "spell" or tech.has("treated-as-spell")
    state = corr.state_correction(
        a.spell_effect if as_spell else a.attack_effect,
        d.defense_effect,
        angry=s.angry,
        anger_trait=a.anger_trait,
        target_tech_power_up=d.tech_power_up,
    )
    action_figs = _action_figures(tech, a, d, s)
    ally = corr.ally_only_correction(
        slayer=s.slayer,
        formation_attack_rate=a.formation_attack_rate,
        formation_defense_rate=d.formation_defense_rate,
        attack_trait=a.attack_trait,
        defense_trait=d.defense_trait,
        instant_death_class=s.instant_death_class,
    )
    combo = corr.combo_correction(s.combo_rate)
    total = state.value * action_figs[-1].value * ally.value * combo.value * random
    rand = Figure(random, {"random_correction": num_text(random)})
    total_f = Figure(total, {"attack_correction": num_text(total)})
    return [state, *action_figs, ally, combo, rand, total_f]


def _action_figures(tech: Tech, a: Attacker, d: Defender, s: Situation) -> list[Figure]:
    """Return the guard rate (when a guard triggers) and the action correction."""
    rate = corr.guard_rate(
        protect_power=s.protect_power,
        weapon_guard_rate=d.weapon_guard_rate,
        earth_shield=s.earth_shield,
        guard_trait_target=d.guard_trait,
        target_guard_trait_self=a.target_guard_trait,
    )
    void = "ignore-defense" if tech.has("ignore-defense") else s.defend_void
    guard = s.guard and not tech.has("unguardable")
    action = corr.action_correction(
        defending=s.defending,
        defend_void=void,
        defense_resist_trait=d.defense_resist_trait,
        guard=guard,
        rate=int(rate.value),
    )
    return [rate, action] if guard else [action]


def compute_hit(
    tech: Tech, attacker: Attacker, defender: Defender, situation: Situation, random: Fraction
) -> Figure:
    """Return the attack damage of one attack process and every factor behind it.

    Args:
        tech: The tech (power, count, width, type, attributes, element, abilities, flags).
        attacker: The actor's inputs. defender: the target's. situation: the table's.
        random: This process's random correction (already drawn or reported).

    Returns:
        The damage (an int in 0..9999) with a breakdown naming every factor.

    Raises:
        RuleViolation: SAGA-ATK-5/7/8 when a stat the formula needs is missing.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージ; SAGA-ATK-2..16.
    """
    power_figs = _power_figures(tech, attacker, defender, situation)
    corr_figs = _correction_figures(tech, attacker, defender, situation, random)
    final = attack_damage(int(power_figs[-1].value), corr_figs[-1].value, tech.attack_count)
    breakdown: dict[str, str] = {"tech": tech.id, "tech_power": str(tech.power)}
    for fig in (*power_figs, *corr_figs, final):
        breakdown.update(fig.breakdown)
    return Figure(final.value, breakdown)


def split_display(damage: int, ratios_pct: Sequence[Number]) -> Figure:
    """Return the shown parts ⌊damage × ratio_n × 0.01⌋ (they may add up to less than damage).

    Args:
        damage: The attack damage of one process.
        ratios_pct: The tech's split ratios in percent (sum 100).

    Returns:
        A Figure whose value is the tuple of shown parts.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージの分割表示; SAGA-DISP-2.
    """
    parts = tuple(math.floor(damage * Fraction(r) / 100) for r in ratios_pct)
    return Figure(
        parts,
        {
            "split_ratios_pct": " ".join(num_text(r) for r in ratios_pct),
            "shown": " + ".join(str(p) for p in parts) + f" = {sum(parts)} of {damage}",
        },
    )
