"""A magicpunk check's line in Japanese and Korean is BCDice's (issue 27, item 4): for each case
of BCDice's published test data, the same notation and dice give, in `ja` and `ko`, exactly the
line its `MagicPunk` and `MagicPunk:Korean` systems print (tablelog/texts/magicpunk.py
``_bcdice_line``); the recorded event is the same in every language.

Source: bcdice/BCDice test/data/MagicPunk.toml @ 051e937acb97eaa4001b879f8f1fe8955cfb170b and
test/data/MagicPunk_Korean.toml @ b6e25aa919b696d33706f28c0da0be6e09a31e06 (input, rands,
output; facts of the dice bot, transcribed)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli
from tests.support.cli import ok

ARIA = ("--body", "8", "--sense", "12", "--intellect", "10", "--magic", "10", "--hp", "26")

# (input, dice, MagicPunk's output, MagicPunk:Korean's output); None: not in that file.
CASES = [
    ("1MP15", "10", "(1MP15C0) > [10] > 成功(10)", "(1MP15C0) > [10] > 성공(10)"),
    ("1MP15", "16", "(1MP15C0) > [16] > 失敗", "(1MP15C0) > [16] > 실패"),
    ("MP15", "15", "(1MP15C0) > [15] > 成功(JP)", "(1MP15C0) > [15] > 성공(JP)"),
    ("MP15", "1", "(1MP15C0) > [1] > 失敗(BB)", "(1MP15C0) > [1] > 실패(BB)"),
    ("3MP15C5", "10,4,18", "(3MP15C5) > [10,4,18] > 成功(10)", "(3MP15C5) > [10,4,18] > 성공(10)"),
    ("3MP15C10", "9,4,18", "(3MP15C10) > [9,4,18] > 失敗", "(3MP15C10) > [9,4,18] > 실패"),
    (
        "3MP15C18",
        "9,15,18",
        "(3MP15C18) > [9,15,18] > 成功(JP)",
        "(3MP15C18) > [9,15,18] > 성공(JP)",
    ),
    ("3MP15C1", "1,1,1", "(3MP15C1) > [1,1,1] > 失敗(BB)", "(3MP15C1) > [1,1,1] > 실패(BB)"),
    ("0MP15C5", "10,15", "(0MP15C5) > [10,15] > 成功(10)", "(0MP15C5) > [10,15] > 성공(10)"),
    ("0MP15C5", "10,17", "(0MP15C5) > [10,17] > 失敗", "(0MP15C5) > [10,17] > 실패"),
    ("0MP15C5", "10,4", "(0MP15C5) > [10,4] > 失敗", "(0MP15C5) > [10,4] > 실패"),
    ("0MP15C5", "15,15", "(0MP15C5) > [15,15] > 成功(JP)", "(0MP15C5) > [15,15] > 성공(JP)"),
    ("0MP15C5", "1,15", "(0MP15C5) > [1,15] > 失敗(BB)", "(0MP15C5) > [1,15] > 실패(BB)"),
    (
        "10MP15C5",
        "10,13,10,18,4,5,8,12,17,2",
        None,
        "(10MP15C5) > [10,13,10,18,4,5,8,12,17,2] > 성공(13)",
    ),
]

PUBLISHED = [
    pytest.param(lang, given, dice, line, id=f"{lang}-{given}-{dice}")
    for given, dice, ja, ko in CASES
    for lang, line in (("ja", ja), ("ko", ko))
    if line is not None
]


@pytest.fixture(autouse=True, scope="module")
def english_after() -> Iterator[None]:
    """Put the process's reader back to English after these Japanese and Korean runs."""
    yield
    from tablelog.cli.help import speak, translate
    from tablelog.lang import ENGLISH, set_reader

    set_reader(ENGLISH)
    speak(ENGLISH)
    translate(cli, ENGLISH)


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A magicpunk log with Aria (each case is a dry run: nothing is appended)."""
    path = tmp_path_factory.mktemp("bcdice") / "m.tlog"
    ok(path, "init", "--system", "magicpunk")
    ok(path, "magicpunk", "character", "add", "Aria", *ARIA)
    return path


@pytest.mark.rule("MP-CHECK")
@pytest.mark.parametrize(("lang", "given", "dice", "line"), PUBLISHED)
def test_the_check_line_is_bcdices(log: Path, lang: str, given: str, dice: str, line: str) -> None:
    """`magicpunk roll INPUT --dice RANDS` prints BCDice's output for that input and those dice,
    in the reader's language; its event's data are English's."""
    roll = ["magicpunk", "roll", given, "--dice", dice, "--by", "Aria", "--dry-run"]
    said = CliRunner().invoke(cli, ["--lang", lang, "--log", str(log), *roll])
    assert said.exit_code == 0, said.output
    events = [x for x in said.stdout.splitlines() if x.startswith("#")]
    assert [f"#2 magicpunk.CheckRolled Aria: {line}"] == events
    data = [json.loads(x)["data"] for x in (ok(log, *roll, "--json"),)]
    same = CliRunner().invoke(cli, ["--lang", lang, "--log", str(log), *roll, "--json"])
    assert data == [json.loads(same.stdout)["data"]]
