"""The rule systems tablelog knows, and lazy loading of their modules.

A system is plugged in by creating its modules in each layer (docs/ARCHITECTURE.md); importing
its projection and command modules registers its evolvers and deciders.
"""

from __future__ import annotations

import importlib
from types import ModuleType

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
