"""A state value in the reader's words (tablelog/texts/values.py, tablelog/cli/values.py): JSON in
English, the system's glossary in Japanese and Korean, never JSON."""

from __future__ import annotations

import pytest

from tablelog.cli.values import value_text
from tablelog.lang import Words
from tablelog.text import Secret
from tablelog.texts.values import readable

JA, KO, EN = Words("ja"), Words("ko"), Words("en")


@pytest.mark.parametrize(
    ("system", "field", "value", "ja"),
    [
        ("saga", "incapacitated", True, "はい"),
        ("saga", "side", "ally", "味方"),
        (
            "saga",
            "clock",
            {"turn": 4, "season": None, "levels": {"wood": 5, "fire": 0}},
            "ターン 4、季節 -、五行レベル（木 5、火 0）",
        ),
        ("saga", "traits", [], "なし"),
        ("fate", "attributes", ["fire", "earth"], "火、地"),
        ("fate", "mp_formula", "7 x 5 (anti-army A+) = 35", "7 x 5 (対軍 A+) = 35"),
        ("pf2e", "formulas", ["flaming"], "フレイミング"),
        ("magicpunk", "skills", {"swordplay": "expert"}, "swordplay エキスパート"),
    ],
)
def test_a_value_reads_in_the_glossarys_words(
    system: str, field: str, value: object, ja: str
) -> None:
    """Flags, sides, tables (nested in brackets), lists, formulas and ranks read as the
    glossary words them; a name the table made up (a skill) stays; English is the JSON."""
    assert ja == value_text(system, field, value, JA)
    assert value_text(system, field, value, EN) != "はい"


def test_a_formula_half_in_the_glossary_stays_as_recorded() -> None:
    """A formula whose words the glossary does not all have reads as the rules recorded it."""
    recorded = "2 x 2 pool tiles = 4"
    assert recorded == value_text("fate", "mp", recorded, KO)


def test_a_secret_stays_a_secret() -> None:
    """A secret among the values is read only by those who may: the others read its blur."""
    told = readable("saga", "hp", Secret(200, None, "?"))
    assert (Words("ja", sees=lambda _: False)(told), JA(told)) == ("?", "200")
