"""Evolvers and preconditions of fate setup events: masters, servants, NPs, rows, madness, grades.

Evolvers apply what the events record and never raise; the preconditions hold the checks of what
an event depends on in the state (the name is free, the owner exists and has room, …).
"""

from __future__ import annotations

from tablelog.events.fate import (
    CharacterGradeSet,
    MadnessToggled,
    MasterAdded,
    PhantasmAdded,
    RowChanged,
    ServantAdded,
)
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.fate import legacy
from tablelog.projections.fate.entities import PhantasmNumbers, characters, find, madness
from tablelog.projections.fate.records import character, master_record, servant_record
from tablelog.rules.fate import article, count
from tablelog.text import Term, msg

__all__ = ["mod_value"]


@precondition(MasterAdded)
def _master_name_free(state: State, e: MasterAdded) -> None:
    require(
        e.name not in state.characters,
        "CORE-NAME",
        msg("fate.name.taken", "{name} is already at the table", name=e.name),
    )


@evolver(MasterAdded)
def _master_added(state: State, e: MasterAdded) -> None:
    characters(state)[e.name] = master_record(e)


@precondition(ServantAdded)
def _servant_name_free(state: State, e: ServantAdded) -> None:
    require(
        e.name not in state.characters,
        "CORE-NAME",
        msg("fate.name.taken", "{name} is already at the table", name=e.name),
    )


@evolver(ServantAdded)
def _servant_added(state: State, e: ServantAdded) -> None:
    characters(state)[e.name] = servant_record(e)


def _numbers(e: PhantasmAdded) -> tuple[PhantasmNumbers, int]:
    """Return the NP's numbers and the max HP it adds to its owner, as the event records them
    (a v1 event: the legacy path)."""
    if e.points is None:
        return legacy.phantasm_numbers(e)
    numbers: PhantasmNumbers = {
        "points": e.points,
        "mp_cost": e.mp_cost,
        "hp_per_tile": e.hp_per_tile,
        "mp_per_tile": e.mp_per_tile,
        "targets": e.targets,
        "tiles": e.tiles,
        "block_per_tile": e.block_per_tile,
        "mp_formula": e.breakdown.get("mp_cost", ""),
    }
    return numbers, e.hp_max_bonus


@precondition(PhantasmAdded)
def _phantasm_room(state: State, e: PhantasmAdded) -> None:
    """Refuse a 4th NP, an NP over budget, or a second unique ability (FATE-NP-1, FATE-UA-1)."""
    owner = character(state, e.owner, "FATE-NP-1")
    require(
        e.np_id not in owner["phantasms"],
        "FATE-NP-1",
        msg(
            "fate.phantasm.taken",
            "{owner} already has an NP or ability called {np_id}",
            owner=e.owner,
            np_id=e.np_id,
        ),
    )
    role = Term("fate.role", owner["role"])
    if e.unique:
        require(
            owner["role"] == "master",
            "FATE-UA-1",
            msg(
                "fate.ua.masters",
                "{owner} is {a_role}; a unique ability is a master's",
                owner=e.owner,
                a_role=article(role),
            ),
        )
        require(
            not owner["phantasms"],
            "FATE-UA-1",
            msg(
                "fate.ua.one",
                "{owner} already holds unique ability {held}",
                owner=e.owner,
                held=next(iter(owner["phantasms"]), ""),
            ),
        )
        return
    require(
        owner["role"] == "servant",
        "FATE-NP-1",
        msg(
            "fate.phantasm.servants",
            "{owner} is {a_role}; an NP is a servant's",
            owner=e.owner,
            a_role=article(role),
        ),
    )
    assert owner["role"] == "servant"
    held = legacy.MAX_HELD if e.max_held is None else e.max_held
    require(
        len(owner["phantasms"]) < held,
        "FATE-NP-1",
        msg(
            "fate.phantasm.full",
            "{owner} already holds {held}",
            owner=e.owner,
            held=count(held, "NP"),
        ),
    )
    points = _numbers(e)[0]["points"]
    require(
        owner["np_points"] + points <= owner["np_budget"],
        "FATE-NP-1",
        msg(
            "fate.phantasm.over_budget",
            "{np_id} costs {points}; {owner} has spent {spent} of {budget}",
            np_id=e.np_id,
            points=count(points, "NP point"),
            owner=e.owner,
            spent=owner["np_points"],
            budget=owner["np_budget"],
        ),
    )


@evolver(PhantasmAdded)
def _phantasm_added(state: State, e: PhantasmAdded) -> None:
    owner = find(state, e.owner)
    if owner is None:
        return
    numbers, bonus = _numbers(e)
    owner["phantasms"][e.np_id] = {
        "grade": e.grade,
        "type": e.np_type,
        "form": e.form,
        "release": e.release,
        "mods": _mods(e),
        **numbers,
        "unique": e.unique,
        "starting": e.starting,
    }
    if not e.unique and owner["role"] == "servant":
        owner["np_points"] += numbers["points"]
    owner["hp_max"] += bonus
    owner["hp"] += bonus


def _mods(e: PhantasmAdded) -> dict[str, int | bool | str]:
    """Return the NP's modifiers as the state holds them (a v1 event: the legacy path)."""
    if e.points is None:
        return legacy.typed_mods(e.mods)
    return {key: mod_value(text) for key, text in e.mods.items()}


def mod_value(text: str) -> int | bool | str:
    """Return a recorded modifier's value as the state holds it: ``true``/``false`` as a flag,
    a whole number as a number, any other text as it is (the events record canonical text,
    FATE-NP-13; no table of keys is read)."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


@precondition(RowChanged)
def _row_known(state: State, e: RowChanged) -> None:
    require(
        e.row in ("front", "back"),
        "FATE-NP-7",
        msg("fate.row.unknown", "row {row}: a row is front or back", row=e.row),
    )
    character(state, e.name)


@evolver(RowChanged)
def _row_changed(state: State, e: RowChanged) -> None:
    who = find(state, e.name)
    if who is not None:
        who["row"] = e.row


@precondition(MadnessToggled)
def _has_madness(state: State, e: MadnessToggled) -> None:
    who = character(state, e.name, "FATE-NP-4")
    require(
        bool(madness(who)),
        "FATE-NP-4",
        msg("fate.madness.none", "{name} has no madness enhancement", name=e.name),
    )


@evolver(MadnessToggled)
def _madness_toggled(state: State, e: MadnessToggled) -> None:
    who = find(state, e.name)
    if who is not None and who["role"] == "servant":
        who["raging"] = e.raging


@precondition(CharacterGradeSet)
def _is_master(state: State, e: CharacterGradeSet) -> None:
    who = character(state, e.name, "FATE-UA-2")
    require(
        who["role"] == "master",
        "FATE-UA-2",
        msg("fate.master.not", "{name} is not a master", name=e.name),
    )


@evolver(CharacterGradeSet)
def _character_grade_set(state: State, e: CharacterGradeSet) -> None:
    who = find(state, e.name)
    if who is not None and who["role"] == "master":
        who["character_grade"] = e.grade
