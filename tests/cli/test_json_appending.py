"""`--json` on every appending command of every system (issue 20, item 6).

Each appending command of the click tree (the ones `appending` gives `--dry-run`) has a sample
line, run on a small table of its system: with `--json --dry-run` it prints what it would
append, with `--json` the same events, appended, each one as `log --json` and `history --json`
show it. A system's command without a line in SAMPLES takes its sample from the system's
campaign script (tests/data/campaigns/<system>.txt): the first line that uses it, on a table of
the lines before it; a new system adds no line here (issue 31 item 3).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import click
import pytest

from tablelog import systems
from tablelog.cli.main import cli
from tests.support.cli import ok

CAMPAIGNS = Path(__file__).resolve().parents[1] / "data" / "campaigns"

FATE = [
    "init --system fate --seed 1",
    "fate master add Kiritsugu --quality B --quantity C --crest D --attribute fire "
    "--attribute earth --hp 40 --mp 30 --cc-budget 20",
    "fate master add Tokiomi --quality A --quantity B --crest B --attribute fire --hp 40 --mp 40 "
    "--cc-budget 20",
    "fate servant add Saber --hp 60 --mp 80 --np-budget 15",
    "fate phantasm add Saber excalibur --grade A++ --type anti-fortress",
    "fate servant add Rider --hp 70 --mp 90",
    "fate servant add Lancer --hp 60 --mp 60",
    "fate servant add Archer --hp 50 --mp 90 --np-budget 15",
    "fate phantasm add Archer ubw --grade A++ --type field --mod reality-marble=true "
    "--mod shot-mp=5 --mod shots=1",
    "fate servant add Berserker --hp 80 --mp 60 --madness B",
]
MAGICPUNK = [
    "init --system magicpunk --seed 1 --clock '1 22:00'",
    "magicpunk character add Aria --body 8 --sense 12 --intellect 10 --magic 10 --hp 26 "
    "--money 3000",
    "magicpunk character add Bram --body 14 --sense 10 --intellect 8 --magic 8 --hp 34 "
    "--money 2500 --skill swordplay=expert --skill first-aid=novice",
    "magicpunk item add a-battery --owner Aria",
    "magicpunk draw Aria 4 --cards AS,7H,JK1,3C",
    "magicpunk draw Bram 3 --cards KD,10S,2H",
]
PF2E = [
    "init --system pf2e --seed 1",
    "pf2e character add Valeros --level 14 --crafting master",
    "pf2e character add Kyra --level 8",
    "pf2e formula add Valeros weapon-potency-1",
    "pf2e formula add Valeros frost",
    "pf2e formula add Valeros armor-potency-1",
    "pf2e item add longsword-1 --base longsword --owner Valeros",
    "pf2e item add stone-1 --base runestone --owner Valeros",
    "pf2e item add clothes-1 --base explorers-clothing --owner Kyra",
    "pf2e etch longsword-1 weapon-potency-1 --by Valeros",
    "pf2e etch stone-1 frost --by Valeros",
]
SAGA = [
    "init --system saga --seed 42",
    "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --stat vit=30 --slv 1h-sword=10 "
    "--weapon 1h-sword=30 --resist 20",
    "saga unit add Amy --max-hp 210 --lp 9 --stat int=40 --stat con=25 --stat vit=20 "
    "--slv spell=20 --five wood=10 --resist 15",
    "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
]
TABLES = {"fate": FATE, "magicpunk": MAGICPUNK, "pf2e": PF2E, "saga": SAGA}

# command path -> (table, lines before it, the line); a system's other commands: _campaign_sample
SAMPLES: dict[str, tuple[str, list[str], str]] = {
    "note": ("pf2e", [], "note 'Kyra keeps the shards' --about Kyra"),
    "roll": ("magicpunk", [], "roll 1D100<=50 --reason 'spot the ambush'"),
    "say": ("fate", [], "say 'the war goes on'"),
    "undo": ("pf2e", [], "undo"),
    "redo": ("pf2e", ["undo"], "redo"),
    "retire": (
        "pf2e",
        ["pf2e give clothes-1 --to Valeros"],
        "retire Kyra --reason 'left for Absalom'",
    ),
    "key add": ("pf2e", [], "key add gm " + "ab" * 32),
    "table allow": ("magicpunk", [], "table allow given-cards"),
    "table forbid": ("magicpunk", ["table allow given-dice"], "table forbid given-dice"),
    "fate ability add": (
        "fate",
        ["fate master grade Tokiomi 12"],
        "fate ability add Tokiomi gem --grade C --type anti-unit --starting",
    ),
    "fate battle end": ("fate", ["fate battle start"], "fate battle end"),
    "fate battle start": ("fate", [], "fate battle start"),
    "fate cast": (
        "fate",
        ["fate battle start"],
        "fate cast Tokiomi attack --grade 4 --tiles 2 --target Kiritsugu",
    ),
    "fate chant": ("fate", ["fate battle start"], "fate chant Tokiomi"),
    "fate damage": ("fate", [], "fate damage Kiritsugu --hp 6"),
    "fate dismiss": (
        "fate",
        ["fate battle start", "fate release Archer ubw"],
        "fate dismiss Archer ubw",
    ),
    "fate master add": (
        "fate",
        [],
        "fate master add Sola --quality C --quantity C --crest B+ "
        "--attribute water --hp 30 --mp 30 --cc-budget 12",
    ),
    "fate master grade": ("fate", [], "fate master grade Tokiomi 12"),
    "fate morning": ("fate", ["fate damage Tokiomi --hp 10"], "fate morning"),
    "fate phantasm add": (
        "fate",
        [],
        "fate phantasm add Rider gordius-wheel --grade A+ --type anti-army",
    ),
    "fate release": (
        "fate",
        ["fate battle start"],
        "fate release Saber excalibur --target Rider --target Lancer",
    ),
    "fate rest": (
        "fate",
        [
            "fate battle start",
            "fate cast Kiritsugu defense --grade 5 --tiles 2 --target Kiritsugu",
            "fate battle end",
        ],
        "fate rest",
    ),
    "fate round": ("fate", ["fate battle start"], "fate round"),
    "fate row": ("fate", [], "fate row Kiritsugu back"),
    "fate servant add": ("fate", [], "fate servant add Caster --hp 40 --mp 100"),
    "fate servant rage": ("fate", [], "fate servant rage Berserker"),
    "fate turn": ("fate", ["fate battle start"], "fate turn"),
    "fate use": (
        "fate",
        ["fate battle start", "fate release Archer ubw", "fate turn"],
        "fate use Archer ubw shoot",
    ),
    "magicpunk act": ("magicpunk", ["magicpunk round"], "magicpunk act Aria"),
    "magicpunk briefing end": (
        "magicpunk",
        ["magicpunk briefing start 1m"],
        "magicpunk briefing end",
    ),
    "magicpunk briefing prepare": (
        "magicpunk",
        ["magicpunk briefing start 1m"],
        "magicpunk briefing prepare Aria --note 'charge it'",
    ),
    "magicpunk briefing start": ("magicpunk", [], "magicpunk briefing start 1m"),
    "magicpunk character add": (
        "magicpunk",
        [],
        "magicpunk character add Cid --body 10 --sense 10 --intellect 10 --magic 10 --hp 30",
    ),
    "magicpunk charge": ("magicpunk", [], "magicpunk charge a-battery AS --from Aria"),
    "magicpunk circulate": ("magicpunk", [], "magicpunk circulate Aria --cards 7H"),
    "magicpunk cohabit": (
        "magicpunk",
        [],
        "magicpunk cohabit Aria Bram --region markt --residence apartment --residence-points 5",
    ),
    "magicpunk damage": ("magicpunk", [], "magicpunk damage Bram 40 --pull-punches"),
    "magicpunk dawn": ("magicpunk", [], "magicpunk dawn"),
    "magicpunk draw": ("magicpunk", [], "magicpunk draw Aria 2 --cards QD,4S"),
    "magicpunk heal": ("magicpunk", ["magicpunk damage Bram 10"], "magicpunk heal Bram 5"),
    "magicpunk item add": ("magicpunk", [], "magicpunk item add b-battery --owner Bram"),
    "magicpunk item ready": ("magicpunk", [], "magicpunk item ready a-battery --free-slots 1"),
    "magicpunk leisure roll": (
        "magicpunk",
        ["magicpunk leisure start"],
        "magicpunk leisure roll Bram 7 --safety 2",
    ),
    "magicpunk leisure start": ("magicpunk", [], "magicpunk leisure start"),
    "magicpunk play": ("magicpunk", [], "magicpunk play Bram KD"),
    "magicpunk procure": (
        "magicpunk",
        [],
        "magicpunk procure Aria --material alloy --quality fine --design signed",
    ),
    "magicpunk rebuild": (
        "magicpunk",
        [],
        "magicpunk rebuild Bram --body 12 --sense 12 "
        "--intellect 10 --magic 6 --skill swordplay=novice "
        "--skill first-aid=novice --skill stealth=novice",
    ),
    "magicpunk rest": ("magicpunk", [], "magicpunk rest 10m"),
    "magicpunk reward": ("magicpunk", [], "magicpunk reward Aria 1500"),
    "magicpunk roll": ("magicpunk", [], "magicpunk roll 3MP10C4 --dice 3,9,12 --by Aria"),
    "magicpunk round": ("magicpunk", [], "magicpunk round"),
    "magicpunk spell learn": (
        "magicpunk",
        [],
        "magicpunk spell learn Aria spark --gate fire --tier 1 --price 500",
    ),
    "pf2e activate": (
        "pf2e",
        ["pf2e transfer frost --from stone-1 --to longsword-1 --by Valeros"],
        "pf2e activate longsword-1 frost --by Valeros --note 'icy edge'",
    ),
    "pf2e character add": ("pf2e", [], "pf2e character add Merisiel --level 5"),
    "pf2e etch": (
        "pf2e",
        ["pf2e give clothes-1 --to Valeros"],
        "pf2e etch clothes-1 armor-potency-1 --by Valeros",
    ),
    "pf2e finish": (
        "pf2e",
        [
            "pf2e give clothes-1 --to Valeros",
            "pf2e etch clothes-1 armor-potency-1 --by Valeros --begin",
        ],
        "pf2e finish clothes-1",
    ),
    "pf2e formula add": ("pf2e", [], "pf2e formula add Valeros flaming --buy"),
    "pf2e give": ("pf2e", [], "pf2e give clothes-1 --to Valeros"),
    "pf2e invest": (
        "pf2e",
        [
            "pf2e give clothes-1 --to Valeros",
            "pf2e etch clothes-1 armor-potency-1 --by Valeros",
            "pf2e give clothes-1 --to Kyra",
        ],
        "pf2e invest clothes-1 --by Kyra",
    ),
    "pf2e item add": ("pf2e", [], "pf2e item add mace-1 --base mace --owner Kyra"),
    "pf2e transfer": (
        "pf2e",
        [],
        "pf2e transfer frost --from stone-1 --to longsword-1 --by Valeros",
    ),
    "saga battle start": ("saga", [], "saga battle start --terrain wood"),
    "saga buff": ("saga", ["saga battle start"], "saga buff Gustave --attack 10 --by Amy"),
    "saga cast": (
        "saga",
        ["saga battle start"],
        "saga cast Gustave kiri-harai --target Wolf --roll 1",
    ),
    "saga poison": ("saga", ["saga battle start"], "saga poison Wolf --roll 1"),
    "saga release": ("saga", ["saga battle start"], "saga release Amy"),
    "saga tech add": (
        "saga",
        [],
        "saga tech add claw --power 30 --attack-count 1 "
        "--random-width 5 --weapon-type enemy --attribute slash --dependent str",
    ),
    "saga turn": ("saga", ["saga battle start"], "saga turn"),
    "saga unit add": ("saga", [], "saga unit add Imp --max-hp 10"),
    "saga wipe": ("saga", ["saga battle start"], "saga wipe"),
}
KEYS = ["seq", "at", "actor", "type", "event", "undone", "changes", "explain", "data", "appended"]


def _appending_commands() -> list[str]:
    """Return the path of every command that appends (it has `--dry-run` and `--request-id`):
    the core ones and every shipped system's (not the test suite's toy system)."""
    ctx = click.Context(cli)
    found = []

    def walk(command: click.Command, path: list[str]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name])  # type: ignore[arg-type]
        elif {"dry_run", "request_id"} <= {p.name for p in command.params}:
            found.append(" ".join(path))

    walk(cli, [])
    return [path for path in found if path.split()[0] != "toy"]


def _campaign_sample(path: str) -> tuple[str, list[str], str] | None:
    """Return the sample of a system's command from its campaign script: no table of this
    module, the script's lines before the first that uses the command, and that line; None
    when the script never uses it."""
    script = CAMPAIGNS / f"{path.split()[0]}.txt"
    if not script.exists():
        return None
    words = path.split()
    lines = [
        line
        for line in script.read_text("utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    for i, line in enumerate(lines):
        if shlex.split(line, comments=True)[: len(words)] == words:
            return ("", lines[:i], line)
    return None


def _samples() -> dict[str, tuple[str, list[str], str]]:
    """SAMPLES and, for each other command of a registered system, its campaign's sample."""
    found = dict(SAMPLES)
    for path in _appending_commands():
        if path not in found and path.split()[0] in systems.REGISTRY:
            sample = _campaign_sample(path)
            if sample is not None:
                found[path] = sample
    return found


EVERY_SAMPLE = _samples()


def test_every_appending_command_has_a_sample() -> None:
    """Every appending command of every system has a sample: a line in SAMPLES or a line of its
    system's campaign script (tests/data/campaigns/<system>.txt) that uses it."""
    assert sorted(set(_appending_commands()) - set(EVERY_SAMPLE)) == []
    assert sorted(set(SAMPLES) - set(_appending_commands())) == []


def _lines(log: Path, text: str) -> list[dict]:
    return [json.loads(line) for line in ok(log, *shlex.split(text)).splitlines()]


@pytest.mark.parametrize("path", sorted(EVERY_SAMPLE))
def test_json_shows_the_events_and_changes(tmp_path: Path, path: str) -> None:
    """`--json --dry-run` and `--json` print one object per event with history --json's keys,
    the event's data and whether it is appended; the appended ones are the log's records."""
    table, before, line = EVERY_SAMPLE[path]
    log = tmp_path / "t.tlog"
    for setup in [*TABLES.get(table, []), *before]:
        ok(log, *shlex.split(setup))
    dry = _lines(log, f"{line} --json --dry-run")
    done = _lines(log, f"{line} --json")
    assert dry and [KEYS] * len(done) == [list(d) for d in done]
    assert [{**d, "at": None, "appended": False} for d in done] == dry
    records = [json.loads(x) for x in ok(log, "log", "--json", "--all").splitlines()]
    by_seq = {r["seq"]: r for r in records}
    assert [
        (by_seq[d["seq"]]["type"], by_seq[d["seq"]]["data"], by_seq[d["seq"]]["at"], "gm")
        for d in done
    ] == [(d["type"], d["data"], d["at"], d["actor"]) for d in done]
    assert all(d["appended"] and d["at"] for d in done)


def test_run_json_prints_each_lines_objects(tmp_path: Path) -> None:
    """`run --json` (docs/COMMANDS.md: every appending command takes it): each line's objects, the
    same as the line's own `--json`; `--dry-run` too, not appended; the head goes to stderr."""
    log = tmp_path / "t.tlog"
    for setup in FATE:
        ok(log, *shlex.split(setup))
    script = tmp_path / "s.txt"
    script.write_text("fate chant Tokiomi\nnote 'the war goes on'\n", encoding="utf-8")
    dry = _lines(log, f"run {script} --json --dry-run")
    done = _lines(log, f"run {script} --json")
    assert [(d["seq"], d["type"], d["data"]) for d in done] == [
        (10, "fate.Chanted", {"name": "Tokiomi"}),
        (11, "core.Noted", {"text": "the war goes on"}),
    ]
    assert all(d["appended"] and d["at"] for d in done)
    assert [{**d, "at": None, "appended": False} for d in done] == dry
    records = [json.loads(x) for x in ok(log, "log", "--json", "--since", "9").splitlines()]
    assert [(r["seq"], r["at"]) for r in records] == [(d["seq"], d["at"]) for d in done]
