"""The fate CLI end to end: output, JSON keys, exit codes, refusals that leave the log unchanged."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.support import cli

rule = pytest.mark.rule

TABLE = [
    "init --system fate --seed 1",
    "fate master add Kiritsugu --quality B --quantity C --crest D --attribute fire"
    " --attribute earth --hp 40 --mp 30 --cc-budget 20",
    "fate master add Tokiomi --quality A --quantity B --crest B --attribute fire --hp 40 --mp 40"
    " --cc-budget 20",
    "fate servant add Saber --hp 60 --mp 80 --np-budget 15",
    "fate phantasm add Saber excalibur --grade A++ --type anti-fortress",
    "fate servant add Lancer --hp 60 --mp 60",
    "fate battle start",
]


def ok(log: Path, line: str) -> str:
    """Run one tablelog command line (without `tablelog`) that must succeed; return stdout."""
    return cli.ok(log, *shlex.split(line))


def refused(log: Path, line: str, status: int = 1) -> str:
    """Run a command line that must fail with ``status`` and leave the log unchanged; stderr."""
    return cli.refused(log, *shlex.split(line), status=status)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A fate log with Kiritsugu, Tokiomi, Saber (Excalibur) and Lancer, battle started."""
    path = tmp_path / "war.tlog"
    for line in TABLE:
        ok(path, line)
    return path


def state(log: Path) -> dict:
    return json.loads(ok(log, "state --json"))


def last(err: str) -> str:
    """The last line of a usage error as click's test runner prints it."""
    return err.splitlines()[-1]


def test_cast_prints_events_and_changes(log: Path) -> None:
    """A defense cast prints the cast and the effect with every value it changed."""
    out = ok(log, "fate cast Kiritsugu defense --grade 5 --tiles 2")
    assert out.splitlines()[:3] == [
        "#7 fate.CodeCast Kiritsugu defense grade 5: 2 tiles on Kiritsugu; 4 MP",
        "    characters.Kiritsugu.mp: 30 -> 26",
        "    characters.Kiritsugu.tiles: 6 -> 4",
    ]
    assert out.splitlines()[3].startswith(
        "#8 fate.EffectRaised Kiritsugu: defense grade 5 x 2 tiles"
    )


def test_json_keys_the_spec_pins(log: Path) -> None:
    """Every character has the SPEC keys; phantasms and effects have theirs; the clock too."""
    ok(log, "fate cast Kiritsugu defense --grade 5 --tiles 1")
    data = state(log)
    keys = {
        "hp",
        "hp_max",
        "role",
        "mp",
        "mp_max",
        "tiles",
        "tiles_max",
        "chants",
        "row",
        "effects",
        "phantasms",
    }
    for record in data["characters"].values():
        assert keys <= set(record)
    effect = data["characters"]["Kiritsugu"]["effects"][0]
    assert {"kind", "grade", "tiles", "turns_left", "target"} <= set(effect)
    np = data["characters"]["Saber"]["phantasms"]["excalibur"]
    assert {"grade", "type", "mp_cost", "hp_per_tile", "mp_per_tile", "targets"} <= set(np)
    assert data["clock"] == {"battle": True, "round": 1, "turn": 1}
    roles = (data["characters"]["Tokiomi"]["role"], data["characters"]["Saber"]["role"])
    assert roles == ("master", "servant")


def test_turn_and_round_move_the_clock(log: Path) -> None:
    """turn -> turn 2; round -> round 2, turn 1."""
    ok(log, "fate turn")
    assert state(log)["clock"] == {"battle": True, "round": 1, "turn": 2}
    ok(log, "fate round")
    assert state(log)["clock"] == {"battle": True, "round": 2, "turn": 1}


@rule("FATE-NP-6")
def test_release_history_shows_np_and_per_tile_damage(log: Path) -> None:
    """history Lancer shows Excalibur's 5 tiles of 10 HP 11 MP and the 50 HP 55 MP total."""
    ok(log, "fate release Saber excalibur --target Lancer")
    out = ok(log, "history Lancer")
    assert "Lancer takes 50 HP, 55 MP (Saber excalibur)" in out
    assert "per tile = 10 HP, 11 MP" in out
    assert "tile 5 = 10 HP 11 MP" in out
    damage = out.split("fate.DamageTaken Lancer takes", 1)[1]
    assert "· rule FATE-NP-6, FATE-NP-7\n" in damage and "FATE-CAST-4" not in damage
    lancer = state(log)["characters"]["Lancer"]
    assert (lancer["hp"], lancer["mp"]) == (10, 5)


def test_dry_run_appends_nothing(log: Path) -> None:
    """--dry-run shows the release and leaves the log as it was."""
    before = log.read_bytes()
    out = ok(log, "fate release Saber excalibur --target Lancer --dry-run")
    assert "dry run" in out and before == log.read_bytes()


@rule("FATE-NP-5")
def test_undoing_a_release_and_its_damage_gives_everything_back(log: Path) -> None:
    """Undoing Excalibur's damage and release (however undo groups a command's events) gives
    Saber's 50 MP and Lancer's 50 HP and 55 MP back."""
    out = ok(log, "fate release Saber excalibur --target Lancer")
    seqs = [int(line.split()[0][1:]) for line in out.splitlines() if line.startswith("#")]
    assert [line.split()[1] for line in out.splitlines() if line.startswith("#")] == [
        "fate.PhantasmReleased",
        "fate.DamageTaken",
    ]
    for seq in reversed(seqs):  # the damage first; the release unless it went with the damage
        entries = [json.loads(line) for line in ok(log, "log --all --json").splitlines()]
        if not next(entry["undone"] for entry in entries if entry["seq"] == seq):
            ok(log, f"undo {seq}")
    saber, lancer = state(log)["characters"]["Saber"], state(log)["characters"]["Lancer"]
    assert (saber["mp"], lancer["hp"], lancer["mp"]) == (80, 60, 60)


# --- refusals: exit 1, the rule ID and the values on stderr, the log unchanged ------------


@rule("FATE-CC-3")
def test_double_plus_circuit_is_refused(log: Path) -> None:
    """A quality A++ circuit is refused with FATE-CC-3 naming A++."""
    err = refused(
        log,
        "fate master add Kayneth --quality A++ --quantity C --crest C"
        " --attribute water --hp 40 --mp 40 --cc-budget 20",
    )
    assert err.startswith("error: FATE-CC-3: ") and "A++" in err


@rule("FATE-CAST-2")
def test_grade_above_power_is_refused(log: Path) -> None:
    """Kiritsugu's attack power is 3: an attack of grade 4 is refused naming 4 and 1..3."""
    err = refused(log, "fate cast Kiritsugu attack --grade 4 --tiles 1 --target Lancer")
    assert err.startswith("error: FATE-CAST-2: ") and "grade 4" in err and "1..3" in err


@rule("FATE-CC-7")
def test_kind_the_attributes_do_not_allow_is_refused(log: Path) -> None:
    """Kiritsugu (fire, earth) cannot curse: the clause that forbids it is FATE-CC-7."""
    err = refused(log, "fate cast Kiritsugu curse --grade 1 --tiles 1 --target Lancer")
    assert err == (
        "error: FATE-CC-7: cannot cast curse: the caster may cast attack, defense, heal and buff\n"
    )


@rule("FATE-CAST-3")
def test_cast_without_enough_mp_is_refused(tmp_path: Path) -> None:
    """Three tiles cost 6 MP; a master with 5 MP is refused naming both."""
    path = tmp_path / "s.tlog"
    ok(path, "init --system fate")
    ok(
        path,
        "fate master add Waver --quality D --quantity C --crest E --attribute wind"
        " --hp 30 --mp 5 --cc-budget 20",
    )
    err = refused(path, "fate cast Waver defense --grade 1 --tiles 3")
    assert err.startswith("error: FATE-CAST-3: ") and "6 MP" in err and "5" in err


@rule("FATE-NP-3")
def test_anti_army_of_grade_d_is_refused(log: Path) -> None:
    """An anti-army NP of grade D is refused naming D."""
    err = refused(log, "fate phantasm add Lancer spear --grade D --type anti-army")
    assert err.startswith("error: FATE-NP-3: ") and "anti-army" in err and " D" in err


@rule("FATE-NP-2")
def test_np_grade_outside_the_table_is_refused(log: Path) -> None:
    """An NP of grade C++ does not exist: a usage error (exit 2) naming FATE-NP-2 and C++."""
    err = refused(log, "fate phantasm add Lancer spear --grade C++ --type anti-unit", 2)
    assert last(err) == (
        "Error: Invalid value for --grade: FATE-NP-2: NP grade C++ does not exist (E, D, C, C+, "
        "B, B+, B++, A, A+, A++, A+++ or EX)"
    )


@rule("FATE-NP-5")
def test_release_without_enough_mp_is_refused(log: Path) -> None:
    """After one Excalibur (80 -> 30 MP) a second, next turn, is refused: 50 MP > 30."""
    ok(log, "fate release Saber excalibur --target Lancer")
    ok(log, "fate turn")
    err = refused(log, "fate release Saber excalibur --target Lancer")
    assert err.startswith("error: FATE-NP-5: ") and "50" in err and "30" in err


@rule("FATE-CHANT-3")
def test_chant_in_the_back_row_is_refused(log: Path) -> None:
    """Tokiomi moves to the back row and cannot chant."""
    ok(log, "fate row Tokiomi back")
    err = refused(log, "fate chant Tokiomi")
    assert err.startswith("error: FATE-CHANT-3: ") and "Tokiomi" in err and "back row" in err


@rule("FATE-NP-7")
def test_too_many_targets_is_refused(log: Path) -> None:
    """Excalibur hits at most 3 front-row targets; 4 are refused."""
    err = refused(
        log,
        "fate release Saber excalibur --target Lancer --target Kiritsugu"
        " --target Tokiomi --target Saber",
    )
    assert err.startswith("error: FATE-NP-7: ") and "3" in err and "4" in err


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("fate cast Ghost attack --grade 1 --tiles 1 --target Lancer", ["Ghost"]),
        ("fate cast Tokiomi attack --grade 1 --tiles 1 --target Ghost", ["Ghost"]),
        ("fate release Saber avalon --target Lancer", ["avalon", "excalibur"]),
        ("fate damage Ghost --hp 3", ["Ghost"]),
        ("fate chant Ghost", ["Ghost"]),
        ("fate row Ghost back", ["Ghost"]),
        ("fate phantasm add Ghost x --grade C --type anti-unit", ["Ghost"]),
        ("fate dismiss Saber ubw", ["ubw"]),
    ],
)
def test_unknown_names_are_refused(log: Path, line: str, words: list) -> None:
    """An unknown character or NP is refused with UNKNOWN-NAME naming it."""
    err = refused(log, line)
    assert err.startswith("error: UNKNOWN-NAME: ")
    for word in words:
        assert word in err


@rule("FATE-CC-7")
def test_unknown_attribute_is_refused(log: Path) -> None:
    """The attribute 'lightning' is a usage error (exit 2) naming FATE-CC-7 (issue 15 item 23)."""
    err = refused(
        log,
        "fate master add Kayneth --quality A --quantity C --crest C"
        " --attribute lightning --hp 40 --mp 40 --cc-budget 20",
        2,
    )
    assert last(err) == (
        "Error: Invalid value for --attribute: FATE-CC-7: unknown attribute lightning (earth, "
        "water, fire, wind, ether, hollow or none; or 지 수 화 풍 공 허 무)"
    )


@rule("FATE-NP-13")
def test_unknown_modifier_is_refused(log: Path) -> None:
    """The modifier 'sparkle' is a usage error (exit 2) naming FATE-NP-13 and it; a modifier that
    does not fit the NP stays a refusal (exit 1)."""
    err = refused(
        log, "fate phantasm add Lancer spear --grade C --type anti-unit --mod sparkle=1", 2
    )
    assert last(err).startswith(
        "Error: Invalid value for --mod: FATE-NP-13: unknown modifier sparkle (known: "
    )
    err = refused(log, "fate phantasm add Lancer spear --grade C --type anti-unit --mod drain=8")
    assert err == (
        "error: FATE-NP-13: modifier drain is for a bounded field, not a true-name anti-unit "
        "attack NP\n"
    )


def test_bad_mod_syntax_is_a_usage_error(log: Path) -> None:
    """--mod without '=' is a usage error (exit 2) and appends nothing."""
    refused(log, "fate phantasm add Lancer spear --grade C --type anti-unit --mod piercing", 2)


def test_battle_start_twice_is_refused(log: Path) -> None:
    """A second battle start is refused (FATE-CC-6) and the log is unchanged."""
    err = refused(log, "fate battle start")
    assert err.startswith("error: FATE-CC-6: ")


@rule("FATE-UA-2")
def test_negative_character_grade_is_a_usage_error(log: Path) -> None:
    """`fate master grade Tokiomi -5` says the grade must be 0 or more (not "No such option")."""
    err = refused(log, "fate master grade Tokiomi -5", 2)
    assert "must be 0 or more, got -5" in err and "No such option" not in err


@rule("FATE-UA-2")
def test_character_grade_zero_is_accepted(log: Path) -> None:
    """`fate master grade Tokiomi 0` sets the grade a master starts with."""
    ok(log, "fate master grade Tokiomi 12")
    ok(log, "fate master grade Tokiomi 0")
    assert state(log)["characters"]["Tokiomi"]["character_grade"] == 0


@rule("FATE-CC-10")
def test_stored_spell_grades_may_be_letters(log: Path) -> None:
    """`--stored attack=A --stored heal=2` on a crest A stores attack 5 and heal 2."""
    ok(
        log,
        "fate master add Kayneth --quality A --quantity C --crest A --attribute water"
        " --hp 40 --mp 40 --cc-budget 20 --stored attack=A --stored heal=2",
    )
    assert state(log)["characters"]["Kayneth"]["stored"] == {"attack": 5, "heal": 2}


@rule("FATE-CC-10")
def test_a_stored_grade_that_is_no_grade_says_what_is_expected(log: Path) -> None:
    """`--stored attack=Q` is a usage error naming Q and the numbers or letters a grade may be."""
    err = refused(
        log,
        "fate master add Kayneth --quality A --quantity C --crest A"
        " --attribute water --hp 40 --mp 40 --cc-budget 20"
        " --stored attack=Q",
        2,
    )
    assert last(err) == (
        "Error: Invalid value for --stored: FATE-CC-10: stored attack spell grade Q is not a "
        "grade: give a number or a letter E, D, C, B, A"
    )


@rule("FATE-CAST-4")
def test_anti_magic_may_be_a_letter(log: Path) -> None:
    """A servant with `--anti-magic B` has anti-magic 4: Tokiomi's attack grade 4 deals 0 HP."""
    ok(log, "fate servant add Caster --hp 50 --mp 50 --anti-magic B")
    assert state(log)["characters"]["Caster"]["anti_magic"] == 4
    ok(log, "fate cast Tokiomi attack --grade 4 --tiles 1 --target Caster")
    assert state(log)["characters"]["Caster"]["hp"] == 50


@rule("FATE-CAST-2")
def test_cast_grade_may_be_a_letter(log: Path) -> None:
    """`--grade C` is grade 3: Tokiomi's attack on Lancer deals 2 x 3 = 6 HP."""
    out = ok(log, "fate cast Tokiomi attack --grade C --tiles 1 --target Lancer")
    assert "Tokiomi attack grade 3" in out
    assert state(log)["characters"]["Lancer"]["hp"] == 54


@rule("FATE-NP-13")
def test_numeric_modifiers_are_numbers_in_the_state(log: Path) -> None:
    """`--mod hp-per-tile=-2 --mod concealment=TRUE` are stored as -2 and true, not as text."""
    ok(
        log,
        "fate phantasm add Lancer spear --grade C --type anti-unit --mod hp-per-tile=-2"
        " --mod concealment=TRUE",
    )
    spear = state(log)["characters"]["Lancer"]["phantasms"]["spear"]
    assert spear["mods"] == {"hp-per-tile": -2, "concealment": True}
    assert spear["hp_per_tile"] == 2  # 2 x 3 - 2 - 2 (concealment)


@rule("FATE-NP-13")
def test_a_modifier_given_twice_is_refused(log: Path) -> None:
    """Two `--mod targets=…` are refused naming the key, not silently the last one."""
    err = refused(
        log,
        "fate phantasm add Lancer spear --grade C --type anti-unit --mod targets=2 --mod targets=3",
    )
    assert err.startswith("error: FATE-NP-13: modifier targets given twice")


@rule("FATE-CAST-7")
def test_two_one_tile_buffs_on_one_target_are_refused(log: Path) -> None:
    """The second `fate cast Tokiomi buff --grade 2 --tiles 1 --target Saber` is refused:
    Saber keeps one buff effect."""
    ok(log, "fate cast Tokiomi buff --grade 2 --tiles 1 --target Saber")
    err = refused(log, "fate cast Tokiomi buff --grade 2 --tiles 1 --target Saber")
    assert err.startswith("error: FATE-CAST-7: Saber already holds a buff tile (effect #1")
    assert [(e["kind"], e["tiles"]) for e in state(log)["characters"]["Saber"]["effects"]] == [
        ("buff", 1)
    ]


def test_numbers_beyond_any_game_are_usage_errors_naming_the_option(tmp_path: Path) -> None:
    """A huge --hp, --cc-budget or damage is a usage error naming the option, log unchanged."""
    log = tmp_path / "big.tlog"
    cli.ok(log, "init", "--system", "fate")
    huge = "99999999999999999999"
    for args in (
        (
            "fate",
            "master",
            "add",
            "K",
            "--quality",
            "B",
            "--quantity",
            "C",
            "--crest",
            "D",
            "--attribute",
            "fire",
            "--hp",
            huge,
            "--mp",
            "30",
            "--cc-budget",
            "20",
        ),
        ("fate", "servant", "add", "S", "--hp", "60", "--mp", "60", "--np-budget", huge),
        ("fate", "damage", "S", "--hp", huge),
    ):
        err = cli.refused(log, *args, status=2)
        assert "--" in err and "range" in err


def test_huge_grades_are_refused_before_they_reach_the_log(tmp_path: Path) -> None:
    """A 20-digit character grade is a usage error (it was CORE-SIZE after deciding); an
    anti-magic grade over 1000 is FATE-CAST-4; the log stays unchanged."""
    log = tmp_path / "grades.tlog"
    cli.ok(log, "init", "--system", "fate")
    master = (
        "fate",
        "master",
        "add",
        "K",
        "--quality",
        "B",
        "--quantity",
        "C",
        "--crest",
        "D",
        "--attribute",
        "fire",
        "--hp",
        "30",
        "--mp",
        "30",
        "--cc-budget",
        "20",
    )
    cli.ok(log, *master)
    err = cli.refused(log, "fate", "master", "grade", "K", "99999999999999999999", status=2)
    assert "must be at most 1000000000" in err
    err = cli.refused(log, *master[:3], "J", *master[4:], "--character-grade", "9" * 20, status=2)
    assert "--character-grade" in err
    err = cli.refused(log, *master[:3], "J", *master[4:], "--anti-magic", "9999999", status=2)
    assert (
        last(err)
        == "Error: Invalid value for --anti-magic: FATE-CAST-4: anti-magic 9999999 is over 1000"
    )


# --- randomness: fate has none; undoing and retaking an action gives the same result ----------


@rule("FATE-CAST-4")
@rule("FATE-NP-6")
def test_undo_and_the_same_action_again_give_the_same_result_three_times(log: Path) -> None:
    """Tokiomi's 2-tile grade-4 attack on Kiritsugu deals 16 HP and Excalibur's release on Lancer
    50 HP and 55 MP, each time they are undone and taken again, three times over (fate decides
    nothing by chance: docs/fate.md)."""
    results = []
    for _ in range(3):
        cast = ok(log, "fate cast Tokiomi attack --grade 4 --tiles 2 --target Kiritsugu")
        release = ok(log, "fate release Saber excalibur --target Lancer")
        results.append(
            [
                line.split(" ", 1)[1] if line.startswith("#") else line
                for line in cast.splitlines()[-2:] + release.splitlines()[3:]
            ]
        )
        after = state(log)["characters"]
        assert (
            after["Kiritsugu"]["hp"],
            after["Lancer"]["hp"],
            after["Lancer"]["mp"],
            after["Saber"]["mp"],
        ) == (24, 10, 5, 30)
        ok(log, "undo")
        ok(log, "undo")
        back = state(log)["characters"]
        assert (
            back["Kiritsugu"]["hp"],
            back["Lancer"]["hp"],
            back["Lancer"]["mp"],
            back["Saber"]["mp"],
        ) == (40, 60, 60, 80)
    assert results[0] == results[1] == results[2]
    assert results[0][0] == "fate.DamageTaken Kiritsugu takes 16 HP, 0 MP (Tokiomi attack)"


@rule("FATE-CC-1")
def test_the_cc_budget_is_required_as_the_seed_gives_no_number(log: Path) -> None:
    """`fate master add` without --cc-budget is a usage error naming the option."""
    err = refused(
        log,
        "fate master add Kayneth --quality A --quantity C --crest C"
        " --attribute water --hp 40 --mp 40",
        status=2,
    )
    assert "Missing option '--cc-budget'" in err


@rule("FATE-CC-3")
@rule("FATE-CC-9")
def test_a_crest_takes_a_plus_at_c_b_and_a(log: Path) -> None:
    """Crest B+ costs 4 + 2 = 6 CC (quality C 3 + quantity C 3 + 6 = 12 of 12) and heals 4."""
    out = ok(
        log,
        "fate master add Sola --quality C --quantity C --crest B+ --attribute water"
        " --hp 30 --mp 30 --cc-budget 12",
    )
    assert "crest B+" in out and "(12 of 12 CC)" in out
    ok(log, "fate battle end")
    ok(log, "fate damage Sola --hp 10")
    assert "Sola heals 4 HP (magic crest)" in ok(log, "fate morning")


# --- NP abilities on the command line (issue 15) -----------------------------------------------


@rule("FATE-NP-13")
def test_fate_use_shoots_while_the_field_is_up(log: Path) -> None:
    """Archer's UBW (shot-mp 5, shots 1) is raised; a turn later one shot costs 5 MP; a second
    one in the same judgment is refused naming the limit; an unknown ability is a usage error."""
    ok(log, "fate servant add Archer --hp 50 --mp 90 --np-budget 15")
    ok(
        log,
        "fate phantasm add Archer ubw --grade A++ --type field --mod reality-marble=true"
        " --mod shot-mp=5 --mod shots=1",
    )
    ok(log, "fate release Archer ubw")
    ok(log, "fate turn")
    out = ok(log, "fate use Archer ubw shoot")
    assert "fate.AbilityUsed Archer uses ubw's shoot; 5 MP" in out
    assert state(log)["characters"]["Archer"]["mp"] == 60
    err = refused(log, "fate use Archer ubw shoot --times 2")
    assert err == "error: FATE-NP-13: 2 shots asked; this NP fires 1 to 1 in one judgment\n"
    err = refused(log, "fate use Archer ubw fly", status=2)
    assert "'fly' is not one of 'shoot', 'charge'" in err


@rule("FATE-NP-15")
def test_outside_damage_of_a_rank_god_hand_ignores(log: Path) -> None:
    """Herc's God Hand ignores `fate damage --rank C`; an A-rank hit lands; --units on an NP
    without familiars is refused."""
    ok(log, "fate servant add Herc --hp 90 --mp 50")
    ok(
        log,
        "fate phantasm add Herc god-hand --grade B --type anti-unit --form defense"
        " --release always --mod ignores-attacks=true",
    )
    assert "Herc takes 0 HP, 0 MP (external)" in ok(log, "fate damage Herc --hp 10 --rank C")
    assert "Herc takes 10 HP, 0 MP (external)" in ok(log, "fate damage Herc --hp 10 --rank A")
    err = refused(log, "fate release Saber excalibur --target Lancer --units 2")
    assert err == "error: FATE-NP-11: --units is for an NP that summons familiars\n"


# --- issue 15 item 23: one kind of mistake, one exit status ------------------------------------

USAGE = [
    pytest.param(
        "fate damage Saber --hp -1",
        "Error: Invalid value for '--hp': -1 is not in the range 0<=x<=1000000000.",
        id="negative damage",
    ),
    pytest.param(
        "fate servant add Archer --hp 0 --mp 30",
        "Error: Invalid value for '--hp': 0 is not in the range 1<=x<=1000000000.",
        id="no HP",
    ),
    pytest.param(
        "fate cast Tokiomi attack --grade 2 --tiles 0 --target Lancer",
        "Error: Invalid value for '--tiles': 0 is not in the range 1<=x<=10000.",
        id="no tile",
    ),
    pytest.param(
        "fate cast Tokiomi attack --grade -1 --tiles 1 --target Lancer",
        "Error: Invalid value for --grade: FATE-CAST-2: attack grade -1 is below 0",
        marks=rule("FATE-CAST-2"),
        id="negative grade",
    ),
    pytest.param(
        "fate cast Tokiomi fireball --grade 2 --tiles 1 --target Lancer",
        "Error: Invalid value for KIND: FATE-CAST-1: unknown kind fireball: a kind is attack, "
        "defense, heal, buff or curse",
        marks=rule("FATE-CAST-1"),
        id="unknown kind",
    ),
    pytest.param(
        "fate phantasm add Lancer spear --grade C --type anti-sky",
        "Error: Invalid value for --type: FATE-NP-3: unknown NP type anti-sky (anti-unit, "
        "anti-army, anti-fortress, anti-country, anti-world, army or field); did you mean "
        "anti-army or anti-country?",
        marks=rule("FATE-NP-3"),
        id="unknown type",
    ),
    pytest.param(
        "fate phantasm add Lancer spear --grade C --type anti-unit --form shield",
        "Error: Invalid value for --form: FATE-NP-3: unknown form shield (attack or defense)",
        marks=rule("FATE-NP-3"),
        id="unknown form",
    ),
    pytest.param(
        "fate ability add Tokiomi gem --grade C --type gem-shot",
        "Error: Invalid value for --type: FATE-NP-3: unknown NP type gem-shot (anti-unit, "
        "anti-army, anti-fortress, anti-country, anti-world, army or field)",
        marks=rule("FATE-NP-3"),
        id="unknown unique ability type",
    ),
    pytest.param(
        "fate servant add Archer --hp 30 --mp 30 --madness Z",
        "Error: Invalid value for --madness: FATE-NP-4: madness Z is not a grade: give E, D, C, "
        "B, A or EX (or the number 1 to 5), with up to three +",
        marks=rule("FATE-NP-4"),
        id="unknown madness grade",
    ),
    pytest.param(
        "fate damage Saber --hp 5 --rank Z",
        "Error: Invalid value for --rank: FATE-NP-15: rank Z is not a grade: give a number or a "
        "letter E, D, C, B, A or EX (7)",
        marks=rule("FATE-NP-15"),
        id="unknown rank",
    ),
]


@pytest.mark.parametrize(("line", "message"), USAGE)
def test_a_number_out_of_range_or_an_unknown_word_is_a_usage_error(log: Path, line, message):
    """A negative or out-of-range number, or a word the game has no such thing as, is a usage
    error (exit 2) naming the option (and the rule), as in every system; the log unchanged."""
    assert message == last(refused(log, line, 2))


@rule("FATE-CAST-2")
def test_a_grade_above_the_casters_power_stays_a_refusal(log: Path) -> None:
    """What the table does not allow (grade 5 for a caster of attack power 4) is a rule: exit 1."""
    err = refused(log, "fate cast Tokiomi attack --grade 5 --tiles 1 --target Kiritsugu")
    assert err == "error: FATE-CAST-2: attack grade 5 is outside 1..4 (the caster's attack power)\n"


# --- issue 27: the game's words in Japanese and Korean are ids too --------------------------------


def _events(log: Path) -> list[tuple[str, dict]]:
    """The (type, data) of each event: what the log records, the same in any language."""
    lines = ok(log, "log --json").splitlines()
    return [(r["type"], r["data"]) for r in map(json.loads, filter(str.strip, lines))]


@rule("FATE-NP-3")
@pytest.mark.parametrize(
    ("np_type", "form", "release"),
    [
        pytest.param("対軍", "攻撃型", "真名解放型", id="Japanese"),
        pytest.param("対軍宝具", "攻撃型", "真名解放型", id="Japanese with its noun"),
        pytest.param("대군", "공격형", "진명 개방형", id="Korean"),
        pytest.param("대군 보구", "공격형", "진명 개방형", id="Korean with its noun"),
    ],
)
def test_an_np_type_form_and_release_are_accepted_in_japanese_and_korean(
    log: Path, np_type: str, form: str, release: str
) -> None:
    """The glossary's words for anti-army, attack and true-name are those ids: the NP and the
    log's events are the English command's."""
    english = log.parent / "english.tlog"
    for line in TABLE:
        ok(english, line)
    for path, words in (
        (english, ("anti-army", "attack", "true-name")),
        (log, (np_type, form, release)),
    ):
        ok(path, "fate servant add Rider --hp 60 --mp 80 --np-budget 15")
        ok(
            path,
            "fate phantasm add Rider wheel --grade A+"
            " --type '{}' --form '{}' --release '{}'".format(*words),
        )
    np = state(log)["characters"]["Rider"]["phantasms"]["wheel"]
    assert (np["type"], np["form"], np["release"]) == ("anti-army", "attack", "true-name")
    assert _events(log) == _events(english)


@rule("FATE-UA-1")
def test_a_unique_ability_type_is_accepted_in_japanese_and_korean(log: Path) -> None:
    """対人 (Japanese) and 대인 (Korean) are anti-unit for a master's unique ability too; the
    defensive form and the always-active release in Japanese and Korean are NP words as well."""
    ok(log, "fate ability add Tokiomi gem --grade C --type 対人 --starting")
    ok(log, "fate ability add Kiritsugu origin --grade C --type 대인 --starting")
    assert state(log)["characters"]["Tokiomi"]["phantasms"]["gem"]["type"] == "anti-unit"
    assert state(log)["characters"]["Kiritsugu"]["phantasms"]["origin"]["type"] == "anti-unit"
    ok(
        log,
        "fate phantasm add Lancer shield --grade B --type 対人 --form 防御型"
        " --release '상시 해방형'",
    )
    np = state(log)["characters"]["Lancer"]["phantasms"]["shield"]
    assert (np["form"], np["release"]) == ("defense", "always")


@rule("FATE-CAST-1")
def test_a_kind_of_magic_an_attribute_and_a_row_are_accepted_in_japanese_and_korean(
    log: Path,
) -> None:
    """攻撃 and 공격 are attack, 治癒 and 치유 heal (a stored spell too), 火 is fire, 後列 and
    후열 the back row: the events hold the English ids."""
    ok(log, "fate cast Tokiomi 攻撃 --grade 2 --tiles 1 --target Lancer")
    ok(log, "fate cast Tokiomi 공격 --grade 2 --tiles 1 --target Lancer")
    casts = [data for kind, data in _events(log) if kind == "fate.CodeCast"]
    assert [c["kind"] for c in casts] == ["attack", "attack"]
    ok(
        log,
        "fate master add Kayneth --quality A --quantity C --crest C --attribute 水"
        " --attribute 風 --hp 40 --mp 40 --cc-budget 30 --stored 治癒=1 --row 後列",
    )
    kayneth = state(log)["characters"]["Kayneth"]
    assert (kayneth["attributes"], kayneth["stored"], kayneth["row"]) == (
        ["water", "wind"],
        {"heal": 1},
        "back",
    )
    ok(log, "fate row Kayneth 전열")
    ok(log, "fate row Kayneth 후열")
    assert state(log)["characters"]["Kayneth"]["row"] == "back"
    ok(log, "fate cast Kayneth 치유 --grade 1 --tiles 1 --crest")
    assert [d["kind"] for k, d in _events(log) if k == "fate.CodeCast"][-1] == "heal"


@rule("FATE-NP-13")
def test_an_np_ability_is_accepted_in_japanese_and_korean(log: Path) -> None:
    """射撃 (Japanese) and 사격 (Korean) are Archer's shoot."""
    ok(log, "fate servant add Archer --hp 50 --mp 90 --np-budget 15")
    ok(
        log,
        "fate phantasm add Archer ubw --grade A++ --type 結界型 --mod reality-marble=true"
        " --mod shot-mp=5 --mod shots=1",
    )
    ok(log, "fate release Archer ubw")
    ok(log, "fate turn")
    assert "fate.AbilityUsed Archer uses ubw's shoot; 5 MP" in ok(log, "fate use Archer ubw 射撃")
    ok(log, "fate turn")
    assert "fate.AbilityUsed Archer uses ubw's shoot; 5 MP" in ok(log, "fate use Archer ubw 사격")


@rule("FATE-NP-3")
@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        pytest.param("対人宝貝", "対人", id="Japanese"),
        pytest.param("대인보고", "대인", id="Korean"),
        pytest.param("anti-amy", "anti-army", id="English"),
    ],
)
def test_an_unknown_np_type_suggests_the_words_like_it_in_every_language(
    log: Path, typed: str, meant: str
) -> None:
    """A mistyped type is a usage error (exit 2) whose "did you mean" names the glossary's word
    in the language it was typed in; the log unchanged."""
    err = last(refused(log, f"fate phantasm add Lancer spear --grade C --type {typed}", 2))
    assert err.startswith(f"Error: Invalid value for --type: FATE-NP-3: unknown NP type {typed} (")
    assert "; did you mean " in err and meant in err.split("; did you mean ")[1]


def test_a_kind_of_magic_typed_wrong_in_korean_suggests_the_korean_word(log: Path) -> None:
    """ "저주술" is no kind; "did you mean" offers 저주 (curse)."""
    err = last(refused(log, "fate cast Tokiomi 저주술 --grade 1 --tiles 1 --target Lancer", 2))
    assert "FATE-CAST-1: unknown kind 저주술" in err and "did you mean 저주" in err
