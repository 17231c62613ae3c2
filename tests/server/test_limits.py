"""Bounds per seat (issue 32, item 8) against a real `tablelog serve` process over HTTP: a
player's command line is bounded, its commands and characters are rate-limited (the GM's are
not), and whole-log reads are made once per seq and kind of seat, not per request."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tablelog.server.limits import (
    CHARS_BURST,
    CHARS_PER_S,
    COMMANDS_BURST,
    COMMANDS_PER_S,
    MAX_LINE_CHARS,
)
from tests.support.server import ADD, api


@pytest.fixture
def table(server: str) -> dict[str, Any]:
    """A magicpunk table with Aria (ann's) and Kai (bo's)."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "seed": 3}).json()["table_id"]
    for line in (ADD.format("Aria"), ADD.format("Kai")):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    out: dict[str, Any] = {"id": tid}
    for name, chars in (("ann", ["Aria"]), ("bo", ["Kai"])):
        body = {"name": name, "role": "player", "characters": chars}
        out[name] = gm.post(f"/tables/{tid}/seats", json=body).json()["token"]
    return out


def note(server: str, token: str | None, tid: str, text: str) -> Any:
    """A note at table ``tid`` as ``token``'s seat (None: the GM, the server token)."""
    client = api(server) if token is None else api(server, token)
    return client.post(f"/tables/{tid}/commands", json={"command": f"note {text}"})


def at_once(n: int, send: Callable[[int], Any]) -> list[Any]:
    """The answers of ``send(0)`` … ``send(n - 1)`` sent from 12 threads at once: a burst that
    outruns the bucket's refill even on a loaded machine (sent one by one, each request could
    take longer than the refill of one command, and no 429 would be due)."""
    with ThreadPoolExecutor(12) as pool:
        return list(pool.map(send, range(n)))


def test_a_players_command_line_is_bounded(server: str, table: dict[str, Any]) -> None:
    """ann's note of 60,000 characters (within the 64 KiB body) is 413 and appends nothing;
    the GM's is taken."""
    tid = table["id"]
    seq = api(server).get(f"/tables/{tid}").json()["seq"]
    refused = note(server, table["ann"], tid, "x" * 60_000)
    assert (refused.status_code, refused.json()["error"]["code"]) == (413, "too_large")
    assert refused.json()["error"]["params"]["most"] == MAX_LINE_CHARS
    assert seq == api(server).get(f"/tables/{tid}").json()["seq"]
    assert note(server, None, tid, "x" * 60_000).status_code == 201


def test_a_player_seat_is_rate_limited_and_the_gm_is_not(
    server: str, table: dict[str, Any]
) -> None:
    """ann sends notes as fast as she can: after her burst she gets 429 naming the seconds to
    wait (rounded up to tenths: never 0.0), and 50 long notes never all land; bo's seat and the
    GM are not slowed by her. Sent 12 at a time, so a loaded machine still outruns the refill."""
    tid = table["id"]
    started = time.monotonic()
    sent = at_once(60, lambda i: note(server, table["ann"], tid, f"n{i}"))
    refilled = COMMANDS_PER_S * (time.monotonic() - started)
    answers = [answer.status_code for answer in sent]
    assert 429 in answers and answers.count(201) <= COMMANDS_BURST + refilled + 1
    limited = [answer.json()["error"] for answer in sent if answer.status_code == 429]
    assert all(error["params"]["retry_after_s"] > 0 for error in limited)
    assert {"too_many"} == {error["code"] for error in limited}
    assert note(server, table["bo"], tid, "bo-next").status_code == 201
    assert all(note(server, None, tid, f"g{i}").status_code == 201 for i in range(40))
    long = "y" * (MAX_LINE_CHARS - 10)
    started = time.monotonic()
    landed = [a.status_code for a in at_once(50, lambda _: note(server, table["bo"], tid, long))]
    refilled = CHARS_PER_S * (time.monotonic() - started)
    assert landed.count(201) <= (CHARS_BURST + refilled) // len(long) + 1 and 429 in landed


def test_whole_log_reads_are_made_once_per_seq(
    server: str, table: dict[str, Any], folder: Path
) -> None:
    """ann reads the report, Aria's history and the log; the table's file is then damaged
    behind the server's back (its seq unchanged): the same reads answer as before, from what
    was made for that seq, rather than reading the whole log again per request (which fails
    on the damage); the GM's first report of it is made anew and meets it."""
    tid = table["id"]
    ann = api(server, table["ann"])
    routes = [
        (f"/tables/{tid}/report", {"format": "md"}),
        (f"/tables/{tid}/history/Aria", {}),
    ]
    first = [ann.get(path, params=params) for path, params in routes]
    assert [a.status_code for a in first] == [200, 200]
    path = folder / f"{tid}.tlog"
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0xFF
    path.write_bytes(bytes(data))
    again = [ann.get(path_, params=params) for path_, params in routes]
    assert [a.text for a in first] == [a.text for a in again]
    assert api(server).get(f"/tables/{tid}/report", params={"format": "md"}).status_code == 503
