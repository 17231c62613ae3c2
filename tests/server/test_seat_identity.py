"""Seat identity (issue 32, item 6) against a real `tablelog serve` process over HTTP: a seat's
name is its identity (the actor of its records, whose actions it may undo and redo), never
given to another seat; ``gm`` is the server token's and the table's GM seat's alone."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.support.cli import ok
from tests.support.server import ADD, api


def seat(
    server: str, tid: str, name: str, role: str = "player", chars: tuple[str, ...] = ()
) -> httpx.Response:
    return api(server).post(
        f"/tables/{tid}/seats", json={"name": name, "role": role, "characters": list(chars)}
    )


@pytest.fixture
def tid(server: str) -> str:
    """A magicpunk table with Aria and Kai."""
    gm = api(server)
    made = gm.post("/tables", json={"system": "magicpunk", "seed": 2}).json()["table_id"]
    for line in (ADD.format("Aria"), ADD.format("Kai")):
        assert gm.post(f"/tables/{made}/commands", json={"command": line}).status_code == 201
    return str(made)


@pytest.mark.rule("CORE-SEAT")
@pytest.mark.parametrize("again", ["bo", "BO", "Bo"])
def test_a_new_seat_never_takes_a_revoked_seats_name(server: str, tid: str, again: str) -> None:
    """bo notes, and is revoked; a new seat named bo (in any letter case) is refused with
    CORE-SEAT, so nobody new can undo or redo bo's actions; a seat of another name may not
    either (403), and bo's note stays bo's."""
    bo = seat(server, tid, "bo", chars=("Kai",)).json()["token"]
    noted = api(server, bo).post(f"/tables/{tid}/commands", json={"command": "note by-bo"})
    assert noted.status_code == 201
    target = noted.json()["seqs"][0]
    assert api(server).delete(f"/tables/{tid}/seats/bo").status_code == 204
    refused = seat(server, tid, again, chars=("Kai",))
    assert (refused.status_code, refused.json()["error"]["rule"]) == (422, "CORE-SEAT")
    assert "'bo' was a seat of this table" in refused.json()["error"]["message"]
    other = seat(server, tid, "bo2", chars=("Kai",)).json()["token"]
    undo = api(server, other).post(f"/tables/{tid}/commands", json={"command": f"undo {target}"})
    assert undo.status_code == 403
    log = api(server).get(f"/tables/{tid}/log").json()["events"]
    assert [e["actor"] for e in log if e["seq"] == target] == ["bo"]


@pytest.mark.rule("CORE-SEAT")
def test_a_new_seat_is_no_case_twin_of_a_seat(server: str, tid: str) -> None:
    """dee is a seat; DEE is refused saying dee *is* a seat (not that it was one)."""
    assert seat(server, tid, "dee", chars=("Kai",)).status_code == 201
    refused = seat(server, tid, "DEE", chars=("Kai",))
    assert (refused.status_code, refused.json()["error"]["rule"]) == (422, "CORE-SEAT")
    assert refused.json()["error"]["message"] == (
        "'dee' is a seat of this table: a new seat's name differs from a seat's in more than "
        "letter case"
    )


@pytest.mark.rule("CORE-SEAT")
@pytest.mark.parametrize(("name", "role"), [("gm", "player"), ("GM", "observer")])
def test_gm_is_no_other_seats_name(server: str, folder: Path, name: str, role: str) -> None:
    """A table begun with the CLI (no GM seat yet): a player or observer seat named gm (any
    case) would own every action of the server token, its records reading as the GM's, so it
    is refused with CORE-SEAT; the server token's note stays the GM's alone to undo."""
    tid = f"cli-{role}"
    ok(folder / f"{tid}.tlog", "init", "--system", "magicpunk")
    ok(folder / f"{tid}.tlog", *ADD.format("Aria").split())
    gm = api(server)
    noted = gm.post(f"/tables/{tid}/commands", json={"command": "note by-the-gm"})
    assert noted.json()["events"][0]["actor"] == "gm"
    chars = ("Aria",) if role == "player" else ()
    refused = seat(server, tid, name, role, chars)
    assert (refused.status_code, refused.json()["error"]["rule"]) == (422, "CORE-SEAT")
    assert (
        "is the name of the server token and the table's GM" in refused.json()["error"]["message"]
    )
    assert seat(server, tid, "gm", "gm").status_code == 201  # the table's own GM seat
