"""Evolvers and preconditions of NP releases, bounded fields and armies.

Evolvers apply what the events record and never raise. The preconditions hold the checks: the
owner holds the NP and can pay, the release is within its count (FATE-NP-6, -8, -9), the release
behind a field or an army is in effect, the field or army is up.
"""

from __future__ import annotations

from tablelog.events.fate import (
    AbilityUsed,
    ArmyDismissed,
    ArmySummoned,
    FieldEnded,
    FieldRaised,
    PhantasmReleased,
)
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.fate import legacy
from tablelog.projections.fate.entities import Character, find, madness, up_np
from tablelog.projections.fate.records import (
    character,
    register_action,
    require_action_free,
    require_cause,
)
from tablelog.projections.fate.turns import (
    mark_judgment,
    require_no_np_turn,
    require_no_other_judgment,
)
from tablelog.rules.fate import count

__all__: list[str] = []


@precondition(PhantasmReleased)
def _may_release(state: State, e: PhantasmReleased) -> None:
    owner = character(state, e.owner, "FATE-NP-5")
    require(e.np_id in owner["phantasms"], "FATE-NP-5", f"{e.owner} has no NP called {e.np_id}")
    require(
        owner["mp"] >= e.mp, "FATE-NP-5", f"{e.owner} has {owner['mp']} MP, {e.np_id} costs {e.mp}"
    )
    _check_release_count(state, owner, e)
    require_action_free(state, e.action, "release", "FATE-NP-5")


def _check_release_count(state: State, owner: Character, e: PhantasmReleased) -> None:
    """Refuse a release past its count, however the events got here (undo, redo): one true-name
    release a turn (FATE-NP-6), an always-active attack NP as often a round as it had when
    released (FATE-NP-8), an always-active defensive NP once a battle (FATE-NP-9)."""
    if not state.clock.get("battle"):
        return
    now = [state.clock["round"], state.clock["turn"]]
    form = owner["phantasms"][e.np_id]["form"]
    if not e.always:
        require(
            owner["_np_turn"] != now,
            "FATE-NP-6",
            f"{e.owner} already released an NP in round {now[0]}, turn {now[1]}",
        )
        require_no_other_judgment(state, e.owner, owner)
    elif form == "defense":
        require(
            e.np_id not in owner["_battle_uses"],
            "FATE-NP-9",
            f"{e.owner}'s always-active {e.np_id} already gave its tiles this battle",
        )
    else:
        require_no_np_turn(state, e.owner, owner, "an always-active NP")
        allowed = e.uses_allowed
        if allowed is None:
            allowed = legacy.uses_allowed(madness(owner))
        used = owner["_always_uses"].get(e.np_id, 0)
        require(
            used < allowed,
            "FATE-NP-8",
            f"{e.owner} has used {e.np_id} {count(used, 'time')} this round;"
            f" {count(allowed, 'use')} allowed",
        )


@evolver(PhantasmReleased)
def _released(state: State, e: PhantasmReleased) -> None:
    register_action(state, e.action)
    owner = find(state, e.owner)
    if owner is None:
        return
    owner["mp"] = max(0, owner["mp"] - e.mp)
    _mark_release(owner, e.np_id, e.always)
    if not state.clock.get("battle"):
        return
    np = owner["phantasms"].get(e.np_id)
    if e.always and np is not None and np["form"] == "defense":
        owner["_battle_uses"] = [*owner["_battle_uses"], e.np_id]
    elif e.always:
        uses = owner["_always_uses"]
        uses[e.np_id] = uses.get(e.np_id, 0) + 1
        mark_judgment(state, owner, "an always-active NP")
    else:
        owner["_np_turn"] = [state.clock["round"], state.clock["turn"]]


def _mark_release(owner: Character, np_id: str, always: bool) -> None:
    """Note a true-name release of ``np_id``: its once-per-release ability is ready ([선회])."""
    if not always:
        owner["_released"][np_id] = True


@precondition(FieldRaised)
def _field_free(state: State, e: FieldRaised) -> None:
    owner = character(state, e.owner, "FATE-NP-10")
    require(owner["field"] is None, "FATE-NP-10", f"{e.owner} already holds a field up")
    require_cause(state, e.cause, "FATE-NP-10", f"{e.owner}'s field {e.np_id}", "release", "field")


@evolver(FieldRaised)
def _field_raised(state: State, e: FieldRaised) -> None:
    owner = find(state, e.owner)
    if owner is None:
        return
    owner["field"] = {
        "np": e.np_id,
        "grade": e.grade,
        "reality_marble": e.reality_marble,
        "plus_used": e.plus_used,
        "round": e.round,
    }
    owner["hp"] += e.hp_bonus
    ally_hp = legacy.ALLY_HP if e.ally_hp is None else e.ally_hp
    for name in e.allies:
        ally = find(state, name)
        if ally is not None:
            ally["hp"] += ally_hp


@precondition(FieldEnded)
def _field_up(state: State, e: FieldEnded) -> None:
    owner = character(state, e.owner, "FATE-NP-10")
    require_cause(
        state,
        e.cause,
        "FATE-NP-10",
        f"the end of {e.owner}'s field {e.np_id}",
        "release",
        "end of the field",
    )
    require(
        up_np(owner["field"]) == e.np_id,
        "FATE-NP-10",
        f"{e.owner} holds no field called {e.np_id} up",
    )


@evolver(FieldEnded)
def _field_ended(state: State, e: FieldEnded) -> None:
    owner = find(state, e.owner)
    if owner is not None and up_np(owner["field"]) == e.np_id:
        owner["field"] = None


@precondition(ArmySummoned)
def _army_free(state: State, e: ArmySummoned) -> None:
    owner = character(state, e.owner, "FATE-NP-11")
    require(
        owner["army"] is None or (e.familiars and _familiars_of(owner, e.np_id)),
        "FATE-NP-11",
        f"{e.owner} already has an army out",
    )
    require_cause(state, e.cause, "FATE-NP-11", f"{e.owner}'s army {e.np_id}", "release", "army")


def _familiars_of(owner: Character, np_id: str) -> bool:
    """True when the owner's army out is familiars of ``np_id`` (more may join them)."""
    army = owner["army"]
    return army is not None and army["familiars"] and army["np"] == np_id


@evolver(ArmySummoned)
def _army_summoned(state: State, e: ArmySummoned) -> None:
    owner = find(state, e.owner)
    if owner is None:
        return
    army = owner["army"]
    if e.familiars and army is not None and _familiars_of(owner, e.np_id):
        army["units"] += e.units
        return
    owner["army"] = {
        "np": e.np_id,
        "units": e.units,
        "free_units": e.free_units,
        "stat_points": e.stat_points,
        "upkeep_per_round": e.upkeep_per_round,
        "round": e.round,
        "plus_used": e.plus_used,
        "familiars": e.familiars,
    }


@precondition(ArmyDismissed)
def _army_out(state: State, e: ArmyDismissed) -> None:
    owner = character(state, e.owner, "FATE-NP-11")
    require(
        up_np(owner["army"]) == e.np_id,
        "FATE-NP-11",
        f"{e.owner} has no army called {e.np_id} out",
    )


@evolver(ArmyDismissed)
def _army_dismissed(state: State, e: ArmyDismissed) -> None:
    owner = find(state, e.owner)
    if owner is not None and up_np(owner["army"]) == e.np_id:
        owner["army"] = None


@precondition(AbilityUsed)
def _may_use(state: State, e: AbilityUsed) -> None:
    """The owner holds the NP and can pay, and makes no other judgment in the turn of an NP; a
    charge needs a release it was not used for, a shot the NP's field up (FATE-NP-13, -14)."""
    owner = character(state, e.owner, "FATE-NP-13")
    require(e.np_id in owner["phantasms"], "FATE-NP-13", f"{e.owner} has no NP called {e.np_id}")
    require(
        owner["mp"] >= e.mp,
        "FATE-NP-13",
        f"{e.owner} has {owner['mp']} MP; {e.np_id}'s {e.ability} costs {e.mp}",
    )
    require_action_free(state, e.action, "ability use", "FATE-NP-13")
    require_no_np_turn(state, e.owner, owner, f"{e.np_id}'s {e.ability}")
    if e.ability == "charge":
        require(
            owner["_released"].get(e.np_id),
            "FATE-NP-13",
            f"{e.np_id}'s charge needs a release of {e.np_id} it was not used for",
        )
    if e.ability == "shoot":
        require(
            up_np(owner["field"]) == e.np_id,
            "FATE-NP-13",
            f"{e.np_id}'s shoot needs {e.np_id} up ({e.owner} holds no such field)",
        )


@evolver(AbilityUsed)
def _ability_used(state: State, e: AbilityUsed) -> None:
    register_action(state, e.action)
    owner = find(state, e.owner)
    if owner is None:
        return
    owner["mp"] = max(0, owner["mp"] - e.mp)
    mark_judgment(state, owner, f"{e.np_id}'s {e.ability}")
    if e.ability == "charge":
        owner["_released"][e.np_id] = False
