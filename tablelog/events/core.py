"""The event base class, the type registry and the core events every system shares.

An event is an immutable fact in the past tense. Each class carries a stable type tag
(``"pf2e.RuneEtched"``, never the class name) and a schema version; the registry maps tags to
classes for the codec.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import attrs

__all__ = [
    "Event",
    "event",
    "event_class",
    "registered_types",
    "Noted",
    "NotedAbout",
    "Retired",
    "Undone",
    "Redone",
    "SeatAdded",
    "SeatRevoked",
    "SeatRotated",
    "SeatSessionOpened",
    "SEAT_TYPES",
    "SEAT_SECRETS",
    "KeyAdded",
    "DiceRolled",
    "Said",
    "READERS",
    "TableOptionSet",
    "GIVEN_OPTIONS",
    "ROLES",
]

E = TypeVar("E", bound=type)

_REGISTRY: dict[str, type[Event]] = {}


class Event:
    """Base of every event record (subclasses are ``@attrs.frozen``).

    Class attributes set by :func:`event`: ``TYPE`` (type tag), ``VERSION`` (schema version),
    ``ENTITIES`` (names of fields that hold character or item names), ``RULES`` (rule IDs).
    """

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    ENTITIES: ClassVar[tuple[str, ...]] = ()
    RULES: ClassVar[tuple[str, ...]] = ()

    def entities(self) -> tuple[str, ...]:
        """Return the character and item names this event involves."""
        names: list[str] = []
        for field in self.ENTITIES:
            value = getattr(self, field)
            if isinstance(value, str):
                names.append(value)
            elif value:
                names.extend(value)
        return tuple(names)


def event(
    type_tag: str,
    version: int = 1,
    entities: tuple[str, ...] = (),
    rules: tuple[str, ...] = (),
) -> Callable[[E], E]:
    """Register an event class under a stable type tag.

    Args:
        type_tag: ``"<system>.<PastTenseName>"``, unique and never reused.
        version: The schema version of the class's current shape (older ones need upcasters).
        entities: Field names holding character/item names (str or tuple of str).
        rules: The rule IDs this event implements.

    Returns:
        A class decorator (apply it above ``@attrs.frozen``).

    Raises:
        ValueError: if the tag is already registered to another class.
    """

    def register(cls: E) -> E:
        known = _REGISTRY.get(type_tag)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise ValueError(f"event type {type_tag!r} registered twice")
        cls.TYPE = type_tag  # type: ignore[attr-defined]
        cls.VERSION = version  # type: ignore[attr-defined]
        cls.ENTITIES = entities  # type: ignore[attr-defined]
        cls.RULES = rules  # type: ignore[attr-defined]
        _REGISTRY[type_tag] = cls
        return cls

    return register


def event_class(type_tag: str) -> type[Event] | None:
    """Return the class registered for ``type_tag``, or None."""
    return _REGISTRY.get(type_tag)


def registered_types() -> dict[str, type[Event]]:
    """Return a copy of the registry (type tag -> class)."""
    return dict(_REGISTRY)


@event("core.Noted")
@attrs.frozen
class Noted(Event):
    """A free-text note: a GM ruling, a table decision, an outcome the tool cannot compute."""

    text: str


@event("core.NotedAbout", entities=("about",))
@attrs.frozen
class NotedAbout(Event):
    """A note tied to characters or items (``note --about NAME``): it shows in their history."""

    text: str
    about: tuple[str, ...]


@event("core.Retired", entities=("name",), rules=("CORE-RETIRED",))
@attrs.frozen
class Retired(Event):
    """A character, unit or item left the table (``retire NAME``): gone from ``state`` and
    ``status``, kept in ``history``; no later command may name it (CORE-RETIRED)."""

    name: str
    reason: str = ""


@event("core.Undone")
@attrs.frozen
class Undone(Event):
    """The event at ``target`` no longer counts (SPEC: undo). Nothing is deleted."""

    target: int
    reason: str = ""


@event("core.Redone")
@attrs.frozen
class Redone(Event):
    """The undone event at ``target`` counts again, at its original place (SPEC: redo)."""

    target: int


ROLES = ("gm", "player", "observer")  # SERVER.md §3


@event("core.SeatAdded", version=2, rules=("CORE-SEAT",))
@attrs.frozen
class SeatAdded(Event):
    """A seat joined the table: a name with a role, the characters it plays, the SHA-256 of its
    secret token and that of its one-time page link (hex; the secrets themselves are never
    stored; ``""``: no link, a version 1 record's). SERVER.md §3."""

    name: str
    role: str
    characters: tuple[str, ...]
    token_sha256: str
    link_sha256: str = ""


@event("core.SeatRevoked", rules=("CORE-SEAT",))
@attrs.frozen
class SeatRevoked(Event):
    """A seat left the table: its token stops working at once (SERVER.md §3)."""

    name: str


@event("core.SeatRotated", rules=("CORE-SEAT",))
@attrs.frozen
class SeatRotated(Event):
    """A seat's token and link were replaced (the GM rotated its link): the SHA-256 of each new
    one; its old token, its old link and every browser session of it stop working. The seat
    keeps its name, role and characters, and its actions stay its own."""

    name: str
    token_sha256: str
    link_sha256: str


@event("core.SeatSessionOpened", rules=("CORE-SEAT",))
@attrs.frozen
class SeatSessionOpened(Event):
    """A seat's link was exchanged for a browser session: the link (``link_sha256``) is used up;
    the browser's cookie holds the session secret, whose SHA-256 this is. SERVER.md §4."""

    name: str
    link_sha256: str
    session_sha256: str


SEAT_TYPES = frozenset(
    {
        SeatAdded.TYPE,
        SeatRevoked.TYPE,
        SeatRotated.TYPE,
        SeatSessionOpened.TYPE,
    }
)
"""The records of a table's seats: never undone or redone (CORE-SEAT)."""

SEAT_SECRETS = ("token_sha256", "link_sha256", "session_sha256")
"""The fields of seat records that hold a credential's hash: the GM's alone to read."""


@event("core.KeyAdded", rules=("CORE-KEY",))
@attrs.frozen
class KeyAdded(Event):
    """An actor's public signing key joined the log's roster (Ed25519, 64 hex digits), or
    replaced their earlier key. The first one is its appender's own key: that actor owns the
    roster; later ones are appended and signed by the owner (``verify`` checks both:
    :mod:`tablelog.store.keys`)."""

    actor: str
    public_key: str


@event("core.DiceRolled", rules=("CORE-DICE",))
@attrs.frozen
class DiceRolled(Event):
    """Plain dice were rolled (``roll 2D6+1``; SPEC "Dice and talk"): the notation as BCDice
    echoes it (``2D6+1``, no ``S``), the dice in order (each 1 to its sides), their total and,
    with a comparison (``1D100<=50``), whether it was met (None: no comparison). ``secret``: an
    ``S`` roll, read by its roller (the record's actor) and the GM only (CORE-DICE)."""

    notation: str
    dice: tuple[int, ...]
    total: int
    success: bool | None = None
    secret: bool = False
    reason: str = ""


@event("core.Said", rules=("CORE-SAY",))
@attrs.frozen
class Said(Event):
    """Table talk (``say TEXT``); with ``to`` (seat names) a whisper, read by its sender (the
    record's actor), those seats and the GM only (CORE-SAY)."""

    text: str
    to: tuple[str, ...] = ()


def _secret_roll(data: dict[str, Any]) -> tuple[str, ...] | None:
    return () if data.get("secret") else None


def _whispered_to(data: dict[str, Any]) -> tuple[str, ...] | None:
    to = data.get("to")
    return tuple(str(seat) for seat in to) if to else None


READERS: dict[str, Callable[[dict[str, Any]], tuple[str, ...] | None]] = {
    DiceRolled.TYPE: _secret_roll,
    Said.TYPE: _whispered_to,
}
"""The records only some seats read: type tag -> ``fn(data)`` giving the seats that read the
record besides its actor and the GM (``()``: those two alone), or None when every seat reads it
(a public roll, table talk). A seat that does not read a record receives nothing of it in any
view, stream, export or report (SERVER.md §3)."""
GIVEN_OPTIONS = ("given-cards", "given-dice", "given-factors")
"""The table options that let a player seat give what tablelog would draw or roll: physical
cards, dice, random factors (CORE-GIVEN; each system has the ones its commands report)."""


@event("core.TableOptionSet", rules=("CORE-GIVEN",))
@attrs.frozen
class TableOptionSet(Event):
    """The GM allowed (``allowed``) or forbade a table option: ``option`` is one of
    :data:`GIVEN_OPTIONS` (``table allow given-cards``). Every option is off until allowed."""

    option: str
    allowed: bool


MARKERS = frozenset({Undone.TYPE, Redone.TYPE})  # a set: the fold asks about every record
