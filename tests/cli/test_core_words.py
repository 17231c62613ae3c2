"""The core's words at a Japanese and a Korean table: a retired entity's kind in the reader's
language (CORE-RETIRED), from the core's glossary."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli
from tests.support.cli import ok, refused

rule = pytest.mark.rule


@pytest.fixture
def english_after() -> Iterator[None]:
    """Put the process's reader back to English after a test that read another language (a
    command without --lang keeps the reader an earlier one chose: tablelog.cli.main)."""
    yield
    from tablelog.cli.help import speak, translate
    from tablelog.lang import ENGLISH, set_reader

    set_reader(ENGLISH)
    speak(ENGLISH)
    translate(cli, ENGLISH)


ERROR = {"ja": "エラー", "ko": "오류"}
"""The error line's marker in Japanese and Korean (the rule ID after it stays)."""


@rule("CORE-RETIRED")
@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize(("lang", "word"), [("ja", "キャラクター"), ("ko", "캐릭터")])
def test_a_retired_character_is_named_a_character_in_the_readers_words(
    tmp_path: Path, lang: str, word: str
) -> None:
    """A note about retired Kyra is refused, naming her kind as the reader's language does,
    where English names it by its key."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "pf2e")
    ok(log, "pf2e", "character", "add", "Kyra", "--level", "3")
    ok(log, "retire", "Kyra", "--reason", "stays in Otari")
    english = refused(log, "note", "ruling", "--about", "Kyra")
    said = refused(log, "--lang", lang, "note", "ruling", "--about", "Kyra")
    assert ("character" in english, word in said, "character" in said) == (True, True, False)
    assert said.startswith(f"{ERROR[lang]}: CORE-RETIRED: ")


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_every_error_line_starts_in_the_readers_words(tmp_path: Path, lang: str) -> None:
    """A refusal, a usage error and saga's calculator's refusal start with the reader's
    ``error`` (エラー:, 오류:), the rule ID after it as it is; English keeps ``error:``."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "saga")
    refusal = refused(log, "--lang", lang, "saga", "poison", "Nobody")
    usage = CliRunner().invoke(cli, ["--lang", lang, "--log", str(log), "state", "--at", "x"])
    calc = refused(log, "--lang", lang, "saga", "calc", "kyou-geki", "--slv", "0")
    assert refusal.startswith(f"{ERROR[lang]}: UNKNOWN-NAME: "), refusal
    assert usage.exit_code == 2
    assert usage.stderr.splitlines()[-1].startswith(f"{ERROR[lang]}: "), usage.stderr
    assert calc.startswith(f"{ERROR[lang]}: SAGA-"), calc
    assert refused(log, "saga", "poison", "Nobody").startswith("error: UNKNOWN-NAME: ")
