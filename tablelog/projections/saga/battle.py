"""Evolvers for HP and LP changes: hits, misses, poison, release, Blood, incapacitation, wipes.

Each applies the change its event records (HP lost or healed, LP lost, the LP-damage effect
gain, the LP after a wipe) and never raises; the checks live in
``projections.saga.preconditions``. Records written before schema v2 take the legacy path
(``projections.saga.legacy``).

Source: saga-eb-damage.ja.txt, 現在HPの変動, 現在LPの変動; SAGA-HP-1..5, SAGA-LP-1..4,
SAGA-POISON-1, SAGA-REL-1.
"""

from __future__ import annotations

from tablelog.events.saga import (
    AttackAvoided,
    AttackDamageDealt,
    BloodPaid,
    HPHealed,
    InstantDeathInflicted,
    PartyWiped,
    PoisonDamageTaken,
    ReleaseDamageTaken,
    UnitIncapacitated,
)
from tablelog.projections.core import State, evolver
from tablelog.projections.saga import legacy
from tablelog.projections.saga.entities import Unit, units
from tablelog.projections.saga.units import clock_for, fresh_battle_values

__all__: list[str] = []


def _lose_hp(unit: Unit, lost: int) -> None:
    unit["hp"] = max(0, unit["hp"] - lost)


@evolver(AttackDamageDealt)
def _attack_damage_dealt(state: State, e: AttackDamageDealt) -> None:
    state.extra["last_hits"].setdefault(f"{e.actor}>{e.target}", {})[e.tech] = e.damage
    if e.draw_no is not None:
        state.extra["draws"] = e.draw_no + 1
    target = units(state).get(e.target)
    if target is not None:
        lost = e.hp_lost
        if lost is None:
            lost = legacy.hp_lost_to_attack(target, e.damage, e.support)
        _lose_hp(target, lost)


@evolver(AttackAvoided)
def _attack_avoided(state: State, e: AttackAvoided) -> None:
    state.extra["last_hits"].setdefault(f"{e.actor}>{e.target}", {})[e.tech] = 0


@evolver(InstantDeathInflicted)
def _instant_death(state: State, e: InstantDeathInflicted) -> None:
    target = units(state).get(e.target)
    if target is not None:
        target["hp"] = 0


@evolver(HPHealed)
def _hp_healed(state: State, e: HPHealed) -> None:
    unit = units(state).get(e.unit)
    if unit is not None:
        gained = legacy.healed(unit, e.amount) if e.healed is None else e.healed
        unit["hp"] = min(unit["hp"] + gained, unit["hp_max"])


@evolver(PoisonDamageTaken)
def _poison(state: State, e: PoisonDamageTaken) -> None:
    if e.draw_no is not None:
        state.extra["draws"] = e.draw_no + 1
    unit = units(state).get(e.unit)
    if unit is not None:
        _lose_hp(unit, e.damage if e.hp_lost is None else e.hp_lost)
        unit["_poisoned_turn"] = state.clock["turn"]


@evolver(ReleaseDamageTaken)
def _release(state: State, e: ReleaseDamageTaken) -> None:
    unit = units(state).get(e.unit)
    if unit is not None:
        _lose_hp(unit, e.damage)


@evolver(BloodPaid)
def _blood_paid(state: State, e: BloodPaid) -> None:
    unit = units(state).get(e.unit)
    if unit is None:
        return
    lost, gain, out = e.lp_lost, e.lp_damage_effect_gain, e.incapacitated
    if lost is None or gain is None or out is None:
        lost, gain, out = legacy.blood_outcome(unit, e.lp_cost)
    if unit["lp"] is not None:
        unit["lp"] = max(0, unit["lp"] - lost)
    unit["lp_damage_effect"] += gain
    if out:
        unit["incapacitated"] = True


@evolver(UnitIncapacitated)
def _incapacitated(state: State, e: UnitIncapacitated) -> None:
    unit = units(state).get(e.unit)
    if unit is None:
        return
    unit["incapacitated"] = True
    if e.lp_lost and unit["lp"] is not None:
        unit["lp"] = max(0, unit["lp"] - e.lp_lost)


@evolver(PartyWiped)
def _party_wiped(state: State, e: PartyWiped) -> None:
    lp_after, out = e.lp_after, e.out
    if lp_after is None:
        lp_after = {
            name: lp
            for name, unit in units(state).items()
            if unit["side"] == "ally" and (lp := legacy.wiped_lp(unit)) is not None
        }
        out = tuple(name for name, lp in lp_after.items() if lp == 0)
    for name, unit in units(state).items():
        if name in lp_after:
            unit["lp"] = lp_after[name]
        unit["incapacitated"] = name in out
        unit["hp"] = 0 if name in out else unit["hp_max"]
        fresh_battle_values(unit)
    battle = state.extra["battle"]
    if battle is not None:
        levels, season = e.levels, e.season
        if levels is None:
            levels = legacy.clock_levels(battle["terrain"], battle["seasons"], 1)
            season = legacy.season_of(battle["seasons"], 1)
        state.clock = clock_for(levels, season, 1)
    state.extra["last_hits"] = {}
