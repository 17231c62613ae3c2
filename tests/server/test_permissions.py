"""Every row of each system's permissions table (docs/SERVER.md, SERVER.md §3), over HTTP.

A player seat plays one character (MINE) of a table that has another (THEIRS). For each command
that acts for a character, the player may issue it for MINE (whatever the rules then say: 201 or
422, never 403) and is forbidden for THEIRS (403 naming it); the GM's commands are forbidden to
the player (403 naming the role) and allowed to the GM.
"""

from __future__ import annotations

import pytest

from tests.support.server import api

SETUP = {
    "magicpunk": [
        "magicpunk character add {me} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26",
        "magicpunk character add {them} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26",
        "magicpunk item add bat-{me} --owner {me}",
        "magicpunk item add bat-{them} --owner {them}",
    ],
    "pf2e": [
        "pf2e character add {me} --level 8",
        "pf2e character add {them} --level 8",
        "pf2e item add sword-{me} --base longsword --owner {me}",
        "pf2e item add sword-{them} --base longsword --owner {them}",
        "pf2e item add axe-{me} --base greatsword --owner {me}",
        "pf2e item add axe-{them} --base greatsword --owner {them}",
    ],
    "fate": [
        "fate master add {me} --quality B --quantity C --crest D --attribute fire --hp 40 "
        "--mp 30 --cc-budget 20",
        "fate master add {them} --quality B --quantity C --crest D --attribute fire --hp 40 "
        "--mp 30 --cc-budget 20",
    ],
    "saga": [
        "saga unit add {me} --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
        "--weapon 1h-sword=30 --resist 20",
        "saga unit add {them} --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
        "--weapon 1h-sword=30 --resist 20",
        "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
    ],
}

ACTS_FOR = [  # (system, command line acting for {who})
    ("magicpunk", "magicpunk draw {who} 1"),
    ("magicpunk", "magicpunk play {who} AS"),
    ("magicpunk", "magicpunk circulate {who} --all"),
    ("magicpunk", "magicpunk charge bat-{who} AS --from {who}"),
    ("magicpunk", "magicpunk procure {who} --material steel --quality standard"),
    ("pf2e", "pf2e formula add {who} weapon-potency-1"),
    ("pf2e", "pf2e etch sword-{who} weapon-potency-1 --by {who}"),
    ("pf2e", "pf2e transfer weapon-potency-1 --from sword-{who} --to axe-{who} --by {who}"),
    ("pf2e", "pf2e invest sword-{who} --by {who}"),
    ("fate", "fate cast {who} defense --grade 5 --tiles 2 --target {who}"),
    ("fate", "fate chant {who}"),
    ("fate", "fate release {who} excalibur"),
    ("magicpunk", "magicpunk roll 3MP10 --by {who}"),
    ("saga", "saga cast {who} kiri-harai --target Wolf"),
]

GM_ONLY = [
    ("magicpunk", "table allow given-cards"),
    ("saga", "table allow given-factors"),
    ("magicpunk", "magicpunk character add Zed --body 8 --sense 8 --intellect 8 --magic 8 --hp 9"),
    ("magicpunk", "magicpunk damage {who} 3"),
    ("magicpunk", "magicpunk heal {who} 3"),
    ("magicpunk", "magicpunk rest 10m"),
    ("magicpunk", "magicpunk dawn"),
    ("pf2e", "pf2e item add dagger-9 --base dagger"),
    ("pf2e", "pf2e give sword-{who} --to {who}"),
    ("fate", "fate battle start"),
    ("fate", "fate damage {who} --hp 3"),
    ("fate", "fate morning"),
    ("saga", "saga battle start"),
    ("saga", "saga turn"),
    ("saga", "saga unit add Imp --max-hp 10"),
]


def _table(server: str, system: str) -> tuple[str, str]:
    """A table of ``system`` with Mira (played by seat pat) and Theo; returns id and pat's
    token."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": system, "seed": 5}).json()["table_id"]
    for line in SETUP[system]:
        answer = gm.post(
            f"/tables/{tid}/commands", json={"command": line.format(me="Mira", them="Theo")}
        )
        assert answer.status_code == 201, (line, answer.text)
    seat = gm.post(
        f"/tables/{tid}/seats", json={"name": "pat", "role": "player", "characters": ["Mira"]}
    )
    return tid, seat.json()["token"]


@pytest.mark.parametrize(("system", "line"), ACTS_FOR, ids=[row[1] for row in ACTS_FOR])
def test_a_player_acts_for_her_character_not_for_anothers(
    server: str, system: str, line: str
) -> None:
    """For Mira: allowed (201 or a rule's 422); for Theo: 403 naming Theo; log unchanged."""
    tid, token = _table(server, system)
    player = api(server, token)
    mine = player.post(
        f"/tables/{tid}/commands", json={"command": line.format(who="Mira"), "dry_run": True}
    )
    assert mine.status_code in (200, 422), mine.text
    before = api(server).get(f"/tables/{tid}").json()["seq"]
    theirs = player.post(f"/tables/{tid}/commands", json={"command": line.format(who="Theo")})
    assert (theirs.status_code, theirs.json()["error"]["code"]) == (403, "forbidden")
    assert "Theo is not pat's character" in theirs.json()["error"]["message"]
    assert before == api(server).get(f"/tables/{tid}").json()["seq"]


@pytest.mark.parametrize(("system", "line"), GM_ONLY, ids=[row[1] for row in GM_ONLY])
def test_the_gms_commands_are_forbidden_to_a_player(server: str, system: str, line: str) -> None:
    """A player gets 403 naming the gm role; the GM's dry run is not forbidden."""
    tid, token = _table(server, system)
    command = line.format(who="Mira")
    refused = api(server, token).post(f"/tables/{tid}/commands", json={"command": command})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
    assert "gm role" in refused.json()["error"]["message"]
    allowed = api(server).post(
        f"/tables/{tid}/commands", json={"command": command, "dry_run": True}
    )
    assert allowed.status_code in (200, 422), allowed.text


@pytest.mark.parametrize("system", sorted(SETUP))
def test_notes_are_anyones_and_undo_is_the_seats_own(server: str, system: str) -> None:
    """A player notes (201) and undoes the note (201); undoing the GM's setup is 403."""
    tid, token = _table(server, system)
    player = api(server, token)
    assert player.post(f"/tables/{tid}/commands", json={"command": "note hi"}).status_code == 201
    assert player.post(f"/tables/{tid}/commands", json={"command": "undo"}).status_code == 201
    assert player.post(f"/tables/{tid}/commands", json={"command": "undo 2"}).status_code == 403
