"""`tablelog status`: one line per character, unit or item with its system's figures; `state`
also shows what it used to leave out (magicpunk's round and briefing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import ok, refused

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The status board at the end of each example session, by system."""
    found = {}
    for script in sorted(EXAMPLES.glob("*.txt")):
        log = tmp_path_factory.mktemp(script.stem) / "s.tlog"
        ok(log, "run", str(script))
        found[script.stem.split("-")[0]] = ok(log, "status").splitlines()
    return found


def line_of(board: list[str], name: str) -> list[str]:
    """The figures of NAME's line, split on the two-space column gaps."""
    [line] = [x for x in board if x.startswith(f"{name} ")]
    return [part.strip() for part in line.split("  ") if part.strip()][1:]


def test_fate_board(boards: dict[str, list[str]]) -> None:
    """The fourth-war night ends out of battle: Kiritsugu 20/40 HP, 26/30 MP, 4/6 tiles."""
    board = boards["fate"]
    assert board[:2] == ["fate session 'Fourth war, night one', at #21", "no battle"]
    assert line_of(board, "Kiritsugu") == ["master", "HP 20/40", "MP 26/30", "tiles 4/6"]
    assert line_of(board, "Lancer") == ["servant", "HP 10/60", "MP 5/60"]


def test_magicpunk_board(boards: dict[str, list[str]]) -> None:
    """The rest stop ends at day 2 06:10, round 1; Bram 12/34 HP with 2 cards; Aria holds 4
    (dawn drew the A-battery's card into her hand), the A-battery none; 41 to draw, 7 discarded."""
    board = boards["magicpunk"]
    assert board[1] == "day 2 06:10, round 1; draw pile 41, discard 7"
    bram = line_of(board, "Bram")
    assert (bram[0], bram[2]) == ("HP 12/34", "2500 Mj")
    assert bram[1].startswith("hand 2 (")
    assert line_of(board, "Aria")[1].startswith("hand 4 (")
    assert line_of(board, "a-battery") == ["item of Aria", "cards 0"]


def test_pf2e_board(boards: dict[str, list[str]]) -> None:
    """The smithy week: the longsword's name, holder, level 8, 1100 gp and its dormant frost."""
    assert line_of(boards["pf2e"], "longsword-1") == [
        "+1 striking flaming longsword",
        "held by Valeros",
        "level 8",
        "1100 gp",
        "dormant frost",
    ]
    assert line_of(boards["pf2e"], "Valeros") == ["level 14", "12 formulas", "spent 7498.5 gp"]


def test_saga_board(boards: dict[str, list[str]]) -> None:
    """The wolf road: turn 4 on wood terrain; Gustave 276/320 HP, LP 10/12, attack +10; the
    wolf is down."""
    board = boards["saga"]
    assert board[1] == "battle: turn 4; five elements wood +5 earth -5"
    assert line_of(board, "Gustave") == ["ally", "HP 276/320", "LP 10/12", "attack +10"]
    assert line_of(board, "Wolf") == ["enemy", "HP 0/1200", "down"]


@pytest.mark.rule("FATE-CAST-5")
def test_fate_effects_show_turns_left(tmp_path: Path) -> None:
    """Two defense tiles of grade 5 raised in turn 1 show 3 turns left, then 2 after a turn."""
    log = tmp_path / "war.tlog"
    ok(log, "init", "--system", "fate")
    ok(
        log,
        "fate",
        "master",
        "add",
        "Kiritsugu",
        "--quality",
        "B",
        "--quantity",
        "C",
        "--crest",
        "D",
        "--attribute",
        "fire",
        "--attribute",
        "earth",
        "--hp",
        "40",
        "--mp",
        "30",
        "--cc-budget",
        "20",
    )
    ok(log, "fate", "battle", "start")
    ok(log, "fate", "cast", "Kiritsugu", "defense", "--grade", "5", "--tiles", "2")
    board = ok(log, "status").splitlines()
    assert board[1] == "battle: round 1, turn 1"
    assert line_of(board, "Kiritsugu")[-1] == "effects: defense 5x2, 3 turns"
    ok(log, "fate", "turn")
    assert (
        line_of(ok(log, "status").splitlines(), "Kiritsugu")[-1] == "effects: defense 5x2, 2 turns"
    )


@pytest.mark.rule("MP-BRIEF-1")
def test_magicpunk_round_and_briefing_in_status_and_state(tmp_path: Path) -> None:
    """A 1-minute briefing with one preparation by Aria shows on the board and in `state`."""
    log = tmp_path / "b.tlog"
    ok(log, "init", "--system", "magicpunk", "--clock", "1 22:00")
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
    ok(log, "magicpunk", "briefing", "start", "1m")
    ok(log, "magicpunk", "briefing", "prepare", "Aria")
    ok(log, "magicpunk", "round")
    assert (
        ok(log, "status").splitlines()[1]
        == "day 1 22:00, round 2, briefing 1m (Aria 1); draw pile 54, discard 0"
    )
    state = ok(log, "state").splitlines()
    assert state[-3:-1] == ["table:", "  round: 2"]
    assert state[-1].startswith('  briefing: {"package": "1m"')


def test_a_missing_log_is_exit_3(tmp_path: Path) -> None:
    """No log: exit 3, one error line, nothing created."""
    assert refused(tmp_path / "none.tlog", "status", status=3).startswith("error: ")
    assert not (tmp_path / "none.tlog").exists()
