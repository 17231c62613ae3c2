"""Unit tests of the pure SaGa Emerald Beyond rules (tablelog.rules.saga), rule by rule.

Every expected value is worked by hand from the seed's formulas; the arithmetic is in the
comments. Source: saga-eb-damage.ja.txt.
"""

from __future__ import annotations

from decimal import Decimal, getcontext
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import corrections as corr
from tablelog.rules.saga import damage as dmg
from tablelog.rules.saga import effects as fx
from tablelog.rules.saga import five, vitals
from tablelog.rules.saga import power as pw
from tablelog.rules.saga import resist as rs
from tablelog.rules.saga.figures import num_text

ALL20 = dict.fromkeys(("slash", "blunt", "pierce", "heat", "cold", "elec"), 20)


# --- SAGA-ATK-1, -2, -3: conditions, the final formula, the base attack damage --------------


@pytest.mark.rule("SAGA-ATK-1")
@pytest.mark.parametrize(
    ("power", "outcome", "expected"),
    [
        (23, (), None),
        (0, (), "power 0"),
        (23, ("missed",), "missed"),
        (23, ("evaded",), "evaded"),
        (23, ("parried",), "parried"),
        (23, ("countered",), "countered"),
        (23, ("petrified",), "petrified"),
        (23, ("immune",), "immune"),
    ],
)
def test_no_damage_reason(power, outcome, expected):
    """Damage is computed only for a non-zero power that hit an unguarded, unpetrified target."""
    assert expected == dmg.no_damage_reason(power, outcome)


@pytest.mark.rule("SAGA-ATK-1")
@pytest.mark.rule("SAGA-ATK-6")
def test_release_is_not_stopped_by_its_power_0():
    """解き放つ has power 0 yet its own multiplier (0 + 10) × 0.05 = 0.5: damage is computed;
    a miss still stops it."""
    assert None is dmg.no_damage_reason(0, (), release=True)
    assert dmg.no_damage_reason(0, ("evaded",), release=True) == "evaded"
    assert dmg.no_damage_reason(0, ()) == "power 0"


@pytest.mark.rule("SAGA-ATK-2")
@pytest.mark.parametrize(
    ("base", "correction", "count", "expected"),
    [
        (161, F(1), 4, 40),  # ⌊161 × 1 / 4⌋ = ⌊40.25⌋
        (161, F(105, 100), 4, 42),  # ⌊169.05 / 4⌋ = ⌊42.2625⌋
        (100, F(97, 100), 0, 97),  # count 0 (解き放つ) counts as 1
        (20000, F(1), 1, 9999),  # capped
        (0, F(2), 1, 0),
    ],
)
def test_attack_damage_formula(base, correction, count, expected):
    """Attack damage = max(0, min(⌊⌊base⌋ × correction / count⌋, 9999))."""
    assert expected == dmg.attack_damage(base, correction, count).value


@pytest.mark.rule("SAGA-ATK-3")
def test_base_attack_damage_never_negative():
    """Base attack damage = max(0, compound × correction − reduction): 5 × 1 − √75 gives 0."""
    assert rs.base_attack_damage(5, 1, 75).value == 0
    # 40.25 × 0.87 = 35.0175; − √48 (6.9282…) = 28.089… → 28
    assert rs.base_attack_damage(F("40.25"), F("0.87"), 48).value == 28


@pytest.mark.rule("SAGA-ATK-3")
@pytest.mark.parametrize(
    ("x", "radicand", "expected"),
    [
        (F(10), 4, 8),
        (F(10), F(401, 100), 7),
        (F(9), 0, 9),
        (F(3), 16, -1),
        (F(7, 2), 9, 0),
    ],
)
def test_floor_minus_sqrt_is_exact(x, radicand, expected):
    """⌊x − √r⌋ is exact at perfect squares (10 − √4 = 8) and just past them (10 − √4.01 → 7)."""
    assert expected == rs.floor_minus_sqrt(x, radicand)


# --- SAGA-ATK-4..7: compound power ---------------------------------------------------------


@pytest.mark.rule("SAGA-ATK-4")
def test_compound_power_ceils_base_power_only():
    """Compound = ⌈50.8⌉ × 1.15 × 1.4 = 51 × 1.61 = 82.11 (no other rounding)."""
    assert F("82.11") == pw.compound_power(F("50.8"), F("1.15"), F("1.4")).value


@pytest.mark.rule("SAGA-ATK-5")
@pytest.mark.parametrize(
    ("group", "wp", "slv", "stat", "expected"),
    [
        ("armed", 30, 10, 40, F(50)),  # 20 × (1 + 0.9 + 0.2 + 0.4) = 50
        (
            "armed",
            10,
            5,
            10,
            F(30),
        ),  # 20 × (1 + 0.3 + 0.1 + 0.1) = 30 exactly (float: 30.000000000000004)
        ("skill", None, 20, 40, F(53)),  # 20 × (1 + 25 × 0.05 + 0.4) = 20 × 2.65
        ("inherited", None, None, 50, F(30)),  # 20 × (1 + 0.5)
        ("armed", 30, 10, None, F(42)),  # no dependent ability: 20 × (1 + 0.9 + 0.2)
    ],
)
def test_base_power(group, wp, slv, stat, expected):
    """Base power = 20 × (1 + weapon power bonus + weapon type bonus + ability bonus)."""
    assert expected == pw.base_power(group, wp, slv, stat).value


@pytest.mark.rule("SAGA-ATK-5")
def test_base_power_groups_and_averages():
    """Swords, guns and enemy techs are armed; spells and martial arts skill; averages per seed."""
    assert pw.bonus_group("2h-gun") == "armed"
    assert pw.bonus_group("martial-arts") == "skill"
    assert pw.bonus_group("inherited") == "inherited"
    assert pw.bonus_group("monster", enemy_actor=True) == "armed"
    assert pw.bonus_group("enemy", enemy_actor=True, as_spell=True) == "skill"
    assert pw.average_weapon_power(31, 26) == 28  # ⌊57 / 2⌋
    assert F(23, 2) == pw.average_slv(12, 11)  # not floored
    with pytest.raises(RuleViolation, match="SAGA-ATK-5"):
        pw.base_power("armed", None, 10, 40)
    with pytest.raises(RuleViolation, match="SAGA-ATK-5"):
        pw.bonus_group("bow")


@pytest.mark.rule("SAGA-ATK-6")
@pytest.mark.parametrize(
    ("power", "release", "effect", "trait", "expected"),
    [
        (23, False, 0, 0, F("1.15")),  # 23 × 0.05
        (0, True, 0, 0, F("0.5")),  # (0 + 10) × 0.05 for 解き放つ
        (40, False, 3, 10, F("3.52")),  # 2 × (1 + 3 × 0.2) × (1 + 0.1) = 2 × 1.6 × 1.1
    ],
)
def test_tech_power_multiplier(power, release, effect, trait, expected):
    """Tech power multiplier = base × awakening (effect × 0.2) × role (trait × 0.01)."""
    got = pw.tech_power_multiplier(
        power, release=release, tech_power_effect=effect, tech_power_trait=trait
    )
    assert expected == got.value


@pytest.mark.rule("SAGA-ATK-7")
def test_slv_multiplier():
    """SLv multiplier = 1 + SLv / 30 (12 → 1.4), and 1 for inherited techs."""
    assert F(7, 5) == pw.slv_multiplier(12).value
    assert F(1) == pw.slv_multiplier(None, inherited=True).value
    with pytest.raises(RuleViolation, match="SAGA-ATK-7"):
        pw.slv_multiplier(None)


# --- SAGA-ATK-8..10: power correction and damage reduction ---------------------------------


@pytest.mark.rule("SAGA-ATK-8")
def test_power_correction_and_effective_attribute():
    """Correction = 1 − (R × 0.005 + stat × 0.0025) + five; the lowest resistance is effective."""
    assert rs.effective_attribute(("slash", "blunt"), {"slash": 30, "blunt": 10}) == ("blunt", 10)
    # 1 − (16 × 0.005 + 20 × 0.0025) = 1 − 0.13
    assert F("0.87") == rs.power_correction(16, 20, 0).value
    # void resistance: the target's stat still counts: 1 − 40 × 0.0025
    assert F("0.9") == rs.power_correction(None, 40, 0).value


@pytest.mark.rule("SAGA-ATK-8")
def test_resistance_void():
    """Resistance is void for attributeless (無) techs and for techs that ignore defense."""
    assert rs.resistance_void(("none",))
    assert rs.resistance_void(("slash",), ignore_defense=True)
    assert not rs.resistance_void(("slash", "none"))


@pytest.mark.rule("SAGA-ATK-9")
@pytest.mark.parametrize(
    ("element", "lv_self", "lv_battle", "lv_target", "expected"),
    [
        (None, 10, 40, 5, F(0)),
        ("wood", 10, 5, 20, F("-0.05")),  # (10 + 5) × 0.01 − 20 × 0.01
        ("fire", -30, 5, 0, F("-1.25")),  # sum −25 < 0: × 0.05
        ("water", 0, 40, -10, F("0.5")),  # 0.4 − (−0.1)
    ],
)
def test_five_element_bonus(element, lv_self, lv_battle, lv_target, expected):
    """Five bonus = (self + battle) × 0.01 (× 0.05 when negative) − target × 0.01."""
    assert expected == rs.five_element_bonus(element, lv_self, lv_battle, lv_target).value


@pytest.mark.rule("SAGA-ATK-10")
def test_damage_reduction_radicand():
    """Reduction = √(3R): R 27 gives √81 = 9; a weakness (R −10) gives 0; void gives 0."""
    assert F(81) == rs.damage_reduction(27).value
    assert rs.damage_reduction(27).breakdown["damage_reduction"] == "9"
    assert F(0) == rs.damage_reduction(-10).value
    assert F(0) == rs.damage_reduction(None).value


# --- SAGA-ATK-11..16: attack correction ----------------------------------------------------


@pytest.mark.rule("SAGA-ATK-12")
def test_state_correction():
    """State = (1 + (20 − 10) × 0.01) × (1.2 + 5 × 0.01) × 1.2 = 1.1 × 1.25 × 1.2 = 1.65."""
    got = corr.state_correction(20, 10, angry=True, anger_trait=5, target_tech_power_up=True)
    assert F("1.65") == got.value
    assert F("0.9") == corr.state_correction(0, 10).value


@pytest.mark.rule("SAGA-ATK-13")
def test_action_correction():
    """Defend 0.7 − 10 × 0.01 = 0.6, guard 1 − 40 × 0.01 = 0.6: action 0.36; void defend is 1."""
    assert (
        F("0.36")
        == corr.action_correction(
            defending=True, defense_resist_trait=10, guard=True, rate=40
        ).value
    )
    assert F(1) == corr.action_correction(defending=True, defend_void="stunned").value
    assert F(0) == corr.action_correction(guard=True, rate=150).value  # clamped to 100
    assert F(1) == corr.action_correction(guard=True, rate=-5).value  # clamped to 0


@pytest.mark.rule("SAGA-ATK-13")
def test_guard_rate():
    """Guard rate: protect power; else weapon rate + traits; 99 + traits in earth shield."""
    assert corr.guard_rate(protect_power=70, weapon_guard_rate=10).value == 70
    assert (
        corr.guard_rate(
            weapon_guard_rate=30, guard_trait_target=5, target_guard_trait_self=-10
        ).value
        == 25
    )
    assert (
        corr.guard_rate(weapon_guard_rate=30, earth_shield=True, guard_trait_target=5).value == 104
    )


@pytest.mark.rule("SAGA-ATK-14")
def test_ally_only_correction():
    """1.2 × (1.1 × 0.95) × (1.05 × 0.9) = 1.2 × 1.045 × 0.945 = 1.185030."""
    got = corr.ally_only_correction(
        slayer=True,
        formation_attack_rate=10,
        formation_defense_rate=5,
        attack_trait=5,
        defense_trait=10,
    )
    assert F("1.18503") == got.value
    # instant-death-class hit: attack trait + 300 → 1 + 3 = 4
    assert F(4) == corr.ally_only_correction(instant_death_class=True).value


@pytest.mark.rule("SAGA-ATK-15")
def test_combo_correction():
    """Combo rate 250 just before the tech gives 2.5; outside a combo 1."""
    assert F("2.5") == corr.combo_correction(250).value
    assert F(1) == corr.combo_correction(None).value


@pytest.mark.rule("SAGA-ATK-16")
def test_random_range_and_factor():
    """Width 5 gives [0.95, 1.05]; width 0 means 5; a draw maps to 0.0001 steps; bad rolls fail."""
    assert (F("0.95"), F("1.05")) == corr.random_range(5)
    assert (F("0.95"), F("1.05")) == corr.random_range(0)
    assert (F("0.9"), F("1.1")) == corr.random_range(10)
    assert F("0.95") == corr.random_factor(5, draw=F(0))
    assert F("1.05") == corr.random_factor(5, draw=F(2**64 - 1, 2**64))
    assert F("1.0") == corr.random_factor(5, draw=F(1, 2))  # ⌊0.5 × 1001⌋ = 500 steps
    assert F("0.97") == corr.random_factor(5, roll=F("0.97"))
    with pytest.raises(RuleViolation, match="SAGA-ATK-16"):
        corr.random_factor(5, roll=F("1.06"))


@pytest.mark.rule("SAGA-ATK-11")
def test_attack_correction_is_the_product():
    """Attack correction = state × action × ally-only × combo × random (1.1·0.7·1.2·2·0.95)."""
    tech = cat.tech("kiri-harai")
    hit = dmg.compute_hit(
        tech,
        dmg.Attacker(weapon_power=30, slv=10, stat=40, attack_effect=10),
        dmg.Defender(resistances=ALL20, stat=30),
        dmg.Situation(defending=True, slayer=True, combo_rate=200),
        F("0.95"),
    )
    assert hit.breakdown["attack_correction"] == "1.7556"
    # base 55 (see the worked example) × 1.7556 = 96.558 → 96
    assert hit.value == 96


# --- Worked damage examples, by hand from the formulas -------------------------------------


def _hit(tech_id, attacker, defender):
    return dmg.compute_hit(cat.tech(tech_id), attacker, defender, dmg.Situation(), F(1))


WORKED = [
    pytest.param(
        # 斬り払い (1H sword, power 23, slash, str/vit). Base power 20 × (1 + 10 × 0.03 +
        # 5 × 0.02 + 10 × 0.01) = 20 × 1.5 = 30 exactly; a float gives 30.000000000000004 and
        # ⌈⌉ would make 31. Compound 30 × 1.15 × (1 + 5/30) = 40.25. Correction
        # 1 − (16 × 0.005 + 20 × 0.0025) = 0.87; 40.25 × 0.87 = 35.0175; − √48 (6.928…) = 28.09
        # → 28; × 1 / 1 = 28. (With 31: 41.59 × 0.87 − 6.93 = 29.26 → 29, wrong.)
        "kiri-harai",
        dmg.Attacker(weapon_power=10, slv=5, stat=10),
        dmg.Defender(resistances={"slash": 16}, stat=20),
        dmg.Situation(),
        F(1),
        28,
        id="integer-base-power",
    ),
    pytest.param(
        # A custom 2H sword tech, power 100, attributeless. Base 20 × (1 + 60 × 0.03 + 50 × 0.02
        # + 99 × 0.01) = 20 × 4.79 = 95.8 → ⌈⌉ 96. Tech multiplier 5 × (1 + 5 × 0.2) = 10.
        # SLv 1 + 50/30 = 8/3. Compound 96 × 10 × 8/3 = 2560; void resistance, no target stat:
        # 2560. Correction: anger 1.2 × combo 4 = 4.8 → 12288 > 9999 → 9999.
        cat.Tech(
            id="custom",
            power=100,
            attack_count=1,
            random_width=5,
            weapon_type="2h-sword",
            attributes=("none",),
            self_ability="str",
        ),
        dmg.Attacker(weapon_power=60, slv=50, stat=99, tech_power_effect=5),
        dmg.Defender(),
        dmg.Situation(angry=True, combo_rate=400),
        F(1),
        9999,
        id="over-the-cap",
    ),
    pytest.param(
        # 二刀烈風剣 (dual wield, power 71, 4 processes). Weapon power ⌊(31 + 26) / 2⌋ = 28.
        # Base 20 × (1 + 0.84 + 0.2 + 0.3) = 46.8 → 47. Compound 47 × 3.55 × 4/3 = 3337/15.
        # Correction 1 − (27 × 0.005 + 40 × 0.0025) = 0.765; × = 170.187; − √81 = 161.187 → 161.
        # Per process ⌊161 × 1.05 / 4⌋ = ⌊42.2625⌋ = 42.
        "ni-tou-reppuu-ken",
        dmg.Attacker(weapon_power=28, slv=10, stat=30),
        dmg.Defender(resistances={"slash": 27}, stat=40),
        dmg.Situation(),
        F("1.05"),
        42,
        id="multi-hit",
    ),
    pytest.param(
        # 天雷 (spell, elec, wood, power 78, 5 processes). Base 20 × (1 + 25 × 0.05 + 0.4) = 53.
        # Compound 53 × 3.9 × 5/3 = 344.5. Five: (10 + 5) × 0.01 − 20 × 0.01 = −0.05.
        # Correction 1 − (−10 × 0.005 + 30 × 0.0025) − 0.05 = 1 − 0.025 − 0.05 = 0.925;
        # 344.5 × 0.925 = 318.6625; weakness: no reduction → 318. ⌊318 / 5⌋ = 63.
        "tenrai",
        dmg.Attacker(slv=20, stat=40, five_level=10),
        dmg.Defender(resistances={"elec": -10}, stat=30, five_level=20),
        dmg.Situation(battle_five_level=5),
        F(1),
        63,
        id="spell-five-elements",
    ),
    pytest.param(
        # 毒胞子 (inherited, attributeless, power 11, int/con). Base 20 × (1 + 0.5) = 30;
        # SLv multiplier 1. Compound 30 × 0.55 = 16.5. Correction 1 − 40 × 0.0025 = 0.9 →
        # 14.85 → 14; × 0.97 = 13.58 → 13.
        "doku-houshi",
        dmg.Attacker(stat=50),
        dmg.Defender(stat=40),
        dmg.Situation(),
        F("0.97"),
        13,
        id="inherited",
    ),
]


@pytest.mark.rule("SAGA-ATK-2")
@pytest.mark.rule("SAGA-ATK-4")
@pytest.mark.rule("SAGA-ATK-5")
@pytest.mark.rule("SAGA-ATK-9")
@pytest.mark.parametrize(("tech", "attacker", "defender", "situation", "roll", "expected"), WORKED)
def test_worked_damage_examples(tech, attacker, defender, situation, roll, expected):
    """Each worked example gives the hand-computed damage per attack process."""
    if isinstance(tech, str):
        tech = cat.tech(tech)
    assert expected == dmg.compute_hit(tech, attacker, defender, situation, roll).value


@pytest.mark.rule("SAGA-ATK-4")
def test_integer_base_power_is_not_ceiled_up():
    """The breakdown shows base power 30 and its ceiling 30 (a float would give 31)."""
    hit = _hit(
        "kiri-harai",
        dmg.Attacker(weapon_power=10, slv=5, stat=10),
        dmg.Defender(resistances={"slash": 16}, stat=20),
    )
    assert (hit.breakdown["base_power"], hit.breakdown["base_power_ceiled"]) == ("30", "30")
    assert 31 == -(-(20 * (1 + 10 * 0.03 + 5 * 0.02 + 10 * 0.01)) // 1)  # the float trap


# --- SAGA-DISP-1..3: display ---------------------------------------------------------------


@pytest.mark.rule("SAGA-DISP-1")
def test_displayed_power():
    """Displayed = ⌊base × multiplier × five⌋: ⌊50 × 1.15⌋ = 57; 天雷 ⌊53 × 3.9 × 1.15⌋ = 237."""
    assert (
        dmg.displayed_power_of(
            cat.tech("kiri-harai"), dmg.Attacker(weapon_power=30, slv=10, stat=40)
        ).value
        == 57
    )
    # 53 × 3.9 = 206.7; five power bonus (10 + 5) × 0.01 → × 1.15 = 237.705
    assert (
        dmg.displayed_power_of(
            cat.tech("tenrai"), dmg.Attacker(slv=20, stat=40, five_level=10), 5
        ).value
        == 237
    )


@pytest.mark.rule("SAGA-BUG-1")
def test_displayed_power_over_999_is_just_a_number():
    """The game's display bug over 999 is not copied: a displayed power of 1916 is returned."""
    tech = cat.Tech(
        id="x",
        power=100,
        attack_count=1,
        random_width=5,
        weapon_type="2h-sword",
        self_ability="str",
    )
    # base 20 × (1 + 1.8 + 1.0 + 0.99) = 95.8; multiplier 5 × (1 + 15 × 0.2) = 20 → 1916
    got = dmg.displayed_power_of(
        tech, dmg.Attacker(weapon_power=60, slv=50, stat=99, tech_power_effect=15)
    )
    assert got.value == 1916


@pytest.mark.rule("SAGA-DISP-2")
def test_split_display_parts_may_add_up_to_less():
    """神速三段突き splits 25/30/45: 101 shows 25 + 30 + 45 = 100, one less than the damage."""
    ratios = cat.damage_split("shinsoku-san-dan-tsuki")
    assert (F(25), F(30), F(45)) == ratios
    # ⌊101 × 0.25⌋ = 25, ⌊101 × 0.30⌋ = ⌊30.3⌋ = 30, ⌊101 × 0.45⌋ = ⌊45.45⌋ = 45
    assert dmg.split_display(101, ratios).value == (25, 30, 45)
    # 無月散水 4.5 6 5 4 6 4 5.5 25 40 at 99: 4 + 5 + 4 + 3 + 5 + 3 + 5 + 24 + 39 = 92
    parts = dmg.split_display(99, cat.damage_split("mugetsu-sansui")).value
    assert parts == (4, 5, 4, 3, 5, 3, 5, 24, 39)
    assert (F(100),) == cat.damage_split("kiri-harai")


# --- SAGA-EFF-1..4: effect and trait values ------------------------------------------------


@pytest.mark.rule("SAGA-EFF-1")
def test_tech_power_effect_decays_to_zero():
    """The tech-power effect value drops by 1 each turn, not below 0 (3 → 2, 0 → 0)."""
    assert fx.tech_power_effect_after_turn(3) == 2
    assert fx.tech_power_effect_after_turn(0) == 0


@pytest.mark.rule("SAGA-EFF-2")
@pytest.mark.parametrize(
    ("value", "performance", "expected"),
    [
        (0, 10, 10),
        (0, -40, -30),
        (25, 10, 30),
        (10, -25, 0),
        (-10, 25, 0),
        (-20, -15, -30),
    ],
)
def test_buff_effect_clamps(value, performance, expected):
    """Buffs clamp to ±30 and never jump from up to down without passing 0."""
    assert expected == fx.buff_effect_after(value, performance)


@pytest.mark.rule("SAGA-EFF-3")
def test_buff_lands():
    """A buff lands on its own side, with a power-0 tech, or when the tech's damage is not 0."""
    assert fx.buff_lands(same_side=True, tech_power=30, attack_damage=0)
    assert fx.buff_lands(same_side=False, tech_power=0, attack_damage=None)
    assert fx.buff_lands(same_side=False, tech_power=30, attack_damage=12)
    assert not fx.buff_lands(same_side=False, tech_power=30, attack_damage=0)


@pytest.mark.rule("SAGA-EFF-4")
def test_trait_values():
    """Only the effective attribute's traits count; 'all' skips attributeless techs."""
    traits = [
        {"kind": "attack", "value": 5, "on": "slash"},
        {"kind": "attack", "value": 7, "on": "blunt"},
        {"kind": "attack", "value": 3, "on": "all"},
        {"kind": "tech-power", "value": 4, "on": "1h-sword"},
        {"kind": "tech-power", "value": 6, "on": "1h-gun"},
        {"kind": "defense", "value": 9, "on": "spell"},
    ]
    got = fx.trait_values(traits, cat.tech("kiri-harai"), "slash").value
    assert (got["attack_trait"], got["tech_power_trait"], got["defense_trait"]) == (8, 4, 0)
    got = fx.trait_values(traits, cat.tech("mirion-daraa"), "blunt").value  # sword×gun: both
    assert (got["attack_trait"], got["tech_power_trait"]) == (10, 10)
    got = fx.trait_values(traits, cat.tech("doku-houshi"), None).value  # attributeless
    assert got["attack_trait"] == 0
    assert fx.trait_values(traits, cat.tech("tenrai"), "elec").value["defense_trait"] == 9
    with pytest.raises(RuleViolation, match="SAGA-EFF-4"):
        fx.trait_values([{"kind": "luck", "value": 1}], cat.tech("kiri-harai"), "slash")


# --- SAGA-FIVE-1..2: battle five-element levels ---------------------------------------------


@pytest.mark.rule("SAGA-FIVE-1")
def test_battle_levels():
    """Terrain metal gives −5,0,0,5,0; spring gives 40,0,−20,0,0; neither gives all 0."""
    assert five.battle_levels("metal").value == {
        "wood": -5,
        "fire": 0,
        "earth": 0,
        "metal": 5,
        "water": 0,
    }
    assert five.battle_levels(seasons=True, turn=3).value == {
        "wood": 40,
        "fire": 0,
        "earth": -20,
        "metal": 0,
        "water": 0,
    }
    assert five.battle_levels().value == {"wood": 0, "fire": 0, "earth": 0, "metal": 0, "water": 0}
    with pytest.raises(RuleViolation, match="SAGA-FIVE-1"):
        five.battle_levels("wood", seasons=True)


@pytest.mark.rule("SAGA-FIVE-2")
@pytest.mark.parametrize(
    ("turn", "season"),
    [
        (1, "doyo"),
        (2, "doyo"),
        (3, "spring"),
        (4, "spring"),
        (5, "summer"),
        (6, "summer"),
        (7, "autumn"),
        (8, "autumn"),
        (9, "winter"),
        (10, "winter"),
        (11, "doyo"),
        (98, "autumn"),
        (99, "winter"),
        (101, "winter"),
    ],
)
def test_season_by_turn_digit(turn, season):
    """The season follows the displayed turn's last digit; from turn 99 on it stays winter."""
    assert season == five.season_for_turn(turn)


@pytest.mark.rule("SAGA-FIVE-2")
@pytest.mark.parametrize(("turn", "after"), [(1, 2), (10, 11), (98, 99), (99, 99)])
def test_the_displayed_turn_stops_at_99(turn, after):
    """The turn after 98 is 99, and after 99 still 99 (「表示ターンの最大値は99です」)."""
    assert after == five.next_displayed_turn(turn)


# --- SAGA-POISON-2, SAGA-REL-1, SAGA-HP-*, SAGA-LP-* -----------------------------------------


@pytest.mark.rule("SAGA-POISON-2")
def test_poison_damage():
    """Ally 320 HP: ⌈96 × 1 × 1.01⌉ = ⌈96.96⌉ = 97; enemy 900/150: 180 × 0.5 × 0.95 → 86."""
    base = vitals.poison_base(320)
    assert F(96) == base.value
    assert vitals.poison_damage(base.value, waiting=False, random=F("1.01")).value == 97
    enemy = vitals.poison_base(900, enemy=True, intrinsic_hp=150)  # 900 × 100 / 150 × 0.3 = 180
    assert F(180) == enemy.value
    assert vitals.poison_damage(enemy.value, waiting=True, random=F("0.95")).value == 86  # 85.5 ↑
    assert F("0.95") == vitals.poison_random(draw=F(0))
    with pytest.raises(RuleViolation, match="SAGA-POISON-2"):
        vitals.poison_random(roll=F("0.9"))


@pytest.mark.rule("SAGA-REL-1")
def test_release_damage():
    """Release = min(⌊max HP × 0.2⌋, HP − 1): 333 → 66; at HP 40 → 39; overdrive → 0."""
    assert vitals.release_damage(333, 333).value == 66
    assert vitals.release_damage(333, 40).value == 39
    assert vitals.release_damage(333, 333, overdrive=True).value == 0


@pytest.mark.rule("SAGA-HP-1")
def test_hp_floor_and_attack():
    """Enemy floor = ⌈max HP × rate × 0.01⌉ (1001 × 50% → 501); allies 0; support never below 1."""
    assert vitals.hp_floor(1001, enemy=True, floor_rate=50) == 501
    assert vitals.hp_floor(1001, floor_rate=50) == 0
    assert vitals.hp_after_attack(600, 200, 501) == 501
    assert vitals.hp_after_attack(30, 200, 0) == 0
    assert vitals.hp_after_attack(30, 200, 0, support=True) == 1


@pytest.mark.rule("SAGA-HP-2")
def test_hp_after_poison():
    """HP after poison = max(HP − poison, 0): 50 − 97 → 0; 200 − 97 → 103."""
    assert vitals.hp_after_poison(50, 97) == 0
    assert vitals.hp_after_poison(200, 97) == 103


@pytest.mark.rule("SAGA-HP-5")
def test_hp_after_heal():
    """Drain heals by the damage, never above max: 250 + 80 → 300 of 300."""
    assert vitals.hp_after_heal(250, 80, 300) == 300
    assert vitals.hp_after_heal(50, 80, 300) == 130


@pytest.mark.rule("SAGA-LP-1")
def test_lp_after_incapacitation():
    """An incapacitated ally loses 1 LP (12 → 11), not below 0."""
    assert vitals.lp_after_incapacitation(12) == 11
    assert vitals.lp_after_incapacitation(0) == 0


@pytest.mark.rule("SAGA-LP-2")
@pytest.mark.rule("SAGA-LP-4")
@pytest.mark.rule("SAGA-BUG-1")
def test_lp_after_blood():
    """Blood cost 2 at LP 12 → 10, effect 0 → 2; cost ≥ LP is refused; a confused unit's
    cost 3 at LP 2 takes LP to 0 and still adds its cost: effect 3 → 6 (the seed's formula,
    LPダメージ効果値_next = LPダメージ効果値 + LPダメージ性能値; the exception is a bug)."""
    assert vitals.lp_after_blood(12, 0, 2).value == {
        "lp": 10,
        "lp_damage_effect": 2,
        "incapacitated": False,
    }
    with pytest.raises(RuleViolation, match="SAGA-LP-2"):
        vitals.lp_after_blood(2, 0, 2)
    assert vitals.lp_after_blood(2, 3, 3, confused=True).value == {
        "lp": 0,
        "lp_damage_effect": 6,
        "incapacitated": True,
    }


@pytest.mark.rule("SAGA-LP-2")
@pytest.mark.rule("SAGA-LP-4")
def test_lp_after_blood_in_an_overdrive():
    """In an overdrive: cost 2 at LP 12 keeps LP 12 and grows the effect 0 → 2; cost 3 at LP 3
    is refused all the same; confused, LP 3 stays and the effect grows by 3."""
    assert vitals.lp_after_blood(12, 0, 2, overdrive=True).value == {
        "lp": 12,
        "lp_damage_effect": 2,
        "incapacitated": False,
    }
    with pytest.raises(RuleViolation, match="SAGA-LP-2"):
        vitals.lp_after_blood(3, 0, 3, overdrive=True)
    assert vitals.lp_after_blood(3, 0, 3, confused=True, overdrive=True).value == {
        "lp": 3,
        "lp_damage_effect": 3,
        "incapacitated": False,
    }


@pytest.mark.rule("SAGA-LP-3")
@pytest.mark.rule("SAGA-LP-4")
def test_lp_after_wipe():
    """Wipe: LP 10 − 1 + effect 2 = 11; incapacitated 5 + 0 stays 5; capped at max LP 12."""
    assert vitals.lp_after_wipe(10, 2, incapacitated=False, lp_max=12).value == 11
    assert vitals.lp_after_wipe(5, 0, incapacitated=True, lp_max=12).value == 5
    assert vitals.lp_after_wipe(12, 4, incapacitated=False, lp_max=12).value == 12


# --- catalogue and number text ------------------------------------------------------------


@pytest.mark.rule("SAGA-ATK-16")
def test_catalogue_reads_packaged_data():
    """The catalogue gives 斬り払い power 23 (rank 1) / 27 (rank 5) and a stored width 0 as 5."""
    assert (lambda t: (t.power, t.attack_count, t.random_width, t.attributes))(
        cat.tech("kiri-harai")
    ) == (23, 1, 5, ("slash",))
    assert cat.tech("kiri-harai", 5).power == 27
    assert cat.tech("are-sandan").random_width == 95
    assert (cat.battle_rank(1).enemy_weapon_power, cat.battle_rank(1).enemy_slv) == (14, 4)
    with pytest.raises(RuleViolation, match="UNKNOWN-NAME"):
        cat.tech("no-such-tech")


def test_num_text_is_exact():
    """Exact text: 1.15, −0.075, 7/3 with an approximation."""
    assert (num_text(F("1.15")), num_text(F("-0.075")), num_text(23)) == ("1.15", "-0.075", "23")
    assert num_text(F(7, 3)).startswith("7/3 (≈2.333")


# --- properties ---------------------------------------------------------------------------

fractions = st.fractions(min_value=0, max_value=10_000, max_denominator=10_000)


@pytest.mark.rule("SAGA-ATK-3")
@given(x=fractions, r=fractions)
def test_floor_minus_sqrt_agrees_with_high_precision(x, r):
    """⌊x − √r⌋ agrees with a 60-digit decimal computation (away from exact integers)."""
    getcontext().prec = 60
    approx = (
        Decimal(x.numerator) / Decimal(x.denominator)
        - (Decimal(r.numerator) / Decimal(r.denominator)).sqrt()
    )
    expected = int(approx.to_integral_value(rounding="ROUND_FLOOR"))
    assert expected == rs.floor_minus_sqrt(x, r)


@pytest.mark.rule("SAGA-ATK-2")
@given(
    wp=st.integers(0, 99),
    slv=st.integers(0, 50),
    stat=st.integers(0, 99),
    res=st.integers(-50, 200),
    combo=st.integers(0, 1000),
    lo=st.fractions(F("0.95"), F("1.05")),
    hi=st.fractions(F("0.95"), F("1.05")),
)
def test_damage_bounded_and_monotone_in_the_roll(wp, slv, stat, res, combo, lo, hi):
    """Damage stays in 0..9999 and never falls when the random factor rises."""
    lo, hi = min(lo, hi), max(lo, hi)
    a = dmg.Attacker(weapon_power=wp, slv=slv, stat=stat)
    d = dmg.Defender(resistances={"slash": res}, stat=stat)
    s = dmg.Situation(combo_rate=combo)
    tech = cat.tech("kiri-harai")
    low, high = (dmg.compute_hit(tech, a, d, s, f).value for f in (lo, hi))
    assert 0 <= low <= high <= 9999


@pytest.mark.rule("SAGA-EFF-2")
@given(v=st.integers(-30, 30), p=st.integers(-100, 100))
def test_buff_never_jumps_across_zero(v, p):
    """A buff from up never lands below 0, from down never above 0, and stays within ±30."""
    after = fx.buff_effect_after(v, p)
    assert -30 <= after <= 30
    assert not (v > 0 and after < 0) and not (v < 0 and after > 0)
