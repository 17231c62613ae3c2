"""Pure fate rules: CC setup, casting, chant, Noble Phantasms, fields, armies, unique abilities."""

from __future__ import annotations

import pytest

from tablelog.rules.core import RuleViolation
from tablelog.rules.fate import (
    always_uses_per_round,
    army_summon_mp,
    army_units,
    army_upkeep_per_round,
    attack_hp_per_tile,
    attribute_cost,
    back_row_hp,
    cast_mp_cost,
    cc_cost_breakdown,
    chanted_tiles,
    check_buff_tiles,
    check_cast,
    check_np_type,
    check_stored_spells,
    check_true_name_allowed,
    check_ua_usable,
    check_unique_ability,
    circuit_cost,
    crest_cost,
    crest_heal_hp,
    curse_tiles_after_anti_magic,
    deal_tiles,
    defense_block,
    field_clash,
    field_power,
    field_upkeep_due,
    field_upkeep_value,
    grade_number,
    heal_hp,
    kind_powers,
    meet_defense,
    normalize_attribute,
    np_profile,
    np_setting_points,
    parse_grade,
    parse_mods,
    parse_np_grade,
    plan_targets,
    power_grade,
    release_mp_cost,
    tile_pool,
    ua_points_earned,
    upkeep_mp,
)
from tablelog.rules.fate.casting import DURATION_TURNS, TIMING

G = parse_grade


def refused(rule_id: str, fn, *args, **kwargs) -> RuleViolation:
    """Call fn and return the RuleViolation it must raise with rule_id."""
    with pytest.raises(RuleViolation) as info:
        fn(*args, **kwargs)
    assert rule_id == info.value.rule_id
    return info.value


# --- code cast setup -----------------------------------------------------------------------------


@pytest.mark.rule("FATE-CC-1")
def test_build_over_budget_is_refused_with_its_costs():
    """A build of 21 CC points against a budget of 20 is refused, naming both numbers."""
    ok = cc_cost_breakdown(G("B"), G("C"), G("D"), ["fire", "earth"], 20)
    assert ok == {
        "quality": 4,
        "quantity": 3,
        "crest": 2,
        "attributes": 1,
        "total": 10,
        "budget": 20,
    }
    err = refused("FATE-CC-1", cc_cost_breakdown, G("EX"), G("A+"), G("C"), ["fire"], 20)
    assert "21" in err.message and "20" in err.message


@pytest.mark.rule("FATE-CC-2")
@pytest.mark.parametrize("stat, grade", [("quality", "F"), ("quantity", "F")])
def test_circuits_start_at_e(stat, grade):
    """Circuit quality and quantity range E..EX: F is refused."""
    refused("FATE-CC-2", circuit_cost, stat, G(grade))


@pytest.mark.rule("FATE-CC-2")
def test_crest_ranges_f_to_a_and_one_attribute_is_needed():
    """A crest of EX is refused, and a master with no attribute is refused."""
    refused("FATE-CC-2", crest_cost, G("EX"))
    refused("FATE-CC-2", attribute_cost, [])
    refused("FATE-CC-2", parse_grade, "Z+")


@pytest.mark.rule("FATE-CC-3")
@pytest.mark.parametrize(
    "grade, cost",
    [("E", 1), ("D", 2), ("C", 3), ("B", 4), ("A", 5), ("EX", 10), ("C+", 4), ("B+", 6), ("A+", 8)],
)
def test_circuit_grade_costs(grade, cost):
    """Circuit grades cost E 1 … A 5, EX 10, and C+/B+/A+ add 1/2/3."""
    assert cost == circuit_cost("quality", G(grade))


@pytest.mark.rule("FATE-CC-3")
@pytest.mark.parametrize("grade", ["A++", "B+++", "E+", "D+", "EX+"])
def test_circuit_plusses_beyond_a_single_one_are_refused(grade):
    """Only C, B and A take a single +: A++, B+++, E+, D+ and EX+ are refused."""
    refused("FATE-CC-3", circuit_cost, "quality", G(grade))


@pytest.mark.rule("FATE-CC-3")
@pytest.mark.parametrize(
    "grade, cost",
    [("F", 0), ("E", 1), ("C", 3), ("A", 5), ("C+", 4), ("B+", 6), ("A+", 8)],
)
def test_crest_costs_its_letter_and_a_plus_like_every_graded_stat(grade, cost):
    """A crest costs F 0, E 1 … A 5; C+, B+, A+ add 1, 2, 3 (4, 6, 8) as for the circuits."""
    assert cost == crest_cost(G(grade))


@pytest.mark.rule("FATE-CC-3")
@pytest.mark.parametrize("grade", ["F+", "E+", "D+", "B++", "A+++"])
def test_crest_plusses_beyond_a_single_one_on_c_b_a_are_refused(grade):
    """F+, E+, D+ and double or triple plusses are refused for a crest too."""
    refused("FATE-CC-3", crest_cost, G(grade))


@pytest.mark.rule("FATE-CC-8")
def test_hollow_saves_one_mp_per_cast_not_per_tile():
    """A hollow caster pays 2 x 3 - 1 = 5 MP for 3 tiles, 2 x 1 - 1 = 1 for one (kept)."""
    from tablelog.rules.fate import cast_mp_cost

    assert (cast_mp_cost(3, True), cast_mp_cost(1, True), cast_mp_cost(3, False)) == (5, 1, 6)


@pytest.mark.rule("FATE-CC-4")
@pytest.mark.parametrize(
    "attributes, cost",
    [
        (["fire"], 0),
        (["fire", "earth"], 1),
        (["fire", "earth", "wind"], 3),
        (["fire", "earth", "wind", "water"], 6),
        (["fire", "earth", "wind", "water", "ether"], 10),
        (["hollow"], 10),
        (["none"], 10),
    ],
)
def test_attribute_costs(attributes, cost):
    """The first attribute is free, then 1, 2, 3, 4 more; hollow and none cost 10."""
    assert cost == attribute_cost(attributes)


@pytest.mark.rule("FATE-CC-5")
@pytest.mark.parametrize(
    "grade, power", [("E", 1), ("C", 3), ("C+", 3), ("A", 5), ("A+", 5), ("EX", 7)]
)
def test_power_grade_from_quality(grade, power):
    """Quality E..A gives power 1..5, EX 7, and a + adds nothing."""
    assert power == power_grade(G(grade))


@pytest.mark.rule("FATE-CC-6")
@pytest.mark.parametrize(
    "grade, tiles", [("E", 2), ("D", 4), ("C", 6), ("B+", 8), ("A", 10), ("EX", 15)]
)
def test_tile_pool_from_quantity(grade, tiles):
    """Quantity gives quantity x 2 tiles (E 2 … A 10), EX 15, and a + adds nothing."""
    assert tiles == tile_pool(G(grade))


@pytest.mark.rule("FATE-CC-7")
@pytest.mark.parametrize(
    "attributes, expected",
    [
        (["earth"], {"defense": 5, "heal": 3}),
        (["water"], {"heal": 5, "curse": 3}),
        (["fire"], {"attack": 3, "buff": 5}),
        (["wind"], {"attack": 5, "defense": 3}),
        (["ether"], {"buff": 3, "curse": 5}),
        (["fire", "earth"], {"attack": 3, "defense": 5, "heal": 3, "buff": 5}),
        (["fire", "wind"], {"attack": 4, "defense": 3, "buff": 5}),
    ],
)
def test_attributes_enable_kinds_and_shift_power(attributes, expected):
    """With power 4 each element enables two kinds at +1/-1; several attributes add up."""
    assert expected == kind_powers(4, attributes, None)


@pytest.mark.rule("FATE-CC-7")
def test_korean_attribute_names_and_unknown_ones():
    """화 is fire, 허 is hollow; an unknown attribute is refused."""
    assert (normalize_attribute("화"), normalize_attribute("허")) == ("fire", "hollow")
    refused("FATE-CC-7", normalize_attribute, "lightning")


@pytest.mark.rule("FATE-CC-7")
def test_japanese_attribute_names_and_the_noun_they_may_carry():
    """火 and 虚数 (Japanese) are fire and hollow, 화 속성 (with its noun) fire; an unknown one
    names what was typed and is an unknown word of its kind (for "did you mean")."""
    assert tuple(map(normalize_attribute, ("火", "虚数", "화 속성"))) == ("fire", "hollow", "fire")
    with pytest.raises(RuleViolation) as exc:
        normalize_attribute("雷")
    assert exc.value.unknown is not None and exc.value.unknown.kind == "magic attribute"


def test_typed_words_are_their_glossary_keys_in_any_language():
    """An NP type, a kind of magic, a row typed in English, Japanese or Korean (with the noun it
    qualifies, in full or half width) is its key; an unknown word stays as typed."""
    from tablelog.rules.fate import known_words, typed_key

    cases = [
        ("np_type", "対城", "anti-fortress"),
        ("np_type", "대성 보구", "anti-fortress"),
        ("np_type", "Anti-Fortress", "anti-fortress"),
        ("kind", "治癒魔術", "heal"),
        ("kind", "저주", "curse"),
        ("row", "後列", "back"),
        ("np_type", "ａｎｔｉ－ｕｎｉｔ", "anti-unit"),
        ("ability", "사격", "shoot"),
        ("np_type", "anti-sky", "anti-sky"),
    ]
    assert [want for _, _, want in cases] == [typed_key(kind, word) for kind, word, _ in cases]
    assert {"anti-unit", "対人", "대인"} <= set(known_words("np_type"))


@pytest.mark.rule("FATE-CC-8")
def test_hollow_enables_all_and_saves_one_mp_per_cast():
    """Hollow with power 3 casts every kind at 3, and 3 tiles cost 5 MP instead of 6."""
    assert dict.fromkeys(["attack", "defense", "heal", "buff", "curse"], 3) == kind_powers(
        3, ["hollow"], None
    )
    assert (cast_mp_cost(3, False), cast_mp_cost(3, True), cast_mp_cost(0, True)) == (6, 5, 0)


@pytest.mark.rule("FATE-CC-8")
def test_none_gives_one_kind_three_grades_higher():
    """None with power 4 and the chosen kind curse casts only curse, at 7."""
    assert kind_powers(4, ["none"], "curse") == {"curse": 7}
    refused("FATE-CC-8", kind_powers, 4, ["none"], None)
    refused("FATE-CC-8", kind_powers, 4, ["fire"], "attack")
    refused("FATE-CC-8", attribute_cost, ["none", "fire"])


@pytest.mark.rule("FATE-CC-9")
@pytest.mark.parametrize("grade, hp", [("F", 0), ("E", 1), ("D", 2), ("B", 4), ("A", 5)])
def test_crest_heals_its_grade_each_morning(grade, hp):
    """A crest heals F 0, E 1 … A 5 HP each morning."""
    assert hp == crest_heal_hp(G(grade))


@pytest.mark.rule("FATE-CC-10")
def test_crest_stores_twice_its_grade_none_above_it():
    """A crest C holds 6 grades of spells, none above 3."""
    check_stored_spells(G("C"), {"attack": 3, "heal": 3})
    refused("FATE-CC-10", check_stored_spells, G("C"), {"attack": 4})
    refused("FATE-CC-10", check_stored_spells, G("C"), {"attack": 3, "heal": 3, "buff": 1})


# --- casting -------------------------------------------------------------------------------------


@pytest.mark.rule("FATE-CAST-1")
def test_kinds_and_their_timing():
    """Attack resolves with the judgments, defense before, heal/buff/curse after."""
    assert TIMING == {
        "attack": "with",
        "defense": "before",
        "heal": "after",
        "buff": "after",
        "curse": "after",
    }
    refused("FATE-CAST-1", check_cast, "summon", 1, 1, 6, {"attack": 3})


@pytest.mark.rule("FATE-CAST-2")
@pytest.mark.parametrize(
    "kind, grade, tiles",
    [("attack", 4, 1), ("attack", 0, 1), ("attack", 2, 7), ("attack", 2, 0)],
)
def test_cast_limits(kind, grade, tiles):
    """With attack 3 and 6 tiles left: no grade 4 or 0, no 7 or 0 tiles."""
    refused("FATE-CAST-2", check_cast, kind, grade, tiles, 6, {"attack": 3, "buff": 5})


@pytest.mark.rule("FATE-CC-7")
@pytest.mark.rule("FATE-CC-10")
def test_a_kind_not_enabled_names_the_clause_that_forbids_it():
    """With attack 3 and buff 5 (fire), a curse is refused by FATE-CC-7 (the attributes), a
    heal from a crest that stores only attack by FATE-CC-10; an attack at power 0 by FATE-CC-7."""
    refused("FATE-CC-7", check_cast, "curse", 1, 1, 6, {"attack": 3, "buff": 5})
    refused("FATE-CC-7", check_cast, "attack", 1, 1, 6, {"attack": 0, "buff": 2})
    refused("FATE-CC-10", check_cast, "heal", 1, 1, 6, {"attack": 2}, True)


@pytest.mark.rule("FATE-CAST-2")
def test_tiles_are_dealt_to_targets_in_turn():
    """Four tiles on two targets give two each; three give 2 and 1; 3 targets need 3 tiles."""
    assert deal_tiles(4, ["A", "B"]) == {"A": 2, "B": 2}
    assert deal_tiles(3, ["A", "B"]) == {"A": 2, "B": 1}
    refused("FATE-CAST-2", deal_tiles, 2, ["A", "B", "C"])


@pytest.mark.rule("FATE-CAST-3")
@pytest.mark.parametrize("tiles, mp", [(1, 2), (2, 4), (6, 12)])
def test_each_pool_tile_costs_two_mp(tiles, mp):
    """Each tile costs 2 MP whatever its grade."""
    assert mp == cast_mp_cost(tiles, False)


@pytest.mark.rule("FATE-CAST-4")
@pytest.mark.parametrize("grade, anti_magic, hp", [(4, 0, 8), (4, 1, 6), (3, 3, 0), (2, 5, 0)])
def test_attack_damage_per_tile_with_anti_magic(grade, anti_magic, hp):
    """Each attack tile deals 2 HP per grade left after the target's anti-magic."""
    assert hp == attack_hp_per_tile(grade, anti_magic)


@pytest.mark.rule("FATE-CAST-5")
def test_defense_tile_blocks_and_lets_the_excess_through():
    """A grade-5 defense tile blocks 5 HP and 10 MP; an 8 HP hit lets 3 through."""
    assert defense_block(5) == (5, 10)
    hit = meet_defense(8, 0, 5, 10, "defense 5")
    assert (hit.hp, hit.mp, hit.blocked_hp, hit.blocked_mp) == (3, 0, 5, 0)
    assert DURATION_TURNS["defense"] == 3


@pytest.mark.rule("FATE-CAST-6")
@pytest.mark.parametrize(
    "grade, tiles, hp, hp_max, healed", [(3, 2, 10, 40, 6), (3, 2, 38, 40, 2), (5, 1, 40, 40, 0)]
)
def test_heal_restores_grade_per_tile_capped(grade, tiles, hp, hp_max, healed):
    """Heal restores grade HP per tile, never above max HP."""
    assert healed == heal_hp(grade, tiles, hp, hp_max)


@pytest.mark.rule("FATE-CAST-7")
def test_one_buff_tile_per_target_unless_chanted():
    """Two buff tiles on one target are refused unless chanted; a buff lasts 3 turns."""
    refused("FATE-CAST-7", check_buff_tiles, {"Saber": 2}, False)
    check_buff_tiles({"Saber": 2}, True)
    assert DURATION_TURNS["buff"] == 3


@pytest.mark.rule("FATE-CAST-8")
@pytest.mark.parametrize("tiles, anti_magic, left", [(3, 0, 3), (3, 2, 1), (2, 4, 0)])
def test_anti_magic_cancels_curse_tiles(tiles, anti_magic, left):
    """Each grade of anti-magic cancels one curse tile; a curse lasts 5 turns."""
    assert left == curse_tiles_after_anti_magic(tiles, anti_magic)
    assert DURATION_TURNS["curse"] == 5


@pytest.mark.rule("FATE-CAST-9")
def test_defense_blocks_magical_injury_by_its_grade():
    """A grade-2 defense tile stops 2 of a grade-3 injury tile (HP block = injury block)."""
    block_hp, _ = defense_block(2)
    assert meet_defense(3, 0, block_hp, 0, "defense 2").hp == 1


# --- chant ---------------------------------------------------------------------------------------


@pytest.mark.rule("FATE-CHANT-1")
@pytest.mark.parametrize("tiles, chants, out", [(2, 0, 2), (2, 1, 4), (2, 2, 8), (3, 3, 24)])
def test_each_chant_doubles_the_tiles(tiles, chants, out):
    """n chants multiply the tiles by 2^n while MP is paid on the pool tiles only."""
    assert out == chanted_tiles(tiles, chants)
    assert 2 * tiles == cast_mp_cost(tiles, False)


@pytest.mark.rule("FATE-CHANT-4")
def test_chanted_buff_may_raise_several_judgments():
    """A chanted buff puts 4 tiles on one target."""
    check_buff_tiles(deal_tiles(chanted_tiles(1, 2), ["Saber"]), True)


# --- Noble Phantasms -----------------------------------------------------------------------------


@pytest.mark.rule("FATE-NP-2")
@pytest.mark.parametrize(
    "grade, points",
    [
        ("E", 1),
        ("D", 2),
        ("C", 3),
        ("C+", 4),
        ("B", 4),
        ("B+", 6),
        ("B++", 8),
        ("A", 5),
        ("A+", 8),
        ("A++", 11),
        ("A+++", 14),
        ("EX", 15),
    ],
)
def test_np_points(grade, points):
    """NP grades cost the seed's table."""
    assert points == np_setting_points(G(grade))


@pytest.mark.rule("FATE-NP-2")
@pytest.mark.parametrize("grade", ["E+", "D+", "C++", "B+++", "EX+", "F"])
def test_np_grades_outside_the_table(grade):
    """E+, D+, C++, B+++, EX+ and F are not NP grades."""
    refused("FATE-NP-2", parse_np_grade, grade)


@pytest.mark.rule("FATE-NP-3")
@pytest.mark.parametrize(
    "np_type, low, ok",
    [
        ("anti-unit", None, "E"),
        ("anti-army", "D", "C"),
        ("anti-fortress", "A", "A+"),
        ("anti-country", "A+", "A++"),
        ("anti-world", "A+++", "EX"),
        ("army", "C+", "B"),
        ("field", "C+", "B"),
    ],
)
def test_type_minimum_grades(np_type, low, ok):
    """Each type refuses the grade just below its minimum and takes the minimum."""
    check_np_type(np_type, G(ok), "attack", "true-name")
    if low is not None:
        err = refused("FATE-NP-3", check_np_type, np_type, G(low), "attack", "true-name")
        assert low in err.message and np_type in err.message


@pytest.mark.rule("FATE-NP-3")
def test_always_active_is_anti_unit():
    """An always-active anti-army NP is refused."""
    refused("FATE-NP-3", check_np_type, "anti-army", G("B"), "attack", "always")


@pytest.mark.rule("FATE-NP-4")
def test_madness_blocks_true_names():
    """Madness B forbids true-name NPs; madness E only while raging."""
    refused("FATE-NP-4", check_true_name_allowed, G("B"), False)
    check_true_name_allowed(G("E"), False)
    refused("FATE-NP-4", check_true_name_allowed, G("E"), True)
    check_true_name_allowed(None, False)


@pytest.mark.rule("FATE-NP-5")
@pytest.mark.parametrize(
    "np_type, form, grade, mp",
    [
        ("anti-unit", "attack", "C", 15),
        ("anti-unit", "attack", "EX", 35),
        ("anti-army", "attack", "A+", 35),
        ("anti-army", "attack", "EX", 49),
        ("anti-fortress", "attack", "A++", 50),
        ("anti-country", "attack", "A+++", 60),
        ("anti-world", "attack", "EX", 75),
        ("anti-unit", "defense", "B", 12),
        ("anti-unit", "defense", "EX", 21),
        ("army", "attack", "B", 20),
        ("army", "attack", "EX", 25),
        ("field", "attack", "A++", 25),
        ("field", "attack", "EX", 25),
    ],
)
def test_release_mp_costs(np_type, form, grade, mp):
    """Release MP is 5/7/3 per grade or flat 50/60/75, EX 7 grades but A for army and field."""
    assert mp == release_mp_cost(np_type, form, "true-name", G(grade))


@pytest.mark.rule("FATE-NP-6")
@pytest.mark.parametrize("grade, hp, mp", [("C", 6, 0), ("B++", 8, 6), ("A+++", 10, 9)])
def test_true_name_attack_damage(grade, hp, mp):
    """Each tile deals grade x 2 HP and 3 MP per plus, over 5 tiles."""
    profile = np_profile(G(grade), "anti-unit", "attack", "true-name", {})
    assert (hp, mp, 5) == (profile.hp_per_tile, profile.mp_per_tile, profile.tiles)


@pytest.mark.rule("FATE-NP-7")
@pytest.mark.parametrize(
    "np_type, grade, targets, mp",
    [
        ("anti-unit", "A", 1, 0),
        ("anti-army", "A", 2, 0),
        ("anti-fortress", "A+", 3, 8),
        ("anti-country", "A++", 5, 11),
        ("anti-world", "EX", None, 16),
    ],
)
def test_targets_and_type_mp_damage(np_type, grade, targets, mp):
    """Targets 1/2/3/5/all and extra MP 0/0/5/5/10 per tile on top of the plusses."""
    profile = np_profile(G(grade), np_type, "attack", "true-name", {})
    assert (targets, mp) == (profile.targets, profile.mp_per_tile)


@pytest.mark.rule("FATE-NP-7")
def test_front_and_back_row_targets():
    """Anti-army refuses a back-row target; anti-country pairs the back row behind the front."""
    refused("FATE-NP-7", plan_targets, "anti-army", 2, [("Rider", "front"), ("Waver", "back")])
    refused(
        "FATE-NP-7", plan_targets, "anti-army", 2, [("A", "front"), ("B", "front"), ("C", "front")]
    )
    plans = plan_targets("anti-country", 5, [("Rider", "front"), ("Waver", "back")])
    assert (plans[1].share, plans[1].behind_of) == ("half-of-front", "Rider")
    assert plan_targets("anti-world", None, [("Waver", "back")])[0].share == "half"
    assert back_row_hp(15) == 7


@pytest.mark.rule("FATE-NP-8")
def test_always_active_attack():
    """An always-active B NP costs no MP, deals 4 HP a tile, once a round (twice with madness B)."""
    profile = np_profile(G("B"), "anti-unit", "attack", "always", {})
    assert (profile.mp_cost, profile.hp_per_tile, profile.tiles) == (0, 4, 1)
    assert (
        always_uses_per_round(None),
        always_uses_per_round(G("C")),
        always_uses_per_round(G("B")),
    ) == (1, 1, 2)


@pytest.mark.rule("FATE-NP-9")
@pytest.mark.parametrize(
    "grade, release, block, tiles, bonus",
    [
        ("B", "true-name", 12, 5, 0),
        ("A+", "true-name", 15, 5, 10),
        ("EX", "true-name", 20, 5, 20),
        ("B", "always", 8, 8, 0),
        ("B++", "always", 8, 8, 20),
    ],
)
def test_defensive_np(grade, release, block, tiles, bonus):
    """True-name defense blocks grade x 3 on 5 tiles, always-active grade x 2 on grade x 2."""
    profile = np_profile(G(grade), "anti-unit", "defense", release, {})
    assert (block, tiles, bonus) == (profile.block_per_tile, profile.tiles, profile.hp_max_bonus)


@pytest.mark.rule("FATE-NP-10")
@pytest.mark.parametrize(
    "grade, rounds, plus_used, value, paid",
    [
        ("B", 0, False, 1, 1),
        ("B", 2, False, 3, 3),
        ("A++", 0, False, -1, 0),
        ("A++", 1, False, 0, 0),
        ("A++", 3, False, 2, 2),
        ("A+", 3, True, 1, 1),
        ("B", 3, True, 2, 2),
    ],
)
def test_field_upkeep(grade, rounds, plus_used, value, paid):
    """Upkeep is 1 + rounds elapsed - plusses (growth halved by a used +), paid never below 0."""
    assert (value, paid) == (
        field_upkeep_value(G(grade), rounds, plus_used),
        upkeep_mp(field_upkeep_value(G(grade), rounds, plus_used)),
    )


@pytest.mark.rule("FATE-NP-10")
@pytest.mark.parametrize(
    "new, new_marble, old, old_marble, outcome, factor",
    [
        ("A", True, "B", False, "replace", 2),
        ("A", True, "B", True, "replace", 2),
        ("A++", True, "A", True, "cancel", 2),
        ("B", True, "A", True, "nullified", 0),
        ("A", False, "B", False, "overwrite", 1),
        ("B", False, "A", False, "nullified", 0),
    ],
)
def test_reality_marble_clash(new, new_marble, old, old_marble, outcome, factor):
    """A marble removes lower fields at double MP; equal ones cancel; a lower field fails free."""
    clash = field_clash(G(new), new_marble, G(old), old_marble)
    assert (outcome, factor) == (clash.outcome, clash.mp_factor)


@pytest.mark.rule("FATE-NP-11")
@pytest.mark.parametrize(
    "grade, plus_used, units, free, points, upkeep",
    [
        ("B", False, 5, 0, 4, 10),
        ("B+", False, 6, 1, 4, 10),
        ("B+", True, 12, 2, 4, 10),
        ("A", False, 5, 0, 5, 10),
    ],
)
def test_army_units_and_upkeep(grade, plus_used, units, free, points, upkeep):
    """5 units of grade points, +1 free unit per plus, a used plus doubles units, halves upkeep."""
    army = army_units(G(grade), plus_used)
    assert (units, free, points) == (army.units, army.free_units, army.stat_points)
    assert upkeep == army_upkeep_per_round(army, plus_used)


@pytest.mark.rule("FATE-NP-11")
def test_reality_marble_army_summons_at_double_mp():
    """A B+ army with the marble trait pays 40 MP instead of 20."""
    assert (army_summon_mp(20, G("B+"), True), army_summon_mp(20, G("B+"), False)) == (40, 20)


@pytest.mark.rule("FATE-NP-12")
def test_ex_grade_extras():
    """EX attack 15 HP and 6 MP; EX defense 20 and +20 HP; EX field power 7 with 3 free rounds;
    EX army 10 units of 7 points, 5 free."""
    attack = np_profile(G("EX"), "anti-unit", "attack", "true-name", {})
    assert (attack.hp_per_tile, attack.mp_per_tile) == (15, 6)
    defense = np_profile(G("EX"), "anti-unit", "defense", "true-name", {})
    assert (defense.block_per_tile, defense.hp_max_bonus) == (20, 20)
    # Free for rounds 0-2; growth still counts from the raising (1 + 3 - 2 = 2 in round 3).
    assert (
        field_power(G("EX")),
        field_upkeep_due(G("EX"), 2, False),
        field_upkeep_due(G("EX"), 3, False),
        field_upkeep_due(G("EX"), 4, False),
    ) == (7, 0, 2, 3)
    army = army_units(G("EX"), False)
    assert (army.units, army.free_units, army.stat_points) == (10, 5, 7)


@pytest.mark.rule("FATE-NP-13")
def test_unknown_modifier_is_refused():
    """A modifier the tool does not know is refused, naming it."""
    err = refused("FATE-NP-13", parse_mods, {"sparkle": "true"})
    assert "sparkle" in err.message
    assert parse_mods({"concealment": "true"}).hp_per_tile == -2


@pytest.mark.rule("FATE-NP-13")
@pytest.mark.parametrize(
    "mods",
    [
        {"hp-per-tile": "1001"},
        {"mp-per-tile": "-1001"},
        {"hp-per-tile": "9" * 5000},
        {"mp-cost": "99999999999999999999"},
    ],
)
def test_numeric_modifiers_are_bounded(mods):
    """A modifier moves a number by at most 1000 (once, 20 digits were accepted and every
    release then failed to store its damage)."""
    err = refused("FATE-NP-13", parse_mods, mods)
    assert "a number from -1000 to 1000" in err.message
    assert parse_mods({"hp-per-tile": "1000"}).hp_per_tile == 1000


@pytest.mark.rule("FATE-NP-13")
def test_a_cost_modifier_never_makes_a_release_give_mp():
    """anti-unit C costs 5 x 3 = 15 MP: mp-cost=-15 makes it free, -16 would give MP."""
    assert np_profile(G("C"), "anti-unit", "attack", "true-name", {"mp-cost": "-15"}).mp_cost == 0
    err = refused(
        "FATE-NP-13", np_profile, G("C"), "anti-unit", "attack", "true-name", {"mp-cost": "-16"}
    )
    assert "would make a release cost -1 MP" in err.message


# --- unique abilities ----------------------------------------------------------------------------


@pytest.mark.rule("FATE-UA-1")
@pytest.mark.parametrize(
    "grade, ua_type, release",
    [
        ("A+", "anti-fortress", "true-name"),
        ("B", "anti-unit", "always"),
        ("EX", "anti-unit", "true-name"),
    ],
)
def test_unique_ability_limits(grade, ua_type, release):
    """No anti-fortress or above, no always-active, no EX unique ability."""
    refused("FATE-UA-1", check_unique_ability, G(grade), ua_type, release, False)


@pytest.mark.rule("FATE-UA-2")
def test_unique_ability_needs_points_from_character_grade():
    """A B+ ability (6 points) needs character grade 12; grade 11 earns only 5."""
    assert (ua_points_earned(11), ua_points_earned(12)) == (5, 6)
    check_ua_usable(G("B+"), 12, False)
    err = refused("FATE-UA-2", check_ua_usable, G("B+"), 11, False)
    assert "12" in err.message


@pytest.mark.rule("FATE-UA-3")
def test_starting_unique_ability_is_c_and_costs_one_grade_more():
    """A starting ability is C, usable at once, and an anti-unit one costs 20 MP instead of 15."""
    refused("FATE-UA-3", check_unique_ability, G("B"), "anti-unit", "true-name", True)
    check_ua_usable(G("C"), 0, True)
    assert np_profile(G("C"), "anti-unit", "attack", "true-name", {}, extra_grades=1).mp_cost == 20


# --- FATE-NP-13: the seed's 21 example NPs -------------------------------------------------------
# Columns: seed name, grade, type, form, release, modifiers; then the seed's numbers: setting
# points, MP cost, HP per tile, MP per tile, targets. None: the seed lists no such number for this
# NP (so the test does not check one). Always-active NPs cost no MP by rule (노블 판타즘 3.①).
SEED_NPS = [
    # 5. Fate/stay night
    (
        "약속된 승리의 검",
        "A++",
        "anti-fortress",
        "attack",
        "true-name",
        {"plus-hp": "2", "plus-mp": "6"},
        11,
        50,
        10,
        11,
        3,
    ),
    (
        "인비지블 에어",
        "C",
        "anti-unit",
        "attack",
        "true-name",
        {"concealment": "true"},
        3,
        15,
        4,
        0,
        1,
    ),
    (
        "모든 것이 머나먼 이상향",
        "EX",
        "anti-unit",
        "defense",
        "true-name",
        {},
        15,
        21,
        None,
        None,
        None,
    ),
    (
        "무한의 검제",
        "A++",
        "field",
        "attack",
        "true-name",
        {"reality-marble": "true", "shot-mp": "5", "shots": "1"},
        11,
        25,
        None,
        None,
        None,
    ),
    (
        "게 불그",
        "B+",
        "anti-unit",
        "attack",
        "true-name",
        {"piercing": "true", "widen": "anti-army"},
        6,
        20,
        13,
        0,
        1,
    ),
    (
        "브레이커 고르곤",
        "C",
        "anti-unit",
        "attack",
        "always",
        {"damage": "none"},
        3,
        0,
        None,
        None,
        None,
    ),
    (
        "블러드포트 안드로메다",
        "B",
        "field",
        "attack",
        "true-name",
        {"drain": "8", "drain-offset": "true", "absorb": "true"},
        4,
        20,
        None,
        None,
        None,
    ),
    ("벨레로폰", "A+", "anti-army", "attack", "true-name", {}, 8, 35, 10, 3, 2),
    (
        "갓 핸드",
        "B",
        "anti-unit",
        "defense",
        "always",
        {"ignores-attacks": "true"},
        4,
        0,
        None,
        None,
        None,
    ),
    ("룰 브레이커", "C", "anti-unit", "attack", "true-name", {"damage": "none"}, 3, 15, 0, 0, 1),
    (
        "자바니야 (stay night)",
        "C",
        "anti-unit",
        "attack",
        "true-name",
        {"ignores-defense": "true"},
        3,
        15,
        6,
        None,
        1,
    ),
    # 5-2. Fate/Zero
    (
        "게이트 오브 바빌론",
        "EX",
        "field",
        "attack",
        "true-name",
        {"shot-mp": "5", "shots": "2"},
        15,
        25,
        None,
        None,
        None,
    ),
    ("게 저그", "B", "anti-unit", "attack", "always", {}, 4, 0, None, None, None),
    (
        "게 보",
        "B",
        "anti-unit",
        "attack",
        "always",
        {"wound": "1", "wound-max": "4"},
        4,
        0,
        None,
        None,
        None,
    ),
    (
        "고르디어스 휠",
        "A+",
        "anti-army",
        "attack",
        "true-name",
        {"charge-mp": "20", "charge-tiles": "3"},
        8,
        35,
        10,
        3,
        2,
    ),
    (
        "아이오니언 헤타이로이",
        "EX",
        "army",
        "attack",
        "true-name",
        {"reality-marble": "true", "upkeep-per-unit": "-1"},
        15,
        25,
        None,
        None,
        None,
    ),
    ("나이트 오브 아너", "A++", "anti-unit", "attack", "always", {}, 11, 0, None, None, None),
    (
        "포 섬원스 글로리",
        "B",
        "anti-unit",
        "attack",
        "always",
        {"damage": "none"},
        4,
        0,
        None,
        None,
        None,
    ),
    ("아론다이트", "A++", "anti-unit", "attack", "always", {}, 11, 0, None, None, None),
    (
        "프렐라티즈 스펠북",
        "A+",
        "army",
        "attack",
        "true-name",
        {"familiar-mp": "5", "familiar-discount": "2", "familiar-points": "3"},
        8,
        None,
        None,
        None,
        None,
    ),
    ("자바니야 (zero)", "B+", "anti-army", "attack", "true-name", {}, 6, 28, None, None, None),
]


def test_seed_lists_21_example_nps():
    """FATE-NP-13: the table holds the seed's 11 Fate/stay night and 10 Fate/Zero NPs."""
    assert len(SEED_NPS) == 21


@pytest.mark.rule("FATE-NP-13")
@pytest.mark.parametrize(
    "name, grade, np_type, form, release, mods, points, mp, hp_tile, mp_tile, targets",
    SEED_NPS,
    ids=[row[0] for row in SEED_NPS],
)
def test_seed_example_np(
    name, grade, np_type, form, release, mods, points, mp, hp_tile, mp_tile, targets
):
    """Each seed NP set up from grade, type and modifiers (its abilities declared as data, which
    fit it) gives the seed's points, MP and damage."""
    from tablelog.rules.fate import check_mods_fit

    check_mods_fit(mods, np_type, form, release)
    profile = np_profile(parse_np_grade(grade), np_type, form, release, mods)
    seed = {
        "points": points,
        "mp_cost": mp,
        "hp_per_tile": hp_tile,
        "mp_per_tile": mp_tile,
        "targets": targets,
    }
    got = {key: getattr(profile, key) for key, value in seed.items() if value is not None}
    assert {key: value for key, value in seed.items() if value is not None} == got


@pytest.mark.rule("FATE-NP-13")
def test_seed_avalon_and_fields_and_army_numbers():
    """Avalon blocks 20/20 per tile; UBW and Gate of Babylon upkeep -1 (UBW 0 after a round);
    Ionioi summons 10 units of 7 points, 5 of them without upkeep (10 - 5 = 5 units x 1 MP)."""
    avalon = np_profile(G("EX"), "anti-unit", "defense", "true-name", {})
    assert avalon.block_per_tile == 20
    assert (
        field_upkeep_value(G("A++"), 0, False),
        field_upkeep_value(G("A++"), 1, False),
        field_upkeep_value(G("EX"), 0, False),
    ) == (-1, 0, -1)
    army = army_units(G("EX"), False)
    mods = parse_mods({"upkeep-per-unit": "-1"})
    assert (
        army.units,
        army.free_units,
        army.stat_points,
        army_upkeep_per_round(army, False, mods.upkeep_per_unit),
    ) == (10, 5, 7, 5)
    assert army_summon_mp(25, G("EX"), True) == 25


@pytest.mark.rule("FATE-NP-5")
def test_release_mp_formula_text():
    """The audit text shows how the MP cost is reached: 7 x 5 for A+ anti-army, flat 50, EX 7."""
    from tablelog.rules.fate import release_mp_formula

    assert (
        release_mp_formula("anti-army", "attack", "true-name", G("A+"))
        == "7 x 5 (anti-army A+) = 35"
    )
    assert (
        release_mp_formula("anti-fortress", "attack", "true-name", G("A++")) == "anti-fortress: 50"
    )
    assert (
        release_mp_formula("anti-unit", "defense", "true-name", G("EX"))
        == "3 x 7 (anti-unit defense EX) = 21"
    )
    assert (
        release_mp_formula("anti-unit", "attack", "true-name", G("C"), 1)
        == "5 x (3 + 1 starting) (anti-unit C) = 20"
    )


# --- grades as letters or numbers ----------------------------------------------------------------


@pytest.mark.rule("FATE-CC-10")
@pytest.mark.parametrize(
    "text, number", [("E", 1), ("d", 2), ("C", 3), ("B+", 4), ("A", 5), ("4", 4), (3, 3), ("0", 0)]
)
def test_a_grade_counted_as_a_number_may_be_a_letter(text, number):
    """Where a grade is a number (stored spells, cast grades, anti-magic) E..A count 1..5."""
    assert number == grade_number(text, "FATE-CC-10", "stored attack spell grade")


@pytest.mark.rule("FATE-CC-5")
def test_ex_counts_as_a_number_only_where_a_rule_gives_one():
    """A cast grade EX is 7 (an EX circuit's power); anti-magic EX has no number and is refused."""
    assert grade_number("EX", "FATE-CAST-2", "attack grade", ex=7) == 7
    err = refused("FATE-CAST-4", grade_number, "EX", "FATE-CAST-4", "anti-magic")
    assert err.message == "anti-magic EX has no number in the rules: give a number"


@pytest.mark.rule("FATE-CC-10")
@pytest.mark.parametrize("text", ["Q", "-1", "A-"])
def test_a_grade_that_is_neither_says_what_is_expected(text):
    """A stored grade Q, -1 or A- is refused naming it and what a grade is."""
    err = refused("FATE-CC-10", grade_number, text, "FATE-CC-10", "stored attack spell grade")
    assert f"stored attack spell grade {text}" in err.message
    assert "below 0" in err.message or "a number or a letter E, D, C, B, A" in err.message


@pytest.mark.rule("FATE-CC-2")
@pytest.mark.parametrize("text, grade", [("4", "B"), ("5+", "A+"), ("0", "F"), ("1", "E")])
def test_a_letter_grade_may_be_given_as_its_number(text, grade):
    """Where a grade is a letter (circuits, crest, NPs) its number 0..5 is accepted too."""
    assert grade == str(parse_grade(text))


@pytest.mark.rule("FATE-NP-15")
def test_an_np_that_ignores_attacks_raises_no_tiles_and_is_at_most_b():
    """God Hand (B, ignores-attacks) has no critical:defense tiles; at A it is refused; ranks
    B (4) and below are ignored, A (5) is not."""
    from tablelog.rules.fate import ignores_rank

    profile = np_profile(G("B"), "anti-unit", "defense", "always", {"ignores-attacks": "true"})
    assert (profile.tiles, profile.block_per_tile) == (0, 0)
    assert (
        np_profile(G("B"), "anti-unit", "defense", "always", {}).tiles,
        np_profile(G("B"), "anti-unit", "defense", "always", {}).block_per_tile,
    ) == (8, 8)
    refused(
        "FATE-NP-15",
        np_profile,
        G("A"),
        "anti-unit",
        "defense",
        "always",
        {"ignores-attacks": "true"},
    )
    assert (
        ignores_rank(G("B"), 4),
        ignores_rank(G("B+"), 1),
        ignores_rank(G("B"), 5),
        ignores_rank(G("B"), None),
    ) == (True, True, False, False)


@pytest.mark.rule("FATE-NP-13")
def test_ability_numbers():
    """Excalibur's + used: +2 HP, 2 x (6 - 3) = +6 MP; Gae Bolg's: targets 2; familiars
    (5 - 2) x 4 = 12 MP; Gate of Babylon 2 shots 10 MP; a drain of 8 less 2 x 5 anti-magic is 0;
    46 HP drained give 23 MP, no more than max MP."""
    from tablelog.rules.fate import absorbed_mp, attack_plus_use, drain_hp, familiar_mp, shots_mp

    excalibur = attack_plus_use(G("A++"), parse_mods({"plus-hp": "2", "plus-mp": "6"}))
    assert (excalibur.hp, excalibur.mp, excalibur.targets) == (2, 6, None)
    bolg = attack_plus_use(G("B+"), parse_mods({"piercing": "true", "widen": "anti-army"}))
    assert (bolg.hp, bolg.mp, bolg.targets) == (0, 0, 2)
    book = parse_mods({"familiar-mp": "5", "familiar-discount": "2"})
    assert familiar_mp(book, 4)[0] == 12
    assert shots_mp(parse_mods({"shot-mp": "5", "shots": "2"}), 2)[0] == 10
    assert (drain_hp(8, 5, True), drain_hp(8, 5, False), drain_hp(8, 1, True)) == (0, 8, 6)
    assert (absorbed_mp(46, 0, 70), absorbed_mp(46, 65, 70)) == (23, 5)
