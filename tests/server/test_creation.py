"""A refused table creation (issue 32, item 7) against a real `tablelog serve` process over HTTP:
a bad seed or option is a 400 or 422 that creates nothing, and no message names the server's
files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.server import api


def tables_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.suffix in (".tlog", ".lock")}


@pytest.mark.parametrize(
    "body",
    [
        {"system": "fate", "seed": -1},
        {"system": "fate", "seed": 2**63},
        {"system": "fate", "seed": 2**200},
        {"system": "fate", "seed": True},
        {"system": "magicpunk", "options": {"bogus": "x"}},
        {"system": "fate", "options": {"clock": "day 1 12:00"}},
        {"system": "magicpunk", "options": {"clock": "22:00"}},
        {"system": "nope"},
    ],
)
def test_a_refused_table_creation_creates_nothing(
    server: str, folder: Path, body: dict[str, Any]
) -> None:
    """A seed out of 0 … 2**63 - 1 (or no number), an option the system does not take or a
    value it refuses, an unknown system: 400 or 422, no file in the store, the list of tables
    unchanged, and the message names no directory of the server's."""
    gm = api(server)
    files, listed = tables_in(folder), gm.get("/tables").json()["tables"]
    answer = gm.post("/tables", json=body)
    assert answer.status_code in (400, 422), answer.text
    assert str(folder) not in answer.text
    assert files == tables_in(folder)
    assert listed == gm.get("/tables").json()["tables"]


def test_a_table_that_cannot_be_used_is_named_by_its_id_not_its_file(
    server: str, folder: Path
) -> None:
    """A table whose log file is torn answers 503 naming the table, never the server's folder
    or file."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "fate"}).json()["table_id"]
    assert gm.post(f"/tables/{tid}/commands", json={"command": "note x"}).status_code == 201
    path = folder / f"{tid}.tlog"
    path.write_bytes(path.read_bytes()[:-3])  # a torn last record
    answer = gm.post(f"/tables/{tid}/commands", json={"command": "note y"})
    assert answer.status_code == 503, answer.text
    assert str(folder) not in answer.text and f"table {tid}" in answer.text
