"""Magic Punk's typed records: every record the evolvers build is a Character or an Item, the
deck a Deck and the private table record a Table.

The records are checked against the TypedDicts of ``tablelog.projections.magicpunk.entities``
with ``tests.support.shapes.problems`` after every event of a history that builds each kind and
each nested record (a spell, a shared residence, a briefing), each nullable value in both forms
and the one ``NotRequired`` key (the table's ``briefing_limit``).
"""

from __future__ import annotations

import pytest

import tablelog.events.magicpunk as E
import tablelog.projections.magicpunk as P
from tablelog import systems
from tablelog.projections.core import State, check, evolve
from tablelog.projections.magicpunk.entities import (
    Briefing,
    Character,
    Deck,
    Item,
    Lifestyle,
    Spell,
    Table,
)
from tests.support.shapes import problems

KAI = E.CharacterAdded(name="Kai", body=10, sense=10, intellect=10, magic=10, hp_max=32)
LIN = E.CharacterAdded(
    name="Lin", body=8, sense=12, intellect=12, magic=8, hp_max=26, skills={"arcana": "expert"}
)
HISTORY = (
    KAI,
    LIN,
    E.MoneyGained(name="Kai", amount=4000),
    E.ItemAdded(item="a-battery", owner="Kai", price=800),
    E.ItemAdded(item="arc-rifle", owner="Lin", gear_slots=1),
    E.ItemReadied(item="arc-rifle", slots_needed=1, slots_free=0, gear_active=False),
    E.CardsDrawn(who="Kai", cards=("AS", "2S", "3S"), draw_no=0, named=True),
    E.CardsCharged(item="a-battery", by="Kai", cards=("AS",)),
    E.SpellLearned(
        name="Kai", spell="spark", gate="fire", tier=1, price=1200, from_spell_money=0,
        from_money=1200,
    ),
    E.ResidenceShared(
        names=("Kai", "Lin"), region="markt", residence="apartment", region_points=2,
        residence_points=5, split=(3, 2),
    ),
    E.DamageTaken(target="Kai", amount=5, pull_punches=False, hp_before=32, hp_after=27),
    E.TurnTaken(name="Lin"),
    E.CheckRolled(
        notation="2MP10", dice=(4, 12), kept=(4, 12), success=True, jackpot=False,
        bad_beat=False, achieved=None, roll_no=0, by="Kai",
    ),
    E.CardsPlayed(who="Kai", cards=("2S",)),
    E.BriefingStarted(package="1m", limit_each=6),
    E.PreparationTaken(who="Kai", side="pc"),
)  # fmt: skip


def folded(*events: E.Event) -> State:
    """Return the state after ``events`` (each checked) on a new session."""
    state = State(system="magicpunk", seed=5)
    P.init_state(state, {})
    for event in events:
        check(state, event)
        evolve(state, event)
    return state


def shape_problems(state: State) -> list[str]:
    """Return what in any record is not of its TypedDict: a character, an item, the deck, the
    table."""
    return [
        *(p for name, ch in state.characters.items() for p in problems(ch, Character, name)),
        *(p for name, item in state.items.items() for p in problems(item, Item, name)),
        *problems(state.deck, Deck, "deck"),
        *problems(state.extra["magicpunk"], Table, "table"),
    ]


def test_the_system_declares_character_and_item():
    """``SYSTEM.records`` names the two kinds the contract test checks frozen logs against."""
    assert (Character, Item) == systems.get("magicpunk").records


@pytest.mark.parametrize("length", range(1, len(HISTORY) + 1))
def test_every_record_after_every_event_has_its_declared_shape(length):
    """After each event of the history, every record matches its TypedDict exactly."""
    assert shape_problems(folded(*HISTORY[:length])) == []


def test_nested_and_nullable_values_appear_in_both_forms():
    """The history builds a spell and a shared residence, and items with and without Ma-GEAR
    slots, readied and not: each nested record matches its own TypedDict."""
    state = folded(*HISTORY)
    kai, rifle, battery = (
        state.characters["Kai"],
        state.items["arc-rifle"],
        state.items["a-battery"],
    )
    assert [] == problems(kai["spells"]["spark"], Spell) == problems(kai["lifestyle"], Lifestyle)
    assert kai["lifestyle"]["cohabitants"] == ["Lin"]
    assert (rifle["gear_slots"], rifle["gear_active"], rifle["readied"]) == (1, False, True)
    assert (
        battery["gear_slots"],
        battery["gear_active"],
        battery["readied"],
    ) == (None, None, False)
    new = folded(KAI).characters["Kai"]
    assert (new["lifestyle"], new["spells"], new["items"]) == (None, {}, [])


def test_the_briefing_and_its_limit_appear_in_the_table():
    """The table's ``briefing`` is None, then a Briefing with its counts; ``briefing_limit``
    (``NotRequired``) appears when the first briefing begins."""
    before, after = folded(*HISTORY[:-2]), folded(*HISTORY)
    assert (
        before.extra["magicpunk"]["briefing"],
        "briefing_limit" in before.extra["magicpunk"],
    ) == (None, False)
    table = after.extra["magicpunk"]
    assert problems(table["briefing"], Briefing) == []
    assert (
        table["briefing_limit"],
        table["briefing"]["by_actor"],
        table["briefing"]["by_side"],
    ) == (6, {"pc:Kai": 1}, {"pc": 1})
    assert (table["rolls"], after.deck["discard"]) == (1, ["2S"])


def test_a_record_off_its_shape_is_reported():
    """The check is not vacuous: a key the declaration lacks, a missing key and a wrong value
    type are each named."""
    state = folded(*HISTORY)
    state.characters["Kai"]["mana"] = 3
    del state.items["a-battery"]["owner"]
    state.characters["Lin"]["lifestyle"]["region_points"] = "2"
    assert sorted(shape_problems(state)) == [
        "Kai.mana: not a key of Character",
        "Lin.lifestyle.region_points: '2' is not int",
        "a-battery.owner: missing (Item requires it)",
    ]


@pytest.mark.rule("MP-REBUILD-1")
def test_a_rebuild_sets_the_four_recorded_abilities_and_no_other_key():
    """A rebuild assigns the abilities it records; a key that is no ability (never decided,
    only a hand-made record) adds nothing to the record, which stays a Character."""
    rebuilt = E.Rebuilt(
        name="Kai",
        abilities_before={"body": 10, "sense": 10, "intellect": 10, "magic": 10},
        abilities_after={"body": 12, "sense": 8, "intellect": 9, "magic": 11, "luck": 3},
        skills_before={},
        skills_after={"stealth": "novice"},
        money_before=0,
        money_after=0,
        spell_money_after=0,
    )
    kai = folded(KAI, rebuilt).characters["Kai"]
    assert (kai["body"], kai["sense"], kai["intellect"], kai["magic"]) == (12, 8, 9, 11)
    assert problems(kai, Character) == []
