"""One command decided on the folded state: its events, checked, and the values each changes.

The decide step of the application loop (:mod:`tablelog.session`): the system's decider (or
the undo decider, :func:`tablelog.actions.decide_marker`) returns the events; they must be
storable (CORE-SIZE, CORE-NAME); each event's precondition must hold on the state it applies to
(what the decider returned holds); a copy of the state, evolved with them, is the state after
the command. Pure: no clock, no log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from tablelog import actions, systems
from tablelog.commands.core import Redo, Undo
from tablelog.events.codec import to_record
from tablelog.events.core import MARKERS, Event
from tablelog.projections.core import (
    State,
    check,
    diff,
    entity_view,
    evolve,
    plain_copy,
)
from tablelog.projections.retirement import retired
from tablelog.rules.core import RuleViolation, check_name
from tablelog.store.format import MAX_RECORD_BYTES, RECORD_PREFIX, pack_record
from tablelog.text import msg

__all__ = [
    "Applied",
    "Outcome",
    "check_encodable",
    "decide",
    "trace",
    "refuse_case_twin",
    "refuse_a_key_not_held",
]

_WIDEST_AT = "9999-12-31T23:59:59.999999Z"  # every ``at`` has this length (store/stamp.py)


@attrs.frozen
class Applied:
    """One event as appended (or as it would be, on a dry run), with the values it changed."""

    seq: int
    event: Event
    changes: list[tuple[str, Any, Any]]


@attrs.frozen
class Outcome:
    """What a command did: its events, and whether they were written.

    ``repeated`` is true when the command's request id was already in the log: nothing was
    appended and ``applied`` is the first command's result (SERVER.md §2).
    """

    applied: list[Applied]
    written: bool
    repeated: bool = False
    at: str | None = None  # the records' time stamp, when this command appended them


def check_encodable(events: list[Event], actor: str) -> None:
    """Refuse events that cannot be stored: numbers msgpack cannot hold, records over the limit,
    character or item names that would not read back cleanly.

    Args:
        events: The events one command decided.
        actor: Who logs them (their envelopes' ``actor``).

    Raises:
        RuleViolation: CORE-SIZE, naming the event type and the problem; CORE-NAME for a name.
    """
    for event in events:
        for name in event.entities():
            check_name(name)
        type_tag, version, data = to_record(event)
        widest = {
            "type": type_tag,
            "v": version,
            "at": _WIDEST_AT,
            "actor": actor,
            "data": data,
            "seq": 2**62,
            "prev": bytes(16),
            "more": 2**31,
        }
        try:
            size = len(pack_record(widest)) - RECORD_PREFIX.size
        except (OverflowError, ValueError, TypeError) as exc:
            raise RuleViolation(
                "CORE-SIZE",
                msg(
                    "core.size.unstorable",
                    "{type} cannot be stored: {reason}",
                    type=type_tag,
                    reason=str(exc),
                ),
            ) from None
        if size > MAX_RECORD_BYTES:
            raise RuleViolation(
                "CORE-SIZE",
                msg(
                    "core.size.record",
                    "{type} would take {size} bytes; a record holds at most {most}",
                    type=type_tag,
                    size=size,
                    most=MAX_RECORD_BYTES,
                ),
            )


def decide(
    state: State, command: object, actor: str, past: actions.Past, buffered: bool = False
) -> tuple[list[Applied], State]:
    """Decide ``command`` on ``state`` (left as it is).

    Args:
        state: The folded state; its ``seq`` is the log's last.
        command: A command record (core or the log's system).
        actor: Who is logging.
        past: What undo and redo read of the log (:class:`tablelog.actions.Past`).
        buffered: The lines before are not in the log yet (``run --atomic`` or ``--dry-run``).

    Returns:
        The events with the seqs they will have and the values each changes, and the state
        after them.

    Raises:
        RuleViolation: the decider's refusal; CORE-SIZE / CORE-NAME (:func:`check_encodable`);
            a precondition's; CORE-UNDO / CORE-REDO for undo or redo when ``buffered``.
    """
    if isinstance(command, Undo | Redo):
        return _decide_marker(state, command, actor, past, buffered)
    refuse_case_twin(state, command)
    events = systems.decide(state, command)
    check_encodable(events, actor)
    trial = state.copy()  # ``state`` stays as it is: its view is the view before the events
    before = entity_view(state)
    return trace(trial, enumerate(events, state.seq + 1), checked=True, before=before), trial


def _decide_marker(
    state: State, command: Undo | Redo, actor: str, past: actions.Past, buffered: bool
) -> tuple[list[Applied], State]:
    """Decide undo or redo; the values the whole action changes go with its last marker."""
    if buffered:
        raise RuleViolation(
            "CORE-UNDO" if isinstance(command, Undo) else "CORE-REDO",
            msg(
                "core.undo.buffered",
                "undo and redo are not available inside run --atomic or --dry-run (the lines "
                "before are not in the log yet); run the script without them, then undo",
            ),
        )
    markers, new_state = actions.decide_marker(state, command, past)
    check_encodable(markers, actor)  # an undo's reason is free text: bounded too
    changes = diff(entity_view(state), entity_view(new_state))
    base, last = state.seq + 1, len(markers) - 1
    applied = [Applied(base + i, m, changes if i == last else []) for i, m in enumerate(markers)]
    return applied, new_state


def trace(
    state: State,
    events: Iterable[tuple[int, Event]],
    checked: bool,
    before: dict[str, Any] | None = None,
) -> list[Applied]:
    """Evolve ``state`` in place with each ``(seq, event)``; undo/redo markers change nothing.

    Args:
        state: The state before the first event (changed in place).
        events: The events in log order, with their seqs.
        checked: Run each event's precondition first (a decided command's events).
        before: :func:`entity_view` of a state equal to ``state`` that nothing changes while
            this runs (a decision's state, of which ``state`` is a copy): then the whole view
            is not copied; None: a copy of ``state``'s view is taken.

    Returns:
        Each event with the values it changed (entity paths, old and new: copies, which later
        changes of ``state`` leave as they are).

    Raises:
        RuleViolation: when ``checked``, a precondition that does not hold.
    """
    applied = []
    view = plain_copy(entity_view(state)) if before is None else before
    live = False  # ``view`` is ``state``'s own: copied before ``state`` changes again
    for seq, event in events:
        if live:
            view, live = plain_copy(view), False
        if checked:
            check(state, event)  # what the decider returned holds on the state it applies to
        if event.TYPE not in MARKERS:
            evolve(state, event)
        after = entity_view(state)
        changes = [(path, plain_copy(old), plain_copy(new)) for path, old, new in diff(view, after)]
        applied.append(Applied(seq, event, changes))
        view, live = after, True
    return applied


def refuse_case_twin(state: State, command: object) -> None:
    """Refuse a command that adds a name (its system's ``adds``) differing from a taken one
    (a character, item or retired name) only by case, unless the command's ``force`` is set.

    Raises:
        RuleViolation: CORE-NAME naming both.
    """
    try:
        field = systems.get(state.system).adds.get(type(command))
    except systems.SystemUnavailable:
        return
    new = getattr(command, field, None) if field is not None else None
    if not isinstance(new, str) or getattr(command, "force", False):
        return
    for taken in (*state.characters, *state.items, *retired(state)):
        if taken != new and taken.casefold() == new.casefold():
            raise RuleViolation(
                "CORE-NAME",
                msg(
                    "core.name.case_twin",
                    "{new!r} differs from {taken!r} only by case: use {taken!r}, or give "
                    "--force to add {new!r} as well",
                    new=new,
                    taken=taken,
                ),
            )


def refuse_a_key_not_held(keys: dict[str, str], actor: str, held: str | None) -> None:
    """Refuse an append by an actor the log's roster has a key for unless this user holds that
    very key: its records would be unsigned or signed by another key, and `verify` would
    refuse the log from that record on (a player at a second machine, a GM at the table's
    laptop). Actors without a key in the roster append as before, unsigned.

    Args:
        keys: The log's roster (actor -> public key hex), its owner first.
        actor: Who appends.
        held: The public key (hex) of the key this user holds for ``actor``, or None.

    Raises:
        RuleViolation: CORE-KEY, naming the roster's key and this machine's (or none).

    Source: issue 13 (signed records); docs/RELIABILITY.md, "Signed records".
    """
    expected = keys.get(actor)
    if expected is None or held == expected:
        return
    owner = next(iter(keys))
    here = (
        msg("core.key.here", "this machine's key for it is {held}", held=held)
        if held
        else msg("core.key.none_here", "this machine holds none")
    )
    if actor == owner:
        then = msg(
            "core.key.owner_then",
            "append from the machine that holds that key (the owner's key adds every other)",
        )
    elif held:
        then = msg(
            "core.key.add_this",
            "append from the machine that holds that key, or have the roster's owner {owner!r} "
            "add this one (tablelog --actor {owner} key add {actor} {held})",
            owner=owner,
            actor=actor,
            held=held,
        )
    else:
        then = msg(
            "core.key.add_new",
            "append from the machine that holds that key, or have the roster's owner {owner!r} "
            "add a new one (tablelog --actor {actor} key new prints it)",
            owner=owner,
            actor=actor,
        )
    raise RuleViolation(
        "CORE-KEY",
        msg(
            "core.key.not_held",
            "the log's roster has a key for {actor!r} ({expected}…) but {here}: its records "
            "would fail verify; {then}",
            actor=actor,
            expected=expected[:16],
            here=here,
            then=then,
        ),
    )
