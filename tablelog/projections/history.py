"""Read models built on the fold: the audit trail of one entity, the replay narration, JSON state.

Pure functions over ``(record, event)`` pairs, as :meth:`Session.events` yields them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

import attrs

from tablelog.events.core import MARKERS, Event
from tablelog.projections.core import State, diff, entity_view, evolve, plain_copy
from tablelog.projections.retirement import retired

__all__ = ["Entry", "history", "replay", "narrate", "touching", "state_json", "public"]


@attrs.frozen
class Entry:
    """One step of an audit trail or a replay."""

    seq: int
    at: str | None  # None: a dry run's event, never appended
    actor: str
    event: Event
    changes: list[tuple[str, Any, Any]]
    undone: bool = False

    def to_json(self, words: Any) -> dict[str, Any]:
        """Return the entry as ``history --json`` prints it; ``event`` and ``explain`` in the
        reader's words (``words``: a :class:`tablelog.lang.Words`)."""
        return {
            "seq": self.seq,
            "at": self.at,
            "actor": self.actor,
            "type": self.event.TYPE,
            "event": words.event(self.event),
            "undone": self.undone,
            "changes": [{"field": p, "old": o, "new": n} for p, o, n in self.changes],
            "explain": words.explain(self.event),
        }


def history(
    state: State, pairs: Iterable[tuple[Any, Event]], undone: set[int], name: str
) -> Iterator[Entry]:
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


def replay(
    state: State,
    pairs: Iterable[tuple[Any, Event]],
    undone: set[int],
    state_at: Callable[[int], State],
) -> Iterator[Entry]:
    """Yield every record in order with the values it changed (see :func:`narrate`)."""
    return narrate(state, pairs, undone, state_at)


def narrate(
    state: State,
    pairs: Iterable[tuple[Any, Event]],
    undone: set[int],
    state_at: Callable[[int], State],
) -> Iterator[Entry]:
    """Yield every record in log order with the values it changed when it was appended.

    An event changes what its evolver changes (events undone later are narrated too, marked
    when they are in ``undone``); the undo/redo markers of one command change what taking back
    or restoring the action changed at that moment, shown on its last marker, exactly as the
    ``undo``/``redo`` command printed them. So the state after the entry of seq N is
    ``state --at N``.

    Args:
        state: The initial state (folded into, then replaced at each marker command).
        pairs: ``(record, event)`` in log order (records have ``seq, at, actor, type, cmd``).
        undone: Seqs to mark as undone.
        state_at: Returns the state right after seq N with the markers up to N applied (a fold
            of the log, as ``state --at``).
    """
    markers: list[tuple[Any, Event]] = []
    for rec, event in pairs:
        if markers and _command(rec) != _command(markers[-1][0]):
            state = yield from _markers_done(state, markers, state_at)
        if rec.type in MARKERS:
            markers.append((rec, event))
            continue
        before = plain_copy(entity_view(state))
        evolve(state, event)
        state.seq = rec.seq
        yield Entry(
            rec.seq, rec.at, rec.actor, event, diff(before, entity_view(state)), rec.seq in undone
        )
    if markers:
        yield from _markers_done(state, markers, state_at)


def _command(rec: Any) -> object:
    """Return a record's command key (its command id, or time and actor in a format-1 log)."""
    return rec.cmd if rec.cmd is not None else (rec.at, rec.actor)


def _markers_done(
    state: State, markers: list[tuple[Any, Event]], state_at: Callable[[int], State]
) -> Generator[Entry, None, State]:
    """Yield the entries of one command's markers (its changes on the last); return the state
    after them (``markers`` is emptied)."""
    after = state_at(markers[-1][0].seq)
    changes = diff(entity_view(state), entity_view(after))
    for i, (rec, event) in enumerate(markers):
        yield Entry(rec.seq, rec.at, rec.actor, event, changes if i == len(markers) - 1 else [])
    markers.clear()
    return after


def touching(entries: Iterable[Entry], name: str) -> Iterator[Entry]:
    """Yield the entries that name ``name`` or change it, with only its own changes (paths
    relative to it): ``history NAME --all``."""
    prefixes = (f"characters.{name}.", f"items.{name}.")
    for entry in entries:
        own = [
            (path[len(p) :], old, new)
            for path, old, new in entry.changes
            for p in prefixes
            if path.startswith(p)
        ]
        if own or name in entry.event.entities():
            yield attrs.evolve(entry, changes=own)


def _public(record: dict[str, Any] | None) -> dict[str, Any] | None:
    return public(record) if record is not None else None


def public(record: dict[str, Any]) -> dict[str, Any]:
    """Return a record without its private (``_``-prefixed) keys."""
    return {k: v for k, v in record.items() if not k.startswith("_")}


def state_json(
    state: State,
    to_json: Callable[[State], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Return the JSON state of SPEC (``system, title, seq, clock, characters, items, deck``).

    Retired characters and items are not in ``characters`` or ``items``; once there are some,
    the key ``retired`` lists them: ``{NAME: {kind: "character" | "item", reason}}``.

    Args:
        state: The folded state.
        to_json: The system's own rendering (its declaration's ``to_json``), if it has one.
    """
    if to_json is not None:
        data: dict[str, Any] = to_json(state)
    else:
        data = {
            "system": state.system,
            "title": state.title,
            "seq": state.seq,
            **entity_view(state),
        }
    gone = retired(state)
    if gone:
        data["retired"] = {
            name: {"kind": entry["kind"], "reason": entry["reason"]} for name, entry in gone.items()
        }
    return data
