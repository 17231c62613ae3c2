"""English for Magic Punk messages and event lines: counts with plurals, lists of names.

A GM reads every refusal and ``describe()`` line at the table, so values are named in plain
English (``1 card``, ``3 cards``, ``Aria and Bram``), never a Python list, dict or ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["article", "count", "listing"]


def count(number: int, word: str, many: str | None = None) -> str:
    """Return ``"1 card"`` or ``"3 cards"`` (``many``: an irregular plural)."""
    return f"{number} {word if number == 1 else many or word + 's'}"


def article(word: str) -> str:
    """Return ``word`` with ``a`` or ``an`` (``an apartment``, ``a flat``)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def listing(items: Iterable[object], last: str = "and", empty: str = "none") -> str:
    """Return ``"Aria"``, ``"Aria and Bram"`` or ``"Aria, Bram and Cole"`` (``empty`` if none)."""
    words = [str(item) for item in items]
    if not words:
        return empty
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
