"""A store that loses its tail (issue 32 item 9): a PostgreSQL table restored from an older
backup, a log file replaced by an older copy. A real `tablelog serve` process that appended the
lost records serves only what the store holds, appends after its real end, takes a lost
command's request id for a new one, and never answers 503 for it."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tablelog.commands.core import AddNote
from tablelog.session import Session
from tablelog.store.url import open_log
from tests.support.server import TOKEN, free_port, spawn


def lose_tail(kind: str, store: str, tid: str, kept: int, older: Path, pg: Any) -> None:
    """Leave the table as a restore would: a file replaced by its older copy ``older``, or a
    PostgreSQL table without its records after ``kept``."""
    if kind == "file":
        os.replace(older, store.removeprefix("file:") + f"/{tid}.tlog")
    else:
        pg.sql("DELETE FROM tablelog_records WHERE table_id = %s AND seq > %s", (tid, kept), store)


def sse_ids(lines: Iterator[str], count: int | None = None) -> list[tuple[int, str]]:
    """Read ``(id, note text or type)`` of an event stream's records from its ``lines`` until
    ``count`` of them, or its end."""
    got: list[tuple[int, str]] = []
    event_id = None
    for line in lines:
        if line.startswith("id:"):
            event_id = int(line[3:].strip())
        elif line.startswith("data:") and event_id is not None:
            record = json.loads(line[5:])
            got.append((event_id, record["data"].get("text", record["type"])))
            if len(got) == count:
                break
    return got


def seqs_and_notes(gm: httpx.Client, tid: str) -> tuple[list[int], list[str]]:
    """The seqs the log route shows, and the text of its notes."""
    answer = gm.get(f"/tables/{tid}/log")
    assert answer.status_code == 200, answer.text
    events = answer.json()["events"]
    notes = [e["data"]["text"] for e in events if e["type"] == "core.Noted"]
    return [e["seq"] for e in events], notes


@pytest.mark.parametrize("first", ["read", "command"])
@pytest.mark.parametrize("kind", ["file", "postgresql"])
def test_a_store_that_lost_its_tail_is_served_as_it_is(
    kind: str, first: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two notes appended over HTTP, then lost (the file replaced by a copy made before them;
    the PostgreSQL rows deleted): whether a read or a command comes first, state and log show
    only the records the store holds, a new command appends right after its end (201), the
    lost command's retried request id appends it again (201, its seqs), nothing answers 503,
    a stream that sent the lost records ends, and the store's records are contiguous with
    their hash chain whole (issue 32 item 9: the server served the lost records, answered 503,
    and 200 "already done" with no seqs)."""
    pg = request.getfixturevalue("pg") if kind == "postgresql" else None
    store = pg.new_database() if pg is not None else f"file:{tmp_path / 'tables'}"
    port = free_port()
    proc = spawn(store, port)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}/api", headers=auth, timeout=30) as gm:
            tid = gm.post("/tables", json={"system": "pf2e"}).json()["table_id"]
            kept = gm.post(f"/tables/{tid}/commands", json={"command": "note kept"})
            assert kept.status_code == 201, kept.text
            end = kept.json()["seqs"][-1]
            older = tmp_path / "older.tlog"
            if kind == "file":
                shutil.copyfile(tmp_path / "tables" / f"{tid}.tlog", older)
            for n in (1, 2):
                body = {"command": f"note 'lost {n}'", "request_id": f"lost-{n}"}
                lost = gm.post(f"/tables/{tid}/commands", json=body)
                assert (201, [end + n] * 2) == (lost.status_code, lost.json()["seqs"]), lost.text
            assert end + 2 == gm.get(f"/tables/{tid}").json()["seq"]
            with gm.stream("GET", f"/tables/{tid}/events", params={"after": end}) as stream:
                lines = stream.iter_lines()
                assert [(end + 1, "lost 1"), (end + 2, "lost 2")] == sse_ids(lines, 2)
                lose_tail(kind, store, tid, end, older, pg)
                if first == "read":
                    assert end == gm.get(f"/tables/{tid}").json()["seq"]
                    assert (list(range(1, end + 1)), ["kept"]) == seqs_and_notes(gm, tid)
                new = gm.post(f"/tables/{tid}/commands", json={"command": "note new"})
                assert (201, [end + 1] * 2) == (new.status_code, new.json()["seqs"]), new.text
                assert sse_ids(lines) == []  # it sent lost records: it ends
            assert end + 1 == gm.get(f"/tables/{tid}").json()["seq"]
            assert (list(range(1, end + 2)), ["kept", "new"]) == seqs_and_notes(gm, tid)
            body = {"command": "note 'lost 1'", "request_id": "lost-1"}
            again = gm.post(f"/tables/{tid}/commands", json=body)
            assert (201, [end + 2] * 2) == (again.status_code, again.json()["seqs"]), again.text
            repeated = gm.post(f"/tables/{tid}/commands", json=body)
            assert (200, [end + 2] * 2) == (repeated.status_code, repeated.json()["seqs"])
            assert (list(range(1, end + 3)), ["kept", "new", "lost 1"]) == seqs_and_notes(gm, tid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    records = list(open_log(f"{store}#{tid}").scan(chain=True))
    assert list(range(1, end + 3)) == [r.seq for r in records]
    assert records[-1].req == "lost-1"


@pytest.mark.parametrize("first", ["read", "command"])
@pytest.mark.parametrize("kind", ["file", "postgresql"])
def test_a_store_whose_tail_differs_at_the_same_end_is_served_as_it_is(
    kind: str, first: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two notes appended over HTTP, lost as above, and two others appended in their place by
    another writer, so that the store ends at the seq the server's memory does, with other
    records: the server serves the other records, appends after them (never on the lost
    ones' hash: the chain stays whole), and the lost request id appends again (201)."""
    pg = request.getfixturevalue("pg") if kind == "postgresql" else None
    store = pg.new_database() if pg is not None else f"file:{tmp_path / 'tables'}"
    port = free_port()
    proc = spawn(store, port)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}/api", headers=auth, timeout=30) as gm:
            tid = gm.post("/tables", json={"system": "pf2e"}).json()["table_id"]
            end = gm.post(f"/tables/{tid}/commands", json={"command": "note kept"}).json()["seqs"][
                -1
            ]
            older = tmp_path / "older.tlog"
            if kind == "file":
                shutil.copyfile(tmp_path / "tables" / f"{tid}.tlog", older)
            for n in (1, 2):
                body = {"command": f"note 'lost {n}'", "request_id": f"lost-{n}"}
                assert gm.post(f"/tables/{tid}/commands", json=body).status_code == 201
            assert end + 2 == gm.get(f"/tables/{tid}").json()["seq"]
            lose_tail(kind, store, tid, end, older, pg)
            other = Session(f"{store}#{tid}")
            for n in (1, 2):
                other.execute(AddNote(text=f"swap {n}"))
            other.log.close()
            if first == "read":
                assert end + 2 == gm.get(f"/tables/{tid}").json()["seq"]
                swapped = (list(range(1, end + 3)), ["kept", "swap 1", "swap 2"])
                assert swapped == seqs_and_notes(gm, tid)
            body = {"command": "note 'lost 1'", "request_id": "lost-1"}
            again = gm.post(f"/tables/{tid}/commands", json=body)
            assert again.status_code == 201, again.text
            assert (201, [end + 3] * 2) == (again.status_code, again.json()["seqs"]), again.text
            notes = ["kept", "swap 1", "swap 2", "lost 1"]
            assert (list(range(1, end + 4)), notes) == seqs_and_notes(gm, tid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    records = list(open_log(f"{store}#{tid}").scan(chain=True))
    assert list(range(1, end + 4)) == [r.seq for r in records]
