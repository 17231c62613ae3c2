"""Where tables already play (issue 28, docs/INTEROP.md): a character into ccfolia in one paste
(its clipboard JSON), into Udonarium (its zip's data.xml), the session out as a ccfolia room log
read back as the log tools read it, and a ccfolia character back into a log."""

from __future__ import annotations

import html
import json
import re
import shlex
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from tablelog.events.core import MARKERS
from tests.support.cli import ok, refused

EXAMPLES = {
    e.stem.split("-")[0]: e
    for e in sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.txt"))
}


SECOND = "mika"
"""The second speaker of every log (the GM, ``gm``, is the first)."""


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each system's example session on a log, then a note by a second speaker (mika) and one
    undone note at its end."""
    folder = tmp_path_factory.mktemp("interop")
    made = {}
    for system, example in EXAMPLES.items():
        log = folder / f"{system}.tlog"
        ok(log, "run", str(example))
        ok(log, "note", "the table <agrees>", actor=SECOND)
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
    assert {r: params[r] for r in refs} == {
        "body": "8",
        "sense": "12",
        "intellect": "10",
        "magic": "10",
    }
    assert data["commands"].splitlines()[0] == "1MP{body} body"
    hand = _state(logs["magicpunk"])["characters"]["Aria"]["hand"]
    assert f"hand: {len(hand)} ({' '.join(hand)})" in data["memo"]


def test_an_unknown_name_is_refused_with_a_suggestion(logs):
    """A name that is no character: UNKNOWN-NAME with "did you mean", nothing written."""
    said = refused(logs["magicpunk"], "export", "--format", "ccfolia", "Arya")
    assert "no character named 'Arya'; did you mean Aria?" in said


def _tree(element: ET.Element) -> tuple:
    """An element as ``(tag, attributes, text, children)``: whitespace between elements is no
    text."""
    text = element.text if element.text and element.text.strip() else ""
    return (element.tag, dict(element.attrib), text, [_tree(child) for child in element])


def _data(name: str, text: str = "", kind: str | None = None, **more: str) -> tuple:
    attributes = {"type": kind, **more, "name": name} if kind else {"name": name}
    return ("data", attributes, text, [])


def _udonarium(log: Path, name: str, lang: str, target: Path) -> str:
    ok(log, "--lang", lang, "export", "--format", "udonarium", name, "-o", str(target))
    with zipfile.ZipFile(target) as archive:
        assert archive.namelist() == ["data.xml"]
        return archive.read("data.xml").decode("utf-8")


@pytest.mark.parametrize("name", ["Aria", "Bram"])
def test_a_udonarium_zip_holds_every_value_of_the_character(logs, tmp_path, name):
    """`export --format udonarium NAME` writes the zip Udonarium loads; its data.xml, parsed
    back, is exactly: the name and size 1, an empty image, HP as a numberResource (current and
    max from the state), every figure and skill with its value (money too), the memo (items
    and hand with their cards) as a note, and every palette line, dicebot MagicPunk."""
    record = _state(logs["magicpunk"])["characters"][name]
    text = _udonarium(logs["magicpunk"], name, "en", tmp_path / "c.zip")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<character ')
    figures = [
        _data({"spell_money": "Spell money"}.get(field, field), str(record[field]))
        for field in ("body", "sense", "intellect", "magic", "money", "spell_money")
    ] + [_data(skill, rank) for skill, rank in record["skills"].items()]
    memo = ([f"items: {' '.join(record['items'])}"] if record["items"] else []) + [
        f"hand: {len(record['hand'])} ({' '.join(record['hand'])})"
    ]
    hp = _data("HP", str(record["hp_max"]), "numberResource", currentValue=str(record["hp"]))
    palette = [f"1MP{{{a}}} {a}" for a in ("body", "sense", "intellect", "magic")]
    sheet = [
        ("data", {"name": "image"}, "", [_data("imageIdentifier", "", "image")]),
        ("data", {"name": "common"}, "", [_data("name", name), _data("size", "1")]),
        (
            "data",
            {"name": "detail"},
            "",
            [
                ("data", {"name": "Resources"}, "", [hp]),
                ("data", {"name": "Figures"}, "", figures),
                ("data", {"name": "Information"}, "", [_data("Memo", "\n".join(memo), "note")]),
            ],
        ),
    ]
    place = {"rotate": "0", "roll": "0", "location.name": "table", "location.x": "0"}
    place |= {"location.y": "0", "posZ": "0"}
    assert (
        "character",
        place,
        "",
        [
            ("data", {"name": "character"}, "", sheet),
            (
                "chat-palette",
                {"dicebot": "MagicPunk"},
                "\n".join([*palette, f"tablelog magicpunk draw {name} 1"]),
                [],
            ),
        ],
    ) == _tree(ET.fromstring(text.split("\n", 1)[1]))


@pytest.mark.parametrize(
    ("lang", "bot", "hp", "money", "memo", "palette"),
    [
        ("ja", "MagicPunk", "HP", "所持金", "手札: {n}枚（{cards}）", "1MP{身体} 身体"),
        ("ko", "MagicPunk:Korean", "HP", "소지금", "손패: {n}장({cards})", "1MP{신체} 신체"),
    ],
)
def test_a_udonarium_zip_reads_in_the_exporting_language(
    logs, tmp_path, lang, bot, hp, money, memo, palette
):
    """In Japanese and Korean the labels, the memo and the palette are the reader's and the
    dicebot is BCDice's id for that language; the values are the same."""
    bram = _state(logs["magicpunk"])["characters"]["Bram"]
    root = ET.fromstring(_udonarium(logs["magicpunk"], "Bram", lang, tmp_path / "b.zip"))
    gauge = root.find(".//data[@type='numberResource']")
    assert (hp, str(bram["hp"]), str(bram["hp_max"])) == (
        gauge.get("name"),
        gauge.get("currentValue"),
        gauge.text,
    )
    assert str(bram["money"]) == root.find(f".//data[@name='{money}']").text
    cards = " ".join(bram["hand"])
    assert memo.format(n=len(bram["hand"]), cards=cards) == root.find(".//data[@type='note']").text
    assert (bot, palette) == (
        root.find("chat-palette").get("dicebot"),
        root.find("chat-palette").text.splitlines()[0],
    )


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_every_udonarium_character_holds_what_its_ccfolia_paste_holds(logs, tmp_path, system):
    """For every character of every system, the Udonarium zip holds each bar (current and
    max), each figure, the memo and the palette of its ccfolia paste, and no other value; the
    dicebot is DiceBot where BCDice lacks the system."""
    lines = ok(logs[system], "export", "--format", "ccfolia").splitlines()
    for line in lines:
        data = json.loads(line)["data"]
        root = ET.fromstring(_udonarium(logs[system], data["name"], "en", tmp_path / "c.zip"))
        bars = [
            (d.get("name"), d.get("currentValue"), d.text)
            for d in root.iterfind(".//data[@name='Resources']/data")
        ]
        assert [(b["label"], str(b["value"]), str(b["max"])) for b in data["status"]] == bars
        figures = [
            (d.get("name"), d.text or "") for d in root.iterfind(".//data[@name='Figures']/data")
        ]
        assert [(p["label"], p["value"]) for p in data["params"]] == figures
        assert data["memo"] == (root.find(".//data[@type='note']").text or "")
        palette = root.find("chat-palette")
        assert data.get("commands", "") == (palette.text or "")
        assert ("MagicPunk" if system == "magicpunk" else "DiceBot") == palette.get("dicebot")
        details = root.find(".//data[@name='detail']")
        assert {"Resources", "Figures", "Information"} >= {d.get("name") for d in details}


def test_udonarium_saves_one_character(logs):
    """Two names (or none) for --format udonarium: a usage error, exit 2."""
    said = refused(logs["magicpunk"], "export", "--format", "udonarium", "Aria", "Bram", status=2)
    assert "saves one character" in said


def _messages(page: str) -> list[tuple[str, str, str, str]]:
    """Read a ccfolia room log as the log tools do: each `<p style="color:…;">` followed by its
    tab, speaker and text lines."""
    lines = page.split("\n")
    assert lines[6] == "    <title>ccfolia - logs</title>"
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


def _told(log: Path) -> list[tuple[str, str, str]]:
    """Each action of a log as ``(tab, speaker, text)``, read from `log` (each record's line as
    the table's language says it) and `log --json` (its command, actor and undone flag):
    undone records and undo/redo markers left out, a command's lines joined by `<br>`."""
    said = {}
    for line in ok(log, "log").splitlines():
        found = re.fullmatch(r"#(\d+) \S+ \S+ \S+ (.*)", line)
        assert found, line
        said[int(found.group(1))] = found.group(2)
    told: dict[int, tuple[str, str, list[str]]] = {}
    for record in map(json.loads, ok(log, "log", "--json").splitlines()):
        if record["undone"] or record["type"] in MARKERS:
            continue
        tab = "other" if record["type"] in ("core.Noted", "core.NotedAbout") else "main"
        told.setdefault(record["cmd"], (tab, record["actor"], []))[2].append(said[record["seq"]])
    return [
        (tab, who, "<br>".join(html.escape(t) for t in lines)) for tab, who, lines in told.values()
    ]


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_the_room_log_has_each_action_as_its_own_message(logs, system):
    """Every action of the log is one message, in order: tab main (other for a note), its
    speaker the seat that acted, its text the action's lines as `log` says them; the undone
    note is left out."""
    shown = _messages(ok(logs[system], "export", "--format", "ccfolia-log"))
    assert _told(logs[system]) == [(tab, who, text) for _, tab, who, text in shown]
    assert not any("undone" in text for _, _, _, text in shown)


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_two_speakers_have_two_colours_the_same_in_every_export(logs, system):
    """gm and mika each speak in one colour of ccfolia's palette, not the same one, and the
    same colour in every export (every system's log, every language)."""
    colours: dict[str, set[str]] = {}
    for lang in ("en", "ja"):
        page = ok(logs[system], "--lang", lang, "export", "--format", "ccfolia-log")
        for colour, _, speaker, _ in _messages(page):
            colours.setdefault(speaker, set()).add(colour)
    assert {"gm": {"#6d4c41"}, SECOND: {"#546e7a"}} == colours


def test_the_room_log_marks_undone_actions_with_all(logs):
    """With --all the undone note is there, marked and escaped, on the other tab."""
    every = _messages(ok(logs["fate"], "export", "--format", "ccfolia-log", "--all"))
    assert ("other", "[undone] &#x27;an undone &lt;ruling&gt; &amp; more&#x27;") in {
        (tab, text) for _, tab, _, text in every
    }


ADDS = re.compile(r"(fate (master|servant)|magicpunk character|pf2e character|saga unit) add ")


MORE = {
    "fate": [
        "fate master add Kayneth --quality A --quantity A --crest A --attribute wind "
        "--attribute water --hp 40 --mp 50 --cc-budget 30 --stored attack=2 --stored heal=1 "
        "--character-grade 2 --anti-magic C --row back",
        "fate servant add Berserker --hp 90 --mp 50 --madness B --np-budget 12",
    ],
    "magicpunk": [
        "magicpunk character add Cyd --body 9 --sense 9 --intellect 14 --magic 12 --hp 22 "
        "--skill lore=master",
    ],
    "pf2e": [
        "pf2e character add Seelah --level 3 --crafting trained",
        "pf2e character add Ezren --level 5 --crafting expert --no-magical-crafting",
    ],
    "saga": [
        "saga unit add Kat --max-hp 200 --hp 150 --lp 8 --trait attack/slash=5 "
        "--weapon 1h-sword=30 --weapon 1h-sword=20 --formation-attack 10 "
        "--formation-defense -5 --guard-rate 5 --five fire=3 --resist heat=40",
        "saga unit add Ogre --enemy --max-hp 900 --hp-floor-rate 50 --battle-rank 10",
    ],
}
"""Characters beyond the examples', with every option their add command takes."""


def _example_cast(system: str, log: Path, more: bool = False) -> dict:
    """A new log holding only the characters an example adds (as their add lines make them),
    and with ``more`` those of :data:`MORE`: its state's characters."""
    ok(log, "init", "--system", system)
    lines = EXAMPLES[system].read_text(encoding="utf-8").splitlines()
    for line in [line for line in lines if ADDS.match(line)] + (MORE[system] if more else []):
        ok(log, *shlex.split(line))
    return _state(log)["characters"]


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_each_example_character_comes_back_from_ccfolia_field_by_field(tmp_path, system, lang):
    """Every character an example adds (and those of MORE), exported for ccfolia (labels in
    LANG) and imported with --run into a new log, has the very record it had: every field,
    every value."""
    cast = _example_cast(system, tmp_path / "a.tlog", more=True)
    pasted = tmp_path / "cast.json"
    pasted.write_text(
        ok(tmp_path / "a.tlog", "--lang", lang, "export", "--format", "ccfolia"), encoding="utf-8"
    )
    target = tmp_path / "b.tlog"
    ok(target, "init", "--system", system)
    ok(target, "import-ccfolia", str(pasted), "--run")
    back = _state(target)["characters"]
    assert list(cast) == list(back)
    for name, record in cast.items():
        assert record == back[name], name


def test_a_ccfolia_character_comes_back_as_its_add_command(tmp_path):
    """Bram read back by import-ccfolia is his example's `character add` line, skills too."""
    _example_cast("magicpunk", tmp_path / "a.tlog")
    pasted = tmp_path / "bram.json"
    pasted.write_text(ok(tmp_path / "a.tlog", "export", "--format", "ccfolia", "Bram"))
    target = tmp_path / "new.tlog"
    ok(target, "init", "--system", "magicpunk")
    assert ok(target, "import-ccfolia", str(pasted)) == (
        "magicpunk character add Bram --body 14 --sense 10 --intellect 8 --magic 8 --hp 34 "
        "--money 2500 --skill swordplay=expert --skill first-aid=novice\n"
    )


def _pasted(tmp_path: Path, system: str, name: str, change) -> tuple[Path, Path]:
    """An example character's clipboard JSON changed by ``change(data)``, and a new log."""
    _example_cast(system, tmp_path / "a.tlog")
    line = ok(tmp_path / "a.tlog", "export", "--format", "ccfolia", name)
    pasted = json.loads(line)
    change(pasted["data"])
    path = tmp_path / "c.json"
    path.write_text(json.dumps(pasted), encoding="utf-8")
    target = tmp_path / "new.tlog"
    ok(target, "init", "--system", system)
    return path, target


def _param(label: str, value: str):
    return lambda data: data["params"].append({"label": label, "value": value})


def _hurt(data: dict) -> None:
    data["status"][0]["value"] -= 6


def _memo(line: str):
    return lambda data: data.update(memo=f"{data['memo']}\n{line}")


def _palette(line: str):
    return lambda data: data.update(commands=f"{data.get('commands', '')}\n{line}")


@pytest.mark.parametrize(
    ("system", "name", "change", "said"),
    [
        ("magicpunk", "Bram", _param("luck", "5"), "Bram: luck '5' is nothing a magicpunk"),
        ("magicpunk", "Bram", _hurt, "Bram: HP '28/34' cannot be carried: magicpunk character add"),
        ("magicpunk", "Bram", _memo("hand: 2 (S3 H4)"), "Bram: hand '2 (S3 H4)' cannot be"),
        ("magicpunk", "Bram", _memo("a cheerful rogue"), "Bram: memo 'a cheerful rogue' is"),
        ("magicpunk", "Bram", _palette("2d6+{luck}"), "Bram: commands '2d6+{luck}' cannot"),
        ("pf2e", "Valeros", _memo("formulas: striking"), "Valeros: formulas 'striking' cannot"),
        ("pf2e", "Kyra", _param("spent_gp", "40"), "Kyra: spent_gp '40' cannot be carried"),
        ("fate", "Kiritsugu", _hurt, "Kiritsugu: HP '34/40' cannot be carried: fate master add"),
        ("fate", "Saber", _palette("tablelog fate release Saber excalibur"), "Saber: commands"),
        ("saga", "Amy", lambda d: d["status"][1].update(value=5), "Amy: LP '5/9' cannot be"),
        ("saga", "Amy", lambda d: d.update(initiative=12), "Amy: initiative '12' is nothing"),
        ("saga", "Amy", lambda d: d.update(externalUrl="https://x"), "Amy: externalUrl"),
    ],
)
def test_a_ccfolia_value_no_add_line_carries_is_refused_naming_it(
    tmp_path, system, name, change, said
):
    """A pasted value the add line cannot give the character (an unknown param, a current
    value below its maximum, a hand, a free memo line, a palette line of its own, an
    initiative) is CORE-IMPORT naming its label and value; nothing is appended with --run."""
    pasted, target = _pasted(tmp_path, system, name, change)
    assert f"CORE-IMPORT: {said}" in refused(target, "import-ccfolia", str(pasted), "--run")
    assert f"CORE-IMPORT: {said}" in refused(target, "import-ccfolia", str(pasted))


def test_a_hurt_saga_unit_comes_back_hurt(tmp_path):
    """Saga's add takes the current HP: Gustave pasted at 300 of 320 comes back at 300."""
    pasted, target = _pasted(
        tmp_path, "saga", "Gustave", lambda d: d["status"][0].update(value=300)
    )
    ok(target, "import-ccfolia", str(pasted), "--run")
    assert tuple(_state(target)["characters"]["Gustave"][k] for k in ("hp", "hp_max")) == (300, 320)


def test_a_paste_is_added_whole_or_not_at_all(tmp_path):
    """Two characters pasted where the second's name is taken: the refusal comes before
    anything is appended, the first one included (--run appends all of them or none)."""
    _example_cast("magicpunk", tmp_path / "a.tlog")
    pasted = tmp_path / "cast.json"
    pasted.write_text(ok(tmp_path / "a.tlog", "export", "--format", "ccfolia"), encoding="utf-8")
    target = tmp_path / "new.tlog"
    ok(target, "init", "--system", "magicpunk")
    ok(
        target,
        "magicpunk",
        "character",
        "add",
        "Bram",
        *["--body", "1", "--sense", "1"],
        *["--intellect", "1", "--magic", "1", "--hp", "5"],
    )
    said = refused(target, "import-ccfolia", str(pasted), "--run")
    assert "Bram" in said
    assert list(_state(target)["characters"]) == ["Bram"]


def test_a_value_its_option_does_not_take_is_a_core_import_refusal(tmp_path):
    """A body of "eight" makes a line whose --body is no number: CORE-IMPORT naming the line
    and click's reason, exit 1, nothing appended."""
    pasted, target = _pasted(
        tmp_path, "magicpunk", "Aria", lambda d: d["params"][0].update(value="eight")
    )
    said = refused(target, "import-ccfolia", str(pasted), "--run")
    assert (
        "CORE-IMPORT: Aria: its values make the line 'magicpunk character add Aria --body eight"
        in said
    )
    assert "Invalid value for '--body': 'eight' is not a valid integer." in said


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
