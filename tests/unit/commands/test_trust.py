"""The pure core of issue 32: randomness keyed by the latest undo (CORE-RANDOM) and the table
options (CORE-GIVEN), given events / when a command / then events."""

from __future__ import annotations

import attrs
import pytest

import tablelog.commands.magicpunk as C
import tablelog.events.magicpunk as E
import tablelog.projections.magicpunk as P
from tablelog import systems
from tablelog.commands.core import SetTableOption
from tablelog.events.core import TableOptionSet
from tablelog.projections.core import State, evolve, random_seed, table_allows
from tablelog.rules.core import RuleViolation

ARIA = E.CharacterAdded(name="Aria", body=8, sense=12, intellect=10, magic=10, hp_max=26)


def magicpunk(*events: object) -> State:
    """The state of a magicpunk session (seed 11) after ``events``."""
    state = State(system="magicpunk", seed=11)
    P.init_state(state, {"clock": "1 22:00", "deck": None, "rules": None})
    for event in events:
        evolve(state, event)  # type: ignore[arg-type]
    return state


@pytest.mark.rule("CORE-RANDOM")
def test_a_log_without_markers_draws_from_the_seed_itself() -> None:
    """No undo or redo yet (marked 0): the seed is the session's, so old logs draw as before."""
    assert random_seed(magicpunk()) == 11


@pytest.mark.rule("CORE-RANDOM")
def test_the_same_draw_after_an_undo_is_keyed_afresh() -> None:
    """The same state and draw, decided after markers #5 and #9: three different seeds, and
    (on this seed) three different cards; each decision is a pure function of its state."""
    state = magicpunk(ARIA)
    drawn = {}
    for marked in (0, 5, 9):
        at = attrs.evolve(state, marked=marked)
        drawn[marked] = systems.decide(at, C.Draw(who="Aria", count=1))[0].cards  # type: ignore[attr-defined]
        assert drawn[marked] == systems.decide(at, C.Draw(who="Aria", count=1))[0].cards  # type: ignore[attr-defined]
    assert len({random_seed(attrs.evolve(state, marked=m)) for m in drawn}) == 3
    assert len(set(drawn.values())) == 3, drawn


@pytest.mark.rule("CORE-RANDOM")
def test_marked_is_not_part_of_the_states_value() -> None:
    """Two states that differ only in the marker they were decided after are equal."""
    assert magicpunk(ARIA) == attrs.evolve(magicpunk(ARIA), marked=7)


@pytest.mark.rule("CORE-GIVEN")
def test_the_gm_allows_then_forbids_given_cards() -> None:
    """Off on a new table; allow records it, forbid takes it back."""
    state = magicpunk()
    assert not table_allows(state, "given-cards")
    allowed = systems.decide(state, SetTableOption("given-cards", True))
    assert [TableOptionSet("given-cards", True)] == allowed
    evolve(state, allowed[0])
    assert table_allows(state, "given-cards") and not table_allows(state, "given-dice")
    assert [TableOptionSet("given-cards", False)] == systems.decide(
        state, SetTableOption("given-cards", False)
    )


@pytest.mark.rule("CORE-GIVEN")
@pytest.mark.parametrize(
    ("system", "option", "says"),
    [
        (
            "magicpunk",
            "given-factors",
            "magicpunk has no table option 'given-factors' (it has given-cards, given-dice)",
        ),
        ("fate", "given-dice", "fate has no table option 'given-dice' (it has none)"),
        (
            "magicpunk",
            "given-luck",
            "magicpunk has no table option 'given-luck' (it has given-cards, given-dice)",
        ),
    ],
)
def test_an_option_the_system_has_not_is_refused(system: str, option: str, says: str) -> None:
    """Each system offers the options its commands report (saga: given-factors only)."""
    state = systems.initial_state(system)
    with pytest.raises(RuleViolation) as refused:
        systems.decide(state, SetTableOption(option, True))
    assert ("CORE-GIVEN", says) == (refused.value.rule_id, refused.value.message)


def test_each_system_offers_the_options_of_its_commands() -> None:
    """magicpunk: cards and dice; saga: random factors; fate and pf2e: none (a later system
    offers the options its commands report, checked by tests/contract/test_systems.py)."""
    seeds = ("fate", "magicpunk", "pf2e", "saga")
    assert {name: systems.get(name).table_options for name in seeds} == {
        "fate": (),
        "magicpunk": ("given-cards", "given-dice"),
        "pf2e": (),
        "saga": ("given-factors",),
    }
