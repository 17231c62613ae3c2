"""Grade letters of the fan-made Fate TRPG: parsing, letter values and ordering.

Grades are ``F E D C B A EX``; a letter may carry ``+``, ``++`` or ``+++``. Letter values are
E=1 … A=5 (F=0, crest only); plusses never change the letter value. What EX is worth depends on
the rule that reads it (7 power, 15 tiles, 7 NP grades, A for fields and armies), so this module
leaves EX's number to the callers.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 1. and 노블 판타즘 1.①; RULES.md grade letters.
"""

from __future__ import annotations

import re

import attrs

from tablelog.rules.core import RuleViolation

__all__ = ["Grade", "parse_grade", "LETTER_VALUES", "KINDS"]

LETTER_VALUES: dict[str, int] = {"F": 0, "E": 1, "D": 2, "C": 3, "B": 4, "A": 5}
"""Letter values; EX has no single value (see the rule that reads it)."""

KINDS: tuple[str, ...] = ("attack", "defense", "heal", "buff", "curse")
"""The five kinds of combat code cast (FATE-CAST-1)."""

_GRADE = re.compile(r"^(EX|[FEDCBA])(\+{0,3})$")
_RANK = {**LETTER_VALUES, "EX": 6}


@attrs.frozen(order=False)
class Grade:
    """A grade letter with its plusses.

    Attributes:
        letter: ``"F"``, ``"E"``, ``"D"``, ``"C"``, ``"B"``, ``"A"`` or ``"EX"``.
        plusses: 0 … 3.
    """

    letter: str
    plusses: int = 0

    @property
    def is_ex(self) -> bool:
        """True for EX."""
        return self.letter == "EX"

    @property
    def value(self) -> int:
        """Return the letter value (E=1 … A=5, F=0); EX is read as 5 here (A-level).

        Rules that give EX another number (7 power, 15 tiles, 7 NP grades) say so themselves.
        """
        return 5 if self.is_ex else LETTER_VALUES[self.letter]

    def rank(self) -> tuple[int, int]:
        """Return a sort key: letter first, then plusses; EX above A+++."""
        return (_RANK[self.letter], self.plusses)

    def at_least(self, other: Grade) -> bool:
        """True when this grade is ``other`` or higher (A+ is above A, below A++ and EX)."""
        return self.rank() >= other.rank()

    def __str__(self) -> str:
        return self.letter + "+" * self.plusses


def parse_grade(text: str) -> Grade:
    """Parse a grade such as ``"C"``, ``"A++"`` or ``"EX"``.

    Args:
        text: The grade as typed (case-insensitive for the letter).

    Returns:
        The grade.

    Raises:
        RuleViolation: FATE-CC-2 if the text is not a grade letter with at most three plusses.

    Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 1.1 (E … EX, F for crests); RULES.md.
    """
    match = _GRADE.match(text.strip().upper())
    if match is None:
        raise RuleViolation("FATE-CC-2", f"{text!r} is not a grade (E D C B A EX, + to +++; F)")
    return Grade(match.group(1), len(match.group(2)))
