"""Dice and talk over HTTP (SERVER.md §3, SPEC "Dice and talk"): any seat that appends rolls
plain dice and talks; a secret roll is read by its roller and the GM, a whisper by its sender,
its recipients and the GM: no other seat receives anything of them through the log, the event
stream, a command's answer, the report or the ccfolia room log."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from tests.support.server import ADD, api, sse_records

SECRET_WORD = "xyzzyplugh"


@pytest.fixture
def table(server: str) -> dict[str, Any]:
    """A magicpunk table: ann plays Aria, bo plays Kai, cy is a player without characters,
    obs an observer; each seat's token."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "title": "Talk", "seed": 5}).json()[
        "table_id"
    ]
    for line in (ADD.format("Aria"), ADD.format("Kai")):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    found: dict[str, Any] = {"id": tid}
    for name, role, chars in (
        ("ann", "player", ["Aria"]),
        ("bo", "player", ["Kai"]),
        ("cy", "player", []),
        ("obs", "observer", []),
    ):
        made = gm.post(
            f"/tables/{tid}/seats", json={"name": name, "role": role, "characters": chars}
        )
        assert made.status_code == 201, made.text
        found[name] = made.json()["token"]
    return found


def send(server: str, token: str | None, tid: str, line: str, **extra: Any) -> httpx.Response:
    client = api(server, token) if token else api(server)
    return client.post(f"/tables/{tid}/commands", json={"command": line, **extra})


def log_of(server: str, token: str | None, tid: str) -> list[dict[str, Any]]:
    """The seat's ``GET …/log`` lines."""
    client = api(server, token) if token else api(server)
    return client.get(f"/tables/{tid}/log").json()["events"]  # type: ignore[no-any-return]


def everything(server: str, token: str | None, tid: str) -> str:
    """All a seat can read of the table: its log (undone lines too), both reports, the ccfolia
    room log and its state."""
    client = api(server, token) if token else api(server)
    got = [
        client.get(f"/tables/{tid}/log", params={"all": "true"}),
        client.get(f"/tables/{tid}/report", params={"format": "md"}),
        client.get(f"/tables/{tid}/report", params={"format": "html"}),
        client.get(f"/tables/{tid}/ccfolia-log"),
        client.get(f"/tables/{tid}/state"),
    ]
    assert [200] * len(got) == [g.status_code for g in got], [g.text[:200] for g in got]
    return "\n".join(g.text for g in got)


@pytest.mark.rule("CORE-DICE")
def test_a_player_rolls_and_every_seat_reads_the_roll(server: str, table: dict[str, Any]) -> None:
    """ann's `roll 2D6+1` is 201, its answer the dice bot's line; bo, cy and the observer read
    it in the log, with the same dice; the observer may not roll (403)."""
    tid = table["id"]
    done = send(server, table["ann"], tid, "roll 2D6+1 --reason initiative")
    assert done.status_code == 201, done.text
    (event,) = done.json()["events"]
    assert (event["type"], event["actor"]) == ("core.DiceRolled", "ann")
    dice = event["data"]["dice"]
    assert event["text"].startswith(f"(2D6+1) ＞ {sum(dice)}[{dice[0]},{dice[1]}]+1")
    for seat in ("bo", "cy", "obs"):
        lines = log_of(server, table[seat], tid)
        rolls = [line for line in lines if line["type"] == "core.DiceRolled"]
        assert [dice] == [r["data"]["dice"] for r in rolls], seat
    refused = send(server, table["obs"], tid, "roll 1D6")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")


@pytest.mark.rule("CORE-DICE")
def test_a_secret_roll_is_read_by_its_roller_and_the_gm_alone(
    server: str, table: dict[str, Any]
) -> None:
    """ann's `roll S1D100 --reason xyzzyplugh`: ann's and the GM's logs hold it; bo's, cy's
    and the observer's log, reports and room log hold nothing of it (not its reason, not its
    type); the seq it took is a gap to them."""
    tid = table["id"]
    done = send(server, table["ann"], tid, f"roll S1D100 --reason {SECRET_WORD}")
    assert done.status_code == 201, done.text
    seq = done.json()["seqs"][0]
    assert send(server, None, tid, "note after-the-roll").status_code == 201
    for seat in ("ann", None):
        lines = log_of(server, table[seat] if seat else None, tid)
        assert seq in [line["seq"] for line in lines], seat
    for seat in ("bo", "cy", "obs"):
        read = everything(server, table[seat], tid)
        assert SECRET_WORD not in read and "core.DiceRolled" not in read, seat
        seqs = [line["seq"] for line in log_of(server, table[seat], tid)]
        assert seq not in seqs and seq + 1 in seqs, seat


@pytest.mark.rule("CORE-SAY")
def test_a_whisper_reaches_its_recipient_and_the_gm_and_no_one_else(
    server: str, table: dict[str, Any]
) -> None:
    """ann whispers to bo: the answer, bo's, ann's and the GM's logs show it as a whisper; cy's
    event stream skips it (its next record is the GM's note that follows), and cy's and the
    observer's log, reports and room log hold nothing of it."""
    tid = table["id"]
    start = int(api(server, table["cy"]).get(f"/tables/{tid}").json()["seq"])
    seen: list[Any] = []

    def listen() -> None:
        headers = {"Authorization": f"Bearer {table['cy']}"}
        with (
            httpx.Client(base_url=f"{server}/api", headers=headers, timeout=30) as own,
            own.stream("GET", f"/tables/{tid}/events", params={"after": start}) as stream,
        ):
            seen.extend(sse_records(stream, 1))

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    done = send(server, table["ann"], tid, f"say '{SECRET_WORD}, the wolf is near' --to bo")
    assert done.status_code == 201, done.text
    (event,) = done.json()["events"]
    assert event["data"]["to"] == ["bo"]
    assert f"(to bo) '{SECRET_WORD}, the wolf is near'" == event["text"]
    assert send(server, None, tid, "note the-night-falls").status_code == 201
    listener.join(20)
    assert [(d["type"], d["data"]["text"]) for _, d in seen] == [("core.Noted", "the-night-falls")]
    for seat in ("bo", "ann", None):
        lines = log_of(server, table[seat] if seat else None, tid)
        said = [line for line in lines if line["type"] == "core.Said"]
        assert [line["data"]["to"] for line in said] == [["bo"]], seat
    for seat in ("cy", "obs"):
        read = everything(server, table[seat], tid)
        assert SECRET_WORD not in read and "core.Said" not in read, seat


@pytest.mark.rule("CORE-SAY")
def test_talk_every_seat_reads_and_a_whisper_to_no_seat_is_refused(
    server: str, table: dict[str, Any]
) -> None:
    """cy's `say hello all` reaches every seat; `say psst --to bob` is 422 CORE-SAY suggesting
    bo, and appends nothing; a dry run of a whisper shows its sender the whisper."""
    tid = table["id"]
    assert send(server, table["cy"], tid, "say 'hello all'").status_code == 201
    for seat in ("ann", "bo", "obs"):
        texts = [line["text"] for line in log_of(server, table[seat], tid)]
        assert "'hello all'" in texts, seat
    before = api(server).get(f"/tables/{tid}").json()["seq"]
    refused = send(server, table["ann"], tid, "say psst --to bob")
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["rule"] == "CORE-SAY" and error["suggestions"][0] == "bo"
    assert before == api(server).get(f"/tables/{tid}").json()["seq"]
    preview = send(server, table["ann"], tid, "say psst --to bo", dry_run=True)
    assert preview.status_code == 200
    assert [e["text"] for e in preview.json()["events"]] == ["(to bo) 'psst'"]


@pytest.mark.rule("CORE-SAY")
def test_the_undo_of_a_whisper_is_withheld_like_the_whisper(
    server: str, table: dict[str, Any]
) -> None:
    """ann whispers to bo and undoes it; bo takes back his secret roll: cy's and the observer's
    log (undone lines and markers too), report and room log hold no marker of either (it would
    tell who made the hidden record); ann, bo and the GM read the markers of what they read."""
    tid = table["id"]
    whisper = send(server, table["ann"], tid, "say psst --to bo").json()["seqs"][0]
    assert send(server, table["ann"], tid, f"undo {whisper}").status_code == 201
    for seat in ("cy", "obs"):
        client = api(server, table[seat])
        lines = client.get(f"/tables/{tid}/log", params={"all": "true"}).json()["events"]
        assert [
            line
            for line in lines
            if line["type"] == "core.Undone" and line["data"]["target"] == whisper
        ] == [], seat
        assert (
            f"#{whisper}" not in client.get(f"/tables/{tid}/report", params={"format": "md"}).text
        )
    for seat in ("ann", "bo", None):
        client = api(server, table[seat]) if seat else api(server)
        lines = client.get(f"/tables/{tid}/log", params={"all": "true"}).json()["events"]
        assert [whisper] == [
            line["data"]["target"] for line in lines if line["type"] == "core.Undone"
        ], seat


@pytest.mark.rule("CORE-REROLL")
def test_a_player_does_not_undo_her_roll_to_roll_again(server: str, table: dict[str, Any]) -> None:
    """ann's `roll 2D6+1`, then her `undo` of it: 403 CORE-REROLL, nothing appended; the GM
    may undo it."""
    tid = table["id"]
    seq = send(server, table["ann"], tid, "roll 2D6+1").json()["seqs"][0]
    before = api(server).get(f"/tables/{tid}").json()["seq"]
    refused = send(server, table["ann"], tid, f"undo {seq}")
    assert (refused.status_code, refused.json()["error"]["rule"]) == (403, "CORE-REROLL")
    assert before == api(server).get(f"/tables/{tid}").json()["seq"]
    assert send(server, None, tid, f"undo {seq}").status_code == 201
