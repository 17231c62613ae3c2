"""Words for messages and audit lines, as data: counts with plurals, articles, lists.

Every refusal and event text of the fate system is read by a GM at the table, so values are named
in plain words: ``1 tile`` / ``2 tiles``, ``an anti-army NP``, ``fire and earth``, never a Python
``None``, list or dict. Each helper returns a :class:`~tablelog.text.Msg` (its English rendering
is what the table read before); in an f-string (a breakdown line, which the log records as text)
it renders in English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tablelog.text import Listed, Msg, Term, msg, msgn

__all__ = ["count", "article", "listing", "shown", "NONE"]

NONE = msg("fate.none", "none")
"""What an empty list reads as."""

_COUNTS: dict[str, Callable[[int], Msg]] = {
    "tile": lambda n: msgn("fate.count.tile", "{n} tile", "{n} tiles", n),
    "buff tile": lambda n: msgn("fate.count.buff_tile", "{n} buff tile", "{n} buff tiles", n),
    "pool tile": lambda n: msgn("fate.count.pool_tile", "{n} pool tile", "{n} pool tiles", n),
    "NP tile": lambda n: msgn("fate.count.np_tile", "{n} NP tile", "{n} NP tiles", n),
    "turn": lambda n: msgn("fate.count.turn", "{n} turn", "{n} turns", n),
    "round": lambda n: msgn("fate.count.round", "{n} round", "{n} rounds", n),
    "target": lambda n: msgn("fate.count.target", "{n} target", "{n} targets", n),
    "front-row target": lambda n: msgn(
        "fate.count.front_row_target", "{n} front-row target", "{n} front-row targets", n
    ),
    "chant": lambda n: msgn("fate.count.chant", "{n} chant", "{n} chants", n),
    "pending chant": lambda n: msgn(
        "fate.count.pending_chant", "{n} pending chant", "{n} pending chants", n
    ),
    "point": lambda n: msgn("fate.count.point", "{n} point", "{n} points", n),
    "CC point": lambda n: msgn("fate.count.cc_point", "{n} CC point", "{n} CC points", n),
    "NP point": lambda n: msgn("fate.count.np_point", "{n} NP point", "{n} NP points", n),
    "NP": lambda n: msgn("fate.count.np", "{n} NP", "{n} NPs", n),
    "grade": lambda n: msgn("fate.count.grade", "{n} grade", "{n} grades", n),
    "injury grade": lambda n: msgn(
        "fate.count.injury_grade", "{n} injury grade", "{n} injury grades", n
    ),
    "time": lambda n: msgn("fate.count.time", "{n} time", "{n} times", n),
    "use": lambda n: msgn("fate.count.use", "{n} use", "{n} uses", n),
    "unit": lambda n: msgn("fate.count.unit", "{n} unit", "{n} units", n),
    "paid unit": lambda n: msgn("fate.count.paid_unit", "{n} paid unit", "{n} paid units", n),
    "familiar": lambda n: msgn("fate.count.familiar", "{n} familiar", "{n} familiars", n),
    "shot": lambda n: msgn("fate.count.shot", "{n} shot", "{n} shots", n),
    "judgment": lambda n: msgn("fate.count.judgment", "{n} judgment", "{n} judgments", n),
    "plus": lambda n: msgn("fate.count.plus", "{n} plus", "{n} plusses", n),
}


def count(number: int, word: str) -> Msg:
    """Return ``1 tile`` or ``2 tiles`` as a sentence (``word`` one of the counted words:
    ``tile``, ``turn``, ``chant``, ``NP point`` …)."""
    return _COUNTS[word](number)


def article(word: object) -> Msg:
    """Return ``word`` with ``a`` or ``an`` before it (``an anti-army``, ``an EX``, ``a B``):
    ``word`` a plain value or a :class:`~tablelog.text.Term`, chosen by its English word."""
    text = str(word)
    lower = text.lower()
    vowel_sound = lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(("uni", "use"))
    vowel_sound = vowel_sound or text.split(" ")[0].rstrip("+") in ("F", "8", "11", "18")
    if vowel_sound:
        return msg("fate.article.an", "an {word}", word=word)
    return msg("fate.article.a", "a {word}", word=word)


def listing(items: Iterable[object], last: str = "and", empty: Msg = NONE) -> Msg:
    """Return ``"a"``, ``"a and b"`` or ``"a, b and c"`` (``last="or"`` for choices), ``empty``
    for no item."""
    words = tuple(items)
    if not words:
        return empty
    return msg("fate.list", "{items}", items=Listed(words, last))


def shown(value: object, empty: Msg = NONE, kind: str | None = None) -> Msg | object:
    """Return a value as the table reads it: ``empty`` for None or empty, lists joined with
    ``and``, dicts as ``key value`` pairs (a key a :class:`~tablelog.text.Term` of ``kind`` when
    given), anything else as it is."""
    if value is None or value == "" or value == () or value == [] or value == {}:
        return empty
    if isinstance(value, dict):
        return listing(
            msg(
                "fate.pair",
                "{key} {value}",
                key=Term(kind, str(key)) if kind else key,
                value=item,
            )
            for key, item in value.items()
        )
    if isinstance(value, list | tuple | set | frozenset):
        return listing(value)
    return value
