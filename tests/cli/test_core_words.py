"""The core's words at a Japanese and a Korean table: a retired entity's kind in the reader's
language (CORE-RETIRED), from the core's glossary."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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
    assert (True, True, False) == ("character" in english, word in said, "character" in said)
    assert said.startswith("error: CORE-RETIRED: ")
