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
from tablelog.text import Msg, msg

__all__ = ["Grade", "parse_grade", "grade_number", "LETTER_VALUES", "KINDS"]

LETTER_VALUES: dict[str, int] = {"F": 0, "E": 1, "D": 2, "C": 3, "B": 4, "A": 5}
"""Letter values; EX has no single value (see the rule that reads it)."""

KINDS: tuple[str, ...] = ("attack", "defense", "heal", "buff", "curse")
"""The five kinds of combat code cast (FATE-CAST-1)."""

_GRADE = re.compile(r"^(EX|[FEDCBA0-5])(\+{0,3})$")
_RANK = {**LETTER_VALUES, "EX": 6}
_LETTER_OF = {str(value): letter for letter, value in LETTER_VALUES.items()}
_NUMBER = re.compile(r"^[+-]?[0-9]+$")


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
    """Parse a grade such as ``"C"``, ``"A++"`` or ``"EX"``; a letter's number is accepted too
    (``"4"`` is B, ``"5+"`` is A+, ``"0"`` is F).

    Args:
        text: The grade as typed (case-insensitive for the letter).

    Returns:
        The grade.

    Raises:
        RuleViolation: FATE-CC-2 if the text is not a grade letter (or 0 … 5) with at most three
            plusses.

    Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 1.1 (E … EX, F for crests); RULES.md.
    """
    match = _GRADE.match(str(text).strip().upper())
    if match is None:
        raise RuleViolation(
            "FATE-CC-2",
            msg(
                "fate.grade.not_a_grade",
                "{text} is not a grade: give E, D, C, B, A or EX (or the number 1 to 5),"
                " with up to three +",
                text=text,
            ),
        )
    letter = _LETTER_OF.get(match.group(1), match.group(1))
    return Grade(letter, len(match.group(2)))


MAX_GRADE_NUMBER = 1000
"""The largest grade number taken (the seed's grades are 1 to 5, EX 7): any larger is a typo."""


def grade_number(text: str | int, rule_id: str, what: Msg | str, ex: int | None = None) -> int:
    """Return the number of a grade given as a number (``3``) or a letter (``C`` = 3).

    Where a rule counts grades as numbers (a cast's grade, anti-magic, a stored spell), the
    table may say either: E 1, D 2, C 3, B 4, A 5 (plusses do not change the number, RULES.md).

    Args:
        text: The grade as typed, or already a number.
        rule_id: The rule ID to refuse with.
        what: What the grade is of, for the message (``msg(…, "anti-magic")``).
        ex: The number EX stands for here (a cast: 7, FATE-CC-5), or None if EX has none.

    Returns:
        The number, 0 or more.

    Raises:
        RuleViolation: ``rule_id`` for a negative number, text that is neither, or EX where it
            has no number.

    Source: RULES.md (letter values: E=1 … A=5; plusses do not change the letter value).
    """
    raw = str(text).strip()
    if isinstance(text, int) or _NUMBER.match(raw):
        if len(raw.lstrip("+-0")) > len(str(MAX_GRADE_NUMBER)):  # not even converted
            raise RuleViolation(rule_id, _over(what, raw[:24]))
        number = int(raw)
        if number < 0:
            raise RuleViolation(
                rule_id,
                msg(
                    "fate.grade.below_zero", "{what} {number} is below 0", what=what, number=number
                ),
            )
        if number > MAX_GRADE_NUMBER:
            raise RuleViolation(rule_id, _over(what, number))
        return number
    match = _GRADE.match(raw.upper())
    if match is not None and match.group(1) == "EX" and ex is None:
        raise RuleViolation(
            rule_id,
            msg(
                "fate.grade.ex_no_number",
                "{what} EX has no number in the rules: give a number",
                what=what,
            ),
        )
    if match is None:
        ex_text = msg("fate.grade.or_ex", " or EX ({ex})", ex=ex) if ex is not None else ""
        raise RuleViolation(
            rule_id,
            msg(
                "fate.grade.not_a_number",
                "{what} {raw} is not a grade: give a number or a letter E, D, C, B, A{ex_text}",
                what=what,
                raw=raw,
                ex_text=ex_text,
            ),
        )
    if match.group(1) == "EX":
        assert ex is not None
        return ex
    head = match.group(1)
    return int(head) if head.isdigit() else LETTER_VALUES[head]


def _over(what: Msg | str, shown: object) -> Msg:
    return msg(
        "fate.grade.over_max",
        "{what} {number} is over {most}",
        what=what,
        number=shown,
        most=MAX_GRADE_NUMBER,
    )
