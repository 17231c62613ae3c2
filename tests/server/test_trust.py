"""Hidden information and trust, round 3 (issue 32 items 1-3): no undo shows a seat the next
draw or roll, no seat but the GM's chooses an outcome tablelog rolls unless the GM allows it,
and no dry run answers by where a hidden card is. Each test is the attack, shown to fail."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from tests.support.server import ADD, api, commands

ALL_CARDS = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", *range(2, 11), "J", "Q", "K")]
ALL_CARDS += ["JK1", "JK2"]


@pytest.fixture
def table(server: str) -> dict[str, str]:
    """A magicpunk table: ann plays Aria, bo plays Kai; Kai holds 3 cards only the GM sees."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "seed": 11}).json()["table_id"]
    commands(gm, tid, ADD.format("Aria"), ADD.format("Kai"), "magicpunk draw Kai 3")
    tokens = {"id": tid}
    for name, who in (("ann", "Aria"), ("bo", "Kai")):
        seat = {"name": name, "role": "player", "characters": [who]}
        tokens[name] = gm.post(f"/tables/{tid}/seats", json=seat).json()["token"]
    return tokens


@pytest.fixture
def saga(server: str) -> dict[str, str]:
    """A saga table: p plays Gustave; the enemy Rat's HP is hidden from p."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "seed": 2}).json()["table_id"]
    commands(
        gm,
        tid,
        "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
        "--weapon 1h-sword=30 --resist 20",
        "saga unit add Rat --enemy --max-hp 5000 --stat vit=10 --resist 0",
    )
    seat = {"name": "p", "role": "player", "characters": ["Gustave"]}
    return {"id": tid, "p": gm.post(f"/tables/{tid}/seats", json=seat).json()["token"]}


def post(server: str, token: str | None, tid: str, line: str, dry: bool = False) -> httpx.Response:
    """POST one command line as ``token`` (None: the server token, the GM), waiting out the
    seat's rate limit (429) as a patient prober would."""
    client = api(server) if token is None else api(server, token)
    while True:
        answer = client.post(f"/tables/{tid}/commands", json={"command": line, "dry_run": dry})
        if answer.status_code != 429:
            return answer
        time.sleep(float(answer.json()["error"]["params"]["retry_after_s"]))


def refusal(answer: httpx.Response) -> tuple[int, str | None]:
    """Return the answer's status and rule ID."""
    return answer.status_code, answer.json()["error"]["rule"]


def hand(server: str, tid: str, who: str) -> list[str]:
    """Return ``who``'s hand as the GM sees it."""
    return list(api(server).get(f"/tables/{tid}/state/{who}").json()["hand"])


def seq_of(server: str, tid: str) -> int:
    """Return the table's last seq."""
    return int(api(server).get(f"/tables/{tid}").json()["seq"])


@pytest.mark.rule("CORE-REROLL")
def test_a_player_does_not_undo_or_redo_her_own_draw(server: str, table: dict[str, str]) -> None:
    """ann draws 1 (tablelog draws it) and sees the card; her bare undo, her undo by seq and,
    once the GM undid it, her redo are 403 CORE-REROLL and append nothing; the GM undoes and
    redoes it (201)."""
    tid, ann = table["id"], table["ann"]
    drawn = post(server, ann, tid, "magicpunk draw Aria 1")
    assert drawn.status_code == 201, drawn.text
    seq = drawn.json()["seqs"][0]
    before = seq_of(server, tid)
    assert refusal(post(server, ann, tid, "undo")) == (403, "CORE-REROLL")
    assert refusal(post(server, ann, tid, f"undo {seq}")) == (403, "CORE-REROLL")
    assert refusal(post(server, ann, tid, f"undo {seq}", dry=True)) == (403, "CORE-REROLL")
    assert before == seq_of(server, tid)
    assert post(server, None, tid, f"undo {seq}").status_code == 201
    said = post(server, ann, tid, f"redo {seq}")
    assert refusal(said) == (403, "CORE-REROLL")
    assert (
        f"#{seq} is an outcome tablelog drew or rolled (magicpunk.CardsDrawn): a player does not "
        "redo it (the GM may)"
    ) == said.json()["error"]["message"]
    assert post(server, None, tid, f"redo {seq}").status_code == 201


@pytest.mark.rule("CORE-RANDOM")
@pytest.mark.rule("CORE-REROLL")
def test_an_undone_draw_does_not_tell_the_next(server: str, table: dict[str, str]) -> None:
    """Five rounds of: ann draws 3, the GM undoes it, ann draws 3 again. The second draw is not
    the undone one in any round (before CORE-RANDOM: 5 of 5), and drawing the whole pile,
    undone, does not give the order of the next whole draw."""
    tid, ann = table["id"], table["ann"]
    same = 0
    for _ in range(5):
        first = post(server, ann, tid, "magicpunk draw Aria 3")
        seen = hand(server, tid, "Aria")
        assert post(server, None, tid, f"undo {first.json()['seqs'][0]}").status_code == 201
        assert post(server, ann, tid, "magicpunk draw Aria 3").status_code == 201
        same += seen == hand(server, tid, "Aria")
        assert post(server, None, tid, "magicpunk circulate Aria --all").status_code == 201
        commands(api(server), tid, "magicpunk play Aria " + " ".join(hand(server, tid, "Aria")))
    assert same == 0
    whole = post(server, None, tid, "magicpunk draw Aria 51")
    order = whole.json()["events"][0]["data"]["cards"]
    assert post(server, None, tid, "undo").status_code == 201
    again = post(server, None, tid, "magicpunk draw Aria 51").json()["events"][0]["data"]["cards"]
    assert sorted(order) == sorted(again) and order != again


@pytest.mark.rule("CORE-RANDOM")
@pytest.mark.rule("CORE-REROLL")
def test_an_undone_cast_does_not_tell_the_next_roll(server: str, saga: dict[str, str]) -> None:
    """p casts at Rat without --roll; her undo is 403 CORE-REROLL. Four rounds of the GM
    undoing and p casting again: the random factors are not the undone cast's every time
    (before CORE-RANDOM: the same, 4 of 4)."""
    tid, p = saga["id"], saga["p"]
    line = "saga cast Gustave kiri-harai --target Rat"
    cast = post(server, p, tid, line)
    assert cast.status_code == 201, cast.text
    factors = [cast.json()["events"][0]["data"]["random_factor"]]
    assert refusal(post(server, p, tid, "undo")) == (403, "CORE-REROLL")
    for _ in range(4):
        undo = f"undo {cast.json()['seqs'][0]}"
        assert post(server, None, tid, undo).status_code == 201
        cast = again = post(server, p, tid, line)
        assert again.status_code == 201, again.text
        factors.append(again.json()["events"][0]["data"]["random_factor"])
    assert factors[1:] != [factors[0]] * 4, factors
    assert len(set(factors)) > 1, factors


@pytest.mark.rule("CORE-GIVEN")
@pytest.mark.parametrize(
    ("line", "option"),
    [
        ("magicpunk draw Aria 1 --cards KH", "given-cards"),
        ("magicpunk roll 3MP10 --by Aria --dice 1,1,1", "given-dice"),
    ],
)
def test_a_player_gives_cards_and_dice_only_when_the_gm_allows(
    server: str, table: dict[str, str], line: str, option: str
) -> None:
    """ann's --cards KH / --dice is 403 CORE-GIVEN, appending nothing; the GM's is not;
    once the GM allows the table option ann's is appended; forbidden again, 403 again."""
    tid, ann = table["id"], table["ann"]
    before = seq_of(server, tid)
    said = post(server, ann, tid, line)
    assert refusal(said) == (403, "CORE-GIVEN")
    flag = "--cards" if option == "given-cards" else "--dice"
    assert (
        f"{flag} reports what was drawn or rolled at the table: the GM's to give, or a player's "
        f"when the GM allows it (table allow {option}); without it tablelog draws"
    ) == said.json()["error"]["message"]
    assert before == seq_of(server, tid)
    assert post(server, None, tid, line, dry=True).status_code == 200
    assert refusal(post(server, ann, tid, f"table allow {option}")) == (403, "CORE-ROLE")
    assert post(server, None, tid, f"table allow {option}").status_code == 201
    done = post(server, ann, tid, line)
    assert done.status_code == 201, done.text
    if option == "given-cards":
        assert hand(server, tid, "Aria") == ["KH"]
    else:
        assert done.json()["events"][0]["data"]["dice"] == [1, 1, 1]
    assert post(server, ann, tid, "undo").status_code == 201  # given: no roll to fish
    assert post(server, None, tid, f"table forbid {option}").status_code == 201
    assert refusal(post(server, ann, tid, line)) == (403, "CORE-GIVEN")


@pytest.mark.rule("CORE-GIVEN")
def test_a_player_does_not_choose_her_own_random_factor(server: str, saga: dict[str, str]) -> None:
    """p's cast with --roll 1.05 (the maximum) is 403 CORE-GIVEN unless the GM allows
    given-factors; a table option the system has not is refused (422 CORE-GIVEN)."""
    tid, p = saga["id"], saga["p"]
    line = "saga cast Gustave kiri-harai --target Rat --roll 1.05"
    assert refusal(post(server, p, tid, line)) == (403, "CORE-GIVEN")
    assert refusal(post(server, None, tid, "table allow given-cards")) == (422, "CORE-GIVEN")
    assert post(server, None, tid, "table allow given-factors").status_code == 201
    done = post(server, p, tid, line)
    assert done.status_code == 201, done.text
    assert done.json()["events"][0]["data"]["random_factor"] == "21/20"


@pytest.mark.rule("CORE-UNSEEN")
@pytest.mark.rule("CORE-GIVEN")
def test_a_players_dry_run_of_given_cards_is_no_oracle(server: str, table: dict[str, str]) -> None:
    """ann dry-runs `magicpunk draw Aria 1 --cards C` for Kai's three hidden cards and seven in
    the pile: every answer has the same status and words but the card she typed (403
    CORE-GIVEN); with given cards allowed, every one is 200 with the same unseen preview. The
    GM's dry runs, for contrast, tell the pile (200) from Kai's hand (422)."""
    tid, ann = table["id"], table["ann"]
    kai = hand(server, tid, "Kai")
    probes = [*kai, *[c for c in ALL_CARDS if c not in kai][:7]]

    def answers() -> set[tuple[int, str]]:
        found = set()
        for card in probes:
            answer = post(server, ann, tid, f"magicpunk draw Aria 1 --cards {card}", dry=True)
            body = json.dumps(answer.json(), sort_keys=True).replace(card, "CARD")
            found.add((answer.status_code, body))
        return found

    off = answers()
    assert len(off) == 1 and next(iter(off))[0] == 403, off
    assert post(server, None, tid, "table allow given-cards").status_code == 201
    on = answers()
    assert len(on) == 1 and next(iter(on))[0] == 200, on
    assert '"?"' in next(iter(on))[1]
    gm = {
        post(server, None, tid, f"magicpunk draw Aria 1 --cards {c}", dry=True).status_code
        for c in kai
    }
    assert {422} == gm
    assert post(server, None, tid, "magicpunk draw Aria 1 --cards KH", dry=True).status_code == 200


@pytest.mark.rule("CORE-GIVEN")
def test_a_player_rolls_her_own_check_only(server: str, table: dict[str, str]) -> None:
    """ann rolls Aria's check (201, rolled by tablelog); a check by Kai or by nobody is 403."""
    tid, ann = table["id"], table["ann"]
    mine = post(server, ann, tid, "magicpunk roll 3MP10 --by Aria")
    assert mine.status_code == 201, mine.text
    assert (
        mine.json()["events"][0]["data"]["given"],
        mine.json()["events"][0]["data"]["by"],
    ) == (False, "Aria")
    assert post(server, ann, tid, "magicpunk roll 3MP10 --by Kai").status_code == 403
    nobody = post(server, ann, tid, "magicpunk roll 3MP10")
    assert nobody.status_code == 403
    assert "names none of ann's characters" in nobody.json()["error"]["message"]


@pytest.mark.rule("CORE-UNSEEN")
def test_a_players_preview_of_a_hit_does_not_tell_an_enemys_hp(
    server: str, saga: dict[str, str]
) -> None:
    """p previews a hit on Rat (5000 HP, hidden) and on Ox (60 HP, hidden: the hit would fell
    it): the two answers are the same but for the name and the dice (no fall in either, HP
    null); the GM's preview on Ox, for contrast, shows the fall."""
    tid, p = saga["id"], saga["p"]
    commands(api(server), tid, "saga unit add Ox --enemy --max-hp 60 --stat vit=10 --resist 0")

    def preview(token: str | None, target: str) -> Any:
        line = f"saga cast Gustave kiri-harai --target {target}"
        answer = post(server, token, tid, line, dry=True)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def shape(body: Any, name: str) -> str:
        rolled = ("damage", "shown", "random_factor", "breakdown")
        events = [
            [e["type"], {k: v for k, v in e["data"].items() if k not in rolled}]
            for e in body["events"]
        ]
        return json.dumps([events, body["changes"]], sort_keys=True).replace(name, "ENEMY")

    assert shape(preview(p, "Rat"), "Rat") == shape(preview(p, "Ox"), "Ox")
    told = [e["type"] for e in preview(None, "Ox")["events"]]
    assert "saga.UnitIncapacitated" in told, told


@pytest.mark.rule("CORE-REROLL")
@pytest.mark.rule("SAGA-ATK-2")
def test_a_given_factor_does_not_let_a_player_redraw_random_targets(
    server: str, saga: dict[str, str]
) -> None:
    """With given factors allowed, p's cast with --roll at one target is hers to undo; her
    random-multi cast at two targets, --roll or not, is not (tablelog drew each hit's target)."""
    tid, p = saga["id"], saga["p"]
    commands(
        api(server),
        tid,
        "table allow given-factors",
        "saga unit add Ox --enemy --max-hp 5000 --stat vit=10 --resist 0",
        "saga tech add flurry --power 30 --attack-count 4 --random-width 5 --weapon-type "
        "1h-sword --attribute none --target-kind random-multi",
    )
    one = post(server, p, tid, "saga cast Gustave kiri-harai --target Rat --roll 1")
    assert one.status_code == 201, one.text
    assert post(server, p, tid, "undo").status_code == 201
    many = post(server, p, tid, "saga cast Gustave flurry --target Rat --target Ox --roll 1")
    assert many.status_code == 201, many.text
    assert many.json()["events"][0]["data"]["breakdown"]["random_targets"] == "drawn"
    assert refusal(post(server, p, tid, "undo")) == (403, "CORE-REROLL")
