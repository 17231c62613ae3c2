"""The rule systems tablelog knows, and lazy loading of their modules.

A system is plugged in by creating its modules in each layer (docs/ARCHITECTURE.md); importing
its projection and command modules registers its evolvers and deciders.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

SYSTEMS: dict[str, str] = {
    "fate": "fan-made Fate TRPG: code casts, chants, Noble Phantasms",
    "magicpunk": "Magic Punk TRPG optional rules: mana cards, rests, rebuild",
    "pf2e": "Pathfinder 2e runes: etch, transfer, invest",
    "saga": "SaGa Emerald Beyond battle damage",
}

# The `init` options each system takes (anything else is a usage error).
SYSTEM_OPTIONS: dict[str, tuple[str, ...]] = {"magicpunk": ("clock", "deck", "rules")}


class SystemUnavailable(Exception):
    """The log names a system this installation does not have."""


def load(system: str) -> ModuleType:
    """Import a system's events, projections and commands; return its projection module.

    Raises:
        SystemUnavailable: unknown system, or its modules are missing.
    """
    if system not in SYSTEMS:
        raise SystemUnavailable(f"unknown system {system!r} (known: {', '.join(SYSTEMS)})")
    try:
        projection = importlib.import_module(f"tablelog.projections.{system}")
        importlib.import_module(f"tablelog.commands.{system}")
    except ModuleNotFoundError as exc:
        raise SystemUnavailable(f"system {system!r} is not available ({exc.name})") from None
    return projection


def check_options(system: str, options: dict[str, Any]) -> None:
    """Check a log header's ``init`` options for ``system`` fully, as a log is opened.

    The system's projection module may define ``check_options(options)`` (raising ValueError or
    RuleViolation); without one, every option must be one the system takes
    (:data:`SYSTEM_OPTIONS`) and a string, as ``init`` writes them. Then the system's
    ``init_state`` must accept them (a malformed clock, a deck that repeats a card …).

    Raises:
        ValueError: naming the option and why (the caller reports the log as unusable).
    """
    module = load(system)
    own = getattr(module, "check_options", None)
    try:
        if own is not None:
            own(options)
        for key, value in options.items():
            if own is None and key not in SYSTEM_OPTIONS.get(system, ()):
                raise ValueError(f"{system} sessions take no option {key!r}")
            if own is None and type(value) is not str:
                raise ValueError(f"option {key} is not a string: {value!r}")
        from tablelog.projections.core import State

        module.init_state(State(system=system), dict(options))
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 - a RuleViolation, or init_state choking
        raise ValueError(str(exc)) from None
