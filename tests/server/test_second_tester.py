"""The second fresh tester's faults over HTTP, on the file store and on PostgreSQL (issue 17):
a GM seat revoking itself, stand-in rolls only where the seed matters, query parameters and
bodies that are usage errors, a refusal's hidden parts shown to the seats that may see them."""

from __future__ import annotations

import pytest

from tests.server import test_api, test_seats_and_previews
from tests.server.test_api import command
from tests.support.server import api

# the API tests' fixtures: every test on the file store and on PostgreSQL, a magicpunk table
store, server, table = test_api.store, test_api.server, test_api.table
saga = test_seats_and_previews.saga  # a saga table in battle; ann plays Gustave


@pytest.mark.rule("CORE-SEAT")
def test_a_gm_seat_cannot_revoke_itself_another_gm_seat_may(
    server: str, table: dict[str, str]
) -> None:
    """The table's GM seat revoking itself: 422 CORE-SEAT naming who may, nothing appended, its
    token still good; a second GM seat revokes it (204), and the server token revokes that one."""
    tid = table["id"]
    gm = api(server, table["gm"])
    before = gm.get(f"/tables/{tid}").json()["seq"]
    refused = gm.delete(f"/tables/{tid}/seats/gm")
    assert (422, "CORE-SEAT") == (refused.status_code, refused.json()["error"]["rule"])
    assert (
        "seat 'gm' cannot revoke itself (the table would lose its GM): another GM seat or the "
        "server token may revoke it"
    ) == refused.json()["error"]["message"]
    assert before == gm.get(f"/tables/{tid}").json()["seq"]
    second = gm.post(f"/tables/{tid}/seats", json={"name": "gm2", "role": "gm"}).json()["token"]
    assert 204 == api(server, second).delete(f"/tables/{tid}/seats/gm").status_code
    assert 401 == gm.get(f"/tables/{tid}").status_code
    assert 204 == api(server).delete(f"/tables/{tid}/seats/gm2").status_code
    assert 401 == api(server, second).get(f"/tables/{tid}").status_code


def test_stand_in_rolls_only_where_the_preview_depends_on_the_seed(
    server: str, table: dict[str, str], saga: dict[str, str]
) -> None:
    """As a player: a saga cast without --roll (its random factor comes from the seed) is
    ``stand_in_rolls: true``; a magicpunk play of a card ann holds rolls nothing: false."""
    cast = command(
        server, saga, "ann", "saga cast Gustave kiri-harai --target Gustave", dry_run=True
    )
    assert (200, True) == (cast.status_code, cast.json()["stand_in_rolls"]), cast.text
    assert 201 == command(server, table, "ann", "magicpunk draw Aria 2").status_code
    hand = api(server, table["gm"]).get(f"/tables/{table['id']}/state/Aria").json()["hand"]
    play = command(server, table, "ann", f"magicpunk play Aria {hand[0]}", dry_run=True)
    assert (200, False) == (play.status_code, play.json()["stand_in_rolls"]), play.text
    assert [hand[0]] == play.json()["events"][0]["data"]["cards"]
