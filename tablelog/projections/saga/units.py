"""Evolvers for units, techs, effects and the battle clock (SaGa).

Evolvers apply what the events record (the HP floor, the levels and season of a turn, effect
values) and never raise; the checks live in ``projections.saga.preconditions``. Records written
before schema v2 take the legacy path (``projections.saga.legacy``).

Source: saga-eb-damage.ja.txt; SAGA-EFF-1, SAGA-EFF-2, SAGA-FIVE-1, SAGA-FIVE-2, SAGA-HP-1.
"""

from __future__ import annotations

from typing import Any

import attrs

from tablelog.events.saga import BattleStarted, EffectApplied, TechDefined, TurnEnded, UnitAdded
from tablelog.projections.core import State, evolver
from tablelog.projections.saga import legacy
from tablelog.projections.saga.entities import Effects, Side, Unit, effect_kind, units
from tablelog.rules.saga.figures import num_text
from tablelog.text import Msg, Secret, msg

__all__ = ["clock_for", "fresh_battle_values", "no_effects", "vitals_told"]


def clock_for(levels: dict[str, int], season: str | None, turn: int) -> dict[str, Any]:
    """Return the clock record of a battle turn (turn 0: no battle) from its recorded levels."""
    return {"turn": turn, "season": season, "levels": dict(levels)}


def vitals_told(unit: Unit, name: str, told: Msg) -> Any:
    """Return ``told`` (what a refusal says of an enemy's HP, LP or HP floor) as a
    :class:`~tablelog.text.Secret` the GM's alone (SERVER.md §3), blurred to ``NAME's HP and
    LP are hidden``; ``told`` itself for a unit that is not an enemy."""
    if unit["side"] != "enemy":
        return told
    return Secret(told, None, msg("saga.vitals.hidden", "{name}'s HP and LP are hidden", name=name))


def no_effects() -> Effects:
    """Return the effect values of a unit when a battle begins: all 0 (SAGA-EFF-1, -2)."""
    return {"tech_power": 0, "attack": 0, "defense": 0, "spell": 0}


def fresh_battle_values(unit: Unit) -> None:
    """Reset what lives only during a battle: effect values, LP-damage effect, poison timing."""
    unit["effects"] = no_effects()
    unit["lp_damage_effect"] = 0
    unit["_poisoned_turn"] = None


@evolver(UnitAdded)
def _unit_added(state: State, e: UnitAdded) -> None:
    s = e.sheet
    side: Side = "enemy" if s.side == "enemy" else "ally"
    floor = e.hp_floor
    if floor is None:
        floor = legacy.hp_floor(s.hp_max, side, s.hp_floor_rate)
    unit: Unit = {
        "side": side,
        "hp": s.hp,
        "hp_max": s.hp_max,
        "lp": s.lp_max,
        "lp_max": s.lp_max,
        "incapacitated": False,
        "hp_floor": floor,
        "hp_floor_rate": num_text(s.hp_floor_rate),
        "intrinsic_hp": s.intrinsic_hp,
        "battle_rank": s.battle_rank,
        "race": s.race,
        "stats": dict(s.stats),
        "slv": dict(s.slv),
        "weapons": {k: list(v) for k, v in s.weapons.items()},
        "resistances": dict(s.resistances),
        "five": dict(s.five),
        "traits": [{"kind": t.kind, "value": t.value, "on": t.on} for t in s.traits],
        "guard_rate": s.guard_rate,
        "formation_attack": s.formation_attack,
        "formation_defense": s.formation_defense,
        "effects": no_effects(),
        "lp_damage_effect": 0,
        "_poisoned_turn": None,
    }
    units(state)[e.name] = unit


@evolver(TechDefined)
def _tech_defined(state: State, e: TechDefined) -> None:
    state.extra["techs"][e.id] = attrs.asdict(e)


@evolver(BattleStarted)
def _battle_started(state: State, e: BattleStarted) -> None:
    levels, season = e.levels, e.season
    if levels is None:
        levels = legacy.clock_levels(e.terrain, e.seasons, 1)
        season = legacy.season_of(e.seasons, 1)
    state.extra["battle"] = {"terrain": e.terrain, "seasons": e.seasons}
    state.extra["last_hits"] = {}
    state.clock = clock_for(levels, season, 1)
    for unit in units(state).values():
        fresh_battle_values(unit)


@evolver(TurnEnded)
def _turn_ended(state: State, e: TurnEnded) -> None:
    lost, after, levels, season = e.tech_power_lost, e.next_turn, e.levels, e.season
    if after is None or levels is None or lost is None:
        battle = state.extra["battle"] or {"terrain": None, "seasons": False}
        after = e.turn + 1
        levels = legacy.clock_levels(battle["terrain"], battle["seasons"], after)
        season = legacy.season_of(battle["seasons"], after)
        lost = {
            name: legacy.tech_power_lost(unit["effects"]["tech_power"])
            for name, unit in units(state).items()
        }
    state.clock = clock_for(levels, season, after)
    for name, drop in lost.items():
        unit = units(state).get(name)
        if unit is not None:
            unit["effects"]["tech_power"] = max(0, unit["effects"]["tech_power"] - drop)


@evolver(EffectApplied)
def _effect_applied(state: State, e: EffectApplied) -> None:
    unit, kind = units(state).get(e.target), effect_kind(e.kind)
    if unit is None or kind is None or not e.landed:
        return
    effects = unit["effects"]
    if e.value_after is not None:
        effects[kind] = e.value_after
    elif kind == "tech_power":
        effects["tech_power"] = e.performance
    else:
        effects[kind] = legacy.buff_value_after(effects[kind], e.performance)
