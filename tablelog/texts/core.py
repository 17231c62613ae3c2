"""The registry of event texts, and the texts of the core events (notes, retire, undo, seats).

:func:`description` and :func:`explanation` are what every face reads; a system's module
registers its event classes' texts with :func:`describes` and :func:`explains`. An event class
with no describer is described by its fields (``name=value …``), as a fallback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from tablelog.events.core import (
    DiceRolled,
    Event,
    KeyAdded,
    Noted,
    NotedAbout,
    Redone,
    Retired,
    Said,
    SeatAdded,
    SeatRevoked,
    SeatRotated,
    SeatSessionOpened,
    TableOptionSet,
    Undone,
)
from tablelog.rules.dice import parse, result_line
from tablelog.text import Listed, Msg, Shown, Term, msg

__all__ = [
    "describes",
    "explains",
    "describes_redacted",
    "description",
    "redacted_description",
    "explanation",
    "audit",
    "shows",
    "shown",
    "rules_line",
    "breakdown_lines",
]

E = TypeVar("E", bound=Event)
_DESCRIBERS: dict[type, Callable[[Any], Msg]] = {}
_FORMATTERS: dict[str, Callable[[tuple[Any, ...], str, Callable[[Any], str]], str | None]] = {}
_EXPLAINERS: dict[type, Callable[[Any], list[Msg]]] = {}
_REDACTED: dict[str, Callable[[dict[str, Any]], Msg]] = {}


def describes(cls: type[E]) -> Callable[[Callable[[E], Msg]], Callable[[E], Msg]]:
    """Register the function that returns the one-line description of a ``cls`` event."""

    def register(fn: Callable[[E], Msg]) -> Callable[[E], Msg]:
        _DESCRIBERS[cls] = fn
        return fn

    return register


def explains(cls: type[E]) -> Callable[[Callable[[E], list[Msg]]], Callable[[E], list[Msg]]]:
    """Register the function that returns the audit lines of a ``cls`` event (default:
    :func:`audit`, its rule IDs and its breakdown)."""

    def register(fn: Callable[[E], list[Msg]]) -> Callable[[E], list[Msg]]:
        _EXPLAINERS[cls] = fn
        return fn

    return register


def describes_redacted(
    cls: type[E],
) -> Callable[[Callable[[dict[str, Any]], Msg]], Callable[[dict[str, Any]], Msg]]:
    """Register the description of a ``cls`` record redacted for a seat that may not see all
    of it (a saga enemy's HP nulled: the record then makes no event): ``fn(data) -> Msg``
    saying what the seat may know, from the redacted record's data (SERVER.md §3)."""

    def register(fn: Callable[[dict[str, Any]], Msg]) -> Callable[[dict[str, Any]], Msg]:
        _REDACTED[cls.TYPE] = fn
        return fn

    return register


def redacted_description(kind: str, data: dict[str, Any]) -> Msg | None:
    """Return the description of a redacted record of type ``kind`` (its ``data`` as the seat
    sees it), or None when its system registered none for the type."""
    fn = _REDACTED.get(kind)
    return None if fn is None else fn(data)


def shows(
    kind: str,
) -> Callable[
    [Callable[[tuple[Any, ...], str, Callable[[Any], str]], str | None]],
    Callable[[tuple[Any, ...], str, Callable[[Any], str]], str | None],
]:
    """Register the formatter of :class:`~tablelog.text.Shown` values of ``kind``:
    ``fn(value, lang, say) -> text or None`` (None: the value's English), ``say`` rendering a
    sentence in ``lang``."""

    def register(
        fn: Callable[[tuple[Any, ...], str, Callable[[Any], str]], str | None],
    ) -> Callable[[tuple[Any, ...], str, Callable[[Any], str]], str | None]:
        _FORMATTERS[kind] = fn
        return fn

    return register


def shown(value: Shown, lang: str, say: Callable[[Any], str]) -> str | None:
    """Return ``value`` as its kind's formatter shows it in ``lang``, or None (its English)."""
    fn = _FORMATTERS.get(value.kind)
    return None if fn is None else fn(value.value, lang, say)


def description(event: Event) -> Msg:
    """Return the one-line description of ``event`` (``log``, ``replay``, a command's answer)."""
    fn = _DESCRIBERS.get(type(event))
    if fn is not None:
        return fn(event)
    fields = [f.name for f in attrs.fields(type(event)) if f.name != "breakdown"]  # type: ignore[arg-type]
    parts = [
        msg("core.event.field", "{field}={value!r}", field=f, value=getattr(event, f))
        for f in fields
    ]
    return msg("core.event.fields", "{fields}", fields=Listed(tuple(parts), "space"))


def explanation(event: Event) -> list[Msg]:
    """Return the audit lines of ``event`` (``history``): its rule IDs, then its formula inputs."""
    fn = _EXPLAINERS.get(type(event))
    if fn is not None:
        return fn(event)
    return audit(event)


def rules_line(rule_ids: tuple[str, ...] | list[str]) -> list[Msg]:
    """Return ``["rule A, B"]`` (no line for no rule)."""
    if not rule_ids:
        return []
    return [msg("core.audit.rules", "rule {rules}", rules=Listed(tuple(rule_ids), "comma"))]


def breakdown_lines(system: str, breakdown: dict[str, Any] | None) -> list[Msg]:
    """Return one ``KEY = VALUE`` line per formula input (the key a term of the system's
    ``<system>.breakdown`` glossary table; the value as recorded in English, through the
    glossary in another language: :mod:`tablelog.texts.values`)."""
    return [
        msg(
            "core.audit.breakdown",
            "{key} = {value}",
            key=Term(f"{system}.breakdown", str(key)),
            value=Shown("core.value", (system, str(key), value), value),
        )
        for key, value in (breakdown or {}).items()
    ]


@shows("core.value")
def _value(facts: tuple[Any, ...], lang: str, say: Callable[[Any], str]) -> str | None:
    """A recorded value (a breakdown's input) in the glossary's words of ``lang``."""
    if lang == "en":
        return None
    from tablelog.texts.values import readable

    system, key, value = facts
    return say(readable(system, key, value))


def audit(event: Event) -> list[Msg]:
    """Return the default audit lines: ``rule …`` and the event's ``breakdown``."""
    system = event.TYPE.partition(".")[0]
    return rules_line(event.RULES) + breakdown_lines(system, getattr(event, "breakdown", None))


def _because(reason: str) -> Msg | str:
    return msg("core.reason", " ({reason})", reason=reason) if reason else ""


@describes(Noted)
def _noted(e: Noted) -> Msg:
    return msg("core.noted", "{text!r}", text=e.text)


@describes(NotedAbout)
def _noted_about(e: NotedAbout) -> Msg:
    return msg(
        "core.noted_about", "{text!r} (about {about})", text=e.text, about=Listed(e.about, "comma")
    )


@describes(DiceRolled)
def _dice_rolled(e: DiceRolled) -> Msg:
    facts = (e.notation, e.dice, e.success)
    return msg(
        "core.dice.rolled",
        "{secret}{line}{reason}",
        secret=msg("core.dice.secret", "(secret) ") if e.secret else "",
        line=Shown("core.dice", facts, _dice_line(facts, ("Success", "Failure"))),
        reason=_because(e.reason),
    )


def _dice_line(facts: tuple[Any, ...], words: tuple[str, str]) -> str:
    notation, dice, _ = facts
    return result_line(parse(notation), tuple(dice), words)


@shows("core.dice")
def _bcdice_line(facts: tuple[Any, ...], lang: str, say: Callable[[Any], str]) -> str | None:
    """A roll as BCDice prints it, its outcome in the reader's words: ``(1D100<=50) ＞ 36 ＞
    成功`` (Japanese), ``… ＞ 성공`` (Korean), ``… ＞ Success`` (English, BCDice's own)."""
    if facts[2] is None:
        return None  # no outcome to translate: the English line is the line
    words = (say(msg("core.dice.success", "Success")), say(msg("core.dice.failure", "Failure")))
    return _dice_line(facts, words)


@describes(Said)
def _said(e: Said) -> Msg:
    if not e.to:
        return msg("core.said", "{text!r}", text=e.text)
    return msg("core.said.to", "(to {to}) {text!r}", to=Listed(e.to, "comma"), text=e.text)


@describes(Retired)
def _retired(e: Retired) -> Msg:
    return msg("core.retired", "{name}{reason}", name=e.name, reason=_because(e.reason))


@describes(Undone)
def _undone(e: Undone) -> Msg:
    return msg("core.undone", "#{target}{reason}", target=e.target, reason=_because(e.reason))


@describes(Redone)
def _redone(e: Redone) -> Msg:
    return msg("core.redone", "#{target}", target=e.target)


@describes(SeatAdded)
def _seat_added(e: SeatAdded) -> Msg:
    plays = (
        msg("core.seat.plays", " playing {characters}", characters=Listed(e.characters, "comma"))
        if e.characters
        else ""
    )
    return msg(
        "core.seat.added",
        "{name} ({role}){plays}",
        name=e.name,
        role=Term("core.role", e.role),
        plays=plays,
    )


@describes(TableOptionSet)
def _table_option_set(e: TableOptionSet) -> Msg:
    if e.allowed:
        return msg(
            "core.given.allowed",
            "players may give {option} (table allow {option})",
            option=e.option,
        )
    return msg(
        "core.given.forbidden",
        "players no longer give {option}: tablelog draws and rolls for them",
        option=e.option,
    )


@describes(SeatRevoked)
def _seat_revoked(e: SeatRevoked) -> Msg:
    return msg("core.seat.revoked", "{name}", name=e.name)


@describes(SeatRotated)
def _seat_rotated(e: SeatRotated) -> Msg:
    return msg(
        "core.seat.rotated",
        "{name} has a new token and page link: the old ones and its browser sessions stop working",
        name=e.name,
    )


@describes(SeatSessionOpened)
def _session_opened(e: SeatSessionOpened) -> Msg:
    return msg("core.seat.session", "{name}'s link was opened in a browser", name=e.name)


@describes(KeyAdded)
def _key_added(e: KeyAdded) -> Msg:
    return msg("core.key.added", "{actor} {key}…", actor=e.actor, key=e.public_key[:16])
