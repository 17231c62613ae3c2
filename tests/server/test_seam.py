"""One seam for every face (issue 26): the server parses a line into a command record with the
CLI's own click tree, authorises the record, and answers refusals as data — rule ID, message,
the values it names (``params``) and its suggestions — for a rule's refusal, a forbidden
command and a usage error alike (SERVER.md §4)."""

from __future__ import annotations

import pytest

from tests.support.server import api, commands


@pytest.fixture(scope="module")
def table(server: str) -> dict[str, str]:
    gm = api(server)
    made = gm.post("/tables", json={"system": "pf2e", "title": "Seam", "seed": 3}).json()
    commands(
        api(server, made["gm_token"]),
        made["table_id"],
        "pf2e character add Valeros --level 8",
        "pf2e character add Ezren --level 8",
        "pf2e item add longsword-1 --base longsword --owner Valeros",
    )
    seat = api(server, made["gm_token"]).post(
        f"/tables/{made['table_id']}/seats",
        json={"name": "ann", "role": "player", "characters": ["Ezren"]},
    )
    return {**made, "player_token": seat.json()["token"]}


def _post(server: str, token: str, table_id: str, line: str) -> tuple[int, dict]:
    answer = api(server, token).post(f"/tables/{table_id}/commands", json={"command": line})
    return answer.status_code, answer.json()


@pytest.mark.rule("UNKNOWN-NAME")
def test_a_rule_refusal_carries_its_rule_params_and_suggestions(
    server: str, table: dict[str, str]
) -> None:
    """An unknown character is 422 UNKNOWN-NAME: the message as the CLI words it (with its "did
    you mean"), the name it could not find in params, and Valeros among the suggestions."""
    status, body = _post(
        server, table["gm_token"], table["table_id"], "pf2e formula add Valeros frost"
    )
    assert status == 201, body
    status, body = _post(
        server,
        table["gm_token"],
        table["table_id"],
        "pf2e etch longsword-1 frost --by Valros",
    )
    error = body["error"]
    assert (status, error["code"], error["rule"]) == (422, "rule", "UNKNOWN-NAME")
    assert error["message"] == "no character named 'Valros'; did you mean Valeros?"
    assert error["params"]["name"] == "Valros"
    assert error["suggestions"] == ["Valeros"]


def test_a_forbidden_command_names_the_character_and_the_seat(
    server: str, table: dict[str, str]
) -> None:
    """A player's etch by another seat's character is 403: params name the character, the seat
    and whom it plays; nothing is suggested."""
    status, body = _post(
        server,
        table["player_token"],
        table["table_id"],
        "pf2e etch longsword-1 frost --by Valeros",
    )
    assert (status, body["error"]["code"], body["error"]["rule"]) == (403, "forbidden", "CORE-ROLE")
    assert body["error"]["params"] == {"character": "Valeros", "seat": "ann", "plays": ["Ezren"]}
    assert body["error"]["message"] == "Valeros is not ann's character (ann plays Ezren)"
    assert body["error"]["suggestions"] == []


def test_a_gm_command_names_the_role_it_needs(server: str, table: dict[str, str]) -> None:
    """A player adding a character is 403: the role it needs is in params."""
    status, body = _post(
        server, table["player_token"], table["table_id"], "pf2e character add Merisiel"
    )
    assert (status, body["error"]["code"]) == (403, "forbidden")
    assert (body["error"]["params"]) == {
        "command": "pf2e character add",
        "needs": "gm",
        "seat": "ann",
        "role": "player",
    }


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("pf2e etch longsword-1", "Missing argument 'RUNE'. (see: tablelog pf2e etch --help)"),
        ("pf2e etch longsword-1 frost --by Valeros --bogus", "No such option '--bogus'"),
        ("--log x.tlog note hi", "'--log' is not a command this API takes"),
        ("note hi --actor Ezren", "No such option '--actor'"),
        ("pf2e etch longsword-1 frost --by Valeros --help", "No such option '--help'"),
        ("note hi --dry-run", "--dry-run are not taken in a command line here"),
        ("saga unit add Wolf --sheet /etc/passwd", "--sheet"),
        ("state", "'state' is not a command this API takes"),
        ("pf2e rune list", "No such command 'rune'"),
        ('note "unclosed', "not a command line: No closing quotation"),
    ],
)
def test_a_usage_error_is_400_usage_and_nothing_is_appended(
    server: str, table: dict[str, str], line: str, message: str
) -> None:
    """What is not a command line the API takes is 400 ``usage`` with no rule, its message
    naming what is wrong; the table's log does not move."""
    gm = api(server, table["gm_token"])
    before = gm.get(f"/tables/{table['table_id']}").json()["seq"]
    status, body = _post(server, table["gm_token"], table["table_id"], line)
    assert (status, body["error"]["code"], body["error"]["rule"]) == (400, "usage", None), body
    assert message in body["error"]["message"]
    assert {"code", "rule", "message", "params", "suggestions"} == set(body["error"])
    assert before == gm.get(f"/tables/{table['table_id']}").json()["seq"]
