"""fate records, as the evolvers build them, have the shapes entities.py declares (issue 14 §3):
a master is a Master, a servant a Servant, with their effects, NPs, field, army and private
judgment bookkeeping filled in; an evolver never gives a record a key its kind lacks."""

from __future__ import annotations

import pytest

from tablelog.commands.fate import AddMaster, AddServant
from tablelog.events.fate import (
    ArmySummoned,
    BattleStarted,
    CharacterGradeSet,
    CodeCast,
    DamageTaken,
    EffectRaised,
    FieldRaised,
    MadnessToggled,
    PhantasmAdded,
    PhantasmReleased,
)
from tablelog.projections.core import State, evolve
from tablelog.projections.fate.entities import Extra, Master, Servant, madness, up_np
from tablelog.systems import fate
from tests.support.shapes import problems
from tests.unit.projections.test_fate import SABER, given

rule = pytest.mark.rule

KIRITSUGU = AddMaster("Kiritsugu", "B", "C", "D", ("fire", "earth"), 40, 30, 20)

BATTLE = [
    PhantasmAdded(
        "Saber", "air", "C", "anti-unit", points=3, mp_cost=15, hp_per_tile=6, targets=1, tiles=5
    ),
    PhantasmAdded(
        "Kiritsugu",
        "origin",
        "C",
        "anti-unit",
        mods={"wound": "2"},
        unique=True,
        points=3,
        mp_cost=15,
        tiles=5,
    ),
    BattleStarted(),
    EffectRaised(
        "Saber",
        1,
        "np-defense",
        5,
        3,
        None,
        "Saber avalon",
        block_hp=10,
        block_mp=10,
        per_turn=2,
        counter={"hp": 5, "np_hp": 10, "round": 1},
    ),
    CodeCast("Kiritsugu", "attack", 3, 2, 2, ("Saber",), 4, action=9),
    DamageTaken(
        "Saber", 6, 0, "Kiritsugu", injury=1, spent={"1": 1}, cause=9, wound="Kiritsugu origin"
    ),
    PhantasmReleased("Saber", "air", 15, ("Kiritsugu",), action=10),
    FieldRaised("Saber", "ubw", "EX", True, False, 1, 20, ("Kiritsugu",), ally_hp=10),
    ArmySummoned("Saber", "ionioi", 10, 5, 7, 5, 1),
]
"""A battle that fills in every part of a record: NPs, an effect with a counter, a cast's
judgment, a wound, a per-turn defense tile used, a release, a field and an army."""


def battle() -> State:
    """Kiritsugu and Saber after :data:`BATTLE`."""
    state = given(KIRITSUGU, SABER)
    for event in BATTLE:
        evolve(state, event)
    return state


def test_the_system_declares_the_master_and_the_servant() -> None:
    assert (Master, Servant) == fate.SYSTEM.records


@rule("FATE-CC-6")
@rule("FATE-NP-1")
def test_a_new_master_and_servant_have_their_shapes_and_not_each_others() -> None:
    """Freshly added, Kiritsugu is a Master (not a Servant: no madness, NP budget …) and Saber a
    Servant (not a Master: no crest, powers …)."""
    state = given(KIRITSUGU, SABER)
    kiritsugu, saber = state.characters["Kiritsugu"], state.characters["Saber"]
    assert (problems(kiritsugu, Master, "Kiritsugu"), problems(saber, Servant, "Saber")) == ([], [])
    assert ".madness: missing (Servant requires it)" in problems(kiritsugu, Servant)
    assert ".crest: missing (Master requires it)" in problems(saber, Master)
    assert (kiritsugu["tiles"], saber["tiles"]) == (6, 0)


@rule("FATE-NP-10")
@rule("FATE-NP-11")
@rule("FATE-NP-13")
@rule("FATE-NP-14")
def test_every_part_of_a_record_a_battle_fills_in_has_its_declared_shape() -> None:
    """After the battle each nested record is there with its values (an effect with its counter,
    the NPs, the field, the army, the private judgments) and both records check as declared."""
    state = battle()
    kiritsugu, saber = state.characters["Kiritsugu"], state.characters["Saber"]
    assert (problems(kiritsugu, Master, "Kiritsugu"), problems(saber, Servant, "Saber")) == ([], [])
    assert saber["effects"][0]["counter"] == {"hp": 5, "np_hp": 10, "round": 1}
    assert (
        saber["effects"][0]["tiles"],
        saber["_turn_use"],
        saber["_wounds"],
    ) == (2, {"1": 1}, {"Kiritsugu origin": 1})
    assert (saber["_np_turn"], saber["_released"]) == ([1, 1], {"air": True})
    assert kiritsugu["_acted"] == [1, 1, "a code cast"]
    assert kiritsugu["phantasms"]["origin"]["mods"] == {"wound": 2}
    assert (up_np(saber["field"]), up_np(saber["army"])) == ("ubw", "ionioi")
    assert (saber["field"]["reality_marble"], saber["army"]["units"]) == (True, 10)


@rule("FATE-CAST-5")
def test_the_fate_part_of_extra_holds_the_next_effect_id_and_the_actions_in_effect() -> None:
    """After effect #1, the cast #9 and the release #10: next effect #2, actions {9, 10}."""
    extra = battle().extra["fate"]
    assert ([], {"next_effect": 2, "actions": {9, 10}}) == (problems(extra, Extra), extra)


def test_the_checker_finds_a_wrong_key_or_value_in_a_nested_record() -> None:
    """The shapes are exact: an unknown key, a missing one or a value of the wrong type in an
    effect, an NP or a field is reported with its path."""
    saber = battle().characters["Saber"]
    saber["effects"][0]["colour"] = "gold"
    del saber["phantasms"]["air"]["tiles"]
    saber["field"]["round"] = "1"
    assert problems(saber, Servant, "Saber") == [
        "Saber.effects[0].colour: not a key of Effect",
        "Saber.phantasms['air'].tiles: missing (Phantasm requires it)",
        "Saber.field.round: '1' is not int",
    ]


@rule("FATE-NP-4")
@rule("FATE-UA-2")
def test_a_servants_event_on_a_master_and_a_masters_on_a_servant_add_no_key() -> None:
    """Madness on a master and a character grade on a servant (which their preconditions refuse)
    are skipped by the evolvers: neither record gains a key of the other kind."""
    state = given(KIRITSUGU, SABER)
    evolve(state, MadnessToggled("Kiritsugu", True))
    evolve(state, CharacterGradeSet("Saber", 3))
    kiritsugu, saber = state.characters["Kiritsugu"], state.characters["Saber"]
    assert (problems(kiritsugu, Master), problems(saber, Servant)) == ([], [])
    assert ("raging" in kiritsugu, "character_grade" in saber) == (False, False)
    assert (kiritsugu["character_grade"], saber["raging"]) == (0, False)


@rule("FATE-NP-4")
def test_madness_is_a_servants_grade_and_none_for_a_master() -> None:
    state = given(KIRITSUGU, AddServant("Lancelot", 60, 60, madness="C"))
    kiritsugu, lancelot = state.characters["Kiritsugu"], state.characters["Lancelot"]
    assert (madness(kiritsugu), madness(lancelot)) == (None, "C")
