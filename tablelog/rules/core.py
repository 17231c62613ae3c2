"""Shared machinery of the pure rules layer: the rule violation, deterministic randomness, money.

Nothing here does I/O, reads the clock or uses :mod:`random`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: start-up of every command pays for what it imports
    from fractions import Fraction

__all__ = [
    "RuleViolation",
    "check_name",
    "draw_fraction",
    "draw_index",
    "gp_text",
    "require",
    "MAX_NAME_CHARS",
]

MAX_NAME_CHARS = 64


class RuleViolation(Exception):
    """A command (or an event on replay) that the rules refuse.

    Args:
        rule_id: The RULES.md ID of the clause that refuses it (e.g. ``"PF2E-ETCH-1"``), or
            ``"UNKNOWN-NAME"`` / ``"CORE-…"`` where no game rule applies.
        message: What was refused, naming the values involved.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


def require(condition: object, rule_id: str, message: str) -> None:
    """Raise :class:`RuleViolation` ``rule_id`` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise RuleViolation(rule_id, message)


def check_name(name: str, what: str = "a name") -> None:
    """Refuse a character, item or other table name that would not read back cleanly.

    A name is 1 to 64 characters, has no leading or trailing spaces, no control characters and no
    comma (options list names separated by commas), and is in Unicode composed form (NFC), so two
    names that look alike are the same string.

    Raises:
        RuleViolation: CORE-NAME, saying what is wrong.
    """
    import unicodedata

    require(name.strip(), "CORE-NAME", f"{what} cannot be empty")
    require(name == name.strip(), "CORE-NAME", f"{what} cannot start or end with a space: {name!r}")
    require(
        len(name) <= MAX_NAME_CHARS,
        "CORE-NAME",
        f"{what} has {len(name)} characters; at most {MAX_NAME_CHARS}",
    )
    require(
        not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name),
        "CORE-NAME",
        f"{what} cannot hold control characters: {name!r}",
    )
    require("," not in name, "CORE-NAME",
            f"{what} cannot hold a comma (commas separate names in options like --who A,B): "
            f"{name!r}")
    composed = unicodedata.normalize("NFC", name)
    require(
        name == composed,
        "CORE-NAME",
        f"{what} {name!r} is not in composed form; write it as {composed!r}",
    )


_SCALE = 1 << 64


def _digest(seed: int, key: tuple[object, ...]) -> int:
    material = "\x1f".join(str(part) for part in key).encode("utf-8")
    seed_bytes = (seed & ((1 << 512) - 1)).to_bytes(64, "big")
    import hashlib

    h = hashlib.blake2b(material, key=seed_bytes, digest_size=8)
    return int.from_bytes(h.digest(), "big")


def draw_fraction(seed: int, *key: object) -> Fraction:
    """Return a uniform draw in [0, 1) decided by the session seed and a key.

    The same seed and key give the same value on every machine and Python version (a keyed
    BLAKE2b hash, not :mod:`random`), so a decision can be remade identically after an undo.

    Args:
        seed: The session's random seed (from the log header).
        *key: What identifies this draw (e.g. ``"draw", 3, 0`` for the first card of the fourth
            draw); parts are turned to text.

    Returns:
        An exact fraction with denominator 2**64.
    """
    from fractions import Fraction

    return Fraction(_digest(seed, key), _SCALE)


def draw_index(seed: int, n: int, *key: object) -> int:
    """Return a uniform index in ``range(n)`` decided by the session seed and a key.

    Args:
        seed: The session's random seed.
        n: How many choices (>= 1).
        *key: What identifies this draw.

    Returns:
        An int in [0, n).

    Raises:
        ValueError: if ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"draw_index needs n >= 1, got {n}")
    return _digest(seed, key) * n >> 64


def gp_text(cp: int) -> str:
    """Format a money amount in copper pieces as gp (``749850`` -> ``"7498.5 gp"``)."""
    sign = "-" if cp < 0 else ""
    whole, rest = divmod(abs(cp), 100)
    frac = f".{rest:02d}".rstrip("0") if rest else ""
    return f"{sign}{whole}{frac} gp"
