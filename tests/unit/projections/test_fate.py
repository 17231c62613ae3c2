"""fate evolvers apply recorded facts and are total; preconditions hold the checks; old records
take the documented legacy path (issue 12, point 1)."""

from __future__ import annotations

import copy

import pytest

from tablelog.commands.core import decide
from tablelog.commands.fate import AddMaster, AddPhantasm, AddServant, Release, StartBattle
from tablelog.events.codec import from_record, to_record
from tablelog.events.fate import (
    AbilityUsed,
    ArmyDismissed,
    ArmySummoned,
    BattleEnded,
    BattleStarted,
    Chanted,
    CharacterGradeSet,
    CodeCast,
    CrestHealed,
    DamageTaken,
    EffectRaised,
    FieldEnded,
    FieldRaised,
    Healed,
    InjuryHealed,
    MadnessToggled,
    ManaAbsorbed,
    MasterAdded,
    PhantasmAdded,
    PhantasmReleased,
    RoundStarted,
    RowChanged,
    ServantAdded,
    TilesRefilled,
    TurnStarted,
    UpkeepPaid,
)
from tablelog.projections import fate as projection
from tablelog.projections.core import State, check, evolve
from tablelog.rules.core import RuleViolation

rule = pytest.mark.rule

NOBODY = [
    CharacterGradeSet("Nobody", 3),
    Chanted("Nobody"),
    CodeCast("Nobody", "attack", 3, 2, 2, ("Ghost",), 4, action=9),
    CrestHealed("Nobody", 2),
    DamageTaken("Nobody", 6, 2, "Ghost", 1, {"7": 1}, 1, cause=9),
    EffectRaised("Nobody", 4, "buff", 2, 1, 3, "Ghost", cause=9),
    FieldEnded("Nobody", "ubw", "dismissed"),
    FieldRaised("Nobody", "ubw", "EX", True, False, 1, 20, ("Ghost",), ally_hp=10),
    Healed("Nobody", 3, "Ghost heal", cause=9),
    InjuryHealed("Nobody", 1, "Ghost heal", cause=9),
    MadnessToggled("Nobody", True),
    PhantasmAdded("Nobody", "air", "C", "anti-unit", points=3, mp_cost=15),
    PhantasmReleased("Nobody", "air", 15, ("Ghost",), action=10),
    RowChanged("Nobody", "back"),
    TilesRefilled("Nobody", 4),
    UpkeepPaid("Nobody", "ubw", 1),
    ArmySummoned("Nobody", "ionioi", 10, 5, 7, 5, 1),
    ArmyDismissed("Nobody", "ionioi", "dismissed"),
    AbilityUsed("Nobody", "wheel", "charge", 20, targets=("Ghost",), action=11),
    ManaAbsorbed("Nobody", 8, "fort absorb"),
    TurnStarted(5),
    RoundStarted(4),
    BattleEnded(),
]
"""One event of each type that names a character the state lacks (or clocks it does not have)."""


def fresh() -> State:
    state = State(system="fate")
    projection.init_state(state, {})
    return state


def given(*commands) -> State:
    """A fresh fate state after deciding and applying each command in turn."""
    state = fresh()
    for command in commands:
        for e in decide(state, command):
            evolve(state, e)
    return state


SABER = AddServant("Saber", 60, 80, np_budget=15)


@pytest.mark.parametrize("event", NOBODY, ids=lambda e: e.TYPE)
def test_every_evolver_is_total(event) -> None:
    """An event naming a missing character, a missing effect or an out-of-step clock is applied
    as far as it goes (or skipped), never refused, on an empty table and on a table with Saber."""
    for state in (fresh(), given(SABER, StartBattle())):
        evolve(state, event)
        assert "Nobody" not in state.characters or isinstance(event, PhantasmAdded)


@pytest.mark.parametrize(
    "event",
    [e for e in NOBODY if not isinstance(e, TurnStarted | RoundStarted | BattleEnded)],
    ids=lambda e: e.TYPE,
)
def test_a_precondition_refuses_what_the_evolver_skips(event) -> None:
    """The same event does not hold on the empty table: its precondition names the missing
    character (the rule of its kind, or UNKNOWN-NAME)."""
    with pytest.raises(RuleViolation) as err:
        check(fresh(), event)
    assert err.value.message == "no character named Nobody"


@rule("FATE-CAST-5")
def test_a_defense_tile_the_state_lacks_is_skipped_by_the_evolver_refused_by_the_precondition():
    """Damage to Saber that spent effect #7 she does not hold: the evolver takes her 6 HP; the
    precondition says effect #7 is not there."""
    state = given(SABER, StartBattle())
    damage = DamageTaken("Saber", 6, 0, "external", spent={"7": 1})
    with pytest.raises(RuleViolation) as err:
        check(state, damage)
    assert (
        err.value.rule_id,
        err.value.message,
    ) == ("FATE-CAST-5", "Saber has no effect #7 with 1 tile left")
    evolve(state, damage)
    assert state.characters["Saber"]["hp"] == 54


@rule("FATE-NP-5")
@rule("FATE-NP-2")
def test_the_evolver_applies_the_numbers_the_event_records():
    """An NP recorded with 7 points, 99 MP and 9 HP a tile has those numbers in the state, not
    the ones today's rules give a C anti-unit NP (3 points, 15 MP, 6 HP)."""
    state = given(SABER)
    evolve(
        state,
        PhantasmAdded(
            "Saber",
            "air",
            "C",
            "anti-unit",
            points=7,
            mp_cost=99,
            hp_per_tile=9,
            targets=1,
            tiles=5,
            max_held=3,
            breakdown={"mp_cost": "as recorded"},
        ),
    )
    np = state.characters["Saber"]["phantasms"]["air"]
    assert (
        np["points"],
        np["mp_cost"],
        np["hp_per_tile"],
        np["targets"],
        np["tiles"],
        np["mp_formula"],
    ) == (7, 99, 9, 1, 5, "as recorded")
    assert state.characters["Saber"]["np_points"] == 7


@rule("FATE-CC-5")
@rule("FATE-CC-6")
@rule("FATE-CC-7")
def test_a_master_records_power_powers_and_tiles():
    """Kiritsugu (quality B, quantity C, fire and earth) records power 4, tiles 6 and the powers
    attack 3, defense 5, heal 3, buff 5."""
    [added] = decide(fresh(), AddMaster("Kiritsugu", "B", "C", "D", ("fire", "earth"), 40, 30, 20))
    assert (added.power, added.tiles) == (4, 6)
    assert added.powers == {"attack": 3, "defense": 5, "heal": 3, "buff": 5}


def _v1(event) -> dict:
    """The data a v1 record of ``event`` held: the fields added since left out."""
    later = {
        "power",
        "powers",
        "tiles",
        "points",
        "mp_cost",
        "hp_per_tile",
        "mp_per_tile",
        "targets",
        "block_per_tile",
        "hp_max_bonus",
        "max_held",
    }
    return {k: v for k, v in to_record(event)[2].items() if k not in later}


@rule("FATE-CC-7")
def test_a_v1_master_takes_the_legacy_path_to_the_same_record():
    """A v1 MasterAdded (no power, powers or tiles) is upcast with them None and folds to the
    record a v2 one gives (power 4, tiles 6, attack 3 … buff 5)."""
    [added] = decide(fresh(), AddMaster("Kiritsugu", "B", "C", "D", ("fire", "earth"), 40, 30, 20))
    old = from_record("fate.MasterAdded", 1, _v1(added))
    assert (old.power, old.powers, old.tiles) == (None, None, None)
    legacy, current = fresh(), fresh()
    evolve(legacy, old)
    evolve(current, added)
    assert current.characters == legacy.characters
    assert (
        legacy.characters["Kiritsugu"]["power"],
        legacy.characters["Kiritsugu"]["tiles_max"],
    ) == (4, 6)


@rule("FATE-NP-13")
def test_a_v1_phantasm_takes_the_legacy_path_to_the_same_record():
    """A v1 PhantasmAdded (Gae Bolg, B+ piercing: no numbers recorded) folds to the record a v2
    one gives: 6 points, 20 MP, 13 HP a tile, mods typed."""
    state = given(SABER)
    [added] = decide(
        state, AddPhantasm("Saber", "bolg", "B+", "anti-unit", mods=(("piercing", "true"),))
    )
    old = from_record("fate.PhantasmAdded", 1, _v1(added))
    assert (old.points, old.mp_cost) == (None, 0)
    legacy, current = copy.deepcopy(state), copy.deepcopy(state)
    evolve(legacy, old)
    evolve(current, added)
    assert current.characters == legacy.characters
    np = legacy.characters["Saber"]["phantasms"]["bolg"]
    assert (
        np["points"],
        np["mp_cost"],
        np["hp_per_tile"],
        np["mods"],
    ) == (6, 20, 13, {"piercing": True})


@rule("FATE-NP-12")
def test_a_v2_ex_field_gives_its_allies_the_legacy_10_hp():
    """A v2 FieldRaised has no ally_hp: upcast to None, its allies get 10 HP as they did."""
    state = given(SABER, AddServant("Archer", 50, 70))
    data = {
        "owner": "Archer",
        "np_id": "gob",
        "grade": "EX",
        "reality_marble": False,
        "plus_used": False,
        "round": 1,
        "hp_bonus": 20,
        "allies": ["Saber"],
        "cause": 0,
    }
    raised = from_record("fate.FieldRaised", 2, data)
    assert raised.ally_hp is None
    evolve(state, raised)
    assert (state.characters["Archer"]["hp"], state.characters["Saber"]["hp"]) == (70, 70)


@rule("FATE-NP-8")
def test_a_v2_always_active_release_checks_its_count_by_the_legacy_rule():
    """A v2 PhantasmReleased has no uses_allowed: a servant with madness B may use Gae Buidhe
    twice a round, not three times (the rule of that time)."""
    buidhe = AddPhantasm("Lancer", "buidhe", "B", "anti-unit", release="always")
    state = given(
        AddServant("Lancer", 60, 60, madness="B"),
        SABER,
        buidhe,
        StartBattle(),
        Release("Lancer", "buidhe", ("Saber",)),
    )
    data = {
        "owner": "Lancer",
        "np_id": "buidhe",
        "mp": 0,
        "targets": ["Saber"],
        "always": True,
        "breakdown": {},
        "action": 0,
        "rules": [],
    }
    again = from_record("fate.PhantasmReleased", 2, data)
    assert again.uses_allowed is None
    check(state, again)
    evolve(state, again)
    with pytest.raises(RuleViolation) as err:
        check(state, again)
    assert (
        err.value.rule_id,
        err.value.message,
    ) == ("FATE-NP-8", "Lancer has used buidhe 2 times this round; 2 uses allowed")


@rule("FATE-NP-1")
def test_the_np_limit_the_event_records_is_the_one_checked():
    """A PhantasmAdded that records max_held 1 does not hold for a servant who has one NP."""
    state = given(SABER, AddPhantasm("Saber", "air", "C", "anti-unit"))
    second = PhantasmAdded("Saber", "bolg", "E", "anti-unit", points=1, max_held=1)
    with pytest.raises(RuleViolation) as err:
        check(state, second)
    assert (err.value.rule_id, err.value.message) == ("FATE-NP-1", "Saber already holds 1 NP")


@rule("FATE-CAST-5")
def test_effects_may_skip_ids_an_undone_cast_took():
    """Effect #3 holds on a table whose next id is #1 (the casts that took #1 and #2 were
    undone); an id below the next one does not."""
    state = given(SABER, StartBattle())
    check(state, EffectRaised("Saber", 3, "curse", 2, 1, 5, "Saber"))
    evolve(state, EffectRaised("Saber", 3, "curse", 2, 1, 5, "Saber"))
    with pytest.raises(RuleViolation) as err:
        check(state, EffectRaised("Saber", 2, "curse", 2, 1, 5, "Saber"))
    assert err.value.message == "effect #2 is out of order (next is #4)"


def test_setup_events_record_every_added_name():
    """MasterAdded and ServantAdded of a name at the table do not hold (CORE-NAME)."""
    state = given(SABER)
    for event in (
        ServantAdded("Saber", 10, 10),
        MasterAdded("Saber", "C", "C", "C", ("fire",), 10, 10, 20),
    ):
        with pytest.raises(RuleViolation) as err:
            check(state, event)
        assert (
            err.value.rule_id,
            err.value.message,
        ) == ("CORE-NAME", "Saber is already at the table")
    with pytest.raises(RuleViolation):
        check(given(SABER, StartBattle()), BattleStarted())
