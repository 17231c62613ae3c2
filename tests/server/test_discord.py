"""Discord's interactions (issue 29) against a real `tablelog serve --discord-public-key`
process over HTTP, each request signed with a key pair made here; the ephemeral follow-ups go
to a fake Discord API (a small HTTP server of the test, `$TABLELOG_DISCORD_API`)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tablelog.server.discord.messages import plain
from tests.support.server import ADD, api, commands, free_port, serving

KEY = Ed25519PrivateKey.generate()
PUBLIC = KEY.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
CHANNEL = "1100"
EPHEMERAL = 64


class FakeDiscord(ThreadingHTTPServer):
    """Discord's webhook API as far as follow-ups go: it keeps every message posted."""

    def __init__(self) -> None:
        self.posted: list[tuple[str, dict[str, Any]]] = []
        self.put: list[tuple[str, str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                size = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(size))
                outer.posted.append((self.path, body))
                if self.path.endswith("/users/@me/channels"):  # a DM channel, by its user
                    assert self.headers.get("authorization") == "Bot b0t"
                    self._answer(json.dumps({"id": f"dm{body['recipient_id']}"}).encode())
                    return
                self._answer(b"{}")

            def do_PUT(self) -> None:  # noqa: N802 - registering commands
                size = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(size))
                outer.put.append((self.path, self.headers.get("authorization", ""), body))
                self._answer(json.dumps(body).encode())

            def _answer(self, body: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", free_port()), Handler)

    def followups(self, token: str, within_s: float = 5.0) -> list[dict[str, Any]]:
        """The messages posted to interaction ``token``'s webhook (waiting for the first)."""
        return self._posted(f"/webhooks/5150/{token}", within_s)

    def direct(self, user: str, within_s: float = 5.0) -> list[dict[str, Any]]:
        """The direct messages posted to ``user`` (waiting for the first)."""
        return self._posted(f"/channels/dm{user}/messages", within_s)

    def _posted(self, tail: str, within_s: float) -> list[dict[str, Any]]:
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            found = [body for path, body in self.posted if path.endswith(tail)]
            if found:
                return found
            time.sleep(0.05)
        return []


@pytest.fixture(scope="module")
def discord() -> Iterator[FakeDiscord]:
    fake = FakeDiscord()
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    yield fake
    fake.shutdown()
    fake.server_close()


@pytest.fixture(scope="module")
def server(folder: Path, discord: FakeDiscord) -> Iterator[str]:
    """A `tablelog serve` process with Discord's endpoint on the module's file store."""
    api_url = f"http://127.0.0.1:{discord.server_address[1]}/api/v10"
    with serving(
        f"file:{folder}",
        folder / "server-discord.out",
        ("--discord-public-key", PUBLIC),
        {"TABLELOG_DISCORD_API": api_url, "TABLELOG_DISCORD_BOT_TOKEN": "b0t"},
    ) as url:
        yield url


def signed(server: str, body: bytes, stamp: str | None = None, key: Any = KEY) -> httpx.Response:
    """POST ``body`` to the endpoint, signed with ``key`` over the timestamp and the body."""
    stamp = stamp or str(int(time.time()))
    signature = key.sign(stamp.encode() + body).hex()
    return httpx.post(
        f"{server}/discord/interactions",
        content=body,
        headers={
            "content-type": "application/json",
            "x-signature-ed25519": signature,
            "x-signature-timestamp": stamp,
        },
        timeout=10,
    )


def slash(
    sub: str,
    who: str,
    kind: int = 2,
    focused: str | None = None,
    interaction: str | None = None,
    channel: str = CHANNEL,
    **options: Any,
) -> dict[str, Any]:
    """An interaction of ``/tl SUB`` by user ``who`` in ``channel`` (an autocomplete: kind 4)."""
    made = interaction or str(uuid.uuid4().int % 10**18)
    opts = [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
        | ({"focused": True} if k == focused else {})
        for k, v in options.items()
    ]
    users = {v: {"id": v, "username": f"user{v}"} for k, v in options.items() if k == "user"}
    return {
        "id": made,
        "application_id": "5150",
        "type": kind,
        "token": f"tok{made}",
        "channel_id": channel,
        "guild_id": "7",
        "member": {"user": {"id": who, "username": f"user{who}"}},
        "locale": "en-US",
        "guild_locale": "en-US",
        "data": {
            "id": "99",
            "name": "tl",
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
            "resolved": {"users": users},
        },
    }


def interact(server: str, payload: dict[str, Any]) -> dict[str, Any]:
    answer = signed(server, json.dumps(payload).encode())
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def table(server: str) -> dict[str, str]:
    """A magicpunk table with Aria and Kai bound to the channel: user 1 is its GM, user 2
    plays Aria (linked by the GM), user 3 plays Kai (joined with his seat's link code)."""
    gm = api(server)
    created = gm.post("/tables", json={"system": "magicpunk", "title": "Rest", "seed": 3})
    assert created.status_code == 201, created.text
    tid, gm_token = created.json()["table_id"], created.json()["gm_token"]
    commands(gm, tid, ADD.format("Aria"), ADD.format("Kai"))
    bound = interact(server, slash("bind", "1", table=tid, token=gm_token))
    assert bound["data"]["flags"] == EPHEMERAL, bound
    assert "you are its seat gm" in bound["data"]["content"]
    seated = interact(server, slash("seat", "1", user="2", role="player", characters="Aria"))
    assert "is seat user2 (player; plays Aria)" in seated["data"]["content"], seated
    bo = gm.post(
        f"/tables/{tid}/seats", json={"name": "bo", "role": "player", "characters": ["Kai"]}
    )
    code = bo.json()["url"].partition("?token=")[2]
    joined = interact(server, slash("join", "3", code=code))
    assert "you are now seat bo (player)" in joined["data"]["content"], joined
    again = interact(server, slash("join", "4", code=code))
    assert again["data"]["content"].startswith("unauthorized: "), again
    return {"id": tid, "gm": gm_token}


def seq_of(server: str, t: dict[str, str]) -> int:
    return int(api(server).get(f"/tables/{t['id']}").json()["seq"])


def test_ping_is_answered_pong(server: str) -> None:
    """A signed PING is answered {"type": 1}."""
    assert interact(server, {"id": "1", "type": 1, "application_id": "5150"}) == {"type": 1}


def test_a_forged_or_missing_signature_is_401(server: str) -> None:
    """A body signed by another key, or unsigned, is 401 before it is read."""
    body = json.dumps({"id": "1", "type": 1}).encode()
    assert signed(server, body, key=Ed25519PrivateKey.generate()).status_code == 401
    bare = httpx.post(f"{server}/discord/interactions", content=body, timeout=10)
    assert bare.status_code == 401
    tampered = signed(server, body).request
    assert (
        httpx.post(
            f"{server}/discord/interactions",
            content=body.replace(b"1", b"2"),
            headers=dict(tampered.headers),
            timeout=10,
        ).status_code
        == 401
    )


def test_an_old_timestamp_is_refused(server: str) -> None:
    """A well-signed request whose timestamp is an hour old is 401 (a replay)."""
    body = json.dumps({"id": "1", "type": 1}).encode()
    answer = signed(server, body, stamp=str(int(time.time()) - 3600))
    assert answer.status_code == 401
    assert "timestamp" in answer.json()["error"]["message"]


def test_a_body_over_the_apis_limit_is_413(server: str) -> None:
    """The endpoint's body limit is the API's, 64 KiB."""
    assert signed(server, b"{" + b" " * 70_000 + b"}").status_code == 413


def test_a_players_draw_is_public_and_her_cards_ephemeral(
    server: str, table: dict[str, str], discord: FakeDiscord
) -> None:
    """Aria's player draws: the channel gets the line as an observer reads it (no card named),
    and the cards go to her alone as an ephemeral follow-up."""
    asked = slash("draw", "2", character="Aria", count=2)
    answer = interact(server, asked)
    assert answer["type"] == 4 and "flags" not in answer["data"], answer
    hand = api(server).get(f"/tables/{table['id']}/state/Aria").json()["hand"]
    assert len(hand) == 2
    public = answer["data"]["content"]
    assert public.startswith("#") and not any(card in public for card in hand), public
    [followup] = discord.followups(asked["token"])
    assert followup["flags"] == EPHEMERAL
    assert all(card in followup["content"] for card in hand), followup


def test_a_gms_damage_is_posted_to_the_channel(server: str, table: dict[str, str]) -> None:
    """The GM's damage is one public line in the channel."""
    answer = interact(server, slash("do", "1", line="magicpunk damage Kai 3"))
    assert "flags" not in answer["data"], answer
    assert "Kai" in answer["data"]["content"] and answer["data"]["content"].startswith("#")
    assert api(server).get(f"/tables/{table['id']}/state/Kai").json()["hp"] == 23


def test_a_refusal_is_ephemeral_with_its_rule_id(server: str, table: dict[str, str]) -> None:
    """A card not in Aria's hand: refused, to the player alone, with MP-CARDS and the words."""
    hand = api(server).get(f"/tables/{table['id']}/state/Aria").json()["hand"]
    card = next(c for c in ("AS", "KH", "2C", "3D", "4H") if c not in hand)
    before = seq_of(server, table)
    answer = interact(server, slash("do", "2", line=f"magicpunk play Aria {card}"))
    assert answer["data"]["flags"] == EPHEMERAL
    assert answer["data"]["content"].startswith("MP-CARDS: "), answer
    assert before == seq_of(server, table)


def test_autocomplete_offers_only_a_hand_the_seat_sees(server: str, table: dict[str, str]) -> None:
    """Completing `magicpunk play Aria ` offers Aria's cards to her player, none to Kai's; a
    command word is completed too."""
    interact(server, slash("draw", "2", character="Aria", count=1))
    hand = api(server).get(f"/tables/{table['id']}/state/Aria").json()["hand"]
    line = "magicpunk play Aria "
    offered = interact(server, slash("do", "2", kind=4, focused="line", line=line))
    assert offered["type"] == 8
    assert sorted(line + c for c in hand) == sorted(c["value"] for c in offered["data"]["choices"])
    hidden = interact(server, slash("do", "3", kind=4, focused="line", line=line))
    assert hidden["data"]["choices"] == []
    words = interact(server, slash("do", "2", kind=4, focused="line", line="magicpunk dr"))
    assert [c["value"] for c in words["data"]["choices"]] == ["magicpunk draw"]
    names = interact(server, slash("draw", "3", kind=4, focused="character", character=""))
    assert [c["value"] for c in names["data"]["choices"]] == ["Kai"]


def test_an_unlinked_user_reads_as_an_observer_and_appends_nothing(
    server: str, table: dict[str, str]
) -> None:
    """A user linked to no seat sees the status an observer sees, and is refused a command."""
    status = interact(server, slash("status", "77"))
    assert status["data"]["flags"] == EPHEMERAL
    assert "Aria" in status["data"]["content"] and "Kai" in status["data"]["content"]
    before = seq_of(server, table)
    refused = interact(server, slash("do", "77", line="magicpunk damage Kai 1"))
    assert refused["data"]["flags"] == EPHEMERAL
    assert refused["data"]["content"].startswith("CORE-ROLE: "), refused
    assert "observer" in refused["data"]["content"]
    assert before == seq_of(server, table)


def test_acting_for_anothers_character_is_forbidden(server: str, table: dict[str, str]) -> None:
    """Aria's player drawing for Kai: an ephemeral 403 naming the character."""
    before = seq_of(server, table)
    answer = interact(server, slash("draw", "2", character="Kai", count=1))
    assert answer["data"]["flags"] == EPHEMERAL
    assert answer["data"]["content"].startswith("CORE-ROLE: Kai is not user2's character")
    assert before == seq_of(server, table)


def test_a_retried_interaction_appends_once(server: str, table: dict[str, str]) -> None:
    """The same interaction id twice (Discord's retry): one append, the same answer."""
    before = seq_of(server, table)
    asked = slash("do", "1", line="magicpunk heal Kai 1")
    first, second = interact(server, asked), interact(server, asked)
    assert first == second
    assert before + 1 == seq_of(server, table)


def test_an_unbound_channel_and_a_wrong_token(server: str, table: dict[str, str]) -> None:
    """A channel bound to no table says so; a bind with a token that is not the table's GM's
    binds nothing."""
    elsewhere = interact(server, slash("status", "1", channel="2200"))
    assert "not bound to a table" in elsewhere["data"]["content"]
    wrong = interact(server, slash("bind", "2", channel="2200", table=table["id"], token="nope"))
    assert wrong["data"]["content"].startswith("forbidden: that is not a GM token"), wrong
    still = interact(server, slash("status", "1", channel="2200"))
    assert "not bound to a table" in still["data"]["content"]


def test_bindings_survive_a_restart(server: str, table: dict[str, str], folder: Path) -> None:
    """The bindings are kept beside the tables: another server process on the same folder
    knows the channel and the seats."""
    with serving(
        f"file:{folder}", folder / "server-again.out", ("--discord-public-key", PUBLIC)
    ) as url:
        before = seq_of(url, table)
        answer = interact(url, slash("do", "1", line="magicpunk damage Kai 1"))
        assert "flags" not in answer["data"], answer
        assert before + 1 == seq_of(url, table)


def test_a_users_language_and_the_tables(server: str, table: dict[str, str]) -> None:
    """What only the user reads is in the user's Discord locale."""
    asked = slash("status", "1", channel="3300") | {"locale": "ja"}
    assert "このチャンネルは卓に結びついていません" in interact(server, asked)["data"]["content"]


def test_the_application_commands_and_their_registration(discord: FakeDiscord) -> None:
    """`tablelog discord commands` prints /tl with every subcommand, each name and description
    localized in ja and ko within Discord's limits; --register PUTs them with the bot token."""
    import re

    from click.testing import CliRunner

    from tablelog.cli.main import cli

    printed = CliRunner().invoke(cli, ["discord", "commands"])
    assert printed.exit_code == 0, printed.output
    [tl] = json.loads(printed.output)
    subs = [o["name"] for o in tl["options"]]
    assert subs == ["bind", "seat", "join", "do", "roll", "draw", "status", "undo", "say"]
    named = re.compile(r"[-_\w]{1,32}")
    for item in [o for sub in tl["options"] for o in (sub, *sub["options"])]:
        for lang in ("ja", "ko"):
            assert named.fullmatch(item["name_localizations"][lang]), item
            assert item["name_localizations"][lang] != item["name"], item
            assert 1 <= len(item["description_localizations"][lang]) <= 100, item
        assert named.fullmatch(item["name"]) and item["name"] == item["name"].lower()
    api_url = f"http://127.0.0.1:{discord.server_address[1]}/api/v10"
    sent = CliRunner().invoke(
        cli,
        ["discord", "commands", "--register", "--application-id", "5150", "--bot-token", "b0t"],
        env={"TABLELOG_DISCORD_API": api_url},
    )
    assert sent.exit_code == 0, sent.output
    assert [("/api/v10/applications/5150/commands", "Bot b0t", [tl])] == discord.put
    assert sent.output == "registered: tl\n"


def test_a_roll_is_public_and_a_secret_roll_the_rollers_alone(
    server: str, table: dict[str, str], discord: FakeDiscord
) -> None:
    """/tl roll posts the roll to the channel; a secret roll (S…) is answered to the roller
    alone, the channel gets nothing of it, and the GM a direct message."""
    rolled = interact(server, slash("roll", "2", notation="2D6", reason="to climb"))
    assert "flags" not in rolled["data"], rolled
    assert "2D6" in rolled["data"]["content"], rolled
    secret = interact(server, slash("roll", "2", notation="S1D100"))
    assert secret["data"]["flags"] == EPHEMERAL, secret
    assert "1D100" in secret["data"]["content"], secret
    [to_gm] = [m for m in discord.direct("1") if "1D100" in m["content"]]
    assert "flags" not in to_gm and "(secret)" in to_gm["content"], to_gm
    assert not [m for m in discord.direct("3", 0.2) if "1D100" in m["content"]]


def test_talk_is_public_and_a_whisper_the_senders_alone(
    server: str, table: dict[str, str], discord: FakeDiscord
) -> None:
    """/tl say posts to the channel; a whisper is answered to the sender alone (ephemeral) and
    sent to its recipient and the GM as direct messages; an observer reads nothing of it."""
    said = interact(server, slash("say", "3", text="Hello, table"))
    assert "flags" not in said["data"] and "Hello, table" in said["data"]["content"], said
    whisper = interact(server, slash("say", "3", text="psst Aria", to="user2"))
    assert whisper["data"]["flags"] == EPHEMERAL, whisper
    assert "psst Aria" in whisper["data"]["content"], whisper
    for reader in ("2", "1"):  # the recipient, the GM
        assert [m for m in discord.direct(reader) if "psst Aria" in m["content"]], reader
    assert not [m for m in discord.direct("3", 0.2) if "psst" in m["content"]]
    status = interact(server, slash("do", "77", kind=4, focused="line", line="say "))
    assert status["data"]["choices"] == []


def test_a_preview_is_the_users_alone(server: str, table: dict[str, str]) -> None:
    """`/tl do … preview:true` is a dry run answered to the user alone; nothing is appended."""
    before = seq_of(server, table)
    answer = interact(server, slash("do", "2", line="magicpunk draw Aria 1", preview=True))
    assert answer["data"]["flags"] == EPHEMERAL and "Aria" in answer["data"]["content"], answer
    assert before == seq_of(server, table)


def test_a_channel_in_japanese_and_runes_completed(server: str) -> None:
    """A pf2e table bound with lang ja: its public lines are in Japanese; completing an etch's
    rune offers the catalogue's runes."""
    gm = api(server)
    created = gm.post("/tables", json={"system": "pf2e", "title": "Runes", "seed": 1})
    tid, token = created.json()["table_id"], created.json()["gm_token"]
    commands(gm, tid, "pf2e character add Valeros --level 8")
    bound = interact(server, slash("bind", "1", channel="4400", table=tid, token=token, lang="ja"))
    assert "you are its seat gm" in bound["data"]["content"], bound
    added = interact(
        server,
        slash(
            "do", "1", channel="4400", line="pf2e item add sword-1 --base longsword --owner Valeros"
        ),
    )
    assert "flags" not in added["data"], added
    assert any(
        "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in added["data"]["content"]
    )
    line = "pf2e etch sword-1 stri"
    offered = interact(server, slash("do", "1", kind=4, focused="line", channel="4400", line=line))
    values = [c["value"] for c in offered["data"]["choices"]]
    assert "pf2e etch sword-1 striking" in values, values
    assert all(v.startswith(line) for v in values)


def test_a_player_undoes_her_own_action(server: str, table: dict[str, str]) -> None:
    """/tl undo takes back the player's latest action, posted to the channel."""
    interact(server, slash("say", "2", text="oops"))
    before = seq_of(server, table)
    undone = interact(server, slash("undo", "2"))
    assert "flags" not in undone["data"], undone
    assert before + 1 == seq_of(server, table)


def test_a_gm_of_another_table_does_not_take_a_bound_channel(
    server: str, table: dict[str, str]
) -> None:
    """Binding a channel that is another table's needs that table's GM: a GM token of a new
    table, from a user who is not the channel's GM, is refused and the channel stays."""
    other = api(server).post("/tables", json={"system": "magicpunk", "seed": 2}).json()
    taken = interact(server, slash("bind", "2", table=other["table_id"], token=other["gm_token"]))
    told = f"forbidden: this channel is table {plain(table['id'])}"
    assert taken["data"]["content"].startswith(told), taken
    assert "Aria" in interact(server, slash("status", "2"))["data"]["content"]


def test_serve_refuses_a_key_that_is_not_one(tmp_path: Path) -> None:
    """`tablelog serve --discord-public-key` with no Ed25519 key is exit 2, before serving; so
    is a PostgreSQL store without `--discord-data` (no folder beside its tables)."""
    from click.testing import CliRunner

    from tablelog.cli.main import cli

    store = f"file:{tmp_path}"
    done = CliRunner().invoke(cli, ["serve", "--store", store, "--discord-public-key", "abc"])
    assert done.exit_code == 2
    assert "not an Ed25519 public key" in done.output
    on_pg = [
        "serve",
        "--store",
        "postgresql://nobody@127.0.0.1:1/x",
        "--discord-public-key",
        PUBLIC,
    ]
    done = CliRunner().invoke(cli, on_pg, env={"TABLELOG_DISCORD_DATA": None})
    assert done.exit_code == 2
    assert "--discord-data DIR" in done.output


def test_a_techs_completion_offers_the_catalogues_techs(server: str) -> None:
    """Completing a saga cast's TECH offers the catalogue's techs, with their names."""
    gm = api(server)
    created = gm.post("/tables", json={"system": "saga", "seed": 1}).json()
    commands(
        gm,
        created["table_id"],
        "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10",
    )
    interact(
        server,
        slash("bind", "1", channel="5500", table=created["table_id"], token=created["gm_token"]),
    )
    line = "saga cast Gustave kiri-h"
    offered = interact(server, slash("do", "1", kind=4, focused="line", channel="5500", line=line))
    assert {"name": f"{line}arai — 斬り払い", "value": f"{line}arai"} in offered["data"]["choices"]


def test_names_from_the_log_are_shown_literally() -> None:
    """A name's Markdown is escaped (no link, no bold, no mention); control characters are
    written as escapes; a message is cut to Discord's 2,000 characters."""
    from tablelog.server.discord.messages import message

    assert plain("[here](https://x) **b** <@1>") == r"\[here\](https://x) \*\*b\*\* \<@1\>"
    assert message("a\x1b[2Jb", False)["content"] == "a\\u001b[2Jb"
    assert len(message("x" * 5000, True)["content"]) == 2000
