"""Given / when / then helpers for decider tests (pure: no log, no CLI)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tablelog.commands.core import decide
from tablelog.projections.core import State, evolve
from tablelog.rules.core import RuleViolation


def then(state: State, command: Any) -> tuple[State, list[Any]]:
    """Decide ``command`` on ``state``; return (a copy of the state after its events, the events).

    Evolving the events also checks that they apply (an evolver refuses one that does not).
    """
    events = decide(state, command)
    after = copy.deepcopy(state)
    for event in events:
        evolve(after, event)
    return after, events


def refused(state: State, command: Any, rule_id: str, *words: str) -> str:
    """Assert ``command`` is refused under ``rule_id`` naming ``words``, and changes nothing.

    Returns:
        The refusal's message.
    """
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as err:
        decide(state, command)
    assert rule_id == err.value.rule_id, err.value
    for word in words:
        assert word in err.value.message, err.value.message
    assert before == state
    return err.value.message
