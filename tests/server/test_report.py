"""`GET /api/tables/{id}/report`: the session report (SPEC), redacted for the seat (SERVER.md)."""

from __future__ import annotations

import re

from tests.support.server import ADD, api, commands


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
    assert drawn.status_code == 201, drawn.text
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
    assert bad.status_code == 400
    assert gm.get(f"/tables/{tid}/report", params={"until": 999}).status_code == 422


def test_enemy_hp_is_left_out_for_players(server: str) -> None:
    """saga: an observer's report has no HP row and no HP series for an enemy; the GM's has."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "title": "Road"}).json()["table_id"]
    for line in (
        "saga unit add Amy --max-hp 210 --lp 9",
        "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
    ):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "olly", "role": "observer", "characters": []}
    ).json()["token"]
    seen = api(server, token).get(f"/tables/{tid}/report", params={"format": "md"}).text
    full = gm.get(f"/tables/{tid}/report", params={"format": "md"}).text

    def wolf(text: str) -> str:
        return text.split("### Wolf (character)", 1)[1].split("###", 1)[0]

    assert "| HP | 1200 | 1200 |" in wolf(full)
    assert "| HP |" not in wolf(seen) and "| Max HP |" not in wolf(seen)
    page = api(server, token).get(f"/tables/{tid}/report").text
    assert page.count('id="series-hp-') == 1  # Amy's only


def test_an_enemys_hp_is_not_in_the_timeline_for_players(server: str) -> None:
    """saga: the line of the action that added an enemy shows no HP to an observer."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "title": "Road"}).json()["table_id"]
    line = "saga unit add Wolf --enemy --max-hp 1234 --battle-rank 20 --intrinsic-hp 150"
    assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "olly", "role": "observer", "characters": []}
    ).json()["token"]
    hp = re.compile(r"(?<![0-9A-Za-z])1234(?![0-9A-Za-z])")  # the number alone: no id holds it
    for fmt in ("md", "html"):
        seen = api(server, token).get(f"/tables/{tid}/report", params={"format": fmt}).text
        assert "saga.UnitAdded Wolf" in seen and not hp.search(seen), hp.findall(seen)
    assert hp.search(gm.get(f"/tables/{tid}/report", params={"format": "md"}).text)


def test_players_count_the_damage_each_ally_rolled_not_an_enemys_hp_lost(server: str) -> None:
    """saga: Gustave cuts the Wolf and poison bites it. The GM's report has the Wolf's HP lost
    (1200 minus its HP now, from the GM's state) as its damage taken, as Gustave's dealt plus
    the poison's, and in "HP spent or lost"; an observer's has no HP-lost row and an HP total
    of 0 (Amy and Gustave lost none: the Wolf's HP lost told its hidden HP), but the damage
    Gustave and the poison rolled against the hidden Wolf, which the game shows (issue 30)."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "title": "Road", "seed": 42}).json()[
        "table_id"
    ]
    commands(
        gm,
        tid,
        "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --stat vit=30 "
        "--slv 1h-sword=10 --weapon 1h-sword=30 --resist 20",
        "saga unit add Amy --max-hp 210 --lp 9",
        "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
        "saga battle start --terrain wood",
        "saga cast Gustave kiri-harai --target Wolf --roll 1",
        "saga poison Wolf --roll 1",
    )
    lost = 1200 - gm.get(f"/tables/{tid}/state").json()["characters"]["Wolf"]["hp"]
    assert lost > 0
    full = gm.get(f"/tables/{tid}/report", params={"format": "md"}).text
    assert f"| Wolf | 0 | {lost} |" in full and f"| HP spent or lost | {lost} |" in full
    dealt = int(re.search(r"\| Gustave \| (\d+) \| 0 \|", full).group(1))
    poison = int(re.search(r"\| \(no character named as the source\) \| (\d+) \|", full).group(1))
    assert lost == dealt + poison and dealt > 0 and poison > 0
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "olly", "role": "observer", "characters": []}
    ).json()["token"]
    rolled = {
        e["data"]["actor"]: e["data"]["damage"]
        for e in gm.get(f"/tables/{tid}/log").json()["events"]
        if e["type"] == "saga.AttackDamageDealt"
    }
    assert {"Gustave": dealt} == rolled  # no overkill here: the whole hit was HP lost
    seen = api(server, token).get(f"/tables/{tid}/report", params={"format": "md"}).text
    assert "Damage (HP lost)" not in seen and "| Wolf |" not in seen
    assert "| HP spent or lost | 0 |" in seen and str(lost) not in seen
    assert "Damage rolled against hidden enemies" in seen
    assert f"| Gustave | {dealt} |" in seen
    assert f"| (no character named as the source) | {poison} |" in seen
    assert "Damage rolled against hidden enemies" not in full
    page = api(server, token).get(f"/tables/{tid}/report", params={"format": "html"}).text
    assert "Damage (HP lost)" not in page and "<td>Wolf</td>" not in page
    assert '<td>HP spent or lost</td><td class="n">0</td>' in page
    assert f'<td>Gustave</td><td class="n">{dealt}</td>' in page
