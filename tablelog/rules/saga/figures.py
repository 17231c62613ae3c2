"""The result type of every SaGa formula (a value and its breakdown) and exact number text.

Source: SAGA-ATK-16 (Decision: all SaGa arithmetic is exact).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import attrs

__all__ = ["Figure", "num_text", "parse_number"]

_NUMBER = re.compile(r"[+-]?(\d{1,30}(\.\d{1,30})?|\.\d{1,30}|\d{1,30}/\d{1,30})")

Number = int | Fraction


@attrs.frozen
class Figure:
    """A computed value and the named factors that produced it.

    ``value`` is an int or an exact Fraction (a tuple or dict for composite results);
    ``breakdown`` maps factor names to their text (exact decimals where the decimal
    terminates, else ``n/d (≈x)``), in formula order.
    """

    value: Any
    breakdown: dict[str, str] = attrs.field(factory=dict)


def _terminates(q: Fraction) -> bool:
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def num_text(x: Number) -> str:
    """Return ``x`` as exact text: ``23``, ``1.15``, ``-0.075``, or ``7/3 (≈2.333333)``."""
    q = Fraction(x)
    if q.denominator == 1:
        return str(q.numerator)
    if _terminates(q) and q.denominator <= 10**12:
        sign = "-" if q < 0 else ""
        q = abs(q)
        whole, rest = divmod(q.numerator, q.denominator)
        digits = ""
        while rest:
            rest *= 10
            digit, rest = divmod(rest, q.denominator)
            digits += str(digit)
        return f"{sign}{whole}.{digits}"
    return f"{q.numerator}/{q.denominator} (≈{float(q):.6f})"


def parse_number(text: str) -> Fraction:
    """Parse ``"0.97"``, ``"97/100"``, ``"-3"`` or ``"1"`` exactly: a plain decimal or a fraction
    of at most 30 digits a part (no exponents: ``1e99999`` would make a number too large to
    compute with).

    Raises:
        ValueError: if the text is not such a number (ZeroDivisionError for ``n/0``).
    """
    if not _NUMBER.fullmatch(text.strip()):
        raise ValueError(f"not a plain number: {text!r}")
    return Fraction(text.strip())
