"""The magicpunk glossary (tablelog/rules/data/glossary/magicpunk.toml) covers what the code
names: every key of every kind of term the texts render, in Japanese and Korean, the seed's
Japanese names as the rarity table holds them, and a label for each state field."""

from __future__ import annotations

import typing

import pytest

from tablelog.projections.magicpunk.entities import Character, Item, Lifestyle, Spell
from tablelog.rules import glossary
from tablelog.rules.magicpunk import clock, combat, lifestyle, procurement, rebuild

KINDS: dict[str, list[str]] = {
    "ability": list(rebuild.ABILITIES),
    "rank": list(rebuild.SKILL_RANKS),
    "rest": list(clock.REST_PACKAGES),
    "briefing": list(combat.BRIEFING_PACKAGES),
    "residence": sorted(lifestyle.UNSHARABLE_RESIDENCES),
    "leisure_table": list(lifestyle.SHARED_TABLES),
    "outcome": ["success", "failure", "jackpot", "bad beat"],
    "material": list(procurement.MATERIALS),
    "quality": list(procurement.QUALITIES),
    "design": list(procurement.DESIGNS),
    "breakdown": [
        *procurement.rarity("steel", "standard").breakdown,
        "discarded",
        "drawn",
        "spell_refund_money",
        "spell_refund_spell_only",
        "converted_mj",
        "A_creation",
        "B_scenarios",
        "C_spells",
        "earlier_conversions",
        "buy_first_with",
        "ability_pool",
        "acquisitions",
    ],
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_key_has_japanese_and_korean(kind: str) -> None:
    entries = glossary.entries(f"magicpunk.{kind}")
    assert set(KINDS[kind]) <= set(entries), set(KINDS[kind]) - set(entries)
    for key in KINDS[kind]:
        for lang in ("ja", "ko"):
            assert entries[key].get(lang), (kind, key, lang)
        assert set(entries[key].get("team", [])) <= {"ja", "ko"}


def test_the_terms_the_code_renders_are_covered() -> None:
    """Every Term("magicpunk.<kind>", …) of the sources names a kind the glossary has."""
    import re
    from pathlib import Path

    import tablelog

    root = Path(tablelog.__file__).parent
    used = {
        m
        for path in root.rglob("*.py")
        for m in re.findall(r'Term\(f?"magicpunk\.(\w+|\{what\})"', path.read_text("utf-8"))
    }
    used.discard("{what}")  # procurement's rows: material, quality, design
    assert used <= set(KINDS), used - set(KINDS)
    assert set(KINDS) <= {k.partition(".")[2] for k in glossary.kinds("magicpunk")}


def test_the_rarity_rows_keep_the_seeds_japanese() -> None:
    """The glossary's Japanese row names are the seed's (procurement.NAMES_JA, 希少度決定表)."""
    for what, rows in procurement.TABLES.items():
        for row in rows:
            if row in procurement.NAMES_JA:
                assert procurement.NAMES_JA[row] == glossary.word(f"magicpunk.{what}", row, "ja")


def test_no_word_names_two_rows() -> None:
    """A word in any language resolves to one row of its kind only (key_of is unambiguous)."""
    for kind in ("material", "quality", "design", "rank", "ability"):
        seen: dict[str, str] = {}
        for key, entry in glossary.entries(f"magicpunk.{kind}").items():
            for lang in ("ja", "ko", "en"):
                word = entry.get(lang)
                if isinstance(word, str):
                    assert seen.setdefault(word, key) == key, (kind, word)


def test_names_resolve_in_every_language() -> None:
    assert procurement.resolve_row(procurement.MATERIALS, "魔殻") == "magic-shell"
    assert procurement.resolve_row(procurement.MATERIALS, "마각") == "magic-shell"
    assert procurement.resolve_row(procurement.QUALITIES, "고급") == "fine"
    assert procurement.resolve_row(procurement.DESIGNS, "絢爛") == "gorgeous"
    assert procurement.resolve_row(procurement.MATERIALS, "gold") == "gold"
    assert "expert" == rebuild.skill_rank("엑스퍼트") == rebuild.skill_rank("エキスパート")
    assert "magic" == rebuild.ability_key("魔力") == rebuild.ability_key("마력")


def test_every_state_field_has_a_label() -> None:
    """The [field] table labels every key of a character, an item, a spell and a lifestyle; in
    English the key itself, or the entry's `en` where the key is no English word (`hp_max`)."""
    fields = glossary.entries("magicpunk.field")
    for record in (Character, Item, Spell, Lifestyle):
        for key in typing.get_type_hints(record):
            assert fields.get(key, {}).get("ja") and fields[key].get("ko"), (record, key)
            assert "_" not in fields[key].get("en", key), (record, key)
