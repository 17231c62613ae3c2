"""Retired characters and items (``retire NAME``, CORE-RETIRED): the evolver and precondition
of ``core.Retired``, and what the rest of the tree asks about them.

A retired record leaves ``characters`` or ``items`` for ``state.extra["retired"]`` (private to
the core, as seats and keys are); :func:`tablelog.projections.core.check` refuses any event that
names one, so later commands, undo and redo all respect a retire.
"""

from __future__ import annotations

from typing import Any

from tablelog.events.core import Retired
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.rules.core import Unknown
from tablelog.text import msg

__all__ = ["retired"]


@precondition(Retired)
def _can_retire(state: State, e: Retired) -> None:
    require(
        state.entity(e.name) is not None,
        "UNKNOWN-NAME",
        msg("core.retire.unknown", "no character or item named {name!r} to retire", name=e.name),
        Unknown("name", e.name),
    )


@evolver(Retired)
def _retired(state: State, e: Retired) -> None:
    """The record leaves ``characters`` or ``items`` for ``extra["retired"]`` (private):
    ``state --json`` lists the name under ``retired``; an undo folds without it. A retired item
    also leaves its owner's ``items`` list (magicpunk keeps one)."""
    for kind, section in (("character", state.characters), ("item", state.items)):
        record = section.pop(e.name, None)
        if record is not None:
            state.extra.setdefault("retired", {})[e.name] = {
                "kind": kind,
                "reason": e.reason,
                "record": record,
            }
            if kind == "item":
                _leave_owner(state, e.name, record.get("owner"))
            return


def _leave_owner(state: State, item: str, owner: Any) -> None:
    """Take ``item`` out of its owner's ``items`` list, when the owner has one (total: a
    missing owner or list is skipped)."""
    record = state.characters.get(owner) if isinstance(owner, str) else None
    held = record.get("items") if record is not None else None
    if isinstance(held, list) and item in held:
        record["items"] = [name for name in held if name != item]  # type: ignore[index]


def retired(state: State) -> dict[str, dict[str, Any]]:
    """Return the retired characters and items: name -> ``{kind, reason, record}`` (``kind``
    is ``"character"`` or ``"item"``; ``record`` as it was when retired)."""
    found: dict[str, dict[str, Any]] = state.extra.get("retired", {})
    return found
