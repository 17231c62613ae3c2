"""Fate setup commands: masters, servants, NPs, unique abilities, rows, madness, grades."""

from __future__ import annotations

from typing import Any

import attrs

from tablelog.commands.core import decider
from tablelog.commands.fate.common import Pending, who
from tablelog.events.core import Event
from tablelog.events.fate import (
    CharacterGradeSet,
    MadnessToggled,
    MasterAdded,
    PhantasmAdded,
    RowChanged,
    ServantAdded,
)
from tablelog.projections.core import State
from tablelog.rules.core import check_name, require
from tablelog.rules.fate import (
    KINDS,
    MAX_PHANTASMS,
    NPProfile,
    cc_cost_breakdown,
    check_mods_fit,
    check_stored_spells,
    check_unique_ability,
    kind_powers,
    kind_term,
    listing,
    mod_texts,
    normalize_attribute,
    np_profile,
    parse_grade,
    power_grade,
    tile_pool,
)
from tablelog.rules.fate.phantasm import parse_madness, parse_np_grade
from tablelog.text import Msg, Term, msg

__all__ = [
    "AddMaster",
    "AddServant",
    "AddPhantasm",
    "AddUniqueAbility",
    "MoveRow",
    "ToggleMadness",
    "SetCharacterGrade",
]


@attrs.frozen
class AddMaster:
    """Add a master with a CC build (grades as letters, HP/MP maxima from the rulebook).

    ``cc_budget`` has no default: the seed gives no number of CC points (the base is in the core
    rulebook, and FP buy more), so the table states it (FATE-CC-1).
    """

    name: str
    quality: str
    quantity: str
    crest: str
    attributes: tuple[str, ...]
    hp: int
    mp: int
    cc_budget: int
    none_kind: str | None = None
    anti_magic: int = 0
    row: str = "front"
    stored: tuple[tuple[str, int], ...] = ()
    character_grade: int = 0
    force: bool = False  # add it though a taken name differs only by case (CORE-NAME)


@attrs.frozen
class AddServant:
    """Add a servant (HP, MP, NP budget, madness grade, anti-magic grade)."""

    name: str
    hp: int
    mp: int
    np_budget: int = 10
    madness: str | None = None
    anti_magic: int = 0
    row: str = "front"
    force: bool = False  # add it though a taken name differs only by case (CORE-NAME)


@attrs.frozen
class AddPhantasm:
    """Give a servant a Noble Phantasm."""

    servant: str
    np_id: str
    grade: str
    np_type: str
    form: str = "attack"
    release: str = "true-name"
    mods: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class AddUniqueAbility:
    """Give a master a unique ability (set like an NP)."""

    master: str
    ua_id: str
    grade: str
    ua_type: str
    starting: bool = False
    mods: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class MoveRow:
    """Move a character to the front or back row."""

    name: str
    row: str


@attrs.frozen
class ToggleMadness:
    """Start or stop a servant's madness enhancement."""

    name: str
    raging: bool


@attrs.frozen
class SetCharacterGrade:
    """Set a master's character grade."""

    name: str
    grade: int


def _check_new(state: State, name: str, rule_id: str, hp: int, mp: int) -> None:
    check_name(name)
    require(
        name not in state.characters,
        "CORE-NAME",
        msg("fate.name.taken", "{name} is already at the table", name=name),
    )
    require(
        hp >= 1 and mp >= 0,
        rule_id,
        msg(
            "fate.character.hp_mp",
            "{name} needs HP of 1 or more and MP of 0 or more, not HP {hp}, MP {mp}",
            name=name,
            hp=hp,
            mp=mp,
        ),
    )


def _anti_magic_below_zero(anti_magic: int) -> Msg:
    return msg("fate.anti_magic.below_zero", "anti-magic {grade} is below 0", grade=anti_magic)


@decider(AddMaster)
def decide_add_master(state: State, c: AddMaster) -> list[Event]:
    """Check the CC build against the budget and every grade limit; record the master."""
    _check_new(state, c.name, "FATE-CC-1", c.hp, c.mp)
    quality, quantity, crest = parse_grade(c.quality), parse_grade(c.quantity), parse_grade(c.crest)
    attributes = tuple(normalize_attribute(a) for a in c.attributes)
    costs = cc_cost_breakdown(quality, quantity, crest, attributes, c.cc_budget)
    power = power_grade(quality)
    powers = kind_powers(power, attributes, c.none_kind)
    stored = dict(c.stored)
    kinds = [kind for kind, _ in c.stored]
    twice = sorted({kind for kind in kinds if kinds.count(kind) > 1})
    require(
        not twice,
        "FATE-CC-10",
        msg(
            "fate.crest.kind_twice",
            "the crest stores one spell per kind; {kinds} given twice",
            kinds=listing(kind_term(k) if k in KINDS else k for k in twice),
        ),
    )
    check_stored_spells(crest, stored)
    require(c.anti_magic >= 0, "FATE-CAST-4", _anti_magic_below_zero(c.anti_magic))
    breakdown = {key: str(value) for key, value in costs.items()}
    return [
        MasterAdded(
            c.name,
            str(quality),
            str(quantity),
            str(crest),
            attributes,
            c.hp,
            c.mp,
            c.cc_budget,
            c.none_kind,
            c.anti_magic,
            c.row,
            stored,
            c.character_grade,
            breakdown,
            power,
            powers,
            tile_pool(quantity),
        )
    ]


@decider(AddServant)
def decide_add_servant(state: State, c: AddServant) -> list[Event]:
    """Record a servant; a madness grade must be a grade letter."""
    _check_new(state, c.name, "FATE-NP-1", c.hp, c.mp)
    madness = str(parse_madness(c.madness)) if c.madness else None
    require(
        c.np_budget >= 0,
        "FATE-NP-1",
        msg("fate.np_budget.below_zero", "NP budget {budget} is below 0", budget=c.np_budget),
    )
    require(c.anti_magic >= 0, "FATE-CAST-4", _anti_magic_below_zero(c.anti_magic))
    return [ServantAdded(c.name, c.hp, c.mp, c.np_budget, madness, c.anti_magic, c.row)]


def _mods(pairs: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Return the modifiers as canonical text, refusing a key given twice (FATE-NP-13)."""
    keys = [key for key, _ in pairs]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    require(
        not twice,
        "FATE-NP-13",
        msg("fate.mod.twice", "modifier {keys} given twice", keys=listing(twice)),
    )
    return mod_texts(dict(pairs))


def _np_breakdown(profile: NPProfile) -> dict[str, str]:
    return {
        **profile.formula,
        "hp_per_tile": str(profile.hp_per_tile),
        "mp_per_tile": str(profile.mp_per_tile),
        "targets": str(profile.targets),
    }


def _np_numbers(profile: NPProfile) -> dict[str, Any]:
    """Return the numbers a PhantasmAdded records (FATE-NP-1 … -13): the profile and the limit."""
    return {"breakdown": _np_breakdown(profile), **profile.numbers(), "max_held": MAX_PHANTASMS}


@decider(AddPhantasm)
def decide_add_phantasm(state: State, c: AddPhantasm) -> list[Event]:
    """Check grade, type, budget and the 3-NP limit; record the NP."""
    who(state, c.servant, "servant", "FATE-NP-1")
    check_name(c.np_id, msg("fate.what.np_id", "a Noble Phantasm id"))
    grade = parse_np_grade(c.grade)
    mods = _mods(c.mods)
    profile = np_profile(grade, c.np_type, c.form, c.release, mods)
    check_mods_fit(mods, c.np_type, c.form, c.release)
    pending = Pending(state)
    pending.add(
        PhantasmAdded(
            c.servant,
            c.np_id,
            str(grade),
            c.np_type,
            c.form,
            c.release,
            mods,
            **_np_numbers(profile),
        )
    )
    return pending.events


@decider(AddUniqueAbility)
def decide_add_unique_ability(state: State, c: AddUniqueAbility) -> list[Event]:
    """Check the unique-ability limits (FATE-UA-1, FATE-UA-3); record it."""
    who(state, c.master, "master", "FATE-UA-1")
    grade = parse_np_grade(c.grade)
    check_unique_ability(grade, c.ua_type, "true-name", c.starting)
    mods = _mods(c.mods)
    profile = np_profile(grade, c.ua_type, "attack", "true-name", mods, 1 if c.starting else 0)
    check_mods_fit(mods, c.ua_type, "attack", "true-name")
    pending = Pending(state)
    pending.add(
        PhantasmAdded(
            c.master,
            c.ua_id,
            str(grade),
            c.ua_type,
            "attack",
            "true-name",
            mods,
            unique=True,
            starting=c.starting,
            **_np_numbers(profile),
        )
    )
    return pending.events


@decider(MoveRow)
def decide_move_row(state: State, c: MoveRow) -> list[Event]:
    """Move a character between the rows."""
    record = who(state, c.name)
    require(
        c.row in ("front", "back"),
        "FATE-NP-7",
        msg("fate.row.unknown", "row {row}: a row is front or back", row=c.row),
    )
    require(
        record["row"] != c.row,
        "FATE-NP-7",
        msg(
            "fate.row.already",
            "{name} is already in the {row} row",
            name=c.name,
            row=Term("fate.row", c.row),
        ),
    )
    return [RowChanged(c.name, c.row)]


@decider(ToggleMadness)
def decide_toggle_madness(state: State, c: ToggleMadness) -> list[Event]:
    """Start or stop madness enhancement (only a servant that has it)."""
    record = who(state, c.name, "servant", "FATE-NP-4")
    require(
        record["madness"],
        "FATE-NP-4",
        msg("fate.madness.none", "{name} has no madness enhancement", name=c.name),
    )
    require(
        record["raging"] != c.raging,
        "FATE-NP-4",
        msg("fate.madness.already_raging", "{name} is already raging", name=c.name)
        if c.raging
        else msg("fate.madness.not_raging", "{name} is not raging", name=c.name),
    )
    return [MadnessToggled(c.name, c.raging)]


@decider(SetCharacterGrade)
def decide_set_character_grade(state: State, c: SetCharacterGrade) -> list[Event]:
    """Set a master's character grade (0 or more, as ``--character-grade`` at setup)."""
    who(state, c.name, "master", "FATE-UA-2")
    require(
        c.grade >= 0,
        "FATE-UA-2",
        msg("fate.master.grade_below_zero", "character grade {grade} is below 0", grade=c.grade),
    )
    return [CharacterGradeSet(c.name, c.grade)]
