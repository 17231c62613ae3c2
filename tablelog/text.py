"""Sentences as data: what a person reads, kept as a template id and the values it names.

Every sentence tablelog shows (a refusal, an event's one-line description, an audit line, a
command's answer) is made where the rules decide it as a :class:`Msg`: a stable template id
(``"fate.cast.grade_range"``), its English template (``"{kind} grade {grade} is outside
{low}..{high}"``, :meth:`str.format` fields by name) and the values. Each face renders it in its
reader's language (:mod:`tablelog.lang`); the English rendering (:func:`english`) is the
template filled in, so the CLI's words are the templates' words. The template id is the
message catalogue's context (``msgctxt``), the English template its ``msgid``: Babel's
``extract`` reads both from the calls of :func:`msg` and :func:`msgn` (keywords
``msg:1c,2`` and ``msgn:1c,2,3``), which therefore take literal strings.

A value is a plain string or number (shown as it is: names, ids, card codes, numbers), or one
of the kinds below that a language renders its own way: a game :class:`Term` (its glossary
entry), a :class:`Listed` sequence (joined as the language joins), a nested :class:`Msg`, or a
:class:`Secret` (what only some seats of a shared table may read). This module is the bottom
of the package: it imports nothing of tablelog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

__all__ = [
    "Msg",
    "msg",
    "msgn",
    "Term",
    "Listed",
    "Secret",
    "Shown",
    "listed",
    "english",
    "render_with",
    "plain_params",
    "walk",
]


class Msg:
    """A sentence as data: template id, English template(s), values.

    Attributes:
        id: The template's stable id, ``<system or core>.<area>.<what>``.
        text: The English template (singular form when ``plural`` is set).
        params: The values its fields name.
        plural: The English plural template, or None (then ``count`` is None too).
        count: The name of the value that chooses the plural form.
    """

    __slots__ = ("id", "text", "params", "plural", "count")

    def __init__(
        self,
        id: str,  # noqa: A002 - the catalogue's word
        text: str,
        params: Mapping[str, Any],
        plural: str | None = None,
        count: str | None = None,
    ) -> None:
        self.id, self.text, self.params = id, text, dict(params)
        self.plural, self.count = plural, count

    def __repr__(self) -> str:
        return f"Msg({self.id!r}, {english(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Msg):
            return NotImplemented
        return (self.id, self.text, self.params, self.plural) == (
            other.id,
            other.text,
            other.params,
            other.plural,
        )

    def __hash__(self) -> int:
        return hash((self.id, self.text))

    def __str__(self) -> str:
        return english(self)


def msg(id: str, text: str, /, **params: Any) -> Msg:  # noqa: A002 - the catalogue's word
    """Return the sentence ``text`` (English template) with id ``id`` and its values.

    Example: ``msg("pf2e.etch.no_formula", "{by} has no formula for {rune}", by="Ezren",
    rune=Term("pf2e.rune", "frost"))``.
    """
    return Msg(id, text, params)


def msgn(id: str, singular: str, plural: str, n: int, /, **params: Any) -> Msg:  # noqa: A002
    """Return a sentence whose form depends on the count ``n`` (given to the templates as
    ``{n}``): English uses ``singular`` for 1 and ``plural`` otherwise; each language its own
    plural forms (Japanese and Korean have one)."""
    return Msg(id, singular, {**params, "n": n}, plural, "n")


class Term(NamedTuple):
    """A game term: ``kind`` names its glossary table (``"pf2e.rune"``, ``"fate.kind"``,
    ``"saga.element"``), ``key`` the entry (an id, as the log records it). English shows the
    glossary's English word, which is the key unless the glossary says otherwise."""

    kind: str
    key: str

    def __str__(self) -> str:
        return self.key


class Listed(NamedTuple):
    """A sequence of values shown as one: ``style`` ``"and"`` (``a, b and c``), ``"or"``
    (``a, b or c``), ``"comma"`` (``a, b, c``), ``"semicolon"`` (``a; b; c``: clauses) or
    ``"space"`` (``a b c``: codes) or ``"joined"`` (``abc``: a formula's words and signs)."""

    items: tuple[Any, ...]
    style: str = "comma"


def listed(items: Iterable[Any], style: str = "comma") -> Listed:
    """Return :class:`Listed` of ``items`` (any iterable)."""
    return Listed(tuple(items), style)


class Shown(NamedTuple):
    """A value each language shows its own way, by a formatter registered for ``kind``
    (:func:`tablelog.texts.core.shows`): a dice roll as the table's dice bot prints it in the
    reader's language. ``english`` is what English (and any language without a formatter)
    shows; ``value`` is what the formatters read."""

    kind: str
    value: tuple[Any, ...]
    english: Any

    def __str__(self) -> str:
        return english(self.english) if isinstance(self.english, Msg) else str(self.english)


class Secret(NamedTuple):
    """A value of a sentence that only some seats of a shared table may read (SERVER.md §3):
    where a hidden card is, an enemy's HP. The CLI (one person, the GM) shows ``value``; the
    server shows ``blurred`` to the other seats.

    Attributes:
        value: What it says (a string, a number or a :class:`Msg`).
        seen_by: The character or item whose seats (and the GM) may read it; None: the GM's
            alone (the draw pile, an enemy's HP).
        blurred: What the other seats read instead.
    """

    value: Any
    seen_by: str | None
    blurred: Any


_ENGLISH_JOINS = {"and": " and ", "or": " or "}


def _join_english(parts: list[str], style: str) -> str:
    if style == "space":
        return " ".join(parts)
    if style == "joined":
        return "".join(parts)
    if style == "semicolon":
        return "; ".join(parts)
    last = _ENGLISH_JOINS.get(style)
    if last is None or len(parts) < 2:
        return ", ".join(parts)
    return f"{', '.join(parts[:-1])}{last}{parts[-1]}"


def render_with(
    message: Msg | str,
    template: Callable[[Msg], str],
    value: Callable[[Any, Callable[[Any], str]], str | None] | None = None,
    join: Callable[[list[str], str], str] = _join_english,
    sees: Callable[[str | None], bool] | None = None,
) -> str:
    """Render ``message`` with a language's parts (what :mod:`tablelog.lang` builds on).

    Args:
        message: The sentence (a plain string is shown as it is).
        template: Returns the template of a :class:`Msg` in the language (plural chosen).
        value: Renders a value of a kind the language words its own way (a :class:`Term`),
            given the renderer of nested values; None for the default.
        join: Joins rendered items of a :class:`Listed` by its style.
        sees: Whether the reader may read a :class:`Secret` seen by that name; None: all.

    Returns:
        The sentence as the reader reads it.
    """

    def shown(v: Any) -> str:
        if isinstance(v, Msg):
            return render_with(v, template, value, join, sees)
        if isinstance(v, Secret):
            visible = sees is None or sees(v.seen_by)
            return shown(v.value if visible else v.blurred)
        if isinstance(v, Listed):
            return join([shown(item) for item in v.items], v.style)
        if isinstance(v, Shown):
            made = value(v, shown) if value is not None else None
            return made if made is not None else shown(v.english)
        if value is not None:
            made = value(v, shown)
            if made is not None:
                return made
        return str(v)

    if isinstance(message, str):
        return message
    fields = {k: _Field(v, shown) for k, v in message.params.items()}
    return template(message).format_map(fields)


class _Field:
    """A value as a :meth:`str.format` field: rendered by the language unless the field gives
    a format spec or conversion the value takes itself (``{n:,}``, ``{name!r}``)."""

    __slots__ = ("value", "shown")

    def __init__(self, value: Any, shown: Callable[[Any], str]) -> None:
        self.value, self.shown = value, shown

    def __format__(self, spec: str) -> str:
        if spec and isinstance(self.value, int | float):
            return format(self.value, spec)
        return format(self.shown(self.value), spec)

    def __repr__(self) -> str:  # ``{name!r}``: a value as Python writes it (a string quoted)
        if isinstance(self.value, Msg | Term | Listed | Secret | Shown):
            return repr(self.shown(self.value))
        return repr(self.value)

    def __str__(self) -> str:
        return self.shown(self.value)


def _english_template(message: Msg) -> str:
    if message.plural is not None and message.count is not None:
        return message.text if message.params.get(message.count) == 1 else message.plural
    return message.text


def english(message: Msg | str) -> str:
    """Return ``message`` in English, every secret shown (the CLI's words)."""
    return render_with(message, _english_template)


def plain_params(message: Msg, sees: Callable[[str | None], bool] | None = None) -> dict[str, Any]:
    """Return the values of ``message`` as JSON values (an API error's ``params``): strings and
    numbers as they are, a :class:`Term` as its key, a :class:`Listed` as a list, a nested
    :class:`Msg` as its English sentence, a :class:`Secret` the reader may not read as its
    blurred words."""

    def plain(v: Any) -> Any:
        if isinstance(v, Secret):
            return plain(v.value if sees is None or sees(v.seen_by) else v.blurred)
        if isinstance(v, Msg):
            return render_with(v, _english_template, sees=sees)
        if isinstance(v, Shown):
            return plain(v.english)
        if isinstance(v, Term):
            return v.key
        if isinstance(v, Listed):
            return [plain(item) for item in v.items]
        if v is None or isinstance(v, bool | int | float | str):
            return v
        return str(v)

    return {k: plain(v) for k, v in message.params.items()}


def walk(message: Msg) -> Iterable[Msg]:
    """Yield ``message`` and every :class:`Msg` nested in its values (secrets' both sides)."""
    yield message
    for v in message.params.values():
        yield from _nested(v)


def _nested(v: Any) -> Iterable[Msg]:
    if isinstance(v, Msg):
        yield from walk(v)
    elif isinstance(v, Secret):
        yield from _nested(v.value)
        yield from _nested(v.blurred)
    elif isinstance(v, Listed):
        for item in v.items:
            yield from _nested(item)
    elif isinstance(v, Shown):
        yield from _nested(v.english)
