"""Did you mean: unknown names, runes, techs, cards and rule IDs suggest the closest ones; a name
that differs from a taken one only by case needs --force (CORE-NAME)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelog.refusals import closest
from tests.cli.test_names import ADD
from tests.support.cli import ok, refused


@pytest.fixture
def smithy(tmp_path: Path) -> Path:
    """A pf2e log with Valeros holding longsword-1 and Kyra holding mace-1."""
    log = tmp_path / "smithy.tlog"
    ok(log, "init", "--system", "pf2e")
    ok(log, "pf2e", "character", "add", "Valeros", "--level", "8")
    ok(log, "pf2e", "character", "add", "Kyra", "--level", "8")
    ok(log, "pf2e", "item", "add", "longsword-1", "--base", "longsword", "--owner", "Valeros")
    ok(log, "pf2e", "item", "add", "mace-1", "--base", "mace", "--owner", "Kyra")
    return log


def test_closest_prefers_same_letters_then_prefixes_then_spellings() -> None:
    """'ezren' finds Ezren (case), ezren2 (it begins so) and Ezra (close); nothing near 'Zzz'."""
    assert closest("ezren", ["Bob", "Ezra", "ezren2", "Ezren"]) == ["Ezren", "ezren2", "Ezra"]
    assert closest("Zzz", ["Ezren", "Ezra", "Bob"]) == []


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("pf2e", "formula", "add", "Valerso", "flaming"),
            "error: UNKNOWN-NAME: no character named 'Valerso'; did you mean Valeros?\n",
        ),
        (
            ("pf2e", "formula", "add", "Valeros", "flamng"),
            "error: UNKNOWN-NAME: unknown rune 'flamng' (not in the rune catalogue); did you mean "
            "flaming or fanged?\n",
        ),
        (
            ("pf2e", "item", "add", "sword-2", "--base", "longswrd"),
            "error: UNKNOWN-NAME: unknown base item 'longswrd' (not in the base item catalogue); "
            "did you mean longsword or longbow?\n",
        ),
        (
            ("state", "longsword"),
            "error: UNKNOWN-NAME: no character or item named 'longsword'; "
            "did you mean longsword-1?\n",
        ),
        (("history", "Zed"), "error: UNKNOWN-NAME: no character or item named 'Zed'\n"),
    ],
)
def test_unknown_names_suggest_the_closest(
    smithy: Path, args: tuple[str, ...], expected: str
) -> None:
    """A name the table has, a rune or a base item of the catalogue: suggested; none is close
    to 'Zed', so no suggestion. Exit 1, the log unchanged."""
    assert expected == refused(smithy, *args)


def test_a_script_line_keeps_its_number_and_hint(smithy: Path, tmp_path: Path) -> None:
    """In `run --atomic`, the refusal names the line and still suggests."""
    script = tmp_path / "s.txt"
    script.write_text("pf2e give mace-1 --to Valeros\npf2e give longsword-1 --to kyra\n")
    assert (
        refused(smithy, "run", str(script), "--atomic")
        .splitlines(True)[-1]
        .replace(str(script), "s.txt")
        == "error: UNKNOWN-NAME: s.txt line 2: no character named 'kyra'; did you mean Kyra?\n"
    )


def test_unknown_tech_suggests_ids_and_japanese_names(tmp_path: Path) -> None:
    """kiri-harei is close to kiri-harai; 斬り払 (a letter short) to 斬り払い. No log needed."""
    err = refused(tmp_path / "none.tlog", "saga", "tech", "show", "kiri-harei")
    assert err.endswith("; did you mean kiri-harai, kiai-harai or kiai-shageki?\n")
    err = refused(tmp_path / "none.tlog", "saga", "tech", "show", "斬り払")
    assert "did you mean 斬り払い" in err


def test_unknown_fate_character_without_quotes(tmp_path: Path) -> None:
    """fate names characters without quotes: Tokiomy suggests Tokiomi."""
    log = tmp_path / "war.tlog"
    ok(log, "init", "--system", "fate")
    ok(
        log,
        "fate",
        "master",
        "add",
        "Tokiomi",
        "--quality",
        "A",
        "--quantity",
        "B",
        "--crest",
        "B",
        "--attribute",
        "fire",
        "--hp",
        "40",
        "--mp",
        "40",
        "--cc-budget",
        "20",
    )
    err = refused(log, "fate", "chant", "Tokiomy")
    assert err == "error: UNKNOWN-NAME: no character named Tokiomy; did you mean Tokiomi?\n"


@pytest.mark.rule("MP-CARDS")
def test_a_card_not_in_hand_lists_the_hand(tmp_path: Path) -> None:
    """Playing 7H that Aria does not hold names where it is and what Aria holds."""
    log = tmp_path / "rest.tlog"
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
    ok(log, "magicpunk", "draw", "Aria", "2", "--cards", "AS,3C")
    err = refused(log, "magicpunk", "play", "Aria", "7H")
    assert err == (
        "error: MP-CARDS: 7H is not held by Aria (it is in the draw pile); Aria holds AS 3C\n"
    )


def test_unknown_rule_id_suggests_neighbours(tmp_path: Path) -> None:
    """PF2E-XFER-9 does not exist; the closest IDs are suggested."""
    err = refused(tmp_path / "none.tlog", "rules", "PF2E-XFER-9")
    assert err.endswith("; did you mean PF2E-XFER-8, PF2E-XFER-7 or PF2E-XFER-6?\n")


@pytest.mark.parametrize("system", sorted(ADD))
def test_a_case_twin_of_a_name_needs_force(tmp_path: Path, system: str) -> None:
    """`… add ezren` beside Ezren exits 1 with CORE-NAME naming both; with --force it is added;
    a name that differs by more than case needs nothing."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", system)

    def add(name: str, *extra: str) -> list[str]:
        return [a.format(name) if a == "{}" else a for a in ADD[system]] + list(extra)

    ok(log, *add("Ezren"))
    err = refused(log, *add("ezren"))
    assert err == (
        "error: CORE-NAME: 'ezren' differs from 'Ezren' only by case: use 'Ezren', "
        "or give --force to add 'ezren' as well\n"
    )
    assert "ezren" in ok(log, *add("ezren", "--force")).splitlines()[0]
    ok(log, *add("Ezra"))


def test_an_item_case_twin_needs_force_too(smithy: Path) -> None:
    """pf2e item add MACE-1 beside mace-1 is refused; characters and items share names."""
    err = refused(smithy, "pf2e", "item", "add", "MACE-1", "--base", "mace")
    assert err.startswith("error: CORE-NAME: 'MACE-1' differs from 'mace-1' only by case")
    refused(smithy, "pf2e", "item", "add", "valeros", "--base", "mace")
    ok(smithy, "pf2e", "item", "add", "MACE-1", "--base", "mace", "--force")
