"""`GET /api/tables/{id}/report`: the session report (SPEC), redacted for the seat (SERVER.md)."""

from __future__ import annotations

import re

from tests.support.server import ADD, api


def test_the_report_is_redacted_for_each_seat(server: str) -> None:
    """The GM's report shows the cards Aria drew; Bo's (another player) shows them as "?";
    Ann's (Aria's player) shows them; md and html both; a bad format is 400."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "title": "Cards", "seed": 3}).json()[
        "table_id"
    ]
    tokens = {}
    for name in ("Aria", "Kai"):
        gm.post(f"/tables/{tid}/commands", json={"command": ADD.format(name)})
    for name, chars in (("ann", ["Aria"]), ("bo", ["Kai"])):
        tokens[name] = gm.post(
            f"/tables/{tid}/seats", json={"name": name, "role": "player", "characters": chars}
        ).json()["token"]
    drawn = gm.post(
        f"/tables/{tid}/commands", json={"command": "magicpunk draw Aria 2 --cards QH,7S"}
    )
    assert 201 == drawn.status_code, drawn.text
    reports = {
        who: api(server, tok).get(f"/tables/{tid}/report", params={"format": "md"})
        for who, tok in (("gm", None), *tokens.items())
        if tok or who == "gm"
    }
    reports["gm"] = gm.get(f"/tables/{tid}/report", params={"format": "md"})
    assert {200} == {r.status_code for r in reports.values()}
    assert "QH" in reports["gm"].text and "QH" in reports["ann"].text
    assert "QH" not in reports["bo"].text and "7S" not in reports["bo"].text
    assert re.search(r"magicpunk\.CardsDrawn .*\?", reports["bo"].text)
    page = api(server, tokens["bo"]).get(f"/tables/{tid}/report")
    assert page.headers["content-type"].startswith("text/html")
    assert "<svg" in page.text and "QH" not in page.text
    bad = gm.get(f"/tables/{tid}/report", params={"format": "pdf"})
    assert 400 == bad.status_code
    assert 422 == gm.get(f"/tables/{tid}/report", params={"until": 999}).status_code


def test_enemy_hp_is_left_out_for_players(server: str) -> None:
    """saga: an observer's report has no HP row and no HP series for an enemy; the GM's has."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "title": "Road"}).json()["table_id"]
    for line in (
        "saga unit add Amy --max-hp 210 --lp 9",
        "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
    ):
        assert 201 == gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "olly", "role": "observer", "characters": []}
    ).json()["token"]
    seen = api(server, token).get(f"/tables/{tid}/report", params={"format": "md"}).text
    full = gm.get(f"/tables/{tid}/report", params={"format": "md"}).text

    def wolf(text: str) -> str:
        return text.split("### Wolf (character)", 1)[1].split("###", 1)[0]

    assert "| hp | 1200 | 1200 |" in wolf(full)
    assert "| hp |" not in wolf(seen) and "| hp_max |" not in wolf(seen)
    page = api(server, token).get(f"/tables/{tid}/report").text
    assert 1 == page.count('id="series-hp-')  # Amy's only


def test_an_enemys_hp_is_not_in_the_timeline_for_players(server: str) -> None:
    """saga: the line of the action that added an enemy shows no HP to an observer."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "title": "Road"}).json()["table_id"]
    line = "saga unit add Wolf --enemy --max-hp 1234 --battle-rank 20 --intrinsic-hp 150"
    assert 201 == gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "olly", "role": "observer", "characters": []}
    ).json()["token"]
    for fmt in ("md", "html"):
        seen = api(server, token).get(f"/tables/{tid}/report", params={"format": fmt}).text
        assert "saga.UnitAdded Wolf" in seen and "1234" not in seen
    assert "1234" in gm.get(f"/tables/{tid}/report", params={"format": "md"}).text
