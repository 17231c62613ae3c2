"""Property tests: card conservation and no re-roll on undo, over random card-command histories.

Histories are built by running decide: each drawn step is turned into a command that names
real holders and cards of the current state (or deliberately bad ones), decided, and applied.
"""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import tablelog.commands.magicpunk as C
import tablelog.events.magicpunk as E
import tablelog.projections.magicpunk as P
from tablelog.commands.core import decide
from tablelog.projections.core import State, evolve
from tablelog.rules.core import RuleViolation
from tablelog.rules.magicpunk.cards import STANDARD_DECK

HOLDERS = ("Aria", "Bram", "a-battery")
KINDS = (
    "draw",
    "draw-named",
    "play",
    "charge",
    "circulate",
    "circulate-random",
    "circulate-named",
    "rest",
    "dawn",
    "steal",
)
steps = st.lists(
    st.tuples(st.sampled_from(KINDS), st.integers(0, 2), st.integers(0, 7), st.integers(0, 2**16)),
    max_size=30,
)
decks = st.sampled_from([None, "AS,KS,QS,JS,10S,9S", "AS,2H,3D,4C,JK1"])


def new_state(seed: int, deck: str | None) -> tuple[State, list]:
    """A session with Aria, Bram and Aria's A-battery; return it and its events."""
    state = State(system="magicpunk", seed=seed)
    P.init_state(state, {"clock": "1 21:00", "deck": deck})
    events = [
        E.CharacterAdded(name=n, body=10, sense=10, intellect=10, magic=10, hp_max=20)
        for n in ("Aria", "Bram")
    ] + [E.ItemAdded(item="a-battery", owner="Aria")]
    for event in events:
        evolve(state, event)
    return state, events


def held(state: State, holder: str) -> list[str]:
    return (
        state.characters[holder]["hand"]
        if holder in state.characters
        else state.items[holder]["cards"]
    )


def pick(cards: list[str], count: int, salt: int) -> tuple[str, ...]:
    """Pick ``count`` cards of ``cards`` (deterministic from ``salt``)."""
    pool, chosen = list(cards), []
    for i in range(min(count, len(pool))):
        chosen.append(pool.pop((salt + i * 7) % len(pool)))
    return tuple(chosen)


def command_for(state: State, kind: str, who: int, count: int, salt: int) -> object:
    """Turn one drawn step into a command on the current state (it may be refused)."""
    name, holder = ("Aria", "Bram")[who % 2], HOLDERS[who]
    pile = state.deck["_pile"]
    table = {
        "draw": lambda: C.Draw(name, count + 1),
        "draw-named": lambda: C.Draw(name, cards=pick(pile, count + 1, salt)),
        "play": lambda: C.Play(name, pick(held(state, name), count + 1, salt)),
        "charge": lambda: C.Charge("a-battery", "Aria", pick(held(state, "Aria"), count, salt)),
        "circulate": lambda: C.Circulate(holder),
        "circulate-random": lambda: C.Circulate(holder, random=count),
        "circulate-named": lambda: C.Circulate(
            holder, cards=pick(held(state, holder), count, salt)
        ),
        "rest": lambda: C.Rest(
            ("10m", "1h", "8h")[who], sleep=(None, True)[salt % 2] if who else None
        ),
        "dawn": lambda: C.Dawn(),
        "steal": lambda: C.Play(name, pick(held(state, ("Bram", "Aria")[who % 2]), 1, salt)),
    }
    return table[kind]()


def zones(state: State) -> Counter:
    counted = Counter(state.deck["_pile"]) + Counter(state.deck["discard"])
    for holder in HOLDERS:
        counted += Counter(held(state, holder))
    return counted


def deck_of(spec: str | None) -> tuple[str, ...]:
    return STANDARD_DECK if spec is None else tuple(spec.split(","))


@given(st.integers(0, 2**32), decks, steps)
def test_every_card_stays_in_exactly_one_zone(seed, deck, history):
    """After any sequence of card commands every card of the deck is in exactly one zone."""
    state, _ = new_state(seed, deck)
    for kind, who, count, salt in history:
        command = command_for(state, kind, who, count, salt)
        before = copy.deepcopy(state)
        try:
            events = decide(state, command)
        except RuleViolation:
            assert before == state
            continue
        for event in events:
            evolve(state, event)
        assert Counter(deck_of(deck)) == zones(state)
        assert len(state.deck["_pile"]) == state.deck["draw_count"]


@given(st.integers(0, 2**32), decks, steps)
def test_undo_then_redecide_is_not_a_reroll(seed, deck, history):
    """Folding a history without its last command and deciding it again gives the same events."""
    state, events = new_state(seed, deck)
    last: tuple[object, list] | None = None
    for kind, who, count, salt in history:
        command = command_for(state, kind, who, count, salt)
        try:
            decided = decide(state, command)
        except RuleViolation:
            continue
        prefix = list(events)
        for event in decided:
            evolve(state, event)
        events += decided
        last = (command, prefix)
    if last is not None:
        command, prefix = last
        replayed, _ = new_state(seed, deck)
        for event in prefix[3:]:
            evolve(replayed, event)
        assert events[len(prefix) :] == decide(replayed, command)
