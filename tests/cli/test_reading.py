"""Reading the log: `history NAME --field F`, `log --tail N --actor A --since SEQ`, and notes
tied to a character (`note --about NAME`) in its history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import ok, refused

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fate-fourth-war.txt"


@pytest.fixture(scope="module")
def war(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fourth-war example's log (21 events, all logged by gm)."""
    log = tmp_path_factory.mktemp("war") / "war.tlog"
    ok(log, "run", str(EXAMPLE))
    return log


def seqs(text: str) -> list[int]:
    """The seqs of `log` lines."""
    return [int(line.split()[0][1:]) for line in text.splitlines()]


@pytest.mark.rule("FATE-CAST-5")
@pytest.mark.rule("FATE-CC-9")
def test_history_of_one_field(war: Path) -> None:
    """Kiritsugu's HP: 40 at creation, 18 after Tokiomi's 22, 20 after the crest's 2."""
    shown = ok(war, "history", "Kiritsugu", "--field", "hp", "--json").splitlines()
    changes = [json.loads(line)["changes"] for line in shown]
    assert changes == [
        [{"field": "hp", "old": None, "new": 40}],
        [{"field": "hp", "old": 40, "new": 18}],
        [{"field": "hp", "old": 18, "new": 20}],
    ]
    text = ok(war, "history", "Kiritsugu", "--field", "hp")
    assert "    hp: 40 -> 18" in text and "mp:" not in text


def test_history_of_two_fields_and_a_path(war: Path) -> None:
    """--field mp --field tiles keeps both; --field effects keeps effects[0].… changes."""
    shown = [
        json.loads(x)
        for x in ok(
            war, "history", "Kiritsugu", "--field", "mp", "--field", "tiles", "--json"
        ).splitlines()
    ]
    fields = {c["field"] for entry in shown for c in entry["changes"]}
    assert {"mp", "tiles"} == fields
    effects = [
        json.loads(x)
        for x in ok(war, "history", "Kiritsugu", "--field", "effects", "--json").splitlines()
    ]
    assert all(c["field"].startswith("effects") for e in effects for c in e["changes"])
    assert effects


def test_history_of_an_unknown_field_lists_the_fields(war: Path) -> None:
    """`--field hpp` exits 1 with UNKNOWN-NAME naming the record's fields, log unchanged."""
    err = refused(war, "history", "Kiritsugu", "--field", "hpp")
    assert err.startswith("error: UNKNOWN-NAME: Kiritsugu has no field 'hpp' (its fields: ")
    assert ", hp, hp_max, " in err and "did you mean" not in err


def test_log_tail_and_since(war: Path) -> None:
    """--tail 3 is #19..#21; --since 18 is #19..#21 too; with --entity Lancer the last is #18."""
    assert seqs(ok(war, "log", "--tail", "3")) == [19, 20, 21]
    assert seqs(ok(war, "log", "--since", "18")) == [19, 20, 21]
    assert seqs(ok(war, "log", "--entity", "Lancer", "--tail", "1", "--since", "10")) == [18]
    assert seqs(ok(war, "log", "--entity", "Lancer", "--since", "8")) == [16, 18]
    lines = ok(war, "log", "--tail", "2", "--json").splitlines()
    assert [json.loads(x)["seq"] for x in lines] == [20, 21]


def test_log_since_past_the_end_is_core_seq(war: Path) -> None:
    """--since 99 on a 21-event log: exit 1, CORE-SEQ."""
    assert (
        refused(war, "log", "--since", "99")
        == "error: CORE-SEQ: there is no event #99 (the log ends at #21)\n"
    )


def test_log_by_actor(tmp_path: Path) -> None:
    """Events logged by alice only; an actor nobody logged as is refused, naming the actors."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "pf2e")
    ok(log, "pf2e", "character", "add", "Valeros")
    ok(log, "note", "mine", actor="alice")
    ok(log, "note", "gm's")
    assert seqs(ok(log, "log", "--actor", "alice")) == [2]
    assert seqs(ok(log, "log", "--actor", "gm", "--tail", "1")) == [3]
    assert refused(log, "log", "--actor", "bob") == (
        "error: UNKNOWN-NAME: no event was logged by actor 'bob' (the log's actors: alice, gm)\n"
    )


def test_a_note_about_a_character_is_in_its_history(tmp_path: Path) -> None:
    """`note … --about Valeros` appends core.NotedAbout; Valeros's history and `log --entity`
    show it; an unknown name is refused with a suggestion."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "pf2e")
    ok(log, "pf2e", "character", "add", "Valeros")
    out = ok(log, "note", "keeps the runestone shards", "--about", "Valeros", "--about", "Valeros")
    assert out == "#2 core.NotedAbout 'keeps the runestone shards' (about Valeros)\n"
    assert "#2 " in ok(log, "history", "Valeros").splitlines()[-1]
    assert seqs(ok(log, "log", "--entity", "Valeros", "--since", "1")) == [2]
    err = refused(log, "note", "x", "--about", "Valeras")
    assert err == (
        "error: UNKNOWN-NAME: no character or item named 'Valeras' to tie the note "
        "to; did you mean Valeros?\n"
    )
    ok(log, "note", "plain")
    assert "core.Noted 'plain'" in ok(log, "log", "--tail", "1")
