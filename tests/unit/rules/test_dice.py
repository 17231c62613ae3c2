"""Plain dice (SPEC "Dice and talk"): BCDice's common notation and its result line, checked
against BCDice's own published test data (bcdice/BCDice test/data/None.toml, game system
DiceBot: the input, the dice it rolled, the exact line it printed)."""

from __future__ import annotations

import pytest

from tablelog.rules import dice
from tablelog.rules.core import RuleViolation

JA = ("成功", "失敗")

BCDICE = [  # (input, dice, BCDice's line) from test/data/None.toml
    ("1D6", (5,), "(1D6) ＞ 5"),
    ("2D6", (5, 3), "(2D6) ＞ 8[5,3] ＞ 8"),
    ("1D6+1", (4,), "(1D6+1) ＞ 4[4]+1 ＞ 5"),
    ("2D6+1", (2, 6), "(2D6+1) ＞ 8[2,6]+1 ＞ 9"),
    ("1+2D6", (4, 3), "(1+2D6) ＞ 1+7[4,3] ＞ 8"),
    ("2D6+4D10", (5, 4, 1, 9, 7, 4), "(2D6+4D10) ＞ 9[5,4]+21[1,9,7,4] ＞ 30"),
    ("2d6*3-1d6+1", (6, 2, 3), "(2D6*3-1D6+1) ＞ 8[6,2]*3-3[3]+1 ＞ 22"),
    ("3D6/2", (1, 2, 4), "(3D6/2) ＞ 7[1,2,4]/2 ＞ 3"),
    ("S2d6", (4, 1), "(2D6) ＞ 5[4,1] ＞ 5"),
    ("2D6=7", (3, 4), "(2D6=7) ＞ 7[3,4] ＞ 7 ＞ 成功"),
    ("2D6<>7", (3, 4), "(2D6<>7) ＞ 7[3,4] ＞ 7 ＞ 失敗"),
    ("2D6<7", (3, 3), "(2D6<7) ＞ 6[3,3] ＞ 6 ＞ 成功"),
    ("2D6>7", (3, 4), "(2D6>7) ＞ 7[3,4] ＞ 7 ＞ 失敗"),
    ("2D6<=7", (3, 5), "(2D6<=7) ＞ 8[3,5] ＞ 8 ＞ 失敗"),
    ("2D6>=7", (3, 4), "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"),
    ("-2D6<-7", (3, 5), "(-2D6<-7) ＞ -8[3,5] ＞ -8 ＞ 成功"),
    ("D20+3D4", (20, 1, 2, 3), "(1D20+3D4) ＞ 20[20]+6[1,2,3] ＞ 26"),
    ("1D20+1", (1,), "(1D20+1) ＞ 1[1]+1 ＞ 2"),
]


@pytest.mark.rule("CORE-DICE")
@pytest.mark.parametrize(("text", "rolled", "line"), BCDICE)
def test_the_result_line_is_the_one_bcdice_prints(
    text: str, rolled: tuple[int, ...], line: str
) -> None:
    """Each of BCDice's published cases: the same input and dice print the same line."""
    assert line == dice.result_line(dice.parse(text), rolled, JA)


@pytest.mark.rule("CORE-DICE")
def test_what_follows_a_space_is_not_read_as_bcdice_reads_it() -> None:
    """BCDice reads a line up to its first space: `2D6 to hit` rolls 2D6."""
    assert dice.parse("2D6 to hit").text() == "2D6"


@pytest.mark.rule("CORE-DICE")
def test_a_secret_roll_is_marked_and_echoed_without_its_s() -> None:
    """S2D6 is secret; BCDice echoes it as (2D6)."""
    made = dice.parse("s2d6")
    assert (made.secret, made.text(), made.dice) == (True, "2D6", 2)


@pytest.mark.rule("CORE-DICE")
def test_a_comparison_gives_success_or_failure_and_1d100_le_50_reads_as_tables_type_it() -> None:
    """1D100<=50 rolled 37 is a success, 51 a failure; the line says so in the reader's words."""
    made = dice.parse("1D100<=50")
    assert attrs_of(dice.evaluate(made, (37,))) == (37, True)
    assert attrs_of(dice.evaluate(made, (51,))) == (51, False)
    assert dice.result_line(made, (37,), ("Success", "Failure")) == "(1D100<=50) ＞ 37 ＞ Success"


def attrs_of(result: dice.Result) -> tuple[int, bool | None]:
    return result.total, result.success


@pytest.mark.rule("CORE-DICE")
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2X6", "not a dice notation"),
        ("", "not a dice notation"),
        ("3+4", "not a dice notation"),
        ("*2D6", "not a dice notation"),
        ("101D6", "rolls 101 dice; a roll has 1 to 100"),
        ("0D6", "rolls 0 dice"),
        ("2D0", "a die of no side"),
        ("1D1001", "more than 1000 sides"),
    ],
)
def test_what_is_not_a_notation_is_refused_naming_it(text: str, words: str) -> None:
    """A word that is not BCDice's common notation, or too many or too large dice: CORE-DICE."""
    with pytest.raises(RuleViolation) as refused:
        dice.parse(text)
    assert refused.value.rule_id == "CORE-DICE"
    assert words in refused.value.message
