"""Actions: the events one command appended, as undo and redo see them.

A command may append several events (a fate release and the damage it deals; a magicpunk rest and
its circulations). The session stamps every record of one command with the same ``at`` and makes
``at`` strictly increase from one command to the next, so an *action* is a run of contiguous
records with equal ``at`` and ``actor`` (docs/FORMAT.md). Undo and redo take back or restore a
whole action: one marker per event, appended together.

These functions are pure: they read ``(seq, at, actor, is_marker)`` summaries of the records in log
order, and the undo/redo markers, in O(1) memory beyond what they return.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from tablelog.events.core import Undone
from tablelog.projections.core import undone_after
from tablelog.rules.core import RuleViolation

__all__ = ["Summary", "Action", "action_of", "command_end", "latest_active", "latest_undone"]

Summary = tuple[int, str, str, bool]  # (seq, at, actor, is_marker)


@attrs.frozen
class Action:
    """The seqs of one command's events (contiguous, first to last)."""

    first: int
    last: int

    @property
    def seqs(self) -> range:
        return range(self.first, self.last + 1)


def _groups(summaries: Iterable[Summary]) -> Iterable[tuple[Action, bool]]:
    """Yield every action with whether it is made of undo/redo markers."""
    start: Summary | None = None
    prev: Summary | None = None
    for row in summaries:
        if (
            start is not None
            and prev is not None
            and (row[1], row[2], row[3]) != (start[1], start[2], start[3])
        ):
            yield Action(start[0], prev[0]), start[3]
            start = row
        elif start is None:
            start = row
        prev = row
    if start is not None and prev is not None:
        yield Action(start[0], prev[0]), start[3]


def action_of(summaries: Iterable[Summary], seq: int) -> Action:
    """Return the action that event ``seq`` belongs to.

    Raises:
        RuleViolation: CORE-UNDO if there is no such event or it is an undo/redo marker.
    """
    last = 0
    for action, is_marker in _groups(summaries):
        last = action.last
        if action.first <= seq <= action.last:
            if is_marker:
                raise RuleViolation(
                    "CORE-UNDO",
                    f"#{seq} is an undo/redo marker; use redo or undo on the action itself",
                )
            return action
    raise RuleViolation("CORE-UNDO", f"there is no event #{seq} (the log ends at #{last})")


def command_end(summaries: Iterable[Summary], seq: int) -> int:
    """Return the last seq of the command that appended event ``seq`` (``seq`` if none does).

    The events of one command are appended together, so the state "right after ``seq``" is the
    state after its whole command: a position inside an action or a multi-event undo is rounded
    up to its end.
    """
    for action, _ in _groups(summaries):
        if action.first <= seq <= action.last:
            return action.last
    return seq


def latest_active(summaries: Iterable[Summary], markers: list[tuple[int, str, int]]) -> Action:
    """Return the action taken most recently that is still in effect (a redo counts as taken).

    Raises:
        RuleViolation: CORE-UNDO when no action is in effect.
    """
    undone = undone_after(markers)
    redone_at: dict[int, int] = {}
    for seq, kind, target in markers:
        if kind != Undone.TYPE:
            redone_at[target] = seq
    best: tuple[int, Action] | None = None
    for action, is_marker in _groups(summaries):
        if is_marker or any(s in undone for s in action.seqs):
            continue
        taken = max([action.last, *(redone_at.get(s, 0) for s in action.seqs)])
        if best is None or taken > best[0]:
            best = (taken, action)
    if best is None:
        raise RuleViolation("CORE-UNDO", "nothing to undo: no action is in effect")
    return best[1]


def latest_undone(markers: list[tuple[int, str, int]]) -> int:
    """Return an event of the action undone most recently and not redone since.

    Raises:
        RuleViolation: CORE-REDO when nothing is undone.
    """
    undone = undone_after(markers)
    for _, kind, target in reversed(markers):
        if kind == Undone.TYPE and target in undone:
            return target
    raise RuleViolation("CORE-REDO", "nothing to redo: no action is undone")
