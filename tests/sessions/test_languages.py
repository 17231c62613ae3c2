"""Each example session read in three languages (issue 27, item 7): run under ``LANG=ja_JP.UTF-8``,
``LANG=ko_KR.UTF-8`` and ``LANG=C.UTF-8`` (no ``--lang``, no ``$TABLELOG_LANG``), the outputs differ
only in language: the same events with the same data, the same state JSON, the same log but its
times and session id. A script without ``--seed`` gets one, so that its draws are the same."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.txt"))
LOCALES = {"ja": "ja_JP.UTF-8", "ko": "ko_KR.UTF-8", "en": "C.UTF-8"}
KANA_OR_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7a3]")


def seeded(example: Path, out: Path) -> Path:
    """The example with ``--seed 7`` on its init line when it names none."""
    lines = example.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("init ") and "--seed" not in line:
            lines[i] = f"{line} --seed 7"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def under(locale: str, *args: str) -> str:
    """Run ``tablelog ARGS…`` with only the POSIX locale choosing the language; its stdout."""
    env = {"LANG": locale, "LC_ALL": None, "LC_MESSAGES": None, "TABLELOG_LANG": None}
    result = CliRunner().invoke(cli, list(args), env=env)
    assert result.exit_code == 0, f"{locale} {args}: exit {result.exit_code}\n{result.output}"
    return result.stdout


def timeless(jsonl: str) -> list[dict]:
    """An export's lines without what differs between two runs of one script: the records'
    times, the header's session id, creation time and chain head, each record's chain hash
    (which hashes the header)."""
    lines = [json.loads(line) for line in jsonl.splitlines()]
    for key in ("session_id", "created", "chain"):
        lines[0]["header"].pop(key, None)
    for record in lines[1:]:
        record.pop("at", None)
        record.pop("prev", None)
    return lines


@pytest.fixture(scope="module", params=[p.stem for p in EXAMPLES])
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Per language: the run's output, the state JSON and the timeless export."""
    work = tmp_path_factory.mktemp(request.param)
    script = seeded(EXAMPLES[0].parent / f"{request.param}.txt", work / "script.txt")
    out = {}
    for lang, locale in LOCALES.items():
        log = str(work / f"{lang}.tlog")
        printed = under(locale, "--log", log, "run", str(script))
        state = json.loads(under(locale, "--log", log, "state", "--json"))
        export = timeless(under(locale, "--log", log, "export", "--format", "jsonl"))
        status = under(locale, "--log", log, "status")
        out[lang] = (printed, state, export, status)
    return out


def test_the_same_events_and_state_in_every_language(runs: dict) -> None:
    """The log's records (but their times) and the state JSON are one in the three languages."""
    (_, en_state, en_export, _) = runs["en"]
    for lang in ("ja", "ko"):
        _, state, export, _ = runs[lang]
        assert en_state == state, lang
        assert en_export == export, lang


def test_the_words_are_the_readers(runs: dict) -> None:
    """What is printed is in the locale's language: Japanese or Korean letters in `run`'s and
    `status`'s output under ja_JP and ko_KR, none under C; the three outputs differ."""
    en_printed, _, _, en_status = runs["en"]
    assert not KANA_OR_HANGUL.search(en_printed + en_status)
    for lang in ("ja", "ko"):
        printed, _, _, status = runs[lang]
        assert KANA_OR_HANGUL.search(printed), lang
        assert KANA_OR_HANGUL.search(status), lang
        assert printed != en_printed, lang
    assert runs["ja"][0] != runs["ko"][0]
