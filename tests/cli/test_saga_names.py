"""saga names in any of the three languages (issue 27, item 2), end to end (CliRunner).

A tech, weapon type, attribute, element, stat, trait kind, target kind or no-damage reason is
accepted by its id, its Japanese word or its Korean word (tablelog/rules/data/glossary/saga.toml);
the log records the id either way, and "did you mean" suggests across the languages.
"""

from __future__ import annotations

import csv
import json
import re
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog import systems
from tablelog.cli.columns import display_width
from tablelog.cli.main import cli
from tablelog.rules import glossary
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga.damage import NO_DAMAGE_REASONS
from tablelog.rules.saga.effects import TRAIT_KINDS
from tests.support.cli import invoke, ok, refused


@pytest.fixture(autouse=True)
def _english_after():
    """``--lang`` sets the process's reader; give the next test English again."""
    yield
    CliRunner().invoke(cli, ["--lang", "en", "--help"])


def _events(log: Path, kind: str) -> list[dict]:
    lines = ok(log, "log", "--json").splitlines()
    return [e["data"] for e in map(json.loads, lines) if e["type"] == kind]


@pytest.fixture
def battle(tmp_path: Path) -> Path:
    """Gustave (1H sword, str 40) and a Wolf (vit 30, slash resistance 20)."""
    log = tmp_path / "names.tlog"
    ok(log, "init", "--system", "saga", "--title", "names")
    ok(
        log,
        "saga",
        "unit",
        "add",
        "Gustave",
        "--max-hp",
        "320",
        "--lp",
        "12",
        "--stat",
        "str=40",
        "--slv",
        "1h-sword=10",
        "--weapon",
        "1h-sword=30",
        "--resist",
        "20",
    )
    ok(log, "saga", "unit", "add", "Wolf", "--max-hp", "900", "--enemy",
       "--stat", "vit=30", "--resist", "20")  # fmt: skip
    return log


@pytest.mark.parametrize("name", ["斬り払い", "베어내기", "kiri-harai"])
def test_a_cast_takes_the_tech_by_its_japanese_or_korean_name_and_logs_the_id(battle, name):
    """斬り払い (the catalogue's) and 베어내기 (the glossary's Korean) are kiri-harai: the same
    55 damage (test_saga.py's worked example) and the id in the event."""
    ok(battle, "saga", "cast", "Gustave", name, "--target", "Wolf", "--roll", "1",
       "--situation", "instant_death=yes")  # fmt: skip
    (hit,) = _events(battle, "saga.AttackDamageDealt")
    assert (hit["tech"], hit["damage"]) == ("kiri-harai", 55)
    assert [e["tech"] for e in _events(battle, "saga.InstantDeathInflicted")] == ["kiri-harai"]


@pytest.mark.parametrize("name", ["流し斬り", "흘려베기"])
def test_a_name_two_techs_share_is_refused_naming_both_ids(battle, name):
    """流し斬り is a 2H-sword tech and a monster tech; so is its Korean word."""
    err = refused(battle, "saga", "cast", "Gustave", name, "--target", "Wolf")
    assert "UNKNOWN-NAME" in err
    assert "nagashi-kiri-1" in err and "nagashi-kiri-2" in err


@pytest.mark.parametrize(
    ("typed", "meant", "lang"), [("베어네기", "베어내기", "ko"), ("斬り払", "斬り払い", "ja")]
)
def test_did_you_mean_suggests_a_tech_in_any_language(battle, typed, meant, lang):
    err = refused(battle, "--lang", lang, "saga", "cast", "Gustave", typed, "--target", "Wolf")
    assert "UNKNOWN-NAME" in err and meant in err


def test_the_tech_vocabulary_holds_every_language():
    words = systems.get("saga").vocabulary["tech"](None)
    assert {"kiri-harai", "斬り払い", "베어내기"} <= set(words)


@pytest.mark.parametrize("name", ["強撃", "강격"])
def test_tech_show_takes_a_japanese_or_korean_name(name):
    result = CliRunner().invoke(cli, ["saga", "tech", "show", name, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["id"] == "kyou-geki"


@pytest.mark.parametrize(
    ("stat", "slv", "resist", "trait"),
    [
        ("筋=40", "片手剣=10", "斬=20", "攻撃力/斬=5"),
        ("근력=40", "한손검=10", "참=20", "공격력/참=5"),
    ],
)
def test_a_unit_sheet_takes_stats_weapon_types_attributes_and_traits_by_name(
    tmp_path, stat, slv, resist, trait
):
    log = tmp_path / "unit.tlog"
    ok(log, "init", "--system", "saga", "--title", "unit")
    ok(log, "saga", "unit", "add", "Amy", "--max-hp", "200", "--stat", stat, "--slv", slv,
       "--weapon", slv.replace("10", "30"), "--resist", resist, "--trait", trait)  # fmt: skip
    amy = json.loads(ok(log, "state", "--json"))["characters"]["Amy"]
    assert amy["stats"] == {"str": 40}
    assert (amy["slv"], amy["weapons"]) == ({"1h-sword": 10}, {"1h-sword": [30]})
    assert amy["resistances"]["slash"] == 20
    assert amy["traits"] == [{"kind": "attack", "value": 5, "on": "slash"}]


def test_a_sheet_file_takes_names_too(tmp_path):
    log = tmp_path / "sheet.tlog"
    sheet = tmp_path / "amy.json"
    sheet.write_text(
        json.dumps({"max_hp": 200, "stats": {"知": 50}, "five": {"목": 10}}), encoding="utf-8"
    )
    ok(log, "init", "--system", "saga", "--title", "sheet")
    ok(log, "saga", "unit", "add", "Amy", "--sheet", str(sheet))
    amy = json.loads(ok(log, "state", "--json"))["characters"]["Amy"]
    assert (amy["stats"], amy["five"]) == ({"int": 50}, {"wood": 10})


def test_an_unknown_stat_suggests_across_languages_in_the_readers_words(tmp_path):
    """근력 is str: a typo of the English id is answered in Korean with the Korean word."""
    log = tmp_path / "typo.tlog"
    ok(log, "init", "--system", "saga", "--title", "typo")
    result = invoke(log, "--lang", "ko", "saga", "unit", "add", "A", "--max-hp", "9",
                    "--stat", "stre=1")  # fmt: skip
    assert result.exit_code == 2
    assert "SAGA-ATK-5" in result.stderr and "근력" in result.stderr


@pytest.mark.parametrize("terrain", ["木", "목", "wood"])
def test_battle_start_takes_the_terrain_element_by_name(battle, terrain):
    ok(battle, "saga", "battle", "start", "--terrain", terrain)
    levels = json.loads(ok(battle, "state", "--json"))["clock"]["levels"]
    assert (levels["wood"], levels["earth"]) == (5, -5)
    assert [e["terrain"] for e in _events(battle, "saga.BattleStarted")] == ["wood"]


@pytest.mark.parametrize("outcome", ["回避", "회피"])
def test_a_situation_outcome_takes_the_reason_by_name(battle, outcome):
    ok(battle, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf",
       "--situation", f"outcome={outcome}")  # fmt: skip
    assert [e["reason"] for e in _events(battle, "saga.AttackAvoided")] == ["evaded"]


@pytest.mark.parametrize(
    ("weapon_type", "attribute", "element"), [("両手剣", "斬", "木"), ("양손검", "참", "목")]
)
def test_tech_add_and_calc_take_types_attributes_and_elements_by_name(
    battle, weapon_type, attribute, element
):
    ok(battle, "saga", "tech", "add", "cleave", "--power", "30", "--attack-count", "1",
       "--random-width", "5", "--weapon-type", weapon_type, "--attribute", attribute,
       "--element", element, "--dependent", "筋", "--target-kind", "敵単体")  # fmt: skip
    (tech,) = _events(battle, "saga.TechDefined")
    assert (
        tech["weapon_type"], tech["attributes"], tech["element"], tech["self_ability"],
        tech["target"],
    ) == ("2h-sword", ["slash"], "wood", "str", "single")  # fmt: skip
    calc = CliRunner().invoke(
        cli, ["saga", "calc", "--power", "30", "--weapon-type", weapon_type,
              "--attribute", attribute, "--weapon-power", "30", "--slv", "10",
              "--self-stat", "40", "--resist", f"{attribute}=20", "--json"],
    )  # fmt: skip
    assert calc.exit_code == 0, calc.output
    assert json.loads(calc.stdout)["breakdown"]["effective_attribute"] == "slash"


def test_an_unknown_choice_is_still_clicks_usage_error():
    result = CliRunner().invoke(cli, ["saga", "calc", "--power", "3", "--weapon-type", "鎌"])
    assert result.exit_code == 2


def test_the_calculator_aligns_japanese_factor_names_by_display_width():
    result = CliRunner().invoke(
        cli, ["--lang", "ja", "saga", "calc", "--power", "30", "--weapon-type", "spell",
              "--slv", "10"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("  ")]
    values = [re.match(r"  \S.*?  +(\S.*)$", line).group(1) for line in rows]
    starts = {display_width(row) - display_width(v) for row, v in zip(rows, values, strict=True)}
    assert len(starts) == 1, rows


# The glossary covers every key of every kind the saga code renders.


def _kind(table: str) -> dict:
    return glossary.entries(f"saga.{table}")


def test_the_glossary_names_every_catalogue_tech_in_japanese_and_korean():
    text = resources.files("tablelog.rules").joinpath("data", "saga_techs.csv").read_text("utf-8")
    rows = list(csv.DictReader(text.splitlines()))
    techs = _kind("tech")
    assert [r["id"] for r in rows] == list(techs)
    for row in rows:
        entry = techs[row["id"]]
        assert row["name_ja"] == entry["ja"] and entry["ko"] and entry["team"] == ["ko"]


@pytest.mark.parametrize(
    ("table", "keys"),
    [
        ("weapon_type", cat.WEAPON_TYPES),
        ("attribute", cat.ATTRIBUTES),
        ("element", cat.ELEMENTS),
        ("ability", cat.ABILITIES),
        ("trait", tuple(TRAIT_KINDS)),
        ("effect", ("tech_power", "attack", "defense", "spell")),
        ("side", ("ally", "enemy")),
        (
            "target",
            (
                "single",
                "all",
                "random-multi",
                "area-back",
                "self",
                "ally",
                "ally-other",
                "ally-all",
            ),
        ),  # fmt: skip
        ("no_damage", (*NO_DAMAGE_REASONS, "power 0")),
        ("heal", ("drain",)),
        ("season", ("spring", "summer", "doyo", "autumn", "winter")),
    ],
)
def test_the_glossary_covers_every_key_of_a_kind(table, keys):
    entries = _kind(table)
    assert [k for k in keys if not (entries.get(k, {}).get("ja") and entries[k].get("ko"))] == []


def test_the_glossary_names_every_breakdown_factor(battle):
    """Every factor a hit and a poison tick record has a Japanese and a Korean name."""
    ok(battle, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf",
       "--situation", "guard=yes", "--situation", "defending=yes")  # fmt: skip
    ok(battle, "saga", "poison", "Gustave")
    keys = {
        k
        for kind in ("saga.AttackDamageDealt", "saga.PoisonDamageTaken")
        for e in _events(battle, kind)
        for k in e["breakdown"]
    }
    entries = _kind("breakdown")
    assert sorted(k for k in keys if not (entries.get(k, {}).get("ja"))) == []
    assert glossary.word("saga.breakdown", "base_power", "ja") == "基礎威力"
    assert glossary.word("saga.breakdown", "base_power", "ko") == "기초 위력"
