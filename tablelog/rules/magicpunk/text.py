"""Phrases of Magic Punk messages and event lines, as data: counts, lists, abilities, skills.

A GM reads every refusal and event line at the table, so values are named in plain words
(``1 card``, ``3 cards``, ``Aria and Bram``), never a Python list, dict or ``None``. Each helper
returns a :class:`~tablelog.text.Msg` (or a :class:`~tablelog.text.Listed`) that a face renders
in its reader's language; the English is the template filled in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tablelog.text import Listed, Msg, Term, msg, msgn

__all__ = ["article", "cards", "listing", "abilities", "skills", "codes"]


def cards(number: int) -> Msg:
    """Return ``1 card`` or ``3 cards``."""
    return msgn("magicpunk.count.cards", "{n} card", "{n} cards", number)


def article(word: str) -> Msg:
    """Return ``word`` with ``a`` or ``an`` (``an apartment``, ``a flat``)."""
    if word[:1].lower() in "aeiou":
        return msg("magicpunk.article.an", "an {word}", word=word)
    return msg("magicpunk.article.a", "a {word}", word=word)


def listing(items: Iterable[object], empty: Msg | None = None) -> Listed | Msg:
    """Return ``Aria``, ``Aria and Bram`` or ``Aria, Bram and Cole`` (``empty``, by default
    ``none``, if there is none)."""
    found = tuple(items)
    if found:
        return Listed(found, "and")
    return empty if empty is not None else msg("magicpunk.none", "none")


def abilities(values: Mapping[str, int]) -> Listed:
    """Return ``body 12 sense 12 intellect 10 magic 6`` (each ability a term)."""
    return Listed(
        tuple(
            msg(
                "magicpunk.ability_value",
                "{ability} {value}",
                ability=Term("magicpunk.ability", a),
                value=v,
            )
            for a, v in values.items()
        ),
        "space",
    )


def skills(values: Mapping[str, str]) -> Listed | Msg:
    """Return ``swordplay expert and stealth novice`` (each rank a term), or ``no skills``."""
    return listing(
        (
            msg("magicpunk.skill_rank", "{skill} {rank}", skill=k, rank=Term("magicpunk.rank", v))
            for k, v in values.items()
        ),
        empty=msg("magicpunk.no_skills", "no skills"),
    )


def codes(cards: Iterable[str]) -> Listed | Msg:
    """Return card codes as written (``AS 7H JK1``), or ``(none)``."""
    found = tuple(cards)
    return Listed(found, "space") if found else msg("magicpunk.cards.none", "(none)")
