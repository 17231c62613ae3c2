"""Saga evolvers and preconditions, pure: evolvers apply what an event records and never raise;
the checks they used to make are preconditions with the same rule IDs and messages; records of
schema v1 take the legacy path.

Source: saga-eb-damage.ja.txt; issue 12 (items 1 and 7); docs/saga.md, "What the log records".
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

import attrs
import pytest

from tablelog.events.codec import from_record, to_record
from tablelog.events.core import Event
from tablelog.events.saga import (
    AttackAvoided,
    AttackDamageDealt,
    BattleStarted,
    BloodPaid,
    EffectApplied,
    HPHealed,
    InstantDeathInflicted,
    PartyWiped,
    PoisonDamageTaken,
    ReleaseDamageTaken,
    TechDefined,
    TurnEnded,
    UnitAdded,
    UnitIncapacitated,
    UnitSheet,
)
from tablelog.projections.core import State, check, evolve
from tablelog.projections.saga import init_state
from tablelog.rules.core import RuleViolation

GUSTAVE = UnitSheet(side="ally", hp_max=320, hp=320, lp_max=12)
BOSS = UnitSheet(side="enemy", hp_max=1000, hp=1000, hp_floor_rate=F(50))
WOOD = {"wood": 5, "fire": 0, "earth": -5, "metal": 0, "water": 0}


def given(*events: Event) -> State:
    """A saga state after ``events``, each checked then applied (as the session does)."""
    state = State(system="saga", seed=7)
    init_state(state, {})
    for e in events:
        check(state, e)
        evolve(state, e)
    return state


BASE = (
    UnitAdded("Gustave", GUSTAVE, hp_floor=0),
    UnitAdded("Boss", BOSS, hp_floor=500),
    BattleStarted("wood", levels=WOOD),
)


def refusal(state: State, event: Event) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as caught:
        check(state, event)
    return caught.value.rule_id, caught.value.message


@pytest.mark.parametrize(
    ("event", "rule", "message"),
    [
        (UnitAdded("Gustave", GUSTAVE, hp_floor=0), "CORE-NAME", "a unit named 'Gustave' exists"),
        (TurnEnded(3), "SAGA-FIVE-2", "the turn is 1, not 3"),
        (
            EffectApplied("Nobody", "Gustave", "attack", 10),
            "UNKNOWN-NAME",
            "no unit named 'Nobody'",
        ),
        (EffectApplied("Gustave", "Gustave", "luck", 10), "SAGA-EFF-2", "unknown effect 'luck'"),
        (
            EffectApplied("Gustave", "Gustave", "attack", 10, value_before=20, value_after=30),
            "SAGA-EFF-2",
            "Gustave's attack effect value is 0; the buff was decided on 20",
        ),
        (
            AttackDamageDealt("Gustave", "Boss", "kiri-harai", 1, 1, 10000, F(1)),
            "SAGA-ATK-2",
            "attack damage 10000 is outside 0..9999",
        ),
        (
            AttackDamageDealt("Ghost", "Boss", "kiri-harai", 1, 1, 56, F(1)),
            "UNKNOWN-NAME",
            "no unit named 'Ghost'",
        ),
        (
            AttackDamageDealt("Gustave", "Boss", "kiri-harai", 1, 1, 600, F(1), hp_lost=600),
            "SAGA-HP-1",
            "Gustave's kiri-harai takes 600 HP; Boss has 1000 HP and an HP floor of 500",
        ),
        (
            AttackAvoided("Gustave", "Ghost", "kiri-harai", "missed"),
            "UNKNOWN-NAME",
            "no unit named 'Ghost'",
        ),
        (InstantDeathInflicted("Ghost"), "UNKNOWN-NAME", "no unit named 'Ghost'"),
        (
            HPHealed("Gustave", 50, healed=50),
            "SAGA-HP-5",
            "the heal gives 50 HP; Gustave has 320/320 HP",
        ),
        (
            PoisonDamageTaken("Boss", 90, F(1)),
            "SAGA-HP-2",
            "Boss has an HP floor: immune to poison",
        ),
        (
            PoisonDamageTaken("Gustave", 400, F(1), hp_lost=400),
            "SAGA-HP-2",
            "the poison takes 400 HP; Gustave has 320 HP",
        ),
        (
            ReleaseDamageTaken("Gustave", 320),
            "SAGA-REL-1",
            "release damage 320 would leave Gustave below 1 HP (HP 320)",
        ),
        (BloodPaid("Boss", "desu-uindo", 3), "SAGA-LP-2", "Boss has no LP to pay"),
        (
            BloodPaid(
                "Gustave", "desu-uindo", 3, lp_lost=13, lp_damage_effect_gain=0, incapacitated=True
            ),
            "SAGA-LP-2",
            "desu-uindo takes 13 LP; Gustave has 12 LP",
        ),
        (UnitIncapacitated("Gustave", 1), "SAGA-LP-1", "Gustave has 320 HP, not 0"),
        (
            PartyWiped(
                lp_before={"Gustave": 10}, lp_damage_effect={"Gustave": 2}, lp_after={"Gustave": 11}
            ),
            "SAGA-LP-3",
            "the wipe was decided with Gustave at 10 LP (LP-damage effect 2); Gustave has 12 LP "
            "(LP-damage effect 0)",
        ),
    ],
)
def test_a_precondition_refuses_an_event_that_no_longer_holds(event, rule, message):
    """Each check an evolver used to make is the event's precondition: same rule, same words."""
    assert (rule, message) == refusal(given(*BASE), event)


@pytest.mark.rule("SAGA-POISON-1")
def test_poison_twice_in_a_turn_is_refused_by_the_precondition():
    """A second poison tick in turn 1 does not hold (SAGA-POISON-1)."""
    state = given(*BASE, PoisonDamageTaken("Gustave", 96, F(1), hp_lost=96, draw_no=0))
    assert refusal(state, PoisonDamageTaken("Gustave", 96, F(1), hp_lost=96, draw_no=1)) == (
        "SAGA-POISON-1",
        "Gustave already took poison damage in turn 1",
    )


@pytest.mark.rule("SAGA-LP-1")
def test_incapacitating_a_unit_twice_is_refused_by_the_precondition():
    """A unit already incapacitated cannot become so again (SAGA-LP-1)."""
    state = given(*BASE, InstantDeathInflicted("Gustave"), UnitIncapacitated("Gustave", 1))
    assert refusal(state, UnitIncapacitated("Gustave", 1)) == (
        "SAGA-LP-1",
        "Gustave is already incapacitated",
    )
    assert refusal(state, HPHealed("Gustave", 5)) == ("SAGA-HP-5", "Gustave is incapacitated")


def test_turn_end_without_a_battle_is_refused_by_the_precondition():
    """No battle, no turn (SAGA-FIVE-2)."""
    state = given(UnitAdded("Gustave", GUSTAVE, hp_floor=0))
    assert refusal(state, TurnEnded(0)) == ("SAGA-FIVE-2", "no battle has started")


EVERY_EVENT = [
    UnitAdded("Gustave", GUSTAVE, hp_floor=0),
    TechDefined("fang", 30, 1, 5, "enemy"),
    BattleStarted(seasons=True, levels=WOOD, season="doyo"),
    TurnEnded(7, next_turn=8, levels=WOOD, season="autumn", tech_power_lost={"Ghost": 1}),
    EffectApplied("Ghost", "Nobody", "attack", 10, value_before=0, value_after=10),
    EffectApplied("Gustave", "Nobody", "luck", 10),
    AttackDamageDealt("Ghost", "Nobody", "kiri-harai", 1, 1, 56, F(1), hp_lost=56, draw_no=4),
    AttackDamageDealt("Ghost", "Nobody", "kiri-harai", 1, 1, 56, F(1)),
    AttackAvoided("Ghost", "Nobody", "kiri-harai", "missed"),
    InstantDeathInflicted("Ghost"),
    HPHealed("Ghost", 5, healed=5),
    HPHealed("Ghost", 5),
    PoisonDamageTaken("Ghost", 90, F(1), hp_lost=90, draw_no=2),
    ReleaseDamageTaken("Ghost", 4),
    BloodPaid("Ghost", "desu-uindo", 3, lp_lost=3, lp_damage_effect_gain=3, incapacitated=False),
    BloodPaid("Ghost", "desu-uindo", 3),
    UnitIncapacitated("Ghost", 1),
    PartyWiped(lp_before={"Ghost": 3}, lp_damage_effect={"Ghost": 0}, lp_after={"Ghost": 2}),
    PartyWiped(),
]


@pytest.mark.parametrize("event", EVERY_EVENT, ids=lambda e: e.TYPE)
def test_evolvers_are_total(event):
    """Every evolver applies any well-typed event to a fresh state, naming units that do not
    exist, without raising (a missing unit is skipped)."""
    for state in (given(), given(*BASE)):
        evolve(state, event)


def test_evolvers_apply_what_the_event_records_not_todays_rules():
    """A hit applies its recorded HP loss (7 of 56 damage), a battle its recorded levels, a
    turn end its recorded decay and next turn, a heal its recorded gain, Blood its recorded LP."""
    state = given(
        *BASE, EffectApplied("Gustave", "Gustave", "tech_power", 3, value_before=0, value_after=3)
    )
    odd = {"wood": 1, "fire": 2, "earth": 3, "metal": 4, "water": 5}
    for e in (
        AttackDamageDealt("Gustave", "Boss", "kiri-harai", 1, 1, 56, F(1), hp_lost=7, draw_no=9),
        TurnEnded(1, next_turn=99, levels=odd, season=None, tech_power_lost={"Gustave": 2}),
        HPHealed("Boss", 1000, healed=3),
        BloodPaid(
            "Gustave", "desu-uindo", 3, lp_lost=1, lp_damage_effect_gain=5, incapacitated=False
        ),
    ):
        evolve(state, e)
    assert (996, 99, odd, 1, 11, 5, 10) == (
        state.characters["Boss"]["hp"],
        state.clock["turn"],
        state.clock["levels"],
        state.characters["Gustave"]["effects"]["tech_power"],
        state.characters["Gustave"]["lp"],
        state.characters["Gustave"]["lp_damage_effect"],
        state.extra["draws"],
    )


def _v1(event: Event, *dropped: str) -> Event:
    """Return ``event`` as a schema-v1 record would read back: ``dropped`` fields absent."""
    tag, _, data = to_record(event)
    return from_record(tag, 1, {k: v for k, v in data.items() if k not in dropped})


@pytest.mark.rule("SAGA-HP-1")
@pytest.mark.rule("SAGA-FIVE-1")
@pytest.mark.rule("SAGA-LP-2")
def test_v1_records_take_the_legacy_path_with_todays_rules():
    """v1 records upcast with None outcomes: the floor 500 of a 50 % boss, wood levels, a hit of
    600 on 1000 HP stopping at the floor, Blood 3 of 12 LP, a turn end decaying tech power 3."""
    boss = _v1(UnitAdded("Boss", BOSS, hp_floor=500), "hp_floor")
    assert None is boss.hp_floor  # type: ignore[attr-defined]
    battle = _v1(BattleStarted("wood", levels=WOOD), "levels", "season")
    hit = _v1(
        AttackDamageDealt("Gustave", "Boss", "kiri-harai", 1, 1, 600, F(1), hp_lost=500, draw_no=0),
        "hp_lost",
        "draw_no",
    )
    blood = _v1(
        BloodPaid("Gustave", "desu-uindo", 3, 3, 3, False),
        "lp_lost",
        "lp_damage_effect_gain",
        "incapacitated",
        "overdrive",
    )
    up = EffectApplied("Gustave", "Gustave", "tech_power", 3, value_before=0, value_after=3)
    turn = _v1(
        TurnEnded(1, 2, WOOD, None, {"Gustave": 1}),
        "next_turn",
        "levels",
        "season",
        "tech_power_lost",
    )
    state = given(
        UnitAdded("Gustave", GUSTAVE, hp_floor=0),
        boss,
        battle,
        hit,
        blood,
        _v1(up, "value_before", "value_after", "reason"),
        turn,
    )
    g = state.characters["Gustave"]
    assert (
        state.characters["Boss"]["hp_floor"],
        state.characters["Boss"]["hp"],
        state.clock["levels"],
        g["lp"],
        g["lp_damage_effect"],
        g["effects"]["tech_power"],
        state.clock["turn"],
        state.extra["draws"],
    ) == (500, 500, WOOD, 9, 3, 2, 2, 0)


@pytest.mark.rule("SAGA-LP-3")
@pytest.mark.rule("SAGA-LP-4")
def test_a_v1_wipe_takes_the_legacy_path():
    """A v1 wipe: Gustave at LP 9 with LP-damage effect 3 → 9 − 1 + 3 = 11; HP back to max."""
    state = given(
        *BASE,
        BloodPaid("Gustave", "desu-uindo", 3, 3, 3, False),
        AttackDamageDealt("Boss", "Gustave", "fang", 1, 1, 100, F(1), hp_lost=100),
    )
    legacy = copy.deepcopy(state)
    evolve(
        legacy,
        _v1(PartyWiped(), "lp_before", "lp_damage_effect", "lp_after", "out", "levels", "season"),
    )
    g = legacy.characters["Gustave"]
    assert (g["lp"], g["hp"], g["lp_damage_effect"], legacy.clock["levels"]) == (11, 320, 0, WOOD)


def test_upcast_records_equal_their_v2_shape_with_none_outcomes():
    """The upcaster adds exactly the v2 fields, None (or empty) where v1 could not record them."""
    v1 = _v1(
        PartyWiped(lp_before={"A": 1}),
        "lp_before",
        "lp_damage_effect",
        "lp_after",
        "out",
        "levels",
        "season",
    )
    assert PartyWiped() == v1
    blood = _v1(
        BloodPaid("A", "t", 2), "lp_lost", "lp_damage_effect_gain", "incapacitated", "overdrive"
    )
    assert attrs.evolve(blood, overdrive=False) == BloodPaid("A", "t", 2)
