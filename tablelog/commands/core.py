"""Commands and the decide dispatch; the core commands every system shares.

``decide(state, command)`` is pure: it returns the events a command produces, or raises
:class:`RuleViolation` and decides nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from tablelog.events.core import Event, Noted, NotedAbout
from tablelog.projections.core import State
from tablelog.rules.core import RuleViolation, require

__all__ = ["decider", "decide", "AddNote", "Undo", "Redo", "RuleViolation", "require"]

C = TypeVar("C")
Decider = Callable[[State, Any], list[Event]]
_DECIDERS: dict[type, Decider] = {}
_SYSTEMS: dict[type, str] = {}  # the system a command belongs to (core commands: none)


def decider(command_type: type[C]) -> Callable[[Callable[[State, C], list[Event]]],
                                               Callable[[State, C], list[Event]]]:
    """Register the function that decides ``command_type``."""

    def register(fn: Callable[[State, C], list[Event]]) -> Callable[[State, C], list[Event]]:
        _DECIDERS[command_type] = fn
        parts = fn.__module__.split(".")  # tablelog.commands.<system>[.<module>]
        if parts[:2] == ["tablelog", "commands"] and len(parts) > 2 and parts[2] != "core":
            _SYSTEMS[command_type] = parts[2]
        return fn

    return register


def decide(state: State, command: object) -> list[Event]:
    """Return the events ``command`` produces on ``state``.

    Raises:
        RuleViolation: the command is refused (the message names the rule and the values);
            CORE-SYSTEM when it belongs to another system than the log's.
    """
    system = _SYSTEMS.get(type(command))
    if system is not None and system != state.system:
        raise RuleViolation("CORE-SYSTEM", f"a {system} command on a {state.system} log: this "
                            f"session's events are {state.system} events")
    fn = _DECIDERS.get(type(command))
    if fn is None:
        raise RuleViolation("CORE-COMMAND", f"{type(command).__name__} is not a "
                            f"{state.system} command")
    return fn(state, command)


@attrs.frozen
class AddNote:
    """Record a free-text note (a GM ruling, a table decision), tied to ``about`` if given."""

    text: str
    about: tuple[str, ...] = ()


@attrs.frozen
class Undo:
    """Undo the action at ``target`` (None: the latest active action)."""

    target: int | None = None
    reason: str = ""


@attrs.frozen
class Redo:
    """Redo the undone action at ``target`` (None: the most recently undone one)."""

    target: int | None = None


@decider(AddNote)
def decide_add_note(state: State, command: AddNote) -> list[Event]:
    """Decide a note: any non-empty text; a note about characters or items names existing ones.

    Raises:
        RuleViolation: CORE-NOTE for an empty text; UNKNOWN-NAME for an unknown ``about``.
    """
    require(command.text.strip(), "CORE-NOTE", "a note needs some text")
    if not command.about:
        return [Noted(text=command.text)]
    for name in command.about:
        require(state.entity(name) is not None, "UNKNOWN-NAME",
                f"no character or item named {name!r} to tie the note to")
    return [NotedAbout(text=command.text, about=tuple(dict.fromkeys(command.about)))]
