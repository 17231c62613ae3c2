"""Undo at a real table, command ids and request ids, through the CLI (issue: a campaign log that
outlives the rules, items 4 and 5), on the toy test system."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablelog.commands.core import Redo, Undo
from tablelog.rules.core import RuleViolation
from tablelog.session import Session
from tablelog.store.log import LogFile
from tests.support import toy
from tests.support.cli import invoke, ok, refused

toy.install()


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A toy log where gm adds two counters, then Ann and Bo each spend once (#3, #4)."""
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "toy", "--seed", "7")
    ok(path, "toy", "add", "a", "9")
    ok(path, "toy", "add", "b", "9")
    ok(path, "toy", "spend", "a", "2", actor="Ann")
    ok(path, "toy", "spend", "b", "3", actor="Bo")
    return path


def hp(log: Path) -> dict[str, int]:
    state = json.loads(ok(log, "state", "--json"))
    return {name: c["hp"] for name, c in state["characters"].items()}


def test_every_record_carries_its_command_id(table: Path) -> None:
    """cmd is the seq of the command's first record, on every record of the command."""
    ok(table, "toy", "spend-both", "a", "b", "1")
    assert [(r.seq, r.cmd) for r in LogFile(str(table)).scan_all()] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 5),
    ]


def test_bare_undo_takes_back_the_typing_actors_latest_action(table: Path) -> None:
    """Ann's bare undo takes back Ann's spend (#3), not Bo's later one (#4)."""
    assert ok(table, "undo", actor="Ann").startswith("#5 core.Undone #3\n")
    assert hp(table) == {"a": 9, "b": 6}


def test_bare_undo_of_an_actor_with_no_action_is_refused(table: Path) -> None:
    """Cy has taken no action: nothing to undo, log unchanged."""
    before = table.read_bytes()
    result = invoke(table, "undo", actor="Cy")
    assert (
        result.exit_code,
        result.stderr,
    ) == (1, "error: CORE-UNDO: nothing to undo: no action of Cy is in effect\n")
    assert before == table.read_bytes()


def test_undo_seq_takes_back_anyones_action(table: Path) -> None:
    """undo SEQ names the action: Ann may take back Bo's #4."""
    assert ok(table, "undo", "4", actor="Ann").startswith("#5 core.Undone #4\n")


@pytest.mark.parametrize("command", [("undo", "999"), ("redo", "999"), ("undo", "5")])
def test_undo_or_redo_past_the_end_is_core_seq(table: Path, command: tuple[str, str]) -> None:
    """undo 999 on a 4-event log is CORE-SEQ, like state --at 999."""
    err = refused(table, *command)
    assert err == f"error: CORE-SEQ: there is no event #{command[1]} (the log ends at #4)\n"


def test_bare_redo_restores_the_actors_latest_undo(table: Path) -> None:
    """Ann undoes #3, Bo undoes #4; Ann's bare redo restores #3, not Bo's #4."""
    ok(table, "undo", actor="Ann")
    ok(table, "undo", actor="Bo")
    assert ok(table, "redo", actor="Ann").startswith("#7 core.Redone #3\n")
    assert hp(table) == {"a": 7, "b": 9}


def test_bare_redo_after_a_new_action_of_the_actor_has_nothing_to_redo(table: Path) -> None:
    """Ann undoes #3, then spends again (#6): a bare redo has nothing to redo; redo 3 still can."""
    ok(table, "undo", actor="Ann")
    ok(table, "toy", "spend", "a", "1", actor="Ann")
    err = invoke(table, "redo", actor="Ann").stderr
    assert err == (
        "error: CORE-REDO: nothing to redo: Ann has taken a new action (#6) since "
        "undoing; name it: redo SEQ\n"
    )
    assert ok(table, "redo", "3", actor="Ann").startswith("#7 core.Redone #3\n")
    assert hp(table) == {"a": 6, "b": 6}


def test_a_bare_undo_that_lost_a_race_is_refused_not_retargeted(table: Path) -> None:
    """Ann's bare undo is decided on #1-#4; Bo appends #5 first: Ann's undo is refused, with
    the way to name the action, and the log holds only Bo's record."""
    ann = Session(str(table), actor="Ann")
    ann.state()  # Ann's terminal folded the log
    Session(str(table), actor="Bo").execute(toy.SpendPoints("b", 1))
    with pytest.raises(RuleViolation) as refusal:
        ann.execute(Undo())
    assert (refusal.value.rule_id, refusal.value.message) == (
        "CORE-UNDO",
        "the log moved on while deciding which action to undo; name the action: undo SEQ",
    )
    assert LogFile(str(table)).scan_all()[-1].seq == 5


def test_a_bare_redo_that_lost_a_race_is_refused(table: Path) -> None:
    """The same for redo: decided once."""
    ok(table, "undo", actor="Ann")
    ann = Session(str(table), actor="Ann")
    ann.state()
    Session(str(table), actor="Bo").execute(toy.SpendPoints("b", 1))
    with pytest.raises(RuleViolation, match="CORE-REDO: the log moved on"):
        ann.execute(Redo())


def test_undo_seq_that_lost_a_race_is_decided_again(table: Path) -> None:
    """A named undo is not ambiguous: it is decided again on the new state and appended."""
    ann = Session(str(table), actor="Ann")
    ann.state()
    Session(str(table), actor="Bo").execute(toy.SpendPoints("b", 1))
    outcome = ann.execute(Undo(target=3))
    assert [a.seq for a in outcome.applied] == [6]


def test_a_repeated_request_id_appends_nothing_and_shows_the_first_result(table: Path) -> None:
    """The same --request-id twice: one spend, and the second answer names the first's seq and
    its changes."""
    first = ok(table, "toy", "spend", "a", "1", "--request-id", "phone-42")
    before = table.read_bytes()
    again = ok(table, "toy", "spend", "a", "1", "--request-id", "phone-42")
    assert before == table.read_bytes()
    assert again == "request phone-42 was appended already as #5: nothing appended\n" + first
    assert hp(table) == {"a": 6, "b": 6}
    assert LogFile(str(table)).scan_all()[-1].req == "phone-42"


def test_a_request_id_is_kept_across_commands_and_kinds(table: Path) -> None:
    """A request id names one command whatever is asked with it later (a retried line)."""
    ok(table, "note", "first", "--request-id", "r1")
    out = ok(table, "toy", "spend", "b", "5", "--request-id", "r1")
    assert out.startswith("request r1 was appended already as #5")
    assert hp(table) == {"a": 7, "b": 6}


def test_a_request_id_of_a_multi_event_command_repeats_all_of_it(table: Path) -> None:
    """A two-event command's request id answers with both events."""
    ok(table, "toy", "spend-both", "a", "b", "1", "--request-id", "both")
    again = ok(table, "toy", "spend-both", "a", "b", "1", "--request-id", "both")
    assert again.startswith("request both was appended already as #5-#6")
    assert LogFile(str(table)).scan_all()[-1].seq == 6


@pytest.mark.parametrize("bad", ["", "x" * 65, "a b", "ü", "a/b"])
def test_a_bad_request_id_is_a_usage_error(table: Path, bad: str) -> None:
    """A request id is 1-64 of A-Z a-z 0-9 . _ : - (SERVER.md §2); anything else is exit 2."""
    before = table.read_bytes()
    result = invoke(table, "note", "x", "--request-id", bad)
    assert result.exit_code == 2 and "--request-id" in result.stderr
    assert before == table.read_bytes()


def test_request_ids_work_in_a_script(table: Path, tmp_path: Path) -> None:
    """A run script line may carry a request id; running the script twice appends once."""
    script = tmp_path / "s.txt"
    script.write_text("toy spend a 1 --request-id s1\nnote done --request-id s2\n")
    ok(table, "run", str(script))
    ok(table, "run", str(script))
    assert LogFile(str(table)).scan_all()[-1].seq == 6


def test_replay_narrates_what_undo_and_redo_changed(table: Path) -> None:
    """The undo's and redo's entries show the values they changed, as the commands printed."""
    undo_out = ok(table, "undo", "3")
    redo_out = ok(table, "redo", "3")
    narrated = ok(table, "replay").split("\n#")
    assert undo_out.split(" ", 1)[1].strip() in narrated[4]
    assert redo_out.split(" ", 1)[1].strip() in narrated[5]
    assert "characters.a.hp: 7 -> 9" in narrated[4] and "characters.a.hp: 9 -> 7" in narrated[5]


def test_replay_until_and_state_at_agree_at_every_seq(table: Path) -> None:
    """After undo, a new action, redo of an older one: the state at each N is where replay --until
    N ends (its changes, applied to the initial state, give state --at N)."""
    ok(table, "undo", "3")
    ok(table, "toy", "spend", "b", "1", actor="Bo")
    ok(table, "redo", "3")
    ok(table, "toy", "spend-both", "a", "b", "1")
    ok(table, "undo")
    for n in range(1, 11):
        at_n = json.loads(ok(table, "state", "--at", str(n), "--json"))["characters"]
        hp_now: dict[str, int] = {}
        for line in ok(table, "replay", "--until", str(n)).splitlines():
            if line.strip().startswith("characters.") and ".hp:" in line:
                path, change = line.strip().split(": ", 1)
                hp_now[path.split(".")[1]] = int(change.split(" -> ")[1])
            elif line.strip().startswith("characters.") and ": new (" in line:
                name = line.strip().split(".")[1].split(":")[0]
                hp_now[name] = int(line.split("hp=")[1].split(",")[0])
        assert {k: v["hp"] for k, v in at_n.items()} == hp_now, n


def test_history_all_shows_undone_events_and_the_markers_that_touched_the_name(table: Path) -> None:
    """history a --all lists #3 marked undone and the undo #5 with a's value it changed; plain
    history leaves both out."""
    ok(table, "undo", "3")
    full = ok(table, "history", "a", "--all")
    assert "#3 [undone]" in full and "hp: 9 -> 7" in full
    assert "core.Undone #3\n    hp: 7 -> 9\n" in full
    plain = ok(table, "history", "a")
    assert "#3" not in plain and "core.Undone" not in plain
    assert "#4" not in full  # Bo's spend of b does not touch a
