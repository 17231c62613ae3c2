"""Dice and talk at every table (SPEC "Dice and talk"): `roll NOTATION` rolls BCDice's common
notation from the session's randomness and records it; `say TEXT [--to SEAT,…]` is table talk
or a whisper. Both are events of the log: replay, undo and audit cover them."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from tablelog.commands.core import AddSeat
from tablelog.rules import dice
from tablelog.session import Session
from tests.support.cli import invoke, ok, refused

LINE = re.compile(r"\(2D6\+1\) ＞ (\d+)\[(\d),(\d)\]\+1 ＞ (\d+)")


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "talk.tlog"
    ok(path, "init", "--system", "magicpunk", "--seed", "11", "--title", "Dice night")
    return path


def records(log: Path, *types: str) -> list[dict]:
    lines = [json.loads(line) for line in ok(log, "log", "--json", "--all").splitlines()]
    return [line for line in lines if not types or line["type"] in types]


def add_seat(log: Path, name: str, role: str = "player") -> None:
    """A seat of the table (what the server appends for `POST …/seats`)."""
    Session(str(log)).execute(AddSeat(name, role, (), hashlib.sha256(name.encode()).hexdigest()))


@pytest.mark.rule("CORE-DICE")
def test_a_roll_prints_the_line_bcdice_prints_and_records_its_dice(log: Path) -> None:
    """`roll 2D6+1`: `(2D6+1) ＞ A+B[A,B]+1 ＞ total`; the record holds the notation as BCDice
    echoes it, the two dice (1-6) and the total; the state does not change."""
    before = json.loads(ok(log, "state", "--json"))
    printed = ok(log, "roll", "2d6+1")
    found = LINE.search(printed)
    assert found is not None, printed
    a, b = int(found.group(2)), int(found.group(3))
    assert 1 <= a <= 6 and 1 <= b <= 6
    assert (a + b, a + b + 1) == (int(found.group(1)), int(found.group(4)))
    (rolled,) = records(log, "core.DiceRolled")
    assert {
        "notation": "2D6+1",
        "dice": [a, b],
        "total": a + b + 1,
        "success": None,
        "secret": False,
        "reason": "",
    } == rolled["data"]
    after = json.loads(ok(log, "state", "--json"))
    assert {**before, "seq": 1} == after


@pytest.mark.rule("CORE-DICE")
@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ("Success", "Failure")), ("ja", ("成功", "失敗")), ("ko", ("성공", "실패"))],
)
def test_a_comparison_says_its_outcome_in_the_readers_words(
    log: Path, lang: str, words: tuple[str, str]
) -> None:
    """`roll 1D100<=50 --reason spot`: `(1D100<=50) ＞ N ＞ 成功` in Japanese (BCDice's word),
    its outcome true exactly when N <= 50, the reason after the line."""
    ok(log, "roll", "1D100<=50", "--reason", "spot")
    (rolled,) = records(log, "core.DiceRolled")
    total = rolled["data"]["total"]
    assert rolled["data"]["success"] is (total <= 50)
    shown = ok(log, "--lang", lang, "log")
    word = words[0] if total <= 50 else words[1]
    assert f"(1D100<=50) ＞ {total} ＞ {word}" in shown


@pytest.mark.rule("CORE-DICE")
def test_a_secret_roll_is_marked_and_recorded_as_secret(log: Path) -> None:
    """`roll S3D6`: the line says "(secret)"; the record's notation has no S, secret is true."""
    printed = ok(log, "roll", "S3D6")
    assert "(secret) (3D6) ＞ " in printed
    (rolled,) = records(log, "core.DiceRolled")
    assert (
        rolled["data"]["notation"],
        rolled["data"]["secret"],
        len(rolled["data"]["dice"]),
    ) == ("3D6", True, 3)
    assert sum(rolled["data"]["dice"]) == rolled["data"]["total"]


@pytest.mark.rule("CORE-DICE")
@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("2X", "'2X' is not a dice notation"),
        ("101D6", "'101D6' rolls 101 dice; a roll has 1 to 100"),
        ("1D1001", "'1D1001' has a die of no side or of more than 1000 sides"),
        ("2D6+999999999999999999999", "'2D6+999999999999999999999' holds a number over 1,000,000"),
        ("1D6/0", "'1D6/0' divides by 0"),
        ("1D6*1000000*1000000", "'1D6*1000000*1000000' may total more than 1,000,000,000,000"),
        ("1D6" + "*2" * 200, "holds a number over 1,000,000 or more than 100 terms"),
    ],
)
def test_what_is_not_a_roll_is_refused_and_appends_nothing(
    log: Path, given: str, says: str
) -> None:
    err = refused(log, "roll", given)
    assert "CORE-DICE: " in err and says in err


@pytest.mark.rule("CORE-DICE")
def test_an_undone_roll_tells_nothing_of_the_next(log: Path) -> None:
    """Undo a roll and roll again: other dice (the roll is keyed by the seq it takes, which an
    undo never rewinds); replaying the log gives the same dice as recorded."""
    ok(log, "roll", "20D1000")
    ok(log, "undo")
    ok(log, "roll", "20D1000")
    first, second = (r["data"]["dice"] for r in records(log, "core.DiceRolled"))
    assert first != second
    assert all(1 <= d <= 1000 for d in first + second)
    replayed = ok(log, "replay")  # folds the log: the recorded dice, nothing rolled again
    assert f"(20D1000) ＞ {sum(second)}[{','.join(map(str, second))}] ＞ {sum(second)}" in replayed


@pytest.mark.rule("CORE-DICE")
def test_the_line_is_a_pure_function_of_the_notation_and_the_dice() -> None:
    """BCDice's test data's examples (bcdice/BCDice test/data/None.toml): 2D6+1 with 2 and 6
    is `(2D6+1) ＞ 8[2,6]+1 ＞ 9`; a lone die with a comparison shows its value and outcome."""
    assert (
        dice.result_line(dice.parse("2D6+1"), (2, 6), ("成功", "失敗"))
        == "(2D6+1) ＞ 8[2,6]+1 ＞ 9"
    )
    assert dice.result_line(dice.parse("1d6>=3"), (3,), ("成功", "失敗")) == "(1D6>=3) ＞ 3 ＞ 成功"


@pytest.mark.rule("CORE-SAY")
def test_table_talk_is_an_event_of_the_log_and_undone_as_any(log: Path) -> None:
    """`say "the bridge is out"`: a core.Said record, shown in the log; undo takes it back."""
    printed = ok(log, "say", "the bridge is out")
    assert "'the bridge is out'" in printed
    (said,) = records(log, "core.Said")
    assert said["data"] == {"text": "the bridge is out", "to": []}
    ok(log, "undo")
    assert "the bridge is out" not in ok(log, "log")
    assert records(log, "core.Said")[0]["undone"] is True


@pytest.mark.rule("CORE-SAY")
def test_a_whisper_names_seats_of_the_table(log: Path) -> None:
    """`say psst --to bo,cy`: the record's `to` is both seats; a seat the table does not have
    is refused naming it, with the seats of names like it, and appends nothing."""
    add_seat(log, "bo")
    add_seat(log, "cy")
    printed = ok(log, "say", "psst", "--to", "bo, cy", "--to", "bo")
    assert "(to bo, cy) 'psst'" in printed
    assert records(log, "core.Said")[0]["data"]["to"] == ["bo", "cy"]
    err = refused(log, "say", "psst", "--to", "boo")
    assert "CORE-SAY: no seat named 'boo' to whisper to; did you mean bo?" in err


@pytest.mark.rule("CORE-SAY")
@pytest.mark.parametrize(
    ("text", "says"),
    [("   ", "CORE-SAY: say needs some text"), ("a\x1bb", "CORE-TEXT: what is said")],
)
def test_empty_or_steering_talk_is_refused(log: Path, text: str, says: str) -> None:
    assert says in refused(log, "say", text)


def test_roll_and_say_are_in_the_commands_help(log: Path) -> None:
    """`tablelog --help` lists both; `say --help` in Korean explains --to."""
    listed = invoke(log, "--help").stdout
    assert re.search(r"^\s+roll\s", listed, re.M) and re.search(r"^\s+say\s", listed, re.M)
    assert "귓속말" in invoke(log, "--lang", "ko", "say", "--help").stdout


@pytest.mark.rule("CORE-DICE")
def test_words_after_the_notation_are_the_rolls_reason(log: Path) -> None:
    """`roll 1D100<=50 spot the ambush`, as a dice bot reads a chat line: the reason is
    "spot the ambush"; --reason, when given, is the reason."""
    ok(log, "roll", "1D100<=50", "spot", "the", "ambush")
    ok(log, "roll", "2D6", "ignored", "--reason", "initiative")
    assert [r["data"]["reason"] for r in records(log, "core.DiceRolled")] == [
        "spot the ambush",
        "initiative",
    ]


@pytest.mark.rule("CORE-SAY")
def test_talk_needs_no_quotes_and_a_whisper_needs_seats(log: Path) -> None:
    """`say the bridge is out` is one text; on a log without seats (the command line's) a
    whisper is refused saying why; an empty --to names no seat and is refused, never sent to
    the whole table."""
    ok(log, "say", "the", "bridge", "is", "out")
    assert [r["data"]["text"] for r in records(log, "core.Said")] == ["the bridge is out"]
    err = refused(log, "say", "psst", "--to", "bo")
    assert "CORE-SAY: this log has no seats: a whisper goes to seats of a served table" in err
    add_seat(log, "bo")
    for empty in ("", ",", "bo,"):
        assert "CORE-SAY: no seat named '' to whisper to" in refused(
            log, "say", "hi", "--to", empty
        )
