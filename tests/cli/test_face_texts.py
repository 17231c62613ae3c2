"""What the faces print themselves, in the reader's words (issue 27, item 6): state fields named
by each system's glossary in Japanese and Korean (the JSON key in English, and in every JSON);
columns aligned by display width (a wide character is two columns); times in the reader's time
zone (`--tz`, `$TZ`; JSON keeps UTC); the HTML report's CJK fonts and charts whose text the
browser draws; `rules ID` in the reader's language."""

from __future__ import annotations

import datetime as dt
import gettext
import json
import re
import zoneinfo
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli
from tests.support.cli import ok

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    """Run ``tablelog ARGS…`` (CliRunner) and return click's result."""
    return CliRunner().invoke(cli, list(args), env=env)


@pytest.fixture
def english_after() -> Iterator[None]:
    """Put the process's reader back to English after a test that read another language."""
    yield
    from tablelog.cli.help import speak, translate
    from tablelog.lang import ENGLISH, set_reader

    set_reader(ENGLISH)
    speak(ENGLISH)
    translate(cli, ENGLISH)


@pytest.fixture
def glossary_ja(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give pf2e's fields and the core's kinds Japanese labels (the glossaries' [field] tables
    are filled by the translators; here a few entries stand in for them)."""
    from tablelog.rules import glossary

    words = {
        "core.kind": {
            "characters": {"ja": "キャラクター"},
            "items": {"ja": "アイテム"},
            "character": {"ja": "キャラクター"},
        },
        "pf2e.field": {
            "level": {"ja": "レベル"},
            "spent_gp": {"ja": "消費gp"},
            "formulas": {"ja": "製法"},
            "crafting": {"ja": "製作"},
            "magical_crafting": {"ja": "魔法製作"},
            "owner": {"ja": "所持者"},
        },
    }
    real = glossary.entries
    monkeypatch.setattr(glossary, "entries", lambda kind: words.get(kind) or real(kind))


@pytest.fixture
def catalogue_ja(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A Japanese catalogue of a few templates (by template id); the rest reads as English."""
    from tablelog.lang import catalog

    table: dict[str, str] = {}

    class Catalogue(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            return table.get(context, message)

        def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
            return table.get(context, singular if n == 1 else plural)

    made = Catalogue()
    real = catalog.translations
    monkeypatch.setattr(catalog, "translations", lambda lang: made if lang == "ja" else real(lang))
    return table


def _smithy(log: Path) -> None:
    ok(log, "init", "--system", "pf2e", "--title", "幅")
    ok(log, "pf2e", "character", "add", "天雷", "--level", "8")
    ok(log, "pf2e", "character", "add", "Valeros", "--level", "5")
    ok(log, "pf2e", "item", "add", "魔殻", "--base", "longsword", "--owner", "天雷")
    ok(log, "pf2e", "item", "add", "ウェポン", "--base", "dagger", "--owner", "Valeros")


# -- 2. East Asian width -------------------------------------------------------------------


def test_status_aligns_wide_names_by_display_width(tmp_path: Path) -> None:
    """天雷 and 魔殻 are four columns, ウェポン eight: every figure starts in column 10."""
    log = tmp_path / "w.tlog"
    _smithy(log)
    assert ok(log, "status").splitlines() == [
        "pf2e session '幅', at #4",
        "天雷      level 8  0 formulas  spent 0 gp",
        "Valeros   level 5  0 formulas  spent 0 gp",
        "魔殻      longsword  held by 天雷  level 0  1 gp",
        "ウェポン  dagger  held by Valeros  level 0  0.2 gp",
    ]


def test_tables_count_wide_and_fullwidth_characters_as_two_columns() -> None:
    """A table's columns line up on a terminal: Ｗ (fullwidth) and 魔 (wide) take two columns,
    ｱ (halfwidth katakana) one."""
    from tablelog.cli.columns import display_width, table_lines

    assert tuple(display_width(t) for t in ("天雷", "Ｗ", "ｱ", "ウェポン")) == (4, 2, 1, 8)
    assert table_lines(["name", "kind"], [["ウェポン", "rune"], ["ｱ", "ok"], ["Ｗx", None]]) == [
        "name      kind",
        "ウェポン  rune",
        "ｱ         ok",
        "Ｗx       -",
    ]


# -- 3. The reader's time zone -------------------------------------------------------------


def _recorded(log: Path) -> list[str]:
    return [json.loads(line)["at"] for line in ok(log, "log", "--json").splitlines()]


def _in(zone: dt.tzinfo, at: str) -> str:
    return dt.datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(zone).isoformat()


def test_log_history_and_replay_show_times_in_the_zone_given(tmp_path: Path) -> None:
    """--tz Asia/Tokyo: each time as ISO 8601 with +09:00; $TZ when --tz is not given; no zone
    (or UTC): the recorded time with its Z."""
    log = tmp_path / "w.tlog"
    _smithy(log)
    at = _recorded(log)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", a) for a in at)
    local = [_in(TOKYO, a) for a in at]
    assert local[0].endswith("+09:00") and len(local[0]) == len(at[0]) + 5
    shown = run("--log", str(log), "--tz", "Asia/Tokyo", "log").stdout.splitlines()
    assert [f"#{i} {local[i - 1]} gm" for i in (1, 2, 3, 4)] == [
        " ".join(line.split()[:3]) for line in shown
    ]
    assert shown[2] == f"#3 {local[2]} gm pf2e.ItemAdded 魔殻: longsword, held by 天雷"
    history = run("--log", str(log), "--tz", "Asia/Tokyo", "history", "魔殻").stdout
    assert history.startswith(f"#3 {local[2]} gm pf2e.ItemAdded 魔殻: longsword, held by 天雷\n")
    replay = run("--log", str(log), "replay", env={"TZ": "Asia/Tokyo"}).stdout.splitlines()
    assert replay[0] == (
        f"#1 {local[0]} gm pf2e.CharacterAdded 天雷 (level 8, expert in Crafting, crafts magic "
        "items)"
    )
    assert ok(log, "log").splitlines()[0].split()[1] == at[0]
    utc = run("--log", str(log), "--tz", "UTC", "log").stdout
    assert utc == run("--log", str(log), "log", env={"TZ": ""}).stdout == ok(log, "log")


def test_json_keeps_utc_in_any_zone(tmp_path: Path) -> None:
    """log --json, history --json, export and report --format json hold the recorded UTC times
    whatever --tz says."""
    log = tmp_path / "w.tlog"
    _smithy(log)
    for args in (
        ["log", "--json"],
        ["history", "天雷", "--json"],
        ["export"],
        ["export", "--format", "csv"],
        ["report", "--format", "json"],
        ["state", "--json"],
    ):
        assert run("--log", str(log), "--tz", "Asia/Tokyo", *args).stdout == ok(log, *args)


def test_a_posix_zone_and_an_unknown_zone(tmp_path: Path) -> None:
    """TZ=JST-9 (POSIX: nine hours east) reads as +09:00; --tz Mars/Base is a usage error
    naming it (exit 2); a $TZ that names no zone is passed over (UTC)."""
    log = tmp_path / "w.tlog"
    _smithy(log)
    at = _recorded(log)
    posix = run("--log", str(log), "log", "--tail", "1", env={"TZ": "JST-9"}).stdout
    assert posix.split()[1] == _in(TOKYO, at[-1])
    bad = run("--log", str(log), "--tz", "Mars/Base", "log")
    assert bad.exit_code == 2
    assert (
        "Invalid value for --tz: unknown time zone 'Mars/Base' (an IANA name such as "
        "Asia/Tokyo, America/New_York or UTC)"
    ) in bad.stderr
    assert run("--log", str(log), "log", env={"TZ": "Mars/Base"}).stdout == ok(log, "log")


def test_the_report_shows_its_times_in_the_zone(tmp_path: Path) -> None:
    """The report's first and last times and its timeline are in --tz's zone; its JSON keeps
    UTC."""
    log = tmp_path / "w.tlog"
    _smithy(log)
    at = _recorded(log)
    md = run("--log", str(log), "--tz", "Asia/Tokyo", "report").stdout
    assert f"- **first**: {_in(TOKYO, at[0])}\n- **last**: {_in(TOKYO, at[-1])}\n" in md
    assert f"- #1 {_in(TOKYO, at[0])} gm: pf2e.CharacterAdded 天雷" in md
    data = json.loads(
        run("--log", str(log), "--tz", "Asia/Tokyo", "report", "--format", "json").stdout
    )
    assert (at[0], at[-1]) == (data["first_at"], data["last_at"])


def test_times_keep_their_precision() -> None:
    """A time without its fraction, or with milliseconds, keeps its precision; text that is no
    recorded time shows as it is."""
    from tablelog.lang.times import local, zone_named

    assert local("2026-11-30T05:01:51Z", TOKYO) == "2026-11-30T14:01:51+09:00"
    assert local("2026-11-30T05:01:51.120Z", TOKYO) == "2026-11-30T14:01:51.120+09:00"
    assert (
        local("2026-11-30T05:01:51.124022Z", zone_named("America/Chicago"))
        == "2026-11-29T23:01:51.124022-06:00"
    )
    assert local("yesterday", TOKYO) == "yesterday"
    assert zone_named(":UTC") is None and zone_named("Etc/UTC") is None


# -- 4. The report in CJK ------------------------------------------------------------------


def test_the_html_report_names_cjk_fonts_and_its_charts_keep_text(tmp_path: Path) -> None:
    """The page's font stack names the CJK fonts; each chart's text is SVG text (the browser
    draws it) in the same fonts, so 天雷's name shows in the legend as text."""
    log = tmp_path / "f.tlog"
    ok(log, "init", "--system", "fate")
    ok(
        log,
        *("fate", "master", "add", "天雷", "--quality", "B", "--quantity", "C", "--crest", "D"),
        *("--attribute", "fire", "--hp", "40", "--mp", "30", "--cc-budget", "20"),
    )
    ok(log, "fate", "damage", "天雷", "--hp", "5")
    page = ok(log, "report", "--format", "html")
    assert (
        ':root { color-scheme: light; font-family: system-ui, "Hiragino Sans", '
        '"Hiragino Kaku Gothic ProN", "Noto Sans CJK JP", "Noto Sans CJK KR", "Yu Gothic", '
        '"Meiryo", "Malgun Gothic", "Apple SD Gothic Neo", sans-serif; color: #1d1d1f; }'
    ) in page
    assert '<html lang="en">' in page
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert "<path" in svg and re.search(r"<text[^>]*>天雷</text>", svg)
    fonts = set(re.findall(r"font-family: ([^;\"]+)", svg))
    assert {
        "'Hiragino Sans', 'Hiragino Kaku Gothic ProN', 'Noto Sans CJK JP', 'Noto Sans CJK KR', "
        "'Yu Gothic', 'Meiryo', 'Malgun Gothic', 'Apple SD Gothic Neo', 'DejaVu Sans', sans-serif"
    } == fonts


@pytest.mark.usefixtures("english_after", "glossary_ja")
def test_the_report_in_japanese(tmp_path: Path, catalogue_ja: dict[str, str]) -> None:
    """--lang ja: the report's headings, labels, headlines and figures' names come from the
    catalogue and the glossary, the page says lang="ja"; its JSON stays English."""
    catalogue_ja.update(
        {
            "core.report.totals": "合計",
            "core.report.fact_first": "最初",
            "pf2e.headline.gp_spent": "消費したgp",
            "core.report.entity": "{name}（{kind}）",
            "core.report.col_figure": "数値",
        }
    )
    log = tmp_path / "w.tlog"
    _smithy(log)
    english = json.loads(ok(log, "report", "--format", "json"))
    md = run("--lang", "ja", "--log", str(log), "report").stdout
    assert "## 合計\n" in md and "- **最初**: " in md
    assert "| 消費したgp | 0 |" in md
    assert "### 天雷（キャラクター）\n\n| 数値 | start | end | change |\n" in md
    assert "| レベル | 8 | 8 |  |" in md
    page = run("--lang", "ja", "--log", str(log), "report", "--format", "html").stdout
    assert '<html lang="ja">' in page and "<h2>合計</h2>" in page
    assert english == json.loads(
        run("--lang", "ja", "--log", str(log), "report", "--format", "json").stdout
    )


# -- 1. Field names in the reader's words --------------------------------------------------


@pytest.mark.usefixtures("english_after", "glossary_ja")
def test_change_lines_state_and_status_name_fields_in_japanese(tmp_path: Path) -> None:
    """In ja a change's path reads as the glossary's kind and field labels (the name as it is),
    and so do `state`'s keys and `status`'s figures; the English words are the JSON keys; every
    --json keeps them."""
    log = tmp_path / "w.tlog"
    ok(log, "init", "--system", "pf2e")
    english = ok(log, "pf2e", "character", "add", "Valeros", "--level", "5", "--dry-run")
    assert english.splitlines()[-1] == (
        "    characters.Valeros: new (level=5, crafting=expert, magical_crafting=true, "
        "formulas=[], spent_gp=0)"
    )
    said = run(
        "--lang", "ja", "--log", str(log), "pf2e", "character", "add", "Valeros", "--level", "5"
    )
    assert said.stdout.splitlines()[
        -1
    ] == (  # a list in Japanese is joined with 、, a value is the glossary's word
        "    キャラクター.Valeros: 新規（レベル=5、製作=エキスパート、"
        "魔法製作=はい、製法=なし、消費gp=0）"
    )
    ok(log, "pf2e", "formula", "add", "Valeros", "flaming")
    ja = ["--lang", "ja", "--log", str(log)]
    replay = run(*ja, "replay").stdout.splitlines()
    assert "    キャラクター.Valeros.製法: +フレイミング" in replay
    assert "    キャラクター.Valeros.消費gp: 0 -> 35" not in replay  # learning is free
    history = run(*ja, "history", "Valeros").stdout.splitlines()
    assert "    製法: +フレイミング" in history and "    レベル: - -> 5" in history
    state = run(*ja, "state").stdout.splitlines()
    assert state[1:4] == ["キャラクター:", "  Valeros", "    レベル: 5"]
    assert run(*ja, "state", "Valeros").stdout.splitlines()[:2] == ["Valeros", "  レベル: 5"]
    assert run(*ja, "status").stdout.splitlines()[1] == "Valeros  レベル 5  処方1件  支出 0 gp"
    assert run(*ja, "state", "--json").stdout == ok(log, "state", "--json")
    assert run(*ja, "log", "--json").stdout == ok(log, "log", "--json")
    for args in (["history", "Valeros", "--json"], ["log", "--json"]):  # a `text` is a person's
        assert textless(run(*ja, *args).stdout) == textless(ok(log, *args))


def textless(lines: str) -> list[Any]:
    """JSON lines without the sentences they carry for a person, in the reader's language (a log
    line's ``text``, a history change's ``event`` description and ``explain`` lines)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("text", "event", "explain")}
        return [strip(v) for v in value] if isinstance(value, list) else value

    return [strip(json.loads(line)) for line in lines.splitlines()]


# -- 5. rules ID in the reader's language --------------------------------------------------


@pytest.mark.usefixtures("english_after")
def test_rules_id_reads_the_catalogue(tmp_path: Path, catalogue_ja: dict[str, str]) -> None:
    """`rules PF2E-XFER-6` in ja: the title, text and decision from the catalogue's
    rule.PF2E-XFER-6.* entries (wrapped by display width); the seed as it is; --json English."""
    from tablelog.rules import reference

    entry = reference.lookup("PF2E-XFER-6")[0]
    catalogue_ja.update(
        {
            "rule.PF2E-XFER-6.title": "ルーンの移し替え",
            "rule.PF2E-XFER-6.text": "移し替え" * 30,
            "rule.PF2E-XFER-6.decision": "決定",
            "core.rules.decision_label": "決定: ",
        }
    )
    english = ok(tmp_path / "none.tlog", "rules", "PF2E-XFER-6")
    said = run("--lang", "ja", "rules", "PF2E-XFER-6").stdout.splitlines()
    assert said[0] == "PF2E-XFER-6 (pf2e): ルーンの移し替え"
    text = "移し替え" * 30  # 240 columns: lines of 49 characters (2 + 98 columns), then 22
    assert ["  " + text[:49], "  " + text[49:98], "  " + text[98:]] == said[1:4]
    assert said[4].startswith("  seed: ")
    assert said[-1] == "  決定: 決定"
    assert english.splitlines()[0] == f"PF2E-XFER-6 (pf2e): {entry.title}"
    assert run("--lang", "ja", "rules", "PF2E-XFER-6", "--json").stdout == ok(
        tmp_path / "none.tlog", "rules", "PF2E-XFER-6", "--json"
    )
