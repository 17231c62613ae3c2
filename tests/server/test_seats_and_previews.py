"""Seats and previews over HTTP, on the file store and on PostgreSQL (issue 17, the fresh
tester's faults): a revoked seat's stream ends, a player's preview rolls stand-in dice and shows
the seat's own cards, seat records are not undone, retire, the 401 before the 404, names that
are not one path segment, the API's usage words."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.server import test_api
from tests.server.test_api import command
from tests.support.server import api, serving

# the API tests' fixtures: every test on the file store and on PostgreSQL, a magicpunk table
store, server, table = test_api.store, test_api.server, test_api.table


def stream_records(stream: httpx.Response) -> list[tuple[int, dict]]:
    """Read an SSE stream until it ends: its records as ``(id, data)``."""
    got: list[tuple[int, dict]] = []
    event_id = None
    for line in stream.iter_lines():
        if line.startswith("id:"):
            event_id = int(line[3:].strip())
        elif line.startswith("data:") and event_id is not None:
            got.append((event_id, json.loads(line[5:])))
    return got


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
        assert 200 == stream.status_code
        if where == "same":
            assert 204 == gm.delete(f"/tables/{table['id']}/seats/bo").status_code
        else:
            with serving(store, folder / f"other-{where}.out") as other:
                revoke = api(other, table["gm"]).delete(f"/tables/{table['id']}/seats/bo")
                assert 204 == revoke.status_code
        noted = command(server, table, "gm", "note after")
        assert 201 == noted.status_code
        got = stream_records(stream)
    assert noted.json()["seqs"][0] not in [i for i, _ in got]
    assert [] == [d for _, d in got if d["type"] == "core.Noted"]
