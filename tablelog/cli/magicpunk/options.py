"""Option parsing shared by the Magic Punk commands (usage errors exit 2)."""

from __future__ import annotations

from collections.abc import Iterable

import click

__all__ = ["names", "key_values", "card_words", "numbers"]


def names(text: str | None) -> tuple[str, ...] | None:
    """Split ``"Aria,Bram"`` into names (None stays None)."""
    if text is None:
        return None
    return tuple(part.strip() for part in text.split(",") if part.strip())


def key_values(pairs: Iterable[str], option: str, as_int: bool = False) -> dict:
    """Parse repeated ``NAME=VALUE`` options into a dict (``--skill swordplay=expert``)."""
    found: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint=option)
        if as_int:
            try:
                found[key.strip().lower()] = int(value)
            except ValueError:
                raise click.BadParameter(f"{pair!r}: {value!r} is not a number",
                                         param_hint=option) from None
        else:
            found[key.strip()] = value.strip()
    return found


def card_words(words: Iterable[str]) -> str:
    """Join CARD arguments (``AS 7H`` or ``AS,7H``) into one list text for parsing."""
    return ",".join(words)


def numbers(text: str | None, option: str) -> tuple[int, ...] | None:
    """Parse ``"3,17,9"`` into integers (None stays None)."""
    if text is None:
        return None
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a list of numbers", param_hint=option) from None
