"""A retired or undone enemy's HP (issue 32, item 4) against a real `tablelog serve` process
over HTTP: whether a record concerns a hidden enemy is decided from the log's records, never
from the current state alone, so an enemy the GM retires, or whose adding the GM undoes, keeps
its HP from players in every view, at every seq."""

from __future__ import annotations

import json

import pytest

from tests.support.server import api

SETUP = (
    "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --stat vit=30 "
    "--slv 1h-sword=10 --weapon 1h-sword=30 --resist 20",
    "saga unit add Rat --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
    "saga battle start --terrain wood",
)


@pytest.mark.parametrize("gone_by", ["retire", "undo"])
def test_a_gone_enemys_hp_stays_hidden_in_every_view(server: str, gone_by: str) -> None:
    """Gustave hits Rat (1,200 HP) twice; the GM retires Rat (or undoes its adding and the
    hits). Ann (Gustave's player) then reads the state at every seq, Rat's history, the whole
    log, the event stream and the report: no HP, HP lost or maximum of Rat anywhere; the GM
    still sees them."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "seed": 5}).json()["table_id"]
    for line in SETUP:
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    ann = gm.post(
        f"/tables/{tid}/seats", json={"name": "ann", "role": "player", "characters": ["Gustave"]}
    ).json()["token"]
    hits = [
        gm.post(
            f"/tables/{tid}/commands",
            json={"command": "saga cast Gustave kiri-harai --target Rat --roll 1.0"},
        )
        for _ in range(2)
    ]
    assert [h.status_code for h in hits] == [201, 201], hits[0].text
    if gone_by == "retire":
        gone = gm.post(f"/tables/{tid}/commands", json={"command": "retire Rat"})
        assert gone.status_code == 201, gone.text
    else:
        added = next(
            e["seq"]
            for e in gm.get(f"/tables/{tid}/log").json()["events"]
            if e["type"] == "saga.UnitAdded" and e["data"]["name"] == "Rat"
        )
        for seq in (hits[1].json()["seqs"][0], hits[0].json()["seqs"][0], added):
            undone = gm.post(f"/tables/{tid}/commands", json={"command": f"undo {seq}"})
            assert undone.status_code == 201, undone.text
    player = api(server, ann)
    end = player.get(f"/tables/{tid}").json()["seq"]
    for at in range(2, end + 1):
        rat = player.get(f"/tables/{tid}/state", params={"at": at}).json()["characters"]
        if "Rat" in rat:
            assert [rat["Rat"][f] for f in ("hp", "hp_max", "lp", "lp_max")] == [None] * 4, at
    answer = player.get(f"/tables/{tid}/history/Rat")
    history = answer.json() if answer.status_code == 200 else []
    assert (200 if gone_by == "retire" else 404) == answer.status_code  # undone: no history
    assert history or gone_by == "undo", "a retired unit's history is kept"
    for entry in history:
        for change in entry["changes"]:
            if change["field"].split(".")[0] in ("hp", "hp_max", "lp", "lp_max"):
                assert (change["old"], change["new"]) == (None, None), change
    log = player.get(f"/tables/{tid}/log", params={"all": "true"}).json()["events"]
    dealt = [e["data"] for e in log if e["type"] == "saga.AttackDamageDealt"]
    assert len(dealt) == 2 and [d["hp_lost"] for d in dealt] == [None, None]
    report = player.get(f"/tables/{tid}/report", params={"format": "md"}).text
    whole = gm.get(f"/tables/{tid}/report", params={"format": "md"}).text
    assert "1,200" not in report and "1200" not in report
    assert "1,200" in whole or "1200" in whole
    assert "1200" not in json.dumps(log)
