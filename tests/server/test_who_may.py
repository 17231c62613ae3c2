"""Who may issue each command of each system, row by row, over HTTP (SERVER.md §3; docs/SERVER.md
"Who may do what"; the "Who may issue each command" table of docs/<system>.md; issue 30 item 1).

A table of each system has Mira and Theo (and, in fate, their servants MiraS and TheoS); the
player seat pat plays Mira (and MiraS). A command a character takes by its own rules is accepted
from pat's seat for Mira as a dry run (200), refused for Theo (403 naming Theo), and accepted
from the GM's; a command of the world is refused to pat (403 naming the gm role) and accepted
from the GM's. Every command a system's CLI appends has a row here and in its doc, with the same
role: the doc, this test and the declaration's ``acts_for`` say one thing.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from tablelog import systems
from tests.support.server import api

DOCS = Path(__file__).parents[2] / "docs"
MINE = {"who": "Mira", "s": "MiraS", "them": "Theo", "ts": "TheoS"}
THEIRS = {"who": "Theo", "s": "TheoS", "them": "Mira", "ts": "MiraS"}

SETUP = {
    "magicpunk": [
        "magicpunk character add {who} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26",
        "magicpunk character add {them} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26",
        "magicpunk item add bat-{who} --owner {who}",
        "magicpunk item add bat-{them} --owner {them}",
        "magicpunk draw {who} 2 --cards AS,2H",
        "magicpunk draw {them} 2 --cards AH,2S",
    ],
    "pf2e": [
        "pf2e character add {who} --level 14 --crafting master",
        "pf2e character add {them} --level 14 --crafting master",
        "pf2e formula add {who} weapon-potency-1",
        "pf2e formula add {them} weapon-potency-1",
        "pf2e formula add {who} flaming",
        "pf2e formula add {them} flaming",
        "pf2e formula add {who} armor-potency-1",
        "pf2e formula add {them} armor-potency-1",
        "pf2e item add sword-{who} --base longsword --owner {who}",
        "pf2e item add sword-{them} --base longsword --owner {them}",
        "pf2e item add axe-{who} --base greatsword --owner {who}",
        "pf2e item add axe-{them} --base greatsword --owner {them}",
        "pf2e item add mail-{who} --base chain-mail --owner {who}",
        "pf2e item add mail-{them} --base chain-mail --owner {them}",
        "pf2e etch sword-{who} weapon-potency-1 --by {who}",
        "pf2e etch sword-{them} weapon-potency-1 --by {them}",
        "pf2e etch sword-{who} flaming --by {who}",
        "pf2e etch sword-{them} flaming --by {them}",
        "pf2e etch mail-{who} armor-potency-1 --by {who}",
        "pf2e etch mail-{them} armor-potency-1 --by {them}",
    ],
    "fate": [
        "fate master add {who} --quality B --quantity C --crest D --attribute fire --hp 40 "
        "--mp 30 --cc-budget 20",
        "fate master add {them} --quality B --quantity C --crest D --attribute fire --hp 40 "
        "--mp 30 --cc-budget 20",
        "fate servant add {s} --hp 60 --mp 90 --np-budget 30 --madness C",
        "fate servant add {ts} --hp 60 --mp 90 --np-budget 30 --madness C",
        "fate phantasm add {s} ubw --grade A++ --type field --mod reality-marble=true "
        "--mod shot-mp=5 --mod shots=1",
        "fate phantasm add {ts} ubw --grade A++ --type field --mod reality-marble=true "
        "--mod shot-mp=5 --mod shots=1",
        "fate phantasm add {s} caliburn --grade C --type anti-unit",
        "fate phantasm add {ts} caliburn --grade C --type anti-unit",
        "fate battle start",
        "fate release {s} ubw",
        "fate turn",
    ],
    "saga": [
        "saga unit add {who} --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
        "--weapon 1h-sword=30 --resist 20",
        "saga unit add {them} --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
        "--weapon 1h-sword=30 --resist 20",
        "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
        "saga battle start",
    ],
}

PLAYER, GM = "player", "gm"
# (system, command path, role, the line for {who}, more setup before it)
ROWS: list[tuple[str, str, str, str, tuple[str, ...]]] = [
    (
        "magicpunk",
        "magicpunk character add",
        GM,
        "magicpunk character add Zed --body 8 --sense 8 --intellect 8 --magic 8 --hp 9",
        (),
    ),
    ("magicpunk", "magicpunk item add", GM, "magicpunk item add cane --owner {who}", ()),
    ("magicpunk", "magicpunk item ready", GM, "magicpunk item ready bat-{who}", ()),
    ("magicpunk", "magicpunk damage", GM, "magicpunk damage {who} 3", ()),
    ("magicpunk", "magicpunk heal", GM, "magicpunk heal {who} 3", ("magicpunk damage {who} 5",)),
    ("magicpunk", "magicpunk act", GM, "magicpunk act {who}", ("magicpunk round",)),
    ("magicpunk", "magicpunk round", GM, "magicpunk round", ()),
    ("magicpunk", "magicpunk briefing start", GM, "magicpunk briefing start 1m", ()),
    (
        "magicpunk",
        "magicpunk briefing prepare",
        GM,
        "magicpunk briefing prepare {who}",
        ("magicpunk briefing start 1m",),
    ),
    (
        "magicpunk",
        "magicpunk briefing end",
        GM,
        "magicpunk briefing end",
        ("magicpunk briefing start 1m",),
    ),
    ("magicpunk", "magicpunk draw", PLAYER, "magicpunk draw {who} 1", ()),
    ("magicpunk", "magicpunk play", PLAYER, "magicpunk play {who} AS", ()),
    ("magicpunk", "magicpunk charge", PLAYER, "magicpunk charge bat-{who} AS --from {who}", ()),
    ("magicpunk", "magicpunk circulate", PLAYER, "magicpunk circulate {who} --all", ()),
    ("magicpunk", "magicpunk rest", GM, "magicpunk rest 10m", ()),
    ("magicpunk", "magicpunk dawn", GM, "magicpunk dawn", ()),
    ("magicpunk", "magicpunk reward", GM, "magicpunk reward {who} 1000", ()),
    (
        "magicpunk",
        "magicpunk spell learn",
        GM,
        "magicpunk spell learn {who} spark --gate fire --tier 1 --price 500",
        ("magicpunk reward {who} 1000",),
    ),
    ("magicpunk", "magicpunk rebuild", GM, "magicpunk rebuild {who} --items", ()),
    (
        "magicpunk",
        "magicpunk procure",
        PLAYER,
        "magicpunk procure {who} --material steel --quality standard",
        (),
    ),
    ("magicpunk", "magicpunk roll", PLAYER, "magicpunk roll 2MP10 --by {who}", ()),
    (
        "magicpunk",
        "magicpunk cohabit",
        GM,
        "magicpunk cohabit {who} {them} --region town --residence flat --residence-points 2",
        (),
    ),
    ("magicpunk", "magicpunk leisure start", GM, "magicpunk leisure start", ()),
    (
        "magicpunk",
        "magicpunk leisure roll",
        GM,
        "magicpunk leisure roll {who} 7",
        ("magicpunk leisure start",),
    ),
    ("pf2e", "pf2e character add", GM, "pf2e character add Zed --level 2", ()),
    ("pf2e", "pf2e formula add", PLAYER, "pf2e formula add {who} striking", ()),
    ("pf2e", "pf2e item add", GM, "pf2e item add dagger-9 --base dagger", ()),
    ("pf2e", "pf2e give", GM, "pf2e give axe-{them} --to {who}", ()),
    ("pf2e", "pf2e etch", PLAYER, "pf2e etch axe-{who} weapon-potency-1 --by {who}", ()),
    (
        "pf2e",
        "pf2e finish",
        GM,
        "pf2e finish axe-{who}",
        ("pf2e etch axe-{who} weapon-potency-1 --by {who} --begin",),
    ),
    (
        "pf2e",
        "pf2e transfer",
        PLAYER,
        "pf2e transfer flaming --from sword-{who} --to axe-{who} --by {who}",
        ("pf2e etch axe-{who} weapon-potency-1 --by {who}",),
    ),
    ("pf2e", "pf2e invest", PLAYER, "pf2e invest mail-{who} --by {who}", ()),
    ("pf2e", "pf2e activate", PLAYER, "pf2e activate sword-{who} flaming --by {who}", ()),
    (
        "fate",
        "fate master add",
        GM,
        "fate master add Zed --quality C --quantity C --crest C --attribute fire "
        "--hp 30 --mp 30 --cc-budget 20",
        (),
    ),
    ("fate", "fate master grade", GM, "fate master grade {who} 2", ()),
    ("fate", "fate servant add", GM, "fate servant add Zed --hp 50 --mp 50", ()),
    ("fate", "fate servant rage", GM, "fate servant rage {s}", ()),
    ("fate", "fate phantasm add", GM, "fate phantasm add {s} rho --grade C --type anti-unit", ()),
    (
        "fate",
        "fate ability add",
        GM,
        "fate ability add {who} eye --grade C --type anti-unit --starting",
        (),
    ),
    ("fate", "fate battle start", GM, "fate battle start", ("fate battle end",)),
    ("fate", "fate battle end", GM, "fate battle end", ()),
    ("fate", "fate turn", GM, "fate turn", ()),
    ("fate", "fate round", GM, "fate round", ()),
    ("fate", "fate cast", PLAYER, "fate cast {who} attack --grade 1 --tiles 1 --target {them}", ()),
    ("fate", "fate chant", PLAYER, "fate chant {who}", ()),
    ("fate", "fate release", PLAYER, "fate release {s} caliburn --target {ts}", ()),
    ("fate", "fate use", PLAYER, "fate use {s} ubw shoot", ()),
    ("fate", "fate damage", GM, "fate damage {who} --hp 3", ()),
    ("fate", "fate morning", GM, "fate morning", ("fate battle end",)),
    ("fate", "fate rest", GM, "fate rest", ("fate battle end",)),
    ("fate", "fate dismiss", GM, "fate dismiss {s} ubw", ()),
    ("fate", "fate row", GM, "fate row {who} back", ()),
    ("saga", "saga unit add", GM, "saga unit add Imp --max-hp 10", ()),
    (
        "saga",
        "saga tech add",
        GM,
        "saga tech add fang --power 30 --attack-count 1 --random-width 5 "
        "--weapon-type enemy --attribute pierce --dependent str",
        (),
    ),
    ("saga", "saga battle start", GM, "saga battle start --terrain wood", ()),
    ("saga", "saga cast", PLAYER, "saga cast {who} kiri-harai --target Wolf", ()),
    ("saga", "saga poison", GM, "saga poison Wolf --roll 1", ()),
    ("saga", "saga release", PLAYER, "saga release {who}", ()),
    ("saga", "saga buff", PLAYER, "saga buff {them} --attack 10 --by {who}", ()),
    ("saga", "saga turn", GM, "saga turn", ()),
    ("saga", "saga wipe", GM, "saga wipe", ()),
]


def _table(server: str, system: str, more: tuple[str, ...]) -> tuple[str, str]:
    """A table of ``system`` set up by the GM (SETUP, then ``more``); its id and pat's token."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": system, "seed": 5}).json()["table_id"]
    for line in (*SETUP[system], *more):
        answer = gm.post(f"/tables/{tid}/commands", json={"command": line.format(**MINE)})
        assert answer.status_code == 201, (line, answer.text)
    seat = gm.post(
        f"/tables/{tid}/seats",
        json={
            "name": "pat",
            "role": "player",
            "characters": [MINE["who"], MINE["s"]],
            "confirm": True,
        },
    )
    return tid, seat.json()["token"]


@pytest.mark.parametrize(
    ("system", "path", "role", "line", "more"), ROWS, ids=[row[3] for row in ROWS]
)
def test_each_command_is_issued_by_the_role_its_row_names(
    server: str, system: str, path: str, role: str, line: str, more: tuple[str, ...]
) -> None:
    """A player's row: pat's dry run for Mira is accepted (200), for Theo refused (403 naming
    Theo); a GM's row: refused to pat (403 naming the gm role). The GM's dry run is accepted
    (200) in every row, and no refusal appends anything."""
    tid, token = _table(server, system, more)
    pat, gm = api(server, token), api(server)
    before = gm.get(f"/tables/{tid}").json()["seq"]
    command = line.format(**MINE)
    if role == PLAYER:
        mine = pat.post(f"/tables/{tid}/commands", json={"command": command, "dry_run": True})
        assert mine.status_code == 200, mine.text
        theirs = pat.post(f"/tables/{tid}/commands", json={"command": line.format(**THEIRS)})
        assert (theirs.status_code, theirs.json()["error"]["code"]) == (403, "forbidden")
        assert "is not pat's character" in theirs.json()["error"]["message"]
    else:
        refused = pat.post(f"/tables/{tid}/commands", json={"command": command})
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
        assert "gm role" in refused.json()["error"]["message"]
    allowed = gm.post(f"/tables/{tid}/commands", json={"command": command, "dry_run": True})
    assert allowed.status_code == 200, allowed.text
    assert before == gm.get(f"/tables/{tid}").json()["seq"]


def _appending(system: str) -> set[str]:
    """The command paths of ``system``'s CLI that append (what a table takes)."""
    from tablelog.server.grammar import APPENDS

    def leaves(command: click.Command, path: str) -> set[str]:
        if isinstance(command, click.Group):
            return set().union(*(leaves(c, f"{path} {n}") for n, c in command.commands.items()))
        return {path} if getattr(command.callback, APPENDS, False) else set()

    return leaves(systems.get(system).group(), system)


def _doc_rows(system: str) -> dict[str, str]:
    """The doc's "Who may issue each command" table: command path -> role (player, gm, none)."""
    doc = (DOCS / f"{system}.md").read_text(encoding="utf-8")
    section = doc.split("## Who may issue each command", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for cell, who in re.findall(r"^\| `([^`]+)` \| ([^|]+) \|$", section, re.MULTILINE):
        path = " ".join(w for w in cell.split() if re.fullmatch(r"[a-z][a-z0-9-]*", w))
        rows[path] = PLAYER if "a player of" in who else GM if who.strip() == "the GM" else "none"
    return rows


@pytest.mark.parametrize("system", sorted(SETUP))
def test_every_command_has_a_row_here_and_in_its_doc_with_the_same_role(system: str) -> None:
    """Every appending command of the system has one row above, its doc's table names it with
    the same role, and the doc's other rows are the commands that append nothing."""
    rows = {path: role for s, path, role, _, _ in ROWS if s == system}
    assert _appending(system) == set(rows)
    doc = _doc_rows(system)
    assert rows == {path: role for path, role in doc.items() if role != "none"}
    assert not {path for path, role in doc.items() if role == "none"} & _appending(system)


def test_the_servers_table_names_every_players_command() -> None:
    """docs/SERVER.md's "Who may do what" table lists, for each system, exactly the commands
    a player may issue for its character (the rows above whose role is a player's)."""
    doc = (DOCS / "SERVER.md").read_text(encoding="utf-8")
    section = doc.split("## Who may do what", 1)[1].split("\n## ", 1)[0]
    for system in sorted(SETUP):
        cells = re.findall(rf"^\| {system} \| (.+?) \| the GM, or a player", section, re.MULTILINE)
        named = {
            f"{system} " + " ".join(w for w in said.split() if re.fullmatch(r"[a-z][a-z-]*", w))
            for said in re.findall(r"`([^`]+)`", " ".join(cells))
        }
        assert {p for s, p, role, _, _ in ROWS if s == system and role == PLAYER} == named
