"""Shared decider machinery for fate: a trial state that events are applied to as they are
decided, and character lookups (hits meeting defenses: :mod:`.hits`)."""

from __future__ import annotations

from typing import Literal, overload

import attrs

from tablelog.events.core import Event
from tablelog.projections.core import State, check, evolve
from tablelog.projections.fate.entities import Character, Master, Servant, find
from tablelog.projections.fate.records import next_action_id, no_character
from tablelog.rules.core import RuleViolation
from tablelog.rules.fate import article
from tablelog.text import Msg, Term, msg

__all__ = ["Pending", "who", "costs_over"]


class Pending:
    """Events decided so far, applied to a private copy of the state (decide stays pure).

    With ``action=True`` (a cast or a release) the cast or release event carries an action id,
    the seq it gets in the log (``action``), and every outcome event after it the same id as
    ``cause``: an outcome does not apply without its cast or release, and a refusal names the
    cast or release by its seq. Nothing here assumes how ``undo`` groups events.
    """

    def __init__(self, state: State, action: bool = False) -> None:
        self.state = state.copy()
        self.events: list[Event] = []
        self.tracked = action
        self.action = 0

    def add(self, event: Event) -> None:
        """Check ``event``'s precondition on the trial state, apply it, and keep it.

        Raises:
            RuleViolation: the rule of the event's precondition when it does not hold there.
        """
        if self.tracked:
            names = {field.name for field in attrs.fields(type(event))}  # type: ignore[arg-type]  # Event: a protocol of attrs classes
            if "action" in names:
                self.action = next_action_id(self.state, len(self.events))
                event = attrs.evolve(event, action=self.action)  # type: ignore[misc]  # as above
            elif "cause" in names and self.action:
                event = attrs.evolve(event, cause=self.action)  # type: ignore[misc]
        check(self.state, event)
        evolve(self.state, event)
        self.events.append(event)


@overload
def who(state: State, name: str) -> Character: ...
@overload
def who(state: State, name: str, role: Literal["master"], rule_id: str) -> Master: ...
@overload
def who(state: State, name: str, role: Literal["servant"], rule_id: str) -> Servant: ...
def who(
    state: State, name: str, role: str | None = None, rule_id: str = "UNKNOWN-NAME"
) -> Character:
    """Return character ``name`` (of ``role`` if given: then typed a Master or a Servant).

    Raises:
        RuleViolation: UNKNOWN-NAME for no such character; ``rule_id`` for the wrong role.
    """
    record = find(state, name)
    if record is None:
        raise no_character(name)
    if role is not None and record["role"] != role:
        raise RuleViolation(
            rule_id,
            msg(
                "fate.role.wrong",
                "{name} is {a_role}, not {a_wanted}",
                name=name,
                a_role=article(Term("fate.role", record["role"])),
                a_wanted=article(Term("fate.role", role)),
            ),
        )
    return record


def costs_over(np_id: str, mp: int, owner: str, has: int) -> Msg:
    """Return ``excalibur costs 35 MP, Saber has 20`` (FATE-NP-5)."""
    return msg(
        "fate.np.costs_over",
        "{np_id} costs {mp} MP, {owner} has {has}",
        np_id=np_id,
        mp=mp,
        owner=owner,
        has=has,
    )
