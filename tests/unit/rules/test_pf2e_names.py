"""A runed item's name in English, Japanese and Korean (tablelog/rules/pf2e/names.py), and the
pf2e glossary's coverage of every term the code names (tablelog/rules/data/glossary/pf2e.toml)."""

from __future__ import annotations

import itertools
import typing

import pytest

from tablelog.rules import glossary
from tablelog.rules.pf2e import catalogue, crafting, items, names, usage
from tablelog.rules.pf2e.names import NameParts
from tablelog.text import Shown

rule = pytest.mark.rule


def _samples() -> list[tuple[str, tuple[str, ...]]]:
    """(base id, runes) for every base item with a few rune sets each (fitting or not: the name
    is a function of the ids)."""
    weapon = [
        (),
        ("weapon-potency-1",),
        ("weapon-potency-2", "greater-striking", "flaming", "ghost-touch"),
        ("weapon-potency-1", "flaming", "frost"),  # frost dormant
        ("major-striking", "weapon-potency-3", "bolkas-blessing", "kin-warding", "speed"),
    ]
    armor = [
        ("armor-potency-2", "greater-resilient", "fire-resistant"),
        ("armor-potency-1", "sinister-knight", "greater-swallow-spike"),
        ("resilient",),
    ]
    shield = [("minor-reinforcing",), ("supreme-reinforcing",)]
    stone = [("frost",), ("greater-giant-killing",)]
    sets = {"weapon": weapon, "armor": armor, "shield": shield, "runestone": stone}
    return [(b.id, ids) for b in catalogue.base_items().values() for ids in [(), *sets[b.category]]]


@rule("PF2E-RUNE-3")
@pytest.mark.parametrize(("base", "ids"), _samples())
def test_parts_make_the_english_name_and_read_back_from_it(base: str, ids: tuple[str, ...]) -> None:
    """The parts make exactly the name the events record, and the name reads back into them."""
    item = catalogue.base_items()[base]
    parts = names.name_parts(item, ids)
    assert items.item_name(item, ids) == names.english_name(parts)
    assert parts == names.parse_name(items.item_name(item, ids))


@rule("PF2E-RUNE-3")
def test_the_seeds_examples_in_japanese_and_korean() -> None:
    """seeds/pf2e-runes.ja.txt, ルーン: ＋1ロングソード, ＋2グレーター・リジリアント・ファイアー・
    レジスタント・チェイン・メイル, ＋1ストライキング・メイス; Korean as its Foundry translation."""
    chain = NameParts(2, ("greater-resilient", "fire-resistant"), "chain-mail")
    assert (
        names.localized(chain, "ja")
        == "＋2グレーター・リジリアント・ファイアー・レジスタント・チェイン・メイル"
    )
    assert names.localized(chain, "ko") == "+2 상급 저항성 내화성 체인 메일"
    assert names.localized(NameParts(1, (), "longsword"), "ja") == "＋1ロングソード"
    assert names.localized(NameParts(1, ("striking",), "mace"), "ja") == "＋1ストライキング・メイス"
    assert names.localized(NameParts(1, (), "longsword"), "ko") == "+1 롱소드"
    assert (
        names.localized(NameParts(0, ("frost",), "runestone"), "ja") == "フロスト・ルーンストーン"
    )
    assert names.localized(NameParts(1, (), "longsword"), "en") is None


def test_a_name_the_catalogue_does_not_make_shows_as_recorded() -> None:
    """A recorded name read back with other words (an old catalogue's) is shown as it is; so is
    a record without a base item (a character)."""
    assert names.text_name("+1 vorpal shinai") == "+1 vorpal shinai"
    assert names.text_name("+1 sharpness longsword") == "+1 sharpness longsword"
    assert None is names.record_name({"level": 3})
    shown = names.record_name({"base": "longsword", "name": "+1 longsword", "runes": []})
    assert isinstance(shown, Shown)  # runes that no longer make the name: read back from it
    assert shown.value == (1, (), "longsword")


def test_a_word_missing_from_a_glossary_shows_the_recorded_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No language shows a name half in English: a missing word means the recorded name."""
    real = glossary.entries

    def without_mace(kind: str) -> dict[str, dict[str, typing.Any]]:
        found = dict(real(kind))
        found.pop("mace", None)
        return found

    monkeypatch.setattr(glossary, "entries", without_mace)
    assert names.localized(NameParts(1, ("striking",), "mace"), "ja") is None


# -- the glossary ------------------------------------------------------------------------------


def _keys(table: str) -> set[str]:
    return set(glossary.entries(f"pf2e.{table}"))


def _every_entry_has_both_languages(table: str) -> None:
    for key, entry in glossary.entries(f"pf2e.{table}").items():
        assert entry.get("ja") and entry.get("ko"), f"{table}.{key}"
        assert "ko" in entry.get("team", []), f"{table}.{key}: Korean is the team's translation"


@pytest.mark.parametrize(
    ("table", "wanted"),
    [
        ("rune", {n for r in catalogue.runes().values() for n in (r.id, *r.aliases)}),
        ("base_item", set(catalogue.base_items())),
        ("base_item_name", {b.name for b in catalogue.base_items().values()}),
        ("rank", {"untrained", *crafting.RANKS}),
        ("form", {r.form for r in catalogue.runes().values()}),
        ("category", {b.category for b in catalogue.base_items().values()}),
        ("family", {r.family for r in catalogue.runes().values() if r.is_fundamental}),
        ("usage", set(usage.USAGE_TESTS)),
        ("subtype", {b.subtype for b in catalogue.base_items().values() if b.subtype}),
        (
            "armor_category",
            {b.armor_category for b in catalogue.base_items().values() if b.armor_category},
        ),
        ("damage_type", {d for b in catalogue.base_items().values() for d in b.damage_types}),
        ("trait", {t for b in catalogue.base_items().values() for t in b.traits}),
    ],
)
def test_the_glossary_names_every_term_in_japanese_and_korean(table: str, wanted: set[str]) -> None:
    """Every key the catalogues and the rules can name has a Japanese and a Korean word."""
    assert wanted <= _keys(table)
    _every_entry_has_both_languages(table)


def test_the_glossary_labels_every_state_field() -> None:
    """``[field]`` labels every key of a character's and an item's record a person reads."""
    from tablelog.projections.pf2e.entities import Character, Etching, Item

    fields = {
        key
        for record in (Character, Item, Etching)
        for key in typing.get_type_hints(record)
        if not key.startswith("_")
    }
    assert fields <= _keys("field")
    _every_entry_has_both_languages("field")


def test_the_seeds_words_are_the_japanese_ones() -> None:
    """The seed's spellings, never the fan module's where the seed gives one."""
    ja = {k: e["ja"] for k, e in glossary.entries("pf2e.rune").items()}
    assert ja["striking"] == "ストライキング"
    assert ja["resilient"] == "リジリアント"
    assert ja["greater-resilient"] == "グレーター・リジリアント"
    assert ja["fire-resistant"] == "ファイアー・レジスタント"
    assert ja["weapon-potency-1"] == "＋1ウェポン・ポテンシィ"
    assert ja["minor-reinforcing"] == "マイナー・リーンフォーシング"
    assert ja["disrupting"] == "ディスラプティング"
    assert glossary.word("pf2e.base_item", "explorers-clothing", "ja") == "探検家の服"


@pytest.mark.parametrize("table", ["rune", "base_item"])
@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_no_two_keys_share_a_word(table: str, lang: str) -> None:
    """A word names one id (key_of would take the first)."""
    words = [e[lang] for e in glossary.entries(f"pf2e.{table}").values()]
    assert [w for w, n in itertools.groupby(sorted(words)) if len(list(n)) > 1] == []


def test_every_japanese_and_korean_word_resolves_to_its_rune() -> None:
    """resolve_rune takes any language's word (a legacy alias's word: the rune it names)."""
    for key, entry in glossary.entries("pf2e.rune").items():
        want = catalogue.resolve_rune(key)
        assert want is not None, key
        assert want == catalogue.resolve_rune(entry["ja"]) == catalogue.resolve_rune(entry["ko"])
    for key, entry in glossary.entries("pf2e.base_item").items():
        assert key == catalogue.base_item(entry["ja"]).id == catalogue.base_item(entry["ko"]).id
