"""Evolvers for HP and LP changes: hits, misses, poison, release, Blood, incapacitation, wipes.

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
from tablelog.projections.core import State, evolver, require
from tablelog.projections.saga.units import clock_for, fresh_battle_values, unit_of
from tablelog.rules.saga import vitals

__all__: list[str] = []


@evolver(AttackDamageDealt)
def _attack_damage_dealt(state: State, e: AttackDamageDealt) -> None:
    unit_of(state, e.actor)
    target = unit_of(state, e.target)
    require(0 <= e.damage <= 9999, "SAGA-ATK-2", f"attack damage {e.damage} is outside 0..9999")
    target["hp"] = vitals.hp_after_attack(
        target["hp"], e.damage, target["hp_floor"], support=e.support
    )
    state.extra["last_hits"][f"{e.actor}>{e.target}"] = {"tech": e.tech, "damage": e.damage}


@evolver(AttackAvoided)
def _attack_avoided(state: State, e: AttackAvoided) -> None:
    unit_of(state, e.actor)
    unit_of(state, e.target)
    state.extra["last_hits"][f"{e.actor}>{e.target}"] = {"tech": e.tech, "damage": 0}


@evolver(InstantDeathInflicted)
def _instant_death(state: State, e: InstantDeathInflicted) -> None:
    unit_of(state, e.target)["hp"] = 0


@evolver(HPHealed)
def _hp_healed(state: State, e: HPHealed) -> None:
    unit = unit_of(state, e.unit)
    require(not unit["incapacitated"], "SAGA-HP-5", f"{e.unit} is incapacitated")
    unit["hp"] = vitals.hp_after_heal(unit["hp"], e.amount, unit["hp_max"])


@evolver(PoisonDamageTaken)
def _poison(state: State, e: PoisonDamageTaken) -> None:
    unit = unit_of(state, e.unit)
    turn = state.clock["turn"]
    require(
        unit["_poisoned_turn"] != turn or turn == 0,
        "SAGA-POISON-1",
        f"{e.unit} already took poison damage in turn {turn}",
    )
    require(unit["hp_floor"] == 0, "SAGA-HP-2", f"{e.unit} has an HP floor: immune to poison")
    unit["hp"] = vitals.hp_after_poison(unit["hp"], e.damage)
    unit["_poisoned_turn"] = turn


@evolver(ReleaseDamageTaken)
def _release(state: State, e: ReleaseDamageTaken) -> None:
    unit = unit_of(state, e.unit)
    require(
        0 <= e.damage < max(unit["hp"], 1),
        "SAGA-REL-1",
        f"release damage {e.damage} would leave {e.unit} below 1 HP (HP {unit['hp']})",
    )
    unit["hp"] -= e.damage


@evolver(BloodPaid)
def _blood_paid(state: State, e: BloodPaid) -> None:
    unit = unit_of(state, e.unit)
    require(unit["lp"] is not None and unit["lp"] > 0, "SAGA-LP-2", f"{e.unit} has no LP to pay")
    paid = vitals.lp_after_blood(unit["lp"], unit["lp_damage_effect"], e.lp_cost, confused=True)
    unit["lp"] = paid.value["lp"]
    unit["lp_damage_effect"] = paid.value["lp_damage_effect"]
    if paid.value["incapacitated"]:
        unit["incapacitated"] = True


@evolver(UnitIncapacitated)
def _incapacitated(state: State, e: UnitIncapacitated) -> None:
    unit = unit_of(state, e.unit)
    require(unit["hp"] == 0, "SAGA-LP-1", f"{e.unit} has {unit['hp']} HP, not 0")
    require(not unit["incapacitated"], "SAGA-LP-1", f"{e.unit} is already incapacitated")
    unit["incapacitated"] = True
    if e.lp_lost:
        require(unit["lp"] is not None, "SAGA-LP-1", f"{e.unit} has no LP")
        unit["lp"] = vitals.lp_after_incapacitation(unit["lp"])


@evolver(PartyWiped)
def _party_wiped(state: State, e: PartyWiped) -> None:
    for unit in state.characters.values():
        if unit["side"] == "ally" and unit["lp"] is not None:
            unit["lp"] = vitals.lp_after_wipe(
                unit["lp"],
                unit["lp_damage_effect"],
                incapacitated=unit["incapacitated"],
                lp_max=unit["lp_max"],
            ).value
        out = unit["side"] == "ally" and unit["lp"] == 0
        unit["incapacitated"] = out
        unit["hp"] = 0 if out else unit["hp_max"]
        fresh_battle_values(unit)
    battle = state.extra["battle"]
    if battle is not None:
        state.clock = clock_for(battle["terrain"], seasons=battle["seasons"], turn=1)
    state.extra["last_hits"] = {}
