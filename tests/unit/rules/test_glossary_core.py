"""The core's glossary (tablelog/rules/data/glossary/core.toml): a word in Japanese and Korean
for every core term the code names (seats' roles, entity kinds, the state's own fields)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablelog.events.core import ROLES, SeatAdded
from tablelog.lang import Words
from tablelog.rules import glossary

PACKAGE = Path(__file__).resolve().parents[3] / "tablelog"
KINDS = ("character", "item", "unit", "characters", "items")
"""What an entity is: a retired record's kind, the state's sections, and saga's units."""


def _core_kinds() -> set[str]:
    """Every kind of core term the source names (``Term("core.role", …)``)."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        found |= set(re.findall(r'Term\(\s*f?"core\.([a-z_]+)"', path.read_text("utf-8")))
    return found


def test_every_core_kind_the_code_names_has_a_table() -> None:
    """Each ``Term("core.KIND", …)`` of the code has its table in core.toml."""
    assert {"role", "kind"} <= _core_kinds()
    assert set() == {kind for kind in _core_kinds() if not glossary.entries(f"core.{kind}")}


@pytest.mark.parametrize(
    ("kind", "keys"), [("core.role", ROLES), ("core.kind", KINDS), ("core.field", ("clock",))]
)
def test_every_key_has_a_japanese_and_a_korean_word_marked_as_the_teams(
    kind: str, keys: tuple[str, ...]
) -> None:
    """The core has no seed: each word is the team's in both languages, and none is empty."""
    entries = glossary.entries(kind)
    assert set() == {key for key in keys if key not in entries}
    for key in keys:
        entry = entries[key]
        assert (
            bool(entry.get("ja")),
            bool(entry.get("ko")),
            entry.get("team"),
        ) == (True, True, ["ja", "ko"]), key


@pytest.mark.parametrize(
    ("lang", "gm", "player", "observer"),
    [
        ("en", "gm", "player", "observer"),
        ("ja", "GM", "PL", "見学者"),
        ("ko", "GM", "플레이어", "관전자"),
    ],
)
def test_roles_read_as_online_tables_write_them(
    lang: str, gm: str, player: str, observer: str
) -> None:
    """GM, PL and 見学者 in Japanese; GM, 플레이어 and 관전자 in Korean; the key in English."""
    words = Words(lang)
    assert (gm, player, observer) == tuple(words.term("core.role", role) for role in ROLES)


@pytest.mark.parametrize(("lang", "word"), [("ja", "PL"), ("ko", "플레이어")])
def test_a_seat_line_names_its_role_in_the_readers_words(lang: str, word: str) -> None:
    """`log` describes a seat with its role's word, never the API's value ``player``."""
    line = Words(lang).event(SeatAdded("Ann", "player", ("Kyra",), "0" * 64))
    assert (word in line, "player" in line) == (True, False)


@pytest.mark.parametrize(("word", "key"), [("見学者", "observer"), ("플레이어", "player")])
def test_a_role_word_in_any_language_finds_its_key(word: str, key: str) -> None:
    """key_of takes the Japanese and the Korean word back to the role the API records."""
    assert key == glossary.key_of("core.role", word)
