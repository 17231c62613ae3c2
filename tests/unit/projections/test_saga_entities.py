"""Saga unit records, as the evolvers build them from events, have the shape of the ``Unit``
TypedDict that mypy checks the saga code against (issue 14 §3; docs/saga.md, "State records").

Source: saga-eb-damage.ja.txt; SAGA-HP-1, SAGA-LP-1..4, SAGA-EFF-1..4, SAGA-POISON-1.
"""

from __future__ import annotations

from fractions import Fraction as F

import attrs
import pytest

from tablelog.events.codec import from_record, to_record
from tablelog.events.core import Event
from tablelog.events.saga import (
    BattleStarted,
    BloodPaid,
    EffectApplied,
    PartyWiped,
    PoisonDamageTaken,
    Trait,
    UnitAdded,
    UnitIncapacitated,
    UnitSheet,
)
from tablelog.projections.core import State, check, evolve
from tablelog.projections.saga import init_state
from tablelog.projections.saga.entities import EFFECT_KINDS, Unit, effect_kind, unit_of, units
from tablelog.rules.core import RuleViolation
from tests.support.shapes import problems
from tests.unit.projections.test_saga import BOSS, GUSTAVE, WOOD

# An ally with tracked LP, two weapons of one type and two traits (one with no condition), and
# an enemy without LP with an HP floor of 12.5 %, an intrinsic HP, a battle rank and a race.
AMY = attrs.evolve(
    GUSTAVE,
    hp=200,
    slv={"1h-sword": 10, "1h-gun": 20},
    weapons={"1h-sword": (30, 26), "1h-gun": (18,)},
    five={"wood": 10},
    traits=(Trait("attack", 5, "slash"), Trait("anger-power", 3)),
    guard_rate=10,
)
BEAST = attrs.evolve(BOSS, hp_floor_rate=F(25, 2), intrinsic_hp=150, battle_rank=20, race="beast")


def shapes_after_each(*events: Event) -> tuple[State, list[list[str]]]:
    """Return the state after ``events`` (each checked, then applied) and, after each event,
    what in any unit record does not match ``Unit``."""
    state = State(system="saga", seed=7)
    init_state(state, {})
    found = []
    for e in events:
        check(state, e)
        evolve(state, e)
        found.append([p for n, r in state.characters.items() for p in problems(r, Unit, n)])
    return state, found


@pytest.mark.rule("SAGA-EFF-4")
@pytest.mark.rule("SAGA-POISON-1")
@pytest.mark.rule("SAGA-LP-2")
def test_an_ally_record_is_a_unit_after_every_event():
    """An ally with tracked LP, two weapons of a type and two traits (one with no condition):
    after it is added, a battle starts, a buff lands, poison and Blood hit it, each record
    matches ``Unit``, with the sheet's tuples as lists and the traits as records."""
    state, found = shapes_after_each(
        UnitAdded("Amy", AMY, hp_floor=0),
        BattleStarted("wood", levels=WOOD),
        EffectApplied("Amy", "Amy", "attack", 20, value_before=0, value_after=10),
        PoisonDamageTaken("Amy", 63, F(1), hp_lost=63, draw_no=0),
        BloodPaid("Amy", "desu-uindo", 3, 3, 2, False),
    )
    assert found == [[]] * 5
    amy = unit_of(state, "Amy")
    assert (
        amy["side"],
        amy["hp"],
        amy["lp"],
        amy["lp_damage_effect"],
        amy["_poisoned_turn"],
        amy["effects"],
        amy["weapons"],
        amy["traits"],
        amy["hp_floor_rate"],
    ) == (
        "ally",
        137,
        9,
        2,
        1,
        {"tech_power": 0, "attack": 10, "defense": 0, "spell": 0},
        {"1h-sword": [30, 26], "1h-gun": [18]},
        [
            {"kind": "attack", "value": 5, "on": "slash"},
            {"kind": "anger-power", "value": 3, "on": None},
        ],
        "0",
    )


@pytest.mark.rule("SAGA-HP-1")
@pytest.mark.rule("SAGA-LP-1")
def test_an_enemy_record_is_a_unit_with_lp_untracked():
    """An enemy without LP, with an HP floor of 12.5 % (125 of 1000 HP), a battle rank, an
    intrinsic HP and a race, incapacitated at 0 HP: a ``Unit`` with ``lp``/``lp_max`` None."""
    boss_at_0 = attrs.evolve(BEAST, hp=0)
    state, found = shapes_after_each(
        UnitAdded("Boss", BEAST, hp_floor=125),
        UnitAdded("Ghost", boss_at_0, hp_floor=125),
        UnitIncapacitated("Ghost", lp_lost=0),
    )
    assert found == [[]] * 3
    boss, ghost = unit_of(state, "Boss"), unit_of(state, "Ghost")
    assert (
        boss["side"],
        boss["lp"],
        boss["lp_max"],
        boss["hp_floor"],
        boss["hp_floor_rate"],
        boss["intrinsic_hp"],
        boss["battle_rank"],
        boss["race"],
        boss["traits"],
        boss["_poisoned_turn"],
    ) == ("enemy", None, None, 125, "12.5", 150, 20, "beast", [], None)
    assert (ghost["incapacitated"], ghost["hp"]) == (True, 0)


def test_every_unit_record_has_every_key_of_unit():
    """Saga declares no ``NotRequired`` key: an ally's and an enemy's record hold exactly the
    keys of ``Unit``, the private ``_poisoned_turn`` among them."""
    state, _ = shapes_after_each(
        UnitAdded("Amy", AMY, hp_floor=0), UnitAdded("Boss", BEAST, hp_floor=125)
    )
    assert frozenset() == Unit.__optional_keys__
    assert "_poisoned_turn" in Unit.__required_keys__
    assert [set(Unit.__required_keys__)] * 2 == [set(r) for r in units(state).values()]


@pytest.mark.rule("SAGA-LP-3")
@pytest.mark.rule("SAGA-LP-4")
def test_a_v1_wipe_leaves_an_ally_without_lp_untracked():
    """A schema-v1 wipe (legacy path): Amy at 12 LP → 12 − 1 = 11; an ally whose LP is not
    tracked keeps ``lp`` None and is back at max HP; both records stay ``Unit``s."""
    v1 = PartyWiped()
    tag, _, data = to_record(v1)
    dropped = ("lp_before", "lp_damage_effect", "lp_after", "out", "levels", "season")
    wipe = from_record(tag, 1, {k: v for k, v in data.items() if k not in dropped})
    untracked = UnitSheet(side="ally", hp_max=100, hp=40)
    state, found = shapes_after_each(
        UnitAdded("Amy", AMY, hp_floor=0), UnitAdded("Kid", untracked, hp_floor=0), wipe
    )
    assert found == [[]] * 3
    kid = unit_of(state, "Kid")
    assert (
        unit_of(state, "Amy")["lp"],
        kid["lp"],
        kid["hp"],
        kid["incapacitated"],
    ) == (11, None, 100, False)


def test_a_record_of_another_shape_is_named_by_the_checker():
    """The contract's checker names what a record gets wrong: a side outside ally/enemy, a
    missing private key, a key ``Unit`` lacks, LP as text."""
    state, _ = shapes_after_each(UnitAdded("Amy", AMY, hp_floor=0))
    record = dict(unit_of(state, "Amy"))
    del record["_poisoned_turn"]
    record.update(side="neutral", lp="9", mood="calm")
    assert sorted(
        [
            "Amy.mood: not a key of Unit",
            "Amy._poisoned_turn: missing (Unit requires it)",
            "Amy.side: 'neutral' is none of ('ally', 'enemy')",
            "Amy.lp: '9' is not int",
        ]
    ) == sorted(problems(record, Unit, "Amy"))


def test_a_forged_side_reads_as_ally():
    """A sheet's side is ally or enemy (the decider refuses any other: SAGA-HP-1); a forged log
    record with another side folds to an ally rather than to a record no code expects."""
    forged = UnitSheet(side="neutral", hp_max=100, hp=100)
    state, found = shapes_after_each(UnitAdded("Odd", forged, hp_floor=0))
    assert (found, unit_of(state, "Odd")["side"]) == ([[]], "ally")


def test_effect_kind_names_the_effect_values():
    """An event's effect kind as text reads as a key of ``Effects``, or None (SAGA-EFF-2)."""
    assert (
        tuple(effect_kind(k) for k in ("tech_power", "attack", "defense", "spell")),
        effect_kind("luck"),
    ) == (EFFECT_KINDS, None)


def test_unit_of_refuses_an_unknown_name_with_the_rule_given():
    state, _ = shapes_after_each(UnitAdded("Amy", AMY, hp_floor=0))
    with pytest.raises(RuleViolation) as caught:
        unit_of(state, "Nobody", "SAGA-LP-3")
    assert (caught.value.rule_id, caught.value.message) == ("SAGA-LP-3", "no unit named 'Nobody'")
