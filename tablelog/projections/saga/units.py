"""Evolvers for units, techs, effects and the battle clock (SaGa).

Source: saga-eb-damage.ja.txt; SAGA-EFF-1, SAGA-EFF-2, SAGA-FIVE-1, SAGA-FIVE-2, SAGA-HP-1.
"""

from __future__ import annotations

from typing import Any

import attrs

from tablelog.events.saga import BattleStarted, EffectApplied, TechDefined, TurnEnded, UnitAdded
from tablelog.projections.core import State, evolver, require
from tablelog.rules.saga import effects as fx
from tablelog.rules.saga import five
from tablelog.rules.saga.figures import num_text
from tablelog.rules.saga.vitals import hp_floor

__all__ = ["clock_for", "unit_of", "EFFECT_KINDS"]

EFFECT_KINDS = ("tech_power", "attack", "defense", "spell")


def clock_for(terrain: str | None, *, seasons: bool, turn: int) -> dict[str, Any]:
    """Return the clock record for a turn of a battle (turn 0: no battle)."""
    if turn == 0:
        return {"turn": 0, "season": None, "levels": five.battle_levels().value}
    levels = five.battle_levels(terrain, seasons=seasons, turn=turn).value
    return {
        "turn": turn,
        "season": five.season_for_turn(turn) if seasons else None,
        "levels": levels,
    }


def unit_of(state: State, name: str, rule: str = "UNKNOWN-NAME") -> dict[str, Any]:
    """Return the unit called ``name``.

    Raises:
        RuleViolation: ``rule`` (default UNKNOWN-NAME) if there is no such unit.
    """
    unit = state.characters.get(name)
    require(unit is not None, rule, f"no unit named {name!r}")
    return unit  # type: ignore[return-value]


def fresh_battle_values(unit: dict[str, Any]) -> None:
    """Reset what lives only during a battle: effect values, LP-damage effect, poison timing."""
    unit["effects"] = dict.fromkeys(EFFECT_KINDS, 0)
    unit["lp_damage_effect"] = 0
    unit["_poisoned_turn"] = None


@evolver(UnitAdded)
def _unit_added(state: State, e: UnitAdded) -> None:
    require(e.name not in state.characters, "CORE-NAME", f"a unit named {e.name!r} exists")
    s = e.sheet
    enemy = s.side == "enemy"
    unit: dict[str, Any] = {
        "side": s.side,
        "hp": s.hp,
        "hp_max": s.hp_max,
        "lp": s.lp_max,
        "lp_max": s.lp_max,
        "incapacitated": False,
        "hp_floor": hp_floor(s.hp_max, enemy=enemy, floor_rate=s.hp_floor_rate),
        "hp_floor_rate": num_text(s.hp_floor_rate),
        "intrinsic_hp": s.intrinsic_hp,
        "battle_rank": s.battle_rank,
        "race": s.race,
        "stats": dict(s.stats),
        "slv": dict(s.slv),
        "weapons": {k: list(v) for k, v in s.weapons.items()},
        "resistances": dict(s.resistances),
        "five": dict(s.five),
        "traits": [attrs.asdict(t) for t in s.traits],
        "guard_rate": s.guard_rate,
        "formation_attack": s.formation_attack,
        "formation_defense": s.formation_defense,
    }
    fresh_battle_values(unit)
    state.characters[e.name] = unit


@evolver(TechDefined)
def _tech_defined(state: State, e: TechDefined) -> None:
    state.extra["techs"][e.id] = attrs.asdict(e)


@evolver(BattleStarted)
def _battle_started(state: State, e: BattleStarted) -> None:
    state.extra["battle"] = {"terrain": e.terrain, "seasons": e.seasons}
    state.extra["last_hits"] = {}
    state.clock = clock_for(e.terrain, seasons=e.seasons, turn=1)
    for unit in state.characters.values():
        fresh_battle_values(unit)


@evolver(TurnEnded)
def _turn_ended(state: State, e: TurnEnded) -> None:
    battle = state.extra["battle"]
    require(battle is not None, "SAGA-FIVE-2", "no battle has started")
    require(
        state.clock["turn"] == e.turn,
        "SAGA-FIVE-2",
        f"the turn is {state.clock['turn']}, not {e.turn}",
    )
    state.clock = clock_for(battle["terrain"], seasons=battle["seasons"], turn=e.turn + 1)
    for unit in state.characters.values():
        effects = unit["effects"]
        effects["tech_power"] = fx.tech_power_effect_after_turn(effects["tech_power"])


@evolver(EffectApplied)
def _effect_applied(state: State, e: EffectApplied) -> None:
    unit = unit_of(state, e.target)
    unit_of(state, e.by)
    require(e.kind in EFFECT_KINDS, "SAGA-EFF-2", f"unknown effect {e.kind!r}")
    if not e.landed:
        return
    effects = unit["effects"]
    if e.kind == "tech_power":
        effects["tech_power"] = e.performance
    else:
        effects[e.kind] = fx.buff_effect_after(effects[e.kind], e.performance)
