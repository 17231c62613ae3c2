"""The second fresh tester's faults over HTTP, on the file store and on PostgreSQL (issue 17):
a GM seat revoking itself, stand-in rolls only where the seed matters, query parameters and
bodies that are usage errors, a refusal's hidden parts shown to the seats that may see them."""

from __future__ import annotations

import json

import pytest

from tests.server import test_api, test_seats_and_previews
from tests.server.test_api import command
from tests.support.server import api

# the API tests' fixtures: every test on the file store and on PostgreSQL, a magicpunk table
store, server, table = test_api.store, test_api.server, test_api.table
saga = test_seats_and_previews.saga  # a saga table in battle; ann plays Gustave


@pytest.mark.rule("CORE-SEAT")
def test_a_gm_seat_cannot_revoke_itself_another_gm_seat_may(
    server: str, table: dict[str, str]
) -> None:
    """The table's GM seat revoking itself: 422 CORE-SEAT naming who may, nothing appended, its
    token still good; a second GM seat revokes it (204), and the server token revokes that one."""
    tid = table["id"]
    gm = api(server, table["gm"])
    before = gm.get(f"/tables/{tid}").json()["seq"]
    refused = gm.delete(f"/tables/{tid}/seats/gm")
    assert (refused.status_code, refused.json()["error"]["rule"]) == (422, "CORE-SEAT")
    assert refused.json()["error"]["message"] == (
        "seat 'gm' cannot revoke itself (the table would lose its GM): another GM seat or the "
        "server token may revoke it"
    )
    assert before == gm.get(f"/tables/{tid}").json()["seq"]
    second = gm.post(f"/tables/{tid}/seats", json={"name": "gm2", "role": "gm"}).json()["token"]
    assert api(server, second).delete(f"/tables/{tid}/seats/gm").status_code == 204
    assert gm.get(f"/tables/{tid}").status_code == 401
    assert api(server).delete(f"/tables/{tid}/seats/gm2").status_code == 204
    assert api(server, second).get(f"/tables/{tid}").status_code == 401


def test_stand_in_rolls_only_where_the_preview_depends_on_the_seed(
    server: str, table: dict[str, str], saga: dict[str, str]
) -> None:
    """As a player: a saga cast without --roll (its random factor comes from the seed) is
    ``stand_in_rolls: true``; a magicpunk play of a card ann holds rolls nothing: false."""
    cast = command(
        server, saga, "ann", "saga cast Gustave kiri-harai --target Gustave", dry_run=True
    )
    assert (cast.status_code, cast.json()["stand_in_rolls"]) == (200, True), cast.text
    assert command(server, table, "ann", "magicpunk draw Aria 2").status_code == 201
    hand = api(server, table["gm"]).get(f"/tables/{table['id']}/state/Aria").json()["hand"]
    play = command(server, table, "ann", f"magicpunk play Aria {hand[0]}", dry_run=True)
    assert (play.status_code, play.json()["stand_in_rolls"]) == (200, False), play.text
    assert [hand[0]] == play.json()["events"][0]["data"]["cards"]


QUERIES = [
    ("/log?limit=-5", "limit='-5' is not a whole number from 1 to 10,000"),
    ("/log?limit=0", "limit='0' is not a whole number from 1 to 10,000"),
    ("/log?limit=10001", "limit='10001' is not a whole number from 1 to 10,000"),
    ("/log?limit=many", "limit='many' is not a whole number from 1 to 10,000"),
    ("/log?after=-1", "after='-1' is not a whole number from 0 (a seq)"),
    ("/log?after=1.5", "after='1.5' is not a whole number from 0 (a seq)"),
    ("/log?all=maybe", "all='maybe' is not true or false"),
    ("/state?at=x", "at='x' is not a whole number (a seq)"),
    ("/report?until=x", "until='x' is not a whole number (a seq)"),
    ("/events?after=-2", "after='-2' is not a whole number from 0 (a seq)"),
    ("/events?after=x", "after='x' is not a whole number from 0 (a seq)"),
]


@pytest.mark.parametrize(("query", "said"), QUERIES)
def test_a_query_parameter_out_of_range_or_not_a_number_is_a_usage_error(
    server: str, table: dict[str, str], query: str, said: str
) -> None:
    """Every query parameter of every route: out of its range or not a number, 400 usage
    naming the value and what it takes (``?limit=-5`` answered one record before)."""
    answer = api(server, table["gm"]).get(f"/tables/{table['id']}{query}")
    assert (400, "usage", said) == (
        answer.status_code,
        answer.json()["error"]["code"],
        answer.json()["error"]["message"],
    )


def test_the_log_limit_bounds_are_served(server: str, table: dict[str, str]) -> None:
    """``limit=1`` answers one record, ``limit=10000`` all of them, ``after=0`` from the first."""
    gm = api(server, table["gm"])
    seq = gm.get(f"/tables/{table['id']}").json()["seq"]
    for query, seqs in (("limit=1", [1]), ("limit=10000&after=0", list(range(1, seq + 1)))):
        events = gm.get(f"/tables/{table['id']}/log?{query}").json()["events"]
        assert seqs == [e["seq"] for e in events]


BODIES = [
    ("/commands", None, "the request has no body: send a JSON object with command"),
    ("/commands", b"{}", "the body has no command: send a JSON object with command"),
    ("/commands", b"[1]", "the body is a list, not a JSON object: send a JSON object with command"),
    (
        "/commands",
        b'{"command": 5}',
        "the body's command is a whole number, not a string: send a JSON object with command",
    ),
    ("/commands", b"{not json", "the body is not JSON (object keys must be strings (byte 1))"),
    ("/seats", b'{"name": "zed"}', "the body has no role: send a JSON object with name and role"),
    ("/seats", None, "the request has no body: send a JSON object with name and role"),
]


@pytest.mark.parametrize(("path", "body", "said"), BODIES)
def test_a_body_that_is_not_the_expected_object_is_a_usage_error_in_plain_words(
    server: str, table: dict[str, str], path: str, body: bytes | None, said: str
) -> None:
    """No body, a body without a required field, not a JSON object, a field of the wrong
    kind: 400 usage naming the field in plain words; nothing is appended."""
    gm = api(server, table["gm"])
    seq = gm.get(f"/tables/{table['id']}").json()["seq"]
    headers = {} if body is None else {"content-type": "application/json"}
    answer = gm.post(f"/tables/{table['id']}{path}", content=body, headers=headers)
    assert (400, "usage", said) == (
        answer.status_code,
        answer.json()["error"]["code"],
        answer.json()["error"]["message"],
    )
    assert seq == gm.get(f"/tables/{table['id']}").json()["seq"]


def test_a_body_over_64_kib_is_413_naming_its_size_and_the_limit(
    server: str, table: dict[str, str]
) -> None:
    """A 70,000-character note: 413 too_large saying how big the body is and the limit."""
    body = json.dumps({"command": "note " + "x" * 70_000}).encode()
    answer = api(server, table["gm"]).post(
        f"/tables/{table['id']}/commands",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too_large")
    assert (
        f"the body is {len(body):,} bytes; at most 65,536 bytes"
        == answer.json()["error"]["message"]
    )


@pytest.mark.rule("CORE-UNDO")
def test_an_undo_refusal_shows_the_owner_her_own_public_play(
    server: str, table: dict[str, str]
) -> None:
    """ann draws 2 given cards (#D: the table allows them, so the draw is hers to undo) and
    plays one of them publicly (#P); undoing #D is refused (422 CORE-UNDO) naming #P and its
    card to ann (her play, in the log for all to see), only the card's place now (the draw
    pile, the GM's) blurred; the GM reads the whole reason."""
    gm = api(server, table["gm"])
    assert command(server, table, "gm", "table allow given-cards").status_code == 201
    drawn = command(server, table, "ann", "magicpunk draw Aria 2 --cards AS,KD")
    assert drawn.status_code == 201, drawn.text
    card = gm.get(f"/tables/{table['id']}/state/Aria").json()["hand"][0]
    played = command(server, table, "ann", f"magicpunk play Aria {card}")
    assert played.status_code == 201, played.text
    draw, play = drawn.json()["seqs"][0], played.json()["seqs"][0]
    said = {}
    for who in ("ann", "gm"):
        answer = command(server, table, who, f"undo {draw}")
        assert (answer.status_code, answer.json()["error"]["rule"]) == (422, "CORE-UNDO")
        said[who] = answer.json()["error"]["message"]
    reason = f"#{draw} cannot be undone: later events depend on it: #{play} magicpunk.CardsPlayed"
    assert {
        "ann": f"{reason} (MP-CARDS: {card} is not held by Aria (it is not where you can see it))",
        "gm": f"{reason} (MP-CARDS: {card} is not held by Aria (it is in the draw pile))",
    } == said
