"""saga: a hidden enemy's arrival and fall read as public lines to players, in every language,
and the players' report counts the damage each ally rolled against it (SERVER.md §3; docs/SERVER.md
"What each seat sees"; issue 30 item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.support.server import api, commands

ROAD = Path(__file__).parents[2] / "examples" / "saga-wolf-road.txt"
LINES = [
    line
    for line in ROAD.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith(("#", "init "))
]


@pytest.fixture
def road(server: str) -> dict[str, str]:
    """The wolf road (examples/saga-wolf-road.txt) played by the GM; p plays Amy."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga", "title": "Road", "seed": 42}).json()[
        "table_id"
    ]
    commands(gm, tid, *LINES)
    token = gm.post(
        f"/tables/{tid}/seats", json={"name": "p", "role": "player", "characters": ["Amy"]}
    ).json()["token"]
    return {"id": tid, "p": token}


def _texts(client: httpx.Client, tid: str, lang: str) -> dict[str, list[str]]:
    lines = client.get(f"/tables/{tid}/log", params={"lang": lang}).json()["events"]
    found: dict[str, list[str]] = {}
    for line in lines:
        found.setdefault(line["type"], []).append(line["text"])
    return found


@pytest.mark.parametrize(
    ("lang", "appears", "falls"),
    [
        ("en", "Wolf appears (enemy, battle rank 20)", "Wolf falls"),
        ("ja", "Wolfが現れた（敵、バトルランク 20）", "Wolfが戦闘不能になった"),
        ("ko", "Wolf 등장 (적, 배틀 랭크 20)", "Wolf 쓰러짐"),
    ],
)
def test_a_hidden_enemys_arrival_and_fall_are_public_lines(
    server: str, road: dict[str, str], lang: str, appears: str, falls: str
) -> None:
    """A player's log reads the Wolf's arrival and fall in the seat's language, with neither
    its HP (1200) nor a blank line; the GM's log keeps the whole sentences."""
    seen = _texts(api(server, road["p"]), road["id"], lang)
    assert [appears] == [t for t in seen["saga.UnitAdded"] if t.startswith("Wolf")]
    assert [falls] == seen["saga.UnitIncapacitated"]
    assert all(text for texts in seen.values() for text in texts)
    assert not any(re.search(r"\b1200\b", t) for texts in seen.values() for t in texts)
    full = _texts(api(server), road["id"], "en")
    assert "Wolf (enemy, HP 1200/1200, battle rank 20)" in full["saga.UnitAdded"]
    assert full["saga.UnitIncapacitated"] == ["Wolf is incapacitated"]


def _table(text: str, heading: str) -> dict[str, list[str]]:
    """The rows of the Markdown table under ``heading``: first cell -> the others."""
    rows: dict[str, list[str]] = {}
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith(heading))
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def test_the_players_report_counts_the_damage_each_ally_rolled(
    server: str, road: dict[str, str]
) -> None:
    """The GM's report has what the Wolf lost (Gustave 314, Amy 646 of the 670 her ten tenrai
    hits rolled: the last hit overshot); a player's has no HP lost of the Wolf anywhere, but the
    damage each ally rolled against it (Gustave 56 + 64 + 194, Amy 10 × 67) and poison's 240
    with no dealer; what the Wolf's fangs and Amy's release took off the allies stays HP lost."""
    report = f"/tables/{road['id']}/report"
    full = api(server).get(report, params={"format": "md"}).text
    dealt = _table(full, "Damage (HP lost)")
    assert (dealt["Gustave"], dealt["Amy"]) == (["314", "44"], ["646", "106"])
    assert "Damage rolled against hidden enemies" not in full
    seen = api(server, road["p"]).get(report, params={"format": "md"}).text
    assert _table(seen, "Damage (HP lost)") == {
        "character": ["dealt", "taken"],
        "Gustave": ["0", "44"],
        "Amy": ["0", "106"],
        "Wolf": ["108", "0"],
        "(no character named as the source)": ["42", ""],
    }
    assert _table(seen, "Damage rolled against hidden enemies") == {
        "character": ["damage rolled"],
        "Gustave": ["314"],
        "Amy": ["670"],
        "(no character named as the source)": ["240"],
    }
    assert not re.search(r"\b(1200|646)\b", seen)
