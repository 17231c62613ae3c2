"""`tablelog retire NAME`: a character, unit or item leaves the table (issue 20, item 6).

Gone from `status`, `state` and `state --json`'s characters or items (listed under `retired`),
kept in `history`; any later command naming it is refused (CORE-RETIRED); undo brings it back.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.support.cli import ok, refused

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
rule = pytest.mark.rule


def played(tmp_path: Path, example: str) -> Path:
    """A log that holds the example session EXAMPLE (examples/EXAMPLE.txt)."""
    log = tmp_path / "s.tlog"
    ok(log, "run", str(EXAMPLES / f"{example}.txt"))
    return log


def state(log: Path) -> dict:
    return json.loads(ok(log, "state", "--json"))


@pytest.fixture
def smithy(tmp_path: Path) -> Path:
    """The pf2e downtime week, then Kyra hands her mace and clothes to Valeros (#45, #46) and
    retires (#47)."""
    log = played(tmp_path, "pf2e-downtime")
    ok(log, "pf2e", "give", "mace-1", "--to", "Valeros")
    ok(log, "pf2e", "give", "clothes-1", "--to", "Valeros")
    ok(log, "retire", "Kyra", "--reason", "stays in Otari")
    return log


@rule("CORE-RETIRED")
def test_retired_character_leaves_state_and_status(smithy: Path) -> None:
    """Kyra is gone from status, from the text state and from state --json's characters, which
    lists her under retired with her reason; Valeros stays."""
    board = ok(smithy, "status").splitlines()
    assert [line for line in board if line.startswith("Kyra ")] == []
    assert [line.split()[0] for line in board if line.startswith("Valeros ")] == ["Valeros"]
    data = state(smithy)
    assert (
        list(data["characters"]),
        data["retired"],
    ) == (["Valeros"], {"Kyra": {"kind": "character", "reason": "stays in Otari"}})
    text = ok(smithy, "state").splitlines()
    assert text[-2:] == ["retired:", '  Kyra: {"kind": "character", "reason": "stays in Otari"}']


@rule("CORE-RETIRED")
def test_history_keeps_a_retired_character(smithy: Path) -> None:
    """history Kyra still lists her events and ends with the retire, each field -> nothing."""
    lines = ok(smithy, "history", "Kyra").splitlines()
    assert lines[-7].endswith(" gm core.Retired Kyra (stays in Otari)")
    assert lines[-6:] == [
        "    level: 8 -> -",
        "    crafting: expert -> -",
        "    magical_crafting: true -> -",
        "    formulas: [] -> -",
        "    spent_gp: 0 -> -",
        "    · rule CORE-RETIRED",
    ]


MESSAGE = (
    "error: CORE-RETIRED: Kyra is a retired character (stays in Otari): no command may "
    "name it (undo its retire to bring it back: tablelog log --entity Kyra)\n"
)


@rule("CORE-RETIRED")
@pytest.mark.parametrize(
    "line",
    [
        "pf2e give clothes-1 --to Kyra",  # a decider that looks her up: UNKNOWN-NAME turned
        "pf2e formula add Kyra flaming",
        "pf2e character add Kyra --level 3",  # a decider that does not: the event names her
        "note 'farewell' --about Kyra",
        "retire Kyra",
        "state Kyra",
    ],
)
def test_commands_naming_a_retired_character_are_refused(smithy: Path, line: str) -> None:
    """Every command naming Kyra once she is retired is refused with CORE-RETIRED, log unchanged."""
    assert refused(smithy, *shlex.split(line)) == MESSAGE


def test_a_case_twin_of_a_retired_name_needs_force(smithy: Path) -> None:
    """`kyra` next to the retired `Kyra` asks for --force, as next to a present one."""
    err = refused(smithy, "pf2e", "character", "add", "kyra", "--level", "3")
    assert err.startswith("error: CORE-NAME: 'kyra' differs from 'Kyra' only by case")


@rule("CORE-RETIRED")
def test_undo_brings_a_retired_character_back(smithy: Path) -> None:
    """Undoing the retire (#47) puts Kyra back as she was; a note about her (#49) then makes
    redoing the retire a refusal that names #49."""
    before = state(smithy)
    ok(smithy, "undo")
    back = state(smithy)
    assert (back["characters"]["Kyra"], back.get("retired")) == (
        {"level": 8, "crafting": "expert", "magical_crafting": True, "formulas": [], "spent_gp": 0},
        None,
    )
    ok(smithy, "note", "she stays a while", "--about", "Kyra")
    err = refused(smithy, "redo", "47")
    assert "#49" in err and "CORE-RETIRED" in err
    assert "Kyra" not in before["characters"]


@rule("CORE-RETIRED")
def test_undoing_what_a_retire_depends_on_is_refused(tmp_path: Path) -> None:
    """A character added (#45) and retired (#46): undoing the add is refused naming #46."""
    log = played(tmp_path, "pf2e-downtime")
    ok(log, "pf2e", "character", "add", "Ezren", "--level", "3")
    ok(log, "retire", "Ezren")
    err = refused(log, "undo", "45")
    assert "#46" in err and "Ezren" in err


@rule("CORE-REDO")
def test_a_redo_that_no_longer_holds_is_not_its_own_dependency(tmp_path: Path) -> None:
    """Ezren added (#45), retired (#46); the retire undone (#47), then the add (#48): redoing the
    retire is refused because it no longer holds, not because #46 depends on itself."""
    log = played(tmp_path, "pf2e-downtime")
    ok(log, "pf2e", "character", "add", "Ezren", "--level", "3")
    ok(log, "retire", "Ezren")
    ok(log, "undo", "46")
    ok(log, "undo", "45")
    assert refused(log, "redo", "46") == (
        "error: CORE-REDO: #46 cannot be redone: it no longer holds: #46 core.Retired "
        "(UNKNOWN-NAME: no character or item named 'Ezren' to retire)\n"
    )


@rule("CORE-RETIRED")
def test_a_character_who_owns_items_is_not_retired(tmp_path: Path) -> None:
    """Kyra owns mace-1 and clothes-1 at the end of the week: retiring her is refused, naming
    them."""
    log = played(tmp_path, "pf2e-downtime")
    assert refused(log, "retire", "Kyra") == (
        "error: CORE-RETIRED: Kyra owns mace-1, clothes-1: retire or hand over what they "
        "own first\n"
    )


@rule("CORE-RETIRED")
def test_an_item_retires_and_its_owner_then_can(tmp_path: Path) -> None:
    """Retiring mace-1 and clothes-1 leaves items without them; then Kyra retires too."""
    log = played(tmp_path, "pf2e-downtime")
    ok(log, "retire", "mace-1")
    ok(log, "retire", "clothes-1")
    ok(log, "retire", "Kyra")
    data = state(log)
    assert ({k: v["kind"] for k, v in data["retired"].items()}, list(data["items"])) == (
        {"mace-1": "item", "clothes-1": "item", "Kyra": "character"},
        ["longsword-1", "chain-1", "shield-1"],
    )


@rule("CORE-RETIRED")
def test_a_retired_item_leaves_its_owners_list_until_undone(tmp_path: Path) -> None:
    """magicpunk: Aria owns a-battery (empty at the rest stop's end); retired, it leaves
    Aria's items as well as the table's; undoing the retire puts it back in both."""
    log = played(tmp_path, "magicpunk-rest-stop")

    def aria_items() -> list[str]:
        return json.loads(ok(log, "state", "Aria", "--json"))["items"]  # type: ignore[no-any-return]

    assert aria_items() == ["a-battery"]
    ok(log, "retire", "a-battery")
    assert (aria_items(), list(state(log)["items"])) == ([], [])
    ok(log, "undo")
    assert (aria_items(), list(state(log)["items"])) == (["a-battery"], ["a-battery"])


@rule("CORE-RETIRED")
def test_magicpunk_cards_stay_in_the_deck(tmp_path: Path) -> None:
    """Bram holds 2 cards at the rest stop's end: retiring him is refused naming them; Cid,
    who holds none, retires, and dawn and a rest then run without him."""
    log = played(tmp_path, "magicpunk-rest-stop")
    hand = " ".join(state(log)["characters"]["Bram"]["hand"])
    assert (
        f"error: CORE-RETIRED: Bram holds {hand}: play, charge or circulate them first "
        "(the deck keeps every card)\n"
    ) == refused(log, "retire", "Bram")
    ok(
        log,
        "magicpunk",
        "character",
        "add",
        "Cid",
        "--body",
        "10",
        "--sense",
        "10",
        "--intellect",
        "10",
        "--magic",
        "10",
        "--hp",
        "30",
    )
    ok(log, "retire", "Cid")
    ok(log, "magicpunk", "dawn")
    ok(log, "magicpunk", "rest", "8h")
    assert list(state(log)["characters"]) == ["Aria", "Bram"]


@rule("CORE-RETIRED")
def test_fate_round_goes_on_without_a_retired_caster(tmp_path: Path) -> None:
    """Tokiomi casts a defense on himself and Kiritsugu one on himself, then Tokiomi retires:
    turns, rounds and the battle's end go on; a cast by him is refused."""
    log = played(tmp_path, "fate-fourth-war")
    ok(log, "fate", "battle", "start")
    ok(
        log,
        "fate",
        "cast",
        "Kiritsugu",
        "defense",
        "--grade",
        "5",
        "--tiles",
        "2",
        "--target",
        "Kiritsugu",
    )
    ok(log, "retire", "Tokiomi")
    for line in (
        ("fate", "turn"),
        ("fate", "round"),
        ("fate", "battle", "end"),
        ("fate", "morning"),
    ):
        ok(log, *line)
    err = refused(
        log,
        "fate",
        "cast",
        "Tokiomi",
        "attack",
        "--grade",
        "1",
        "--tiles",
        "1",
        "--target",
        "Kiritsugu",
    )
    assert err.startswith("error: CORE-RETIRED: Tokiomi is a retired character")


@rule("CORE-RETIRED")
def test_saga_enemy_unit_retires_mid_battle(tmp_path: Path) -> None:
    """The wolf leaves the road: a turn goes on, a cast at it is refused."""
    log = played(tmp_path, "saga-wolf-road")
    ok(log, "retire", "Wolf", "--reason", "fled")
    ok(log, "saga", "turn")
    err = refused(log, "saga", "cast", "Gustave", "kiri-harai", "--target", "Wolf")
    assert err.startswith("error: CORE-RETIRED: Wolf is a retired character (fled)")
    assert state(log)["retired"] == {"Wolf": {"kind": "character", "reason": "fled"}}


def test_retiring_an_unknown_name_is_refused(tmp_path: Path) -> None:
    """An unknown name is UNKNOWN-NAME, with the closest names."""
    log = played(tmp_path, "pf2e-downtime")
    assert refused(log, "retire", "Kira").startswith(
        "error: UNKNOWN-NAME: no character or item named 'Kira' to retire; did you mean Kyra?"
    )


@rule("CORE-RETIRED")
def test_the_state_before_the_retire_still_has_her_and_the_log_verifies(smithy: Path) -> None:
    """state --at 46 (before the retire, #47) shows Kyra; verify replays the log."""
    before = json.loads(ok(smithy, "state", "--at", "46", "--json"))
    assert (before["characters"]["Kyra"]["level"], before.get("retired")) == (8, None)
    assert ok(smithy, "verify").startswith("ok: ")
