"""The GM runs the seats (SERVER.md §4; issue 30 item 4): `GET …/seats` lists them with their
roles and characters; a player seat for a name that is no character of the table is 409
`confirm` until the GM confirms; creating a table answers the GM's page link."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.server import ADD, api


@pytest.fixture
def table(server: str) -> dict[str, Any]:
    gm = api(server)
    made = gm.post("/tables", json={"system": "magicpunk", "title": "Seats"})
    tid = made.json()["table_id"]
    assert (
        gm.post(f"/tables/{tid}/commands", json={"command": ADD.format("Aria")}).status_code == 201
    )
    ann = gm.post(
        f"/tables/{tid}/seats", json={"name": "ann", "role": "player", "characters": ["Aria"]}
    )
    assert ann.status_code == 201, ann.text
    return {"id": tid, "created": made.json(), "ann": ann.json()["token"]}


def test_creating_a_table_answers_the_gms_page_link(server: str, table: dict[str, Any]) -> None:
    url = table["created"]["url"]
    assert f"{server}/t/{table['id']}?token=" in url


def test_the_gm_lists_the_seats_and_a_player_may_not(server: str, table: dict[str, Any]) -> None:
    """The table's own gm seat and ann (player, Aria), no secret of either; ann's list is 403."""
    tid = table["id"]
    listed = api(server).get(f"/tables/{tid}/seats")
    assert listed.status_code == 200
    assert listed.json()["seats"] == [
        {"name": "gm", "role": "gm", "characters": [], "sessions": 0},
        {"name": "ann", "role": "player", "characters": ["Aria"], "sessions": 0},
    ]
    assert api(server, table["ann"]).get(f"/tables/{tid}/seats").status_code == 403


def test_a_seat_for_no_character_needs_the_gms_confirmation(
    server: str, table: dict[str, Any]
) -> None:
    """`dee` playing `Nobody` (no character of the table): 409 confirm naming Nobody, nothing
    appended; confirmed, the seat is added. A seat for Aria needs no confirmation."""
    tid = table["id"]
    gm = api(server)
    seq = gm.get(f"/tables/{tid}").json()["seq"]
    body = {"name": "dee", "role": "player", "characters": ["Aria", "Nobody"]}
    asked = gm.post(f"/tables/{tid}/seats", json=body)
    assert asked.status_code == 409
    error = asked.json()["error"]
    assert (error["code"], error["params"]) == ("confirm", {"characters": ["Nobody"]})
    assert error["message"] == "Nobody is no character of this table (yet): add the seat anyway?"
    assert seq == gm.get(f"/tables/{tid}").json()["seq"]
    ja = gm.post(f"/tables/{tid}/seats", json=body, headers={"Accept-Language": "ja"})
    assert "Nobody" in ja.json()["error"]["message"] and "追加" in ja.json()["error"]["message"]
    done = gm.post(f"/tables/{tid}/seats", json={**body, "confirm": True})
    assert done.status_code == 201, done.text
    names = [s["name"] for s in gm.get(f"/tables/{tid}/seats").json()["seats"]]
    assert names == ["gm", "ann", "dee"]
