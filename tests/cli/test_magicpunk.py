"""The magicpunk command group end to end (CliRunner): output, refusals, JSON, help."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.cli import ok, refused


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A magicpunk log at day 1 22:00 with Aria (holding AS 7H), Bram and Aria's A-battery."""
    path = tmp_path / "mp.tlog"
    ok(path, "init", "--system", "magicpunk", "--seed", "7", "--clock", "1 22:00")
    ok(
        path,
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
        "--money",
        "3000",
    )
    ok(
        path,
        "magicpunk",
        "character",
        "add",
        "Bram",
        "--body",
        "14",
        "--sense",
        "10",
        "--intellect",
        "8",
        "--magic",
        "8",
        "--hp",
        "34",
        "--skill",
        "swordplay=expert",
        "--skill",
        "first-aid=novice",
    )
    ok(path, "magicpunk", "item", "add", "a-battery", "--owner", "Aria")
    ok(path, "magicpunk", "draw", "Aria", "2", "--cards", "AS,7H")
    return path


def state(log: Path) -> dict:
    return json.loads(ok(log, "state", "--json"))


def test_draw_prints_event_and_changes(log: Path):
    """A named draw prints `#SEQ magicpunk.CardsDrawn …` and the hand and pile it changed."""
    out = ok(log, "magicpunk", "draw", "Bram", "--cards", "KD")
    assert out.splitlines() == [
        "#5 magicpunk.CardsDrawn Bram draws KD",
        "    characters.Bram.hand: +KD",
        "    deck.draw_count: 52 -> 51",
        "    deck.draws_made: 1 -> 2",
    ]


@pytest.mark.rule("CORE-RANDOM")
def test_an_undone_random_draw_does_not_tell_the_next(log: Path):
    """Undoing a random draw and drawing again draws afresh: what the undone draw showed is not
    what the next draw from the pile gives (the draw is keyed by the latest undo too)."""
    first = re.search(r"Bram draws (.*)", ok(log, "magicpunk", "draw", "Bram", "3")).group(1)
    ok(log, "undo")
    again = re.search(r"Bram draws (.*)", ok(log, "magicpunk", "draw", "Bram", "3")).group(1)
    assert first != again
    assert len(state(log)["characters"]["Bram"]["hand"]) == 3


@pytest.mark.rule("CORE-RANDOM")
@pytest.mark.parametrize(
    "args, line",
    [
        (("magicpunk", "draw", "Bram", "3"), r"Bram draws .*"),
        (("magicpunk", "circulate", "Aria", "--random", "1"), r"Aria circulates .*"),
        (("magicpunk", "roll", "3MP10", "--by", "Bram"), r"Bram: 3MP10 rolled .*"),
        (("magicpunk", "rest", "8h"), r"Aria circulates at day 1 23:00 .*"),
    ],
)
def test_undo_and_the_same_action_again_draws_afresh(log: Path, args, line):
    """Randomness is keyed by counters the state restores on undo (draws made, rolls made) and
    by the latest undo/redo marker, which no undo rewinds: three undo / same action cycles give
    three fresh results, none foretold by the one before."""
    results = []
    for _ in range(3):
        results.append(re.search(line, ok(log, *args)).group(0))
        ok(log, "undo")
    assert len(set(results)) == 3, results
    assert "(none)" not in results[0]


@pytest.mark.parametrize(
    "args, pattern",
    [
        (
            ("magicpunk", "draw", "Bram", "--cards", "7H"),
            r"^error: MP-CARDS: 7H is not in the draw pile \(it is in Aria's hand\)",
        ),
        (
            ("magicpunk", "play", "Bram", "AS"),
            r"^error: MP-CARDS: AS is not held by Bram \(it is in Aria's hand\)",
        ),
        (
            ("magicpunk", "charge", "a-battery", "KD", "--from", "Aria"),
            r"^error: MP-CARDS: KD is not held by Aria \(it is in the draw pile\)",
        ),
        (
            ("magicpunk", "rest", "10m", "--sleep"),
            r"^error: MP-REST-1: a 10m rest \(10 minutes\) cannot include sleep",
        ),
        (
            (
                "magicpunk",
                "rebuild",
                "Bram",
                "--body",
                "12",
                "--sense",
                "12",
                "--intellect",
                "10",
                "--magic",
                "7",
            ),
            r"^error: MP-REBUILD-1: abilities must sum to the pool of 40 points, got 41 \(body 12 "
            r"sense 12 intellect 10 magic 7\)",
        ),
        (
            ("magicpunk", "rebuild", "Bram", "--skill", "swordplay=master", "--skill", "x=novice"),
            r"^error: MP-REBUILD-7: re-learn skills with exactly 3 acquisitions, got 4 "
            r"\(swordplay master and x novice\)",
        ),
        (("magicpunk", "circulate", "Bram"), r"^error: MP-CIRC-3: Bram holds no cards"),
        (("magicpunk", "damage", "Zed", "3"), r"^error: UNKNOWN-NAME: no character named 'Zed'"),
        (
            (
                "magicpunk",
                "cohabit",
                "Aria",
                "Bram",
                "--region",
                "markt",
                "--residence",
                "barracks",
                "--residence-points",
                "4",
            ),
            r"^error: MP-COHAB-1: 'barracks' cannot be shared",
        ),
    ],
)
def test_refusals_exit_1_and_leave_the_log(log: Path, args, pattern):
    """A refused command exits 1, `error: RULE-ID: …` naming the values; the log is unchanged."""
    assert re.search(pattern, refused(log, *args))


UNKNOWN_WORDS = [
    pytest.param(
        ("magicpunk", "draw", "Bram", "--cards", "KD,1S"),
        "--cards: MP-CARDS: 1S is not a card (cards are written AS 10H QD 2C JK1)",
        marks=pytest.mark.rule("MP-CARDS"),
    ),
    pytest.param(
        ("magicpunk", "play", "Aria", "ZZ"),
        "CARDS: MP-CARDS: ZZ is not a card (cards are written AS 10H QD 2C JK1)",
        marks=pytest.mark.rule("MP-CARDS"),
    ),
    pytest.param(
        ("magicpunk", "charge", "a-battery", "7H", "7H", "--from", "Aria"),
        "CARDS: MP-CARDS: 7H named twice: name each card once",
        marks=pytest.mark.rule("MP-CARDS"),
    ),
    pytest.param(
        ("magicpunk", "circulate", "Aria", "--cards", "AS,QQ"),
        "--cards: MP-CARDS: QQ is not a card (cards are written AS 10H QD 2C JK1)",
        marks=pytest.mark.rule("MP-CARDS"),
    ),
    pytest.param(
        ("magicpunk", "draw", "Aria", "--cards", ","),
        "--cards: MP-CARDS: no card named (cards are written AS 10H QD 2C JK1)",
        marks=pytest.mark.rule("MP-CARDS"),
    ),
    pytest.param(
        ("magicpunk", "circulate", "Aria", "--cards", ""),
        "--cards: MP-CARDS: no card named (cards are written AS 10H QD 2C JK1)",
        marks=pytest.mark.rule("MP-CARDS"),
    ),
    pytest.param(
        ("magicpunk", "procure", "Aria", "--material", "gold", "--quality", "fine"),
        "--material: MP-PROC-2: unknown material 'gold' (one of steel, hardwood, synthetic-fibre, "
        "beast-hide, alloy, heavy-black-iron, magic-wood, magic-beast-hide, synthetic-resin, "
        "reinforced-crystal, magic-silver-thread, magic-shell, mana-silver)",
        marks=pytest.mark.rule("MP-PROC-2"),
    ),
    pytest.param(
        (
            "magicpunk",
            "procure",
            "Aria",
            "--material",
            "steel",
            "--quality",
            "fine",
            "--design",
            "x",
        ),
        "--design: MP-PROC-2: unknown design 'x' (one of none, signed, beautiful, gorgeous)",
        marks=pytest.mark.rule("MP-PROC-2"),
    ),
    pytest.param(
        ("magicpunk", "roll", "3d10"),
        "NOTATION: MP-CHECK: '3d10' is not nMPm or nMPmCx (e.g. 3MP10, MP12, 2MP12C4)",
        marks=pytest.mark.rule("MP-CHECK"),
    ),
    pytest.param(
        ("magicpunk", "rebuild", "Bram", "--skill", "swordplay=wizard"),
        "--skill: MP-REBUILD-5: unknown skill rank 'wizard' (novice, expert, master or 1-3)",
        marks=pytest.mark.rule("MP-REBUILD-5"),
    ),
    pytest.param(
        (
            "magicpunk",
            "character",
            "add",
            "Cid",
            *["--body", "8", "--sense", "8", "--intellect", "8"],
        )
        + ("--magic", "8", "--hp", "20", "--skill", "stealth=4"),
        "--skill: MP-REBUILD-5: unknown skill rank '4' (novice, expert, master or 1-3)",
        marks=pytest.mark.rule("MP-REBUILD-5"),
    ),
]


@pytest.mark.parametrize(("args", "message"), UNKNOWN_WORDS)
def test_an_unknown_keyword_value_is_a_usage_error(log: Path, args, message):
    """Issue 15 item 23: a card code, a check notation, a skill rank or a rarity table row the
    game does not have is a usage error (exit 2) naming the argument, the rule and the value;
    the log unchanged."""
    err = refused(log, *args, status=2)
    assert f"Error: Invalid value for {message}\n" == err.splitlines(keepends=True)[-1]


@pytest.mark.rule("MP-CLOCK")
def test_init_with_a_bad_clock_is_refused(tmp_path: Path):
    """`init --clock` that is not DAY HH:MM is a usage error (exit 2) naming MP-CLOCK and
    creates no log."""
    path = tmp_path / "bad.tlog"
    err = refused(path, "init", "--system", "magicpunk", "--clock", "22:00", status=2)
    assert err.endswith(
        "Error: Invalid value for --clock: MP-CLOCK: clock '22:00' is not 'DAY HH:MM' (e.g. "
        "'1 22:00')\n"
    )
    assert not path.exists()


@pytest.mark.parametrize(
    "deck, message",
    [("AS,ZZ", "ZZ is not a card"), ("AS,KS,AS", "AS named twice: name each card once")],
)
def test_init_with_a_bad_deck_is_refused(tmp_path: Path, deck: str, message: str):
    """`init --deck` with an unknown or repeated card is a usage error (exit 2) naming MP-CARDS
    and creates no log."""
    path = tmp_path / "bad.tlog"
    assert f"Error: Invalid value for --deck: MP-CARDS: {message}" in refused(
        path, "init", "--system", "magicpunk", "--deck", deck, status=2
    )
    assert not path.exists()
    assert not path.exists()


def test_init_with_a_custom_deck(tmp_path: Path):
    """`init --deck` makes a smaller deck; a card outside it is refused."""
    path = tmp_path / "small.tlog"
    ok(path, "init", "--system", "magicpunk", "--deck", "AS,KS,QS")
    assert state(path)["deck"] == {"size": 3, "draw_count": 3, "discard": [], "draws_made": 0}
    ok(
        path,
        "magicpunk",
        "character",
        "add",
        "Aria",
        "--body",
        "10",
        "--sense",
        "10",
        "--intellect",
        "10",
        "--magic",
        "10",
        "--hp",
        "20",
    )
    assert "KD is not in this session's deck" in refused(
        path, "magicpunk", "draw", "Aria", "--cards", "KD"
    )


def test_rest_with_sleep_circulates_hand(log: Path):
    """MP-CIRC-1 through the CLI: 8h rest, Aria's AS 7H are discarded and 2 cards drawn."""
    out = ok(log, "magicpunk", "rest", "8h")
    assert "Aria circulates at day 1 23:00 (MP-CIRC-1): AS 7H ->" in out
    data = state(log)
    assert data["deck"]["discard"] == ["AS", "7H"]
    assert data["clock"] == {"day": 2, "minutes": 360}


@pytest.mark.rule("MP-PULL-1")
def test_damage_and_heal(log: Path):
    """MP-PULL-1 through the CLI: 40 pulled on 34 HP leaves 0, healing 12 gives 12."""
    ok(log, "magicpunk", "damage", "Bram", "40", "--pull-punches")
    ok(log, "magicpunk", "heal", "Bram", "12")
    assert state(log)["characters"]["Bram"]["hp"] == 12


def test_roll_json(log: Path):
    """`roll --json` prints the dice, success, jackpot, bad beat and achieved value (the
    event's data)."""
    out = ok(log, "magicpunk", "roll", "2MP10C3", "--dice", "2,9", "--by", "Aria", "--json")
    data = json.loads(out)["data"]
    assert {k: data[k] for k in ("dice", "success", "jackpot", "bad_beat", "achieved")} == {
        "dice": [2, 9],
        "success": True,
        "jackpot": False,
        "bad_beat": False,
        "achieved": 9,
    }
    fail = json.loads(ok(log, "magicpunk", "roll", "1MP5", "--dice", "12", "--json"))["data"]
    assert (fail["success"], fail["achieved"]) == (False, None)


def test_dry_run_appends_nothing(log: Path):
    """--dry-run shows the events and leaves the log unchanged."""
    before = log.read_bytes()
    out = ok(log, "magicpunk", "rest", "8h", "--dry-run")
    assert "dry run: nothing appended" in out
    assert before == log.read_bytes()


@pytest.mark.rule("MP-CIRC-1")
def test_undo_takes_back_a_rest_with_its_circulations(log: Path):
    """Undoing a rest takes back its sleep circulation with it (one action); redo restores both."""
    ok(log, "magicpunk", "rest", "8h", "--who", "Aria")
    rested = state(log)
    out = ok(log, "undo", "6").splitlines()
    assert out[:2] == ["#7 core.Undone #5", "#8 core.Undone #6"]
    data = state(log)
    assert (
        data["clock"],
        data["characters"]["Aria"]["hand"],
    ) == ({"day": 1, "minutes": 1320}, ["AS", "7H"])
    assert ok(log, "redo").splitlines()[:2] == ["#9 core.Redone #5", "#10 core.Redone #6"]
    assert {**state(log), "seq": 0} == {**rested, "seq": 0}


def test_history_names_the_circulation_rule(log: Path):
    """`history` of a sleeper shows the circulation and its rule."""
    ok(log, "magicpunk", "rest", "8h")
    out = ok(log, "history", "Aria")
    assert "magicpunk.CardsCirculated" in out
    assert "MP-CIRC-1" in out


# -- numbers and names on the command line (QA findings) ---------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (("reward", "Bram", "-100"), "Invalid value for 'AMOUNT': must be 0 or more, got -100"),
        (("damage", "Bram", "-5"), "Invalid value for 'AMOUNT': must be 0 or more, got -5"),
        (("heal", "Bram", "-5"), "Invalid value for 'AMOUNT': must be 0 or more, got -5"),
        (("draw", "Bram", "-2"), "Invalid value for '[COUNT]': must be 1 or more, got -2"),
        (("leisure", "roll", "Bram", "-3"), "Invalid value for 'ROLL': must be 1 or more, got -3"),
    ],
)
def test_a_negative_number_argument_says_the_bound(log: Path, args, message):
    """A negative AMOUNT is a usage error (exit 2) saying it must be 0 or more, not `-1`."""
    err = refused(log, "magicpunk", *args, status=2)
    assert message in err and "No such option" not in err


def test_a_mistyped_option_is_still_an_unknown_option(log: Path):
    """With negative numbers allowed through, `--pul-punches` is still refused with a hint."""
    err = refused(log, "magicpunk", "damage", "Bram", "5", "--pul-punches", status=2)
    assert "No such option '--pul-punches'. Did you mean '--pull-punches'?" in err


HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    "args, name",
    [
        (("damage", "Bram", HUGE), "'AMOUNT'"),
        (("heal", "Bram", HUGE), "'AMOUNT'"),
        (("reward", "Bram", HUGE), "'AMOUNT'"),
        (("reward", "Bram", "1000000001"), "'AMOUNT'"),
        (("draw", "Bram", HUGE), "'[COUNT]'"),
        (
            (
                "character",
                "add",
                "Zed",
                "--body",
                "1",
                "--sense",
                "1",
                "--intellect",
                "1",
                "--magic",
                "1",
                "--hp",
                HUGE,
            ),
            "'--hp'",
        ),
        (
            (
                "character",
                "add",
                "Zed",
                "--body",
                HUGE,
                "--sense",
                "1",
                "--intellect",
                "1",
                "--magic",
                "1",
                "--hp",
                "9",
            ),
            "'--body'",
        ),
        (
            (
                "character",
                "add",
                "Zed",
                "--body",
                "1",
                "--sense",
                "1",
                "--intellect",
                "1",
                "--magic",
                "1",
                "--hp",
                "9",
                "--money",
                HUGE,
            ),
            "'--money'",
        ),
        (("item", "add", "gun", "--owner", "Aria", "--gear-slots", HUGE), "'--gear-slots'"),
        (("item", "add", "gun", "--owner", "Aria", "--price", HUGE), "'--price'"),
        (("item", "ready", "a-battery", "--free-slots", HUGE), "'--free-slots'"),
        (("procure", "Aria", "--material", "steel", "--quality", "fine", "--gm", HUGE), "'--gm'"),
        (
            ("procure", "Aria", "--material", "steel", "--quality", "fine", "--gear-price", HUGE),
            "'--gear-price'",
        ),
        (
            (
                "cohabit",
                "Aria",
                "Bram",
                "--region",
                "markt",
                "--residence",
                "flat",
                "--residence-points",
                HUGE,
            ),
            "'--residence-points'",
        ),
        (
            (
                "cohabit",
                "Aria",
                "Bram",
                "--region",
                "markt",
                "--residence",
                "flat",
                "--residence-points",
                "3",
                "--split",
                f"{HUGE},1",
            ),
            "--split",
        ),
        (
            ("spell", "learn", "Aria", "spark", "--gate", "fire", "--tier", "1", "--price", HUGE),
            "'--price'",
        ),
        (("rebuild", "Bram", "--to-money", HUGE), "'--to-money'"),
        (("rebuild", "Bram", "--immature", f"body={HUGE}"), "--immature"),
        (("circulate", "Aria", "--random", HUGE), "'--random'"),
        (("roll", "2MP10", "--dice", f"3,{HUGE}"), "--dice"),
        (("leisure", "roll", "Bram", "7", "--safety", HUGE), "'--safety'"),
    ],
)
def test_numbers_beyond_any_game_are_usage_errors_naming_the_option(log: Path, args, name):
    """A number of 2**64 or more never reaches the log: exit 2 naming the option, no traceback."""
    err = refused(log, "magicpunk", *args, status=2)
    assert f"Invalid value for {name}" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "who, message",
    [
        ("Aria,Aria", "Invalid value for --who: Aria named twice: name each once"),
        ("", "Invalid value for --who: name at least one character"),
        ("Aria,,Bram", "Invalid value for --who: 'Aria,,Bram' has a blank name"),
    ],
)
def test_rest_who_refuses_duplicates_and_blank_names(log: Path, who: str, message: str):
    """`rest 8h --who Aria,Aria` or an empty --who is a usage error, not a rest for "nobody"."""
    assert message in refused(log, "magicpunk", "rest", "8h", "--who", who, status=2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            (
                "magicpunk",
                "spell",
                "learn",
                "Aria",
                "",
                "--gate",
                "red",
                "--tier",
                "1",
                "--price",
                "0",
            ),
            "error: CORE-NAME: a spell name cannot be empty\n",
        ),
        (
            (
                "magicpunk",
                "spell",
                "learn",
                "Aria",
                " fire ",
                "--gate",
                "red",
                "--tier",
                "1",
                "--price",
                "0",
            ),
            "error: CORE-NAME: a spell name cannot start or end with a space: ' fire '\n",
        ),
        (
            (
                "magicpunk",
                "spell",
                "learn",
                "Aria",
                "fire",
                "--gate",
                "",
                "--tier",
                "1",
                "--price",
                "0",
            ),
            "error: CORE-NAME: a gate name cannot be empty\n",
        ),
        (
            (
                "magicpunk",
                "cohabit",
                "Aria",
                "Bram",
                "--region",
                "",
                "--residence",
                "flat",
                "--residence-points",
                "2",
                "--region-points",
                "2",
            ),
            "error: CORE-NAME: a region cannot be empty\n",
        ),
    ],
)
def test_names_and_card_lists_that_would_log_nothing_readable_are_refused(log: Path, args, message):
    """Empty or space-padded spell, gate and region names were logged (empty card lists too:
    now a usage error, test_an_unknown_keyword_value_is_a_usage_error)."""
    assert refused(log, *args) == message


def test_a_skill_given_twice_is_a_usage_error(tmp_path: Path):
    """``--skill a=novice --skill a=expert`` once kept the last silently."""
    path = tmp_path / "mp.tlog"
    ok(path, "init", "--system", "magicpunk")
    err = refused(
        path,
        "magicpunk",
        "character",
        "add",
        "Cid",
        "--body",
        "8",
        "--sense",
        "8",
        "--intellect",
        "8",
        "--magic",
        "8",
        "--hp",
        "20",
        "--skill",
        "stealth=novice",
        "--skill",
        "stealth=expert",
        status=2,
    )
    assert "stealth is given twice: give each once" in err


# -- optional rules the table adopts; event lines (issue 15) -------------------------------------


def test_init_rules_leaves_out_rebuild(tmp_path: Path):
    """`init --rules no-rebuild`: a rebuild is refused (exit 1) naming the rule; the rest works."""
    path = tmp_path / "table.tlog"
    ok(path, "init", "--system", "magicpunk", "--rules", "no-rebuild,no-cohabitation")
    ok(
        path,
        "magicpunk",
        "character",
        "add",
        "Bram",
        "--body",
        "14",
        "--sense",
        "10",
        "--intellect",
        "8",
        "--magic",
        "8",
        "--hp",
        "34",
    )
    assert refused(
        path,
        "magicpunk",
        "rebuild",
        "Bram",
        "--body",
        "12",
        "--sense",
        "12",
        "--intellect",
        "10",
        "--magic",
        "6",
    ) == (
        "error: MP-ADOPT: this table does not use the optional rule rebuild (rebuild, "
        "MP-REBUILD-1..12): init --rules left it out\n"
    )
    assert "Bram takes 5 damage (pulled punches)" in ok(
        path, "magicpunk", "damage", "Bram", "5", "--pull-punches"
    )


@pytest.mark.parametrize(
    "args, status, message",
    [
        (
            ("--system", "magicpunk", "--rules", "rebuilt"),
            2,
            "Error: Invalid value for --rules: MP-ADOPT: rebuilt: not an optional rule (one of "
            "sleep-circulation, ",
        ),
        (("--system", "pf2e", "--rules", "cover"), 2, "pf2e sessions take no --rules"),
    ],
)
def test_init_rules_refusals(tmp_path: Path, args, status, message):
    """An unknown optional rule, or --rules on another system, creates no log."""
    path = tmp_path / "bad.tlog"
    assert message in refused(path, "init", *args, status=status)
    assert not path.exists()


def test_heal_line_says_what_was_healed(log: Path):
    """`heal Bram 100` at 24/34 HP heals 10 and says that 100 was asked."""
    ok(log, "magicpunk", "damage", "Bram", "10")
    assert ok(log, "magicpunk", "heal", "Bram", "100").splitlines() == [
        "#6 magicpunk.Healed Bram heals 10 HP (100 asked, capped at max)",
        "    characters.Bram.hp: 24 -> 34",
    ]


@pytest.mark.parametrize("notation, shown", [("MP15", "1MP15"), ("2mp10c", "2MP10")])
def test_roll_takes_the_dice_bot_forms(log: Path, notation: str, shown: str):
    """`roll MP15` is one die; `2mp10c` is 2MP10 with no challenge, as the dice bots read them."""
    out = json.loads(
        ok(
            log,
            "magicpunk",
            "roll",
            notation,
            "--dice",
            ",".join(["7"] * (1 if shown.startswith("1") else 2)),
            "--json",
        )
    )["data"]
    assert (shown, True, 7) == (out["notation"], out["success"], out["achieved"])
