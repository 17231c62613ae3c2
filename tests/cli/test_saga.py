"""The saga CLI end to end (CliRunner): the calculator, units and sheets, refusals, JSON keys.

Expected damages are worked by hand in the comments (seed: saga-eb-damage.ja.txt).
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli
from tests.support.cli import invoke, ok, refused

KIRI = (
    "saga",
    "calc",
    "kiri-harai",
    "--weapon-power",
    "30",
    "--slv",
    "10",
    "--self-stat",
    "40",
    "--resist",
    "20",
    "--target-stat",
    "30",
)
# kiri-harai: base 20 × (1 + 0.9 + 0.2 + 0.4) = 50; compound 50 × 1.15 × 4/3 = 230/3;
# correction 1 − (0.1 + 0.075) = 0.825 → 63.25 − √60 (7.746) = 55.50 → 55.
# min ⌊55 × 0.95⌋ = ⌊52.25⌋ = 52; max ⌊55 × 1.05⌋ = ⌊57.75⌋ = 57; displayed ⌊50 × 1.15⌋ = 57.


def calc(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.rule("SAGA-ATK-16")
def test_calc_text_prints_min_roll1_max():
    """Without --roll the calculator prints the damage at roll 1 with the minimum and maximum."""
    result = calc(*KIRI)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "damage per process: 55 at roll 1 (min 52, max 57)"
    assert "displayed power: 57" in result.stdout
    assert "  damage_reduction" in result.stdout


@pytest.mark.rule("SAGA-ATK-6")
def test_calc_release_uses_its_own_multiplier():
    """saga calc toki-hanatsu --slv 10: base 20 × 1.75 = 35, × 0.5 × 4/3 = 70/3 → 23 at roll 1
    (min ⌊23 × 0.95⌋ = 21, max ⌊23 × 1.05⌋ = 24); displayed ⌊35 × 0.5⌋ = 17."""
    result = calc("saga", "calc", "toki-hanatsu", "--slv", "10")
    assert result.exit_code == 0, result.output
    assert (result.stdout.splitlines()[-2:]) == [
        "displayed power: 17",
        "damage per process: 23 at roll 1 (min 21, max 24)",
    ]


@pytest.mark.rule("SAGA-ATK-2")
def test_calc_json_pins_keys():
    """--json prints damage (per process), processes, min, max, displayed power and breakdown."""
    # dual wield ⌊(31 + 26) / 2⌋ = 28; base 46.8 → 47; 47 × 3.55 × 4/3 × 0.765 = 170.187 − 9
    # = 161.187 → 161; ⌊161 × 1.05 / 4⌋ = 42.
    result = calc(
        "saga",
        "calc",
        "ni-tou-reppuu-ken",
        "--weapon-power",
        "31",
        "--weapon-power",
        "26",
        "--slv",
        "10",
        "--self-stat",
        "30",
        "--resist",
        "slash=27",
        "--target-stat",
        "40",
        "--roll",
        "1.05",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {
        "tech",
        "processes",
        "damage",
        "roll",
        "min",
        "max",
        "displayed_power",
        "split",
        "breakdown",
    } <= set(data)
    assert (data["processes"], data["damage"], data["roll"]) == (4, 42, "1.05")
    assert data["breakdown"]["weapon_power_bonus"] == "0.84"  # 28 × 0.03


@pytest.mark.rule("SAGA-ATK-6")
def test_calc_without_tech_and_with_rank():
    """The tech can come from options (same as kiri-harai: 55) and --rank 5 uses power 27 (66)."""
    result = calc(
        "saga",
        "calc",
        "--power",
        "23",
        "--weapon-type",
        "1h-sword",
        "--attribute",
        "slash",
        *KIRI[3:],
        "--json",
    )
    assert json.loads(result.stdout)["damage"] == 55
    # rank 5: 50 × 1.35 × 4/3 = 90; × 0.825 = 74.25 − 7.746 = 66.5 → 66
    assert json.loads(calc(*KIRI, "--rank", "5", "--json").stdout)["damage"] == 66


@pytest.mark.rule("SAGA-ATK-7")
def test_calc_inherited_needs_no_weapon_or_slv():
    """毒胞子 (inherited): 20 × 1.5 = 30; × 0.55 = 16.5; × 0.9 = 14.85 → 14."""
    result = calc(
        "saga", "calc", "doku-houshi", "--self-stat", "50", "--target-stat", "40", "--json"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["damage"] == 14


@pytest.mark.rule("SAGA-ATK-1")
def test_calc_no_damage_outcome():
    """An evaded tech computes no damage and says why."""
    result = calc(*KIRI, "--outcome", "evaded")
    assert result.exit_code == 0
    assert "no attack damage: evaded (SAGA-ATK-1)" in result.stdout


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (("--weapon-type", "bow"), 2, "Invalid value for '--weapon-type'"),
        (("--attribute", "fire"), 2, "Invalid value for '--attribute'"),
        (("--roll", "1.2"), 1, "error: SAGA-ATK-16: roll 1.2 lies outside 0.95..1.05"),
        (("--roll", "lots"), 2, "'lots' is not a number"),
        (("--roll", "1e99999"), 2, "'1e99999' is not a number"),  # once a traceback, or a hang
        (("--roll", "1e-9999"), 2, "'1e-9999' is not a number"),
        (("--resist", "wind=3"), 2, "unknown attribute 'wind'"),
    ],
)
def test_calc_bad_input(args, status, message):
    """Unknown types or attributes, rolls outside the width, bad numbers: exit 1 or 2."""
    result = calc(*KIRI, *args)
    assert status == result.exit_code
    assert message in result.stderr


@pytest.mark.rule("SAGA-ATK-5")
@pytest.mark.parametrize(
    ("drop", "message"),
    [
        (
            "--weapon-power",
            "error: SAGA-ATK-5: kiri-harai is a 1h-sword tech: --weapon-power is needed",
        ),
        ("--slv", "error: SAGA-ATK-5: kiri-harai is a 1h-sword tech: --slv is needed"),
        ("--self-stat", "error: SAGA-ATK-5: kiri-harai depends on str: --self-stat is needed"),
        ("--resist", "error: SAGA-ATK-8: kiri-harai attacks with slash: --resist is needed"),
        (
            "--target-stat",
            "error: SAGA-ATK-8: kiri-harai is resisted by vit: --target-stat is needed",
        ),
    ],
)
def test_calc_missing_stat(drop, message):
    """A stat the formula needs is required, and its absence is named (exit 1)."""
    args = list(KIRI)
    i = args.index(drop)
    del args[i : i + 2]
    result = calc(*args)
    assert result.exit_code == 1
    assert message == result.stderr.strip()


def test_calc_unknown_tech():
    """An unknown catalogue id exits 1 with UNKNOWN-NAME."""
    result = calc("saga", "calc", "no-such-tech", "--self-stat", "1")
    assert (
        result.exit_code,
        result.stderr.strip(),
    ) == (1, "error: UNKNOWN-NAME: unknown tech 'no-such-tech' (not in the catalogue)")


# --- battles in the log --------------------------------------------------------------------

GUSTAVE = (
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
    "--stat",
    "vit=30",
    "--slv",
    "1h-sword=10",
    "--weapon",
    "1h-sword=30",
    "--resist",
    "20",
)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A saga log with Gustave (ally, LP 12), Ward (LP 3) and a wolf, battle started."""
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "saga", "--seed", "11")
    ok(path, *GUSTAVE)
    ok(
        path,
        "saga",
        "unit",
        "add",
        "Ward",
        "--max-hp",
        "300",
        "--lp",
        "3",
        "--stat",
        "str=40",
        "--slv",
        "2h-sword=10",
        "--weapon",
        "2h-sword=30",
    )
    ok(
        path,
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
    ok(path, "saga", "battle", "start")
    return path


@pytest.mark.rule("SAGA-TARGET-1")
def test_a_downed_enemy_is_no_target(log: Path):
    """Instant death brings the Wolf down (incapacitated, 0 HP); then `saga cast Gustave
    kiri-harai --target Wolf` is refused (SAGA-TARGET-1) and appends nothing: no damage events
    against a downed unit."""
    ok(
        log,
        "saga",
        "cast",
        "Gustave",
        "kiri-harai",
        "--target",
        "Wolf",
        "--situation",
        "instant_death=yes",
    )
    wolf = json.loads(ok(log, "state", "Wolf", "--json"))
    assert (wolf["hp"], wolf["incapacitated"]) == (0, True)
    err = refused(log, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf")
    assert err.strip() == "error: SAGA-TARGET-1: Wolf is incapacitated: no tech targets it"


def test_unit_json_keys(log: Path):
    """A unit's JSON has the SPEC's fields."""
    data = json.loads(ok(log, "state", "Gustave", "--json"))
    assert {
        k: data[k] for k in ("hp", "hp_max", "lp", "lp_max", "lp_damage_effect", "incapacitated")
    } == {
        "hp": 320,
        "hp_max": 320,
        "lp": 12,
        "lp_max": 12,
        "lp_damage_effect": 0,
        "incapacitated": False,
    }
    assert data["effects"] == {"tech_power": 0, "attack": 0, "defense": 0, "spell": 0}
    clock = json.loads(ok(log, "state", "--json"))["clock"]
    assert {"turn", "season", "levels"} == set(clock)


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        (("saga", "cast", "Nobody", "kiri-harai", "--target", "Wolf"), "UNKNOWN-NAME"),
        (("saga", "cast", "Gustave", "kiri-harai", "--target", "Ghost"), "UNKNOWN-NAME"),
        (("saga", "cast", "Gustave", "no-such-tech", "--target", "Wolf"), "UNKNOWN-NAME"),
        (("saga", "cast", "Ward", "desu-uindo", "--target", "Wolf"), "SAGA-LP-2"),
        (
            ("saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf", "--roll", "0.9"),
            "SAGA-ATK-16",
        ),
        (("saga", "unit", "add", "Gustave", "--max-hp", "9"), "CORE-NAME"),
        (("saga", "buff", "Gustave", "--by", "Ward"), "SAGA-EFF-2"),
    ],
)
def test_refusals_leave_the_log_unchanged(log: Path, args, rule):
    """A refused command exits 1 with `error: RULE-ID: …` and leaves the log byte-for-byte."""
    err = refused(log, *args)
    assert err.startswith(f"error: {rule}: ")


@pytest.mark.rule("SAGA-LP-2")
def test_blood_refusal_names_the_values(log: Path):
    """Ward (LP 3) cannot choose desu-uindo (LP cost 3)."""
    err = refused(log, "saga", "cast", "Ward", "desu-uindo", "--target", "Wolf")
    assert err.strip() == "error: SAGA-LP-2: the Blood tech costs 3 LP and only 3 LP remain"


@pytest.mark.rule("SAGA-POISON-1")
@pytest.mark.rule("SAGA-POISON-2")
@pytest.mark.parametrize("roll", ["1.06", "0.94", "2"])
def test_a_poison_roll_outside_its_range_is_a_usage_error(log: Path, roll: str):
    """A poison roll outside 0.95..1.05 is a number out of range: exit 2 naming the rule and the
    value (issue 15 item 23), the log unchanged; 1.05 itself is taken."""
    before = log.read_bytes()
    result = invoke(log, "saga", "poison", "Wolf", "--roll", roll)
    assert result.exit_code == 2
    assert f"SAGA-POISON-2: poison roll {roll} lies outside 0.95..1.05" in result.output
    assert log.read_bytes() == before
    ok(log, "saga", "poison", "Wolf", "--roll", "1.05")


def test_poison_twice_in_a_turn_is_refused(log: Path):
    """The second poison in the same turn exits 1 (SAGA-POISON-1); after `saga turn` it works."""
    ok(log, "saga", "poison", "Wolf")
    assert refused(log, "saga", "poison", "Wolf").startswith("error: SAGA-POISON-1: ")
    ok(log, "saga", "turn")
    ok(log, "saga", "poison", "Wolf")


@pytest.mark.rule("SAGA-ATK-16")
def test_drawn_factor_is_recorded_and_matches_the_calculator(log: Path):
    """A drawn random factor is stored in the event; calc at that roll gives the same damage."""
    ok(log, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf")
    record = json.loads(ok(log, "log", "--json").splitlines()[-1])
    factor = Fraction(record["data"]["random_factor"])
    assert Fraction(95, 100) <= factor <= Fraction(105, 100)
    wolf = json.loads(ok(log, "state", "Wolf", "--json"))
    result = calc(
        "saga",
        "calc",
        "kiri-harai",
        "--weapon-power",
        "30",
        "--slv",
        "10",
        "--self-stat",
        "40",
        "--resist",
        str(wolf["resistances"]["slash"]),
        "--target-stat",
        str(wolf["stats"]["vit"]),
        "--roll",
        str(factor),
        "--json",
    )
    assert json.loads(result.stdout)["damage"] == record["data"]["damage"]
    assert 900 - record["data"]["damage"] == wolf["hp"]
    history = ok(log, "history", "Wolf")
    assert "random_correction = " in history and "base_attack_damage_floored = " in history


def test_dry_run_appends_nothing(log: Path):
    """--dry-run shows the hit but leaves the log unchanged."""
    before = log.read_bytes()
    out = ok(log, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf", "--dry-run")
    assert "dry run: nothing appended" in out and "saga.AttackDamageDealt" in out
    assert before == log.read_bytes()


def test_undo_a_cast_restores_hp(log: Path):
    """Undoing a cast's hit restores the wolf's HP."""
    ok(log, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf", "--roll", "1")
    ok(log, "undo")
    assert json.loads(ok(log, "state", "Wolf", "--json"))["hp"] == 900


def _last_hits(log: Path, kind: str) -> list[tuple[str, int, str]]:
    """Return (unit hit, damage, random factor) of the last four ``kind`` records (log --json)."""
    records = [json.loads(line) for line in ok(log, "log", "--json").splitlines()]
    hits = [r["data"] for r in records if r["type"] == kind]
    return [(d.get("target", d.get("unit")), d["damage"], d["random_factor"]) for d in hits[-4:]]


@pytest.mark.rule("CORE-RANDOM")
@pytest.mark.rule("SAGA-ATK-16")
@pytest.mark.rule("SAGA-POISON-2")
@pytest.mark.parametrize(
    ("command", "kind"),
    [
        (("saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf"), "saga.AttackDamageDealt"),
        (
            ("saga", "cast", "Wolf", "tenrai-x", "--target", "Gustave", "--target", "Ward"),
            "saga.AttackDamageDealt",
        ),
        (("saga", "poison", "Wolf"), "saga.PoisonDamageTaken"),
    ],
    ids=["cast", "random-multi", "poison"],
)
def test_undo_and_the_same_action_again_draw_afresh(log: Path, command: tuple[str, ...], kind: str):
    """Three times undo then the same action: fresh random factors (and random targets) each
    time, since draws are keyed by the draw counter the undo restores and by the latest undo,
    which nothing rewinds: an undone cast does not tell the next one's roll."""
    ok(
        log,
        "saga",
        "tech",
        "add",
        "tenrai-x",
        "--power",
        "30",
        "--attack-count",
        "4",
        "--random-width",
        "5",
        "--weapon-type",
        "enemy",
        "--attribute",
        "none",
        "--target-kind",
        "random-multi",
    )
    ok(log, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf")  # draw 0 is used
    ok(log, *command)
    first = [json.loads(line)["data"] for line in ok(log, "log", "--json").splitlines()][-1]
    original = _last_hits(log, kind)
    results = []
    for _ in range(3):
        ok(log, "undo")
        ok(log, *command)
        results.append(_last_hits(log, kind))
    assert len({tuple(r) for r in [original, *results]}) > 1, results
    assert first["draw_no"] == 1


@pytest.mark.rule("SAGA-EFF-3")
def test_a_debuff_that_does_not_land_says_why(log: Path):
    """After an evaded kiri-harai, its debuff prints why it did not land and changes nothing."""
    ok(
        log,
        "saga",
        "cast",
        "Gustave",
        "kiri-harai",
        "--target",
        "Wolf",
        "--situation",
        "outcome=evaded",
    )
    out = ok(
        log, "saga", "buff", "Wolf", "--defense", "-10", "--by", "Gustave", "--tech", "kiri-harai"
    )
    assert out.splitlines()[0].endswith(
        "Gustave with kiri-harai: defense -10 on Wolf (did not land: Gustave's latest kiri-harai"
        " on Wolf dealt 0 damage)"
    )
    assert json.loads(ok(log, "state", "Wolf", "--json"))["effects"]["defense"] == 0


@pytest.mark.rule("SAGA-LP-3")
def test_wipe(log: Path):
    """After a wipe every ally not incapacitated loses 1 LP (12 → 11, 3 → 2)."""
    ok(log, "saga", "wipe")
    final = json.loads(ok(log, "state", "--json"))["characters"]
    assert (final["Gustave"]["lp"], final["Ward"]["lp"]) == (11, 2)


@pytest.mark.rule("SAGA-EFF-4")
@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_unit_sheet_files(tmp_path: Path, suffix: str):
    """A JSON or TOML sheet gives the unit its stats, weapons and traits; options win."""
    sheet = tmp_path / f"amy{suffix}"
    if suffix == ".json":
        sheet.write_text(
            json.dumps(
                {
                    "max_hp": 210,
                    "lp": 9,
                    "stats": {"int": 40},
                    "slv": {"spell": 20},
                    "five": {"wood": 10},
                    "traits": [{"kind": "attack", "value": 5, "on": "all"}],
                }
            )
        )
    else:
        sheet.write_text(
            "max_hp = 210\nlp = 9\nstats = { int = 40 }\nslv = { spell = 20 }\n"
            'five = { wood = 10 }\n[[traits]]\nkind = "attack"\nvalue = 5\non = "all"\n'
        )
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "saga")
    ok(path, "saga", "unit", "add", "Amy", "--sheet", str(sheet), "--lp", "8")
    amy = json.loads(ok(path, "state", "Amy", "--json"))
    assert (
        amy["hp_max"],
        amy["lp"],
        amy["stats"],
        amy["five"],
    ) == (210, 8, {"int": 40}, {"wood": 10})
    assert amy["traits"] == [{"kind": "attack", "value": 5, "on": "all"}]


def test_a_sheet_that_is_no_regular_file_is_refused_at_once(log: Path, tmp_path: Path):
    """A FIFO planted as the sheet once made `unit add --sheet` wait forever, `/dev/zero` read
    without end: both are refused at once as `--log` refuses them (exit 2), no unit added."""
    fifo = tmp_path / "amy.json"
    os.mkfifo(fifo)
    for sheet in (str(fifo), "/dev/zero"):
        err = refused(log, "saga", "unit", "add", "Z", "--sheet", sheet, status=2)
        assert err.endswith(f"Invalid value for --sheet: {sheet}: not a regular file\n")


@pytest.mark.parametrize("text", ["{not json", "[" * 100_000 + "]" * 100_000])
def test_bad_sheet_is_a_usage_error(tmp_path: Path, text: str):
    """A sheet that does not parse (or nests deeper than a parser can go) exits 2, no unit."""
    sheet = tmp_path / "bad.json"
    sheet.write_text(text)
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "saga")
    result = invoke(path, "saga", "unit", "add", "X", "--sheet", str(sheet))
    assert result.exit_code == 2
    assert "Traceback" not in result.output


@pytest.mark.parametrize("rate", ["1e99999", "1e-9999", "1e-999999"])
def test_exponent_numbers_are_usage_errors(tmp_path: Path, rate: str):
    """``--hp-floor-rate 1e-999999`` once ran for minutes, then raised: now exit 2 at once."""
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "saga")
    err = refused(
        path,
        "saga",
        "unit",
        "add",
        "Finn",
        "--max-hp",
        "100",
        "--enemy",
        "--hp-floor-rate",
        rate,
        status=2,
    )
    assert f'the HP floor rate must be a percentage such as 50 or 12.5, got "{rate}"' in err


# -- numbers and sheets on the command line, messages in English (QA findings) ----------------

HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (("unit", "add", "Z", "--max-hp", HUGE), "'--max-hp'"),
        (("unit", "add", "Z", "--max-hp", "9", "--lp", HUGE), "'--lp'"),
        (("unit", "add", "Z", "--max-hp", "9", "--hp", HUGE), "'--hp'"),
        (("unit", "add", "Z", "--max-hp", "9", "--stat", f"str={HUGE}"), "--stat"),
        (("unit", "add", "Z", "--max-hp", "9", "--slv", f"1h-sword={HUGE}"), "--slv"),
        (("unit", "add", "Z", "--max-hp", "9", "--weapon", f"1h-sword={HUGE}"), "--weapon"),
        (("unit", "add", "Z", "--max-hp", "9", "--resist", f"slash={HUGE}"), "--resist"),
        (("unit", "add", "Z", "--max-hp", "9", "--five", f"wood={HUGE}"), "--five"),
        (("unit", "add", "Z", "--max-hp", "9", "--trait", f"attack={HUGE}"), "--trait"),
        (("unit", "add", "Z", "--max-hp", "9", "--guard-rate", HUGE), "'--guard-rate'"),
        (
            ("unit", "add", "Z", "--enemy", "--max-hp", "9", "--intrinsic-hp", HUGE),
            "'--intrinsic-hp'",
        ),
        (
            (
                "tech",
                "add",
                "t",
                "--power",
                HUGE,
                "--attack-count",
                "1",
                "--random-width",
                "5",
                "--weapon-type",
                "enemy",
            ),
            "'--power'",
        ),
        (
            (
                "tech",
                "add",
                "t",
                "--power",
                "9",
                "--attack-count",
                "101",
                "--random-width",
                "5",
                "--weapon-type",
                "enemy",
            ),
            "'--attack-count'",
        ),
        (
            (
                "tech",
                "add",
                "t",
                "--power",
                "9",
                "--attack-count",
                "1",
                "--random-width",
                "5",
                "--weapon-type",
                "enemy",
                "--lp-cost",
                HUGE,
            ),
            "'--lp-cost'",
        ),
        (("buff", "Gustave", "--attack", HUGE, "--by", "Ward"), "'--attack'"),
        (("buff", "Gustave", "--tech-power", HUGE, "--by", "Ward"), "'--tech-power'"),
    ],
)
def test_numbers_beyond_any_game_are_usage_errors_naming_the_option(log: Path, args, name):
    """A number of 2**64 or more never reaches the log: exit 2 naming the option."""
    err = refused(log, "saga", *args, status=2)
    assert f"Invalid value for {name}" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ({"max_hp": "abc"}, 'max_hp must be a whole number from 1 to 1000000000, got "abc"'),
        ({"max_hp": int(HUGE)}, f"max_hp must be a whole number from 1 to 1000000000, got {HUGE}"),
        (
            {"max_hp": 9, "stats": {"str": None}},
            "stats.str must be a whole number from 0 to 10000, got null",
        ),
        (
            {"max_hp": 9, "weapons": {"1h-sword": "x"}},
            'weapons.1h-sword must be a whole number from 0 to 10000, got "x"',
        ),
        ({"max_hp": 9, "stats": [1, 2]}, "stats must be a table of names and numbers, got [1, 2]"),
        (
            {"max_hp": 9, "traits": [{"kind": "attack"}]},
            "traits[0].value must be a whole number from -10000 to 10000, got null",
        ),
        (
            {"max_hp": 9, "intrinsic_hp": 0},
            "intrinsic_hp must be a whole number from 1 to 1000000000, got 0",
        ),
        ({"max_hp": 9, "race": 5}, "race must be text, got 5"),
        ({"max_hp": 9, "side": "foe"}, 'side must be ally or enemy, got "foe"'),
        (
            {"max_hp": 9, "hp_floor_rate": "x"},
            'the HP floor rate must be a percentage such as 50 or 12.5, got "x"',
        ),
        (
            {"max_hp": 9, "hp_floor_rate": "1e-99999"},
            'the HP floor rate must be a percentage such as 50 or 12.5, got "1e-99999"',
        ),
    ],
)
def test_bad_sheet_values_are_named_in_words(log: Path, tmp_path: Path, sheet, message):
    """A sheet value of the wrong kind is a usage error naming its key, not a Python exception."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(sheet))
    err = refused(log, "saga", "unit", "add", "Z", "--sheet", str(path), status=2)
    assert message in err
    assert "Traceback" not in err and "int()" not in err and "{'" not in err


KNOWN = (
    "side, max_hp, hp, lp, stats, slv, weapons, resistances, five, traits, race, "
    "hp_floor_rate, intrinsic_hp, battle_rank, guard_rate, formation_attack, "
    "formation_defense"
)


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (
            {"max_hp": 9, "resistence": {"slash": 5}},
            f'unknown key "resistence" in the sheet; did you mean "resistances"? (known: {KNOWN})',
        ),
        ({"max_hp": 9, "colour": "red"}, f'unknown key "colour" in the sheet (known: {KNOWN})'),
        (
            {"max_hp": 9, "traits": [{"kind": "attack", "valeu": 5}]},
            'unknown key "valeu" in traits[0]; did you mean "value"? (known: kind, value, on)',
        ),
    ],
    ids=["resistence", "colour", "trait-valeu"],
)
def test_an_unknown_sheet_key_is_a_usage_error_naming_it(log: Path, tmp_path: Path, sheet, message):
    """A typo in a sheet key is not silently dropped: exit 2 naming the key, no unit added."""
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(sheet))
    err = refused(log, "saga", "unit", "add", "Z", "--sheet", str(path), status=2)
    assert message in err


def test_hp_0_from_the_options_is_kept(log: Path):
    """`unit add … --hp 0` adds the unit at 0 HP (it was read as "not given": full HP)."""
    ok(log, "saga", "unit", "add", "Husk", "--max-hp", "50", "--hp", "0")
    assert tuple(json.loads(ok(log, "state", "Husk", "--json"))[k] for k in ("hp", "hp_max")) == (
        0,
        50,
    )


@pytest.mark.rule("SAGA-ATK-2")
def test_single_target_refusal_reads_as_english(log: Path):
    """Two --target for a single-target tech: `hits one target (single)`."""
    err = refused(
        log, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf", "--target", "Ward"
    )
    assert (
        err == "error: SAGA-ATK-2: kiri-harai hits one target (single): give one --target, not 2\n"
    )


@pytest.mark.rule("SAGA-ATK-11")
def test_situation_numbers_are_bounded(log: Path):
    """`--situation combo=…` beyond 10000 is a usage error (exit 2) naming SAGA-ATK-11 and
    the bound."""
    err = refused(
        log,
        "saga",
        "cast",
        "Gustave",
        "kiri-harai",
        "--target",
        "Wolf",
        "--situation",
        f"combo={HUGE}",
        status=2,
    )
    assert (
        f"Error: Invalid value for --situation: SAGA-ATK-11: situation combo must be a whole "
        f"number from 0 to 10000, not '{HUGE}'\n"
    ) == err.splitlines(keepends=True)[-1]


WEAPON_TYPES = (
    "1h-sword, 2h-sword, 1h-gun, 2h-gun, martial-arts, monster, melee-mech, shooting-mech, "
    "support-mech, spell, inherited, enemy"
)
UNKNOWN_WORDS = [
    pytest.param(
        ("cast", "Gustave", "kiri-harai", "--target", "Wolf", "--situation", "mood=1"),
        "--situation: SAGA-ATK-11: unknown situation 'mood' (known: defending, guard, "
        "earth_shield, angry, slayer, instant_death_class, instant_death, drain, full_heal, "
        "support, overdrive, confused, protect, combo, defend_void, outcome)",
        marks=pytest.mark.rule("SAGA-ATK-11"),
    ),
    pytest.param(
        ("cast", "Gustave", "kiri-harai", "--target", "Wolf", "--situation", "guard=maybe"),
        "--situation: SAGA-ATK-11: situation guard must be yes or no, not 'maybe'",
        marks=pytest.mark.rule("SAGA-ATK-11"),
    ),
    pytest.param(
        ("unit", "add", "Kat", "--max-hp", "9", "--enemy", "--hp-floor-rate", "150"),
        "--hp-floor-rate: SAGA-HP-1: the HP floor rate is a percentage from 0 to 100, got 150",
        marks=pytest.mark.rule("SAGA-HP-1"),
    ),
    pytest.param(
        ("unit", "add", "Kat", "--max-hp", "9", "--stat", "luck=3"),
        "--stat: SAGA-ATK-5: unknown stat 'luck' (known: str, tec, agi, vit, int, con)",
        marks=pytest.mark.rule("SAGA-ATK-5"),
    ),
    pytest.param(
        ("unit", "add", "Kat", "--max-hp", "9", "--weapon", "1h-sord=30"),
        f"--weapon: SAGA-ATK-5: unknown weapon type '1h-sord'; did you mean '1h-sword'? (known: "
        f"{WEAPON_TYPES})",
        marks=pytest.mark.rule("SAGA-ATK-5"),
    ),
    pytest.param(
        ("unit", "add", "Kat", "--max-hp", "9", "--slv", "gun=3"),
        f"--slv: SAGA-ATK-5: unknown weapon type 'gun'; did you mean '2h-gun'? (known: "
        f"{WEAPON_TYPES})",
        marks=pytest.mark.rule("SAGA-ATK-5"),
    ),
    pytest.param(
        ("unit", "add", "Kat", "--max-hp", "9", "--five", "air=3"),
        "--five: SAGA-ATK-9: unknown element 'air' (known: wood, fire, earth, metal, water)",
        marks=pytest.mark.rule("SAGA-ATK-9"),
    ),
    pytest.param(
        ("unit", "add", "Kat", "--max-hp", "9", "--trait", "atack/slash=5"),
        "--trait: SAGA-EFF-4: unknown trait kind 'atack'; did you mean 'attack'? (known: "
        "tech-power, anger-power, defense-resist, guard-rate, target-guard-rate, attack, "
        "defense)",
        marks=pytest.mark.rule("SAGA-EFF-4"),
    ),
]


@pytest.mark.parametrize(("args", "message"), UNKNOWN_WORDS)
def test_an_unknown_keyword_value_is_a_usage_error(log: Path, args, message):
    """Issue 15 item 23: a situation, stat, weapon type, element or trait kind the game does not
    have, or an HP floor rate outside 0..100, is a usage error (exit 2) naming the option, the
    rule and the value; log unchanged."""
    err = refused(log, "saga", *args, status=2)
    assert f"Error: Invalid value for {message}\n" == err.splitlines(keepends=True)[-1]


@pytest.mark.rule("CORE-NAME")
def test_a_tech_id_with_a_comma_is_refused(log: Path):
    """A session tech's id is a name like any other: no comma (issue 15 item 22)."""
    args = ("tech", "add", "slash,x", "--power", "3", "--attack-count", "1")
    err = refused(log, "saga", *args, "--random-width", "5", "--weapon-type", "1h-sword")
    assert err == (
        "error: CORE-NAME: a tech id cannot hold a comma (commas separate names in options like "
        "--who A,B): 'slash,x'\n"
    )


@pytest.mark.rule("SAGA-ATK-9")
def test_a_sheet_with_an_unknown_element_is_a_usage_error(log: Path, tmp_path: Path):
    """A sheet's `five = {air = 3}` is refused as the option is (exit 2), naming --sheet."""
    sheet = tmp_path / "kat.json"
    sheet.write_text(json.dumps({"max_hp": 9, "five": {"air": 3}}))
    err = refused(log, "saga", "unit", "add", "Kat", "--sheet", str(sheet), status=2)
    assert err.endswith(
        "Error: Invalid value for --sheet: SAGA-ATK-9: unknown element 'air' (known: wood, fire, "
        "earth, metal, water)\n"
    )


def test_calc_refuses_a_weapon_power_that_is_not_a_number():
    """`saga calc --weapon-power abc` is a usage error naming the option, not a traceback."""
    result = calc(*KIRI[:3], "--weapon-power", "abc", *KIRI[5:])
    assert result.exit_code == 2
    assert "Invalid value for --weapon-power: 'abc' is not a number" in result.stderr


def test_calc_says_one_attack_process():
    """The calculator's first line reads `1 attack process`, not `process(es)`."""
    assert calc(*KIRI).stdout.splitlines()[0] == "tech kiri-harai: 1 attack process"
