"""Evolvers of NP releases, bounded fields and armies."""

from __future__ import annotations

from typing import Any

from tablelog.events.fate import (
    ArmyDismissed,
    ArmySummoned,
    FieldEnded,
    FieldRaised,
    PhantasmReleased,
)
from tablelog.projections.core import State, evolver, require
from tablelog.projections.fate.records import character, register_action, require_cause
from tablelog.rules.fate import EX_FIELD_ALLY_HP, always_uses_per_round, count, parse_grade

__all__: list[str] = []


@evolver(PhantasmReleased)
def _released(state: State, e: PhantasmReleased) -> None:
    owner = character(state, e.owner, "FATE-NP-5")
    require(e.np_id in owner["phantasms"], "FATE-NP-5", f"{e.owner} has no NP called {e.np_id}")
    require(
        owner["mp"] >= e.mp, "FATE-NP-5", f"{e.owner} has {owner['mp']} MP, {e.np_id} costs {e.mp}"
    )
    _check_release_count(state, owner, e)
    register_action(state, e.action, "release", "FATE-NP-5")
    owner["mp"] -= e.mp
    if not state.clock.get("battle"):
        return
    if e.always and owner["phantasms"][e.np_id]["form"] == "defense":
        owner["_battle_uses"] = [*owner.get("_battle_uses", []), e.np_id]
    elif e.always:
        uses = owner["_always_uses"]
        uses[e.np_id] = uses.get(e.np_id, 0) + 1
    else:
        owner["_np_turn"] = [state.clock["round"], state.clock["turn"]]


def _check_release_count(state: State, owner: dict[str, Any], e: PhantasmReleased) -> None:
    """Refuse a release past its count, however the events got here (undo, redo): one true-name
    release a turn (FATE-NP-6), an always-active attack NP once a round, twice with madness B+
    (FATE-NP-8), an always-active defensive NP once a battle (FATE-NP-9)."""
    if not state.clock.get("battle"):
        return
    now = [state.clock["round"], state.clock["turn"]]
    form = owner["phantasms"][e.np_id]["form"]
    if not e.always:
        require(owner["_np_turn"] != now, "FATE-NP-6",
                f"{e.owner} already released an NP in round {now[0]}, turn {now[1]}")  # fmt: skip
    elif form == "defense":
        used = e.np_id in owner.get("_battle_uses", [])
        require(not used, "FATE-NP-9", f"{e.owner}'s always-active {e.np_id} already gave its"
                " tiles this battle")  # fmt: skip
    else:
        madness = parse_grade(owner["madness"]) if owner.get("madness") else None
        allowed, used = always_uses_per_round(madness), owner["_always_uses"].get(e.np_id, 0)
        require(used < allowed, "FATE-NP-8",
                f"{e.owner} has used {e.np_id} {count(used, 'time')} this round;"
                f" {count(allowed, 'use')} allowed")  # fmt: skip


@evolver(FieldRaised)
def _field_raised(state: State, e: FieldRaised) -> None:
    owner = character(state, e.owner, "FATE-NP-10")
    require(owner["field"] is None, "FATE-NP-10", f"{e.owner} already holds a field up")
    require_cause(state, e.cause, "FATE-NP-10", f"{e.owner}'s field {e.np_id}", "release",
                  "field")  # fmt: skip
    owner["field"] = {
        "np": e.np_id,
        "grade": e.grade,
        "reality_marble": e.reality_marble,
        "plus_used": e.plus_used,
        "round": e.round,
    }
    owner["hp"] += e.hp_bonus
    for ally in e.allies:
        character(state, ally)["hp"] += EX_FIELD_ALLY_HP


@evolver(FieldEnded)
def _field_ended(state: State, e: FieldEnded) -> None:
    owner = character(state, e.owner, "FATE-NP-10")
    require_cause(state, e.cause, "FATE-NP-10", f"the end of {e.owner}'s field {e.np_id}",
                  "release", "end of the field")  # fmt: skip
    require(
        owner["field"] is not None and owner["field"]["np"] == e.np_id,
        "FATE-NP-10",
        f"{e.owner} holds no field called {e.np_id} up",
    )
    owner["field"] = None


@evolver(ArmySummoned)
def _army_summoned(state: State, e: ArmySummoned) -> None:
    owner = character(state, e.owner, "FATE-NP-11")
    require(owner["army"] is None, "FATE-NP-11", f"{e.owner} already has an army out")
    require_cause(state, e.cause, "FATE-NP-11", f"{e.owner}'s army {e.np_id}", "release",
                  "army")  # fmt: skip
    owner["army"] = {
        "np": e.np_id,
        "units": e.units,
        "free_units": e.free_units,
        "stat_points": e.stat_points,
        "upkeep_per_round": e.upkeep_per_round,
        "round": e.round,
        "plus_used": e.plus_used,
    }


@evolver(ArmyDismissed)
def _army_dismissed(state: State, e: ArmyDismissed) -> None:
    owner = character(state, e.owner, "FATE-NP-11")
    require(
        owner["army"] is not None and owner["army"]["np"] == e.np_id,
        "FATE-NP-11",
        f"{e.owner} has no army called {e.np_id} out",
    )
    owner["army"] = None
