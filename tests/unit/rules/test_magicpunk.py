"""Pure Magic Punk rules: cards, clock and rests, checks, combat, procurement, rebuild."""

from __future__ import annotations

import pytest

from tablelog.rules.core import RuleViolation
from tablelog.rules.magicpunk import (
    cards,
    checks,
    clock,
    combat,
    lifestyle,
    optional,
    procurement,
)
from tablelog.rules.magicpunk import rebuild as rb


def test_standard_deck_has_54_distinct_cards():
    """The default deck is 52 cards plus two jokers, each once."""
    assert len(cards.STANDARD_DECK) == 54
    assert len(set(cards.STANDARD_DECK)) == 54
    assert {"AS", "10H", "QD", "2C", "JK1", "JK2"} <= set(cards.STANDARD_DECK)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AS,7H,jk1", ("AS", "7H", "JK1")),
        ("10h qd", ("10H", "QD")),
    ],
)
def test_parse_card_list(text, expected):
    """Card lists parse in order, upper-cased, with commas or spaces."""
    assert expected == cards.parse_card_list(text)


@pytest.mark.parametrize("text", ["", ",", " , "])
def test_parse_card_list_refuses_an_empty_list(text):
    """``--cards ""`` names no card: refused (a draw of no cards was once logged, and circulate
    said the holder had no cards)."""
    with pytest.raises(RuleViolation, match="MP-CARDS: no card named"):
        cards.parse_card_list(text)


@pytest.mark.parametrize(
    "text, named", [("1S", "1S"), ("AS,ZZ", "ZZ"), ("11H", "11H"), ("JK3", "JK3")]
)
def test_parse_card_list_refuses_unknown_codes(text, named):
    """An unknown card code is refused with MP-CARDS naming the code."""
    with pytest.raises(RuleViolation) as exc:
        cards.parse_card_list(text)
    assert exc.value.rule_id == "MP-CARDS"
    assert named in exc.value.message


def test_parse_deck_custom_list():
    """`init --deck` gives another deck; no list gives the standard deck."""
    assert cards.parse_deck("AS,KH") == ("AS", "KH")
    assert cards.parse_deck(None) == cards.STANDARD_DECK


def test_random_draw_is_stable_and_keyed_by_draw_number():
    """The same seed and draw number give the same cards; another draw number may differ."""
    pile = cards.STANDARD_DECK
    first = cards.plan_random_draw(7, pile, (), 5, draw_no=0)
    again = cards.plan_random_draw(7, pile, (), 5, draw_no=0)
    assert first == again
    assert len(set(first.cards)) == 5
    assert set(first.cards) <= set(pile)
    others = {cards.plan_random_draw(7, pile, (), 5, draw_no=n).cards for n in range(1, 6)}
    assert len(others | {first.cards}) > 1


def test_random_draw_takes_the_pile_before_reshuffling_the_discard():
    """A short pile is drawn out first, then only the discard pile is reshuffled in."""
    plan = cards.plan_random_draw(3, ("AS", "2S"), ("KD", "QD", "JD"), 4, draw_no=9)
    assert plan.reshuffle_at == 2
    assert {"AS", "2S"} == set(plan.cards[:2])
    assert set(plan.cards[2:]) <= {"KD", "QD", "JD"}


def test_random_draw_refuses_more_than_pile_and_discard():
    """Drawing more cards than the pile and discard pile hold is refused with the counts."""
    with pytest.raises(
        RuleViolation,
        match=r"MP-CARDS: cannot draw 4 cards: 1 in the draw "
        r"pile and 2 in the discard pile",
    ):
        cards.plan_random_draw(1, ("AS",), ("KD", "QD"), 4, draw_no=0)


def test_named_draw_refuses_a_card_not_in_the_pile():
    """A card the table reports that is not in the draw pile is refused."""
    with pytest.raises(RuleViolation, match="MP-CARDS: KD is not in the draw pile"):
        cards.plan_named_draw(["AS", "KD"], ("AS", "2S"), ("KD",))


def test_named_draw_reshuffles_only_when_the_pile_is_empty():
    """A discarded card may be drawn only after the pile ran out."""
    assert cards.DrawPlan(("AS", "KD"), 1) == cards.plan_named_draw(["AS", "KD"], ("AS",), ("KD",))


@pytest.mark.parametrize(
    "text, expected",
    [
        (None, (1, 720)),
        ("1 22:00", (1, 1320)),
        ("3 06:05", (3, 365)),
    ],
)
def test_parse_clock(text, expected):
    """`--clock "DAY HH:MM"` parses to (day, minutes); the default is day 1 12:00."""
    assert expected == clock.parse_clock(text)


@pytest.mark.parametrize("text", ["22:00", "0 10:00", "1 24:00", "1 10:60", "x"])
def test_parse_clock_refuses_bad_text(text):
    """A malformed clock is refused with MP-CLOCK."""
    with pytest.raises(RuleViolation, match="MP-CLOCK"):
        clock.parse_clock(text)


@pytest.mark.rule("MP-REST-1")
@pytest.mark.parametrize(
    "package, sleep, expected",
    [
        ("8h", None, True),
        ("8h", False, False),
        ("1h", None, False),
        ("1h", True, True),
        ("10m", None, False),
        ("10m", False, False),
    ],
)
def test_rest_sleeps(package, sleep, expected):
    """MP-REST-1: 8h sleeps unless --no-sleep, 1h only with --sleep, 10m never."""
    assert expected == clock.rest_sleeps(package, sleep)
    assert {"10m": 10, "1h": 60, "8h": 480}[package] == clock.REST_PACKAGES[package]


@pytest.mark.rule("MP-REST-1")
def test_ten_minute_rest_with_sleep_is_refused():
    """MP-REST-1: a 10-minute rest cannot include sleep."""
    with pytest.raises(RuleViolation, match=r"MP-REST-1: a 10m rest \(10 minutes\) cannot"):
        clock.rest_sleeps("10m", True)


@pytest.mark.rule("MP-CIRC-1")
@pytest.mark.rule("MP-CIRC-2")
@pytest.mark.parametrize(
    "start, minutes, sleep, expected",
    [
        # given 1 22:10, 8h with sleep: sleep at 23:10, dawn at day 2 06:00
        ((1, 1330), 480, True, [("sleep", (1, 1390)), ("dawn", (2, 360))]),
        # 1h with sleep at 05:00: both at 06:00, sleep first
        ((1, 300), 60, True, [("sleep", (1, 360)), ("dawn", (1, 360))]),
        # starting at 06:00 exactly: that dawn is already past
        ((1, 360), 480, False, []),
        ((1, 1435), 10, False, []),
    ],
)
def test_rest_moments(start, minutes, sleep, expected):
    """MP-CIRC-1/2: sleep circulates after the first hour; dawn at the next 06:00 in the rest."""
    moments = clock.rest_moments(clock.absolute(*start), minutes, sleep)
    assert expected == [(m.kind, clock.from_absolute(m.at)) for m in moments]


def test_next_dawn_and_text():
    """The next 06:00 strictly after a time; times format as day and HH:MM."""
    assert clock.from_absolute(clock.next_dawn(clock.absolute(1, 360))) == (2, 360)
    assert clock.from_absolute(clock.next_dawn(clock.absolute(1, 359))) == (1, 360)
    assert clock.clock_text(2, 370) == "day 2 06:10"


@pytest.mark.rule("MP-PULL-1")
@pytest.mark.parametrize(
    "hp, amount, pull, expected",
    [
        (34, 40, True, 0),
        (34, 40, False, -6),
        (10, 3, True, 7),
        (-2, 5, True, -2),
        (0, 0, True, 0),
    ],
)
def test_hp_after_damage(hp, amount, pull, expected):
    """MP-PULL-1: pulled punches stop at 0 HP; otherwise HP may go below 0."""
    assert expected == combat.hp_after_damage(hp, amount, pull)


@pytest.mark.parametrize(
    "hp, hp_max, amount, expected", [(0, 34, 12, 12), (30, 34, 12, 34), (-6, 20, 3, -3)]
)
def test_hp_after_heal(hp, hp_max, amount, expected):
    """Healing adds HP up to the maximum."""
    assert expected == combat.hp_after_heal(hp, hp_max, amount)


@pytest.mark.rule("MP-COVER-1")
@pytest.mark.parametrize("acted, expected", [(False, (True, False)), (True, (True, True))])
def test_cover_outcome(acted, expected):
    """MP-COVER-1: a coverer becomes acted; one already acted stays acted next round."""
    assert expected == combat.cover_outcome(acted)


@pytest.mark.rule("MP-BRIEF-1")
@pytest.mark.parametrize(
    "package, by_actor, allowed",
    [
        ("10s", 0, True),
        ("10s", 1, False),
        ("1m", 5, True),
        ("1m", 6, False),
        ("ample", 40, True),
    ],
)
def test_briefing_limits(package, by_actor, allowed):
    """MP-BRIEF-1: each PC takes 1 preparation in 10s, up to 6 in 1m, any number with ample time."""
    limit = combat.briefing_limit(package)
    if allowed:
        combat.check_preparation(package, limit, by_actor)
    else:
        with pytest.raises(RuleViolation, match=f"MP-BRIEF-1: {package} briefing: each takes"):
            combat.check_preparation(package, limit, by_actor)


@pytest.mark.rule("MP-BRIEF-1")
def test_briefing_limit_per_package():
    """MP-BRIEF-1: 1 each in 10s, 6 each in 1m, any number (0) with ample time; else refused."""
    assert tuple(combat.briefing_limit(p) for p in ("10s", "1m", "ample")) == (1, 6, 0)
    with pytest.raises(RuleViolation, match="MP-BRIEF-1: unknown briefing package '2m'"):
        combat.briefing_limit("2m")


@pytest.mark.rule("MP-PROC-2")
@pytest.mark.parametrize(
    "kwargs, total, needed",
    [
        (dict(material="steel", quality="standard"), 0, False),
        (dict(material="steel", quality="poor"), -1, False),
        (dict(material="alloy", quality="fine", design="signed"), 3, True),
        (dict(material="mana-silver", quality="legendary", design="gorgeous"), 10, True),
        (dict(material="magic-shell", quality="standard", gear_price=1499), 4, True),
        (dict(material="steel", quality="standard", vehicle_price=3999, gm=-1), 0, False),
    ],
)
def test_rarity(kwargs, total, needed):
    """MP-PROC-2: rarity sums the table rows, divisions round down; >= 1 needs a check."""
    result = procurement.rarity(**kwargs)
    assert total == result.total
    assert needed == result.check_needed
    assert (total if needed else 0) == result.challenge


@pytest.mark.rule("MP-PROC-2")
def test_rarity_refuses_unknown_material():
    """MP-PROC-2: an unknown material is refused naming it."""
    with pytest.raises(RuleViolation, match="MP-PROC-2: unknown material 'gold'"):
        procurement.rarity("gold", "standard")


@pytest.mark.rule("MP-PROC-1")
def test_procurement_time_dice():
    """MP-PROC-1: +1 die automatically, +2 at most for taking more time."""
    assert procurement.procurement_time_dice(False) == 1
    assert procurement.procurement_time_dice(True) == 2


@pytest.mark.rule("MP-GEAR-1")
@pytest.mark.parametrize("needed, free, active", [(2, 2, True), (2, 1, False), (0, 0, True)])
def test_gear_active(needed, free, active):
    """MP-GEAR-1: an item is readied either way; its Ma-GEAR effect needs the free slots."""
    assert active == procurement.gear_active(needed, free)


@pytest.mark.parametrize(
    "notation, dice, success, jackpot, bad_beat, achieved",
    [
        ("3MP10", (4, 15, 9), True, False, False, 9),
        ("3MP10", (11, 15, 19), False, False, False, None),
        ("2MP10", (10, 3), True, True, False, 10),
        ("2MP12C5", (4, 3), False, False, False, None),
        ("2MP12C5", (4, 7), True, False, False, 7),
        ("2MP1", (1, 1), False, False, True, None),
        ("2MP8", (1, 1), False, False, True, None),
        ("2MP8C12", (8, 1), True, True, False, 8),
        ("0MP10", (4, 12), False, False, False, None),
        ("0MP10", (4, 7), True, False, False, 4),
        ("0MP10", (10, 1), False, False, True, None),
    ],
)
def test_evaluate_checks(notation, dice, success, jackpot, bad_beat, achieved):
    """nMPm/nMPmCx: success, jackpot, bad beat and the achieved value; 0 dice keep the worse."""
    result = checks.evaluate(checks.parse_notation(notation), dice)
    assert (success, jackpot, bad_beat, achieved) == (
        result.success,
        result.jackpot,
        result.bad_beat,
        result.achieved,
    )
    assert dice == result.dice


@pytest.mark.parametrize(
    "text",
    [
        "3d10",
        "MP",
        "3MP",
        "31MP10",
        "2MP10+1",
        "2MP10C5X",
        "2MP10>=5",
        "3MP1000",
        "3MP10C1000",
        "3MP" + "9" * 5000,
        "9" * 5000 + "MP10",
    ],
)
def test_parse_notation_refuses(text):
    """A notation that is not nMPm / nMPmCx (or asks for too many dice) is refused; so is text
    after it that a dice bot would silently skip (a modifier such as +1)."""
    with pytest.raises(RuleViolation, match="MP-CHECK"):
        checks.parse_notation(text)


@pytest.mark.parametrize(
    "text, notation",
    [
        ("MP15", checks.Notation(1, 15)),
        ("mp15", checks.Notation(1, 15)),
        ("1MP15", checks.Notation(1, 15)),
        ("2MP10C", checks.Notation(2, 10)),
        ("2MP10C0", checks.Notation(2, 10)),
        ("2mp10c4", checks.Notation(2, 10, 4)),
        ("0MP15C5", checks.Notation(0, 15, 5)),
    ],
)
def test_parse_notation_as_the_dice_bots_read_it(text, notation):
    """The die count may be left out (one die) and so may the challenge value (C0: none)."""
    assert notation == checks.parse_notation(text)


# The cases of the BCDice MagicPunk bot's own tests: notation, d20s, outcome as the bot prints it.
BOT_CASES = [
    ("1MP15", (10,), "success 10"),
    ("1MP15", (16,), "failure"),
    ("MP15", (15,), "jackpot"),
    ("MP15", (1,), "bad beat"),
    ("3MP15C5", (10, 4, 18), "success 10"),
    ("3MP15C10", (9, 4, 18), "failure"),
    ("3MP15C18", (9, 15, 18), "jackpot"),
    ("3MP15C1", (1, 1, 1), "bad beat"),
    ("0MP15C5", (10, 15), "success 10"),
    ("0MP15C5", (10, 17), "failure"),
    ("0MP15C5", (10, 4), "failure"),
    ("0MP15C5", (15, 15), "jackpot"),
    ("0MP15C5", (1, 15), "bad beat"),
]


@pytest.mark.parametrize("text, dice, outcome", BOT_CASES)
def test_checks_give_what_the_dice_bot_gives(text, dice, outcome):
    """Every form the online bot accepts gives the bot's result on the same dice."""
    result = checks.evaluate(checks.parse_notation(text), dice)
    found = (
        "bad beat"
        if result.bad_beat
        else "jackpot"
        if result.jackpot
        else f"success {result.achieved}"
        if result.success
        else "failure"
    )
    assert outcome == found


def test_parse_notation_bounds():
    """Leading zeros do not count against the bounds; 999 is the largest target or challenge."""
    assert checks.parse_notation("030MP0999C007") == checks.Notation(30, 999, 7)


def test_roll_dice_is_stable():
    """Dice rolled from the seed depend only on the seed and the roll's place."""
    rolled = checks.roll_dice(5, 4, roll_no=2)
    assert rolled == checks.roll_dice(5, 4, roll_no=2)
    assert all(1 <= d <= 20 for d in rolled)


@pytest.mark.rule("MP-REBUILD-1")
@pytest.mark.rule("MP-REBUILD-3")
@pytest.mark.parametrize(
    "new, pool, rule",
    [
        (dict(body=12, sense=12, intellect=10, magic=6), 40, None),
        (dict(body=12, sense=12, intellect=10, magic=7), 40, "MP-REBUILD-1"),
        (dict(body=3, sense=15, intellect=15, magic=7), 40, "MP-REBUILD-3"),
        (dict(body=16, sense=10, intellect=10, magic=4), 40, "MP-REBUILD-3"),
        (dict(body=15, sense=15, intellect=10, magic=0), 40, None),
    ],
)
def test_check_abilities_base_pool(new, pool, rule):
    """MP-REBUILD-1/3: the four abilities sum to the pool; 40 points within 4..15 (magic 0..15)."""
    if rule is None:
        rb.check_abilities(new, pool)
    else:
        with pytest.raises(RuleViolation) as exc:
            rb.check_abilities(new, pool)
        assert rule == exc.value.rule_id


@pytest.mark.rule("MP-REBUILD-4")
@pytest.mark.parametrize(
    "new, pool, ok",
    [
        (dict(body=20, sense=15, intellect=10, magic=5), 50, True),
        (dict(body=21, sense=15, intellect=10, magic=4), 50, False),
        (dict(body=19, sense=19, intellect=4, magic=0), 42, False),
        (dict(body=16, sense=16, intellect=10, magic=0), 42, True),
    ],
)
def test_check_abilities_points_above_40(new, pool, ok):
    """MP-REBUILD-4: points above 40 add at most 5 to any ability."""
    if ok:
        rb.check_abilities(new, pool)
    else:
        with pytest.raises(RuleViolation, match="MP-REBUILD-4"):
            rb.check_abilities(new, pool)


@pytest.mark.rule("MP-REBUILD-3")
def test_check_abilities_immature_minimum():
    """MP-REBUILD-3: the immature-ability option lowers a minimum."""
    new = dict(body=2, sense=15, intellect=15, magic=8)
    rb.check_abilities(new, 40, {"body": 2})
    with pytest.raises(RuleViolation, match="MP-REBUILD-3: body 2 is below its minimum 4"):
        rb.check_abilities(new, 40)


@pytest.mark.rule("MP-REBUILD-5")
def test_acquisitions_count_ranks():
    """MP-REBUILD-5: novice 1, expert 2, master 3 acquisitions."""
    assert rb.acquisitions({"swordplay": "expert", "first-aid": "novice"}) == 3
    assert rb.acquisitions({"a": "master", "b": "master"}) == 6
    assert rb.skill_rank("2") == "expert"


@pytest.mark.rule("MP-REBUILD-2")
@pytest.mark.rule("MP-REBUILD-6")
@pytest.mark.parametrize(
    "args, rule",
    [
        ((44, 5, 2, 2, 0, 0), None),
        ((44, 5, 3, 2, 0, 0), "MP-REBUILD-2"),
        ((40, 5, 1, 0, 0, 0), "MP-REBUILD-2"),
        ((40, 8, 0, 0, 2, 1), None),
        ((40, 8, 0, 0, 2, 2), "MP-REBUILD-6"),
        ((40, 4, 0, 0, 0, 1), "MP-REBUILD-6"),
    ],
)
def test_check_conversions(args, rule):
    """MP-REBUILD-2/6: only points above 40 and acquisitions above 5 convert."""
    if rule is None:
        rb.check_conversions(*args)
    else:
        with pytest.raises(RuleViolation) as exc:
            rb.check_conversions(*args)
        assert rule == exc.value.rule_id


@pytest.mark.rule("MP-REBUILD-7")
def test_check_skills_exact_acquisitions():
    """MP-REBUILD-7: re-learned skills use exactly the acquisitions available."""
    rb.check_skills({"a": "novice", "b": "novice", "c": "novice"}, 3)
    with pytest.raises(RuleViolation, match="MP-REBUILD-7: .* exactly 3 acquisitions, got 4"):
        rb.check_skills({"a": "expert", "b": "expert"}, 3)


@pytest.mark.rule("MP-REBUILD-8")
def test_item_refund_is_a_plus_b_minus_c():
    """MP-REBUILD-8: refund = creation money + scenario money - ordinary money spent on spells."""
    assert rb.item_refund(3000, 4500, 1200) == 3000 + 4500 - 1200
    assert rb.item_refund(3000, 4500, 1200, converted=2000) == 3000 + 4500 + 2000 - 1200


@pytest.mark.rule("MP-REBUILD-11")
def test_spell_order_and_payment():
    """MP-REBUILD-11: per gate from tier 1 upwards; spell-only money pays first."""
    known = {"spark": ("fire", 1)}
    rb.check_spell_order(known, "fire", 2)
    rb.check_spell_order(known, "water", 1)
    with pytest.raises(
        RuleViolation,
        match=r"MP-REBUILD-11: gate water: learn tier 1 before "
        r"tier 2 \(no tier known yet\)",
    ):
        rb.check_spell_order(known, "water", 2)
    assert rb.pay_spell(1200, 500, 900) == (500, 700)
    assert rb.pay_spell(1200, 2000, 0) == (1200, 0)
    with pytest.raises(RuleViolation, match="MP-REBUILD-11"):
        rb.pay_spell(1200, 500, 600)


@pytest.mark.rule("MP-COHAB-1")
def test_cohabitation_residence_and_split():
    """MP-COHAB-1: two or more PCs, a sharable residence, points split as evenly as possible."""
    lifestyle.check_residence(["Aria", "Bram"], "apartment")
    with pytest.raises(RuleViolation, match="MP-COHAB-1: 'barracks' cannot be shared"):
        lifestyle.check_residence(["Aria", "Bram"], "barracks")
    with pytest.raises(RuleViolation, match="MP-COHAB-1: cohabitation needs 2 or more"):
        lifestyle.check_residence(["Aria"], "apartment")
    assert lifestyle.even_split(8, 3) == (3, 3, 2)
    lifestyle.check_split(8, (5, 3), 2)
    with pytest.raises(
        RuleViolation, match="MP-COHAB-1: the split 5, 2 adds up to 7, the residence costs 8 points"
    ):
        lifestyle.check_split(8, (5, 2), 2)


@pytest.mark.rule("MP-COHAB-2")
@pytest.mark.parametrize(
    "roll, safety, taken, expected",
    [
        (7, 2, set(), 7),
        (7, 2, {7}, 6),
        (4, 1, {3, 4}, 5),
        (3, 0, {2, 3}, 1),
        (8, 0, {7}, 8),
    ],
)
def test_shared_leisure_roll(roll, safety, taken, expected):
    """MP-COHAB-2: a shared event does not repeat; shift by safety, else the nearest lower roll."""
    assert expected == lifestyle.shared_leisure_roll(roll, safety, taken)


@pytest.mark.rule("MP-COHAB-2")
def test_shared_leisure_roll_wilds_table():
    """MP-COHAB-2: in the wilds, 5 (resources run out) is shared; a second 5 moves down to 4."""
    assert lifestyle.shared_leisure_roll(5, 1, {5}, lifestyle.SHARED_LEISURE_EVENTS_WILDS) == 4
    assert lifestyle.shared_leisure_roll(5, 1, {5}) == 5


@pytest.mark.rule("MP-COHAB-2")
@pytest.mark.parametrize(
    "roll, safety, expected", [(2, 0, 1), (4, 0, 3), (6, 0, 5), (4, 1, 3), (6, 2, 5), (2, 2, 1)]
)
def test_wilds_mana_disaster_is_one_event(roll, safety, expected):
    """MP-COHAB-2: wilds 2, 4 and 6 all read 「突如として魔煌災害が発生した。」: once the mana
    disaster (event 2) has happened, a second PC rolling any of them moves."""
    wilds = lifestyle.SHARED_LEISURE_EVENTS_WILDS
    assert {2, 4, 6} == {r for r, event in wilds.items() if event == 2}
    assert expected == lifestyle.shared_leisure_roll(roll, safety, {2}, wilds)


@pytest.mark.rule("MP-COHAB-1")
def test_residence_names_a_pc_twice_among_many() -> None:
    """MP-COHAB-1: 65,000 names with one repeated: the repeat is named (found in linear time)."""
    names = [f"n{i}" for i in range(65000)] + ["n7"]
    with pytest.raises(RuleViolation, match="MP-COHAB-1: n7 named twice"):
        lifestyle.check_residence(names, "apartment")


# -- optional rules the table adopts (issue 15, item 8) ------------------------------------------


@pytest.mark.parametrize(
    "text, adopted",
    [
        (None, tuple(optional.OPTIONAL_RULES)),
        ("all", tuple(optional.OPTIONAL_RULES)),
        ("none", ()),
        ("rebuild,cover", ("cover", "rebuild")),
        (
            "no-rebuild,no-cohabitation",
            tuple(r for r in optional.OPTIONAL_RULES if r not in ("rebuild", "cohabitation")),
        ),
        ("all,no-ma-gear", tuple(r for r in optional.OPTIONAL_RULES if r != "ma-gear")),
        ("rests, sleep-circulation", ("sleep-circulation", "rests")),
    ],
)
def test_parse_adopted(text, adopted):
    """init --rules: all by default; names, none, or every rule but the no-NAME ones."""
    assert adopted == optional.parse_adopted(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("rebuilt", "rebuilt: not an optional rule (one of sleep-circulation, dawn-circulation"),
        ("cover,,rebuild", "--rules 'cover,,rebuild' has a blank entry"),
        ("cover,no-cover", "cover named twice in --rules: name each once"),
    ],
)
def test_parse_adopted_refusals(text, message):
    """An unknown rule, a blank entry or a rule named twice is refused with MP-ADOPT."""
    with pytest.raises(RuleViolation) as err:
        optional.parse_adopted(text)
    assert (err.value.rule_id, err.value.message.startswith(message)) == ("MP-ADOPT", True)


def test_check_adopted_names_the_rule():
    """A command of a rule left out is refused naming the rule and its clauses."""
    optional.check_adopted(None, "rebuild")
    optional.check_adopted(("rebuild",), "rebuild")
    with pytest.raises(
        RuleViolation,
        match=r"MP-ADOPT: this table does not use the optional "
        r"rule rebuild \(rebuild, MP-REBUILD-1\.\.12\)",
    ):
        optional.check_adopted(("cover",), "rebuild")
