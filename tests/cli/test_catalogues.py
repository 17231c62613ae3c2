"""Catalogues a table can browse (`pf2e rune list`, `saga tech show`, `magicpunk material list`)
and the Japanese names they hold, accepted wherever an id is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.columns import display_width, table_lines
from tablelog.cli.main import cli
from tests.support.cli import ok, refused

rule = pytest.mark.rule


def run_json(*args: str) -> list[dict]:
    """Run a catalogue command with --json (no log needed) and return its list."""
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_rune_list_filters_by_usage_and_level() -> None:
    """--usage shield lists the six reinforcing runes; --max-level 3 keeps +1 potency (level 2)
    and leaves striking (level 4) out."""
    shields = run_json("pf2e", "rune", "list", "--usage", "shield")
    assert [r["id"] for r in shields] == [
        "minor-reinforcing",
        "lesser-reinforcing",
        "moderate-reinforcing",
        "greater-reinforcing",
        "major-reinforcing",
        "supreme-reinforcing",
    ]
    assert {k: shields[0][k] for k in ("level", "price_gp")} == {"level": 4, "price_gp": 75}
    low = {r["id"]: r for r in run_json("pf2e", "rune", "list", "--max-level", "3")}
    assert low["weapon-potency-1"]["price_gp"] == 35
    assert "striking" not in low
    assert all(r["level"] <= 3 for r in low.values())


@rule("PF2E-RUNE-6")
def test_rune_list_by_usage_lists_what_such_an_item_takes() -> None:
    """--usage melee-weapon lists striking (usage weapon: a melee weapon takes it) and the
    melee-only runes, not thrown-weapon ones (returning) nor armor runes; every rune listed fits
    every melee base item of the catalogue."""
    from tablelog.rules.pf2e import catalogue as cat
    from tablelog.rules.pf2e.usage import fits

    listed = {
        r["id"]: r["usage"] for r in run_json("pf2e", "rune", "list", "--usage", "melee-weapon")
    }
    assert (listed["striking"], listed["animated"]) == ("weapon", "melee-weapon")
    assert "returning" not in listed and "armor-potency-1" not in listed
    melee = [
        b for b in cat.base_items().values() if b.category == "weapon" and b.subtype == "melee"
    ]
    assert melee and all(fits(cat.runes()[rune], base) for rune in listed for base in melee)
    assert {"weapon", "weapon-without-holy", "weapon-without-unholy", "melee-weapon"} == set(
        listed.values()
    )


def test_rune_list_shows_legacy_aliases() -> None:
    """The remaster's vitalizing rune lists disrupting, the alias an etch accepts; every rune of
    the packaged catalogue is listed."""
    from tablelog.rules.pf2e import catalogue

    runes = {r["id"]: r for r in run_json("pf2e", "rune", "list")}
    assert runes["vitalizing"]["aliases"] == ["disrupting"]
    assert list(catalogue.runes()) == list(runes)


def test_rune_list_text_is_a_table(tmp_path: Path) -> None:
    """Text output: a header, one aligned line per rune, and the count."""
    shown = ok(tmp_path / "none.tlog", "pf2e", "rune", "list", "--usage", "thrown-weapon")
    lines = shown.splitlines()
    assert lines[0].split() == ["id", "name", "level", "gp", "form", "usage", "aliases"]
    from tablelog.rules.pf2e import catalogue

    weapon = {"thrown-weapon", "weapon", "weapon-without-holy", "weapon-without-unholy"}
    count = sum(r.usage in weapon for r in catalogue.runes().values())  # thrown: weapon runes too
    assert f"({count} entries)" == lines[-1]
    returning = next(line for line in lines if line.startswith("returning "))
    assert returning.index("3 ") == lines[0].index("level")  # returning: level 3, aligned


def test_an_unknown_usage_is_a_usage_error(tmp_path: Path) -> None:
    """--usage takes the catalogue's usage tokens only (exit 2, the choices listed)."""
    err = refused(tmp_path / "none.tlog", "pf2e", "rune", "list", "--usage", "sword", status=2)
    assert "'sword' is not one of" in err and "melee-weapon" in err


def test_base_list_by_category() -> None:
    """--category shield lists the four shields with their prices in gp."""
    shields = run_json("pf2e", "base", "list", "--category", "shield")
    assert {b["id"]: b["price_gp"] for b in shields} == {
        "buckler": 1,
        "wooden-shield": 1,
        "steel-shield": 2,
        "tower-shield": 10,
    }


def test_tech_list_by_weapon_type_shows_japanese_names() -> None:
    """Every spell listed is a spell; tenrai shows 天雷, its five ranks of power, 5 hits."""
    spells = {t["id"]: t for t in run_json("saga", "tech", "list", "--weapon-type", "spell")}
    assert {"spell"} == {t["weapon_type"] for t in spells.values()}
    assert spells["tenrai"]["name_ja"] == "天雷"
    assert spells["tenrai"]["power"] == [78, 80, 83, 86, 89]
    assert spells["tenrai"]["attack_count"] == 5


def test_tech_show_by_id_or_japanese_name() -> None:
    """`saga tech show 強撃` is `saga tech show kyou-geki`: power 32..36, slash and blunt."""
    by_name = CliRunner().invoke(cli, ["saga", "tech", "show", "強撃", "--json"])
    by_id = CliRunner().invoke(cli, ["saga", "tech", "show", "kyou-geki", "--json"])
    assert by_name.exit_code == 0, by_name.output
    assert by_id.stdout == by_name.stdout
    shown = json.loads(by_name.stdout)
    assert (shown["power"], shown["attributes"]) == ([32, 33, 34, 35, 36], ["slash", "blunt"])
    text = CliRunner().invoke(cli, ["saga", "tech", "show", "強撃"]).stdout
    assert text.startswith("kyou-geki 強撃\n")


def test_a_japanese_name_of_two_techs_names_both(tmp_path: Path) -> None:
    """流し斬り is two catalogue techs: exit 1, UNKNOWN-NAME naming both ids."""
    err = refused(tmp_path / "none.tlog", "saga", "tech", "show", "流し斬り")
    assert err == (
        "error: UNKNOWN-NAME: 流し斬り names 2 techs (nagashi-kiri-1, nagashi-kiri-2): "
        "give the id\n"
    )


@rule("SAGA-ATK-5")
@pytest.mark.parametrize(
    ("ja", "tech_id", "weapon"),
    [("斬り払い", "kiri-harai", "1h-sword"), ("強撃", "kyou-geki", "2h-sword")],
)
def test_cast_with_a_japanese_name_logs_the_id(
    tmp_path: Path, ja: str, tech_id: str, weapon: str
) -> None:
    """`saga cast Gustave 斬り払い` appends exactly what `saga cast Gustave kiri-harai` does;
    the issue's `saga cast Ciel 強撃` (a two-handed sword tech) logs kyou-geki."""
    logs = []
    for tech in (ja, tech_id):
        log = tmp_path / f"{len(logs)}.tlog"
        ok(log, "init", "--system", "saga", "--seed", "3")
        ok(
            log,
            "saga",
            "unit",
            "add",
            "Gustave",
            "--max-hp",
            "320",
            "--stat",
            "str=40",
            "--slv",
            f"{weapon}=10",
            "--weapon",
            f"{weapon}=30",
            "--resist",
            "20",
        )
        ok(
            log,
            "saga",
            "unit",
            "add",
            "Wolf",
            "--enemy",
            "--max-hp",
            "900",
            "--battle-rank",
            "20",
            "--intrinsic-hp",
            "150",
        )
        ok(log, "saga", "cast", "Gustave", tech, "--target", "Wolf", "--roll", "1")
        logs.append([json.loads(x)["data"] for x in ok(log, "log", "--json").splitlines()])
    assert logs[1] == logs[0]
    assert tech_id == logs[0][-1]["tech"]
    assert logs[0][-1]["damage"] > 0


@rule("MP-PROC-2")
def test_procure_takes_japanese_row_names(tmp_path: Path) -> None:
    """魔殻 (2) + 上質 (1) + 絢爛 (2) is rarity 5, as magic-shell, fine, gorgeous."""
    log = tmp_path / "m.tlog"
    ok(log, "init", "--system", "magicpunk")
    ok(
        log,
        "magicpunk",
        "character",
        "add",
        "Aria",
        "--body",
        "8",
        "--sense",
        "12",
        "--intellect",
        "10",
        "--magic",
        "10",
        "--hp",
        "26",
    )
    ja = ok(
        log,
        "magicpunk",
        "procure",
        "Aria",
        "--material",
        "魔殻",
        "--quality",
        "上質",
        "--design",
        "絢爛",
    )
    en = ok(
        log,
        "magicpunk",
        "procure",
        "Aria",
        "--material",
        "magic-shell",
        "--quality",
        "fine",
        "--design",
        "gorgeous",
    )
    assert "rarity 5: Intellect check, challenge +5" in ja
    assert ja.split(" ", 1)[1] == en.split(" ", 1)[1]


@rule("MP-PROC-2")
def test_magicpunk_lists_rarity_rows() -> None:
    """Materials 0..3 (mana-silver 魔煌銀 3), qualities -1..5, designs 0..2."""
    materials = {m["id"]: m for m in run_json("magicpunk", "material", "list")}
    assert len(materials) == 13
    assert materials["mana-silver"] == {
        "id": "mana-silver",
        "name_ja": "魔煌銀",
        "name_ko": "마황은",
        "rarity": 3,
    }
    qualities = run_json("magicpunk", "quality", "list")
    assert [q["rarity"] for q in qualities] == [-1, 0, 1, 3, 5]
    designs = {d["id"]: d["rarity"] for d in run_json("magicpunk", "design", "list")}
    assert designs == {"none": 0, "signed": 1, "beautiful": 1, "gorgeous": 2}


def test_columns_count_wide_characters_twice() -> None:
    """強撃 takes four columns, so the next column starts at the same place as after `abcd`."""
    assert display_width("強撃") == 4
    lines = table_lines(["a", "b"], [["強撃", 1], ["abcd", 2]])
    assert lines == ["a     b", "強撃  1", "abcd  2"]


def test_the_catalogue_examples_run(tmp_path: Path) -> None:
    """Every example of docs/COMMANDS.md's catalogue paragraph (the shell) runs as written: the
    `tablelog …` ones with no log, the shell lines (system implied) on the example session of
    their system (`procure Aria --material 魔殻` lacked its required --quality); the saga one
    after the session's first turn, while the Wolf still stands (SAGA-TARGET-1 refuses a tech
    at a unit that is down, as the Wolf is at the session's end)."""
    import re
    import shlex

    doc = Path(__file__).resolve().parents[2] / "docs" / "COMMANDS.md"
    text = doc.read_text(encoding="utf-8")
    paragraph = text[text.index("The catalogues can be\nbrowsed") :]
    paragraph = paragraph[: paragraph.index("\n\n")]
    examples = re.findall(r"`([^`]+)`", paragraph.replace("\n", " "))
    sessions = {"saga": ("saga-wolf-road", "# Turn 2"), "magicpunk": ("magicpunk-rest-stop", None)}
    logs = {}
    for system, (example, stop) in sessions.items():
        logs[system] = tmp_path / f"{system}.tlog"
        script = Path(__file__).resolve().parents[2] / "examples" / f"{example}.txt"
        if stop is not None:
            text = script.read_text(encoding="utf-8")
            script = tmp_path / f"{example}.txt"
            script.write_text(text[: text.index(stop)], encoding="utf-8")
        ok(logs[system], "run", str(script))
    implied = {"procure": "magicpunk", "saga": "saga"}
    assert len(examples) == 6
    for text in examples:
        words = shlex.split(text)
        if words[0] == "tablelog":
            assert CliRunner().invoke(cli, words[1:]).exit_code == 0, text
            continue
        system = implied[words[0]]
        argv = words if words[0] == system else [system, *words]
        ok(logs[system], *argv, "--dry-run")


def test_help_in_one_language_then_another_in_one_process(tmp_path: Path) -> None:
    """The shell or a server speaks several languages in one process: `--help` in Korean, then
    in English, says "Show this message and exit." (click makes its --help option once; it was
    once left in the words first spoken)."""
    from click.testing import CliRunner

    from tablelog.cli.main import cli

    log = str(tmp_path / "h.tlog")
    korean = CliRunner().invoke(cli, ["--log", log, "--lang", "ko", "roll", "--help"]).output
    english = CliRunner().invoke(cli, ["--log", log, "--lang", "en", "roll", "--help"]).output
    assert "이 메시지를 표시하고 종료" in korean
    assert "Show this message and exit." in english and "종료" not in english
