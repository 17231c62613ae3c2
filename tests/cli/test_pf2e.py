"""`tablelog pf2e …` end to end (CliRunner): output lines, refusals, the log left untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import invoke, ok, refused

rule = pytest.mark.rule

SETUP = [
    ("character", "add", "Valeros", "--level", "14"),
    ("character", "add", "Kyra", "--level", "8"),
    *(
        ("formula", "add", "Valeros", r)
        for r in ("weapon-potency-1", "flaming", "frost", "striking", "animated", "armor-potency-1")
    ),
    ("formula", "add", "Kyra", "animated"),
    ("item", "add", "longsword-1", "--base", "longsword", "--owner", "Valeros"),
    ("item", "add", "bow-1", "--base", "longbow", "--owner", "Valeros"),
    ("item", "add", "mace-1", "--base", "mace", "--owner", "Kyra"),
    ("item", "add", "stone-1", "--base", "runestone", "--owner", "Valeros"),
    ("etch", "longsword-1", "weapon-potency-1", "--by", "Valeros"),
    ("etch", "bow-1", "weapon-potency-1", "--by", "Valeros"),
    ("etch", "bow-1", "frost", "--by", "Valeros"),
]
NEXT = len(SETUP) + 1


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A pf2e log: Valeros (14) holds a +1 longsword, a +1 frost longbow and a runestone."""
    path = tmp_path / "smithy.tlog"
    ok(path, "init", "--system", "pf2e", "--seed", "1")
    for args in SETUP:
        ok(path, "pf2e", *args)
    return path


def state(log: Path, name: str) -> dict:
    return json.loads(ok(log, "state", name, "--json"))


def last_event(log: Path) -> dict:
    return json.loads(ok(log, "log", "--json").splitlines()[-1])


@rule("PF2E-ETCH-1")
@rule("PF2E-RUNE-3")
def test_etch_prints_event_line_and_changes(log: Path) -> None:
    """An etch prints `#N pf2e.RuneEtched flaming -> longsword-1 (level 8, 500 gp)` and changes."""
    lines = ok(log, "pf2e", "etch", "longsword-1", "flaming", "--by", "Valeros").splitlines()
    assert f"#{NEXT} pf2e.RuneEtched flaming -> longsword-1 (level 8, 500 gp)" == lines[0]
    assert {
        "    characters.Valeros.spent_gp: 570 -> 1070",
        "    items.longsword-1.name: +1 longsword -> +1 flaming longsword",
        "    items.longsword-1.price_gp: 35 -> 535",
    } <= set(lines[1:])


def test_dry_run_shows_and_appends_nothing(log: Path) -> None:
    """--dry-run prints the event it would append and leaves the log byte-for-byte unchanged."""
    before = log.read_bytes()
    out = ok(log, "pf2e", "etch", "longsword-1", "flaming", "--by", "Valeros", "--dry-run")
    assert ("dry run: nothing appended", before) == (out.splitlines()[0], log.read_bytes())


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            ("etch", "longsword-1", "flaming", "--by", "Seoni"),
            "UNKNOWN-NAME: no character named 'Seoni'\n",
        ),
        pytest.param(
            ("etch", "axe-1", "flaming", "--by", "Valeros"),
            "UNKNOWN-NAME: no item named 'axe-1'; did you mean mace-1?\n",
        ),
        pytest.param(
            ("etch", "longsword-1", "sharpness", "--by", "Valeros"),
            "UNKNOWN-NAME: unknown rune 'sharpness' (not in the rune catalogue)\n",
        ),
        pytest.param(
            ("formula", "add", "Bob", "flaming"), "UNKNOWN-NAME: no character named 'Bob'\n"
        ),
        pytest.param(
            ("item", "add", "axe-1", "--base", "greataxe"),
            "UNKNOWN-NAME: unknown base item 'greataxe'",
        ),
        pytest.param(
            ("etch", "bow-1", "animated", "--by", "Valeros"),
            "PF2E-RUNE-6: animated needs usage melee-weapon; longbow",
            marks=rule("PF2E-RUNE-6"),
        ),
        pytest.param(
            ("etch", "bow-1", "flaming", "--by", "Valeros"),
            "PF2E-RUNE-2: bow-1 has potency +1 and its one property slot holds frost: "
            "no slot for flaming\n",
            marks=rule("PF2E-RUNE-2"),
        ),
        pytest.param(
            (
                "transfer",
                "weapon-potency-1",
                "--from",
                "longsword-1",
                "--to",
                "bow-1",
                "--swap",
                "frost",
                "--by",
                "Valeros",
            ),
            "PF2E-XFER-2: cannot swap weapon-potency-1 (fundamental) with frost (property)",
            marks=rule("PF2E-XFER-2"),
        ),
        pytest.param(
            ("etch", "mace-1", "striking", "--by", "Valeros"),
            "PF2E-ETCH-1: Valeros does not hold mace-1 (held by Kyra)",
            marks=rule("PF2E-ETCH-1"),
        ),
        pytest.param(
            ("etch", "longsword-1", "shock", "--by", "Valeros"),
            "PF2E-ETCH-1: Valeros has no formula for shock",
            marks=rule("PF2E-ETCH-1"),
        ),
        pytest.param(
            ("etch", "mace-1", "animated", "--by", "Kyra"),
            "PF2E-ETCH-1: Kyra is level 8, below animated's level 13",
            marks=rule("PF2E-ETCH-1"),
        ),
        pytest.param(
            ("etch", "longsword-1", "weapon-potency-1", "--by", "Valeros"),
            "PF2E-FUND-1: longsword-1 already has weapon-potency-1",
            marks=rule("PF2E-FUND-1"),
        ),
        pytest.param(
            ("invest", "bow-1", "--by", "Valeros"),
            "PF2E-INVEST-1: bow-1 (+1 frost longbow) has no invested trait",
            marks=rule("PF2E-INVEST-1"),
        ),
        pytest.param(
            ("transfer", "frost", "--from", "bow-1", "--to", "longsword-1", "--by", "Kyra"),
            "PF2E-XFER-1: Kyra does not hold bow-1",
            marks=rule("PF2E-XFER-1"),
        ),
    ],
)
def test_refusals_exit_1_name_rule_and_values_and_leave_log(log: Path, args, expected) -> None:
    """A refused command exits 1 with `error: RULE-ID: …` and leaves the log unchanged."""
    err = refused(log, "pf2e", *args)
    assert err.startswith(f"error: {expected}"), err


@rule("PF2E-ETCH-2")
def test_second_etch_while_one_is_in_progress_is_refused(log: Path) -> None:
    """With flaming begun on the longsword, etching striking on it is refused until finish."""
    begun = ok(log, "pf2e", "etch", "longsword-1", "flaming", "--by", "Valeros", "--begin")
    err = refused(log, "pf2e", "etch", "longsword-1", "striking", "--by", "Valeros")
    assert f"#{NEXT} pf2e.RuneEtchingBegun flaming -> longsword-1 begun by Valeros" in begun
    assert err.startswith(
        "error: PF2E-ETCH-2: longsword-1 has an etch in progress (flaming by "
        "Valeros); finish it first: pf2e finish longsword-1"
    )
    assert (
        state(log, "longsword-1")["name"],
        state(log, "longsword-1")["etching"],
    ) == ("+1 longsword", {"rune": "flaming", "by": "Valeros"})
    finished = ok(log, "pf2e", "finish", "longsword-1")
    assert finished.startswith(
        f"#{NEXT + 1} pf2e.RuneEtched flaming -> longsword-1 (level 8, 500 gp)"
    )
    assert (
        state(log, "longsword-1")["name"],
        state(log, "longsword-1")["etching"],
    ) == ("+1 flaming longsword", None)


@rule("PF2E-XFER-4")
def test_transfer_onto_item_that_cannot_take_it_records_automatic_critical_failure(log) -> None:
    """Animated (melee only) onto the longbow: exit 0, a logged automatic critical failure."""
    ok(log, "pf2e", "etch", "longsword-1", "animated", "--by", "Valeros")
    sword, bow = state(log, "longsword-1"), state(log, "bow-1")
    out = ok(
        log,
        "pf2e",
        "transfer",
        "animated",
        "--from",
        "longsword-1",
        "--to",
        "bow-1",
        "--by",
        "Valeros",
    )
    assert out.splitlines()[0].startswith(
        f"#{NEXT + 1} pf2e.RuneTransferFailed animated: longsword-1 -> bow-1: automatic "
        "critical failure (DC 31, 27 gp of materials lost; animated needs usage melee-weapon"
    )
    assert ("pf2e.RuneTransferFailed", True, sword, bow) == (
        last_event(log)["type"],
        last_event(log)["data"]["automatic"],
        state(log, "longsword-1"),
        state(log, "bow-1"),
    )


@rule("PF2E-STONE-1")
@rule("PF2E-XFER-6")
def test_transfer_off_runestone_is_free_and_the_stone_cracks(log: Path) -> None:
    """Flaming moves off the runestone for free (DC 24, 1 day); the stone is gone."""
    ok(log, "pf2e", "etch", "stone-1", "flaming", "--by", "Valeros")
    lines = ok(
        log,
        "pf2e",
        "transfer",
        "flaming",
        "--from",
        "stone-1",
        "--to",
        "longsword-1",
        "--by",
        "Valeros",
    ).splitlines()
    assert [
        f"#{NEXT + 1} pf2e.RuneTransferred flaming: stone-1 -> longsword-1 (DC 24, free, "
        "1 day, success)",
        f"#{NEXT + 2} pf2e.RunestoneCracked stone-1 cracked and is gone",
    ] == [line for line in lines if line.startswith("#")]
    assert state(log, "longsword-1")["name"] == "+1 flaming longsword"
    assert (
        "error: UNKNOWN-NAME: no character or item named 'stone-1'"
        in invoke(log, "state", "stone-1").stderr
    )


@rule("PF2E-XFER-3")
@rule("PF2E-XFER-7")
@rule("PF2E-XFER-8")
def test_swap_with_extra_days(log: Path) -> None:
    """Swapping frost for flaming over 3 days: 50 gp less 2 x 15 gp, never below half: 25 gp."""
    ok(log, "pf2e", "etch", "longsword-1", "flaming", "--by", "Valeros")
    out = ok(
        log,
        "pf2e",
        "transfer",
        "frost",
        "--from",
        "bow-1",
        "--to",
        "longsword-1",
        "--swap",
        "flaming",
        "--by",
        "Valeros",
        "--days",
        "3",
    )
    assert out.startswith(
        f"#{NEXT + 1} pf2e.RuneTransferred frost: bow-1 -> longsword-1, "
        "flaming back (DC 24, 25 gp, 3 days, success)"
    )
    assert (
        state(log, "longsword-1")["property"],
        state(log, "bow-1")["property"],
    ) == (["frost"], ["flaming"])


@rule("PF2E-INVEST-1")
def test_invest_runed_clothing(log: Path) -> None:
    """Runed explorer's clothing gains the invested trait; its wearer invests it."""
    ok(
        log,
        "pf2e",
        "item",
        "add",
        "clothes-1",
        "--base",
        "explorers-clothing",
        "--owner",
        "Valeros",
    )
    ok(log, "pf2e", "etch", "clothes-1", "armor-potency-1", "--by", "Valeros")
    before = state(log, "clothes-1")
    out = ok(log, "pf2e", "invest", "clothes-1", "--by", "Valeros")
    assert (
        before["invested_trait"],
        before["invested"],
        state(log, "clothes-1")["invested"],
    ) == (True, False, True)
    assert out.startswith(f"#{NEXT + 2} pf2e.ItemInvested Valeros invested clothes-1")


@rule("PF2E-ACT-1")
def test_activation_is_logged(log: Path) -> None:
    """Activating the bow's frost rune appends a RuneActivated event naming the note."""
    out = ok(log, "pf2e", "activate", "bow-1", "frost", "--by", "Valeros", "--note", "icy arrow")
    assert out.startswith(f"#{NEXT} pf2e.RuneActivated Valeros activated frost on bow-1: icy arrow")


@rule("PF2E-FORMULA-1")
def test_formula_buy_charges_the_formula_price(log: Path) -> None:
    """Buying the greater striking formula (level 12) costs 100 gp."""
    out = ok(log, "pf2e", "formula", "add", "Kyra", "greater-striking", "--buy")
    assert out.splitlines()[0] == (
        f"#{NEXT} pf2e.FormulaLearned Kyra knows greater-striking "
        "(formula level 12, 100 gp, bought)"
    )
    assert json.loads(ok(log, "state", "Kyra", "--json"))["spent_gp"] == 100


@rule("PF2E-ETCH-1")
def test_undoing_a_formula_an_etch_needs_is_refused(log: Path) -> None:
    """The frost etch on the bow depends on Valeros's frost formula (#5): undo #5 is refused."""
    err = refused(log, "undo", "5")
    assert "later events depend on it" in err and "no formula for frost" in err


@rule("PF2E-ETCH-1")
@rule("PF2E-RUNE-2")
def test_undoing_an_earlier_etch_under_a_later_one_is_refused(log: Path) -> None:
    """The bow's frost etch recorded a +1 frost longbow: undoing its potency rune (#15) is
    refused, naming the frost etch (#16) and the slot it used."""
    err = refused(log, "undo", "15")
    assert err == (
        "error: CORE-UNDO: #15 cannot be undone: later events depend on it: #16 "
        "pf2e.RuneEtched (PF2E-RUNE-2: bow-1 has no potency rune, so no property slot for "
        "frost; etch a potency rune first)\n"
    )


@rule("PF2E-ETCH-1")
def test_a_trained_crafter_crafts_no_magic_items(log: Path) -> None:
    """Magical Crafting needs expert: a trained character is added without it, and asking for
    it is refused (exit 1, the log unchanged)."""
    line = ok(log, "pf2e", "character", "add", "Merisiel", "--crafting", "trained").splitlines()[0]
    err = refused(
        log, "pf2e", "character", "add", "Ezren", "--crafting", "trained", "--magical-crafting"
    )
    assert (
        f"#{NEXT} pf2e.CharacterAdded Merisiel (level 1, trained in Crafting, no magical crafting)",
        "error: PF2E-ETCH-1: Ezren is trained in Crafting: crafting magic "
        "items (Magical Crafting) needs expert; add --no-magical-crafting or a higher "
        "--crafting\n",
    ) == (line, err)


@rule("PF2E-ETCH-1")
def test_a_trained_crafter_etches_no_plus_3_potency(log: Path) -> None:
    """Issue 15 item 20's example: a trained crafter with the formula and the sword in hand is
    refused +3 potency, the message saying why (no Magical Crafting, trained), the log unchanged."""
    ok(log, "pf2e", "character", "add", "Merisiel", "--level", "20", "--crafting", "trained")
    ok(log, "pf2e", "formula", "add", "Merisiel", "weapon-potency-3")
    ok(log, "pf2e", "give", "longsword-1", "--to", "Merisiel")
    err = refused(log, "pf2e", "etch", "longsword-1", "weapon-potency-3", "--by", "Merisiel")
    assert err == (
        "error: PF2E-ETCH-1: Merisiel cannot craft magic items: no Magical Crafting (trained in "
        "Crafting)\n"
    )


@rule("PF2E-XFER-6")
def test_undo_and_the_same_transfer_again_gives_the_same_result(log: Path) -> None:
    """pf2e draws nothing: the Crafting check's degree is the table's (--outcome). Undoing a
    transfer and taking it again three times appends the same event, with the same changes."""
    args = (
        "pf2e",
        "transfer",
        "frost",
        "--from",
        "bow-1",
        "--to",
        "longsword-1",
        "--by",
        "Valeros",
        "--outcome",
        "critical-success",
        "--days",
        "2",
    )
    first = ok(log, *args)
    outputs = []
    for _ in range(3):
        ok(log, "undo")
        outputs.append(ok(log, *args))
    records = [json.loads(line) for line in ok(log, "log", "--all", "--json").splitlines()]
    moved = [r["data"] for r in records if r["type"] == "pf2e.RuneTransferred"]
    assert [first.split(" ", 1)[1]] * 3 == [out.split(" ", 1)[1] for out in outputs]
    assert len(moved) == 4 and all(m == moved[0] for m in moved)


@pytest.mark.parametrize(
    "args",
    [
        (
            "transfer",
            "frost",
            "--from",
            "bow-1",
            "--to",
            "longsword-1",
            "--by",
            "Valeros",
            "--days",
            "x",
        ),
        (
            "transfer",
            "frost",
            "--from",
            "bow-1",
            "--to",
            "longsword-1",
            "--by",
            "Valeros",
            "--outcome",
            "great",
        ),
        ("character", "add", "Amiri", "--level", "25"),
        ("etch", "longsword-1", "flaming"),
    ],
)
def test_usage_errors_exit_2(log: Path, args) -> None:
    """Malformed options are usage errors (exit 2) and append nothing."""
    refused(log, "pf2e", *args, status=2)


# --- messages a GM reads at the table (QA findings) ----------------------------------------


@rule("PF2E-ETCH-1")
@rule("PF2E-ETCH-2")
def test_give_during_an_etch_names_the_rune_and_crafter(log: Path) -> None:
    """Giving away an item mid-etch says `(flaming by Valeros)`, not a dict."""
    ok(log, "pf2e", "etch", "longsword-1", "flaming", "--by", "Valeros", "--begin")
    err = refused(log, "pf2e", "give", "longsword-1", "--to", "Kyra")
    assert err == (
        "error: PF2E-ETCH-1: longsword-1 has an etch in progress (flaming by Valeros): the "
        "crafter must hold it throughout; finish it first: pf2e finish longsword-1\n"
    )


@rule("PF2E-XFER-2")
@rule("PF2E-FUND-1")
def test_swap_refusal_says_what_is_wrong_not_the_swap_already_given(log: Path) -> None:
    """Striking for the bow's potency: the sword keeps its own +1, so move striking alone."""
    ok(log, "pf2e", "etch", "longsword-1", "striking", "--by", "Valeros")
    err = refused(
        log,
        "pf2e",
        "transfer",
        "striking",
        "--from",
        "longsword-1",
        "--to",
        "bow-1",
        "--by",
        "Valeros",
        "--swap",
        "weapon-potency-1",
    )
    assert err == (
        "error: PF2E-XFER-2: cannot swap striking (on longsword-1) for weapon-potency-1 (on "
        "bow-1): longsword-1 keeps its own weapon-potency-1, so it cannot also take "
        "weapon-potency-1 from bow-1 (an item holds one weapon-potency rune, PF2E-FUND-1); "
        "move striking without --swap\n"
    )
    assert "--swap weapon-potency-1)" not in err


def test_unknown_crafter_is_unknown_name(log: Path) -> None:
    """`etch … --by Bob` for a Bob who does not exist exits 1 with UNKNOWN-NAME."""
    err = refused(log, "pf2e", "etch", "longsword-1", "flaming", "--by", "Bob")
    assert err == "error: UNKNOWN-NAME: no character named 'Bob'\n"


@rule("PF2E-FORMULA-1")
def test_formula_learned_shows_only_the_new_formula(log: Path) -> None:
    """Adding a formula changes one line of output, naming the new rune, not the whole list."""
    lines = ok(log, "pf2e", "formula", "add", "Kyra", "frost").splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("    characters.Kyra.formulas: ") and "frost" in lines[1]
    assert "animated" not in lines[1]


@rule("PF2E-STONE-1")
def test_a_runestone_rune_is_held_not_dormant(log: Path) -> None:
    """Etching flaming on the runestone changes its runes, name, level and price, not dormant."""
    out = ok(log, "pf2e", "etch", "stone-1", "flaming", "--by", "Valeros")
    stone = state(log, "stone-1")
    assert (
        stone["name"],
        stone["runes"],
        stone["property"],
        stone["dormant"],
    ) == ("flaming runestone", ["flaming"], [], [])
    assert "dormant" not in out and "property" not in out


@rule("PF2E-XFER-8")
@pytest.mark.parametrize("days", ["99999999999999999999", "9999999999999999999", "10001", "0"])
def test_days_out_of_range_is_a_usage_error_naming_the_option(log: Path, days: str) -> None:
    """--days beyond 1..10000 is a usage error (exit 2) naming --days; nothing reaches the log."""
    err = refused(
        log,
        "pf2e",
        "transfer",
        "frost",
        "--from",
        "bow-1",
        "--to",
        "longsword-1",
        "--by",
        "Valeros",
        "--days",
        days,
        status=2,
    )
    assert "Invalid value for '--days'" in err and "1<=x<=10000" in err


@rule("PF2E-XFER-8")
def test_ten_thousand_days_is_accepted_and_costs_half(log: Path) -> None:
    """--days 10000 is the largest allowed: the cost falls to half of 10% (frost: 25 gp)."""
    out = ok(
        log,
        "pf2e",
        "transfer",
        "frost",
        "--from",
        "bow-1",
        "--to",
        "longsword-1",
        "--by",
        "Valeros",
        "--days",
        "10000",
        "--dry-run",
    )
    assert "frost: bow-1 -> longsword-1 (DC 24, 25 gp, 10000 days, success)" in out
