"""The log store's errors in the reader's language: a log that is missing, locked, not a
tablelog log or holds a corrupt record exits 3 with an error line that, read with ``--lang ja``
or ``--lang ko``, holds no English word but paths, ids and the command line's words; in English
it reads as it always has."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli
from tablelog.store.lock import LogLock
from tests.sessions.test_no_english import ABBREVIATIONS, leftovers
from tests.support import toy
from tests.support.cli import ok

toy.install()

LANGS = ("ja", "ko")
ALLOWED = {*ABBREVIATIONS, "init", "verify", "repair"}  # the command lines they suggest
MARKER = {"en": "error: ", "ja": "エラー: ", "ko": "오류: "}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Put the process's reader back to English after each run in another language."""
    yield
    from tablelog.cli.help import speak, translate
    from tablelog.lang import ENGLISH, set_reader

    set_reader(ENGLISH)
    speak(ENGLISH)
    translate(cli, ENGLISH)


def refused_in(lang: str, log: Path, *args: str) -> str:
    """Run ``tablelog --lang LANG --log LOG ARGS…``, which must exit 3 leaving the log as it
    was; return its stderr, one ``error:`` line in the reader's words."""
    before = log.read_bytes() if log.exists() else None
    result = CliRunner().invoke(cli, ["--lang", lang, "--log", str(log), *args])
    assert result.exit_code == 3, f"{args}: exit {result.exit_code}\n{result.output}"
    assert (log.read_bytes() if log.exists() else None) == before
    err = result.stderr
    assert err.startswith(MARKER[lang]) and err.count("\n") == 1, err
    return err


def no_english(err: str) -> None:
    assert leftovers(err, ALLOWED, code=True) == set(), err


def made(tmp_path: Path) -> Path:
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy", "--seed", "7")
    ok(log, "note", "first")
    return log


def flipped(log: Path) -> None:
    """Flip a bit inside the last record's payload: its checksum no longer matches."""
    data = bytearray(log.read_bytes())
    data[-3] ^= 0x01
    log.write_bytes(bytes(data))


def test_the_english_is_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In English each message is today's, word for word."""
    missing = tmp_path / "p.tlog"
    assert refused_in("en", missing, "status") == (
        f"error: no log at {missing} (create one with: tablelog init)\n"
    )
    other = tmp_path / "g.tlog"
    other.write_bytes(b"not a log at all")
    assert refused_in("en", other, "status") == (
        f"error: {other}: not a tablelog file (wrong magic bytes) at byte 0\n"
    )
    log = made(tmp_path)
    monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", "0.1")
    with LogLock(str(log), 0.0):
        assert refused_in("en", log, "note", "second") == (
            f"error: {log} is locked by another writer (waited 0.1 s)\n"
        )
    flipped(log)
    err = refused_in("en", log, "state")
    assert err.startswith(f"error: {log}: corrupt record #1 at byte ")
    assert err.endswith(": record checksum mismatch\n"), err


@pytest.mark.parametrize("lang", LANGS)
def test_a_missing_log(tmp_path: Path, lang: str) -> None:
    missing = tmp_path / "p.tlog"
    err = refused_in(lang, missing, "status")
    assert str(missing) in err and "tablelog init" in err
    no_english(err)


@pytest.mark.parametrize("lang", LANGS)
def test_a_locked_log(tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    log = made(tmp_path)
    monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", "0.1")
    with LogLock(str(log), 0.0):
        err = refused_in(lang, log, "note", "second")
        assert str(log) in err and "0.1" in err
        no_english(err)
        again = refused_in(lang, log, "note", "third")  # the wait just ran out: not waited again
        no_english(again)


@pytest.mark.parametrize("lang", LANGS)
def test_a_file_that_is_not_a_log(tmp_path: Path, lang: str) -> None:
    other = tmp_path / "g.tlog"
    other.write_bytes(b"not a log at all")
    err = refused_in(lang, other, "status")
    assert str(other) in err
    no_english(err)
    empty = tmp_path / "e.tlog"
    empty.write_bytes(b"")
    no_english(refused_in(lang, empty, "status"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_corrupt_record(tmp_path: Path, lang: str) -> None:
    log = made(tmp_path)
    flipped(log)
    err = refused_in(lang, log, "state")
    assert str(log) in err and "#1" in err
    no_english(err)


@pytest.mark.parametrize("lang", LANGS)
def test_a_torn_last_record_refuses_an_append(tmp_path: Path, lang: str) -> None:
    log = made(tmp_path)
    with log.open("ab") as f:
        f.write(b"\x00\x00\x00\x40\x00")  # a crash mid-append: a record cut short
    err = refused_in(lang, log, "note", "second")
    assert "tablelog verify --repair" in err
    no_english(err)
