"""Evolvers of fate setup events: masters, servants, NPs, rows, madness, character grades."""

from __future__ import annotations

from tablelog.events.fate import (
    CharacterGradeSet,
    MadnessToggled,
    MasterAdded,
    PhantasmAdded,
    RowChanged,
    ServantAdded,
)
from tablelog.projections.core import State, evolver, require
from tablelog.projections.fate.records import character, master_record, servant_record
from tablelog.rules.fate import MAX_PHANTASMS, count, np_profile, parse_grade, typed_mods

__all__: list[str] = []


@evolver(MasterAdded)
def _master_added(state: State, e: MasterAdded) -> None:
    require(e.name not in state.characters, "CORE-NAME", f"{e.name} is already at the table")
    state.characters[e.name] = master_record(e)


@evolver(ServantAdded)
def _servant_added(state: State, e: ServantAdded) -> None:
    require(e.name not in state.characters, "CORE-NAME", f"{e.name} is already at the table")
    state.characters[e.name] = servant_record(e)


def _check_room(owner: dict, e: PhantasmAdded, points: int) -> None:
    """Refuse a 4th NP, an NP over budget, or a second unique ability."""
    require(e.np_id not in owner["phantasms"], "FATE-NP-1",
            f"{e.owner} already has an NP or ability called {e.np_id}")  # fmt: skip
    if e.unique:
        require(owner["role"] == "master", "FATE-UA-1",
                f"{e.owner} is a {owner['role']}; a unique ability is a master's")  # fmt: skip
        require(
            not owner["phantasms"],
            "FATE-UA-1",
            f"{e.owner} already holds unique ability {next(iter(owner['phantasms']), '')}",
        )
        return
    require(owner["role"] == "servant", "FATE-NP-1",
            f"{e.owner} is a {owner['role']}; an NP is a servant's")  # fmt: skip
    require(
        len(owner["phantasms"]) < MAX_PHANTASMS,
        "FATE-NP-1",
        f"{e.owner} already holds {MAX_PHANTASMS} NPs",
    )
    total = owner["np_points"] + points
    require(
        total <= owner["np_budget"],
        "FATE-NP-1",
        f"{e.np_id} costs {count(points, 'NP point')}; {e.owner} has spent {owner['np_points']}"
        f" of {owner['np_budget']}",
    )


@evolver(PhantasmAdded)
def _phantasm_added(state: State, e: PhantasmAdded) -> None:
    owner = character(state, e.owner, "FATE-NP-1")
    grade = parse_grade(e.grade)
    profile = np_profile(
        grade, e.np_type, e.form, e.release, e.mods, extra_grades=1 if e.starting else 0
    )
    _check_room(owner, e, profile.points)
    owner["phantasms"][e.np_id] = {
        "grade": e.grade,
        "type": e.np_type,
        "form": e.form,
        "release": e.release,
        "mods": typed_mods(e.mods),
        "points": profile.points,
        "mp_cost": profile.mp_cost,
        "hp_per_tile": profile.hp_per_tile,
        "mp_per_tile": profile.mp_per_tile,
        "targets": profile.targets,
        "tiles": profile.tiles,
        "block_per_tile": profile.block_per_tile,
        "mp_formula": profile.formula["mp_cost"],
        "unique": e.unique,
        "starting": e.starting,
    }
    if not e.unique:
        owner["np_points"] += profile.points
    if profile.hp_max_bonus:
        owner["hp_max"] += profile.hp_max_bonus
        owner["hp"] += profile.hp_max_bonus


@evolver(RowChanged)
def _row_changed(state: State, e: RowChanged) -> None:
    require(e.row in ("front", "back"), "FATE-NP-7", f"row {e.row}: a row is front or back")
    character(state, e.name)["row"] = e.row


@evolver(MadnessToggled)
def _madness_toggled(state: State, e: MadnessToggled) -> None:
    who = character(state, e.name, "FATE-NP-4")
    require(who.get("madness"), "FATE-NP-4", f"{e.name} has no madness enhancement")
    who["raging"] = e.raging


@evolver(CharacterGradeSet)
def _character_grade_set(state: State, e: CharacterGradeSet) -> None:
    who = character(state, e.name, "FATE-UA-2")
    require(who["role"] == "master", "FATE-UA-2", f"{e.name} is not a master")
    who["character_grade"] = e.grade
