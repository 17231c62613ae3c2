"""Control characters never reach other players' terminals (issue 13, item 5): they are refused
where they enter (`--actor`, `--title`, `undo --reason`, a note but for its line breaks and
tabs), and every string printed from a log is escaped, on a terminal or not."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli
from tablelog.rules.core import RuleViolation, check_text, escape_text
from tablelog.store.format import Header
from tablelog.store.log import LogFile
from tests.support import toy
from tests.support.cli import invoke, ok, refused

toy.install()

TOYCLI = str(Path(__file__).resolve().parents[1] / "faults" / "toycli.py")

ERASE = "\x1b[2J\x1b[H"  # erase the screen, cursor home
TITLE = "\x1b]0;pwned\x07"  # OSC: set the window title
FORGED = "mallory\n#9 2026-01-01T00:00:00.000000Z gm core.Noted 'gift'"  # a forged `log` line
UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)  # every character escape_text escapes, but the newline
INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")  # format (Cf): invisible


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A fresh toy log."""
    path = tmp_path / "s.tlog"
    ok(path, "init", "--system", "toy")
    return path


@pytest.mark.parametrize("actor", [FORGED, ERASE + "gm", "gm" + TITLE, "gm\u202e"])
def test_an_actor_with_control_characters_is_refused(log: Path, actor: str) -> None:
    """`--actor` with a newline, ESC, an OSC or a bidi override: exit 2, the log unchanged."""
    before = log.read_bytes()
    result = invoke(log, "note", "x", actor=actor)
    assert result.exit_code == 2
    assert "the actor cannot hold control characters" in result.stderr
    assert UNSAFE.search(result.stderr.rstrip("\n")) is None
    assert log.read_bytes() == before


def test_a_title_with_control_characters_is_refused(tmp_path: Path) -> None:
    """`init --title` with an OSC sequence: CORE-TEXT, exit 1, no log created."""
    path = tmp_path / "t.tlog"
    result = invoke(path, "init", "--system", "toy", "--title", "Fourth war" + TITLE)
    assert (result.exit_code, result.stderr) == (
        1,
        "error: CORE-TEXT: the title cannot hold control characters "
        "(\\u001b in 'Fourth war\\u001b]0;pwned\\u0007')\n",
    )
    assert not path.exists()


def test_a_reason_with_control_characters_is_refused(log: Path) -> None:
    """`undo --reason` with ESC: CORE-TEXT, exit 1, the log unchanged."""
    ok(log, "note", "x")
    err = refused(log, "undo", "--reason", "typo" + ERASE)
    assert err.startswith("error: CORE-TEXT: the reason cannot hold control characters (\\u001b")


def test_a_note_keeps_its_line_breaks_and_refuses_other_controls(log: Path) -> None:
    """A note may have several lines and tabs (escaped when shown: one output line each); ESC,
    CR or a bidi override is refused (CORE-TEXT)."""
    assert ok(log, "note", "rulings:\n\t1. no flanking") == (
        "#1 core.Noted 'rulings:\\n\\t1. no flanking'\n"
    )
    assert ok(log, "log").endswith(" gm core.Noted 'rulings:\\n\\t1. no flanking'\n")
    for text in ("a" + ERASE, "a\rb", "a\u202eb"):
        assert "CORE-TEXT: a note cannot hold control characters" in refused(log, "note", text)


def crafted_log(path: Path, title: str, envelopes: list[tuple[str, dict, str]]) -> Path:
    """A toy log at ``path`` written by a hostile tool: ``title``, then one command for each
    ``(type, data, actor)``, dated a second apart."""
    LogFile.create(str(path), Header("0" * 32, "toy", "2026-01-01T00:00:00.000000Z", 7, title, {}))
    writer = LogFile(str(path))
    writer.scan_all()
    for n, (kind, data, actor) in enumerate(envelopes, start=1):
        assert writer.end is not None
        with writer.lock():
            writer.append(
                [
                    {
                        "type": kind,
                        "v": 1,
                        "at": f"2026-01-01T00:00:0{n}.000000Z",
                        "actor": actor,
                        "data": data,
                        "cmd": n,
                    }
                ],
                writer.end,
                locked=True,
            )
    return path


def hostile_log(tmp_path: Path) -> Path:
    """A log written by a hostile tool: a title with an OSC, a counter whose name erases the
    screen, an actor whose newline forges a `log` line, a note with ESC and C1 controls."""
    return crafted_log(
        tmp_path / "h.tlog",
        "war" + TITLE,
        [
            ("toy.CounterAdded", {"name": "a" + ERASE, "points": 9}, FORGED),
            ("core.Noted", {"text": "hi" + ERASE + "\x9b2J\u202eevil"}, "gm" + TITLE),
        ],
    )


COMMANDS = [
    ("log",),
    ("log", "--all"),
    ("replay",),
    ("history", "a" + ERASE),
    ("state",),
    ("state", "--json"),
    ("log", "--json"),
    ("history", "a" + ERASE, "--json"),
    ("state", "a" + ERASE),
    ("status",),
    ("verify",),
    ("export",),
    ("export", "--format", "csv"),
    ("export", "--format", "csv", "--all"),
    ("report",),
    ("report", "--format", "html"),
    ("report", "--format", "json"),
]


@pytest.mark.parametrize("args", COMMANDS)
def test_strings_from_a_hostile_log_are_escaped(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Every read of the hostile log prints no control character (ESC, C1, bidi, a newline
    inside a line): the forged line stays inside its record's line; JSON stays valid JSON with
    the same strings. Exports and reports too, to stdout or a file (a bidi override and a CSI
    once reached the terminal from `export` and the report's GM notes, ESC from the CSV)."""
    path = hostile_log(tmp_path)
    result = invoke(path, *args)
    if args == ("verify",):  # an actor and a name that entry refuses: a crafted log
        assert (result.exit_code, result.stdout) == (1, "")
        assert "CORE-NAME" in result.stderr and UNSAFE.search(result.stderr) is None
        return
    assert result.exit_code == 0, result.output
    assert UNSAFE.search(result.stdout) is None
    lines = result.stdout.splitlines()
    assert not any(line.startswith("#9 ") for line in lines)  # the forged line is no line
    parsed = [json.loads(line) for line in lines] if "--json" in args else []
    if args == ("log", "--json"):  # the strings are kept exactly, only written as escapes
        assert (parsed[0]["actor"], parsed[0]["data"]["name"]) == (FORGED, "a" + ERASE)
    if args == ("export",):
        assert [json.loads(line) for line in lines][2]["data"]["text"] == (
            "hi" + ERASE + "\x9b2J\u202eevil"
        )


def test_the_forged_line_shows_inside_its_record(tmp_path: Path) -> None:
    """`log` prints exactly one line per record, the actor's newline written as `\\n`."""
    path = hostile_log(tmp_path)
    lines = ok(path, "log").splitlines()
    assert len(lines) == 2
    assert lines[0] == (
        "#1 2026-01-01T00:00:01.000000Z mallory\\n#9 2026-01-01T00:00:00.000000Z "
        "gm core.Noted 'gift' toy.CounterAdded "
        "name='a\\x1b[2J\\x1b[H' points=9"
    )


def test_errors_naming_a_hostile_string_are_escaped(tmp_path: Path) -> None:
    """An error line that names a string from the log or the command line is one line, no
    control characters."""
    path = hostile_log(tmp_path)
    result = invoke(path, "toy", "spend", "a" + ERASE, "50")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and UNSAFE.search(result.stderr) is None


def test_escape_text_writes_json_compatible_escapes() -> None:
    """Newline, tab, CR, backspace and form feed as \\n \\t \\r \\b \\f, the rest as \\uXXXX;
    text without control characters is returned as it is (Korean and Japanese included)."""
    assert escape_text("a\nb\tc\rd\be\ff\x1bg\x9bh\u202ei\x7f") == (
        "a\\nb\\tc\\rd\\be\\ff\\u001bg\\u009bh\\u202ei\\u007f"
    )
    plain = "전사 キリツグ　(full-width space) é"
    assert escape_text(plain) == plain
    assert json.loads(f'"{escape_text(chr(0x1B) + "x" + chr(0x202E))}"') == "\x1bx\u202e"
    check_text("line 1\n\tline 2", "a note", lines=True)


def invisible_log(tmp_path: Path) -> Path:
    """A crafted log whose strings hold invisible format characters that entry refuses: a
    title with a word joiner, a counter named with a BOM, a note by ``Ann\\u200b`` (a
    zero-width space: it looks exactly like Ann)."""
    return crafted_log(
        tmp_path / "i.tlog",
        "war\u2060",
        [
            ("toy.CounterAdded", {"name": "a\ufeff", "points": 9}, "gm"),
            ("core.Noted", {"text": "I give Mallory my sword\u200b"}, "Ann\u200b"),
        ],
    )


@pytest.mark.parametrize("args", [args for args in COMMANDS if args != ("verify",)])
def test_invisible_characters_from_a_crafted_log_are_shown_escaped(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """A zero-width space, a word joiner and a BOM (Unicode format characters, refused by
    `--actor` and in names) are printed as `\\u200b`, `\\u2060`, `\\ufeff` by every read,
    export and report: `Ann\\u200b`'s record never shows as Ann's."""
    path = invisible_log(tmp_path)
    result = invoke(path, *[arg.replace("a" + ERASE, "a\ufeff") for arg in args])
    assert result.exit_code == 0, result.output
    assert INVISIBLE.search(result.stdout) is None
    assert "\\u" in result.stdout


def test_a_log_line_shows_the_invisible_character_of_an_actor(tmp_path: Path) -> None:
    """`log` prints the actor `Ann\\u200b` with its escape, so it does not read as Ann."""
    lines = ok(invisible_log(tmp_path), "log").splitlines()
    assert lines[1] == (
        "#2 2026-01-01T00:00:02.000000Z Ann\\u200b core.Noted 'I give Mallory my sword\\u200b'"
    )


def test_escape_text_escapes_every_format_character() -> None:
    """Every character of Unicode category Cf (what `--actor` refuses) is escaped, the tag
    characters beyond U+FFFF as a JSON surrogate pair; a note refuses them at entry."""
    import sys
    import unicodedata

    for code in range(sys.maxunicode + 1):
        if unicodedata.category(chr(code)) == "Cf":
            assert escape_text(chr(code)) != chr(code), hex(code)
    assert escape_text("Ann\u200b\u2060\ufeff") == "Ann\\u200b\\u2060\\ufeff"
    assert escape_text("\U000e0041") == "\\udb40\\udc41"
    tag = "x\U000e0041"
    assert json.loads(f'"{escape_text(tag)}"') == tag
    with pytest.raises(RuleViolation, match="CORE-TEXT"):
        check_text("a\u200bb", "a note", lines=True)


PATH_ESC = "h\x1b]0;PWN\x07\x1b[2J"  # a file name that retitles the window and erases the screen


def test_a_hostile_path_is_printed_escaped_by_copy(tmp_path: Path) -> None:
    """`copy "$E.tlog" cpy.tlog` of a log with a torn tail, `E=$'h\\x1b]0;PWN\\x07\\x1b[2J'`:
    the warning and `copied … from …` once held the raw ESC and BEL; now their escapes."""
    base = tmp_path / "base.tlog"
    ok(base, "init", "--system", "toy")
    ok(base, "note", "one")
    source = tmp_path / f"{PATH_ESC}.tlog"
    source.write_bytes(base.read_bytes() + b"\0")
    result = CliRunner().invoke(cli, ["copy", str(source), str(tmp_path / "cpy.tlog")])
    assert result.exit_code == 0, result.output
    shown = str(tmp_path / "h\\u001b]0;PWN\\u0007\\u001b[2J.tlog")
    assert result.stderr == (
        f"warning: torn last record at byte {base.stat().st_size} of "
        f"{shown} (a crash mid-append) is not copied\n"
    )
    assert result.stdout.startswith(f"copied 1 records from {shown} to ")


def test_click_usage_errors_print_a_hostile_argument_escaped(log: Path, tmp_path: Path) -> None:
    """`tablelog run "$E"` of a missing file: click's own usage error (through the real entry
    point) names the path with its escapes, not the raw ESC and BEL; exit 2."""
    done = subprocess.run(
        [sys.executable, TOYCLI, "--log", str(log), "run", PATH_ESC],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert UNSAFE.search(done.stderr) is None
    [line] = done.stderr.splitlines()  # one line: click's message, as it formats file names
    assert line.startswith("error: Invalid value for 'SCRIPT': 'h\\u001b]0;PWN\\u0007")
    assert line.endswith("': No such file or directory (see: tablelog run --help)")


@pytest.mark.rule("CORE-NAME")
@pytest.mark.rule("CORE-TEXT")
def test_bytes_that_are_not_utf8_on_the_command_line_are_refused_by_name(tmp_path: Path) -> None:
    """A name, a note or an actor typed in another encoding (Latin-1 ``caf\\xe9``, bytes
    ``\\xff\\xfe``) is refused naming the bytes, CORE-NAME / CORE-TEXT, exit 1 (the actor: a
    usage error, exit 2), the log unchanged; it was CORE-SIZE with Python's codec words."""
    log = tmp_path / "u.tlog"
    environ = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    made = subprocess.run(
        [sys.executable, "-m", "tablelog", "--log", str(log), "init", "--system", "pf2e"],
        capture_output=True,
        timeout=120,
    )
    assert made.returncode == 0
    before = log.read_bytes()
    cases = [
        (["pf2e", "character", "add", b"\xff\xfe"], 1, "CORE-NAME: a name holds", "\\xff\\xfe"),
        (["note", b"caf\xe9"], 1, "CORE-TEXT: a note holds", "caf\\xe9"),
        ([b"--actor", b"\xff", "note", "hi"], 2, "CORE-NAME: the actor holds", "\\xff"),
    ]
    for args, status, said, shown in cases:
        argv = [sys.executable.encode(), b"-m", b"tablelog", b"--log", str(log).encode()]
        argv += [a if isinstance(a, bytes) else a.encode() for a in args]
        if args[0] == b"--actor":
            argv = argv[:3] + argv[5:7] + argv[3:5] + argv[7:]
        done = subprocess.run(argv, capture_output=True, timeout=120, env=environ)
        err = done.stderr.decode()
        assert done.returncode == status, err
        assert f"{said} bytes that are not UTF-8 text: '{shown}'" in err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert log.read_bytes() == before
