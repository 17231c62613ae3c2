"""Hidden cards in every answer's words, not only in its data (SERVER.md §3; docs/SERVER.md
"What each seat sees"): history's ``event`` and ``explain``, command answers, and refusals that
would say where a hidden card is. The examples are a security tester's."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from tests.support.server import ADD, api


@pytest.fixture
def kai_table(server: str) -> dict[str, str]:
    """The tester's table: Aria and Kai; ann plays Aria. Kai drew 10S 8H 6H, charged 10S into
    his staff, played 8H and circulated 6H on an 8h rest."""
    gm = api(server)
    created = gm.post("/tables", json={"system": "magicpunk", "title": "Leak", "seed": 3})
    tid = created.json()["table_id"]
    for line in (
        ADD.format("Aria"),
        ADD.format("Kai"),
        "magicpunk draw Kai 3 --cards 10S,8H,6H",
        "magicpunk item add staff --owner Kai --gear-slots 2",
        "magicpunk charge staff 10S --from Kai",
        "magicpunk play Kai 8H",
        "magicpunk rest 8h",
    ):
        answer = gm.post(f"/tables/{tid}/commands", json={"command": line})
        assert answer.status_code == 201, answer.text
    seat = gm.post(
        f"/tables/{tid}/seats", json={"name": "ann", "role": "player", "characters": ["Aria"]}
    )
    return {"id": tid, "gm": created.json()["gm_token"], "ann": seat.json()["token"]}


def words(answer: object) -> set[str]:
    """Every word (card-like token) in a JSON answer, its strings' words included."""
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(answer)))


def test_history_words_hide_the_cards_of_others(server: str, kai_table: dict[str, str]) -> None:
    """ann's history of Kai reads "Kai draws ? ? ?", "Kai charges staff with ?", "6H -> ?";
    the GM's names the cards; the hidden 10S (staff) and the drawn-back card appear nowhere."""
    tid = kai_table["id"]
    gm, ann = api(server, kai_table["gm"]), api(server, kai_table["ann"])
    hidden = set(gm.get(f"/tables/{tid}/state").json()["characters"]["Kai"]["hand"]) | {"10S"}
    for name in ("Kai", "staff"):
        mine = ann.get(f"/tables/{tid}/history/{name}").json()
        assert not hidden & words(mine), (name, mine)
    kai = {e["type"]: e for e in ann.get(f"/tables/{tid}/history/Kai").json()}
    assert kai["magicpunk.CardsDrawn"]["event"] == "Kai draws ? ? ?"
    assert kai["magicpunk.CardsCharged"]["event"] == "Kai charges staff with ?"
    assert kai["magicpunk.CardsPlayed"]["event"] == "Kai plays 8H"  # played cards are public
    circulated = kai["magicpunk.CardsCirculated"]
    assert circulated["event"].endswith("(MP-CIRC-1): 6H -> ?")
    assert "drawn = ?" in circulated["explain"]
    drawn = gm.get(f"/tables/{tid}/history/Kai").json()
    assert "Kai draws 10S 8H 6H" in [e["event"] for e in drawn]
    staff = ann.get(f"/tables/{tid}/history/staff").json()
    assert "Kai charges staff with ?" in [e["event"] for e in staff]


@pytest.mark.parametrize(
    ("line", "gm_says", "ann_says"),
    [
        ("magicpunk play Aria 8H", None, None),  # 8H was played: public, unchanged
        ("magicpunk play Aria 6H", None, None),  # discarded by circulation: public
        (
            "magicpunk play Aria 10S",
            "10S is not held by Aria (it is in the item staff)",
            "10S is not held by Aria (it is not where you can see it)",
        ),
        (
            "magicpunk play Aria JK1",
            "JK1 is not held by Aria (it is in the draw pile)",
            "JK1 is not held by Aria (it is not where you can see it)",
        ),
    ],
)
def test_a_refusal_tells_a_seat_only_the_places_it_sees(
    server: str, kai_table: dict[str, str], line: str, gm_says: str | None, ann_says: str | None
) -> None:
    """A dry run refused by MP-CARDS names a hidden card's place (a hand, an item, the draw
    pile) to the GM only; ann reads "it is not where you can see it"."""
    tid = kai_table["id"]

    def refused(token: str, command: str) -> httpx.Response:
        return api(server, token).post(
            f"/tables/{tid}/commands", json={"command": command, "dry_run": True}
        )

    if gm_says is None:  # a public place: both read the same words
        assert refused(kai_table["gm"], line).json() == refused(kai_table["ann"], line).json()
        return
    as_gm, as_ann = refused(kai_table["gm"], line), refused(kai_table["ann"], line)
    assert (as_gm.status_code, as_ann.status_code) == (422, 422)
    assert (
        as_gm.json()["error"]["rule"],
        as_ann.json()["error"]["rule"],
    ) == ("MP-CARDS", "MP-CARDS")
    assert as_gm.json()["error"]["message"].startswith(gm_says)
    assert as_ann.json()["error"]["message"].startswith(ann_says)


@pytest.mark.rule("CORE-GIVEN")
@pytest.mark.parametrize(
    ("card", "gm_says", "ann_says"),
    [
        ("8H", None, None),  # 8H was played: public, unchanged
        ("6H", None, None),  # discarded by circulation: public
        (
            "10S",
            "10S is not in the draw pile (it is in the item staff)",
            "10S is not in the draw pile (it is not where you can see it)",
        ),
    ],
)
def test_a_draw_of_given_cards_tells_a_seat_only_the_places_it_sees(
    server: str, kai_table: dict[str, str], card: str, gm_says: str | None, ann_says: str | None
) -> None:
    """At a table that allows given cards, a draw of a card that is not in the draw pile is
    refused (MP-CARDS) naming its hidden place to the GM only; ann reads "it is not where you
    can see it" (a dry run of hers is blind: test_trust.py)."""
    tid = kai_table["id"]
    gm = api(server, kai_table["gm"])
    allowed = gm.post(f"/tables/{tid}/commands", json={"command": "table allow given-cards"})
    assert allowed.status_code == 201, allowed.text
    line = f"magicpunk draw Aria 1 --cards {card}"
    as_gm, as_ann = (
        api(server, kai_table[who]).post(f"/tables/{tid}/commands", json={"command": line})
        for who in ("gm", "ann")
    )
    assert (as_gm.status_code, as_ann.status_code) == (422, 422)
    assert (
        as_gm.json()["error"]["rule"],
        as_ann.json()["error"]["rule"],
    ) == ("MP-CARDS", "MP-CARDS")
    if gm_says is None:  # a public place: both read the same words
        assert as_gm.json()["error"]["message"] == as_ann.json()["error"]["message"]
        return
    assert as_gm.json()["error"]["message"].startswith(gm_says)
    assert as_ann.json()["error"]["message"].startswith(ann_says)


def test_kais_hidden_hand_is_not_probed_card_by_card(
    server: str, kai_table: dict[str, str]
) -> None:
    """ann dry-runs a named draw of each card Kai holds: no answer names Kai or the staff."""
    tid = kai_table["id"]
    gm, ann = api(server, kai_table["gm"]), api(server, kai_table["ann"])
    state = gm.get(f"/tables/{tid}/state").json()
    for card in [*state["characters"]["Kai"]["hand"], *state["items"]["staff"]["cards"]]:
        answer = ann.post(
            f"/tables/{tid}/commands",
            json={"command": f"magicpunk draw Aria 1 --cards {card}", "dry_run": True},
        ).json()
        assert {"Kai", "staff"}.isdisjoint(words(answer)), answer


def test_an_undo_refusal_hides_an_enemys_hp_from_a_player(server: str) -> None:
    """saga: p (Gustave) hits the enemy Rat (148 HP) for 74, the GM's hit takes it to 0 and it
    falls; p's undo of the first hit is refused because the fall depends on it. The GM reads
    "Rat has 74 HP, not 0"; p reads the dependent event and rule, the enemy's HP blurred as in
    any refusal (only the refusal's hidden part: "Rat's HP and LP are hidden")."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "seed": 2}).json()["table_id"]
    token = gm.post(
        f"/tables/{tid}/seats",
        json={"name": "p", "role": "player", "characters": ["Gustave"], "confirm": True},
    ).json()["token"]
    hit = "saga cast Gustave kiri-harai --target Rat --roll 1"
    for who, line in (
        (
            gm,
            "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 "
            "--slv 1h-sword=10 --weapon 1h-sword=30 --resist 20",
        ),
        (gm, "saga unit add Rat --enemy --max-hp 148 --stat vit=10 --resist 0"),
        (gm, "table allow given-factors"),  # p reports her roll (CORE-GIVEN)
        (api(server, token), hit),
        (gm, hit),
    ):
        answer = who.post(f"/tables/{tid}/commands", json={"command": line})
        assert answer.status_code == 201, answer.text
    first = next(
        e["seq"]
        for e in gm.get(f"/tables/{tid}/log").json()["events"]
        if e["type"] == "saga.AttackDamageDealt"
    )
    fell = next(
        e["seq"]
        for e in gm.get(f"/tables/{tid}/log").json()["events"]
        if e["type"] == "saga.UnitIncapacitated"
    )
    said = {}
    for name, client in (("p", api(server, token)), ("gm", gm)):
        answer = client.post(f"/tables/{tid}/commands", json={"command": f"undo {first}"})
        assert (answer.status_code, answer.json()["error"]["rule"]) == (422, "CORE-UNDO")
        said[name] = answer.json()["error"]["message"]
    depends = (
        f"#{first} cannot be undone: later events depend on it: #{fell} saga.UnitIncapacitated"
    )
    assert f"{depends} (SAGA-LP-1: Rat has 74 HP, not 0)" == said["gm"]
    assert f"{depends} (SAGA-LP-1: Rat's HP and LP are hidden, not 0)" == said["p"]
    rat = {
        e["type"]: e["event"] for e in api(server, token).get(f"/tables/{tid}/history/Rat").json()
    }
    assert "148" not in words(rat)  # its max HP; the hits of 74 stay public
    assert rat["saga.UnitAdded"] == "Rat appears (enemy)"
    assert (
        next(
            e["event"]
            for e in gm.get(f"/tables/{tid}/history/Rat").json()
            if e["type"] == "saga.UnitAdded"
        )
        == "Rat (enemy, HP 148/148)"
    )


@pytest.mark.rule("SAGA-HP-2")
def test_what_a_hit_took_off_an_enemy_is_hidden_from_a_player(server: str) -> None:
    """saga: p's Gustave hits the enemy Rat (60 HP) for 74; the hit took 60, which is Rat's
    hidden HP. The GM reads ``hp_lost`` 60 in the command's answer and the log; p reads the
    damage rolled (74, as the game shows it) and ``hp_lost`` null in both (a newcomer's QA
    summed a player's ``hp_lost`` to an enemy's hidden maximum)."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "seed": 2}).json()["table_id"]
    token = gm.post(
        f"/tables/{tid}/seats",
        json={"name": "p", "role": "player", "characters": ["Gustave"], "confirm": True},
    ).json()["token"]
    for line in (
        "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 "
        "--slv 1h-sword=10 --weapon 1h-sword=30 --resist 20",
        "saga unit add Rat --enemy --max-hp 60 --stat vit=10 --resist 0",
        "table allow given-factors",  # p reports her roll (CORE-GIVEN)
    ):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    p = api(server, token)
    answer = p.post(
        f"/tables/{tid}/commands",
        json={"command": "saga cast Gustave kiri-harai --target Rat --roll 1"},
    )
    assert answer.status_code == 201, answer.text

    def hits(events: list[dict[str, object]]) -> list[tuple[object, object]]:
        return [
            (e["data"]["damage"], e["data"]["hp_lost"])  # type: ignore[index]
            for e in events
            if e["type"] == "saga.AttackDamageDealt"
        ]

    assert hits(answer.json()["events"]) == [(74, None)]
    assert hits(p.get(f"/tables/{tid}/log").json()["events"]) == [(74, None)]
    assert hits(gm.get(f"/tables/{tid}/log").json()["events"]) == [(74, 60)]
