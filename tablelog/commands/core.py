"""Commands and the decide dispatch; the core commands every system shares.

``decide(state, command)`` is pure: it returns the events a command produces, or raises
:class:`RuleViolation` and decides nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from tablelog.events.core import (
    GIVEN_OPTIONS,
    ROLES,
    DiceRolled,
    Event,
    KeyAdded,
    Noted,
    NotedAbout,
    Retired,
    Said,
    SeatAdded,
    SeatRevoked,
    SeatRotated,
    SeatSessionOpened,
    TableOptionSet,
)
from tablelog.projections.core import (
    State,
    retired_text,
    roster,
    seat_names_used,
    seats,
    table_allows,
)
from tablelog.projections.retirement import retired
from tablelog.rules import dice
from tablelog.rules.core import (
    RuleViolation,
    Unknown,
    check_name,
    check_text,
    draw_index,
    require,
)
from tablelog.text import Listed, Msg, Term, msg

__all__ = [
    "decider",
    "deciders",
    "decide",
    "decide_with",
    "CORE_COMMANDS",
    "AddNote",
    "RollDice",
    "Say",
    "Retire",
    "Undo",
    "Redo",
    "AddSeat",
    "RevokeSeat",
    "RotateSeat",
    "OpenSession",
    "AddKey",
    "SetTableOption",
    "RuleViolation",
    "require",
]

C = TypeVar("C")
Decider = Callable[[State, Any], list[Event]]
_DECIDERS: dict[type, Decider] = {}


def decider(
    command_type: type[C],
) -> Callable[[Callable[[State, C], list[Event]]], Callable[[State, C], list[Event]]]:
    """Register the function that decides ``command_type``."""

    def register(fn: Callable[[State, C], list[Event]]) -> Callable[[State, C], list[Event]]:
        _DECIDERS[command_type] = fn
        return fn

    return register


def deciders() -> dict[type, Decider]:
    """Return the decider table (command class -> function), every system's loaded so far."""
    return _DECIDERS


def decide(state: State, command: object) -> list[Event]:
    """Return the events ``command`` produces on ``state`` (any loaded decider; the session
    decides through :func:`tablelog.systems.decide`, which also checks the command's system).

    Raises:
        RuleViolation: the command is refused (the message names the rule and the values);
            CORE-COMMAND when no decider is registered for it; CORE-RETIRED (see
            :func:`decide_with`).
    """
    fn = _DECIDERS.get(type(command))
    if fn is None:
        raise RuleViolation("CORE-COMMAND", not_a_command(type(command), state.system))
    return decide_with(fn, state, command)


def decide_with(fn: Decider, state: State, command: object) -> list[Event]:
    """Return the events the decider ``fn`` gives for ``command`` on ``state``.

    Raises:
        RuleViolation: the decider's refusal; CORE-RETIRED instead of its UNKNOWN-NAME when
            the name it did not find is a retired character or item.
    """
    try:
        return fn(state, command)
    except RuleViolation as exc:
        if exc.rule_id == "UNKNOWN-NAME" and retired(state):
            _refuse_retired(state, command, exc)
        raise


def _refuse_retired(state: State, command: object, exc: RuleViolation) -> None:
    """Raise CORE-RETIRED when the name an UNKNOWN-NAME refusal names is a retired one that
    ``command`` holds (in a field, alone or in a tuple)."""
    gone = retired(state)
    for field in attrs.fields(type(command)):  # type: ignore[arg-type]
        value = getattr(command, field.name)
        names = (value,) if isinstance(value, str) else value if isinstance(value, tuple) else ()
        for name in names:
            if isinstance(name, str) and name in gone and name in exc.message:
                raise RuleViolation("CORE-RETIRED", retired_text(name, gone[name])) from exc


@attrs.frozen
class AddNote:
    """Record a free-text note (a GM ruling, a table decision), tied to ``about`` if given."""

    text: str
    about: tuple[str, ...] = ()


@attrs.frozen
class Retire:
    """Retire the character, unit or item ``name`` from the table (``retire NAME``)."""

    name: str
    reason: str = ""


@decider(Retire)
def decide_retire(state: State, command: Retire) -> list[Event]:
    """Decide retiring a character, unit or item: it leaves ``state`` and ``status``, keeps its
    ``history``, and no later command may name it; ``undo`` brings it back.

    Raises:
        RuleViolation: CORE-TEXT for a control character in the reason; UNKNOWN-NAME for a
            name that is no character or item; CORE-RETIRED when it is retired already, or
            when a character still owns items (retire them or hand them over first) or holds
            cards (magicpunk: play, charge or circulate them first, so the deck keeps all 54).

    Source: issue 20, item 6; CORE-RETIRED.
    """
    check_text(command.reason, "the reason")
    gone = retired(state).get(command.name)
    if gone is not None:
        raise RuleViolation("CORE-RETIRED", retired_text(command.name, gone))
    record = state.entity(command.name)
    require(
        record is not None,
        "UNKNOWN-NAME",
        msg(
            "core.retire.unknown",
            "no character or item named {name!r} to retire",
            name=command.name,
        ),
        Unknown("name", command.name),
    )
    assert record is not None
    owned = [item for item, found in state.items.items() if found.get("owner") == command.name]
    require(
        not owned,
        "CORE-RETIRED",
        msg(
            "core.retire.owns",
            "{name} owns {items}: retire or hand over what they own first",
            name=command.name,
            items=Listed(tuple(owned), "comma"),
        ),
    )
    cards = record.get("hand", record.get("cards")) or []
    require(
        not cards,
        "CORE-RETIRED",
        msg(
            "core.retire.holds",
            "{name} holds {cards}: play, charge or circulate them first (the deck keeps every "
            "card)",
            name=command.name,
            cards=Listed(tuple(cards), "space"),
        ),
    )
    return [Retired(command.name, command.reason)]


@attrs.frozen
class Undo:
    """Undo the action at ``target`` (None: the latest active action)."""

    target: int | None = None
    reason: str = ""


@attrs.frozen
class Redo:
    """Redo the undone action at ``target`` (None: the most recently undone one)."""

    target: int | None = None


@decider(AddNote)
def decide_add_note(state: State, command: AddNote) -> list[Event]:
    """Decide a note: any non-empty text without control characters but line breaks and tabs; a
    note about characters or items names existing ones.

    Raises:
        RuleViolation: CORE-NOTE for an empty note; CORE-TEXT for a control character;
            UNKNOWN-NAME for an unknown ``about``.
    """
    require(command.text.strip(), "CORE-NOTE", msg("core.note.empty", "a note needs some text"))
    check_text(command.text, msg("core.what.note", "a note"), lines=True)
    if not command.about:
        return [Noted(text=command.text)]
    for name in command.about:
        require(
            state.entity(name) is not None,
            "UNKNOWN-NAME",
            msg(
                "core.note.unknown",
                "no character or item named {name!r} to tie the note to",
                name=name,
            ),
            Unknown("name", name),
        )
    return [NotedAbout(text=command.text, about=tuple(dict.fromkeys(command.about)))]


@attrs.frozen
class RollDice:
    """Roll plain dice: ``notation`` in BCDice's common forms (``2D6+1``, ``1D100<=50``,
    ``S2D6`` for a secret roll), ``reason`` what it is for (SPEC "Dice and talk")."""

    notation: str
    reason: str = ""


@decider(RollDice)
def decide_roll_dice(state: State, command: RollDice) -> list[Event]:
    """Decide a roll of plain dice: tablelog rolls them from the session's seed, keyed by the
    seq the roll will take (never rewound by an undo, so an undone roll tells nothing of the
    next one), and records the dice, the total and the outcome of a comparison.

    Raises:
        RuleViolation: CORE-DICE for text that is not such a notation, or too many or too
            large dice (:func:`tablelog.rules.dice.parse`); CORE-TEXT for a control character
            in the reason.

    Source: CORE-DICE (BCDice's common dice).
    """
    notation = dice.parse(command.notation)
    check_text(command.reason, msg("core.what.roll_reason", "a roll's reason"))
    rolled: list[int] = []
    for i, term in enumerate(notation.terms):
        for j in range(term.count if term.sides is not None else 0):
            sides = term.sides or 1
            rolled.append(draw_index(state.seed, sides, "core.roll", state.seq + 1, i, j) + 1)
    result = dice.evaluate(notation, tuple(rolled))
    return [
        DiceRolled(
            notation=notation.text(),
            dice=tuple(rolled),
            total=result.total,
            success=result.success,
            secret=notation.secret,
            reason=command.reason,
        )
    ]


@attrs.frozen
class Say:
    """Say ``text`` at the table; with ``to`` (seat names), whisper it to those seats (the
    sender and the GM read it too)."""

    text: str
    to: tuple[str, ...] = ()


@decider(Say)
def decide_say(state: State, command: Say) -> list[Event]:
    """Decide table talk or a whisper.

    Raises:
        RuleViolation: CORE-SAY for an empty text or a ``to`` that is no seat of the table
            (the seats of names like it as "did you mean"); CORE-TEXT for a control character.

    Source: CORE-SAY.
    """
    require(command.text.strip(), "CORE-SAY", msg("core.say.empty", "say needs some text"))
    check_text(command.text, msg("core.what.said", "what is said"), lines=True)
    known = seats(state)
    require(
        bool(known) or not command.to,
        "CORE-SAY",
        msg(
            "core.say.no_seats",
            "this log has no seats: a whisper goes to seats of a served table (tablelog serve)",
        ),
    )
    for name in command.to:
        require(
            name in known,
            "CORE-SAY",
            msg(
                "core.say.no_seat",
                "no seat named {name!r} to whisper to",
                name=name,
            ),
            Unknown("seat", name),
        )
    return [Said(command.text, tuple(dict.fromkeys(command.to)))]


@attrs.frozen
class AddSeat:
    """Add a seat: ``token_sha256`` is the hex SHA-256 of the token the server gave the seat,
    ``link_sha256`` that of its one-time page link ("": none)."""

    name: str
    role: str
    characters: tuple[str, ...]
    token_sha256: str
    link_sha256: str = ""


@attrs.frozen
class RevokeSeat:
    """Revoke the seat ``name`` (its token stops working)."""

    name: str


@attrs.frozen
class RotateSeat:
    """Give the seat ``name`` a new token and page link: the old ones and its browser sessions
    stop working; the seat keeps its name, role, characters and actions."""

    name: str
    token_sha256: str
    link_sha256: str


@attrs.frozen
class OpenSession:
    """Exchange the page link whose SHA-256 is ``link_sha256`` for a browser session whose
    secret's SHA-256 is ``session_sha256`` (the link is used up)."""

    link_sha256: str
    session_sha256: str


GM_NAME = "gm"
"""The actor of the server token and the name of the table's own GM seat: no other seat's."""


def _check_hash(digest: str, what: Msg) -> None:
    require(
        len(digest) == 64 and all(c in "0123456789abcdef" for c in digest),
        "CORE-SEAT",
        msg("core.seat.hash_of", "{what} is 64 lowercase hex digits", what=what),
    )


@decider(AddSeat)
def decide_add_seat(state: State, command: AddSeat) -> list[Event]:
    """Decide a new seat (and its page link, when given).

    A seat's name is its identity: the ``actor`` of the records it appends, whose actions it
    may undo and redo. So no new seat takes a name a seat of the table has had, revoked ones
    included, in any letter case; ``gm`` (the server token's actor) is the name of GM seats
    only.

    Raises:
        RuleViolation: CORE-NAME for a bad name (of the seat or a character); CORE-SEAT when
            the name is or was a seat's, ``gm`` for a seat that is not a GM's, the role is not
            gm, player or observer, a player plays no character or a non-player plays some,
            or a hash is not 64 hex digits.

    Source: SERVER.md §3; CORE-SEAT (decision).
    """
    check_name(command.name, "a seat's name")
    require(
        command.name not in seats(state),
        "CORE-SEAT",
        msg("core.seat.taken", "{name!r} is a seat of this table already", name=command.name),
    )
    used = seat_names_used(state).get(command.name.casefold())
    require(
        used is None or used not in seats(state),
        "CORE-SEAT",
        msg(
            "core.seat.case_twin",
            "{used!r} is a seat of this table: a new seat's name differs from a seat's in more "
            "than letter case",
            used=used,
        ),
    )
    require(
        used is None,
        "CORE-SEAT",
        msg(
            "core.seat.used",
            "{used!r} was a seat of this table: a seat's name is its identity (its actions are "
            "its own), so no new seat takes it; choose another name, or rotate a seat's link "
            "instead of revoking it",
            used=used,
        ),
    )
    require(
        command.name.casefold() != GM_NAME or command.role == "gm",
        "CORE-SEAT",
        msg(
            "core.seat.gm_reserved",
            "{name!r} is the name of the server token and the table's GM: a {role} seat takes "
            "another",
            name=command.name,
            role=Term("core.role", command.role),
        ),
    )
    require(
        command.role in ROLES,
        "CORE-SEAT",
        msg(
            "core.seat.role",
            "a seat's role is one of {roles}, not {role!r}",
            roles=Listed(ROLES, "comma"),
            role=command.role,
        ),
    )
    for name in command.characters:
        check_name(name, "a character's name")
    require(
        command.role == "player" or not command.characters,
        "CORE-SEAT",
        msg(
            "core.seat.characters",
            "only a player seat plays characters ({role} {name!r} was given {characters})",
            role=Term("core.role", command.role),
            name=command.name,
            characters=Listed(command.characters, "comma"),
        ),
    )
    _check_hash(command.token_sha256, msg("core.what.token_hash", "a seat's token hash"))
    if command.link_sha256:
        _check_hash(command.link_sha256, msg("core.what.link_hash", "a seat's link hash"))
    return [
        SeatAdded(
            command.name,
            command.role,
            tuple(command.characters),
            command.token_sha256,
            command.link_sha256,
        )
    ]


@decider(RevokeSeat)
def decide_revoke_seat(state: State, command: RevokeSeat) -> list[Event]:
    """Decide revoking a seat.

    Raises:
        RuleViolation: CORE-SEAT when there is no such seat.
    """
    require(command.name in seats(state), "CORE-SEAT", no_seat(command.name))
    return [SeatRevoked(command.name)]


@decider(RotateSeat)
def decide_rotate_seat(state: State, command: RotateSeat) -> list[Event]:
    """Decide a seat's new token and link (the GM rotates its link).

    Raises:
        RuleViolation: CORE-SEAT when there is no such seat, or a hash is not 64 hex digits.

    Source: SERVER.md §4; CORE-SEAT.
    """
    require(command.name in seats(state), "CORE-SEAT", no_seat(command.name))
    _check_hash(command.token_sha256, msg("core.what.token_hash", "a seat's token hash"))
    _check_hash(command.link_sha256, msg("core.what.link_hash", "a seat's link hash"))
    return [SeatRotated(command.name, command.token_sha256, command.link_sha256)]


@decider(OpenSession)
def decide_open_session(state: State, command: OpenSession) -> list[Event]:
    """Decide a browser session for the seat whose page link this is (the link is used up).

    Raises:
        RuleViolation: CORE-SEAT when no seat has this link (used up, replaced or never one).

    Source: SERVER.md §4; CORE-SEAT.
    """
    _check_hash(command.session_sha256, msg("core.what.session_hash", "a session's hash"))
    for name, seat in seats(state).items():
        if seat.get("link_sha256") == command.link_sha256:
            return [SeatSessionOpened(name, command.link_sha256, command.session_sha256)]
    raise RuleViolation(
        "CORE-SEAT",
        msg(
            "core.seat.link_used",
            "this link is used up or was replaced: ask the GM for a new one",
        ),
    )


@attrs.frozen
class AddKey:
    """Add ``actor``'s public signing key to the log's roster (or replace theirs), as
    ``by``, the actor logging the command: the first key is ``by``'s own (``by`` then owns the
    roster); later keys only the owner adds."""

    actor: str
    public_key: str
    by: str


@decider(AddKey)
def decide_add_key(state: State, command: AddKey) -> list[Event]:
    """Decide a key for the roster.

    Raises:
        RuleViolation: CORE-NAME for a bad name; CORE-KEY when the key is not 64 lowercase hex
            digits, when the first key is not the appender's own, or when someone other than
            the roster's owner adds one.

    Source: issue 13 (signed records); docs/RELIABILITY.md, "Threat model".
    """
    check_name(command.actor, "the key's actor")
    key = command.public_key
    require(
        len(key) == 64 and all(c in "0123456789abcdef" for c in key),
        "CORE-KEY",
        msg(
            "core.key.malformed",
            "{key!r} is not a public key (64 lowercase hex digits, as `tablelog key new` prints "
            "it)",
            key=key,
        ),
    )
    keys = roster(state)
    owner = next(iter(keys), None)
    if owner is None:
        require(
            command.actor == command.by,
            "CORE-KEY",
            msg(
                "core.key.first",
                "the first key of a roster is its owner's own: add {by!r}'s key first "
                "(tablelog key add), not {actor!r}'s",
                by=command.by,
                actor=command.actor,
            ),
        )
    else:
        require(
            command.by == owner,
            "CORE-KEY",
            msg(
                "core.key.owner_only",
                "only the roster's owner {owner!r} adds keys, not {by!r}",
                owner=owner,
                by=command.by,
            ),
        )
    return [KeyAdded(command.actor, key)]


@attrs.frozen
class SetTableOption:
    """Allow (``allowed``) or forbid the table option ``option`` (``table allow given-cards``);
    ``offered``: the options the table's system has (its commands' given cards, dice or
    factors), filled in by :func:`tablelog.systems.decide`."""

    option: str
    allowed: bool
    offered: tuple[str, ...] = GIVEN_OPTIONS


@decider(SetTableOption)
def decide_set_table_option(state: State, command: SetTableOption) -> list[Event]:
    """Decide allowing or forbidding a table option.

    Raises:
        RuleViolation: CORE-GIVEN when the option is none the table's system has, or is
            already as asked.

    Source: SERVER.md §3 ("Who chooses an outcome"); CORE-GIVEN (decision).
    """
    require(
        command.option in command.offered,
        "CORE-GIVEN",
        msg(
            "core.given.unknown",
            "{system} has no table option {option!r} (it has {options})",
            system=state.system,
            option=command.option,
            options=Listed(command.offered, "comma")
            if command.offered
            else msg("core.given.none", "none"),
        ),
    )
    require(
        table_allows(state, command.option) != command.allowed,
        "CORE-GIVEN",
        msg(
            "core.given.already_allowed",
            "the table allows {option} already",
            option=command.option,
        )
        if command.allowed
        else msg(
            "core.given.already_forbidden",
            "the table does not allow {option} already",
            option=command.option,
        ),
    )
    return [TableOptionSet(command.option, command.allowed)]


CORE_COMMANDS: tuple[type, ...] = (
    AddNote,
    RollDice,
    Say,
    Retire,
    AddSeat,
    RevokeSeat,
    RotateSeat,
    OpenSession,
    AddKey,
    SetTableOption,
)
"""The commands every system's log takes (undo and redo are decided by the session)."""


def not_a_command(kind: type, system: str) -> Msg:
    """CORE-COMMAND's message: ``KIND is not a SYSTEM command``."""
    return msg(
        "core.command.other",
        "{kind} is not a {system} command",
        kind=kind.__name__,
        system=system,
    )


def no_seat(name: str) -> Msg:
    """CORE-SEAT's ``no seat named 'NAME'``."""
    return msg("core.seat.unknown", "no seat named {name!r}", name=name)
