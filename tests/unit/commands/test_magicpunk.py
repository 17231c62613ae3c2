"""Magic Punk deciders: given events, when a command, then events (or a RuleViolation)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

import tablelog.commands.magicpunk as C
import tablelog.events.magicpunk as E
import tablelog.projections.magicpunk as P
from tablelog.commands.core import decide
from tablelog.lang import ENGLISH
from tablelog.projections.core import State, check, evolve
from tablelog.rules.core import RuleViolation
from tablelog.rules.magicpunk.cards import STANDARD_DECK
from tests.support.decider import refused

ARIA = E.CharacterAdded(
    name="Aria", body=8, sense=12, intellect=10, magic=10, hp_max=26, money=3000
)
BRAM = E.CharacterAdded(
    name="Bram",
    body=14,
    sense=10,
    intellect=8,
    magic=8,
    hp_max=34,
    skills={"swordplay": "expert", "first-aid": "novice"},
    money=2500,
)
BATTERY = E.ItemAdded(item="a-battery", owner="Aria")


def given(*events, clock="1 22:00", deck=None, seed=11, rules=None) -> State:
    """Return the state after ``events`` on a new session (each must hold: its precondition)."""
    state = State(system="magicpunk", seed=seed)
    P.init_state(state, {"clock": clock, "deck": deck, "rules": rules})
    for event in events:
        check(state, event)
        evolve(state, event)
    return state


def when(state: State, command) -> list:
    """Decide ``command`` and apply the events to ``state`` (checking each); return the events."""
    events = decide(state, command)
    for event in events:
        check(state, event)
        evolve(state, event)
    return events


def zones(state: State) -> Counter:
    """Count every card over every zone."""
    counted = Counter(state.deck["_pile"]) + Counter(state.deck["discard"])
    for ch in state.characters.values():
        counted += Counter(ch["hand"])
    for item in state.items.values():
        counted += Counter(item["cards"])
    return counted


def drawn(name, *cards, draw_no=0):
    return E.CardsDrawn(who=name, cards=tuple(cards), draw_no=draw_no, named=True)


# -- cards -------------------------------------------------------------------------------------


def test_random_draw_after_undo_draws_the_same_cards():
    """A random draw is keyed by the active draws before it: deciding it again repeats it."""
    state = given(ARIA, BRAM)
    first = decide(state, C.Draw("Aria", 3))
    assert first == decide(copy.deepcopy(state), C.Draw("Aria", 3))
    assert first[0].draw_no == 0
    later = given(ARIA, BRAM, first[0])
    assert decide(later, C.Draw("Bram", 3))[0].draw_no == 1


@pytest.mark.parametrize(
    "given_events, command, then",
    [
        ((ARIA,), C.Draw("Aria", 2, ("AS", "7H")), [drawn("Aria", "AS", "7H")]),
        (
            (ARIA, drawn("Aria", "AS")),
            C.Play("Aria", ("AS",)),
            [E.CardsPlayed(who="Aria", cards=("AS",))],
        ),
        (
            (ARIA, BATTERY, drawn("Aria", "AS")),
            C.Charge("a-battery", "Aria", ("AS",)),
            [E.CardsCharged(item="a-battery", by="Aria", cards=("AS",))],
        ),
    ],
)
def test_card_commands(given_events, command, then):
    """Named draws, plays and charges decide exactly the cards named."""
    assert then == decide(given(*given_events), command)


@pytest.mark.parametrize(
    "given_events, command, message",
    [
        (
            (ARIA, BRAM, drawn("Bram", "AS")),
            C.Draw("Aria", 1, ("AS",)),
            "AS is not in the draw pile (it is in Bram's hand)",
        ),
        (
            (ARIA, BRAM, drawn("Bram", "AS")),
            C.Play("Aria", ("AS",)),
            "AS is not held by Aria (it is in Bram's hand)",
        ),
        (
            (ARIA, BATTERY),
            C.Charge("a-battery", "Aria", ("KD",)),
            "KD is not held by Aria (it is in the draw pile)",
        ),
        ((ARIA,), C.Draw("Aria", 3, ("AS", "2S")), "COUNT is 3 but 2 cards are named: AS 2S"),
        (
            (ARIA,),
            C.Draw("Aria", 55),
            "cannot draw 55 cards: 54 in the draw pile and 0 in the discard pile",
        ),
    ],
)
def test_card_refusals(given_events, command, message):
    """A card held elsewhere, a count mismatch or an overdraw is refused with MP-CARDS."""
    assert message in refused(given(*given_events), command, "MP-CARDS")


def test_custom_deck_refuses_cards_outside_it():
    """With `init --deck`, a standard card not in the session's deck is refused."""
    state = given(ARIA, deck="AS,KS,QS")
    assert "KD is not in this session's deck" in refused(
        state, C.Draw("Aria", 1, ("KD",)), "MP-CARDS"
    )


def test_short_pile_reshuffles_only_the_discard_pile():
    """A short pile is drawn out; only the discard pile is reshuffled, hands keep theirs."""
    state = given(
        ARIA,
        BRAM,
        drawn("Aria", "AS", "KS"),
        drawn("Bram", "QS"),
        E.CardsPlayed(who="Aria", cards=("AS",)),
        deck="AS,KS,QS,JS",
    )
    events = when(state, C.Draw("Bram", 2))
    assert events[0].reshuffle_at == 1
    assert events[0].cards == ("JS", "AS")
    assert state.characters["Aria"]["hand"] == ["KS"]
    assert (state.deck["_pile"], state.deck["discard"]) == ([], [])


# -- circulation and rests --------------------------------------------------------------------


@pytest.mark.rule("MP-CIRC-3")
@pytest.mark.parametrize(
    "command, count",
    [
        (C.Circulate("Aria"), 3),
        (C.Circulate("Aria", random=2), 2),
        (C.Circulate("Aria", cards=("7H",)), 1),
    ],
)
def test_gm_circulation(command, count):
    """MP-CIRC-3: all, a random N or the named cards are discarded and as many drawn."""
    state = given(ARIA, drawn("Aria", "AS", "7H", "JK1"))
    [event] = when(state, command)
    assert count == len(event.discarded) == len(event.drawn)
    assert event.rule == "MP-CIRC-3"
    assert list(event.discarded) == state.deck["discard"]
    assert len(state.characters["Aria"]["hand"]) == 3
    assert not set(event.discarded) & set(state.characters["Aria"]["hand"])


@pytest.mark.rule("MP-CIRC-3")
def test_gm_circulation_refusals():
    """MP-CIRC-3: more random cards than held, or an empty holder, is refused."""
    state = given(ARIA, BATTERY, drawn("Aria", "AS"))
    assert "Aria holds 1 card: cannot circulate 2 at random" in refused(
        state, C.Circulate("Aria", random=2), "MP-CIRC-3"
    )
    assert "a-battery holds no cards" in refused(state, C.Circulate("a-battery"), "MP-CIRC-3")


@pytest.mark.rule("MP-REST-1")
@pytest.mark.rule("MP-CIRC-1")
@pytest.mark.rule("MP-CIRC-2")
def test_night_rest_circulates_sleepers_then_items_at_dawn():
    """MP-REST-1/CIRC-1/CIRC-2: 8h from 22:10 — sleepers at 23:10, the A-battery at 06:00."""
    state = given(
        ARIA,
        BRAM,
        BATTERY,
        drawn("Aria", "AS", "7H"),
        drawn("Bram", "KD"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)),
        clock="1 22:10",
    )
    events = when(state, C.Rest("8h", ("Aria",)))
    assert [(e.TYPE, getattr(e, "holder", None)) for e in events] == [
        ("magicpunk.RestTaken", None),
        ("magicpunk.CardsCirculated", "Aria"),
        ("magicpunk.CardsCirculated", "a-battery"),
    ]
    assert [e.at for e in events[1:]] == ["day 1 23:10", "day 2 06:00"]
    assert [e.rule for e in events[1:]] == ["MP-CIRC-1", "MP-CIRC-2"]
    assert state.clock == {"day": 2, "minutes": 370}
    assert state.characters["Bram"]["hand"] == ["KD"]
    assert state.deck["discard"] == ["7H", "AS"]


@pytest.mark.rule("MP-REST-1")
@pytest.mark.parametrize(
    "package, sleep, clock, minutes, circulations",
    [
        ("10m", None, "1 12:00", 730, 0),
        ("1h", None, "1 12:00", 780, 0),
        ("1h", True, "1 12:00", 780, 1),
        ("8h", False, "1 12:00", 1200, 0),
        ("1h", False, "1 05:30", 390, 1),
    ],
)
def test_rest_packages(package, sleep, clock, minutes, circulations):
    """MP-REST-1: the clock advances 10, 60 or 480 minutes; sleep or dawn circulate."""
    state = given(
        ARIA,
        BATTERY,
        drawn("Aria", "AS"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)),
        drawn("Aria", "KD"),
        clock=clock,
    )
    events = when(state, C.Rest(package, sleep=sleep))
    assert minutes == state.clock["minutes"]
    assert circulations == sum(e.TYPE == "magicpunk.CardsCirculated" for e in events)


@pytest.mark.rule("MP-REST-1")
def test_ten_minute_rest_with_sleep_is_refused():
    """MP-REST-1: a 10-minute rest with sleep is refused."""
    assert "a 10m rest (10 minutes) cannot include sleep" in refused(
        given(ARIA), C.Rest("10m", sleep=True), "MP-REST-1"
    )


@pytest.mark.rule("MP-CIRC-2")
def test_dawn_command_circulates_items_only():
    """MP-CIRC-2: `dawn` moves the clock to 06:00 and circulates items, not hands; the item's
    new card goes to its owner's hand (「…山札から引いて手札にする」) and the item ends empty."""
    state = given(
        ARIA,
        BATTERY,
        drawn("Aria", "AS", "2S"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)),
        clock="3 07:00",
    )
    events = when(state, C.Dawn())
    assert state.clock == {"day": 4, "minutes": 360}
    assert [(e.holder, e.drawn_to) for e in events[1:]] == [("a-battery", "Aria")]
    assert ["2S", *events[1].drawn] == state.characters["Aria"]["hand"]
    assert (state.items["a-battery"]["cards"], state.deck["discard"]) == ([], ["AS"])


@pytest.mark.rule("MP-CIRC-3")
def test_gm_circulation_of_an_item_draws_into_the_owners_hand():
    """MP-CIRC-3 reads 「手札にする」 as MP-CIRC-2 does: an item's new cards go to its owner."""
    state = given(
        ARIA,
        BATTERY,
        drawn("Aria", "AS", "2S", "KD"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS", "2S")),
    )
    [event] = when(state, C.Circulate("a-battery", cards=("AS",)))
    assert (event.drawn_to, len(event.drawn)) == ("Aria", 1)
    assert state.items["a-battery"]["cards"] == ["2S"]
    assert ["KD", *event.drawn] == state.characters["Aria"]["hand"]


@pytest.mark.parametrize(
    "command",
    [C.Rest("8h"), C.Dawn(), C.Circulate("Aria"), C.Circulate("a-battery")],
    ids=["rest", "dawn", "circulate-hand", "circulate-item"],
)
def test_circulating_commands_leave_the_state_as_it_was(command):
    """A rest and dawn decide on a copy of the state, a GM circulation on none: deciding leaves
    the state, hands, items and piles as they were (the copy before equals it after)."""
    state = given(
        ARIA,
        BRAM,
        BATTERY,
        drawn("Aria", "AS", "7H", "KD"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)),
    )
    before = copy.deepcopy(state)
    events = decide(state, command)
    assert any(e.TYPE == "magicpunk.CardsCirculated" for e in events)
    assert before == state


# -- combat and briefing ------------------------------------------------------------------------


@pytest.mark.rule("MP-PULL-1")
@pytest.mark.parametrize("pull, hp", [(True, 0), (False, -6)])
def test_damage_pulling_punches(pull, hp):
    """MP-PULL-1: 40 damage on 34 HP leaves 0 with pulled punches, else -6."""
    state = given(BRAM)
    when(state, C.Damage("Bram", 40, pull_punches=pull))
    assert hp == state.characters["Bram"]["hp"]


@pytest.mark.rule("MP-COVER-1")
def test_cover_by_a_character_who_has_not_acted():
    """MP-COVER-1: the coverer takes the damage and becomes acted; next round it is free."""
    state = given(ARIA, BRAM)
    events = when(state, C.Damage("Aria", 10, cover_by="Bram"))
    assert [
        E.CoverTaken(coverer="Bram", covered="Aria", was_acted=False, stays_acted=False),
        E.DamageTaken(target="Bram", amount=10, covering="Aria", hp_before=34, hp_after=24),
    ] == events
    assert (
        state.characters["Aria"]["hp"],
        state.characters["Bram"]["hp"],
        state.characters["Bram"]["acted"],
    ) == (26, 24, True)
    when(state, C.NewRound())
    assert state.characters["Bram"]["acted"] is False


@pytest.mark.rule("MP-COVER-1")
def test_covered_damage_needs_its_cover():
    """MP-COVER-1: the damage taken for another does not apply without the cover before it."""
    state = given(ARIA, BRAM)
    with pytest.raises(RuleViolation, match="MP-COVER-1: Bram takes the hit for Aria only"):
        check(
            state,
            E.DamageTaken(target="Bram", amount=10, covering="Aria", hp_before=34, hp_after=24),
        )


@pytest.mark.rule("MP-COVER-1")
def test_cover_by_an_acted_character_stays_acted_next_round():
    """MP-COVER-1: a coverer who already acted stays acted at the next round's start."""
    state = given(ARIA, BRAM, E.TurnTaken(name="Bram"), E.TurnTaken(name="Aria"))
    when(state, C.Damage("Aria", 5, cover_by="Bram"))
    when(state, C.NewRound())
    assert (state.characters["Bram"]["acted"], state.characters["Aria"]["acted"]) == (True, False)
    assert "Bram has already acted" in refused(state, C.Act("Bram"), "MP-COVER-1")
    when(state, C.NewRound())
    assert state.characters["Bram"]["acted"] is False
    assert state.extra["magicpunk"]["round"] == 3


@pytest.mark.rule("MP-BRIEF-1")
def test_briefing_counts_preparations():
    """MP-BRIEF-1: in a 1-minute briefing each PC takes up to 6; an aware enemy too."""
    state = given(ARIA, BRAM, E.BriefingStarted(package="1m"))
    for _ in range(6):
        when(state, C.Prepare("Aria"))
        when(state, C.Prepare("Ghoul", enemy=True))
    when(state, C.Prepare("Bram"))
    assert (
        "1m briefing: each takes at most 6 preparations, and this one has already taken 6"
    ) in refused(state, C.Prepare("Aria"), "MP-BRIEF-1")
    refused(state, C.Prepare("Ghoul", enemy=True), "MP-BRIEF-1")
    when(state, C.EndBriefing())
    assert "no briefing" in refused(state, C.Prepare("Aria"), "MP-BRIEF-1")


@pytest.mark.rule("MP-BRIEF-1")
def test_ten_second_briefing_one_each():
    """MP-BRIEF-1: in a 10-second briefing each PC takes one preparation."""
    state = given(ARIA, BRAM, E.BriefingStarted(package="10s"), E.PreparationTaken("Aria", "pc"))
    when(state, C.Prepare("Bram"))
    refused(state, C.Prepare("Aria"), "MP-BRIEF-1")


@pytest.mark.rule("MP-GEAR-1")
@pytest.mark.parametrize("free, active", [(1, False), (2, True)])
def test_ready_ma_gear(free, active):
    """MP-GEAR-1: a Ma-GEAR item is readied either way; its effect needs the slots."""
    state = given(ARIA, E.ItemAdded(item="arc-pistol", owner="Aria", gear_slots=2))
    when(state, C.ReadyItem("arc-pistol", free))
    assert (True, active) == (
        state.items["arc-pistol"]["readied"],
        state.items["arc-pistol"]["gear_active"],
    )


@pytest.mark.rule("MP-PROC-1")
@pytest.mark.rule("MP-PROC-2")
def test_procurement_is_recorded_with_its_check():
    """MP-PROC-1/2: alloy + fine + signed = rarity 3, a check with challenge +3, +1 die."""
    [event] = decide(given(ARIA), C.Procure("Aria", "alloy", "fine", "signed"))
    assert (event.rarity, event.check_needed, event.challenge, event.time_dice) == (3, True, 3, 1)
    assert event.breakdown == {
        "material": 1,
        "quality": 1,
        "design": 1,
        "ma-gear": 0,
        "vehicle": 0,
        "gm": 0,
    }
    assert event.rows == {"material": "alloy", "quality": "fine", "design": "signed"}
    [cheap] = decide(given(ARIA), C.Procure("Aria", "steel", "poor", extra_time=True))
    assert (cheap.rarity, cheap.check_needed, cheap.challenge, cheap.time_dice) == (-1, False, 0, 2)


# -- rebuild, money and spells --------------------------------------------------------------------

REBUILT = dict(body=12, sense=12, intellect=10, magic=6)
THREE_NOVICE = {"swordplay": "novice", "first-aid": "novice", "stealth": "novice"}
BIG = E.CharacterAdded(
    name="Kai",
    body=15,
    sense=12,
    intellect=10,
    magic=7,
    hp_max=30,
    skills={"a": "master", "b": "master", "c": "novice"},
    money=2000,
)


@pytest.mark.rule("MP-REBUILD-1")
@pytest.mark.rule("MP-REBUILD-5")
@pytest.mark.rule("MP-REBUILD-7")
def test_rebuild_abilities_and_skills():
    """MP-REBUILD-1/5/7: 40 points reassigned, 3 acquisitions (expert + novice) re-learned."""
    state = given(BRAM)
    when(state, C.Rebuild("Bram", REBUILT, THREE_NOVICE))
    bram = state.characters["Bram"]
    assert {a: bram[a] for a in REBUILT} == REBUILT
    assert bram["skills"] == THREE_NOVICE


@pytest.mark.rule("MP-REBUILD-1")
@pytest.mark.rule("MP-REBUILD-7")
@pytest.mark.parametrize(
    "abilities, skills, rule, message",
    [
        (dict(REBUILT, magic=7), None, "MP-REBUILD-1", "sum to the pool of 40 points, got 41"),
        (dict(REBUILT, magic=5), None, "MP-REBUILD-1", "sum to the pool of 40 points, got 39"),
        (
            None,
            {"swordplay": "master", "stealth": "novice"},
            "MP-REBUILD-7",
            "exactly 3 acquisitions, got 4",
        ),
        (None, None, "MP-REBUILD-1", "nothing to rebuild"),
    ],
)
def test_rebuild_refusals(abilities, skills, rule, message):
    """MP-REBUILD-1/7: a rebuild off by one point or acquisition is refused with the values."""
    assert message in refused(given(BRAM), C.Rebuild("Bram", abilities, skills), rule)


@pytest.mark.rule("MP-REBUILD-2")
@pytest.mark.rule("MP-REBUILD-4")
def test_rebuild_converts_points_above_40():
    """MP-REBUILD-2/4: of 44 points, 1 -> skills and 1 -> 1,000 Mj; 42 assigned, <= +5 each."""
    state = given(BIG)
    skills = {"a": "master", "b": "master", "c": "expert"}
    when(
        state,
        C.Rebuild(
            "Kai", dict(body=16, sense=12, intellect=10, magic=4), skills, to_skills=1, to_money=1
        ),
    )
    kai = state.characters["Kai"]
    assert (kai["body"], kai["money"], kai["money_converted"]) == (16, 3000, 1000)
    assert "the pool is 44 (4 above 40), asked 3 to skills and 2 to money" in refused(
        given(BIG), C.Rebuild("Kai", None, None, to_skills=3, to_money=2), "MP-REBUILD-2"
    )


@pytest.mark.rule("MP-REBUILD-6")
def test_rebuild_converts_acquisitions_above_5():
    """MP-REBUILD-6: of 7 acquisitions, 1 -> an ability point and 1 -> 1,000 Mj."""
    state = given(BIG)
    when(
        state,
        C.Rebuild(
            "Kai",
            dict(body=15, sense=13, intellect=10, magic=7),
            {"a": "master", "b": "expert"},
            to_abilities=1,
            skills_to_money=1,
        ),
    )
    assert (state.characters["Kai"]["sense"], state.characters["Kai"]["money"]) == (13, 3000)
    assert "7 acquisitions (2 above 5), asked 2 to abilities and 1 to money" in refused(
        given(BIG), C.Rebuild("Kai", None, None, to_abilities=2, skills_to_money=1), "MP-REBUILD-6"
    )


@pytest.mark.rule("MP-REBUILD-3")
def test_rebuild_immature_minimum():
    """MP-REBUILD-3: body 3 needs the immature-ability option."""
    abilities = dict(body=3, sense=13, intellect=14, magic=10)
    refused(given(ARIA), C.Rebuild("Aria", abilities), "MP-REBUILD-3")
    state = given(ARIA)
    when(state, C.Rebuild("Aria", abilities, minimums={"body": 3}))
    assert state.characters["Aria"]["body"] == 3


def _spent(state_events=()):
    """Aria: 3000 at creation, +4500 in scenarios, 1000 spell-only; an item and spells bought."""
    return given(
        ARIA,
        BATTERY,
        drawn("Aria", "AS"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)),
        E.MoneyGained(name="Aria", amount=4500),
        E.MoneyGained(name="Aria", amount=1000, spell_only=True),
        E.ItemAdded(item="coat", owner="Aria", price=2000),
        *state_events,
    )


@pytest.mark.rule("MP-REBUILD-8")
@pytest.mark.rule("MP-REBUILD-9")
def test_rebuild_items_refunds_a_plus_b_minus_c():
    """MP-REBUILD-8/9: 3000 + 4500 - 1200 ordinary Mj on spells = 6300; buy first with 3000."""
    state = _spent()
    when(state, C.LearnSpell("Aria", "spark", "fire", 1, 2200))
    assert (
        state.characters["Aria"]["spell_money"],
        state.characters["Aria"]["money"],
    ) == (0, 5500 - 1200)
    [event] = when(state, C.Rebuild("Aria", items=True))
    assert state.characters["Aria"]["money"] == 6300
    assert event.items_removed == ("a-battery", "coat")
    assert {
        k: event.breakdown[k] for k in ("A_creation", "B_scenarios", "C_spells", "buy_first_with")
    } == {"A_creation": 3000, "B_scenarios": 4500, "C_spells": 1200, "buy_first_with": 3000}
    assert (state.items, state.deck["discard"]) == ({}, ["AS"])
    assert state.characters["Aria"]["items"] == []


@pytest.mark.rule("MP-REBUILD-10")
def test_rebuild_spells_refunds_what_was_spent():
    """MP-REBUILD-10: unlearning refunds 1200 Mj and 1000 spell-only; a free 800 counts as paid."""
    state = _spent(
        [
            E.SpellLearned(
                name="Aria",
                spell="spark",
                gate="fire",
                tier=1,
                price=2200,
                from_spell_money=1000,
                from_money=1200,
            ),
            E.SpellLearned(
                name="Aria",
                spell="ward",
                gate="earth",
                tier=1,
                price=800,
                from_spell_money=0,
                from_money=0,
                free=True,
            ),
        ]
    )
    when(state, C.Rebuild("Aria", spells=True))
    aria = state.characters["Aria"]
    assert (aria["spells"], aria["money"], aria["spell_money"]) == ({}, 5500, 1800)


@pytest.mark.rule("MP-REBUILD-11")
def test_relearning_spells_goes_tier_by_tier():
    """MP-REBUILD-11: tier 2 needs tier 1 of its gate; spell-only money pays first."""
    state = _spent()
    assert "gate fire: learn tier 1 before tier 2" in refused(
        state, C.LearnSpell("Aria", "blaze", "fire", 2, 500), "MP-REBUILD-11"
    )
    [event] = when(state, C.LearnSpell("Aria", "spark", "fire", 1, 1500))
    assert (event.from_spell_money, event.from_money) == (1000, 500)
    when(state, C.LearnSpell("Aria", "blaze", "fire", 2, 500))
    assert {"spark", "blaze"} == set(state.characters["Aria"]["spells"])


@pytest.mark.rule("MP-REBUILD-12")
@pytest.mark.rule("MP-COHAB-1")
def test_rebuild_leaves_lifestyle_alone():
    """MP-REBUILD-12/COHAB-1: a shared residence (5 points: 3 + 2) survives a rebuild."""
    state = given(ARIA, BRAM)
    when(state, C.ShareResidence(("Aria", "Bram"), "markt", "apartment", 5, region_points=2))
    before = state.characters["Bram"]["lifestyle"]
    assert before == {
        "region": "markt",
        "residence": "apartment",
        "region_points": 2,
        "residence_points": 2,
        "cohabitants": ["Aria"],
    }
    assert state.characters["Aria"]["lifestyle"]["residence_points"] == 3
    when(state, C.Rebuild("Bram", REBUILT, THREE_NOVICE))
    assert before == state.characters["Bram"]["lifestyle"]


@pytest.mark.rule("MP-COHAB-1")
def test_cohabitation_refusals():
    """MP-COHAB-1: barracks cannot be shared; an agreed split must add up."""
    state = given(ARIA, BRAM)
    refused(state, C.ShareResidence(("Aria", "Bram"), "markt", "barracks", 4), "MP-COHAB-1")
    assert "the split 4, 2 adds up to 6, the residence costs 5 points" in refused(
        state, C.ShareResidence(("Aria", "Bram"), "markt", "flat", 5, split=(4, 2)), "MP-COHAB-1"
    )


@pytest.mark.rule("MP-COHAB-2")
def test_shared_leisure_event_does_not_repeat():
    """MP-COHAB-2: a second 7 in one leisure moves by the safety value to 6."""
    state = given(
        ARIA,
        BRAM,
        E.ResidenceShared(
            names=("Aria", "Bram"),
            region="markt",
            residence="flat",
            region_points=0,
            residence_points=4,
            split=(2, 2),
        ),
        E.LeisureStarted(),
    )
    assert [
        when(state, C.TakeLeisureEvent(n, 7, safety=1))[0].result for n in ("Aria", "Bram")
    ] == [7, 6]
    when(state, C.StartLeisure())
    assert when(state, C.TakeLeisureEvent("Bram", 7, safety=1))[0].result == 7


def test_roll_check_given_and_seeded():
    """A check records given dice; a seeded roll is repeated by deciding it again."""
    state = given(ARIA)
    [event] = when(state, C.RollCheck("2MP10C3", dice=(2, 9), by="Aria"))
    assert (event.success, event.achieved, event.given) == (True, 9, True)
    seeded = decide(state, C.RollCheck("3MP10"))
    assert seeded == decide(copy.deepcopy(state), C.RollCheck("3MP10"))
    assert seeded[0].roll_no == 1


def test_zones_hold_every_card_once_after_a_night():
    """After draws, plays, charges and a night's rest every card is in exactly one zone; Aria
    holds her 3 circulated cards and the A-battery's 2 new ones (MP-CIRC-2)."""
    state = given(ARIA, BRAM, BATTERY)
    when(state, C.Draw("Aria", 5))
    when(state, C.Draw("Bram", 4))
    when(state, C.Play("Bram", (state.characters["Bram"]["hand"][0],)))
    when(state, C.Charge("a-battery", "Aria", tuple(state.characters["Aria"]["hand"][:2])))
    when(state, C.Rest("8h"))
    assert Counter(STANDARD_DECK) == zones(state)
    assert (
        len(state.characters["Aria"]["hand"]),
        len(state.characters["Bram"]["hand"]),
        len(state.items["a-battery"]["cards"]),
    ) == (5, 3, 0)


# -- messages a GM reads at the table; rules named in history (QA findings) -------------------


@pytest.mark.parametrize(
    "command, rule, message",
    [
        (C.Play("Aria", ("AS",)), "MP-CARDS", "AS is not held by Aria (it is in Bram's hand)"),
        (
            C.ShareResidence(("Aria", "Aria"), "markt", "flat", 4),
            "MP-COHAB-1",
            "Aria named twice: name each PC once",
        ),
        (
            C.ShareResidence(("Aria",), "markt", "flat", 4),
            "MP-COHAB-1",
            "cohabitation needs 2 or more PCs, got only Aria",
        ),
        (
            C.ShareResidence(("Aria", "Bram"), "markt", "flat", 3, split=(1, 1)),
            "MP-COHAB-1",
            "the split 1, 1 adds up to 2, the residence costs 3 points",
        ),
        (C.RollCheck("2MP10", dice=(3, 25)), "MP-CHECK", "a d20 shows 1 to 20, got 25"),
        (C.RollCheck("2MP10", dice=(3,)), "MP-CHECK", "2MP10 needs 2 dice, got 1"),
        (
            C.LearnSpell("Aria", "wave", "water", 2, 100),
            "MP-REBUILD-11",
            "gate water: learn tier 1 before tier 2 (no tier known yet)",
        ),
        (
            C.AddCharacter("Zed", body=-1, sense=4, intellect=4, magic=-2, hp=10),
            "MP-CHARACTER",
            "abilities and money are 0 or more, got body -1 and magic -2",
        ),
        (
            C.AddCharacter("Zed", body=4, sense=4, intellect=4, magic=0, hp=0),
            "MP-CHARACTER",
            "max HP is 1 or more, got 0",
        ),
        (
            C.Rebuild("Bram", abilities={"body": 10}),
            "MP-REBUILD-1",
            "give all four abilities or none: --sense --intellect --magic missing",
        ),
        (
            C.Rest("8h", who=("Aria", "Aria")),
            "MP-REST-1",
            "Aria named twice among who rests: name each character once",
        ),
        (
            C.Rest("8h", who=()),
            "MP-REST-1",
            "nobody named to rest: name who rests, or leave --who out for every character",
        ),
        (C.Rest("8h", who=("Aria", " ")), "MP-REST-1", "a blank name among who rests"),
    ],
)
def test_refusals_read_as_english(command, rule, message):
    """Refusals name the values in words: no list, tuple, dict or None, no `the Bram's`."""
    assert message == refused(given(ARIA, BRAM, drawn("Bram", "AS")), command, rule)


@pytest.mark.parametrize(
    "event, rule_line",
    [
        (E.CharacterAdded(name="Zed", body=4, sense=4, intellect=4, magic=0, hp_max=9), None),
        (drawn("Aria", "AS"), None),
        (E.CardsPlayed(who="Aria", cards=("AS",)), None),
        (E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)), None),
        (
            E.CardsCirculated(
                holder="Aria", discarded=("AS",), drawn=("KD",), draw_no=1, rule="MP-CIRC-1"
            ),
            "rule MP-CIRC-1",
        ),
        (E.DawnReached(start=1330, end=1800), None),
        (E.TurnTaken(name="Aria"), None),
        (E.Healed(target="Bram", amount=5), None),
        (E.DamageTaken(target="Bram", amount=5), None),
        (E.DamageTaken(target="Bram", amount=5, pull_punches=True), "rule MP-PULL-1"),
        (E.DamageTaken(target="Bram", amount=5, covering="Aria"), "rule MP-COVER-1"),
        (E.MoneyGained(name="Aria", amount=100), "rule MP-REBUILD-8"),
        (E.MoneyGained(name="Aria", amount=100, spell_only=True), None),
        (
            E.SpellLearned(
                name="Aria",
                spell="spark",
                gate="fire",
                tier=1,
                price=500,
                from_spell_money=0,
                from_money=500,
            ),
            "rule MP-REBUILD-11",
        ),
        (
            E.ProcurementAssessed(
                who="Aria", rarity=0, check_needed=False, challenge=0, time_dice=1, breakdown={}
            ),
            "rule MP-PROC-2",
        ),
        (
            E.ProcurementAssessed(
                who="Aria", rarity=2, check_needed=True, challenge=2, time_dice=1, breakdown={}
            ),
            "rule MP-PROC-1, MP-PROC-2",
        ),
        (E.LeisureEventTaken(name="Aria", roll=7, safety=0, result=7, shared=False), None),
        (
            E.LeisureEventTaken(name="Aria", roll=7, safety=2, result=8, shared=False),
            "rule MP-COHAB-2",
        ),
    ],
)
def test_history_names_exactly_the_rules_behind_each_event(event, rule_line):
    """history's `rule …` line names the RULES.md clauses that applied, or is absent."""
    assert ([rule_line] if rule_line else []) == [
        line for line in ENGLISH.explain(event) if line.startswith("rule ")
    ]


@pytest.mark.parametrize(
    "command, rule_line",
    [
        (
            C.Rebuild("Bram", abilities={"body": 12, "sense": 12, "intellect": 10, "magic": 6}),
            "rule MP-REBUILD-1, MP-REBUILD-3",
        ),
        (
            C.Rebuild("Bram", skills={"swordplay": "novice", "stealth": "expert"}),
            "rule MP-REBUILD-5, MP-REBUILD-7",
        ),
        (C.Rebuild("Bram", items=True), "rule MP-REBUILD-8, MP-REBUILD-9"),
        (C.Rebuild("Bram", spells=True), None),
    ],
)
def test_rebuild_history_names_the_parts_rebuilt(command, rule_line):
    """A rebuild of skills only names MP-REBUILD-5 and -7, not the ability or item clauses."""
    event = decide(given(ARIA, BRAM), command)[0]
    assert ([rule_line] if rule_line else []) == [
        line for line in ENGLISH.explain(event) if line.startswith("rule ")
    ]


def test_every_event_names_only_rules_md_ids():
    """Each magicpunk event class lists only RULES.md IDs (MP-AREA-N), never MP-CARDS."""
    import re

    from tablelog.events.core import registered_types

    for tag, cls in registered_types().items():
        if tag.startswith("magicpunk."):
            assert all(re.fullmatch(r"MP-[A-Z]+-\d+", r) for r in cls.RULES), (tag, cls.RULES)


# -- optional rules the table adopts (issue 15, item 8) ------------------------------------------


@pytest.mark.parametrize(
    "rule, command",
    [
        ("gm-circulation", C.Circulate("Aria")),
        ("rests", C.Rest("8h")),
        ("briefing", C.StartBriefing("1m")),
        ("cover", C.Damage("Aria", 5, cover_by="Bram")),
        ("pulling-punches", C.Damage("Aria", 5, pull_punches=True)),
        ("ma-gear", C.ReadyItem("arc-pistol", 1)),
        ("procurement", C.Procure("Aria", "alloy", "fine")),
        ("cohabitation", C.ShareResidence(("Aria", "Bram"), "markt", "flat", 4)),
        ("rebuild", C.Rebuild("Bram", REBUILT, THREE_NOVICE)),
    ],
)
def test_a_command_of_a_rule_not_adopted_is_refused(rule, command):
    """The GM adopts each optional rule (はじめに): a table without it is refused naming it; the
    same command passes where every rule but an unrelated one is adopted."""
    events = (
        ARIA,
        BRAM,
        E.ItemAdded(item="arc-pistol", owner="Aria", gear_slots=2),
        drawn("Aria", "AS"),
    )
    message = refused(given(*events, rules=f"no-{rule}"), command, "MP-ADOPT")
    assert message.startswith(f"this table does not use the optional rule {rule} (")
    other = "rebuild" if rule != "rebuild" else "cover"
    assert decide(given(*events, rules=f"no-{other}"), command)


def test_without_ma_gear_an_item_with_its_slots_is_readied():
    """Without the Ma-GEAR rule an item is readied only with its magic slots free (core rule)."""
    state = given(ARIA, E.ItemAdded(item="arc-pistol", owner="Aria", gear_slots=2), rules="none")
    [event] = when(state, C.ReadyItem("arc-pistol", 2))
    assert event.gear_active is True


@pytest.mark.rule("MP-CIRC-1")
@pytest.mark.rule("MP-CIRC-2")
@pytest.mark.parametrize(
    "rules, holders",
    [
        ("all", ["Aria", "a-battery"]),
        ("no-sleep-circulation", ["a-battery"]),
        ("no-dawn-circulation", ["Aria"]),
        ("rests", []),
    ],
)
def test_rests_circulate_only_by_the_rules_adopted(rules, holders):
    """An 8h rest from 22:10: sleepers circulate only with MP-CIRC-1 adopted, items at dawn only
    with MP-CIRC-2; the clock advances either way."""
    state = given(
        ARIA,
        BATTERY,
        drawn("Aria", "AS", "7H"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)),
        clock="1 22:10",
        rules=rules,
    )
    events = when(state, C.Rest("8h"))
    assert holders == [e.holder for e in events[1:]]
    assert state.clock == {"day": 2, "minutes": 370}


def test_dawn_without_dawn_circulation_only_moves_the_clock():
    """MP-CIRC-2 not adopted: `dawn` moves the clock to 06:00; the A-battery keeps its card."""
    state = given(
        ARIA,
        BATTERY,
        drawn("Aria", "AS"),
        E.CardsCharged(item="a-battery", by="Aria", cards=("AS",)),
        clock="3 07:00",
        rules="no-dawn-circulation",
    )
    assert [e.TYPE for e in when(state, C.Dawn())] == ["magicpunk.DawnReached"]
    assert (state.clock, state.items["a-battery"]["cards"]) == ({"day": 4, "minutes": 360}, ["AS"])


# -- event lines say what happened (issue 15, items 10 and 12) ------------------------------------

KAI = E.CharacterAdded(name="Kai", body=10, sense=10, intellect=10, magic=10, hp_max=32)


def test_a_capped_heal_says_what_it_healed():
    """`heal Kai 100` at 23/32 HP heals 9: "heals 9 HP (100 asked, capped at max)"."""
    state = given(KAI, E.DamageTaken(target="Kai", amount=9, hp_before=32, hp_after=23))
    [event] = when(state, C.Heal("Kai", 100))
    assert ENGLISH.event(event) == "Kai heals 9 HP (100 asked, capped at max)"
    assert state.characters["Kai"]["hp"] == 32


@pytest.mark.rule("MP-PULL-1")
@pytest.mark.parametrize(
    "hp, amount, line",
    [
        (32, 40, "Kai takes 32 damage (40 dealt, pulled punches stop at 0 HP)"),
        (0, 40, "Kai takes no damage: pulled punches, already at 0 HP (40 dealt)"),
        (-3, 5, "Kai takes no damage: pulled punches, already at -3 HP (5 dealt)"),
        (32, 5, "Kai takes 5 damage (pulled punches)"),
    ],
)
def test_pulled_punches_say_what_they_did(hp, amount, line):
    """MP-PULL-1: the line gives the HP lost, and says so when pulled punches change nothing."""
    state = given(KAI, E.DamageTaken(target="Kai", amount=32 - hp, hp_before=32, hp_after=hp))
    [event] = when(state, C.Damage("Kai", amount, pull_punches=True))
    assert line == ENGLISH.event(event)


@pytest.mark.rule("MP-COHAB-2")
def test_the_wilds_mana_disaster_happens_once_whatever_its_roll():
    """MP-COHAB-2: Aria rolls 2 in the wilds (a mana disaster); Bram's 6 is the same event and
    moves by the safety value 1 to 5."""
    state = given(
        ARIA,
        BRAM,
        E.ResidenceShared(
            names=("Aria", "Bram"),
            region="wastes",
            residence="camp",
            region_points=0,
            residence_points=2,
            split=(1, 1),
        ),
        E.LeisureStarted(),
    )
    [aria] = when(state, C.TakeLeisureEvent("Aria", 2, table="wilds"))
    [bram] = when(state, C.TakeLeisureEvent("Bram", 6, safety=1, table="wilds"))
    assert ((aria.result, aria.shared_event), (bram.result, bram.shared_event)) == ((2, 2), (5, 5))
    assert (
        ENGLISH.event(bram)
        == "Bram rolls 6 on the wilds leisure table, moved to 5 (every cohabitant)"
    )
