"""The audit trail with its undos and redos (``GET …/history/{name}?all=true``, what
``history NAME --all --json`` prints; docs/SERVER.md): undone events marked, each undo and redo
with what it took back or restored, redacted per seat as the plain history is; and the table's
answer naming its seats (the page's whisper recipients without reading the whole log)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server import test_talk
from tests.server.test_talk import send
from tests.support.server import api

table = test_talk.table  # the fixture: a magicpunk table of ann (Aria), bo (Kai), cy, obs


def trail(server: str, token: str | None, tid: str, name: str, **params: Any) -> list[Any]:
    client = api(server, token) if token else api(server)
    got = client.get(f"/tables/{tid}/history/{name}", params=params)
    assert got.status_code == 200, got.text
    return got.json()  # type: ignore[no-any-return]


def test_the_whole_trail_holds_the_undo_and_the_redo(server: str, table: dict[str, Any]) -> None:
    """Aria takes 5 damage, the GM undoes it and redoes it: the plain trail is her arrival and
    the damage; the whole one adds the undo (hp 21 -> 26) and the redo (26 -> 21)."""
    tid = table["id"]
    hit = send(server, None, tid, "magicpunk damage Aria 5").json()["seqs"][0]
    undo = send(server, None, tid, f"undo {hit}").json()["seqs"][0]
    redo = send(server, None, tid, f"redo {hit}").json()["seqs"][0]
    plain = trail(server, None, tid, "Aria")
    assert [e["type"] for e in plain] == ["magicpunk.CharacterAdded", "magicpunk.DamageTaken"]
    whole = trail(server, None, tid, "Aria", all="true")
    assert [(e["seq"], e["type"]) for e in whole[1:]] == [
        (hit, "magicpunk.DamageTaken"),
        (undo, "core.Undone"),
        (redo, "core.Redone"),
    ]
    hp = {
        e["seq"]: [(c["old"], c["new"]) for c in e["changes"] if c["field"] == "hp"] for e in whole
    }
    assert (hp[hit], hp[undo], hp[redo]) == ([(26, 21)], [(21, 26)], [(26, 21)])
    assert [e["undone"] for e in whole] == [False] * 4


def test_an_undone_event_stays_in_the_whole_trail_marked(
    server: str, table: dict[str, Any]
) -> None:
    """An undo that stands: the whole trail keeps the damage, ``undone: true``; the plain one
    leaves it out."""
    tid = table["id"]
    hit = send(server, None, tid, "magicpunk damage Aria 5").json()["seqs"][0]
    send(server, None, tid, f"undo {hit}")
    assert hit not in [e["seq"] for e in trail(server, None, tid, "Aria")]
    [damage] = [e for e in trail(server, None, tid, "Aria", all="true") if e["seq"] == hit]
    assert damage["undone"] is True


@pytest.mark.rule("CORE-UNSEEN")
def test_the_undo_of_a_draw_shows_another_seat_no_card(server: str, table: dict[str, Any]) -> None:
    """Aria draws 2 cards and the GM takes it back (a player may not: CORE-REROLL): in bo's
    whole trail of Aria the draw and its undo change her hand from and to hidden cards; ann,
    whose Aria it is, reads the codes."""
    tid = table["id"]
    drawn = send(server, table["ann"], tid, "magicpunk draw Aria 2").json()
    codes = drawn["events"][0]["data"]["cards"]
    assert send(server, None, tid, f"undo {drawn['seqs'][0]}").status_code == 201
    for seat, sees in (("ann", True), ("bo", False)):
        whole = trail(server, table[seat], tid, "Aria", all="true")
        undo = [e for e in whole if e["type"] == "core.Undone"]
        assert len(undo) == 1, seat
        [hand] = [c for c in undo[0]["changes"] if c["field"] == "hand"]
        text = repr(whole)
        assert all((code in text) is sees for code in codes), (seat, codes)
        assert len(hand["old"]) == 2 and hand["new"] == [], seat


def test_the_table_names_its_seats_to_every_seat(server: str, table: dict[str, Any]) -> None:
    """``GET /api/tables/{id}`` answers ``seats``: every seat not revoked, the same to a player
    and the GM; a revoked one leaves it."""
    tid = table["id"]
    for token in (None, table["cy"], table["obs"]):
        client = api(server, token) if token else api(server)
        assert {"ann", "bo", "cy", "obs"} <= set(client.get(f"/tables/{tid}").json()["seats"])
    assert api(server).delete(f"/tables/{tid}/seats/bo").status_code in (200, 204)
    assert "bo" not in api(server, table["ann"]).get(f"/tables/{tid}").json()["seats"]
