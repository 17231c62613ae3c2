"""Words that saga's sentences share: the game's terms, counted phrases, what a check is about.

Every saga sentence is a :class:`~tablelog.text.Msg` (template ids ``saga.<area>.<what>``); the
game's own words in it are :class:`~tablelog.text.Term` values of the ``saga.*`` glossary tables
below (English shows the key itself), so a Japanese or Korean reader reads the game's word:

- ``saga.tech`` — a tech id (``kiri-harai``; the catalogue's ``name_ja`` is its Japanese word),
- ``saga.weapon_type`` — ``1h-sword`` … (:data:`~tablelog.rules.saga.catalogue.WEAPON_TYPES`),
- ``saga.attribute`` — ``slash`` … ``none``, ``saga.element`` — ``wood`` … ``water``,
- ``saga.ability`` — ``str`` … ``con``, ``saga.trait`` — a trait kind (``anger-power``),
- ``saga.effect`` — an effect value's kind (``attack``, ``defense``, ``spell``, ``tech_power``),
- ``saga.side`` — ``ally``/``enemy``, ``saga.target`` — a tech's target kind (``single``),
- ``saga.no_damage`` — why no attack damage was computed (``evaded``, ``power 0``),
- ``saga.heal`` — how a unit healed (``drain``), ``saga.breakdown`` — a formula input's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tablelog.rules import glossary
from tablelog.text import Listed, Msg, Term, msg, msgn

__all__ = [
    "NAMED",
    "key_of",
    "known",
    "processes",
    "slashed",
    "tech",
    "term",
    "unknown_named",
    "words_of",
]


def term(kind: str, key: str) -> Term:
    """Return the game term ``key`` of the ``saga.<kind>`` glossary table."""
    return Term(f"saga.{kind}", key)


def key_of(kind: str, given: str, keys: Iterable[str]) -> str | None:
    """Return the id among ``keys`` that ``given`` names: the id itself, or its word in English,
    Japanese or Korean in the ``saga.<kind>`` glossary table (``両手剣`` and ``양손검`` are
    ``2h-sword``); None when it names none of them.

    Source: tablelog/rules/data/glossary/saga.toml (issue 27: names in any of the three
    languages are accepted wherever an id is).
    """
    known = tuple(keys)
    if given in known:
        return given
    found = glossary.key_of(f"saga.{kind}", given)
    return found if found in known else None


def words_of(kind: str, keys: Iterable[str]) -> list[str]:
    """Return ``keys`` followed by every glossary word they go by (for "did you mean")."""
    known = tuple(keys)
    words = glossary.words_of(f"saga.{kind}")
    return list(dict.fromkeys([*known, *(w for w in words if key_of(kind, w, known))]))


def tech(tech_id: str) -> Term:
    """Return a tech id as a game term (``saga.tech``)."""
    return Term("saga.tech", tech_id)


def slashed(items: Sequence[Any]) -> Any:
    """Return ``items`` joined by ``/`` (``slash/pierce``) as one value: the item itself for
    one, nested ``{first}/{rest}`` sentences for more (each item keeps its own kind)."""
    if len(items) == 1:
        return items[0]
    return msg("saga.slashed", "{first}/{rest}", first=items[0], rest=slashed(items[1:]))


def processes(count: int) -> Msg:
    """Return ``1 attack process`` / ``3 attack processes``."""
    return msgn("saga.tech.processes", "{n} attack process", "{n} attack processes", count)


NAMED: dict[str, tuple[str, Msg]] = {
    "stat": ("ability", msg("saga.what.stat", "stat")),
    "weapon type": ("weapon_type", msg("saga.what.weapon_type", "weapon type")),
    "attribute": ("attribute", msg("saga.what.attribute", "attribute")),
    "element": ("element", msg("saga.what.element", "element")),
    "trait kind": ("trait", msg("saga.what.trait_kind", "trait kind")),
}
"""What a sheet's or a tech's names are (``stat``, ``weapon type`` …): the glossary table of
the names it takes and the word for it."""


def known(what: str, names: Iterable[str]) -> Listed:
    """Return the names ``what`` takes as a comma list of game terms (``str, tec, agi``)."""
    kind = NAMED[what][0]
    return Listed(tuple(term(kind, name) for name in names), "comma")


def unknown_named(what: str, name: str, names: Iterable[str], close: str | None = None) -> Msg:
    """Return ``unknown stat 'luck' (known: str, tec, …)``, with ``; did you mean 'x'?`` after
    the name when ``close`` is given."""
    hint: Msg | str = ""
    if close is not None:
        hint = msg(
            "saga.unknown.did_you_mean",
            "; did you mean {name!r}?",
            name=term(NAMED[what][0], close),
        )
    return msg(
        "saga.unknown.named",
        "unknown {what} {name!r}{hint} (known: {known})",
        what=NAMED[what][1],
        name=name,
        hint=hint,
        known=known(what, names),
    )
