"""Property tests of the saga deciders and evolvers over random valid battles.

Random command sequences are decided and applied as the session does (decide, check each
event's precondition, evolve); refused commands are skipped. For every history: deciding again
on the same state gives the same events (the draws are keyed by the state's draw counter, so an
undo gives the same random result back); folding the history without its last action gives the
state before it; and every record folds to the same units and clock when read back as schema v1
(the legacy path computes with today's rules what v2 records). Source: issue 12, items 1 and 7.
"""

from __future__ import annotations

import copy
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.commands.core import decide
from tablelog.commands.saga import (
    ApplyBuff,
    CastTech,
    EndTurn,
    PoisonUnit,
    ReleaseUnit,
    StartBattle,
    WipeParty,
)
from tablelog.events.codec import from_record, to_record
from tablelog.events.core import Event
from tablelog.events.saga import BloodPaid, TechDefined, UnitAdded, UnitSheet
from tablelog.projections.core import State, check, entity_view, evolve
from tablelog.projections.saga import init_state
from tablelog.rules.core import RuleViolation

RES = dict.fromkeys(("slash", "blunt", "pierce", "heat", "cold", "elec"), 20)
SETUP: list[Event] = [
    UnitAdded(
        "G",
        UnitSheet(
            side="ally",
            hp_max=320,
            hp=320,
            lp_max=6,
            stats={"str": 40, "vit": 30},
            slv={"1h-sword": 10},
            weapons={"1h-sword": (30,)},
            resistances=RES,
        ),
        hp_floor=0,
    ),
    UnitAdded(
        "A",
        UnitSheet(
            side="ally",
            hp_max=210,
            hp=210,
            lp_max=4,
            stats={"int": 40, "con": 25, "vit": 20},
            slv={"spell": 20},
            resistances=RES,
        ),
        hp_floor=0,
    ),
    UnitAdded(
        "W",
        UnitSheet(
            side="enemy",
            hp_max=600,
            hp=600,
            stats=dict.fromkeys(("str", "vit", "con"), 15),
            resistances=RES,
            battle_rank=20,
            intrinsic_hp=150,
        ),
        hp_floor=0,
    ),
    UnitAdded(
        "B",
        UnitSheet(
            side="enemy",
            hp_max=900,
            hp=900,
            stats=dict.fromkeys(("str", "vit", "con"), 15),
            resistances=RES,
            battle_rank=20,
            hp_floor_rate=Fraction(25),
        ),
        hp_floor=225,
    ),
    TechDefined("fang", 60, 1, 5, "enemy", ("pierce",), self_ability="str", target_ability="vit"),
]
TECHS = {
    "G": ("kiri-harai", "buraddo-suparutan-1"),
    "A": ("tenrai",),
    "W": ("fang",),
    "B": ("fang",),
}
SITUATIONS = st.sampled_from(
    [
        (),
        (("drain", "yes"),),
        (("instant_death", "yes"),),
        (("outcome", "evaded"),),
        (("support", "yes"),),
        (("combo", "150"),),
        (("defending", "yes"),),
    ]
)


@st.composite
def casts(draw: st.DrawFn) -> CastTech:
    actor = draw(st.sampled_from(sorted(TECHS)))
    tech = draw(st.sampled_from(TECHS[actor]))
    foes = ("W", "B") if actor in ("G", "A") else ("G", "A")
    targets = foes if tech == "tenrai" else (draw(st.sampled_from(foes)),)
    roll = draw(st.none() | st.sampled_from([Fraction(95, 100), Fraction(1), Fraction(21, 20)]))
    return CastTech(actor, tech, targets, roll=roll, situation=draw(SITUATIONS))


commands = st.lists(
    st.one_of(
        casts(),
        casts(),
        st.builds(PoisonUnit, st.sampled_from("GAWB")),
        st.builds(ReleaseUnit, st.sampled_from("GA")),
        st.builds(
            ApplyBuff,
            st.sampled_from("GAW"),
            st.sampled_from("GA"),
            tech_power=st.none() | st.integers(0, 3),
            attack=st.none() | st.sampled_from([-20, 10, 25]),
            tech=st.none() | st.sampled_from(["kiri-harai", "tenrai"]),
        ),
        st.just(EndTurn()),
        st.just(WipeParty()),
        st.builds(StartBattle, st.sampled_from([None, "wood", "water"])),
    ),
    max_size=30,
)


def fresh() -> State:
    state = State(system="saga", seed=5)
    init_state(state, {})
    return state


def apply(state: State, events: list[Event]) -> None:
    for e in events:
        check(state, e)
        evolve(state, e)


def play(cmds: list[object]) -> tuple[State, list[list[Event]], list[State]]:
    """Decide and apply each command; return the state, the actions and the state before each."""
    state = fresh()
    apply(state, SETUP)
    actions, befores = [], []
    for command in cmds:
        try:
            events = decide(state, command)
        except RuleViolation:
            continue
        befores.append(copy.deepcopy(state))
        apply(state, events)
        actions.append(events)
        assert events == decide(befores[-1], command)  # the same state decides the same
    return state, actions, befores


def as_v1(event: Event) -> Event:
    """``event`` as a schema-v1 record reads back (its v2 outcomes dropped), where v1 had it."""
    tag, version, data = to_record(event)
    if version == 1 or (isinstance(event, BloodPaid) and event.overdrive):
        return event
    v1_fields = {f for f in data if f not in _V2_ONLY.get(tag, ())}
    return from_record(tag, 1, {k: v for k, v in data.items() if k in v1_fields})


_V2_ONLY = {
    "saga.UnitAdded": ("hp_floor",),
    "saga.BattleStarted": ("levels", "season"),
    "saga.TurnEnded": ("next_turn", "levels", "season", "tech_power_lost"),
    "saga.EffectApplied": ("value_before", "value_after", "reason"),
    "saga.AttackDamageDealt": ("hp_lost", "draw_no"),
    "saga.HPHealed": ("healed",),
    "saga.PoisonDamageTaken": ("hp_lost", "draw_no"),
    "saga.BloodPaid": ("lp_lost", "lp_damage_effect_gain", "incapacitated", "overdrive"),
    "saga.PartyWiped": ("lp_before", "lp_damage_effect", "lp_after", "out", "levels", "season"),
}


@settings(max_examples=60)
@given(commands)
def test_random_battles_decide_again_the_same_and_undo_the_last_action(cmds):
    """Deciding on a state twice gives the same events; the history without its last action
    folds to the state before that action, draw counter included."""
    state, actions, befores = play(cmds)
    if actions:
        undone = fresh()
        for events in [SETUP, *actions[:-1]]:
            apply(undone, events)
        assert befores[-1] == undone


@settings(max_examples=60)
@given(commands)
def test_random_battles_fold_the_same_read_back_as_schema_v1(cmds):
    """What v2 records is what the legacy path computes from today's rules: the same units and
    clock when every record is read back as v1."""
    state, actions, _ = play(cmds)
    legacy = fresh()
    for e in [*SETUP, *(e for events in actions for e in events)]:
        evolve(legacy, as_v1(e))
    assert entity_view(state) == entity_view(legacy)
