"""Shared machinery of the pure rules layer: the rule violation, deterministic randomness, money.

Nothing here does I/O, reads the clock or uses :mod:`random`.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

__all__ = ["RuleViolation", "draw_fraction", "draw_index", "gp_text", "require"]


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


_SCALE = 1 << 64


def _digest(seed: int, key: tuple[object, ...]) -> int:
    material = "\x1f".join(str(part) for part in key).encode("utf-8")
    seed_bytes = (seed & ((1 << 512) - 1)).to_bytes(64, "big")
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
