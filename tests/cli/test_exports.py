"""`export` and `import`: jsonl round trips byte for byte, edited or truncated exports are
refused naming the line (nothing created), csv rows are the values each event changed."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.support.cli import invoke, ok, refused

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.txt"))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each example session run on a new log, with an undo and a redo at its end."""
    folder = tmp_path_factory.mktemp("examples")
    made = {}
    for example in EXAMPLES:
        log = folder / f"{example.stem}.tlog"
        ok(log, "run", str(example))
        ok(log, "note", 'a ruling, with "quotes", commas and a tab\there')
        ok(log, "undo")
        made[example.stem] = log
    return made


def export(log: Path, *args: str) -> str:
    return ok(log, "export", *args)


@pytest.mark.parametrize("name", [e.stem for e in EXAMPLES])
def test_import_rebuilds_the_log_byte_for_byte(logs, tmp_path, name):
    """An example's export imports as a log with the very same bytes, which verifies."""
    (tmp_path / "s.jsonl").write_text(export(logs[name]), encoding="utf-8")
    copy = tmp_path / "copy.tlog"
    out = ok(copy, "import", str(tmp_path / "s.jsonl"))
    assert logs[name].read_bytes() == copy.read_bytes()
    assert "hash chain intact, replays" in out
    assert "ok:" in ok(copy, "verify")


def test_export_lines_are_log_json_all_after_a_header(logs):
    """Line 1 is the header (records and final chain hash); then `log --json --all`, line by
    line, with every envelope key as stored (prev in hex) and the undone marks."""
    log = logs["pf2e-downtime"]
    lines = export(log).splitlines()
    head = json.loads(lines[0])["header"]
    assert (head["system"], head["title"], head["format"]) == ("pf2e", "Downtime in Otari", 2)
    assert lines[1:] == ok(log, "log", "--json", "--all").splitlines()
    records = [json.loads(line) for line in lines[1:]]
    assert head["records"] == len(records) == records[-1]["seq"]
    assert [records[-1]["undone"], records[-2]["undone"]] == [False, True]  # the undo, the note
    assert records[0]["cmd"] == 1 and len(records[0]["prev"]) == 32


def test_export_to_a_file_and_import_with_log_after_the_command(logs, tmp_path):
    """`export -o FILE` writes the file; `import FILE --log NEW` (SPEC's order) creates NEW."""
    target = tmp_path / "out.jsonl"
    assert export(logs["fate-fourth-war"], "-o", str(target)) == ""
    result = invoke(
        tmp_path / "unused.tlog", "import", str(target), "--log", str(tmp_path / "new.tlog")
    )
    assert result.exit_code == 0, result.output
    assert logs["fate-fourth-war"].read_bytes() == (tmp_path / "new.tlog").read_bytes()
    assert not (tmp_path / "unused.tlog").exists()


def edited(text: str, line: int, old: str, new: str) -> str:
    lines = text.splitlines()
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return "\n".join(lines) + "\n"


def refuse(tmp_path: Path, text: str | bytes) -> str:
    """Import ``text`` (or raw bytes); it must be refused (exit 1) and create nothing beside it."""
    source = tmp_path / "bad.jsonl"
    source.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    before = sorted(p.name for p in tmp_path.iterdir())
    err = refused(tmp_path / "new.tlog", "import", str(source))
    assert before == sorted(p.name for p in tmp_path.iterdir())
    assert err.endswith("; nothing created\n") and err.startswith("error: CORE-IMPORT: ")
    return err


@pytest.mark.rule("CORE-IMPORT")
def test_an_edited_record_is_refused_naming_its_line(logs, tmp_path):
    """Changing a figure in record #24 (line 25) breaks the chain hash line 26 holds."""
    text = export(logs["pf2e-downtime"])
    err = refuse(tmp_path, edited(text, 25, '"price_cp": 6500', '"price_cp": 650'))
    assert (
        "bad.jsonl line 25: edited: it does not hash to the chain hash (prev) that line 26 "
        "holds" in err
    )


@pytest.mark.rule("CORE-IMPORT")
def test_an_edited_header_last_line_or_undone_mark_is_refused(logs, tmp_path):
    """The header (line 1), the last record (checked against the header's chain hash) and an
    undone mark that the markers contradict are each named."""
    text = export(logs["saga-wolf-road"])
    last = len(text.splitlines())
    assert "line 1: edited" in refuse(tmp_path, edited(text, 1, "Wolf on the road", "Wolf"))
    assert (
        f"line {last}: edited: it does not hash to the chain hash that the header holds"
        in refuse(tmp_path, edited(text, last, '"reason": ""', '"reason": "x"'))
    )
    err = refuse(tmp_path, edited(text, 7, '"undone": false', '"undone": true'))
    assert (
        "line 7: marked undone true, but the log's undo and redo markers leave record #6 "
        "active" in err
    )


@pytest.mark.rule("CORE-IMPORT")
def test_a_truncated_or_reordered_export_is_refused(logs, tmp_path):
    """A cut export names the line where the next record belongs; a dropped line, the line
    whose seq is out of place; garbage, the line that is not JSON."""
    lines = export(logs["magicpunk-rest-stop"]).splitlines(keepends=True)
    total = len(lines) - 1
    err = refuse(tmp_path, "".join(lines[:10]))
    assert (
        f"line 11: missing: the export ends after record #9 but its header says {total} "
        "records (a truncated export)" in err
    )
    err = refuse(tmp_path, "".join(lines[:5] + lines[6:]))
    assert "line 6: record #6 where #5 belongs (a line was removed, added or moved)" in err
    assert "line 3: not a record line" in refuse(tmp_path, "".join(lines[:2] + ["{oops\n"]))
    assert "line 1: empty file" in refuse(tmp_path, "")


def test_import_never_overwrites(logs, tmp_path):
    """An existing NEW is refused as a log that cannot be used (exit 3), left as it was."""
    (tmp_path / "s.jsonl").write_text(export(logs["fate-fourth-war"]), encoding="utf-8")
    existing = tmp_path / "new.tlog"
    existing.write_bytes(b"keep me")
    err = refused(existing, "import", str(tmp_path / "s.jsonl"), status=3)
    assert "already exists; refusing to overwrite it" in err


def test_export_of_a_missing_log_is_exit_3(tmp_path):
    """No log: exit 3 and nothing written."""
    result = invoke(tmp_path / "none.tlog", "export", "-o", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 3
    assert not (tmp_path / "x.jsonl").exists()


# -- csv -----------------------------------------------------------------------------------


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def cell(value: object) -> str:
    """A value as the export writes it: text as is (after a ' when it starts like a formula:
    = + - @), None empty, anything else as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return f"'{value}" if value[:1] in ("=", "+", "-", "@") else value
    return json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("name", ["magicpunk-rest-stop", "pf2e-downtime"])
def test_csv_rows_are_each_entitys_history(logs, name):
    """Read back with the csv module, the rows of each character and item are exactly its
    `history --json` changes (seq, field, old, new, rules), in order."""
    table = rows(export(logs[name], "--format", "csv"))
    assert table[0] == ["seq", "at", "actor", "type", "entity", "field", "old", "new", "rules"]
    state = json.loads(ok(logs[name], "state", "--json"))
    for entity in [*state["characters"], *state["items"]]:
        expected = [
            [
                str(e["seq"]),
                e["at"],
                e["actor"],
                e["type"],
                entity,
                c["field"],
                cell(c["old"]),
                cell(c["new"]),
            ]
            for line in ok(logs[name], "history", entity, "--json").splitlines()
            for e in [json.loads(line)]
            for c in e["changes"]
        ]
        assert expected == [r[:8] for r in table[1:] if r[4] == entity]


def test_csv_quotes_lists_and_keeps_crlf(logs, tmp_path):
    """Lists are JSON in one quoted cell; rows end in CRLF (RFC 4180), UTF-8; a rule is named."""
    export(logs["magicpunk-rest-stop"], "--format", "csv", "-o", str(tmp_path / "s.csv"))
    data = (tmp_path / "s.csv").read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") > 1
    text = data.decode("utf-8")
    table = rows(text)
    drawn = [r for r in table if r[3] == "magicpunk.CardsDrawn" and r[5] == "hand"]
    assert [drawn[0][4], drawn[0][6], drawn[0][7]] == ["Aria", "[]", '["AS", "7H", "JK1", "3C"]']
    assert '"[""AS"", ""7H"", ""JK1"", ""3C""]"' in text
    pulled = [r for r in table if r[3] == "magicpunk.DamageTaken"]
    assert pulled[0][4:9] == ["Bram", "hp", "34", "0", "MP-PULL-1 MP-COVER-1"]


def test_csv_all_marks_undone_actions(logs):
    """Without --all the undone note's action is left out; with it, rows carry `undone`."""
    log = logs["fate-fourth-war"]
    plain = rows(export(log, "--format", "csv"))
    every = rows(export(log, "--format", "csv", "--all"))
    assert every[0][-1] == "undone"
    assert all(len(r) == 9 for r in plain) and all(len(r) == 10 for r in every)
    assert {"false"} == {r[-1] for r in every[1:]}  # the undone note changed nothing


def test_csv_leaves_out_an_undone_action_or_marks_it_with_all(tmp_path):
    """Aria takes 5 damage (#16, hp 26 -> 21), then the GM undoes it (#17): the plain csv has
    neither; with --all #16's row is marked true and the undo's row (hp 21 -> 26) false."""
    log = tmp_path / "u.tlog"
    ok(log, "run", str(next(e for e in EXAMPLES if e.stem == "magicpunk-rest-stop")))
    ok(log, "magicpunk", "damage", "Aria", "5")
    ok(log, "undo")
    plain = rows(export(log, "--format", "csv"))
    assert not [r for r in plain[1:] if int(r[0]) >= 16]
    every = rows(export(log, "--format", "csv", "--all"))
    assert plain[1:] == [r[:-1] for r in every[1:] if int(r[0]) < 16]
    assert [[r[0], *r[3:8], r[9]] for r in every[1:] if int(r[0]) >= 16] == [
        ["16", "magicpunk.DamageTaken", "Aria", "hp", "26", "21", "true"],
        ["17", "core.Undone", "Aria", "hp", "21", "26", "false"],
    ]


FROZEN = sorted((Path(__file__).resolve().parents[1] / "data" / "frozen").rglob("*.tlog"))


@pytest.mark.parametrize("frozen", FROZEN, ids=[p.name for p in FROZEN])
def test_frozen_logs_of_every_format_round_trip(frozen, tmp_path):
    """The frozen logs (format 1 without command ids, format 2 with them) export and import to
    the same bytes, in their own format."""
    log = tmp_path / frozen.name
    log.write_bytes(frozen.read_bytes())
    (tmp_path / "f.jsonl").write_text(export(log), encoding="utf-8")
    assert (
        frozen.read_bytes()[9]
        == json.loads((tmp_path / "f.jsonl").read_text().splitlines()[0])["header"]["format"]
    )
    ok(tmp_path / "copy.tlog", "import", str(tmp_path / "f.jsonl"))
    assert frozen.read_bytes() == (tmp_path / "copy.tlog").read_bytes()


@pytest.mark.rule("CORE-IMPORT")
def test_an_overlong_line_is_refused_before_it_is_read_whole(logs, tmp_path):
    """A line longer than any record's JSON is refused, naming it."""
    head = export(logs["fate-fourth-war"]).splitlines()[0]
    err = refuse(tmp_path, head + "\n" + "x" * (8 * 2**20 + 10) + "\n")
    assert "line 2: longer than 8388608 bytes" in err


@pytest.mark.rule("CORE-IMPORT")
def test_bytes_that_are_not_utf8_are_refused_naming_their_line(logs, tmp_path):
    """An export damaged in transit (a Latin-1 'é', byte 0xe9, in record #20's actor, past the
    first 8 KiB) is refused naming line 21 and the byte, from a file and from stdin; nothing
    is created (it was a traceback)."""
    from click.testing import CliRunner

    from tablelog.cli.main import cli

    lines = export(logs["saga-wolf-road"]).encode("utf-8").splitlines(keepends=True)
    assert len(b"".join(lines[:20])) > 8192
    lines[20] = lines[20].replace(b'"actor": "gm"', b'"actor": "g\xe9"', 1)
    at = lines[20].index(b"\xe9") + 1
    damaged = b"".join(lines)
    message = f"line 21: not UTF-8 text (byte {at} of the line is 0xe9); nothing created\n"
    assert refuse(tmp_path, damaged) == f"error: CORE-IMPORT: {tmp_path / 'bad.jsonl'} {message}"
    new = tmp_path / "piped.tlog"
    result = CliRunner().invoke(cli, ["import", "-", "--log", str(new)], input=damaged)
    assert (1, f"error: CORE-IMPORT: - {message}") == (result.exit_code, result.stderr)
    assert not new.exists()


@pytest.mark.rule("CORE-IMPORT")
def test_an_empty_line_is_refused_naming_it(logs, tmp_path):
    """A blank line after the last record (or between two) holds no record: named as such."""
    lines = export(logs["fate-fourth-war"]).splitlines(keepends=True)
    after = len(lines) + 1
    assert f"line {after}: an empty line where a record belongs;" in refuse(
        tmp_path, "".join(lines) + "\n"
    )
    assert "line 4: an empty line where a record belongs;" in refuse(
        tmp_path, "".join(lines[:3] + ["  \n"] + lines[3:])
    )


def test_text_with_line_separators_stays_on_one_line(tmp_path):
    """A note holding NEL, LS and PS (which str.splitlines and browsers break at; refused where
    text enters, so written here as another tool would) is one line of the export and of
    `log --json`, and imports to the same bytes."""
    from tablelog.events.core import Noted
    from tablelog.session import Session

    log = tmp_path / "n.tlog"
    ok(log, "init", "--system", "pf2e")
    session = Session(str(log))
    session.state()
    session.writer.write([Noted(text="a\x85b\u2028c\u2029d")], session.actor)
    text = export(log)
    assert len(text.splitlines()) == 2
    assert text.splitlines()[1] == ok(log, "log", "--json").strip()
    assert "a\\u0085b\\u2028c\\u2029d" in text
    (tmp_path / "n.jsonl").write_text(text, encoding="utf-8")
    ok(tmp_path / "copy.tlog", "import", str(tmp_path / "n.jsonl"))
    assert log.read_bytes() == (tmp_path / "copy.tlog").read_bytes()


def test_csv_cells_a_spreadsheet_would_run_are_text(tmp_path):
    """A player names counters `=HYPERLINK("http://evil.example")` and `+1 mace` and logs as
    `@SUM(A1)`: each such cell is written after a ' (shown as text, never run as a formula, CSV
    injection); the dot in the name stays in the entity column (it once split the path
    there)."""
    from tests.support import toy

    toy.install()
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    link = '=HYPERLINK("http://evil.example")'
    ok(log, "toy", "add", link, "5", actor="@SUM(A1)")
    ok(log, "toy", "add", "+1 mace", "0")
    ok(log, "toy", "spend", link, "5")
    table = rows(export(log, "--format", "csv"))
    assert [
        ["'@SUM(A1)", "'" + link, "hp", "", "5"],
        ["'@SUM(A1)", "'" + link, "hp_max", "", "5"],
        ["gm", "'+1 mace", "hp", "", "0"],
        ["gm", "'+1 mace", "hp_max", "", "0"],
        ["gm", "'" + link, "hp", "5", "0"],
    ] == [[r[2], *r[4:8]] for r in table[1:]]


def test_an_export_never_writes_through_a_link_planted_at_its_temporary_name(tmp_path, monkeypatch):
    """Mallory plants `war.csv.part-<name>` → the player's `notes.txt` in the shared folder for
    the name the export will draw: the export refuses (exit 3, one line) and `notes.txt` is
    unchanged (it was written through the link, then the link renamed over war.csv)."""
    import secrets

    from tests.support import toy

    toy.install()
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    victim = tmp_path / "notes.txt"
    victim.write_text("mine\n")
    monkeypatch.setattr(secrets, "token_hex", lambda n=None: "feedfacecafebeef")
    out = tmp_path / "war.csv"
    (tmp_path / "war.csv.part-feedfacecafebeef").symlink_to(victim)
    result = invoke(log, "export", "--format", "csv", "-o", str(out))
    assert (result.exit_code, result.stderr) == (3, f"error: cannot write {out}: File exists\n")
    assert victim.read_text() == "mine\n" and not out.exists()


def test_an_output_that_is_the_log_itself_is_refused(tmp_path):
    """`export -o war.tlog` or `report -o` onto the log being read (or a link to it) once
    replaced the campaign with its export: now a usage error (exit 2), the log unchanged."""
    from tests.support import toy

    toy.install()
    log = tmp_path / "war.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "Aria", "5")
    (tmp_path / "link.tlog").symlink_to(log)
    for target, command in (
        (log, ("export",)),
        (log, ("export", "--format", "csv")),
        (tmp_path / "link.tlog", ("report", "--format", "html")),
    ):
        err = refused(log, *command, "-o", str(target), status=2)
        assert f"error: -o {target} is the log being read ({log}); write to another file\n" == err
    assert (tmp_path / "link.tlog").is_symlink()


@pytest.mark.rule("CORE-IMPORT")
@pytest.mark.parametrize(
    ("forged", "why"),
    [
        (
            ("toy.CounterAdded", "gm", {"name": "Ann\u2060", "points": 3}),
            "record #2: CORE-NAME: a character's name cannot hold control characters: "
            "'Ann\\u2060', which tablelog refuses at entry: a crafted record",
        ),
        (
            ("core.Noted", "gm\u200b", {"text": "hi"}),
            "record #2 at byte {offset}: its actor is one that tablelog refuses at entry "
            "(CORE-NAME: the actor cannot hold control characters: 'gm\\u200b'; it shows as "
            "'gm'); a crafted record",
        ),
    ],
    ids=["name", "actor"],
)
def test_an_export_of_a_crafted_name_or_actor_is_refused_as_verify_refuses_it(
    tmp_path, forged, why
):
    """A log with a record a hostile tool appended (a character `Ann\\u2060`, an actor
    `gm\\u200b`: entry refuses both) exports, but `verify` refuses it, and so does its import:
    line 3, record #2, verify's reason; nothing created (it imported)."""
    from tablelog.store.log import LogFile
    from tests.support import toy
    from tests.support.forge import append_forged

    toy.install()
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "Aria", "5")
    append_forged(log, forged)
    offset = next(o for seq, _, o, *_ in LogFile(str(log)).records() if seq == 2)
    why = why.format(offset=offset)
    assert why.split(": ", 1)[1] in refused(log, "verify")
    err = refuse(tmp_path, export(log))
    assert f"bad.jsonl line 3: {why}; nothing created\n" in err


@pytest.mark.parametrize("command", ["export", "report"])
def test_an_output_that_names_no_file_to_write_is_a_usage_error(tmp_path, command):
    """``-o`` in a folder that does not exist, ``-o`` a folder, ``-o ''``: exit 2 naming it
    (a mistake in the command line, as a missing import file is), not exit 3 (the log is fine);
    nothing is written and the log is unchanged."""
    from tests.support import toy

    toy.install()
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    before = log.read_bytes()
    said = {
        str(tmp_path / "nope" / "out.txt"): f"-o {tmp_path / 'nope' / 'out.txt'}: there is no "
        f"folder {tmp_path / 'nope'}",
        str(tmp_path): f"-o '{tmp_path}' is not a file to write (give a file name)",
        "": "-o '' is not a file to write (give a file name)",
    }
    for output, message in said.items():
        result = invoke(log, command, "-o", output)
        assert (result.exit_code, result.stderr) == (2, f"error: {message}\n")
    assert log.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["s.tlog"]
