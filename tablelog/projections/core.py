"""The session state, the evolve dispatch, preconditions and the fold (pure: no I/O).

``evolve(state, event)`` applies one event in place. An evolver applies the facts the event
records and is *total*: it never raises, never re-checks a rule and never reads a catalogue or a
rule table, so a log opens whatever errata change later (docs/NEW-SYSTEM.md).

``check(state, event)`` runs the event's *precondition*, if its system registered one: the facts
of the state the event was decided on that it depends on (the character exists, holds the item,
the card is in the hand …), read from the state and the event alone. The undo decider uses them to
find the later actions that depend on an undone one; ``verify`` to report events that do not hold;
the session to check what a decider returned. The replay never runs them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import attrs

from tablelog.events.core import (
    DiceRolled,
    Event,
    KeyAdded,
    Noted,
    NotedAbout,
    Said,
    SeatAdded,
    SeatRevoked,
    SeatRotated,
    SeatSessionOpened,
    TableOptionSet,
)
from tablelog.rules.core import RuleViolation, rekeyed_seed, require
from tablelog.text import Msg, Term, msg

__all__ = [
    "State",
    "evolver",
    "evolvers",
    "evolve",
    "precondition",
    "preconditions",
    "check",
    "fold",
    "fold_collecting",
    "undone_after",
    "diff",
    "plain_copy",
    "entity_view",
    "require",
    "RuleViolation",
    "seats",
    "seat_names_used",
    "roster",
    "MAX_SESSIONS",
    "random_seed",
    "table_allows",
]

E = TypeVar("E", bound=Event)
Evolver = Callable[[Any, Any], None]
Precondition = Callable[[Any, Any], None]
_EVOLVERS: dict[type, Evolver] = {}
_PRECONDITIONS: dict[type, Precondition] = {}


@attrs.define
class State:
    """The state of one session: what ``state --json`` shows, plus private system data.

    Entity records (``characters``, ``items``) are plain dicts of JSON-ready values; keys that
    start with ``_`` are private. ``extra`` is private to the system. ``marked`` is the seq of
    the log's latest undo/redo marker (0: none), set by the session before it decides: what keys
    the randomness besides the seed, so an undo never rewinds the next draw (CORE-RANDOM; see
    :func:`random_seed`).
    """

    system: str
    title: str = ""
    session_id: str = ""
    seed: int = 0
    seq: int = 0
    marked: int = attrs.field(default=0, eq=False)  # a decision's input, not the state's value
    clock: dict[str, Any] = attrs.Factory(dict)
    characters: dict[str, dict[str, Any]] = attrs.Factory(dict)
    items: dict[str, dict[str, Any]] = attrs.Factory(dict)
    deck: dict[str, Any] | None = None
    extra: dict[str, Any] = attrs.Factory(dict)

    def copy(self) -> State:
        """Return a deep copy (plain data copied by :func:`plain_copy`, several times faster than
        ``copy.deepcopy``): what a trial evolve or a refold works on."""
        return State(
            system=self.system,
            title=self.title,
            session_id=self.session_id,
            seed=self.seed,
            seq=self.seq,
            marked=self.marked,
            clock=plain_copy(self.clock),
            characters=plain_copy(self.characters),
            items=plain_copy(self.items),
            deck=plain_copy(self.deck),
            extra=plain_copy(self.extra),
        )

    def entity(self, name: str) -> dict[str, Any] | None:
        """Return the character or item called ``name``, or None."""
        found = self.characters.get(name)
        return found if found is not None else self.items.get(name)


def random_seed(state: State) -> int:
    """Return the seed a decider draws from: the session seed, keyed also by the latest
    undo/redo marker (``state.marked``), so the draws after an undo are not the undone ones.

    A log without markers draws from the session seed itself. Decided in the decider and
    recorded in the event: a replay never draws, so it stays a pure function of the log.

    Source: CORE-RANDOM (issue 32, item 1).
    """
    return rekeyed_seed(state.seed, "core.marked", state.marked) if state.marked else state.seed


def evolver(event_type: type[E]) -> Callable[[Callable[[Any, E], None]], Callable[[Any, E], None]]:
    """Register the function that applies ``event_type`` to a State (in place)."""

    def register(fn: Callable[[Any, E], None]) -> Callable[[Any, E], None]:
        _EVOLVERS[event_type] = fn
        return fn

    return register


def precondition(
    event_type: type[E],
) -> Callable[[Callable[[Any, E], None]], Callable[[Any, E], None]]:
    """Register the check of what ``event_type`` depends on in the state it applies to.

    The check reads only the state and the event's recorded fields (never a catalogue or a rule
    table) and raises :class:`RuleViolation` naming the rule and the values when the event
    no longer holds there (an earlier action it depended on was undone).
    """

    def register(fn: Callable[[Any, E], None]) -> Callable[[Any, E], None]:
        _PRECONDITIONS[event_type] = fn
        return fn

    return register


def preconditions() -> dict[type, Precondition]:
    """Return the precondition table (event class -> function), every system's loaded so far."""
    return _PRECONDITIONS


def check(state: State, event: Event) -> None:
    """Raise when ``event`` does not hold on ``state`` (see :func:`precondition`).

    Every event also depends on the characters and items it names not being retired.

    Raises:
        RuleViolation: CORE-RETIRED when the event names a retired character or item; else the
            rule the event's precondition names; nothing for an event type without one.
    """
    gone = state.extra.get("retired")  # tablelog.projections.retirement
    if gone:
        for name in event.entities():
            if name in gone:
                raise RuleViolation("CORE-RETIRED", retired_text(name, gone[name]))
    fn = _PRECONDITIONS.get(type(event))
    if fn is not None:
        fn(state, event)


@evolver(Noted)
def _noted(state: State, e: Noted) -> None:
    """A note changes nothing: the log keeps it for history, replay and audit."""


@evolver(NotedAbout)
def _noted_about(state: State, e: NotedAbout) -> None:
    """A note about a character changes nothing either; its history shows it."""


@evolver(DiceRolled)
def _dice_rolled(state: State, e: DiceRolled) -> None:
    """A roll of plain dice changes nothing: the log keeps the dice (CORE-DICE)."""


@evolver(Said)
def _said(state: State, e: Said) -> None:
    """Table talk and whispers change nothing: the log keeps them (CORE-SAY)."""


@evolver(TableOptionSet)
def _table_option_set(state: State, e: TableOptionSet) -> None:
    """Table options are private to the table (``extra``), read by the server (CORE-GIVEN)."""
    state.extra.setdefault("table_options", {})[e.option] = e.allowed


def table_allows(state: State, option: str) -> bool:
    """Return whether the GM allowed the table option ``option`` (off until allowed)."""
    return bool(state.extra.get("table_options", {}).get(option, False))


@precondition(SeatAdded)
def _can_add_seat(state: State, e: SeatAdded) -> None:
    require(
        e.name not in seats(state),
        "CORE-SEAT",
        msg("core.seat.taken", "{name!r} is a seat of this table already", name=e.name),
    )


@evolver(SeatAdded)
def _seat_added(state: State, e: SeatAdded) -> None:
    """Seats are private to the table (``extra``): never in ``state --json``."""
    state.extra.setdefault("seats", {})[e.name] = {
        "role": e.role,
        "characters": list(e.characters),
        "token_sha256": e.token_sha256,
        "link_sha256": e.link_sha256 or None,
        "sessions": [],
    }


@precondition(SeatRevoked)
def _can_revoke_seat(state: State, e: SeatRevoked) -> None:
    require(
        e.name in seats(state),
        "CORE-SEAT",
        msg("core.seat.unknown", "no seat named {name!r}", name=e.name),
    )


@evolver(SeatRevoked)
def _seat_revoked(state: State, e: SeatRevoked) -> None:
    seats(state).pop(e.name, None)
    state.extra.setdefault("seats_gone", {})[e.name.casefold()] = e.name


@precondition(SeatRotated)
def _can_rotate_seat(state: State, e: SeatRotated) -> None:
    require(
        e.name in seats(state),
        "CORE-SEAT",
        msg("core.seat.unknown", "no seat named {name!r}", name=e.name),
    )


@evolver(SeatRotated)
def _seat_rotated(state: State, e: SeatRotated) -> None:
    """The new token and link; the old ones and every browser session of the seat end."""
    seat = seats(state).get(e.name)
    if seat is not None:
        seat.update(token_sha256=e.token_sha256, link_sha256=e.link_sha256, sessions=[])


@precondition(SeatSessionOpened)
def _can_open_session(state: State, e: SeatSessionOpened) -> None:
    seat = seats(state).get(e.name)
    require(
        seat is not None and seat.get("link_sha256") == e.link_sha256,
        "CORE-SEAT",
        msg(
            "core.seat.link_used",
            "this link is used up or was replaced: ask the GM for a new one",
        ),
    )


MAX_SESSIONS = 8
"""The browser sessions a seat keeps at once (a ninth ends the oldest)."""


@evolver(SeatSessionOpened)
def _session_opened(state: State, e: SeatSessionOpened) -> None:
    """The link is used up; the session joins the seat's (the latest :data:`MAX_SESSIONS`)."""
    seat = seats(state).get(e.name)
    if seat is not None:
        seat["link_sha256"] = None
        kept = [*seat.get("sessions", []), e.session_sha256]
        seat["sessions"] = kept[-MAX_SESSIONS:]


@evolver(KeyAdded)
def _key_added(state: State, e: KeyAdded) -> None:
    """The roster is private to the table (``extra``), the owner's key first."""
    state.extra.setdefault("keys", {})[e.actor] = e.public_key


def roster(state: State) -> dict[str, str]:
    """Return the log's signing keys: actor -> public key (hex); the first is the owner's."""
    found: dict[str, str] = state.extra.get("keys", {})
    return found


def seats(state: State) -> dict[str, dict[str, Any]]:
    """Return the table's seats: name -> ``{role, characters, token_sha256, link_sha256,
    sessions}`` (SERVER.md §3; ``link_sha256`` None once used, ``sessions`` the hashes of its
    browser sessions; a seat added before links and sessions existed lacks both keys)."""
    found: dict[str, dict[str, Any]] = state.extra.get("seats", {})
    return found


def seat_names_used(state: State) -> dict[str, str]:
    """Return every name a seat of the table has had, revoked ones included: the name folded
    to lower case -> the name. A seat's name is its identity (the ``actor`` of its records,
    whose actions it may undo), so no new seat takes one of them (CORE-SEAT)."""
    used: dict[str, str] = dict(state.extra.get("seats_gone", {}))
    used.update((name.casefold(), name) for name in seats(state))
    return used


def evolvers() -> dict[type, Evolver]:
    """Return the live table of evolvers by event class (for the replay hot loop)."""
    return _EVOLVERS


def evolve(state: State, event: Event) -> None:
    """Apply one event to ``state`` in place (evolvers are total: they do not raise).

    Raises:
        RuleViolation: CORE-EVENT when no evolver is registered for the event's class.
    """
    fn = _EVOLVERS.get(type(event))
    require(fn is not None, "CORE-EVENT", no_evolver(event.TYPE))
    fn(state, event)  # type: ignore[misc]


def retired_text(name: str, entry: dict[str, Any]) -> Msg:
    """Return CORE-RETIRED's message for the retired ``name`` (its ``state.extra["retired"]``
    entry: :mod:`tablelog.projections.retirement`)."""
    why = msg("core.reason", " ({reason})", reason=entry["reason"]) if entry.get("reason") else ""
    return msg(
        "core.retired.named",
        "{name} is a retired {kind}{why}: no command may name it (undo its retire to bring it "
        "back: tablelog log --entity {name})",
        name=name,
        kind=Term("core.kind", entry["kind"]),
        why=why,
    )


def no_evolver(type_tag: str) -> Msg:
    """CORE-EVENT's ``no evolver for TYPE``."""
    return msg("core.event.no_evolver", "no evolver for {type}", type=type_tag)


def undone_after(markers: Iterable[tuple[int, str, int]]) -> set[int]:
    """Return the seqs that are undone once every marker is applied, in order.

    Args:
        markers: ``(marker seq, "core.Undone" | "core.Redone", target seq)`` in log order.
    """
    undone: set[int] = set()
    for _, kind, target in markers:
        if kind == "core.Undone":
            undone.add(target)
        else:
            undone.discard(target)
    return undone


def fold(state: State, events: Iterable[tuple[int, Event | None]], undone: set[int]) -> State:
    """Apply every active event to ``state`` in order; markers (None) only advance ``seq``.

    Args:
        state: The state to fold into (mutated and returned).
        events: ``(seq, event)`` pairs in log order; ``event`` is None for undo/redo markers.
        undone: Seqs to skip.

    Raises:
        RuleViolation: an active event does not apply (the log does not replay); its ``seq``
            is attached as ``exc.seq``.
    """
    for seq, event in events:
        if event is not None and seq not in undone:
            try:
                evolve(state, event)
            except RuleViolation as exc:
                exc.seq = seq  # type: ignore[attr-defined]
                raise
        state.seq = seq
    return state


def fold_collecting(
    state: State, events: Iterable[tuple[int, Event | None]], undone: set[int]
) -> list[tuple[int, Event, RuleViolation]]:
    """Fold like :func:`fold`, checking each event's precondition first; skip the events whose
    precondition fails and return them.

    Used by the undo and redo decider to list the later events that depend on the action being
    taken back or restored (and by ``verify``): a decision on recorded facts, never a replay
    failure.

    Returns:
        ``(seq, event, violation)`` for every active event that does not hold, in log order.
    """
    failed = []
    for seq, event in events:
        if event is not None and seq not in undone:
            try:
                check(state, event)
            except RuleViolation as exc:
                failed.append((seq, event, exc))
                state.seq = seq
                continue
            evolve(state, event)
        state.seq = seq
    return failed


def entity_view(state: State) -> dict[str, Any]:
    """Return the visible part of the state as nested plain data (for diffs and JSON)."""
    return {
        "clock": state.clock,
        "characters": {k: _public(v) for k, v in state.characters.items()},
        "items": {k: _public(v) for k, v in state.items.items()},
        "deck": _public(state.deck) if isinstance(state.deck, dict) else state.deck,
    }


def _public(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if not k.startswith("_")}


_ATOMIC = frozenset({str, int, float, bool, type(None), bytes, frozenset})


def plain_copy(value: Any) -> Any:
    """Return a deep copy of plain state data (dicts, lists, tuples, sets of plain values), as
    ``copy.deepcopy`` would make it but several times faster (no memo: shared sub-values are
    copied apart); any other type goes through ``copy.deepcopy``."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [plain_copy(v) for v in value]
    if kind is tuple:
        return tuple(plain_copy(v) for v in value)
    if kind is set:
        return set(value)  # set elements are hashable, so immutable plain values
    return copy.deepcopy(value)


def diff(before: Any, after: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Return ``(path, old, new)`` for every leaf value that differs.

    Dicts are compared key by key (``a.b``); lists of dicts of the same length element by element
    (``effects[0].turns_left``); any other value is a leaf. A key missing on one side shows as
    None there.
    """
    if isinstance(before, dict) and isinstance(after, dict):
        if before == after:  # most records of a state are untouched: compared at C speed
            return []
        out: list[tuple[str, Any, Any]] = []
        for key in list(before) + [k for k in after if k not in before]:
            sub = f"{path}.{key}" if path else str(key)
            out.extend(diff(before.get(key), after.get(key), sub))
        return out
    if before == after:
        return []
    if _same_shape_records(before, after):
        return [
            change
            for i, (old, new) in enumerate(zip(before, after, strict=True))
            for change in diff(old, new, f"{path}[{i}]")
        ]
    if before is None and isinstance(after, dict):
        return diff({}, after, path)
    if after is None and isinstance(before, dict):
        return diff(before, {}, path)
    return [(path, before, after)]


def _same_shape_records(before: Any, after: Any) -> bool:
    return (
        isinstance(before, list)
        and isinstance(after, list)
        and len(before) == len(after)
        and all(isinstance(x, dict) for x in before + after)
    )
