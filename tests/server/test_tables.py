"""What a command costs a table kept in memory (tablelog/server/tables.py, tail.py): its answer
takes the records it appended as the store framed them (no read back), and on PostgreSQL it is
decided on the state in memory, the store's conditional append catching what another process
appended since (docs/SERVER.md, "A club server")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablelog.server import views
from tablelog.server.tables import Seat, Table, Tables
from tablelog.session import Session
from tablelog.store.postgres import PostgresLog
from tablelog.store.url import open_log
from tests.support.server import ADD

GM = Seat("gm", "gm")


@pytest.fixture(params=["file", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "file":
        return f"file:{tmp_path}"
    return str(request.getfixturevalue("pg").new_database())


def command(table: Table, line: str, request_id: str | None = None) -> dict[str, Any]:
    answer, status = views.command(table, GM, line, request_id, False)
    assert status in (200, 201), answer
    return answer


def read_back(table: Table) -> list[tuple[int, dict[str, Any], int]]:
    """Every record of the table as a fresh read of the store returns it."""
    log = open_log(table.spec)
    try:
        return [(seq, env, offset) for seq, env, offset, _, _ in log.records()]
    finally:
        log.close()


def test_the_records_a_command_appended_are_what_a_read_of_the_store_returns(store: str) -> None:
    """One- and two-record commands (a cover is a batch of two) and an undo's markers: the
    tail the answers and the streams read is the store's records, envelope for envelope and
    offset for offset, and the answers' lines are theirs."""
    tables = Tables(store)
    try:
        table = tables.create("magicpunk", "", 3, {})
        lines = [ADD.format("Aria"), ADD.format("Kai"), "magicpunk damage Aria 5 --cover-by Kai"]
        answers = [command(table, line) for line in [*lines, "undo", "magicpunk heal Aria 2"]]
        kept = [(r.seq, r.env, r.offset) for r in table.records_after(0)]
        assert read_back(table) == kept
        assert [a["seqs"] for a in answers] == [[1, 1], [2, 2], [3, 4], [5, 6], [7, 7]]
        assert [e["type"] for e in answers[2]["events"]] == [
            "magicpunk.CoverTaken",
            "magicpunk.DamageTaken",
        ]
        assert {"field": "characters.Kai.hp", "old": 26, "new": 21} in answers[2]["changes"]
        stored = {r.seq: r.env for r in table.records_after(0)}
        for answer in answers:
            for event in answer["events"]:
                assert stored[event["seq"]]["at"] == event["at"]
                assert stored[event["seq"]]["prev"].hex() == event["prev"]
    finally:
        tables.close()


def test_a_command_on_postgresql_neither_looks_nor_reads_back(
    pg: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the table's first look, a command's one query is its append: no look at the
    table's end (``ends_at``), no read of what it appended (``records``)."""
    tables = Tables(pg.new_database())
    try:
        table = tables.create("magicpunk", "", 3, {})
        command(table, ADD.format("Aria"))
        table.look_s = 3600.0  # a slow machine's second between two commands: no look either
        looks: list[str] = []
        monkeypatch.setattr(PostgresLog, "ends_at", lambda log, pos: looks.append("look"))
        monkeypatch.setattr(PostgresLog, "records", lambda log, *a, **k: looks.append("read"))
        answers = [command(table, f"magicpunk damage Aria {n}") for n in (1, 2, 3)]
        assert looks == []
        assert [a["changes"][0]["new"] for a in answers] == [25, 23, 20]
    finally:
        tables.close()


def test_a_command_decided_on_a_state_another_process_appended_past(
    pg: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes' tables on one store (two Tables here), the second not looking before its
    commands: its append after the first's is refused, it catches up and decides again, so
    the seqs follow on, its state is the store's, and a request id the first appended is
    answered with the first's result (200)."""
    url = pg.new_database()
    first, second = Tables(url), Tables(url)
    second.look_s = 3600.0  # no look before a command: only the append's condition
    lost: list[int] = []
    race = Session._lost_race
    monkeypatch.setattr(Session, "_lost_race", lambda s, st: (lost.append(st.seq), race(s, st)))
    try:
        a = first.create("magicpunk", "", 3, {})
        command(a, ADD.format("Aria"))
        b = second.get(a.table_id)
        b.state()  # its last look
        command(a, "magicpunk damage Aria 5")
        answer = command(b, "magicpunk damage Aria 1")
        assert (answer["seqs"], lost) == ([3, 3], [1])  # decided on #1, appended after #2
        assert b.current().characters["Aria"]["hp"] == (26 - 5 - 1)
        command(a, "magicpunk heal Aria 2", request_id="r-1")
        again, status = views.command(b, GM, "magicpunk heal Aria 2", "r-1", False)
        # the first (looking at most once a second) decided on #2 and lost to #3 too
        assert (status, again["seqs"], lost) == (200, [4, 4], [1, 2, 3])
        assert b.current() == Session(f"{url}#{a.table_id}").state()
    finally:
        first.close()
        second.close()


def test_a_bare_undo_looks_first(pg: Any) -> None:
    """A bare undo on a table that does not look before commands still looks first: it undoes
    the action another process appended last, not the one it last saw (a bare undo that lost
    a race would be refused)."""
    url = pg.new_database()
    first, second = Tables(url), Tables(url)
    second.look_s = 3600.0
    try:
        a = first.create("magicpunk", "", 3, {})
        command(a, ADD.format("Aria"))
        b = second.get(a.table_id)
        b.state()
        command(a, "magicpunk damage Aria 5")
        answer = command(b, "undo")
        assert answer["seqs"] == [3, 3]
        assert answer["events"][0]["data"]["target"] == 2
        assert b.current().characters["Aria"]["hp"] == 26
    finally:
        first.close()
        second.close()
