"""`report`: each example session's figures and totals, checked against `state --at` and the
log computed here independently; the HTML is well-formed and self-contained, each chart is SVG
with one series per character; the Markdown holds the same figures."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.support.cli import ok, refused

EXAMPLES = {e.stem: e for e in (Path(__file__).resolve().parents[2] / "examples").glob("*.txt")}
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Each example run on a new log: its path, report (json) and `state --at` of every seq."""
    folder = tmp_path_factory.mktemp("report")
    made = {}
    for name, example in EXAMPLES.items():
        log = folder / f"{name}.tlog"
        ok(log, "run", str(example))
        last = json.loads(ok(log, "state", "--json"))["seq"]
        states = [json.loads(ok(log, "state", "--at", str(s), "--json")) for s in range(last + 1)]
        records = [json.loads(line) for line in ok(log, "log", "--json").splitlines()]
        made[name] = {
            "log": log,
            "states": states,
            "records": records,
            "report": json.loads(ok(log, "report", "--format", "json")),
        }
    return made


def numbers(record: dict) -> dict:
    return {k: v for k, v in record.items() if type(v) in (int, float)}


def entities(state: dict) -> dict:
    return {**state["characters"], **state["items"]}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_figures_at_the_start_and_the_end(sessions, name):
    """Start: the numbers in `state --at` of the first seq where the character or item exists;
    end: the numbers in `state --json`."""
    s = sessions[name]
    figures = {f["name"]: f for f in s["report"]["figures"]}
    final = entities(s["states"][-1])
    assert list(final) == [n for n, f in figures.items() if not f["gone"]]
    for entity, f in figures.items():
        first = next(st for st in s["states"] if entity in entities(st))
        assert numbers(entities(first)[entity]) == f["start"]
        assert (numbers(final[entity]) if entity in final else {}) == f["end"]
    gone = [n for n, f in figures.items() if f["gone"]]
    assert (["stone-1"] if name == "pf2e-downtime" else []) == gone  # the cracked runestone


def moves(states: list[dict], figure: str) -> dict[str, list[int]]:
    """Per character: [sum of falls, sum of rises] of ``figure`` from one seq to the next."""
    out: dict[str, list[int]] = {}
    for before, after in zip(states, states[1:], strict=False):
        for n, rec in after["characters"].items():
            old = before["characters"].get(n, {}).get(figure)
            new = rec.get(figure)
            if type(old) in (int, float) and type(new) in (int, float):
                out.setdefault(n, [0, 0])[0 if new < old else 1] += abs(new - old)
    return out


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_gauge_totals_and_damage_taken_from_state_at(sessions, name):
    """HP/MP/LP spent or lost and recovered, and each character's damage taken, are the sums
    of the falls and rises between consecutive `state --at` positions."""
    s = sessions[name]
    totals = dict(s["report"]["totals"])
    for gauge in ("hp", "mp", "lp"):
        found = moves(s["states"], gauge)
        if not found:
            assert f"{gauge.upper()} spent or lost" not in totals
            continue
        assert sum(v[0] for v in found.values()) == totals[f"{gauge.upper()} spent or lost"]
        assert sum(v[1] for v in found.values()) == totals[f"{gauge.upper()} recovered"]
    taken = {n: t for n, _, t in s["report"]["damage"] if t}
    assert {n: v[0] for n, v in moves(s["states"], "hp").items() if v[0]} == taken


def count(records: list[dict], kind: str) -> int:
    return sum(1 for r in records if r["type"] == kind)


def test_headline_totals(sessions):
    """The totals each system's table cares about, counted here from the log and the states."""
    fate, pf2e = sessions["fate-fourth-war"], sessions["pf2e-downtime"]
    mp, saga = sessions["magicpunk-rest-stop"], sessions["saga-wolf-road"]
    assert (
        1
        == count(fate["records"], "fate.PhantasmReleased")
        == dict(fate["report"]["totals"])["NPs released"]
    )
    assert (
        15
        == count(pf2e["records"], "pf2e.RuneEtched")
        == dict(pf2e["report"]["totals"])["runes etched"]
    )
    assert (
        2
        == count(pf2e["records"], "pf2e.RuneTransferred")
        == dict(pf2e["report"]["totals"])["runes moved"]
    )
    spent = sum(c["spent_gp"] for c in pf2e["states"][-1]["characters"].values())
    assert 7498.5 == spent == dict(pf2e["report"]["totals"])["gp spent"]
    played = sum(
        len(r["data"]["cards"]) for r in mp["records"] if r["type"] == "magicpunk.CardsPlayed"
    )
    assert 1 == played == dict(mp["report"]["totals"])["cards played"]
    drawn = sum(
        sum(
            (Counter(c["hand"]) - Counter(before["characters"].get(n, {}).get("hand", []))).values()
        )
        for before, after in zip(mp["states"], mp["states"][1:], strict=False)
        for n, c in after["characters"].items()
    )  # every card that came into a hand between two `state --at`s: draws and circulations
    assert 13 == drawn == dict(mp["report"]["totals"])["cards drawn"]
    casts = len({r["cmd"] for r in saga["records"] if r["type"] == "saga.AttackDamageDealt"})
    assert 7 == casts == dict(saga["report"]["totals"])["techs used"]


def test_damage_dealt_follows_the_hits(sessions):
    """saga: what each unit dealt is the HP its targets lost over each command of its hits
    (`state --at` before and after the command); poison and release name no dealer."""
    s = sessions["saga-wolf-road"]
    hits: dict[int, tuple[str, set[str], int]] = {}  # cmd -> (actor, targets, last seq)
    for r in s["records"]:
        if r["type"] == "saga.AttackDamageDealt":
            actor, targets, _ = hits.get(r["cmd"], (r["data"]["actor"], set(), 0))
            hits[r["cmd"]] = (actor, targets | {r["data"]["target"]}, r["seq"])
    dealt: dict[str, int] = {}
    for first, (actor, targets, last) in hits.items():
        before, after = s["states"][first - 1], s["states"][last]
        lost = sum(before["characters"][t]["hp"] - after["characters"][t]["hp"] for t in targets)
        dealt[actor] = dealt.get(actor, 0) + lost
    assert dealt == {"Gustave": 314, "Amy": 646, "Wolf": 108}
    assert dealt == {n: d for n, d, _ in s["report"]["damage"] if d}
    assert s["report"]["unattributed"] == 240 + 42


def test_timeline_notes_and_who_logged(sessions):
    """One timeline line per command (a five-hit tech is one line), the GM note, the actor."""
    r = sessions["saga-wolf-road"]["report"]
    assert len({rec["cmd"] for rec in sessions["saga-wolf-road"]["records"]}) == len(r["timeline"])
    tenrai = r["timeline"][6]
    assert (tenrai["first"], tenrai["last"], tenrai["events"]) == (7, 11, 5)
    assert [[n[0], n[2], n[3], n[4]] for n in r["notes"]] == [
        [20, "gm", "Gustave calls a combo with Amy (combo rate 150)", False]
    ]
    assert r["actors"] == [["gm", 19]]


def test_until_is_the_report_at_that_point(sessions):
    """`--until SEQ`: the end figures are `state --at SEQ`, the timeline stops there."""
    s = sessions["fate-fourth-war"]
    r = json.loads(ok(s["log"], "report", "--format", "json", "--until", "14"))
    assert 14 == r["seq"] == r["timeline"][-1]["last"]
    for f in r["figures"]:
        assert numbers(entities(s["states"][14])[f["name"]]) == f["end"]
    assert "CORE-SEQ" in refused(s["log"], "report", "--until", "99")


def test_undone_actions_are_marked(tmp_path):
    """An undone action stays in the timeline, marked, and counts in no total."""
    log = tmp_path / "u.tlog"
    ok(log, "run", str(EXAMPLES["magicpunk-rest-stop"]))
    ok(log, "magicpunk", "damage", "Aria", "5")
    ok(log, "undo")
    r = json.loads(ok(log, "report", "--format", "json"))
    hit, undo = r["timeline"][-2:]
    assert (hit["undone"], undo["undone"]) == (True, False)
    assert next(f for f in r["figures"] if f["name"] == "Aria")["end"]["hp"] == 26
    md = ok(log, "report")
    assert "- ~~#16 " in md and "(undone)" in md
    assert 'class=undone><span class="seq">#16</span>' in ok(log, "report", "--format", "html")


class Strict(HTMLParser):
    """Checks that every element is closed in order (void elements excepted)."""

    VOID = {
        "meta",
        "br",
        "img",
        "link",
        "hr",
        "input",
        "path",
        "rect",
        "use",
        "stop",
        "circle",
        "line",
        "polyline",
        "polygon",
        "ellipse",
    }

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_html_is_self_contained_with_one_series_per_character(sessions, name):
    """The page parses with every element closed, loads nothing from outside, and holds one
    SVG chart per gauge (HP, MP, LP …) with one series per character that has it."""
    s = sessions[name]
    page = ok(s["log"], "report", "--format", "html")
    parser = Strict()
    parser.feed(page)
    parser.close()
    assert parser.stack == []
    assert not {"script", "link", "img", "iframe"} & set(parser.tags)
    assert not re.search(r'(src|href)="(https?:)?//', page)
    assert "@media print" in page
    charts = re.findall(r'<figure class="chart" id="chart-(\w+)">(<svg.*?</svg>)', page, re.S)
    characters = s["states"][-1]["characters"]
    gauges = sorted(
        {
            f[:-4]
            for c in characters.values()
            for f in c
            if f.endswith("_max") and type(c.get(f[:-4])) is int
        }
    )
    assert gauges == sorted(g for g, _ in charts)
    for gauge, svg in charts:
        root = ET.fromstring(svg)
        assert root.tag == SVG + "svg"
        series = [g for g in root.iter(SVG + "g") if g.get("id", "").startswith(f"series-{gauge}-")]
        having = [
            n for n, c in characters.items() if type(c.get(gauge)) is int and f"{gauge}_max" in c
        ]
        assert len(having) == len(series)
        legend = {t.text.strip() for t in root.iter(SVG + "text") if t.text}
        assert set(having) <= legend


def test_markdown_holds_the_figures_in_tables(sessions):
    """The Markdown report: title, facts, each figure row, totals; no chart."""
    md = ok(sessions["fate-fourth-war"]["log"], "report")
    assert md.startswith("# Fourth war, night one\n")
    assert "- **system**: fate\n" in md
    assert "### Kiritsugu (character)\n" in md
    assert "| HP | 40 | 20 | −20 |" in md
    assert "| NPs released | 1 |" in md
    assert "<svg" not in md


def test_text_from_the_log_is_escaped(tmp_path):
    """A note with markup and control characters is data in both formats."""
    log = tmp_path / "n.tlog"
    ok(log, "init", "--system", "pf2e", "--title", "<b>*Night*</b> | one")
    ok(log, "note", "<script>alert(1)</script> *bold* | pipe")
    md = ok(log, "report")
    page = ok(log, "report", "--format", "html")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert r"\<script>alert(1)\</script> \*bold\* \| pipe" in md
    assert md.startswith(r"# \<b>\*Night\*\</b> \| one")


def test_a_name_with_markup_is_text_in_the_tables_and_the_charts(tmp_path):
    """A character named `<script>alert(1)</script>` whose HP changes: the HTML page holds no
    `<script` anywhere, its figures table and its chart's legend (SVG) show the name escaped."""
    from tests.support import toy

    toy.install()
    log = tmp_path / "x.tlog"
    name = "<script>alert(1)</script>"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", name, "9")
    ok(log, "toy", "spend", name, "2")
    page = ok(log, "report", "--format", "html")
    assert "<script" not in page
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    assert "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>" in page
