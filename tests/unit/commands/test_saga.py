"""Given events, when a SaGa command, then events (or a RuleViolation): the deciders.

Source: saga-eb-damage.ja.txt; the SAGA-* rules of RULES.md that need a session.
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

import attrs
import pytest

from tablelog.commands.core import decide
from tablelog.commands.saga import (
    AddUnit,
    ApplyBuff,
    CastTech,
    EndTurn,
    PoisonUnit,
    ReleaseUnit,
    StartBattle,
    WipeParty,
)
from tablelog.events.saga import (
    AttackAvoided,
    AttackDamageDealt,
    BattleStarted,
    BloodPaid,
    EffectApplied,
    HPHealed,
    InstantDeathInflicted,
    PoisonDamageTaken,
    ReleaseDamageTaken,
    TurnEnded,
    UnitAdded,
    UnitIncapacitated,
    UnitSheet,
)
from tablelog.lang import ENGLISH
from tablelog.projections.core import State, check, evolve
from tablelog.projections.saga import init_state
from tablelog.rules.core import RuleViolation
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import damage as dmg

RES20 = dict.fromkeys(("slash", "blunt", "pierce", "heat", "cold", "elec"), 20)
GUSTAVE = UnitSheet(
    side="ally",
    hp_max=320,
    hp=320,
    lp_max=12,
    stats={"str": 40, "vit": 30},
    slv={"1h-sword": 10},
    weapons={"1h-sword": (30,)},
    resistances=RES20,
)
WOLF = UnitSheet(
    side="enemy",
    hp_max=900,
    hp=900,
    stats={"vit": 30, "con": 30, "str": 20},
    resistances=RES20,
    battle_rank=20,
    intrinsic_hp=150,
    race="beast",
)
BOSS = UnitSheet(
    side="enemy",
    hp_max=1000,
    hp=1000,
    stats={"vit": 30},
    resistances=RES20,
    battle_rank=20,
    hp_floor_rate=F(50),
)

WARD = UnitSheet(
    side="ally",
    hp_max=300,
    hp=300,
    lp_max=12,
    stats={"str": 40},
    slv={"2h-sword": 10},
    weapons={"2h-sword": (30,)},
)


def given(*events, seed=7):
    """Return a SaGa state with ``events`` applied (seq = their count)."""
    state = State(system="saga", seed=seed)
    init_state(state, {})
    for e in events:
        evolve(state, e)
        state.seq += 1
    return state


def then(state, command):
    """Decide ``command``, check each event's precondition and apply it, as the session does;
    return (events, new state)."""
    events = decide(state, command)
    after = copy.deepcopy(state)
    for e in events:
        check(after, e)
        evolve(after, e)
    return events, after


BASE = (UnitAdded("Gustave", GUSTAVE), UnitAdded("Wolf", WOLF), BattleStarted())


@pytest.mark.rule("SAGA-ATK-16")
def test_cast_draws_once_per_process_and_records_it():
    """Each hit records its drawn factor; deciding again on the same state draws the same."""
    state = given(*BASE)
    events, after = then(state, CastTech("Gustave", "kiri-harai", ("Wolf",)))
    (hit,) = events
    assert isinstance(hit, AttackDamageDealt)
    assert F("0.95") <= hit.random_factor <= F("1.05")
    assert events == decide(state, CastTech("Gustave", "kiri-harai", ("Wolf",)))
    expected = dmg.compute_hit(
        cat.tech("kiri-harai"),
        dmg.Attacker(weapon_power=30, slv=10, stat=40),
        dmg.Defender(resistances=RES20, stat=30),
        dmg.Situation(),
        hit.random_factor,
    )
    assert expected.value == hit.damage
    assert 900 - hit.damage == after.characters["Wolf"]["hp"]
    assert "base_power" in hit.breakdown and "random_correction" in hit.breakdown


@pytest.mark.rule("SAGA-ATK-2")
def test_multi_process_tech_logs_one_event_per_process():
    """天雷 (5 processes) at a reported roll 1 gives five hits of ⌊base / 5⌋ each."""
    sheet = UnitSheet(
        side="ally",
        hp_max=200,
        hp=200,
        lp_max=9,
        stats={"int": 40},
        slv={"spell": 20},
        five={"wood": 10},
    )
    state = given(UnitAdded("Amy", sheet), UnitAdded("Wolf", WOLF), BattleStarted(terrain="wood"))
    events, after = then(state, CastTech("Amy", "tenrai", ("Wolf",), roll=F(1)))
    assert [e.process for e in events] == [1, 2, 3, 4, 5]
    # base 53, compound 344.5; five (10 + 5) × 0.01 − 0 = 0.15; correction
    # 1 − (0.1 + 30 × 0.0025) + 0.15 = 0.975; 344.5 × 0.975 = 335.8875 − √60 (7.746) = 328.14
    # → 328; ⌊328 / 5⌋ = 65 per process.
    assert [e.damage for e in events] == [65] * 5
    assert after.characters["Wolf"]["hp"] == 900 - 325


@pytest.mark.rule("SAGA-ATK-1")
def test_evaded_tech_logs_the_reason_and_no_damage():
    """An evaded tech gives AttackAvoided('evaded') and leaves HP alone."""
    state = given(*BASE)
    events, after = then(
        state, CastTech("Gustave", "kiri-harai", ("Wolf",), situation=(("outcome", "evaded"),))
    )
    assert [AttackAvoided("Gustave", "Wolf", "kiri-harai", "evaded")] == events
    assert after.characters["Wolf"]["hp"] == 900


@pytest.mark.rule("SAGA-HP-1")
def test_enemy_hp_stops_at_its_floor():
    """A boss with a 50% floor (500 of 1000) at 520 HP stops at 500."""
    state = given(UnitAdded("Gustave", GUSTAVE), UnitAdded("Boss", BOSS), BattleStarted())
    state.characters["Boss"]["hp"] = 520
    _, after = then(state, CastTech("Gustave", "kiri-harai", ("Boss",), roll=F(1)))
    assert after.characters["Boss"]["hp"] == 500


@pytest.mark.rule("SAGA-DISP-3")
@pytest.mark.rule("SAGA-HP-4")
def test_instant_death_hides_damage_and_zeroes_hp_through_a_floor():
    """Instant death: the damage is computed but hidden, then HP 0 even with an HP floor."""
    state = given(UnitAdded("Gustave", GUSTAVE), UnitAdded("Boss", BOSS), BattleStarted())
    events, after = then(
        state,
        CastTech(
            "Gustave", "kiri-harai", ("Boss",), roll=F(1), situation=(("instant_death", "yes"),)
        ),
    )
    hit, death, down = events
    assert (hit.hidden, hit.damage > 0) == (True, True)
    assert InstantDeathInflicted("Boss", "kiri-harai") == death
    assert UnitIncapacitated("Boss", 0) == down
    assert after.characters["Boss"]["hp"] == 0


@pytest.mark.rule("SAGA-HP-5")
def test_drain_heals_the_actor_by_the_damage():
    """Drain heals the actor by the damage dealt, capped at max HP."""
    state = given(*BASE)
    state.characters["Gustave"]["hp"] = 100
    events, after = then(
        state, CastTech("Gustave", "kiri-harai", ("Wolf",), roll=F(1), situation=(("drain", "1"),))
    )
    hit, heal = events
    assert HPHealed("Gustave", hit.damage, "drain", healed=hit.damage) == heal
    assert 100 + hit.damage == after.characters["Gustave"]["hp"]


@pytest.mark.rule("SAGA-LP-1")
def test_ally_at_zero_hp_is_incapacitated_and_loses_one_lp():
    """An ally brought to 0 HP becomes incapacitated and loses 1 LP (12 → 11)."""
    state = given(*BASE)
    state.characters["Gustave"]["hp"] = 5
    events, after = then(state, CastTech("Wolf", "kiri-harai", ("Gustave",), roll=F(1)))
    assert UnitIncapacitated("Gustave", 1) == events[-1]
    assert tuple(after.characters["Gustave"][k] for k in ("hp", "incapacitated", "lp")) == (
        0,
        True,
        11,
    )


@pytest.mark.rule("SAGA-TARGET-1")
def test_no_tech_targets_an_incapacitated_unit():
    """A downed Wolf (0 HP, incapacitated) is no target of any tech, alone or among others; a
    downed ally neither."""
    state = given(*BASE, UnitAdded("Rat", WOLF))
    state.characters["Wolf"].update(hp=0, incapacitated=True)
    for targets in (("Wolf",), ("Rat", "Wolf")):
        tech = "kiri-harai" if len(targets) == 1 else "tenrai"
        with pytest.raises(RuleViolation) as caught:
            decide(state, CastTech("Gustave", tech, targets, roll=F(1)))
        assert (
            caught.value.rule_id,
            caught.value.message,
        ) == ("SAGA-TARGET-1", "Wolf is incapacitated: no tech targets it")
    state.characters["Gustave"].update(hp=0, incapacitated=True)
    with pytest.raises(RuleViolation, match="SAGA-TARGET-1"):
        decide(state, CastTech("Rat", "kiri-harai", ("Gustave",), roll=F(1)))


@pytest.mark.rule("SAGA-LP-2")
def test_blood_tech_costs_lp_and_is_refused_when_cost_reaches_lp():
    """Blood tech 'desu-uindo' (LP 3) at LP 12 → 9; at LP 3 it is refused."""
    state = given(UnitAdded("Ward", WARD), UnitAdded("Wolf", WOLF), BattleStarted())
    events, after = then(state, CastTech("Ward", "desu-uindo", ("Wolf",)))
    assert (
        BloodPaid("Ward", "desu-uindo", 3, lp_lost=3, lp_damage_effect_gain=3, incapacitated=False)
        == events[0]
    )
    assert (after.characters["Ward"]["lp"], after.characters["Ward"]["lp_damage_effect"]) == (9, 3)
    state.characters["Ward"]["lp"] = 3
    with pytest.raises(RuleViolation, match="SAGA-LP-2"):
        decide(state, CastTech("Ward", "desu-uindo", ("Wolf",)))


@pytest.mark.rule("SAGA-LP-3")
@pytest.mark.rule("SAGA-LP-4")
def test_wipe_costs_one_lp_and_returns_blood_costs():
    """Wipe: LP 9 (after Blood 3) − 1 + 3 = 11; an incapacitated ally keeps its LP."""
    state = given(
        UnitAdded("Ward", WARD),
        UnitAdded("Gustave", GUSTAVE),
        UnitAdded("Wolf", WOLF),
        BattleStarted(),
        BloodPaid("Ward", "desu-uindo", 3),
    )
    state.characters["Gustave"].update(hp=0, incapacitated=True, lp=11)
    _, after = then(state, WipeParty())
    assert tuple(after.characters["Ward"][k] for k in ("lp", "hp", "lp_damage_effect")) == (
        11,
        300,
        0,
    )
    assert tuple(after.characters["Gustave"][k] for k in ("lp", "incapacitated", "hp")) == (
        11,
        False,
        320,
    )


@pytest.mark.rule("SAGA-POISON-1")
@pytest.mark.rule("SAGA-POISON-2")
@pytest.mark.rule("SAGA-HP-2")
def test_poison_once_per_turn_and_immune_with_floor():
    """Poison: ⌈900 × 100 / 150 × 0.3 × 1.0⌉ = 180 once a turn; a floored enemy is immune."""
    state = given(*BASE, UnitAdded("Boss", BOSS))
    events, after = then(state, PoisonUnit("Wolf", roll=F(1)))
    assert [
        PoisonDamageTaken("Wolf", 180, F(1), False, events[0].breakdown, hp_lost=180, draw_no=0)
    ] == events
    assert after.characters["Wolf"]["hp"] == 720
    with pytest.raises(RuleViolation, match="SAGA-POISON-1"):
        decide(after, PoisonUnit("Wolf"))
    after.clock["turn"] += 1  # next turn: poison again
    assert len(decide(after, PoisonUnit("Wolf"))) == 1
    with pytest.raises(RuleViolation, match="SAGA-HP-2"):
        decide(state, PoisonUnit("Boss"))


@pytest.mark.rule("SAGA-REL-1")
@pytest.mark.rule("SAGA-HP-3")
def test_release_damage_lowers_hp():
    """Release at 320/320: ⌊64⌋ → HP 256; at HP 30: 29 → HP 1."""
    state = given(*BASE)
    events, after = then(state, ReleaseUnit("Gustave"))
    assert events[0].damage == 64 and isinstance(events[0], ReleaseDamageTaken)
    assert after.characters["Gustave"]["hp"] == 256
    state.characters["Gustave"]["hp"] = 30
    _, after = then(state, ReleaseUnit("Gustave"))
    assert after.characters["Gustave"]["hp"] == 1


@pytest.mark.rule("SAGA-EFF-1")
@pytest.mark.rule("SAGA-ATK-12")
def test_tech_power_up_decays_each_turn_and_raises_recoil():
    """Tech-power-up 3 → 2 after a turn; a target in that state takes × 1.2 (recoil)."""
    state = given(*BASE)
    _, after = then(state, ApplyBuff("Gustave", "Gustave", tech_power=3))
    assert after.characters["Gustave"]["effects"]["tech_power"] == 3
    _, later = then(after, EndTurn())
    assert (later.characters["Gustave"]["effects"]["tech_power"], later.clock["turn"]) == (2, 2)
    events = decide(later, CastTech("Wolf", "kiri-harai", ("Gustave",), roll=F(1)))
    assert events[0].breakdown["awakening_recoil_correction"] == "1.2"


@pytest.mark.rule("SAGA-EFF-2")
@pytest.mark.rule("SAGA-EFF-3")
def test_debuff_from_the_other_side_lands_only_after_damage():
    """A damaging tech's debuff lands only when its damage was not 0; a plain buff lands."""
    state = given(*BASE)
    events, after = then(state, ApplyBuff("Wolf", "Gustave", defense=-10, tech="kiri-harai"))
    why = "Gustave has not hit Wolf with kiri-harai in this battle"
    assert [
        EffectApplied(
            "Wolf",
            "Gustave",
            "defense",
            -10,
            False,
            "kiri-harai",
            value_before=0,
            value_after=0,
            reason=why,
        )
    ] == events
    _, hit = then(state, CastTech("Gustave", "kiri-harai", ("Wolf",), roll=F(1)))
    _, after = then(hit, ApplyBuff("Wolf", "Gustave", defense=-40, tech="kiri-harai"))
    assert after.characters["Wolf"]["effects"]["defense"] == -30
    _, after = then(after, ApplyBuff("Wolf", "Wolf", defense=50))
    assert after.characters["Wolf"]["effects"]["defense"] == 0  # −30 + 50 clamps at 0


@pytest.mark.rule("SAGA-FIVE-1")
@pytest.mark.rule("SAGA-FIVE-2")
def test_seasons_turn_with_the_turn():
    """Seasons battle: turn 1 doyo (earth 40), turn 3 spring (wood 40)."""
    state = given(*BASE)
    _, after = then(state, StartBattle(seasons=True))
    assert (after.clock["season"], after.clock["levels"]["earth"]) == ("doyo", 40)
    _, after = then(after, EndTurn())
    _, after = then(after, EndTurn())
    assert (
        after.clock["turn"],
        after.clock["season"],
        after.clock["levels"]["wood"],
    ) == (3, "spring", 40)
    spring = {"wood": 40, "fire": 0, "earth": -20, "metal": 0, "water": 0}
    assert [
        TurnEnded(3, next_turn=4, levels=spring, season="spring", tech_power_lost={})
    ] == decide(after, EndTurn())


@pytest.mark.rule("SAGA-ATK-14")
def test_race_slayer_comes_from_the_tech_and_the_target_race():
    """墨 (slayer-beast) against a beast gets slayer correction 1.2."""
    sheet = UnitSheet(
        side="ally", hp_max=200, hp=200, lp_max=5, stats={"int": 30}, slv={"monster": 10}
    )
    state = given(UnitAdded("Rhea", sheet), UnitAdded("Wolf", WOLF), BattleStarted())
    events = decide(state, CastTech("Rhea", "sumi-1", ("Wolf",)))
    assert {"1.2"} == {e.breakdown["slayer_correction"] for e in events}


@pytest.mark.rule("SAGA-ATK-5")
def test_refusals_name_the_rule():
    """Unknown unit or tech, missing weapon, a second target for a single tech are refused."""
    state = given(*BASE)
    cases = [
        (CastTech("Nobody", "kiri-harai", ("Wolf",)), "UNKNOWN-NAME"),
        (CastTech("Gustave", "no-such-tech", ("Wolf",)), "UNKNOWN-NAME"),
        (CastTech("Gustave", "kiri-harai", ("Ghost",)), "UNKNOWN-NAME"),
        (CastTech("Gustave", "buruku-rasshu", ("Wolf",)), "SAGA-ATK-5"),  # no 2H sword
        (CastTech("Gustave", "kiri-harai", ("Wolf", "Wolf")), "SAGA-ATK-2"),
        (CastTech("Gustave", "kiri-harai", ("Wolf",), situation=(("mood", "1"),)), "SAGA-ATK-11"),
        (CastTech("Gustave", "kiri-harai", ("Wolf",), roll=F("1.2")), "SAGA-ATK-16"),
        (AddUnit("Gustave", GUSTAVE), "CORE-NAME"),
        (StartBattle(terrain="wood", seasons=True), "SAGA-FIVE-1"),
    ]
    for command, rule in cases:
        with pytest.raises(RuleViolation) as caught:
            decide(state, command)
        assert rule == caught.value.rule_id, command


@pytest.mark.rule("SAGA-ATK-16")
def test_random_multi_targets_are_drawn_per_process():
    """鉛の嵐 (6 processes, random-multi) spreads its processes over the given targets."""
    sheet = UnitSheet(
        side="ally",
        hp_max=200,
        hp=200,
        lp_max=5,
        stats={"tec": 30},
        slv={"2h-gun": 10},
        weapons={"2h-gun": (25,)},
    )
    state = given(
        UnitAdded("Gun", sheet), UnitAdded("Wolf", WOLF), UnitAdded("Wolf2", WOLF), BattleStarted()
    )
    events = decide(state, CastTech("Gun", "namari-no-arashi", ("Wolf", "Wolf2")))
    assert len(events) == 6
    assert {"Wolf", "Wolf2"} >= {e.target for e in events}
    assert events == decide(state, CastTech("Gun", "namari-no-arashi", ("Wolf", "Wolf2")))


def test_decided_events_round_trip_through_the_codec():
    """Every kind of decided SaGa event survives to_record / from_record unchanged."""
    from tablelog.events.codec import from_record, to_record

    state = given(*BASE)
    commands = [
        ApplyBuff("Gustave", "Gustave", tech_power=2, attack=5),
        CastTech("Gustave", "kiri-harai", ("Wolf",), situation=(("drain", "yes"),)),
        CastTech("Wolf", "kiri-harai", ("Gustave",), situation=(("outcome", "parried"),)),
        PoisonUnit("Wolf"),
        ReleaseUnit("Gustave"),
        EndTurn(),
        WipeParty(),
    ]
    seen = [*BASE]
    for command in commands:
        events, state = then(state, command)
        seen += events
    assert len({type(e) for e in seen}) >= 10
    for e in seen:
        assert e == from_record(*to_record(e))


# -- messages a GM reads; the rules history names (QA findings) --------------------------------


@pytest.mark.rule("SAGA-LP-2")
def test_blood_refusals_read_as_english():
    """A Blood tech: untracked LP says to add --lp; at 1 LP the message says `1 LP remains`."""
    sheet = attrs.evolve(GUSTAVE, lp_max=None, slv={"2h-sword": 10}, weapons={"2h-sword": (30,)})
    state = given(UnitAdded("Ward", sheet), UnitAdded("Wolf", WOLF), BattleStarted())
    with pytest.raises(RuleViolation) as untracked:
        decide(state, CastTech("Ward", "desu-uindo", ("Wolf",)))
    state.characters["Ward"]["lp"] = 1
    with pytest.raises(RuleViolation) as low:
        decide(state, CastTech("Ward", "desu-uindo", ("Wolf",)))
    assert (untracked.value.message, low.value.message) == (
        "desu-uindo is a Blood tech, but Ward's LP is not tracked (add the unit with --lp)",
        "the Blood tech costs 3 LP and only 1 LP remains",
    )


@pytest.mark.rule("SAGA-ATK-5")
def test_missing_weapons_are_counted_in_words():
    """A dual-wield tech without a second sword says `2 1h-sword weapons`, not `weapon(s)`."""
    state = given(*BASE)
    with pytest.raises(RuleViolation) as caught:
        decide(state, CastTech("Gustave", "ni-tou-reppuu-ken", ("Wolf",)))
    assert caught.value.message == "Gustave needs 2 1h-sword weapons for this tech, has 1"


@pytest.mark.parametrize(
    ("event", "rule_line"),
    [
        (UnitAdded("Gustave", GUSTAVE), None),
        (UnitAdded("Wolf", WOLF), "rule SAGA-ATK-5"),
        (UnitAdded("Boss", BOSS), "rule SAGA-ATK-5, SAGA-HP-1"),
        (BattleStarted(terrain="wood"), "rule SAGA-FIVE-1"),
        (BattleStarted(seasons=True), "rule SAGA-FIVE-1, SAGA-FIVE-2"),
        (EffectApplied("Gustave", "Amy", "tech_power", 3), "rule SAGA-EFF-1"),
        (EffectApplied("Gustave", "Amy", "attack", 10), "rule SAGA-EFF-2, SAGA-EFF-3"),
        (EffectApplied("Wolf", "Amy", "defense", -10, landed=False), "rule SAGA-EFF-3"),
        (UnitIncapacitated("Wolf"), None),
        (UnitIncapacitated("Gustave", lp_lost=1), "rule SAGA-LP-1"),
        (InstantDeathInflicted("Wolf"), "rule SAGA-HP-4"),
        (
            AttackDamageDealt("Gustave", "Wolf", "kiri-harai", 1, 1, 56, F(1)),
            "rule SAGA-ATK-2, SAGA-ATK-3, SAGA-ATK-4, SAGA-ATK-11, SAGA-ATK-16, SAGA-HP-1",
        ),
        (
            AttackDamageDealt("Gustave", "Wolf", "b", 1, 1, 194, F(1), shown=(58, 17, 19)),
            "rule SAGA-ATK-2, SAGA-ATK-3, SAGA-ATK-4, SAGA-ATK-11, SAGA-ATK-16, SAGA-DISP-2, "
            "SAGA-HP-1",
        ),
        (
            AttackDamageDealt("Gustave", "Wolf", "b", 1, 1, 194, F(1), hidden=True),
            "rule SAGA-ATK-2, SAGA-ATK-3, SAGA-ATK-4, SAGA-ATK-11, SAGA-ATK-16, SAGA-DISP-3, "
            "SAGA-HP-1",
        ),
    ],
)
def test_history_names_exactly_the_rules_behind_each_event(event, rule_line):
    """history's `rule …` line names the RULES.md clauses that applied to this event only."""
    assert ([rule_line] if rule_line else []) == [
        line for line in ENGLISH.explain(event) if line.startswith("rule ")
    ]


def test_every_event_names_only_rules_md_ids():
    """Each saga event class lists only RULES.md IDs (SAGA-AREA-N)."""
    import re

    from tablelog.events.core import registered_types

    for tag, cls in registered_types().items():
        if tag.startswith("saga."):
            assert all(re.fullmatch(r"SAGA-[A-Z]+-\d+", r) for r in cls.RULES), (tag, cls.RULES)


# -- issue 15: fidelity, second pass ---------------------------------------------------------

OVERDRIVE = (("overdrive", "yes"),)


@pytest.mark.rule("SAGA-LP-2")
def test_a_blood_tech_costing_the_lp_left_cannot_be_chosen_in_an_overdrive_either():
    """desu-uindo (LP 3) at LP 3 in an overdrive is refused as outside one (seed: such a Blood
    tech 「行動入力時に選択できません」); confused, it may be picked: no LP paid, effect +3."""
    state = given(UnitAdded("Ward", WARD), UnitAdded("Wolf", WOLF), BattleStarted())
    state.characters["Ward"]["lp"] = 3
    with pytest.raises(RuleViolation) as caught:
        decide(state, CastTech("Ward", "desu-uindo", ("Wolf",), situation=OVERDRIVE))
    assert (
        caught.value.rule_id,
        caught.value.message,
    ) == ("SAGA-LP-2", "the Blood tech costs 3 LP and only 3 LP remain")
    confused = (*OVERDRIVE, ("confused", "yes"))
    events, after = then(state, CastTech("Ward", "desu-uindo", ("Wolf",), situation=confused))
    assert (
        BloodPaid(
            "Ward",
            "desu-uindo",
            3,
            lp_lost=0,
            lp_damage_effect_gain=3,
            incapacitated=False,
            overdrive=True,
        )
        == events[0]
    )
    assert (after.characters["Ward"]["lp"], after.characters["Ward"]["lp_damage_effect"]) == (3, 3)


@pytest.mark.rule("SAGA-LP-2")
@pytest.mark.rule("SAGA-LP-4")
def test_a_blood_tech_in_an_overdrive_costs_no_lp_but_grows_the_lp_damage_effect():
    """desu-uindo in an overdrive at LP 12: LP stays 12, the LP-damage effect 0 → 3 (seed: the
    value updates 「ブラッド技の使用後」); a wipe then recovers it: 12 − 1 + 3 = 14, capped at 12;
    from LP 9, 9 − 1 + 3 = 11."""
    state = given(UnitAdded("Ward", WARD), UnitAdded("Wolf", WOLF), BattleStarted())
    events, after = then(state, CastTech("Ward", "desu-uindo", ("Wolf",), situation=OVERDRIVE))
    assert ENGLISH.event(events[0]) == "Ward uses desu-uindo in an overdrive: no LP paid"
    assert (after.characters["Ward"]["lp"], after.characters["Ward"]["lp_damage_effect"]) == (12, 3)
    _, wiped = then(after, WipeParty())
    assert wiped.characters["Ward"]["lp"] == 12
    after.characters["Ward"]["lp"] = 9
    _, wiped = then(after, WipeParty())
    assert wiped.characters["Ward"]["lp"] == 11


@pytest.mark.rule("SAGA-LP-2")
@pytest.mark.rule("SAGA-LP-4")
@pytest.mark.rule("SAGA-BUG-1")
def test_a_blood_tech_that_takes_lp_to_zero_still_adds_its_cost():
    """desu-uindo (LP 3) by a confused Ward at LP 3: LP 3 → max(3 − 3, 0) = 0, incapacitated,
    and the LP-damage effect 0 → 0 + 3 = 3 all the same (the seed's formula: LPダメージ効果値_next
    = LPダメージ効果値 + LPダメージ性能値 after every Blood tech; 「…加算されないというバグが
    存在します」 is a bug the tool does not copy). A wipe then recovers it: LP 0 (incapacitated:
    no −1) + 3 = 3."""
    state = given(UnitAdded("Ward", WARD), UnitAdded("Wolf", WOLF), BattleStarted())
    state.characters["Ward"]["lp"] = 3
    confused = (("confused", "yes"),)
    events, after = then(state, CastTech("Ward", "desu-uindo", ("Wolf",), situation=confused))
    assert (
        BloodPaid("Ward", "desu-uindo", 3, lp_lost=3, lp_damage_effect_gain=3, incapacitated=True)
        == events[0]
    )
    ward = after.characters["Ward"]
    assert (ward["lp"], ward["lp_damage_effect"], ward["incapacitated"]) == (0, 3, True)
    _, wiped = then(after, WipeParty())
    assert wiped.characters["Ward"]["lp"] == 3


@pytest.mark.rule("SAGA-FIVE-2")
def test_the_displayed_turn_stops_at_99_in_winter():
    """Seasons: turn 98 (autumn) → 99 (winter) → 99 again, still winter (「表示ターンの最大値は
    99です。99ターン目以降は季節が冬に固定され」); tech-power still decays."""
    state = given(
        *BASE, BattleStarted(seasons=True), EffectApplied("Gustave", "Gustave", "tech_power", 3)
    )
    state.clock["turn"] = 98
    events, after = then(state, EndTurn())
    assert (
        after.clock["turn"],
        after.clock["season"],
        after.clock["levels"]["water"],
    ) == (99, "winter", 40)
    events, after = then(after, EndTurn())
    assert ENGLISH.event(events[0]) == "turn 99 ends -> turn 99"
    assert (
        after.clock["turn"],
        after.clock["season"],
        after.characters["Gustave"]["effects"]["tech_power"],
    ) == (99, "winter", 1)


@pytest.mark.rule("SAGA-EFF-3")
def test_a_debuff_with_a_tech_follows_the_latest_hit_of_that_tech_not_of_another():
    """Gustave's kiri-harai hits the wolf (damage ≠ 0), then his tenrai is evaded (0): a debuff
    --tech kiri-harai lands (the seed: 「バフ・デバフ効果を持つ技・術による攻撃ダメージが0でない」);
    a debuff --tech tenrai does not, and says why."""
    sheet = attrs.evolve(
        GUSTAVE, stats={"str": 40, "vit": 30, "int": 40}, slv={"1h-sword": 10, "spell": 20}
    )
    state = given(UnitAdded("Gustave", sheet), UnitAdded("Wolf", WOLF), BattleStarted())
    hit, state = then(state, CastTech("Gustave", "kiri-harai", ("Wolf",), roll=F(1)))
    _, state = then(
        state, CastTech("Gustave", "tenrai", ("Wolf",), situation=(("outcome", "evaded"),))
    )
    (debuff,), after = then(state, ApplyBuff("Wolf", "Gustave", defense=-10, tech="kiri-harai"))
    damage = hit[0].damage
    assert (True, f"Gustave's latest kiri-harai on Wolf dealt {damage} damage", -10) == (
        debuff.landed,
        debuff.reason,
        after.characters["Wolf"]["effects"]["defense"],
    )
    (failed,), after = then(state, ApplyBuff("Wolf", "Gustave", defense=-10, tech="tenrai"))
    assert (failed.landed, after.characters["Wolf"]["effects"]["defense"]) == (False, 0)
    assert ENGLISH.event(failed) == (
        "Gustave with tenrai: defense -10 on Wolf (did not land: Gustave's latest tenrai on "
        "Wolf dealt 0 damage)"
    )


@pytest.mark.rule("SAGA-EFF-3")
def test_a_buff_on_the_givers_side_or_with_a_power_0_tech_lands_without_a_hit():
    """A buff on an ally lands whatever the tech; a power-0 tech's debuff lands on an enemy."""
    state = given(*BASE, UnitAdded("Amy", attrs.evolve(GUSTAVE, lp_max=9)))
    (buff,), _ = then(state, ApplyBuff("Amy", "Gustave", attack=10, tech="kiri-harai"))
    (debuff,), _ = then(state, ApplyBuff("Wolf", "Gustave", defense=-10, tech="toki-hanatsu"))
    assert (
        buff.landed,
        buff.reason,
        debuff.landed,
        debuff.reason,
    ) == (True, "", True, "toki-hanatsu has power 0")


@pytest.mark.rule("SAGA-EFF-3")
def test_a_buffs_tech_is_recorded_by_its_id_and_an_unknown_one_is_refused():
    """--tech 斬り払い records kiri-harai (as a cast does), on the giver's side too; a tech
    neither defined nor in the catalogue is UNKNOWN-NAME even where it cannot decide a landing
    (it was recorded as given)."""
    state = given(*BASE, UnitAdded("Amy", attrs.evolve(GUSTAVE, lp_max=9)))
    (buff,), _ = then(state, ApplyBuff("Amy", "Gustave", attack=10, tech="斬り払い"))
    (debuff,), _ = then(state, ApplyBuff("Wolf", "Gustave", defense=-10, tech="解き放つ"))
    assert (buff.tech, debuff.tech) == ("kiri-harai", "toki-hanatsu")
    assert ENGLISH.event(buff) == "Gustave with kiri-harai: attack +10 on Amy"
    with pytest.raises(RuleViolation) as refusal:
        decide(state, ApplyBuff("Amy", "Gustave", attack=10, tech="kiri-harei"))
    assert (
        refusal.value.rule_id,
        refusal.value.message,
    ) == ("UNKNOWN-NAME", "unknown tech 'kiri-harei' (not in the catalogue)")


@pytest.mark.rule("SAGA-ATK-1")
@pytest.mark.rule("SAGA-ATK-6")
@pytest.mark.rule("SAGA-REL-1")
def test_release_deals_damage_by_its_own_formula_and_costs_its_user_release_damage():
    """解き放つ (power 0 in the catalogue) at monster SLv 10: base 20 × (1 + 15 × 0.05) = 35,
    multiplier (0 + 10) × 0.05 = 0.5 (the seed's 解き放つ case, unreachable if power 0 stopped
    it), SLv 4/3 → 70/3, attributeless: ⌊23.33⌋ = 23 at roll 1. Its user takes release damage
    min(⌊200 × 0.2⌋, 199) = 40 first; none in an overdrive."""
    fyodor = UnitSheet(side="ally", hp_max=200, hp=200, lp_max=8, slv={"monster": 10})
    state = given(UnitAdded("Fyodor", fyodor), UnitAdded("Wolf", WOLF), BattleStarted())
    events, after = then(state, CastTech("Fyodor", "toki-hanatsu", ("Wolf",), roll=F(1)))
    release, hit = events
    assert (ReleaseDamageTaken, 40, "Fyodor") == (type(release), release.damage, release.unit)
    assert (
        hit.damage,
        hit.breakdown["tech_base_multiplier"],
        after.characters["Wolf"]["hp"],
        after.characters["Fyodor"]["hp"],
    ) == (23, "0.5", 900 - 23, 160)
    events, after = then(
        state, CastTech("Fyodor", "toki-hanatsu", ("Wolf",), roll=F(1), situation=OVERDRIVE)
    )
    assert (events[0].damage, events[1].damage, after.characters["Fyodor"]["hp"]) == (0, 23, 200)


def test_deciding_leaves_the_state_it_reads_as_it_was():
    """Deciders are pure: a cast whose hit ``settle`` folds on a copy of the state (plain
    copies of its records) and a poison tick leave the state equal to a copy taken before."""
    state = given(*BASE)
    before = copy.deepcopy(state)
    (hit,) = decide(state, CastTech("Gustave", "kiri-harai", ("Wolf",)))
    poisoned = decide(state, PoisonUnit("Wolf"))[0]
    assert isinstance(hit, AttackDamageDealt) and isinstance(poisoned, PoisonDamageTaken)
    assert (hit.damage, poisoned.damage) == (hit.hp_lost, poisoned.hp_lost)
    assert before == state
