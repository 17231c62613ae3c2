"""The smaller faults of issue 32 (item 11) against a real `tablelog serve` process over HTTP: a
token the table never made is refused before the table is folded; a repeated request id is the
same seat's same command; a client that sends its request a byte at a time is cut off."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.server import ADD, api, serving


@pytest.fixture
def table(server: str) -> dict[str, Any]:
    """A magicpunk table with Aria (ann's) and Kai (bo's)."""
    gm = api(server)
    made = gm.post("/tables", json={"system": "magicpunk", "seed": 3}).json()
    tid = made["table_id"]
    for line in (ADD.format("Aria"), ADD.format("Kai")):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    out: dict[str, Any] = {"id": tid, "gm": made["gm_token"]}
    for name, chars in (("ann", ["Aria"]), ("bo", ["Kai"])):
        body = {"name": name, "role": "player", "characters": chars}
        out[name] = gm.post(f"/tables/{tid}/seats", json=body).json()["token"]
    return out


def test_a_token_the_table_never_made_is_refused_before_it_is_folded(
    server: str, table: dict[str, Any], folder: Path
) -> None:
    """A record in the middle of the table's log is damaged, so folding it fails (503). A
    server that has not folded it yet answers a wrong token, a token of another table and a
    forged one of the right shape 401 all the same, from the log's header alone (it once
    folded the table first: 503 to anyone), and the table's own GM token the fold's 503."""
    other = api(server).post("/tables", json={"system": "fate"}).json()["gm_token"]
    path = folder / f"{table['id']}.tlog"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with serving(f"file:{folder}", folder / "fresh.out") as fresh:
        for wrong in ("wrong", other, "t2.AAAAAAAAAAAAAAAAAAAAAAAA." + "0" * 32):
            answer = api(fresh, wrong).get(f"/tables/{table['id']}/state")
            assert answer.status_code == 401, (wrong, answer.text)
        assert api(fresh, table["gm"]).get(f"/tables/{table['id']}/state").status_code == 503


def test_a_repeated_request_id_is_the_same_seats_same_command(
    server: str, table: dict[str, Any]
) -> None:
    """ann's note with request id r1 is appended once and answered again (200, its seqs); the
    same id with another command, or from bo's seat, is 409 conflict and appends nothing; a
    draw the tool rolled is the same command when sent again (decided again: the same cards)."""
    url = f"/tables/{table['id']}/commands"
    ann, bo = api(server, table["ann"]), api(server, table["bo"])
    first = ann.post(url, json={"command": "note one", "request_id": "r1"})
    assert first.status_code == 201
    again = ann.post(url, json={"command": "note one", "request_id": "r1"})
    assert (200, first.json()["seqs"]) == (again.status_code, again.json()["seqs"])
    seq = api(server).get(f"/tables/{table['id']}").json()["seq"]
    for client, line in ((ann, "note two"), (bo, "note one"), (ann, "magicpunk draw Aria 1")):
        refused = client.post(url, json={"command": line, "request_id": "r1"})
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "conflict")
        assert refused.json()["error"]["params"]["request_id"] == "r1"
    assert seq == api(server).get(f"/tables/{table['id']}").json()["seq"]
    drawn = ann.post(url, json={"command": "magicpunk draw Aria 2", "request_id": "d1"})
    redrawn = ann.post(url, json={"command": "magicpunk draw Aria 2", "request_id": "d1"})
    assert (drawn.status_code, redrawn.status_code) == (201, 200)
    assert drawn.json()["events"][0]["data"] == redrawn.json()["events"][0]["data"]
    undo = ann.post(url, json={"command": "note three", "request_id": "u1"})
    assert undo.status_code == 201
    assert ann.post(url, json={"command": "undo", "request_id": "u1"}).status_code == 409


def test_a_client_that_sends_its_request_slowly_is_cut_off(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a 1 s request timeout, a connection that sends nothing, and one that sends its
    headers a byte at a time, are answered 408 and closed within about the timeout, while the
    server keeps answering others."""
    monkeypatch.setitem(os.environ, "TABLELOG_SERVER_REQUEST_TIMEOUT_S", "1")
    with serving(f"file:{folder}", folder / "slow.out") as url:
        port = int(url.rsplit(":", 1)[1])
        for trickle in (b"", b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 40):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
                got, sent = b"", 0
                for byte in trickle:  # a byte every 0.1 s: 71 bytes would take 7 s
                    try:
                        conn.sendall(bytes([byte]))
                    except OSError:
                        break
                    sent += 1
                    time.sleep(0.1)
                    if sent >= 50:
                        break
                conn.settimeout(5)
                try:
                    while chunk := conn.recv(4096):
                        got += chunk
                except OSError:
                    pass
            assert got.startswith(b"HTTP/1.1 408"), got
            assert sent < min(50, len(trickle)) or not trickle, sent  # cut off before the end
            assert api(url, None).get("/health").status_code == 200
