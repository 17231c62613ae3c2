"""Where tables already play (issue 28, docs/INTEROP.md): a character into ccfolia in one paste
(its clipboard JSON), into Udonarium (its zip's data.xml), the session out as a ccfolia room log
read back as the log tools read it, and a ccfolia character back into a log."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from tests.support.cli import ok, refused

EXAMPLES = {
    e.stem.split("-")[0]: e
    for e in sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.txt"))
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each system's example session on a log, with one undone note at its end."""
    folder = tmp_path_factory.mktemp("interop")
    made = {}
    for system, example in EXAMPLES.items():
        log = folder / f"{system}.tlog"
        ok(log, "run", str(example))
        ok(log, "note", "an undone <ruling> & more")
        ok(log, "undo")
        made[system] = log
    return made


def _state(log: Path) -> dict:
    return json.loads(ok(log, "state", "--json"))


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_each_character_is_one_line_of_ccfolia_clipboard_json(logs, system):
    """`export --format ccfolia` prints one clipboard JSON per character: its gauges as status
    with their maximums, its figures as string params, its palette as commands."""
    state = _state(logs[system])
    lines = ok(logs[system], "export", "--format", "ccfolia").splitlines()
    assert len(state["characters"]) == len(lines)
    for line, (name, record) in zip(lines, state["characters"].items(), strict=True):
        pasted = json.loads(line)
        assert ("character", name) == (pasted["kind"], pasted["data"]["name"])
        for bar in pasted["data"]["status"]:
            field = bar["label"].lower()
            assert (record[field], record[f"{field}_max"]) == (bar["value"], bar["max"])
        assert all(isinstance(p["value"], str) for p in pasted["data"]["params"])


def test_a_magicpunk_palette_refers_to_its_params_as_bcdice_reads_them(logs):
    """Aria's palette checks each ability with BCDice's MagicPunk (`1MP{body}`), every `{…}` a
    label of her params, whose value is her ability."""
    [line] = ok(logs["magicpunk"], "export", "--format", "ccfolia", "Aria").splitlines()
    data = json.loads(line)["data"]
    params = {p["label"]: p["value"] for p in data["params"]}
    refs = re.findall(r"\{([^}]+)\}", data["commands"])
    assert {"body", "sense", "intellect", "magic"} == set(refs)
    assert {"body": "8", "sense": "12", "intellect": "10", "magic": "10"} == {
        r: params[r] for r in refs
    }
    assert "1MP{body} body" == data["commands"].splitlines()[0]
    hand = _state(logs["magicpunk"])["characters"]["Aria"]["hand"]
    assert f"hand: {len(hand)} ({' '.join(hand)})" in data["memo"]


def test_an_unknown_name_is_refused_with_a_suggestion(logs):
    """A name that is no character: UNKNOWN-NAME with "did you mean", nothing written."""
    said = refused(logs["magicpunk"], "export", "--format", "ccfolia", "Arya")
    assert "no character named 'Arya'; did you mean Aria?" in said


def test_a_udonarium_zip_holds_data_xml_with_gauges_figures_and_palette(logs, tmp_path):
    """`export --format udonarium Aria` writes the zip Udonarium loads: data.xml parses, HP is a
    numberResource (current 26, max 26), the figures are plain values, the palette's dicebot
    is BCDice's MagicPunk."""
    target = tmp_path / "aria.zip"
    ok(logs["magicpunk"], "export", "--format", "udonarium", "Aria", "-o", str(target))
    with zipfile.ZipFile(target) as archive:
        assert ["data.xml"] == archive.namelist()
        text = archive.read("data.xml").decode("utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<character ')
    root = ET.fromstring(text.split("\n", 1)[1])
    assert "Aria" == root.find(".//data[@name='common']/data[@name='name']").text
    hp = root.find(".//data[@type='numberResource']")
    assert ("HP", "26", "26") == (hp.get("name"), hp.get("currentValue"), hp.text)
    figures = {d.get("name"): d.text for d in root.iterfind(".//data[@name='Figures']/data")}
    assert {"body": "8", "sense": "12", "intellect": "10", "magic": "10"}.items() <= (
        figures.items()
    )
    palette = root.find("chat-palette")
    assert "MagicPunk" == palette.get("dicebot")
    assert palette.text.splitlines()[0] == "1MP{body} body"


def test_udonarium_saves_one_character(logs):
    """Two names (or none) for --format udonarium: a usage error, exit 2."""
    said = refused(logs["magicpunk"], "export", "--format", "udonarium", "Aria", "Bram", status=2)
    assert "saves one character" in said


def _messages(page: str) -> list[tuple[str, str, str, str]]:
    """Read a ccfolia room log as the log tools do: each `<p style="color:…;">` followed by its
    tab, speaker and text lines."""
    lines = page.split("\n")
    assert "    <title>ccfolia - logs</title>" == lines[6]
    found = []
    for i, line in enumerate(lines):
        colour = re.fullmatch(r'<p style="color:(#[0-9a-f]{6});">', line)
        if colour is None:
            continue
        tab = re.fullmatch(r"  <span> \[(\w+)\]</span>", lines[i + 1])
        speaker = re.fullmatch(r"  <span>(.*)</span> :", lines[i + 2])
        assert tab and speaker and lines[i + 3] == "  <span>", lines[i : i + 6]
        found.append((colour.group(1), tab.group(1), speaker.group(1), lines[i + 4].strip()))
    return found


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_the_room_log_has_one_message_per_action_and_leaves_undone_ones_out(logs, system):
    """Every action of the log is one message (tab main, or other for a GM note), its speaker
    the seat that acted in one colour; the undone note is left out, and shown marked with
    --all, escaped."""
    page = ok(logs[system], "export", "--format", "ccfolia-log")
    shown = _messages(page)
    actions = {
        line["cmd"]
        for line in map(json.loads, ok(logs[system], "log", "--json").splitlines())
        if not line["type"].startswith("core.Un") and not line["type"].startswith("core.Re")
    }
    assert len(actions) == len(shown)
    assert {"gm"} == {speaker for _, _, speaker, _ in shown}
    assert len({colour for colour, _, _, _ in shown}) == 1
    assert not any("undone" in text for _, _, _, text in shown)
    every = _messages(ok(logs[system], "export", "--format", "ccfolia-log", "--all"))
    assert ("other", "[undone] &#x27;an undone &lt;ruling&gt; &amp; more&#x27;") in {
        (tab, text) for _, tab, _, text in every
    }


def test_a_ccfolia_character_comes_back_as_its_add_command(logs, tmp_path):
    """Aria exported for ccfolia and read back by import-ccfolia is her `character add` line;
    with --run it adds her to another log with the same figures."""
    pasted = tmp_path / "aria.json"
    pasted.write_text(
        ok(logs["magicpunk"], "export", "--format", "ccfolia", "Aria"), encoding="utf-8"
    )
    target = tmp_path / "new.tlog"
    ok(target, "init", "--system", "magicpunk")
    line = ok(target, "import-ccfolia", str(pasted)).strip()
    assert (
        "magicpunk character add Aria --body 8 --sense 12 --intellect 10 --magic 10 --hp 26 "
        "--money 3000"
    ) == line
    ok(target, "import-ccfolia", str(pasted), "--run")
    aria = _state(target)["characters"]["Aria"]
    assert (8, 12, 10, 10, 26) == tuple(
        aria[k] for k in ("body", "sense", "intellect", "magic", "hp_max")
    )


def test_a_ccfolia_character_missing_a_field_is_refused_naming_it(tmp_path):
    """A character without the body a magicpunk character needs: CORE-IMPORT naming body and
    the option; nothing appended."""
    log = tmp_path / "m.tlog"
    ok(log, "init", "--system", "magicpunk")
    pasted = tmp_path / "c.json"
    data = {"name": "Mina", "status": [{"label": "HP", "value": 12, "max": 15}], "params": []}
    pasted.write_text(json.dumps({"kind": "character", "data": data}), encoding="utf-8")
    said = refused(log, "import-ccfolia", str(pasted), "--run")
    assert "CORE-IMPORT: Mina: no body in its status or params" in said
    assert "(--body)" in said


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json", "not ccfolia's clipboard JSON"),
        ('{"kind": "item", "data": {}}', "not a ccfolia character"),
    ],
)
def test_what_is_not_a_clipboard_character_is_a_usage_error(tmp_path, text, words):
    log = tmp_path / "m.tlog"
    ok(log, "init", "--system", "magicpunk")
    pasted = tmp_path / "c.json"
    pasted.write_text(text, encoding="utf-8")
    assert words in refused(log, "import-ccfolia", str(pasted), status=2)


def test_the_room_log_is_streamed_to_a_file(logs, tmp_path):
    """`-o` writes the same page (the export streams: memory flat, bench/exports.py)."""
    target = tmp_path / "log.html"
    ok(logs["pf2e"], "export", "--format", "ccfolia-log", "-o", str(target))
    assert target.read_text(encoding="utf-8") == ok(
        logs["pf2e"], "export", "--format", "ccfolia-log"
    )
