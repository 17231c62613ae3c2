"""English for messages and audit lines: counts with plurals, articles, lists.

Every refusal and ``describe()`` line of the fate system is read by a GM at the table, so values
are named in plain English: ``1 tile`` / ``2 tiles``, ``an anti-army NP``, ``fire and earth``,
never a Python ``None``, list or dict.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["count", "article", "listing", "shown"]

_IRREGULAR = {"army": "armies", "unit": "units", "injury grade": "injury grades"}


def count(number: int, word: str, many: str | None = None) -> str:
    """Return ``"1 tile"`` or ``"2 tiles"`` (``many`` for an irregular plural)."""
    if number == 1:
        return f"{number} {word}"
    return f"{number} {many or _IRREGULAR.get(word) or word + 's'}"


def article(word: str) -> str:
    """Return ``word`` with ``a`` or ``an`` before it (``an anti-army``, ``an EX``, ``a B``)."""
    text = str(word)
    lower = text.lower()
    vowel_sound = lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(("uni", "use"))
    vowel_sound = vowel_sound or text.split(" ")[0].rstrip("+") in ("F", "8", "11", "18")
    return f"{'an' if vowel_sound else 'a'} {text}"


def listing(items: Iterable[object], last: str = "and", empty: str = "none") -> str:
    """Return ``"a"``, ``"a and b"`` or ``"a, b and c"`` (``last="or"`` for choices)."""
    words = [str(item) for item in items]
    if not words:
        return empty
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def shown(value: object, empty: str = "none") -> str:
    """Return a value as the table reads it: ``none`` for None or empty, lists joined with
    ``and``, dicts as ``key value`` pairs, anything else as its text."""
    if value is None or value == "" or value == () or value == [] or value == {}:
        return empty
    if isinstance(value, dict):
        return listing(f"{key} {item}" for key, item in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return listing(value)
    return str(value)
