"""The HTTP API of SERVER.md §4 against a real `tablelog serve` process over HTTP, on the file
store and on PostgreSQL (every test runs on both)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.server import ADD, api, serving, sse_records


@pytest.fixture(scope="module", params=["file", "postgresql"])
def store(request: pytest.FixtureRequest, folder: Path) -> str:
    """The server's store: the module's folder, or a fresh PostgreSQL database."""
    if request.param == "file":
        return f"file:{folder}"
    return str(request.getfixturevalue("pg").new_database())


@pytest.fixture(scope="module")
def server(store: str, folder: Path) -> Iterator[str]:
    """A `tablelog serve` process on the module's store; yields its base URL."""
    with serving(store, folder / f"server-{store.partition(':')[0]}.out") as url:
        yield url


@pytest.fixture
def table(server: str) -> dict[str, str]:
    """A magicpunk table with Aria and Kai, and seats: ann plays Aria, bo plays Kai, an
    observer; returns the table id and every token."""
    gm = api(server)
    created = gm.post("/tables", json={"system": "magicpunk", "title": "Rest", "seed": 3})
    assert created.status_code == 201, created.text
    tid = created.json()["table_id"]
    tokens = {"id": tid, "gm": created.json()["gm_token"]}
    for name in ("Aria", "Kai"):
        assert (
            gm.post(f"/tables/{tid}/commands", json={"command": ADD.format(name)}).status_code
            == 201
        )
    for name, role, chars in (
        ("ann", "player", ["Aria"]),
        ("bo", "player", ["Kai"]),
        ("olly", "observer", []),
    ):
        seat = gm.post(
            f"/tables/{tid}/seats", json={"name": name, "role": role, "characters": chars}
        )
        assert seat.status_code == 201, seat.text
        body = seat.json()
        assert (name, role, chars) == (body["name"], body["role"], body["characters"])
        link = body["url"].partition(f"/t/{tid}?token=")[2]
        assert link and link != body["token"]  # a one-time link, not the seat's token
        tokens[name] = body["token"]
    return tokens


def command(server: str, t: dict[str, str], who: str, line: str, **extra: object) -> httpx.Response:
    return api(server, t[who]).post(f"/tables/{t['id']}/commands", json={"command": line, **extra})


def test_health_and_openapi_need_no_token(server: str, store: str) -> None:
    """Health answers the store kind; /openapi.json is an OpenAPI 3 document of the /api
    routes."""
    kind = "file" if store.startswith("file:") else "postgresql"
    assert {"ok": True, "store": kind} == api(server, None).get("/health").json()
    doc = api(server, None).get(f"{server}/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert "/api/tables/{table_id}/commands" in doc["paths"]


@pytest.mark.parametrize("token", [None, "wrong"])
def test_no_or_unknown_token_is_401_in_json(server: str, token: str | None) -> None:
    """Every /api call but health needs a good token: 401 with a JSON error."""
    answer = api(server, token).get("/tables")
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "unauthorized"


def test_a_seat_token_is_good_for_its_table_only(server: str, table: dict[str, str]) -> None:
    """ann's token reads her table, not another table (401), and cannot list tables."""
    other = api(server).post("/tables", json={"system": "pf2e"}).json()["table_id"]
    ann = api(server, table["ann"])
    assert ann.get(f"/tables/{table['id']}").status_code == 200
    assert ann.get(f"/tables/{table['id']}").json()["me"] == {
        "name": "ann",
        "role": "player",
        "characters": ["Aria"],
    }
    assert ann.get(f"/tables/{other}").status_code == 401
    assert ann.get("/tables").status_code == 401


def test_a_player_acts_for_her_own_characters_only(server: str, table: dict[str, str]) -> None:
    """ann draws for Aria (201, the envelope's actor is ann); drawing for Kai is 403 naming
    Kai; adding a character is the GM's (403)."""
    drawn = command(server, table, "ann", "magicpunk draw Aria 2")
    assert drawn.status_code == 201, drawn.text
    body = drawn.json()
    assert [body["seqs"][0]] * 2 == body["seqs"] and body["events"][0]["actor"] == "ann"
    refused = command(server, table, "ann", "magicpunk draw Kai 2")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
    assert "Kai is not ann's character" in refused.json()["error"]["message"]
    gm_only = command(server, table, "ann", ADD.format("Zed"))
    assert gm_only.status_code == 403 and "gm role" in gm_only.json()["error"]["message"]


def test_hidden_cards_are_question_marks_for_other_seats(
    server: str, table: dict[str, str]
) -> None:
    """After ann draws 2 for Aria and bo 2 for Kai: ann sees her faces and Kai's as "?", the
    GM sees all, the observer sees only "?"; the log and the stream hide them the same way."""
    command(server, table, "ann", "magicpunk draw Aria 2")
    command(server, table, "bo", "magicpunk draw Kai 2")
    hands = {}
    for who in ("ann", "gm", "olly"):
        state = api(server, table[who]).get(f"/tables/{table['id']}/state").json()
        hands[who] = {k: v["hand"] for k, v in state["characters"].items()}
    assert hands["gm"]["Aria"] == hands["ann"]["Aria"] and "?" not in hands["gm"]["Aria"]
    assert ["?", "?"] == hands["ann"]["Kai"] == hands["olly"]["Kai"] == hands["olly"]["Aria"]
    assert "?" not in hands["gm"]["Kai"]
    log = api(server, table["ann"]).get(f"/tables/{table['id']}/log").json()["events"]
    drawn = {
        e["data"]["who"]: e["data"]["cards"] for e in log if e["type"] == "magicpunk.CardsDrawn"
    }
    assert (hands["gm"]["Aria"], ["?", "?"]) == (drawn["Aria"], drawn["Kai"])
    assert all("token_sha256" not in e["data"] for e in log)


def test_an_observer_appends_nothing(server: str, table: dict[str, str]) -> None:
    """An observer's command is 403 and the table is unchanged."""
    before = api(server).get(f"/tables/{table['id']}").json()["seq"]
    assert command(server, table, "olly", "note hello").status_code == 403
    assert before == api(server).get(f"/tables/{table['id']}").json()["seq"]


def test_a_player_undoes_only_her_own_actions(server: str, table: dict[str, str]) -> None:
    """bo cannot undo ann's note by seq (403); ann's bare undo takes back her note (an action
    that rolls nothing: her own draws are not hers to undo, CORE-REROLL)."""
    seq = command(server, table, "ann", "note 'Aria keeps watch'").json()["seqs"][0]
    command(server, table, "bo", "note 'Kai sleeps'")
    assert command(server, table, "bo", f"undo {seq}").status_code == 403
    undone = command(server, table, "ann", "undo")
    assert undone.status_code == 201
    assert {"target": seq, "reason": ""} == undone.json()["events"][0]["data"]


def test_refusals_usage_and_dry_runs(server: str, table: dict[str, str]) -> None:
    """A rule's refusal is 422 with its rule ID and the CLI's words; not a command line, or a
    read command, is 400; a dry run is 200 and appends nothing."""
    before = api(server).get(f"/tables/{table['id']}").json()["seq"]
    bad_card = command(server, table, "ann", "magicpunk play Aria AS")  # not in her hand
    assert bad_card.status_code == 422
    assert (
        bad_card.json()["error"]["code"],
        bad_card.json()["error"]["rule"],
    ) == ("rule", "MP-CARDS")
    for line in (
        "state",
        "init --system pf2e",
        "note 'unclosed",
        "--log x note a",
        "",
        "magicpunk play Aria ZZ",  # no such card: a usage error, as on the command line
    ):
        answer = command(server, table, "gm", line)
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "usage"), line
    dry = command(server, table, "ann", "magicpunk draw Aria 1", dry_run=True)
    assert dry.status_code == 200 and len(dry.json()["events"]) == 1
    assert before == api(server).get(f"/tables/{table['id']}").json()["seq"]


def test_a_repeated_request_id_answers_the_first_result(server: str, table: dict[str, str]) -> None:
    """The same request_id twice: 201 then 200 with the same seqs and events; one draw."""
    first = command(server, table, "ann", "magicpunk draw Aria 1", request_id="phone-7")
    again = command(server, table, "ann", "magicpunk draw Aria 1", request_id="phone-7")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["seqs"] == again.json()["seqs"]
    assert first.json()["events"] == again.json()["events"]
    assert again.json()["request_id"] == "phone-7"


def test_a_revoked_seat_token_stops_working_at_once(server: str, table: dict[str, str]) -> None:
    """DELETE the seat: 204, then its token is 401; an unknown seat is 404."""
    gm = api(server, table["gm"])
    assert gm.delete(f"/tables/{table['id']}/seats/bo").status_code == 204
    assert api(server, table["bo"]).get(f"/tables/{table['id']}").status_code == 401
    assert gm.delete(f"/tables/{table['id']}/seats/bo").status_code == 404


def test_state_at_a_past_seq_and_unknown_names(server: str, table: dict[str, str]) -> None:
    """state?at=SEQ is the state then; past the end is 422 CORE-SEQ; an unknown name 404; an
    unknown table 404 to the server token, 401 to a seat's."""
    seq = command(server, table, "ann", "magicpunk draw Aria 2").json()["seqs"][0]
    gm = api(server, table["gm"])
    assert (
        gm.get(f"/tables/{table['id']}/state", params={"at": seq - 1}).json()["characters"]["Aria"][
            "hand"
        ]
        == []
    )
    assert len(gm.get(f"/tables/{table['id']}/state/Aria").json()["hand"]) == 2
    assert (
        gm.get(f"/tables/{table['id']}/state", params={"at": 999}).json()["error"]["rule"]
        == "CORE-SEQ"
    )
    assert gm.get(f"/tables/{table['id']}/state/Nobody").status_code == 404
    assert api(server).get("/tables/nope/state").status_code == 404  # the server token's
    assert gm.get("/tables/nope/state").status_code == 401  # a seat's: not good there (§4)


def test_a_table_title_with_control_characters_is_refused(server: str) -> None:
    """POST /tables with a title holding an OSC sequence: 422 CORE-TEXT, as `init --title`
    refuses it, and no table is created (the API once created it: every player's `state`
    then carried the sequence)."""
    gm = api(server)
    before = gm.get("/tables").json()
    answer = gm.post("/tables", json={"system": "magicpunk", "title": "war\x1b]0;pwned\x07"})
    assert (answer.status_code, answer.json()["error"]["rule"]) == (422, "CORE-TEXT")
    assert answer.json()["error"]["message"] == (
        "the title cannot hold control characters (\\u001b in 'war\\u001b]0;pwned\\u0007')"
    )
    assert before == gm.get("/tables").json()


def test_a_body_over_64_kib_is_413(server: str, table: dict[str, str]) -> None:
    """Request bodies over 64 KiB get 413 in JSON."""
    answer = command(server, table, "gm", "note " + "x" * 70_000)
    assert answer.status_code == 413 and "error" in answer.json()


def test_a_body_nested_too_deeply_is_400(server: str, table: dict[str, str]) -> None:
    """30,000 nested lists in 60 KB (under the 64 KiB limit): 400 usage, not a 503 that blames
    the table; the table still answers."""
    gm = api(server, table["gm"])
    for body in ("[" * 30_000 + "]" * 30_000, '{"command": ' + "[" * 20_000 + "]" * 20_000 + "}"):
        answer = gm.post(
            f"/tables/{table['id']}/commands",
            content=body.encode(),
            headers={"content-type": "application/json"},
        )
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "usage")
    assert gm.get(f"/tables/{table['id']}/state").status_code == 200


def test_the_event_stream_resumes_with_last_event_id(server: str, table: dict[str, str]) -> None:
    """The stream sends every record after Last-Event-ID once, in order, as SSE records."""
    gm = api(server, table["gm"])
    seq = gm.get(f"/tables/{table['id']}").json()["seq"]
    command(server, table, "ann", "magicpunk draw Aria 1")
    command(server, table, "bo", "magicpunk draw Kai 1")
    with gm.stream(
        "GET", f"/tables/{table['id']}/events", headers={"Last-Event-ID": str(seq)}
    ) as stream:
        got = sse_records(stream, 2)
    assert [seq + 1, seq + 2] == [i for i, _ in got]
    assert [d["actor"] for _, d in got] == ["ann", "bo"]


def test_a_corrupt_or_torn_table_is_503_while_others_work(
    server: str, table: dict[str, str], store: str, folder: Path
) -> None:
    """A table whose log is corrupt answers 503 "log" (a flipped bit in a record: a file's
    byte, a PostgreSQL row's payload); on the file store a served table whose log gains a torn
    last record refuses commands with 503; another table keeps working."""
    from tests.support.cli import ok

    gm = api(server)
    broken = f"broken{uuid.uuid4().hex[:8]}"
    ok(f"{store}#{broken}", "init", "--system", "pf2e")
    ok(f"{store}#{broken}", "note", "a ruling")
    if store.startswith("file:"):
        corrupt = folder / f"{broken}.tlog"
        data = bytearray(corrupt.read_bytes())
        data[-10] ^= 0x40  # inside the note's record: a checksum mismatch
        corrupt.write_bytes(bytes(data))
    else:
        import psycopg

        with psycopg.connect(store, autocommit=True) as conn:
            conn.execute(
                "UPDATE tablelog_records SET payload = set_byte(payload, 19, "
                "get_byte(payload, 19) # 64) WHERE table_id = %s",  # a byte flipped
                (broken,),
            )
    answer = gm.get(f"/tables/{broken}/state")
    assert (answer.status_code, answer.json()["error"]["code"]) == (503, "log")
    assert "corrupt" in answer.json()["error"]["message"]
    if store.startswith("file:"):
        torn = gm.post("/tables", json={"system": "pf2e"}).json()["table_id"]
        with (folder / f"{torn}.tlog").open("ab") as f:
            f.write(b"\x00\x00\x00\x40\x00")  # a crash mid-append: a record cut short
        refused = gm.post(f"/tables/{torn}/commands", json={"command": "note x"})
        assert (refused.status_code, refused.json()["error"]["code"]) == (503, "log")
        assert "torn last record" in refused.json()["error"]["message"]
    assert gm.get(f"/tables/{table['id']}/state").status_code == 200


def test_a_dry_run_draw_shows_no_card_of_the_pile_to_anyone(
    server: str, table: dict[str, str]
) -> None:
    """The pile's order is seen by nobody, the GM included: a dry-run draw answers "?" for the
    cards it would take (found by the hidden-information property test)."""
    for who in ("gm", "ann"):
        dry = command(server, table, who, "magicpunk draw Aria 2", dry_run=True)
        assert dry.json()["events"][0]["data"]["cards"] == ["?", "?"]
        assert next(
            c["new"] for c in dry.json()["changes"] if c["field"] == "characters.Aria.hand"
        ) == ["?", "?"]


def test_an_enemy_with_a_dot_in_its_name_keeps_its_hp_hidden(server: str) -> None:
    """saga: the answer to a player's own attack on an enemy named `Lt.Vex` shows its HP change
    as null, as for `Wolf` (the dot once split the change's path at the wrong place: `Lt` was no
    enemy, and the HP showed); the GM's answer shows it."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "seed": 2}).json()["table_id"]
    for line in (
        "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
        "--weapon 1h-sword=30 --resist 20",
        "saga unit add Lt.Vex --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp "
        "150 --race beast",
        "table allow given-factors",  # the player reports her roll (CORE-GIVEN)
    ):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "p", "role": "player", "characters": ["Gustave"]}
    ).json()["token"]
    attack = {"command": "saga cast Gustave kiri-harai --target Lt.Vex --roll 1", "dry_run": True}
    seen = {
        who: {
            c["field"]: (c["old"], c["new"])
            for c in client.post(f"/tables/{tid}/commands", json=attack).json()["changes"]
        }
        for who, client in (("gm", gm), ("player", api(server, token)))
    }
    assert seen["player"]["characters.Lt.Vex.hp"] == (None, None)
    assert seen["gm"]["characters.Lt.Vex.hp"][0] == 1200


def test_an_enemys_hp_and_lp_are_null_to_players_in_every_view(server: str) -> None:
    """saga: a unit added with --enemy shows hp, hp_max, lp, lp_max as null to a player, in
    the state and in the record that added it; the GM sees them; the hits stay public."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "seed": 2}).json()["table_id"]
    for line in (
        "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
        "--weapon 1h-sword=30 --resist 20",
        "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
        "saga cast Gustave kiri-harai --target Wolf --roll 1",
    ):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "p", "role": "player", "characters": ["Gustave"]}
    ).json()["token"]
    player = api(server, token)
    wolf = player.get(f"/tables/{tid}/state/Wolf").json()
    assert [wolf[k] for k in ("hp", "hp_max", "lp", "lp_max")] == [None] * 4
    assert gm.get(f"/tables/{tid}/state/Wolf").json()["hp_max"] == 1200
    added = next(
        e
        for e in player.get(f"/tables/{tid}/log").json()["events"]
        if e["type"] == "saga.UnitAdded" and e["data"]["name"] == "Wolf"
    )
    assert (added["data"]["sheet"]["hp_max"], added["data"]["sheet"]["hp"]) == (None, None)
    assert any(
        e["type"] == "saga.AttackDamageDealt"
        for e in player.get(f"/tables/{tid}/log").json()["events"]
    )


def test_a_signed_table_is_503_naming_why(server: str, store: str) -> None:
    """A table whose log has a roster of signing keys (init --sign) is not served: 503 "log"
    saying it is signed, for reads, the event stream and commands alike; the table is
    unchanged."""
    from tests.support.cli import ok

    signed = f"signed{uuid.uuid4().hex[:8]}"
    ok(f"{store}#{signed}", "init", "--system", "pf2e", "--sign")
    gm = api(server)
    for answer in (
        gm.get(f"/tables/{signed}/state"),
        gm.get(f"/tables/{signed}/events"),
        gm.post(f"/tables/{signed}/commands", json={"command": "note x"}),
    ):
        assert (answer.status_code, answer.json()["error"]["code"]) == (503, "log")
        assert f"table {signed} is signed" in answer.json()["error"]["message"]
    assert [
        json.loads(line)["seq"] for line in ok(f"{store}#{signed}", "log", "--json").splitlines()
    ] == [1]


def test_control_characters_from_the_log_never_reach_text_answers_raw(
    server: str, store: str, table: dict[str, str]
) -> None:
    """A hostile record (appended behind the server's back: a note and an actor holding escape
    sequences, which no command takes) shows escaped in the report (md and html), never as the
    raw control character; an error message naming such a name escapes it too."""
    from tablelog.store.url import open_log

    log = open_log(f"{store}#{table['id']}")
    log.open()
    end = log.position(api(server).get(f"/tables/{table['id']}").json()["seq"])
    assert end is not None
    log.append(
        [
            {
                "type": "core.Noted",
                "v": 1,
                "at": "2026-12-01T00:00:00.000000Z",
                "actor": "\x1b[31mgm",
                "data": {"text": "\x1b]0;owned\x07 \x1b[2J"},
                "cmd": end.seq + 1,
            }
        ],
        end,
    )
    log.close()
    gm = api(server, table["gm"])
    for fmt in ("md", "html"):
        text = gm.get(f"/tables/{table['id']}/report", params={"format": fmt}).text
        assert "u001b" in text and "owned" in text  # written as an escape (md escapes it too)
        assert not any(ord(c) < 32 and c not in "\n\t" for c in text), fmt
    refused = command(server, table, "gm", "magicpunk draw '\x1b[31mZed' 1")
    assert refused.status_code == 422
    message = refused.json()["error"]["message"]
    assert "\x1b" not in message and "Zed" in message, message
