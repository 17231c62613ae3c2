"""Seats and previews over HTTP, on the file store and on PostgreSQL (issue 17, the fresh
tester's faults): a revoked seat's stream ends, a player's preview rolls stand-in dice and shows
the seat's own cards, seat records are not undone, retire, the 401 before the 404, names that
are not one path segment, the API's usage words."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.server import test_api
from tests.server.test_api import command
from tests.support.server import TOKEN, api, serving, sse_records

# the API tests' fixtures: every test on the file store and on PostgreSQL, a magicpunk table
store, server, table = test_api.store, test_api.server, test_api.table


@pytest.mark.parametrize("where", ["same", "other"])
def test_a_revoked_seats_open_stream_ends_before_the_next_record(
    server: str, table: dict[str, str], store: str, folder: Path, where: str
) -> None:
    """bo's stream is open; the seat is revoked (by this server, or by another server process
    on the same store) and the GM notes: the stream ends, the note never reaches it."""
    gm = api(server, table["gm"])
    seq = gm.get(f"/tables/{table['id']}").json()["seq"]
    with api(server, table["bo"]).stream(
        "GET", f"/tables/{table['id']}/events", headers={"Last-Event-ID": str(seq)}
    ) as stream:
        assert stream.status_code == 200
        if where == "same":
            assert gm.delete(f"/tables/{table['id']}/seats/bo").status_code == 204
        else:
            with serving(store, folder / f"other-{where}.out") as other:
                revoke = api(other, table["gm"]).delete(f"/tables/{table['id']}/seats/bo")
                assert revoke.status_code == 204
        noted = command(server, table, "gm", "note after")
        assert noted.status_code == 201
        got = sse_records(stream)
    assert noted.json()["seqs"][0] not in [i for i, _ in got]
    assert [d for _, d in got if d["type"] == "core.Noted"] == []


SAGA_SETUP = (
    "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --stat vit=30 "
    "--slv 1h-sword=10 --weapon 1h-sword=30 --resist 20",
    "saga battle start --terrain wood",
)


@pytest.fixture
def saga(server: str) -> dict[str, str]:
    """A saga table in battle with Gustave; ann plays Gustave."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "seed": 5}).json()["table_id"]
    for line in SAGA_SETUP:
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    seat = {"name": "ann", "role": "player", "characters": ["Gustave"]}
    return {
        "id": tid,
        "gm": TOKEN,
        "ann": gm.post(f"/tables/{tid}/seats", json=seat).json()["token"],
    }


def test_a_players_preview_rolls_stand_in_dice_and_says_so(
    server: str, saga: dict[str, str]
) -> None:
    """ann previews a cast five times: stand-in random factors (not all the table's next) and
    ``stand_in_rolls: true``; the GM's preview draws what Do it then draws, and says false."""
    line = "saga cast Gustave kiri-harai --target Gustave"

    def factor(answer: httpx.Response) -> str:
        assert 200 <= answer.status_code < 300, answer.text
        return str(answer.json()["events"][0]["data"]["random_factor"])

    previews = [command(server, saga, "ann", line, dry_run=True) for _ in range(5)]
    assert [p.json()["stand_in_rolls"] for p in previews] == [True] * 5
    gm_preview = command(server, saga, "gm", line, dry_run=True)
    assert False is gm_preview.json()["stand_in_rolls"]
    done = command(server, saga, "ann", line)
    assert (done.status_code, done.json()["stand_in_rolls"]) == (201, False)
    assert factor(gm_preview) == factor(done)
    assert {factor(done)} != {factor(p) for p in previews}


def test_a_preview_shows_the_seats_own_cards_and_hides_only_the_draws(
    server: str, table: dict[str, str]
) -> None:
    """ann holds 4 cards: her preview of a charge shows her hand losing the real card (the GM's
    too), bo's hand stays "?" to her; a preview draw keeps her 4 cards and adds a "?"."""
    gm = api(server, table["gm"])
    added = command(server, table, "gm", "magicpunk item add a-battery --owner Aria")
    assert added.status_code == 201, added.text
    assert command(server, table, "ann", "magicpunk draw Aria 4").status_code == 201
    hand = gm.get(f"/tables/{table['id']}/state/Aria").json()["hand"]
    line = f"magicpunk charge a-battery {hand[0]} --from Aria"
    for who in ("ann", "gm"):
        dry = command(server, table, who, line, dry_run=True)
        assert dry.status_code == 200, dry.text
        changes = {c["field"]: c for c in dry.json()["changes"]}
        assert (hand, hand[1:]) == (
            changes["characters.Aria.hand"]["old"],
            changes["characters.Aria.hand"]["new"],
        )
        assert [hand[0]] == dry.json()["events"][0]["data"]["cards"]
    drawn = command(server, table, "ann", "magicpunk draw Aria 1", dry_run=True).json()
    assert [[*hand, "?"]] == [c["new"] for c in drawn["changes"] if c["field"].endswith("hand")]
    assert drawn["events"][0]["data"]["cards"] == ["?"]


@pytest.mark.rule("CORE-SEAT")
def test_an_undo_of_a_seat_record_is_refused_and_the_seats_stay(
    server: str, table: dict[str, str]
) -> None:
    """The GM's ``undo SEQ`` of ann's seat, and a bare ``undo`` right after revoking bo: 422
    CORE-SEAT, nothing appended; ann's token still works, bo's still does not."""
    gm = api(server, table["gm"])
    log = gm.get(f"/tables/{table['id']}/log").json()["events"]
    seat = next(
        e["seq"] for e in log if e["type"] == "core.SeatAdded" and e["data"]["name"] == "ann"
    )
    assert gm.delete(f"/tables/{table['id']}/seats/bo").status_code == 204
    before = gm.get(f"/tables/{table['id']}").json()["seq"]
    said = []
    for line in (f"undo {seat}", "undo"):
        answer = command(server, table, "gm", line)
        assert (answer.status_code, answer.json()["error"]["rule"]) == (422, "CORE-SEAT")
        said.append(answer.json()["error"]["message"].split(",")[0])
    assert [f"#{seat} adds a seat of the table", f"#{before} revokes a seat of the table"] == said
    assert before == gm.get(f"/tables/{table['id']}").json()["seq"]
    assert api(server, table["ann"]).get(f"/tables/{table['id']}").status_code == 200
    assert api(server, table["bo"]).get(f"/tables/{table['id']}").status_code == 401


@pytest.mark.rule("CORE-NAME")
def test_names_that_are_no_path_segment_are_served_or_refused(
    server: str, table: dict[str, str]
) -> None:
    """A character ``Jack/Jill`` (``%2F`` in the URL) has a state and a history; ``.`` and
    ``..`` are refused for characters and seats (CORE-NAME), and nothing is appended."""
    from urllib.parse import quote

    gm = api(server, table["gm"])
    added = command(server, table, "gm", test_api.ADD.format("'Jack/Jill'"))
    assert added.status_code == 201, added.text
    path = quote("Jack/Jill", safe="")
    assert gm.get(f"/tables/{table['id']}/state/{path}").json()["hp"] == 26
    history = gm.get(f"/tables/{table['id']}/history/{path}").json()
    assert [added.json()["seqs"][0]] == [h["seq"] for h in history]
    assert gm.get(f"/tables/{table['id']}/state/Jack").status_code == 404
    before = gm.get(f"/tables/{table['id']}").json()["seq"]
    for name in (".", ".."):
        character = command(server, table, "gm", test_api.ADD.format(f"'{name}'"))
        seat = gm.post(f"/tables/{table['id']}/seats", json={"name": name, "role": "observer"})
        for answer in (character, seat):
            assert (answer.status_code, answer.json()["error"]["rule"]) == (422, "CORE-NAME")
    assert before == gm.get(f"/tables/{table['id']}").json()["seq"]


def test_the_gm_retires_a_character_a_player_may_not(server: str, table: dict[str, str]) -> None:
    """``retire Kai --reason …`` through the API: ann's is 403 (the GM's to do), the GM's is
    201 and Kai is gone from the state."""
    line = "retire Kai --reason 'stays in Otari'"
    refused = command(server, table, "ann", line)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
    assert (
        refused.json()["error"]["message"]
        == "retire is the GM's to do (needs the gm role; ann is a player)"
    )  # the command's words, not its record's class (RetireEntity)
    retired = command(server, table, "gm", line)
    assert retired.status_code == 201, retired.text
    state = api(server, table["gm"]).get(f"/tables/{table['id']}/state").json()
    assert sorted(state["characters"]) == ["Aria"]


ROUTES = [
    ("GET", "", None),
    ("GET", "/state", None),
    ("GET", "/state/Aria", None),
    ("GET", "/log", None),
    ("GET", "/history/Aria", None),
    ("GET", "/report?format=nope", None),
    ("GET", "/events", None),
    ("POST", "/commands", {"command": "note x"}),
    ("POST", "/seats", {"name": "zed", "role": "observer"}),
    ("DELETE", "/seats/ann", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
def test_without_a_good_token_an_unknown_table_answers_as_an_existing_one(
    server: str, table: dict[str, str], method: str, path: str, body: object
) -> None:
    """No token, an unknown token, or another table's seat token: the same 401 for an existing
    table and for no such table, on every route of a table (ids cannot be probed); the server
    token still gets the 404."""
    other = api(server).post("/tables", json={"system": "pf2e"}).json()["table_id"]
    for token in (None, "wrong", table["ann"]):
        client = api(server, token)
        answers = [
            client.request(method, f"/tables/{tid}{path}", json=body)
            for tid in (other, "nosuchtable")
        ]
        assert [(a.status_code, a.json()["error"]["code"]) for a in answers] == [
            (401, "unauthorized")
        ] * 2
        assert answers[0].json() == answers[1].json()
    answer = api(server).request(method, f"/tables/nosuchtable{path}", json=body)
    assert answer.status_code == 404


def test_a_usage_error_reads_as_the_clis(server: str, table: dict[str, str]) -> None:
    """An unknown option: 400 usage with the CLI's words, naming the help to read."""
    answer = command(server, table, "ann", "magicpunk draw Aria 1 --bogus")
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "usage")
    assert (
        (answer.json()["error"]["message"])
        == "No such option '--bogus'. (see: tablelog magicpunk draw --help)"
    )
