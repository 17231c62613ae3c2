"""The registry of rule systems: one line per system, naming the module that declares it.

A system is its own modules in each layer plus a declaration module that gathers them into one
:class:`~tablelog.systems.declaration.System` (docs/NEW-SYSTEM.md). The core
reads systems only through :func:`get`; declarations are imported when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import attrs

from tablelog.commands.core import (
    CORE_COMMANDS,
    SetTableOption,
    decide_with,
    deciders,
    not_a_command,
)
from tablelog.rules.core import RuleViolation
from tablelog.text import msg

if TYPE_CHECKING:
    from tablelog.events.core import Event
    from tablelog.projections.core import State
    from tablelog.systems.declaration import System

__all__ = [
    "REGISTRY",
    "SystemUnavailable",
    "names",
    "get",
    "register",
    "check_options",
    "decide",
    "initial_state",
    "acting_field",
    "given_fields",
]

REGISTRY: dict[str, str] = {
    "fate": "tablelog.systems.fate",
    "magicpunk": "tablelog.systems.magicpunk",
    "pf2e": "tablelog.systems.pf2e",
    "saga": "tablelog.systems.saga",
}

_LOADED: dict[str, System] = {}


class SystemUnavailable(Exception):
    """The log names a system this installation does not have."""


def names() -> list[str]:
    """Return the ids of every system: the registry's and those registered at run time."""
    return sorted({*REGISTRY, *_LOADED})


def register(system: System) -> None:
    """Make ``system`` known without a registry line (a test's system, a plug-in)."""
    _load_texts(system)
    _LOADED[system.name] = system


def _load_texts(system: System) -> None:
    """Import the module of the system's event texts (its declaration's ``texts``): the faces
    describe its events from then on."""
    if system.texts:
        importlib.import_module(system.texts)


def get(name: str) -> System:
    """Return the declaration of system ``name`` (importing its modules on first use).

    Raises:
        SystemUnavailable: unknown system, or its modules are missing.
    """
    found = _LOADED.get(name)
    if found is not None:
        return found
    if name not in REGISTRY:
        raise SystemUnavailable(f"unknown system {name!r} (known: {', '.join(names())})")
    try:
        declared: System = importlib.import_module(REGISTRY[name]).SYSTEM
    except ModuleNotFoundError as exc:
        raise SystemUnavailable(f"system {name!r} is not available ({exc.name})") from None
    _load_texts(declared)
    _LOADED[name] = declared
    return declared


def initial_state(
    system: str,
    title: str = "",
    session_id: str = "",
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> State:
    """Return the state before any event of a ``system`` session with this header's fields.

    Raises:
        SystemUnavailable: unknown system.
        RuleViolation, ValueError: the system refuses an option (a malformed clock …).
    """
    from tablelog.projections.core import State

    declared = get(system)
    state = State(system=system, title=title, session_id=session_id, seed=seed)
    declared.init_state(state, dict(options or {}))
    return state


def check_options(system: str, options: dict[str, Any]) -> None:
    """Check a log header's ``init`` options for ``system`` fully, as a log is opened.

    The system's own ``check_options`` runs when it declares one; without one, every option
    must be one the system takes (its ``options``) and a string, as ``init`` writes them. Then
    the system's ``init_state`` must accept them (a malformed clock, a deck that repeats a card …).

    Raises:
        ValueError: naming the option and why (the caller reports the log as unusable).
    """
    from tablelog.systems.declaration import string_options

    declared = get(system)
    try:
        if declared.check_options is not None:
            declared.check_options(options)
        else:
            string_options(system, declared.option_names, options)
        initial_state(system, options=options)
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 - a RuleViolation, or init_state choking
        raise ValueError(str(exc)) from None


def decide(state: State, command: object) -> list[Event]:
    """Return the events ``command`` produces on ``state``: a core command, or one of the
    log's system.

    Raises:
        RuleViolation: the decider's refusal (CORE-RETIRED for a retired name: see
            :func:`tablelog.commands.core.decide_with`); CORE-SYSTEM for another system's
            command; CORE-COMMAND for a command no system decides.
    """
    kind = type(command)
    if isinstance(command, SetTableOption):  # the options of this table's system
        command = attrs.evolve(command, offered=get(state.system).table_options)
    fn = get(state.system).handlers.deciders.get(kind)
    if fn is None and kind in CORE_COMMANDS:
        fn = deciders().get(kind)
    if fn is not None:
        return decide_with(fn, state, command)
    for other in names():
        try:
            owned = kind in get(other).handlers.deciders
        except SystemUnavailable:
            continue
        if owned:
            raise RuleViolation(
                "CORE-SYSTEM",
                msg(
                    "core.system.other",
                    "a {other} command on a {system} log: this session's events are {system} "
                    "events",
                    other=other,
                    system=state.system,
                ),
            )
    raise RuleViolation("CORE-COMMAND", not_a_command(kind, state.system))


def acting_field(command_type: type) -> str | None:
    """Return the field of a command that names the character it acts for (its system's
    ``acts_for``), or None: a command only the GM issues (SERVER.md §3)."""
    for name in names():
        try:
            field = get(name).acts_for.get(command_type)
        except SystemUnavailable:
            continue
        if field is not None:
            return field
    return None


def given_fields(system: str, command: object) -> list[tuple[str, str]]:
    """Return the ``(field, table option)`` pairs of ``command`` that report a given outcome
    (physical cards, dice, a random factor) and are filled in (CORE-GIVEN)."""
    pairs = get(system).given.get(type(command), ())
    return [(field, option) for field, option in pairs if getattr(command, field) is not None]
