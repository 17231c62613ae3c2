"""Actions: the events one command appended, as undo and redo see them, and the undo decider.

A command may append several events (a fate release and the damage it deals; a magicpunk rest and
its circulations). Every record carries its command's id (``cmd``: the seq of the command's first
record, docs/FORMAT.md), so an *action* is the run of records with one command id. Records of a log
written before command ids carry none: there an action is a run of contiguous records with equal
``at`` and ``actor`` (the rule of format 1). Undo and redo take back or restore a whole action: one
marker per event, appended together.

The functions here are pure: they read ``(seq, key, actor, kind, target)`` summaries of the
records in log order and the undo/redo markers that still matter (:class:`Markers`: the latest of
each target), in O(1) memory beyond what they return and those markers. Memory is proportional to
the events ever undone, never to the number of markers (issue 13, item 8).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from tablelog.commands.core import Redo, Undo
from tablelog.events.core import (
    MARKERS,
    SEAT_TYPES,
    Event,
    KeyAdded,
    Redone,
    SeatAdded,
    SeatRevoked,
    Undone,
)
from tablelog.projections.core import State, undone_after
from tablelog.rules.core import RuleViolation, check_text
from tablelog.text import Listed, Msg, Secret, msg

__all__ = [
    "Summary",
    "Action",
    "Marker",
    "Markers",
    "action_of",
    "command_end",
    "latest_active",
    "latest_undone",
    "decide_undo",
    "decide_redo",
    "summary",
    "Past",
    "decide_marker",
    "marked_action",
    "refuse_seat",
]

Summary = tuple[int, object, str, str, int]
"""``(seq, command key, actor, kind, target)``: the key is the record's command id, or ``(at,
actor)`` in a log written before command ids; ``kind`` is the record's type tag; ``target`` is
the seq a marker targets, 0 for an event."""
Marker = tuple[int, str, int]
"""``(marker seq, "core.Undone" | "core.Redone", target seq)``."""
Refold = Callable[[set[int], int], "tuple[State, list[tuple[int, Event, RuleViolation]]]"]
"""``refold(undone, first)``: the state folded with ``undone`` skipped, checking the
precondition of every event from ``first`` on; returns the state and the events that fail."""


def summary(
    seq: int, cmd: int | None, at: str, actor: str, kind: str, target: object = 0
) -> Summary:
    """Return the summary of one record (``kind``: its type tag; ``target``: a marker's, as its
    data holds it: anything but a seq counts as none)."""
    mark = target if type(target) is int and kind in MARKERS else 0
    return (seq, cmd if cmd is not None else (at, actor), actor, kind, mark)


class Markers:
    """The undo/redo markers that decide what is undone and redone: the latest of each target.

    A target's earlier markers change nothing once a later one is met (undo, redo, undo … of
    one event leave it as the last one says), so this keeps one entry per target ever marked:
    memory proportional to the events undone, not to the markers (300,000 markers once took
    542 MB for ``undo``: issue 13, item 8). Iterating yields ``(marker seq, kind, target)``
    ordered by marker seq, as :func:`tablelog.projections.core.undone_after` reads markers.

    Args:
        markers: ``(seq, kind, target)`` in log order (a checkpoint's, or none).
    """

    __slots__ = ("_latest", "last")

    def __init__(self, markers: Iterable[Marker] = ()) -> None:
        self._latest: dict[int, int] = {}  # target -> its latest marker's seq, negated: a redo
        self.last = 0  # the seq of the latest marker met (0: none): CORE-RANDOM's key
        if type(markers) is Markers:  # a copy: one dict copy, not a loop
            self._latest = markers._latest.copy()
            self.last = markers.last
            return
        for seq, kind, target in markers:
            self.add(seq, kind, target)

    def copy(self) -> Markers:
        """Return a copy (a checkpoint's markers: taking one costs a dict copy, a few
        milliseconds per 100,000 targets, where a tuple of them took ten times that)."""
        return Markers(self)

    def __eq__(self, other: object) -> bool:
        """Markers equal any iterable of the same markers in the same order."""
        if not isinstance(other, Markers | tuple | list):
            return NotImplemented
        return list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def add(self, seq: int, kind: str, target: int) -> None:
        """Meet marker ``seq`` (of type tag ``kind``), which targets ``target``."""
        self._latest.pop(target, None)
        self._latest[target] = -seq if kind == Redone.TYPE else seq
        self.last = max(self.last, seq)

    def __iter__(self) -> Iterator[Marker]:
        for target, seq in self._latest.items():
            yield (-seq, Redone.TYPE, target) if seq < 0 else (seq, Undone.TYPE, target)

    def __len__(self) -> int:
        return len(self._latest)


@attrs.frozen
class Action:
    """The seqs of one command's events (contiguous, first to last), who took it, and what it
    is: ``kind`` is ``""`` for an action of events, else the type tag of its markers; ``types``
    are the type tags of its records."""

    first: int
    last: int
    actor: str = ""
    kind: str = ""
    types: frozenset[str] = frozenset()

    @property
    def seqs(self) -> range:
        return range(self.first, self.last + 1)


def _action_key(row: Summary) -> tuple[object, str]:
    """Return what the records of one action share: the command key, and the marker type (an
    action is all events or all markers of one type)."""
    return row[1], row[3] if row[3] in MARKERS else ""


def _groups(summaries: Iterable[Summary]) -> Iterator[Action]:
    """Yield every action (events, or undo/redo markers) in log order."""
    for (_, kind), rows in itertools.groupby(summaries, _action_key):
        first = next(rows)
        last, types = first[0], {first[3]}
        for row in rows:  # noqa: B031 - one pass: next() took the first row, this the rest
            last = row[0]
            types.add(row[3])
        yield Action(first[0], last, first[2], kind, frozenset(types))


def action_of(summaries: Iterable[Summary], seq: int) -> Action:
    """Return the action that event ``seq`` belongs to.

    Raises:
        RuleViolation: CORE-SEQ if the log has no event ``seq``; CORE-UNDO if it is an undo/redo
            marker.
    """
    last = 0
    for action in _groups(summaries):
        last = action.last
        if action.first <= seq <= action.last:
            if action.kind:
                raise RuleViolation(
                    "CORE-UNDO",
                    msg(
                        "core.undo.marker",
                        "#{seq} is an undo/redo marker; use redo or undo on the action itself",
                        seq=seq,
                    ),
                )
            return action
    raise RuleViolation("CORE-SEQ", no_event(seq, last))


def command_end(summaries: Iterable[Summary], seq: int) -> int:
    """Return the last seq of the command that appended event ``seq`` (``seq`` if none does).

    The events of one command are appended together, so the state "right after ``seq``" is the
    state after its whole command: a position inside an action or a multi-event undo is rounded
    up to its end.
    """
    for action in _groups(summaries):
        if action.first <= seq <= action.last:
            return action.last
    return seq


CREDENTIALS = SEAT_TYPES - {SeatAdded.TYPE, SeatRevoked.TYPE}
"""The records that change a seat's link, token or sessions (a browser opening the page): no
action one takes back, so a bare undo or redo passes over them."""


def latest_active(
    summaries: Iterable[Summary], markers: Iterable[Marker], actor: str | None = None
) -> Action:
    """Return the action taken most recently (by ``actor``, if given) that is still in effect;
    a redo counts as taking it again.

    Raises:
        RuleViolation: CORE-UNDO when no such action is in effect.
    """
    undone = undone_after(markers)
    redone_at: dict[int, int] = {}
    for seq, kind, target in markers:
        if kind != Undone.TYPE:
            redone_at[target] = seq
    best: tuple[int, Action] | None = None
    for action in _groups(summaries):
        if (
            action.kind
            or action.types <= CREDENTIALS
            or (actor is not None and action.actor != actor)
            or any(s in undone for s in action.seqs)
        ):
            continue
        taken = max(itertools.chain([action.last], (redone_at.get(s, 0) for s in action.seqs)))
        if best is None or taken > best[0]:
            best = (taken, action)
    if best is None:
        if actor is None:
            raise RuleViolation(
                "CORE-UNDO", msg("core.undo.nothing", "nothing to undo: no action is in effect")
            )
        raise RuleViolation(
            "CORE-UNDO",
            msg(
                "core.undo.nothing_of",
                "nothing to undo: no action of {actor} is in effect",
                actor=actor,
            ),
        )
    return best[1]


def latest_undone(summaries: Iterable[Summary], markers: Iterable[Marker], actor: str) -> int:
    """Return an event of the action that ``actor`` undid most recently and nobody has redone,
    unless ``actor`` has taken a new action since (then there is nothing to redo; name it).

    Reads the summaries once, keeping only the latest such undo and the actor's latest action.

    Raises:
        RuleViolation: CORE-REDO when there is nothing to redo for ``actor``.
    """
    undone = undone_after(markers)
    found: int | None = None  # a target of the actor's latest undo that is still undone
    newer: int | None = None  # the first seq of the actor's latest action of events after it
    for (_, kind), rows in itertools.groupby(summaries, _action_key):
        first = next(rows)
        if first[2] != actor or kind == Redone.TYPE:
            continue
        if not kind:
            if first[3] not in CREDENTIALS:
                newer = first[0]
            continue
        still = next((row[4] for row in itertools.chain([first], rows) if row[4] in undone), None)
        if still is not None:
            found, newer = still, None
    if found is not None and newer is None:
        return found
    if found is not None:
        raise RuleViolation(
            "CORE-REDO",
            msg(
                "core.redo.acted_since",
                "nothing to redo: {actor} has taken a new action (#{newer}) since undoing; "
                "name it: redo SEQ",
                actor=actor,
                newer=newer,
            ),
        )
    raise RuleViolation(
        "CORE-REDO",
        msg(
            "core.redo.nothing",
            "nothing to redo: {actor} has undone nothing that is still undone",
            actor=actor,
        ),
    )


def decide_undo(
    action: Action, markers: Iterable[Marker], reason: str, refold: Refold
) -> tuple[list[Event], State]:
    """Decide the undo of ``action``: one ``core.Undone`` per event still in effect.

    Args:
        action: The action to take back (see :func:`action_of`, :func:`latest_active`).
        markers: The log's undo/redo markers, in order (the latest of each target suffices).
        reason: Free text kept in each marker.
        refold: Folds the history without the undone events (see :data:`Refold`).

    Returns:
        The markers, and the state once they are applied.

    Raises:
        RuleViolation: CORE-KEY when the action adds a signing key (an undo never takes a key
            out of the roster); CORE-SEAT when it adds or revokes a seat (see
            :func:`refuse_seat`); CORE-UNDO when the action is already undone, or when a later
            action depends on it (each listed with the rule it would break).

    Source: CORE-KEY (decision), CORE-SEAT (decision), CORE-UNDO.
    """
    refuse_seat(action, "undo")
    if KeyAdded.TYPE in action.types:
        raise RuleViolation(
            "CORE-KEY",
            msg(
                "core.undo.key",
                "#{seq} adds a key to the log's roster of signing keys, which an undo never "
                "takes out: replace a key by adding a new one for its actor (tablelog key add)",
                seq=action.first,
            ),
        )
    undone = undone_after(markers)
    seqs = [s for s in action.seqs if s not in undone]
    if not seqs:
        raise RuleViolation(
            "CORE-UNDO", msg("core.undo.already", "#{seq} is already undone", seq=action.first)
        )
    state = _decide_refold(refold, undone | set(seqs), seqs, "CORE-UNDO", "undone")
    return [Undone(target=s, reason=reason) for s in seqs], state


def decide_redo(
    action: Action, markers: Iterable[Marker], target: int, refold: Refold
) -> tuple[list[Event], State]:
    """Decide the redo of ``action``: one ``core.Redone`` per undone event of it.

    Returns:
        The markers, and the state once they are applied.

    Raises:
        RuleViolation: CORE-SEAT when the action adds or revokes a seat (see
            :func:`refuse_seat`); CORE-REDO when ``target`` is not undone, or when the action, or
            an action after it, would not hold once it is restored (each listed with its rule).
    """
    refuse_seat(action, "redo")
    undone = undone_after(markers)
    if target not in undone:
        raise RuleViolation(
            "CORE-REDO", msg("core.redo.not_undone", "#{seq} is not undone", seq=target)
        )
    seqs = [s for s in action.seqs if s in undone]
    state = _decide_refold(refold, undone - set(seqs), seqs, "CORE-REDO", "redone")
    return [Redone(target=s) for s in seqs], state


def refuse_seat(action: Action, verb: str) -> None:
    """Refuse to undo or redo an action that adds or revokes a seat of a served table: one
    misclick would lock the GM out or kill a player's token unannounced.

    Args:
        action: The action to take back or restore.
        verb: ``"undo"`` or ``"redo"``.

    Raises:
        RuleViolation: CORE-SEAT naming the record and what to do instead.

    Source: CORE-SEAT (decision).
    """
    for kind in (SeatAdded.TYPE, SeatRevoked.TYPE):
        if kind in action.types:
            raise RuleViolation("CORE-SEAT", _SEAT_MARKERS[(kind, verb)](action.first))
    if SEAT_TYPES & set(action.types):
        told = (
            msg(
                "core.seat.no_undo_credentials",
                "#{seq} changes a seat's link, token or browser sessions, which an undo never "
                "takes back: the GM rotates the seat's link (POST /api/tables/ID/seats/NAME)",
                seq=action.first,
            )
            if verb == "undo"
            else msg(
                "core.seat.no_redo_credentials",
                "#{seq} changes a seat's link, token or browser sessions, which a redo never "
                "restores: the GM rotates the seat's link (POST /api/tables/ID/seats/NAME)",
                seq=action.first,
            )
        )
        raise RuleViolation("CORE-SEAT", told)


@attrs.frozen
class Past:
    """What the undo decider reads of a log: who is logging, every undo/redo marker in order,
    the record summaries (``summaries(near)``: from a checkpoint before seq ``near``, or the
    whole log for None) and the refold (see :data:`Refold`)."""

    actor: str
    markers: Iterable[Marker]
    summaries: Callable[[int | None], Iterable[Summary]]
    refold: Refold


def decide_marker(state: State, command: Undo | Redo, past: Past) -> tuple[list[Event], State]:
    """Decide undo or redo of a whole action.

    A bare ``undo`` takes back the latest action of ``past.actor``; a bare ``redo`` restores
    what this actor undid most recently, unless the actor has acted since.

    Returns:
        The markers, and the state once they are applied.

    Raises:
        RuleViolation: CORE-SEQ for a seq past the log's end; CORE-UNDO / CORE-REDO (see
            :func:`decide_undo`, :func:`decide_redo`).
    """
    if command.target is not None and not 0 < command.target <= state.seq:
        raise RuleViolation("CORE-SEQ", no_event(command.target, state.seq))
    if isinstance(command, Undo):
        check_text(command.reason, "the reason")  # CORE-TEXT: shown to every player by `log`
    action, target = marked_action(state, command, past)
    if isinstance(command, Undo):
        return decide_undo(action, past.markers, command.reason, past.refold)
    return decide_redo(action, past.markers, target, past.refold)


def marked_action(state: State, command: Undo | Redo, past: Past) -> tuple[Action, int]:
    """Return the action an undo or redo takes back or restores, and the seq it names (a bare
    one's: the action's first undone event for a redo, its first event for an undo).

    Raises:
        RuleViolation: CORE-SEQ for a seq past the log's end; CORE-UNDO / CORE-REDO when there
            is no such action (see :func:`latest_active`, :func:`latest_undone`).
    """
    if command.target is not None and not 0 < command.target <= state.seq:
        raise RuleViolation("CORE-SEQ", no_event(command.target, state.seq))
    if isinstance(command, Undo):
        if command.target is None:
            action = _latest_active_near(past, state.seq)
        else:
            action = action_of(past.summaries(command.target), command.target)
        return action, action.first if command.target is None else command.target
    if command.target is None:
        target = latest_undone(past.summaries(None), past.markers, past.actor)
    else:
        target = command.target
    try:
        action = action_of(past.summaries(target), target)
    except RuleViolation as exc:
        raise RuleViolation(
            "CORE-REDO" if exc.rule_id == "CORE-UNDO" else exc.rule_id, exc.msg
        ) from None
    return action, target


def _latest_active_near(past: Past, last: int) -> Action:
    """Find the actor's latest action in effect near the end of the log, else in the whole
    log."""
    redone = [target for _, kind, target in past.markers if kind == Redone.TYPE]
    try:
        return latest_active(past.summaries(min([last, *redone])), past.markers, past.actor)
    except RuleViolation:
        return latest_active(past.summaries(None), past.markers, past.actor)


def _decide_refold(
    refold: Refold, undone: set[int], seqs: list[int], rule: str, verb: str
) -> State:
    """Refold without ``undone``; refuse naming the events that would not hold: the action's
    own (``seqs``, a redo whose event no longer holds) apart from the later ones."""
    state, failed = refold(undone, seqs[0])
    if failed:
        own = [f for f in failed if f[0] in seqs]
        later = [f for f in failed if f[0] not in seqs]
        parts = [
            msg(
                "core.refold.part",
                "{what}: {events}",
                what=what,
                events=Listed(
                    tuple(_told(state.system, seq, e, exc) for seq, e, exc in found), "semicolon"
                ),
            )
            for what, found in (
                (msg("core.refold.own", "it no longer holds"), own),
                (msg("core.refold.later", "later events depend on it"), later),
            )
            if found
        ]
        made = msg(
            "core.refold.refused",
            "#{seq} cannot be {verb}: {parts}",
            seq=seqs[0],
            verb=msg("core.undone_verb", "undone")
            if verb == "undone"
            else msg("core.redone_verb", "redone"),
            parts=Listed(tuple(parts), "semicolon"),
        )
        raise RuleViolation(rule, made)
    return state


def _told(system: str, seq: int, event: Event, exc: RuleViolation) -> Msg:
    """Return ``#SEQ TYPE (RULE-ID: reason)``, why ``event`` no longer holds, as the seats may
    read it (SERVER.md §3): the whole reason is a secret when the event's record is hidden from
    seats that do not own it (a draw or a charge: its cards), seen by its owner's seats; the
    reason's own secrets (where a card is now, an enemy's HP) stay in it, each seen by whom it
    names. The owner of a public play reads the card she played, and only its place blurred."""
    from tablelog import systems

    reason: Any = msg("core.refold.reason", "{rule}: {message}", rule=exc.rule_id, message=exc.msg)
    owner = systems.get(system).hidden.owner_events.get(event.TYPE)
    if owner is not None:
        seen_by = getattr(event, owner[0], None)
        blurred = msg("core.refold.hidden", "{rule}: what it names is hidden", rule=exc.rule_id)
        reason = Secret(reason, seen_by if isinstance(seen_by, str) else None, blurred)
    return msg(
        "core.refold.event", "#{seq} {type} ({reason})", seq=seq, type=event.TYPE, reason=reason
    )


def no_event(seq: int, last: int) -> Msg:
    """Return ``there is no event #SEQ (the log ends at #LAST)`` (CORE-SEQ)."""
    return msg(
        "core.seq.none", "there is no event #{seq} (the log ends at #{last})", seq=seq, last=last
    )


_SEAT_MARKERS = {
    (SeatAdded.TYPE, "undo"): lambda seq: msg(
        "core.seat.no_undo_add",
        "#{seq} adds a seat of the table, which an undo never takes back: seats are revoked "
        "(DELETE /api/tables/ID/seats/NAME) and added again with a new token "
        "(POST /api/tables/ID/seats), not undone",
        seq=seq,
    ),
    (SeatRevoked.TYPE, "undo"): lambda seq: msg(
        "core.seat.no_undo_revoke",
        "#{seq} revokes a seat of the table, which an undo never takes back: seats are revoked "
        "(DELETE /api/tables/ID/seats/NAME) and added again with a new token "
        "(POST /api/tables/ID/seats), not undone",
        seq=seq,
    ),
    (SeatAdded.TYPE, "redo"): lambda seq: msg(
        "core.seat.no_redo_add",
        "#{seq} adds a seat of the table, which a redo never restores: seats are revoked "
        "(DELETE /api/tables/ID/seats/NAME) and added again with a new token "
        "(POST /api/tables/ID/seats), not redone",
        seq=seq,
    ),
    (SeatRevoked.TYPE, "redo"): lambda seq: msg(
        "core.seat.no_redo_revoke",
        "#{seq} revokes a seat of the table, which a redo never restores: seats are revoked "
        "(DELETE /api/tables/ID/seats/NAME) and added again with a new token "
        "(POST /api/tables/ID/seats), not redone",
        seq=seq,
    ),
}
"""CORE-SEAT's refusal of an undo or redo of a seat's record, by record type and verb."""
