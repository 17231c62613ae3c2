"""Plain dice in BCDice's common notation: ``2D6+1``, ``1D100<=50``, ``3D6>=10``, ``S2D6``.

The forms every Japanese and Korean table types into its dice bot (BCDice's ``DiceBot``
system, its "AddDice" sums): terms of dice ``NdM`` (N from 1, default 1) and whole numbers,
joined by ``+``, ``-``, ``*`` and ``/`` (a quotient rounded down), then optionally a comparison
(``<=``, ``>=``, ``<``, ``>``, ``=``, ``<>``) with a whole number. An ``S`` in front makes the roll
secret (its roller and the GM see it). :func:`parse` reads a notation; :func:`evaluate` gives
the result of given dice; :func:`result_line` prints the line BCDice prints for it, word for
word (``(2D6+1) ＞ 8[2,6]+1 ＞ 9``; ``… ＞ 成功`` in Japanese), the separator being U+FF1E.

Pure: the dice are given (the decider draws them from the session's seed; a physical roll is
reported). Source: BCDice (bcdice/BCDice), ``lib/bcdice/common_command/add_dice`` and its test
data ``test/data/None.toml`` (facts of its output format, cited in docs/dice.md).
"""

from __future__ import annotations

import re

import attrs

from tablelog.rules.core import RuleViolation
from tablelog.text import Msg, msg

__all__ = [
    "Term",
    "Notation",
    "parse",
    "evaluate",
    "result_line",
    "MAX_DICE",
    "MAX_SIDES",
    "MAX_NUMBER",
    "MAX_TOTAL",
]

MAX_DICE = 100
"""The most dice one notation rolls (all terms together)."""
MAX_SIDES = 1000
"""The most sides a die may have."""
MAX_NUMBER = 1_000_000
"""The largest whole number a notation adds, multiplies, divides by or compares with."""
MAX_TOTAL = 1_000_000_000_000
"""The largest total a notation may reach (with every die at its most)."""
SEPARATOR = " ＞ "
"""BCDice's separator between the steps of a result: U+FF1E FULLWIDTH GREATER-THAN SIGN."""

_COMPARE = re.compile(r"(<=|>=|<>|<|>|=)(-?\d+)$")
_TERM = re.compile(r"([+\-*/]?)(?:(\d*)D(\d+)|(\d+))")


@attrs.frozen
class Term:
    """One term: ``count`` dice of ``sides`` (``sides`` None: the whole number ``count``),
    joined to what comes before by ``op`` (``+`` for the first)."""

    op: str
    count: int
    sides: int | None = None

    @property
    def is_dice(self) -> bool:
        return self.sides is not None


@attrs.frozen
class Notation:
    """A parsed notation: its terms, comparison (``op``, ``target``) or None, secrecy."""

    terms: tuple[Term, ...]
    compare: tuple[str, int] | None = None
    secret: bool = False

    @property
    def dice(self) -> int:
        """How many dice it rolls."""
        return sum(t.count for t in self.terms if t.is_dice)

    def text(self) -> str:
        """The notation as BCDice echoes it: uppercase, ``D20`` as ``1D20``, no ``S``."""
        parts = []
        for i, term in enumerate(self.terms):
            op = "" if i == 0 and term.op == "+" else term.op
            parts.append(f"{op}{term.count}D{term.sides}" if term.is_dice else f"{op}{term.count}")
        compare = f"{self.compare[0]}{self.compare[1]}" if self.compare else ""
        return "".join(parts) + compare


def parse(text: str) -> Notation:
    """Return the notation ``text`` (case ignored; as BCDice, only what comes before the first
    space: ``2D6 to hit`` is ``2D6``).

    Raises:
        RuleViolation: CORE-DICE for text that is not such a notation, more than
            :data:`MAX_DICE` dice or terms, dice of more than :data:`MAX_SIDES` sides, a number
            over :data:`MAX_NUMBER`, a total that may pass :data:`MAX_TOTAL`, or a division
            by 0.

    Source: BCDice's common dice (``DiceBot``), as its test data shows them.
    """
    given = (text.split() or [""])[0].upper()  # BCDice reads up to the first space
    secret = given.startswith("S")
    body = given[1:] if secret else given
    compare = None
    found = _COMPARE.search(body)
    if found is not None:
        compare = (found.group(1), int(found.group(2)))
        body = body[: found.start()]
    terms, at = [], 0
    while at < len(body):
        part = _TERM.match(body, at)
        if part is None or (at == 0 and part.group(1) in ("*", "/")) or (at and not part.group(1)):
            raise RuleViolation("CORE-DICE", _not_dice(text))
        op = part.group(1) or "+"
        if part.group(3) is not None:
            terms.append(Term(op, int(part.group(2) or 1), int(part.group(3))))
        else:
            terms.append(Term(op, int(part.group(4))))
        at = part.end()
    made = Notation(tuple(terms), compare, secret)
    if not any(t.is_dice for t in terms):
        raise RuleViolation("CORE-DICE", _not_dice(text))
    _check_bounds(text, made)
    return made


def _not_dice(text: str) -> Msg:
    return msg(
        "core.dice.not_dice",
        "{text!r} is not a dice notation (e.g. 2D6+1, 1D100<=50, 3D6>=10, S2D6)",
        text=text,
    )


def _check_bounds(text: str, made: Notation) -> None:
    if made.dice > MAX_DICE or any(t.is_dice and t.count < 1 for t in made.terms):
        raise RuleViolation(
            "CORE-DICE",
            msg(
                "core.dice.too_many",
                "{text!r} rolls {n} dice; a roll has 1 to {most}",
                text=text,
                n=made.dice,
                most=MAX_DICE,
            ),
        )
    numbers = [t.count for t in made.terms if not t.is_dice]
    if made.compare is not None:
        numbers.append(abs(made.compare[1]))
    if any(n > MAX_NUMBER for n in numbers) or len(made.terms) > MAX_DICE:
        raise RuleViolation(
            "CORE-DICE",
            msg(
                "core.dice.number",
                "{text!r} holds a number over {most:,} or more than {terms} terms",
                text=text,
                most=MAX_NUMBER,
                terms=MAX_DICE,
            ),
        )
    if _largest(made) > MAX_TOTAL:
        raise RuleViolation(
            "CORE-DICE",
            msg(
                "core.dice.total",
                "{text!r} may total more than {most:,}",
                text=text,
                most=MAX_TOTAL,
            ),
        )
    if any(t.op == "/" and not t.is_dice and t.count == 0 for t in made.terms):
        raise RuleViolation(
            "CORE-DICE",
            msg("core.dice.by_zero", "{text!r} divides by 0", text=text),
        )
    if any(t.sides is not None and not 1 <= t.sides <= MAX_SIDES for t in made.terms):
        raise RuleViolation(
            "CORE-DICE",
            msg(
                "core.dice.sides",
                "{text!r} has a die of no side or of more than {most} sides",
                text=text,
                most=MAX_SIDES,
            ),
        )


def _largest(made: Notation) -> int:
    """An upper bound of the total's size: every die at its most, every term added or
    multiplied in (a quotient is never larger than its dividend)."""
    sums: list[int] = []
    for term in made.terms:
        value = term.count * (term.sides or 1)
        if term.op == "*" and sums:
            sums[-1] *= value
        elif term.op != "/" or not sums:
            sums.append(value)
    return sum(sums)


@attrs.frozen
class Result:
    """What given dice make of a notation: the total and, with a comparison, its outcome."""

    total: int
    success: bool | None


def evaluate(notation: Notation, dice: tuple[int, ...]) -> Result:
    """Return the total of ``notation`` with the dice ``dice`` (in order, term by term) and
    whether it meets its comparison (None without one). ``*`` and ``/`` bind before ``+`` and
    ``-``; a quotient is rounded down (BCDice's ``/``).

    Raises:
        ValueError: ``dice`` is not one value from 1 to its sides per die.
    """
    values = _term_values(notation, dice)
    sums: list[int] = []
    for term, value in zip(notation.terms, values, strict=True):
        if term.op == "*" and sums:
            sums[-1] *= value
        elif term.op == "/" and sums:
            sums[-1] = sums[-1] // value if value else 0
        else:
            sums.append(value if term.op == "+" else -value)
    total = sum(sums)
    if notation.compare is None:
        return Result(total, None)
    op, target = notation.compare
    met = {
        "<=": total <= target,
        ">=": total >= target,
        "<": total < target,
        ">": total > target,
        "=": total == target,
        "<>": total != target,
    }[op]
    return Result(total, met)


def _term_values(notation: Notation, dice: tuple[int, ...]) -> list[int]:
    values, at = [], 0
    for term in notation.terms:
        if not term.is_dice:
            values.append(term.count)
            continue
        rolled = dice[at : at + term.count]
        sides = term.sides or 0
        if len(rolled) != term.count or not all(1 <= d <= sides for d in rolled):
            raise ValueError(
                f"{term.count}D{term.sides} needs {term.count} dice of 1..{term.sides}"
            )
        values.append(sum(rolled))
        at += term.count
    if at != len(dice):
        raise ValueError(f"{notation.text()} rolls {at} dice, not {len(dice)}")
    return values


def result_line(notation: Notation, dice: tuple[int, ...], outcome_words: tuple[str, str]) -> str:
    """Return the line BCDice prints for ``notation`` rolled as ``dice``.

    Args:
        notation: The parsed notation.
        dice: The dice, in order.
        outcome_words: The words for a success and a failure in the reader's language
            (``("成功", "失敗")``; BCDice's English: ``("Success", "Failure")``).

    Returns:
        ``(2D6+1) ＞ 8[2,6]+1 ＞ 9``; a lone die with nothing added shows only its value
        (``(1D6) ＞ 5``, ``(1D6>=3) ＞ 3 ＞ 成功``); a comparison adds its outcome.
    """
    result = evaluate(notation, dice)
    steps = [f"({notation.text()})"]
    lone = len(notation.terms) == 1 and notation.terms[0].count == 1
    if not lone:
        steps.append(_expansion(notation, dice))
    steps.append(str(result.total))
    if result.success is not None:
        steps.append(outcome_words[0] if result.success else outcome_words[1])
    return SEPARATOR.join(steps)


def _expansion(notation: Notation, dice: tuple[int, ...]) -> str:
    parts, at = [], 0
    for i, term in enumerate(notation.terms):
        op = "" if i == 0 and term.op == "+" else term.op
        if term.is_dice:
            rolled = dice[at : at + term.count]
            at += term.count
            parts.append(f"{op}{sum(rolled)}[{','.join(map(str, rolled))}]")
        else:
            parts.append(f"{op}{term.count}")
    return "".join(parts)
