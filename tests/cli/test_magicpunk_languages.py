"""Magic Punk's ids in any of the three languages (issue 27, "The games' own words"): the rarity
table's rows, the skill ranks and the abilities of ``--immature`` are accepted by their id, the
seed's Japanese name or the glossary's Korean one, and "did you mean" suggests across them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import ok, refused

rule = pytest.mark.rule

ARIA = ("--body", "8", "--sense", "12", "--intellect", "10", "--magic", "10", "--hp", "26")


def table(tmp_path: Path) -> Path:
    """A magicpunk log with Aria."""
    log = tmp_path / "m.tlog"
    ok(log, "init", "--system", "magicpunk")
    ok(log, "magicpunk", "character", "add", "Aria", *ARIA)
    return log


def procured(log: Path, material: str, quality: str, design: str) -> dict:
    """The data of the ProcurementAssessed event `procure` records."""
    line = ok(
        log,
        "magicpunk",
        "procure",
        "Aria",
        "--material",
        material,
        "--quality",
        quality,
        "--design",
        design,
        "--json",
    )
    event = json.loads(line)
    assert event["type"] == "magicpunk.ProcurementAssessed"
    data: dict = event["data"]
    return data


@rule("MP-PROC-2")
@pytest.mark.parametrize(
    ("material", "quality", "design"),
    [
        ("魔殻", "上質", "絢爛"),
        ("마각", "고급", "화려"),
        ("ＭＡＧＩＣ-ＳＨＥＬＬ", "Fine", "gorgeous"),
    ],
    ids=["japanese", "korean", "wide-and-cased"],
)
def test_procure_takes_row_names_in_any_language(
    tmp_path: Path, material: str, quality: str, design: str
) -> None:
    """魔殻 / 마각 (2) + 上質 / 고급 (1) + 絢爛 / 화려 (2): rarity 5, the same event as
    magic-shell, fine, gorgeous."""
    log = table(tmp_path)
    english = procured(log, "magic-shell", "fine", "gorgeous")
    given = procured(log, material, quality, design)
    assert 5 == given["rarity"] == english["rarity"]
    assert english["breakdown"] == given["breakdown"]
    assert given["rows"] == {"material": "magic-shell", "quality": "fine", "design": "gorgeous"}
    assert given["rows"] == english["rows"]


@rule("MP-PROC-2")
@pytest.mark.parametrize(
    ("lang", "rows"),
    [
        ("en", ["material = magic-shell (2)", "quality = fine (1)", "design = gorgeous (2)"]),
        ("ja", ["素材パーツ = 魔殻（2）", "クオリティ = 上質（1）", "デザイン = 絢爛（2）"]),
        ("ko", ["소재 파츠 = 마각 (2)", "퀄리티 = 고급 (1)", "디자인 = 화려 (2)"]),
    ],
)
def test_a_procurement_audit_names_the_rows_chosen(
    tmp_path: Path, lang: str, rows: list[str]
) -> None:
    """The audit of a procurement (history) names the material, quality and design chosen,
    each in the reader's language with the rarity it adds, not only ``material = 2``."""
    log = table(tmp_path)
    procured(log, "魔殻", "fine", "화려")
    audit = ok(log, "--lang", lang, "history", "Aria")
    for row in rows:
        assert f"· {row}\n" in audit, audit


@rule("MP-PROC-2")
@pytest.mark.parametrize(
    ("given", "meant"),
    [("魔煌", "魔煌銀"), ("마황", "마황은"), ("mana-silvr", "mana-silver")],
    ids=["japanese", "korean", "english"],
)
def test_an_unknown_row_suggests_rows_in_its_language(
    tmp_path: Path, given: str, meant: str
) -> None:
    """A material the table lacks is a usage error naming MP-PROC-2 and the closest rows, in
    the language typed (the declaration's vocabulary holds every language's names)."""
    log = table(tmp_path)
    err = refused(
        log, "magicpunk", "procure", "Aria", "--material", given, "--quality", "fine", status=2
    )
    assert "MP-PROC-2" in err
    assert meant in err.rsplit(";", 1)[-1]


@rule("MP-REBUILD-5")
def test_skill_ranks_in_japanese_and_korean(tmp_path: Path) -> None:
    """エキスパート is expert, 노비스 is novice: the record holds the ids; a near miss in
    Japanese suggests the Japanese rank."""
    log = table(tmp_path)
    ok(
        log,
        "magicpunk",
        "character",
        "add",
        "Bram",
        *ARIA,
        "--skill",
        "swordplay=エキスパート",
        "--skill",
        "stealth=노비스",
    )
    bram = json.loads(ok(log, "state", "--json"))["characters"]["Bram"]
    assert bram["skills"] == {"swordplay": "expert", "stealth": "novice"}
    err = refused(
        log, "magicpunk", "character", "add", "Cole", *ARIA, "--skill", "a=エキスパ", status=2
    )
    assert "MP-REBUILD-5" in err and "エキスパート" in err.rsplit(";", 1)[-1]
    err = refused(
        log, "magicpunk", "character", "add", "Cole", *ARIA, "--skill", "a=마스", status=2
    )
    assert "마스터" in err.rsplit(";", 1)[-1]


@rule("MP-REBUILD-3")
@pytest.mark.parametrize("ability", ["身体", "【身体】", "신체", "body"])
def test_immature_takes_the_ability_in_any_language(tmp_path: Path, ability: str) -> None:
    """--immature 身体=2 (or 신체=2) lowers Body's minimum as body=2 does: Body 3 is then a
    valid rebuild, refused without it."""
    log = table(tmp_path)
    rebuilt = ("--body", "3", "--sense", "13", "--intellect", "12", "--magic", "12")
    refused(log, "magicpunk", "rebuild", "Aria", *rebuilt)
    ok(log, "magicpunk", "rebuild", "Aria", *rebuilt, "--immature", f"{ability}=2")
    assert json.loads(ok(log, "state", "--json"))["characters"]["Aria"]["body"] == 3


def test_immature_refuses_one_ability_twice(tmp_path: Path) -> None:
    """body=2 and 身体=1 name the same ability: a usage error, not the last one winning."""
    log = table(tmp_path)
    err = refused(
        log,
        "magicpunk",
        "rebuild",
        "Aria",
        "--spells",
        "--immature",
        "body=2",
        "--immature",
        "身体=1",
        status=2,
    )
    assert "--immature" in err and "body" in err


@rule("MP-PROC-2")
def test_rarity_lists_hold_the_korean_names() -> None:
    """`material list` gives each row's Korean name beside the seed's Japanese one, and the text
    form has a column for each."""
    from click.testing import CliRunner

    from tablelog.cli.main import cli

    result = CliRunner().invoke(cli, ["magicpunk", "quality", "list", "--json"])
    fine = {q["id"]: q for q in json.loads(result.stdout)}["fine"]
    assert fine == {"id": "fine", "name_ja": "上質", "name_ko": "고급", "rarity": 1}
    text = CliRunner().invoke(cli, ["magicpunk", "material", "list"]).stdout
    assert "魔殻" in text and "마각" in text
