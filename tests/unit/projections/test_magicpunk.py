"""Magic Punk evolvers and preconditions: recorded facts applied, checks on the state only.

Evolvers are total (an event that no longer holds is applied as far as it can be, never raised);
preconditions name the rule and the values; v1 records are upcast and take the legacy path.
"""

from __future__ import annotations

import copy

import pytest

import tablelog.events.magicpunk as E
import tablelog.projections.magicpunk as P
from tablelog.events.codec import from_record
from tablelog.projections.core import State, check, evolve
from tablelog.rules.core import RuleViolation

KAI = E.CharacterAdded(name="Kai", body=10, sense=10, intellect=10, magic=10, hp_max=32)


def given(*events: E.Event) -> State:
    """Return the state after ``events`` (each checked) on a new session at day 1 22:00."""
    state = State(system="magicpunk", seed=3)
    P.init_state(state, {"clock": "1 22:00"})
    for event in events:
        check(state, event)
        evolve(state, event)
    return state


def violation(state: State, event: E.Event) -> tuple[str, str]:
    """Return ``(rule ID, message)`` of the event's failing precondition on ``state``."""
    with pytest.raises(RuleViolation) as err:
        check(state, event)
    return err.value.rule_id, err.value.message


def damage(amount: int, before: int, after: int, pull: bool = False) -> E.DamageTaken:
    return E.DamageTaken(
        target="Kai", amount=amount, pull_punches=pull, hp_before=before, hp_after=after
    )


def heal(amount: int, before: int, after: int) -> E.Healed:
    return E.Healed(target="Kai", amount=amount, hp_before=before, hp_after=after)


def test_damage_applies_its_recorded_change():
    """9 damage recorded at 32 -> 23 takes 9 from any HP: at 27 HP it leaves 18."""
    state = given(KAI, damage(5, 32, 27))
    check(state, damage(9, 32, 23))
    evolve(state, damage(9, 32, 23))
    assert state.characters["Kai"]["hp"] == 18


@pytest.mark.rule("MP-PULL-1")
@pytest.mark.parametrize(
    "earlier, event, message",
    [
        (
            damage(30, 32, 2),
            damage(40, 32, 0, pull=True),
            "Kai has 2 HP: the pulled punch of 40 stopped at 0 HP when Kai had 32",
        ),
        (
            damage(30, 32, 2),
            damage(5, 32, 27, pull=True),
            "Kai has 2 HP: the pulled punch of 5 decided at 32 HP would take it below 0",
        ),
    ],
)
def test_a_pulled_punch_needs_the_hp_it_was_decided_on(earlier, event, message):
    """MP-PULL-1: a punch the 0-HP floor cut needs that HP; an uncut one needs room above 0."""
    assert ("MP-PULL-1", message) == violation(given(KAI, earlier), event)


@pytest.mark.parametrize(
    "earlier, event, message",
    [
        (
            damage(9, 32, 23),
            heal(100, 18, 32),
            "Kai has 23 HP: the heal of 100 stopped at 32 HP when Kai had 18",
        ),
        (
            damage(9, 32, 23),
            heal(10, 18, 28),
            "Kai has 23 of 32 HP: the heal of 10 decided at 18 HP would take it above its max",
        ),
    ],
)
def test_a_heal_needs_room_under_max_hp(earlier, event, message):
    """MP-HP: a heal that max HP cut needs that HP; an uncut one must still fit under max HP."""
    assert ("MP-HP", message) == violation(given(KAI, earlier), event)


def test_heals_and_punches_that_still_fit_hold():
    """A 5-point heal recorded at 18 HP still fits at 23 of 32; a pulled 5 at 32 fits at 27."""
    state = given(KAI, damage(9, 32, 23))
    check(state, heal(5, 18, 23))
    check(state, damage(5, 32, 27, pull=True))


@pytest.mark.rule("MP-BRIEF-1")
def test_a_briefing_keeps_the_limit_it_began_with():
    """MP-BRIEF-1: a briefing recorded with 2 each refuses a third preparation of Kai."""
    prep = E.PreparationTaken(who="Kai", side="pc")
    state = given(KAI, E.BriefingStarted(package="1m", limit_each=2), prep, prep)
    assert violation(state, prep) == (
        "MP-BRIEF-1",
        "1m briefing: each takes at most 2 preparations, and this one has already taken 2",
    )
    assert violation(state, E.BriefingStarted(package="10s", limit_each=1)) == (
        "MP-BRIEF-1",
        "a briefing is under way",
    )


@pytest.mark.parametrize(
    "event",
    [
        E.CardsPlayed(who="Kai", cards=("AS",)),
        E.CardsDrawn(who="Nobody", cards=("AS",), draw_no=0),
        E.CardsCharged(item="a-battery", by="Kai", cards=("AS",)),
        E.DamageTaken(target="Nobody", amount=3),
        E.Healed(target="Kai", amount=5, hp_before=0, hp_after=5),
        E.TurnTaken(name="Nobody"),
        E.PreparationTaken(who="Kai", side="pc"),
        E.BriefingEnded(),
        E.SpellLearned(
            name="Kai",
            spell="blaze",
            gate="fire",
            tier=2,
            price=500,
            from_spell_money=0,
            from_money=500,
        ),
        E.Rebuilt(
            name="Kai",
            abilities_before={},
            abilities_after={},
            skills_before={},
            skills_after={},
            money_before=0,
            money_after=0,
            spell_money_after=0,
            items_removed=("a-battery",),
            spells_unlearned=("spark",),
        ),
        E.RestTaken(package="8h", who=("Kai",), sleep=True, start=0, end=480),
        E.LeisureEventTaken(name="Nobody", roll=7, safety=0, result=7, shared=True),
    ],
)
def test_evolvers_are_total(event):
    """An event whose precondition fails is still applied without raising (replay is total)."""
    state = given(KAI)
    with pytest.raises(RuleViolation):
        check(state, event)
    evolve(copy.deepcopy(state), event)


@pytest.mark.parametrize(
    "tag, data, hp",
    [
        ("magicpunk.DamageTaken", {"target": "Kai", "amount": 40, "pull_punches": True}, 0),
        ("magicpunk.DamageTaken", {"target": "Kai", "amount": 40}, -8),
    ],
)
def test_a_v1_damage_takes_the_legacy_path(tag, data, hp):
    """A v1 DamageTaken (no HP recorded) is upcast with None and computed with today's rule."""
    event = from_record(tag, 1, dict(data))
    assert (event.hp_before, event.hp_after) == (None, None)
    state = given(KAI)
    check(state, event)
    evolve(state, event)
    assert hp == state.characters["Kai"]["hp"]


def test_v1_heal_cover_and_briefing_are_upcast():
    """v1 Healed gets no HP (legacy: capped at max), CoverTaken gets stays_acted = was_acted,
    BriefingStarted no limit (legacy: today's table, 6 for 1m)."""
    healed = from_record("magicpunk.Healed", 1, {"target": "Kai", "amount": 50})
    state = given(KAI, damage(9, 32, 23))
    evolve(state, healed)
    assert state.characters["Kai"]["hp"] == 32
    cover = from_record(
        "magicpunk.CoverTaken", 1, {"coverer": "Kai", "covered": "Ann", "was_acted": True}
    )
    assert cover.stays_acted is True
    briefing = from_record("magicpunk.BriefingStarted", 1, {"package": "1m"})
    assert briefing.limit_each is None
    evolve(state, briefing)
    assert state.extra["magicpunk"]["briefing_limit"] == 6
