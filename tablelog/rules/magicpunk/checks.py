"""Magic Punk checks in the notation players type online: ``nMPm`` and ``nMPmCx``.

``n`` d20 are rolled; a die succeeds if it is <= ``m`` (and, with a challenge ``Cx``, >= ``x``).
A die equal to ``m`` is a jackpot; every die showing 1 is a bad beat, which beats a jackpot. The
achieved value is the highest successful die. With 0 dice, roll 2 and keep the worse.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from tablelog.rules.core import draw_index, require
from tablelog.text import Listed, msg, msgn

__all__ = [
    "CHECK_RULE",
    "MAX_DICE",
    "Notation",
    "CheckResult",
    "parse_notation",
    "dice_to_roll",
    "roll_dice",
    "evaluate",
]

CHECK_RULE = "MP-CHECK"
"""Rule ID for check notation and dice (issue 3, Magic Punk checks; not a seed clause)."""

MAX_DICE = 30
MAX_NUMBER = 999  # a target or challenge on a d20 beyond this has no meaning left
_NOTATION = re.compile(r"^\s*(\d*)\s*MP\s*(\d+)\s*(?:C\s*(\d*))?\s*$", re.IGNORECASE)


@attrs.frozen
class Notation:
    """A parsed check: ``dice`` d20, target ``target`` (m), challenge ``challenge`` (x) or None."""

    dice: int
    target: int
    challenge: int | None = None

    def text(self) -> str:
        """Return the canonical notation (``2MP10C5``)."""
        tail = f"C{self.challenge}" if self.challenge is not None else ""
        return f"{self.dice}MP{self.target}{tail}"


@attrs.frozen
class CheckResult:
    """The outcome of a check.

    Attributes:
        dice: Every die rolled (two for a 0-dice check).
        kept: The dice that count (the worse one for a 0-dice check).
        success / jackpot / bad_beat: The outcome flags.
        achieved: The highest successful die, or None on a failure.
    """

    dice: tuple[int, ...]
    kept: tuple[int, ...]
    success: bool
    jackpot: bool
    bad_beat: bool
    achieved: int | None


def parse_notation(text: str) -> Notation:
    """Parse ``nMPm`` or ``nMPmCx`` (any case) as the online dice bots read it.

    The die count may be left out (``MP15`` is ``1MP15``) and the challenge value too (``2MP10C``
    has no challenge, as the bots read ``C0``): every form the BCDice ``MagicPunk`` bot takes
    (an optional digit, ``MP``, the target, an optional ``C`` and digits) parses here to the
    same check. Text the bot would skip after the notation (``2MP10+1``, often a modifier it
    drops) is refused instead.

    Raises:
        RuleViolation: MP-CHECK if the text does not parse, asks for more than 30 dice, or has
            a target or challenge over 999.

    Source: the Magic Punk check notation of the online dice bots (BCDice ``MagicPunk``).
    """
    match = _NOTATION.match(text)
    require(
        match,
        CHECK_RULE,
        msg(
            "magicpunk.check.notation",
            "{text!r} is not nMPm or nMPmCx (e.g. 3MP10, MP12, 2MP12C4)",
            text=text,
        ),
    )
    assert match is not None
    n, m, x = match.groups()
    n, x = n or "1", x or None
    for number in (m, x or "0"):  # checked as text: a 5,000-digit number is not even converted
        require(
            len(number.lstrip("0")) <= len(str(MAX_NUMBER)),
            CHECK_RULE,
            msg(
                "magicpunk.check.number_too_big",
                "{text!r}: a target or challenge is at most {most}",
                text=text,
                most=MAX_NUMBER,
            ),
        )
    require(
        len(n.lstrip("0")) <= 2 and int(n) <= MAX_DICE,
        CHECK_RULE,
        msg(
            "magicpunk.check.too_many_dice",
            "{text!r}: at most {most} dice, got {got}",
            text=text,
            most=MAX_DICE,
            got=n,
        ),
    )
    return Notation(int(n), int(m), int(x) if x is not None and int(x) > 0 else None)


def dice_to_roll(notation: Notation) -> int:
    """Return how many d20 are physically rolled (2 for a 0-dice check)."""
    return notation.dice if notation.dice > 0 else 2


def roll_dice(seed: int, count: int, roll_no: int) -> tuple[int, ...]:
    """Roll ``count`` d20 keyed by the number of active rolls before this one."""
    return tuple(draw_index(seed, 20, "magicpunk.roll", roll_no, i) + 1 for i in range(count))


def _single(die: int, n: Notation) -> CheckResult:
    return evaluate(Notation(1, n.target, n.challenge), (die,))


def _rank(result: CheckResult) -> tuple[int, int]:
    if result.bad_beat:
        return (0, 0)
    if result.jackpot:
        return (3, 0)
    return (2, result.achieved or 0) if result.success else (1, 0)


def evaluate(notation: Notation, dice: Sequence[int]) -> CheckResult:
    """Evaluate a check on the dice rolled.

    Args:
        notation: The check.
        dice: The d20 results (1..20), as many as :func:`dice_to_roll` says.

    Returns:
        The outcome. A jackpot die (= m) succeeds even against a challenge above m.

    Raises:
        RuleViolation: MP-CHECK if a die is outside 1..20 or the dice count is wrong.
    """
    dice = tuple(dice)
    require(
        len(dice) == dice_to_roll(notation),
        CHECK_RULE,
        msgn(
            "magicpunk.check.dice_count",
            "{notation} needs {n} die, got {got}",
            "{notation} needs {n} dice, got {got}",
            dice_to_roll(notation),
            notation=notation.text(),
            got=len(dice),
        ),
    )
    bad = [d for d in dice if not 1 <= d <= 20]
    require(
        not bad,
        CHECK_RULE,
        msg(
            "magicpunk.check.d20_range",
            "a d20 shows 1 to 20, got {dice}",
            dice=Listed(tuple(bad), "comma"),
        ),
    )
    if notation.dice == 0:
        worse = min((_single(d, notation) for d in dice), key=_rank)
        return attrs.evolve(worse, dice=dice)
    low = notation.challenge or 1
    good = [d for d in dice if low <= d <= notation.target or d == notation.target]
    bad_beat = all(d == 1 for d in dice)
    jackpot = not bad_beat and notation.target in dice
    success = not bad_beat and bool(good)
    return CheckResult(dice, dice, success, jackpot, bad_beat, max(good) if success else None)
