"""The legacy path: outcomes of saga records written before schema v2, from today's rules.

A v1 record did not record what it changed (the HP floor, the battle's five-element levels, HP
and LP changes, effect values); its upcaster leaves those fields None and the evolver asks this
module. It is the only place where a saga evolver computes from the rules (tablelog/rules/saga),
and only for old records: every record written since schema v2 carries its outcomes, so an
erratum in the rules or catalogues never changes how a newer log folds (docs/saga.md).
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.saga.entities import Side, Unit
from tablelog.rules.core import RuleViolation
from tablelog.rules.saga import effects, five, vitals
from tablelog.rules.saga.catalogue import ELEMENTS

__all__ = [
    "blood_outcome",
    "buff_value_after",
    "clock_levels",
    "healed",
    "hp_floor",
    "hp_lost_to_attack",
    "season_of",
    "tech_power_lost",
    "wiped_lp",
]


def hp_floor(hp_max: int, side: Side, floor_rate: Any) -> int:
    """Return a v1 unit's HP floor (SAGA-HP-1)."""
    return vitals.hp_floor(hp_max, enemy=side == "enemy", floor_rate=floor_rate)


def clock_levels(terrain: str | None, seasons: bool, turn: int) -> dict[str, int]:
    """Return the battle's five-element levels at ``turn`` (SAGA-FIVE-1); all 0 for a record
    no battle could have had (an unknown terrain, both terrain and seasons)."""
    try:
        levels: dict[str, int] = five.battle_levels(
            terrain, seasons=seasons, turn=max(turn, 1)
        ).value
    except RuleViolation:
        return dict.fromkeys(ELEMENTS, 0)
    return levels


def season_of(seasons: bool, turn: int) -> str | None:
    """Return the season of ``turn`` in a battle with seasons, else None (SAGA-FIVE-2)."""
    return five.season_for_turn(max(turn, 1)) if seasons else None


def hp_lost_to_attack(unit: Unit, damage: int, support: bool) -> int:
    """Return the HP a v1 hit took: HP − max(HP − damage, floor) (SAGA-HP-1)."""
    hp: int = unit["hp"]
    return hp - vitals.hp_after_attack(hp, damage, unit["hp_floor"], support=support)


def healed(unit: Unit, amount: int) -> int:
    """Return the HP a v1 heal gave: up to max HP (SAGA-HP-5)."""
    hp: int = unit["hp"]
    return vitals.hp_after_heal(hp, amount, unit["hp_max"]) - hp


def blood_outcome(unit: Unit, cost: int) -> tuple[int, int, bool]:
    """Return ``(LP lost, LP-damage effect gain, incapacitated)`` of a v1 Blood payment
    (SAGA-LP-2, SAGA-LP-4); a unit without tracked LP pays nothing.

    A v1 record was played when a Blood tech that took LP to 0 added nothing to the LP-damage
    effect value (the seed's bug, which SAGA-LP-4 followed until issue 30): such a record keeps
    that outcome, so an old campaign folds to the state it was played to."""
    if unit["lp"] is None:
        return 0, 0, False
    paid = vitals.lp_after_blood(unit["lp"], unit["lp_damage_effect"], cost, confused=True).value
    gain = 0 if paid["incapacitated"] else paid["lp_damage_effect"] - unit["lp_damage_effect"]
    return unit["lp"] - paid["lp"], gain, paid["incapacitated"]


def wiped_lp(unit: Unit) -> int | None:
    """Return an ally's LP after a v1 wipe and retry (SAGA-LP-3, SAGA-LP-4); None for a unit
    whose LP is not tracked."""
    lp, lp_max = unit["lp"], unit["lp_max"]
    if lp is None or lp_max is None:
        return None
    after: int = vitals.lp_after_wipe(
        lp, unit["lp_damage_effect"], incapacitated=unit["incapacitated"], lp_max=lp_max
    ).value
    return after


def buff_value_after(value: int, performance: int) -> int:
    """Return an attack/defense/spell effect value after a v1 buff landed (SAGA-EFF-2)."""
    return effects.buff_effect_after(value, performance)


def tech_power_lost(value: int) -> int:
    """Return how much a tech-power effect value fell at a v1 turn end (SAGA-EFF-1)."""
    return value - effects.tech_power_effect_after_turn(value)
