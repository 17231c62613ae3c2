"""pf2e in Japanese and Korean (issue 27, items 2 and 3), end to end (CliRunner).

Generated item names follow each language's rule: Japanese the seed's order and form
(``＋1ロングソード``, ``＋2グレーター・リジリアント・ファイアー・レジスタント・チェイン・メイル``,
``＋1ストライキング・メイス``: seeds/pf2e-runes.ja.txt, ルーン), Korean the Korean Foundry VTT
translation's (``+1 롱소드``); English stays exactly as recorded, and the log and the JSON never
change with the language. Rune and base item names in any of the three languages are accepted
wherever an id is, and "did you mean" suggests across them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tablelog.cli.main import cli
from tests.support.cli import ok

rule = pytest.mark.rule

SEED_JA_LONGSWORD = "＋1ロングソード"
SEED_JA_CHAIN_MAIL = "＋2グレーター・リジリアント・ファイアー・レジスタント・チェイン・メイル"
SEED_JA_MACE = "＋1ストライキング・メイス"

SETUP = [
    ("character", "add", "Valeros", "--level", "14", "--crafting", "master"),
    *(
        ("formula", "add", "Valeros", r)
        for r in (
            "weapon-potency-1",
            "striking",
            "armor-potency-1",
            "armor-potency-2",
            "resilient",
            "greater-resilient",
            "fire-resistant",
            "flaming",
        )
    ),
    ("item", "add", "longsword-1", "--base", "longsword", "--owner", "Valeros"),
    ("item", "add", "mace-1", "--base", "mace", "--owner", "Valeros"),
    ("item", "add", "chain-1", "--base", "chain-mail", "--owner", "Valeros"),
    ("etch", "longsword-1", "weapon-potency-1", "--by", "Valeros"),
    ("etch", "mace-1", "weapon-potency-1", "--by", "Valeros"),
    ("etch", "mace-1", "striking", "--by", "Valeros"),
    ("etch", "chain-1", "armor-potency-2", "--by", "Valeros"),
    ("etch", "chain-1", "greater-resilient", "--by", "Valeros"),
    ("etch", "chain-1", "fire-resistant", "--by", "Valeros"),
]


def run(lang: str, log: Path, *args: str) -> Result:
    """``tablelog --lang LANG --log LOG ARGS…``."""
    return CliRunner().invoke(cli, ["--lang", lang, "--log", str(log), *args])


def said(lang: str, log: Path, *args: str) -> str:
    result = run(lang, log, *args)
    assert result.exit_code == 0, f"{args}: exit {result.exit_code}\n{result.output}"
    return result.stdout


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    """The reader's language is the process's: the next test reads English again."""
    yield
    CliRunner().invoke(cli, ["--lang", "en", "pf2e", "--help"])


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """Valeros (master crafter) holds the seed's three items: a +1 longsword, a +1 striking
    mace and a +2 greater resilient fire-resistant chain mail."""
    path = tmp_path / "smithy.tlog"
    ok(path, "init", "--system", "pf2e", "--seed", "1")
    for args in SETUP:
        ok(path, "pf2e", *args)
    return path


NAME_FIELD = {"en": "name", "ja": "名前", "ko": "이름"}
"""The ``name`` field's label in each language (glossary/pf2e.toml, ``[field.name]``)."""


def _names(lang: str, log: Path) -> dict[str, str]:
    """The ``name:`` line of each item as ``state ITEM`` shows it in ``lang``."""
    found = {}
    head = f"  {NAME_FIELD[lang]}: "
    for item in ("longsword-1", "mace-1", "chain-1"):
        lines = said(lang, log, "state", item).splitlines()
        found[item] = next(line for line in lines if line.startswith(head))[len(head) :]
    return found


@rule("PF2E-RUNE-3")
def test_japanese_names_follow_the_seeds_order_and_form(log: Path) -> None:
    """The seed's own examples: potency as fullwidth ＋N, then the other fundamental runes, the
    property runes and the base item, joined with ・."""
    assert _names("ja", log) == {
        "longsword-1": SEED_JA_LONGSWORD,
        "mace-1": SEED_JA_MACE,
        "chain-1": SEED_JA_CHAIN_MAIL,
    }


@rule("PF2E-RUNE-3")
def test_korean_names_are_the_korean_foundry_translations_form(log: Path) -> None:
    """+N, then the runes and the base item, space-separated (the Korean Foundry VTT pf2e
    translation's PF2E.Item.Physical.GeneratedName templates)."""
    assert _names("ko", log) == {
        "longsword-1": "+1 롱소드",
        "mace-1": "+1 스트라이킹 메이스",
        "chain-1": "+2 상급 저항성 내화성 체인 메일",
    }


@rule("PF2E-RUNE-3")
def test_english_stays_as_recorded_and_json_never_changes(log: Path) -> None:
    """English shows the recorded name; ``state --json`` is the same in every language."""
    assert _names("en", log) == {
        "longsword-1": "+1 longsword",
        "mace-1": "+1 striking mace",
        "chain-1": "+2 greater resilient fire-resistant chain mail",
    }
    english = json.loads(said("en", log, "state", "--json"))
    for lang in ("ja", "ko"):
        assert english == json.loads(said(lang, log, "state", "--json"))
    assert english["items"]["chain-1"]["name"] == "+2 greater resilient fire-resistant chain mail"


@rule("PF2E-RUNE-3")
def test_a_commands_change_lines_and_status_show_the_readers_name(log: Path) -> None:
    """The etch's change line names the item before and after in Japanese; the log records the
    English name; ``status`` shows each language's."""
    lines = said("ja", log, "pf2e", "etch", "longsword-1", "striking", "--by", "Valeros")
    (line,) = [line for line in lines.splitlines() if "longsword-1" in line and " -> ＋" in line]
    assert line.endswith(f": {SEED_JA_LONGSWORD} -> ＋1ストライキング・ロングソード")
    recorded = json.loads(said("ja", log, "log", "--json").splitlines()[-1])
    assert recorded["data"]["sheet"]["name"] == "+1 striking longsword"
    board = said("ko", log, "status")
    assert "+2 상급 저항성 내화성 체인 메일" in board
    assert "+1 striking longsword" in said("en", log, "status")


def test_a_history_in_japanese_names_the_item_in_japanese(log: Path) -> None:
    """``history`` shows each name change in the reader's words."""
    lines = said("ja", log, "history", "chain-1").splitlines()
    assert any(
        line.endswith(f": ＋2グレーター・リジリアント・チェイン・メイル -> {SEED_JA_CHAIN_MAIL}")
        for line in lines
    )


@rule("PF2E-INVEST-1")
def test_a_refusal_names_the_item_in_the_readers_words(log: Path) -> None:
    """PF2E-INVEST-1's ``ITEM (NAME)`` is the reader's name of the item."""
    result = run("ja", log, "pf2e", "invest", "longsword-1", "--by", "Valeros")
    assert result.exit_code == 1
    assert "PF2E-INVEST-1" in result.stderr and SEED_JA_LONGSWORD in result.stderr
    result = run("ko", log, "pf2e", "invest", "longsword-1", "--by", "Valeros")
    assert "+1 롱소드" in result.stderr and "+1 longsword" not in result.stderr


@rule("PF2E-ETCH-1")
def test_rune_and_base_item_names_in_japanese_and_korean_are_accepted(log: Path) -> None:
    """A Japanese rune (the seed's spelling), a Korean rune and base item, and the seed's
    Japanese legacy name (ディスラプティング, now vitalizing) name the catalogue's ids."""
    said("en", log, "pf2e", "formula", "add", "Valeros", "ヴァイタライジング")
    said("en", log, "pf2e", "item", "add", "mace-2", "--base", "메이스", "--owner", "Valeros")
    said("en", log, "pf2e", "etch", "mace-2", "＋1ウェポン・ポテンシィ", "--by", "Valeros")
    said("en", log, "pf2e", "etch", "mace-2", "ディスラプティング", "--by", "Valeros")
    said("en", log, "pf2e", "etch", "longsword-1", "화염", "--by", "Valeros")
    said("en", log, "pf2e", "item", "add", "sword-2", "--base", "ロングソード")
    recorded = [json.loads(line) for line in said("en", log, "log", "--json").splitlines()]
    assert [r["data"]["rune"] for r in recorded if "rune" in r["data"]][-4:] == [
        "vitalizing",
        "weapon-potency-1",
        "vitalizing",
        "flaming",
    ]
    assert [r["data"]["base"] for r in recorded if "base" in r["data"]][-2:] == [
        "mace",
        "longsword",
    ]
    assert json.loads(said("ja", log, "state", "mace-2", "--json"))["name"] == "+1 vitalizing mace"


def test_did_you_mean_suggests_across_the_languages(log: Path) -> None:
    """An unknown rune or base item is answered with the closest names in any language."""
    result = run("ja", log, "pf2e", "etch", "longsword-1", "フレイミン", "--by", "Valeros")
    assert result.exit_code == 1
    assert "UNKNOWN-NAME" in result.stderr and "フレイミング" in result.stderr
    result = run("ko", log, "pf2e", "item", "add", "sword-3", "--base", "롱소")
    assert result.exit_code == 1
    assert "롱소드" in result.stderr
    result = run("en", log, "pf2e", "item", "add", "mail-2", "--base", "chain mai")
    assert result.exit_code == 1
    assert "chain mail" in result.stderr  # the base item's English name, not only its id


def test_the_rune_list_names_runes_in_the_readers_words(log: Path) -> None:
    """``rune list`` shows the glossary's names; its JSON the catalogue's."""
    listed = said("ja", log, "pf2e", "rune", "list", "--usage", "shield")
    assert "マイナー・リーンフォーシング" in listed
    rows = json.loads(said("ja", log, "pf2e", "rune", "list", "--usage", "shield", "--json"))
    assert rows[0]["name"] == "minor reinforcing"


def test_transfer_swap_and_activate_take_names_in_any_language(log: Path) -> None:
    """A transfer's RUNE and --swap, and activate's RUNE, in Japanese and Korean: the log
    records the ids."""
    said("en", log, "pf2e", "formula", "add", "Valeros", "frost")
    stone = ("stone-1", "--base", "ルーンストーン", "--owner", "Valeros")
    said("en", log, "pf2e", "item", "add", *stone)
    said("en", log, "pf2e", "etch", "stone-1", "서리", "--by", "Valeros")
    said("en", log, "pf2e", "etch", "longsword-1", "フレイミング", "--by", "Valeros")
    moves = ("--from", "stone-1", "--to", "mace-1", "--by", "Valeros")
    said("ko", log, "pf2e", "transfer", "フロスト", *moves)
    swaps = ("--from", "longsword-1", "--to", "mace-1", "--by", "Valeros", "--swap", "フロスト")
    said("ja", log, "pf2e", "transfer", "화염", *swaps)
    said("ja", log, "pf2e", "activate", "longsword-1", "서리", "--by", "Valeros")
    recorded = [json.loads(line) for line in said("en", log, "log", "--json").splitlines()]
    moved = [r["data"] for r in recorded if r["type"] == "pf2e.RuneTransferred"]
    assert [(m["rune"], m["swap"]) for m in moved] == [("frost", None), ("flaming", "frost")]
    assert recorded[-1]["data"]["rune"] == "frost"
    items = json.loads(said("en", log, "state", "--json"))["items"]
    assert items["longsword-1"]["name"] == "+1 frost longsword"
    assert items["mace-1"]["name"] == "+1 striking flaming mace"


def test_ranks_usages_and_categories_are_taken_in_any_language(log: Path) -> None:
    """--crafting マスター / 통달 is master; rune list --usage and base list --category take the
    glossary's words."""
    said("en", log, "pf2e", "character", "add", "Kyra", "--crafting", "マスター")
    said("en", log, "pf2e", "character", "add", "Ezren", "--crafting", "전설")
    folded = json.loads(said("en", log, "state", "--json"))["characters"]
    assert (folded["Kyra"]["crafting"], folded["Ezren"]["crafting"]) == ("master", "legendary")
    shields = json.loads(said("en", log, "pf2e", "rune", "list", "--usage", "盾", "--json"))
    assert shields == json.loads(
        said("en", log, "pf2e", "rune", "list", "--usage", "shield", "--json")
    )
    bases = json.loads(said("en", log, "pf2e", "base", "list", "--category", "방패", "--json"))
    assert bases and {"shield"} == {b["category"] for b in bases}
    result = run("en", log, "pf2e", "character", "add", "Seoni", "--crafting", "名人")
    assert result.exit_code == 2
