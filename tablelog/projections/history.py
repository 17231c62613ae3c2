"""Read models built on the fold: the audit trail of one entity, the replay narration, JSON state.

Pure functions over ``(record, event)`` pairs, as :meth:`Session.events` yields them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import Any

import attrs

from tablelog.events.core import MARKERS, Event
from tablelog.projections.core import State, diff, entity_view, evolve

__all__ = ["Entry", "history", "replay", "state_json", "public"]


@attrs.frozen
class Entry:
    """One step of an audit trail or a replay."""

    seq: int
    at: str
    actor: str
    event: Event
    changes: list[tuple[str, Any, Any]]
    undone: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "at": self.at, "actor": self.actor, "type": self.event.TYPE,
            "event": self.event.describe(), "undone": self.undone,
            "changes": [{"field": p, "old": o, "new": n} for p, o, n in self.changes],
            "explain": self.event.explain(),
        }


def history(state: State, pairs: Iterable[tuple[Any, Event]], undone: set[int],
            name: str) -> Iterator[Entry]:
    """Yield every active event that changed ``name``, with each changed field.

    Args:
        state: The initial state (folded into, in place).
        pairs: ``(record, event)`` in log order (records have ``seq``, ``at``, ``actor``, ``type``).
        undone: Seqs to skip.
        name: A character or item name.
    """
    for rec, event in pairs:
        state.seq = rec.seq
        if rec.type in MARKERS or rec.seq in undone:
            continue
        before = copy.deepcopy(_public(state.entity(name)))
        evolve(state, event)
        changes = diff(before, _public(state.entity(name)))
        if changes or name in event.entities():
            yield Entry(rec.seq, rec.at, rec.actor, event, changes)


def replay(state: State, pairs: Iterable[tuple[Any, Event]], undone: set[int]) -> Iterator[Entry]:
    """Yield every event in order with the values it changed (undone events marked, no changes)."""
    for rec, event in pairs:
        state.seq = rec.seq
        if rec.type in MARKERS or rec.seq in undone:
            yield Entry(rec.seq, rec.at, rec.actor, event, [], rec.seq in undone)
            continue
        before = copy.deepcopy(entity_view(state))
        evolve(state, event)
        yield Entry(rec.seq, rec.at, rec.actor, event, diff(before, entity_view(state)))


def _public(record: dict[str, Any] | None) -> dict[str, Any] | None:
    return public(record) if record is not None else None


def public(record: dict[str, Any]) -> dict[str, Any]:
    """Return a record without its private (``_``-prefixed) keys."""
    return {k: v for k, v in record.items() if not k.startswith("_")}


def state_json(state: State, module: ModuleType) -> dict[str, Any]:
    """Return the JSON state of SPEC (``system, title, seq, clock, characters, items, deck``).

    A system module may define ``to_json(state) -> dict`` to render it itself.
    """
    custom = getattr(module, "to_json", None)
    if custom is not None:
        return custom(state)  # type: ignore[no-any-return]
    view = entity_view(state)
    return {"system": state.system, "title": state.title, "seq": state.seq, **view}
