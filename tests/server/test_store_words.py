"""A table that cannot be used answers 503 in the request's language (``Accept-Language``):
the store's message, the table's name, no English word but ids and the command line's."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.sessions.test_no_english import ABBREVIATIONS, leftovers
from tests.support.server import TOKEN, api


def test_a_torn_table_is_503_in_japanese(server: str, folder: Path) -> None:
    gm = api(server)
    tid = gm.post("/tables", json={"system": "fate"}).json()["table_id"]
    assert gm.post(f"/tables/{tid}/commands", json={"command": "note x"}).status_code == 201
    path = folder / f"{tid}.tlog"
    path.write_bytes(path.read_bytes()[:-3])  # a torn last record
    headers = {"Authorization": f"Bearer {TOKEN}", "Accept-Language": "ja"}
    with httpx.Client(base_url=f"{server}/api", headers=headers, timeout=10) as ja:
        answer = ja.post(f"/tables/{tid}/commands", json={"command": "note y"})
    assert answer.status_code == 503, answer.text
    error = answer.json()["error"]
    message = error["message"]
    assert error["code"] == "log" and str(folder) not in message
    assert f"卓 {tid}" in message and "途中で切れた最後のレコード" in message, message
    assert leftovers(message, {*ABBREVIATIONS, "verify", "repair"}, code=True) == set(), message
    english = gm.post(f"/tables/{tid}/commands", json={"command": "note y"}).json()["error"]
    assert f"table {tid}: torn last record at byte" in english["message"], english
