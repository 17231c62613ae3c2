"""The head of a log (issue 13, what a log can prove): `verify` and every `run` print
`head: SEQ:HASH`; a table that posts it after each session finds, with
`verify --expect-head SEQ:HASH`, a log cut or rewritten at or before SEQ, even by someone who
recomputed every CRC and chain hash."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelog.store.format import Header, chain_hash, pack_header
from tablelog.store.log import LogFile, frame
from tests.support import toy
from tests.support.cli import invoke, ok

toy.install()


@pytest.fixture
def posted(tmp_path: Path) -> tuple[Path, str]:
    """A toy log of three notes made by a `run`, and the head that run printed."""
    log = tmp_path / "s.tlog"
    script = tmp_path / "session.txt"
    script.write_text("init --system toy --seed 5\nnote one\nnote two\nnote three\n")
    lines = ok(log, "run", str(script)).splitlines()
    assert lines[-1].startswith("head: 3:")
    return log, lines[-1].removeprefix("head: ")


def rewrite(log: Path, texts: list[str]) -> None:
    """Rewrite the log as a careful forger would: same header, the notes ``texts`` instead,
    every CRC and chain hash recomputed (so `verify` alone says ok)."""
    reader = LogFile(str(log))
    records = reader.scan_all()
    assert reader.start is not None
    data = log.read_bytes()[: reader.start.span[1]]  # type: ignore[index]
    position = reader.start
    for record, text in zip(records, texts, strict=False):
        framed, position = frame(
            [
                {
                    "type": "core.Noted",
                    "v": 1,
                    "at": record.at,
                    "actor": record.actor,
                    "data": {"text": text},
                    "cmd": record.seq,
                }
            ],
            position,
        )
        data += framed
    log.write_bytes(data)


def test_run_and_verify_print_the_same_head(posted: tuple[Path, str]) -> None:
    """The head is the last record's seq and the hex of its chain hash, 32 digits."""
    log, head = posted
    records = LogFile(str(log)).records()
    last = list(records)[-1]
    assert head == f"3:{chain_hash(last[4]).hex()}"
    assert ok(log, "verify").splitlines()[-1] == f"head: {head}"


def test_a_posted_head_holds_while_the_log_grows(posted: tuple[Path, str]) -> None:
    """Appending after the posted head keeps it: the log still holds #3 with that hash."""
    log, head = posted
    ok(log, "note", "four")
    out = ok(log, "verify", "--expect-head", head).splitlines()
    assert out[0] == f"ok: {log}: 4 records, hash chain intact, replays (toy)"
    assert out[1].startswith("head: 4:")


def test_a_cut_log_is_found(posted: tuple[Path, str]) -> None:
    """The last record cut off at a record boundary (verify alone says ok): exit 1."""
    log, head = posted
    records = LogFile(str(log)).scan_all()
    log.write_bytes(log.read_bytes()[: records[2].offset])
    assert ok(log, "verify").startswith(f"ok: {log}: 2 records")
    result = invoke(log, "verify", "--expect-head", head)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {log}: the log ends at #2, before the posted head #3: records were cut off\n",
    )


def test_a_rewritten_log_is_found(posted: tuple[Path, str]) -> None:
    """Note #2 rewritten with every CRC and hash recomputed (verify alone says ok): exit 1."""
    log, head = posted
    rewrite(log, ["one", "TWO", "three"])
    assert ok(log, "verify").startswith(f"ok: {log}: 3 records")
    result = invoke(log, "verify", "--expect-head", head)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {log}: record #3 is not the one posted (hash ")
    assert result.stderr.endswith(f"posted {head[2:]}): the log was rewritten at or before #3\n")


def test_a_rewritten_header_is_found(tmp_path: Path) -> None:
    """The head of an empty log is the header's hash (`0:…`): a new title is found."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy", "--title", "war")
    head = ok(log, "verify").splitlines()[-1].removeprefix("head: ")
    assert head.startswith("0:")
    header = LogFile(str(log)).open()
    log.write_bytes(
        pack_header(Header(header.session_id, "toy", header.created, header.seed, "peace", {}))
    )
    result = invoke(log, "verify", "--expect-head", head)
    assert result.exit_code == 1 and "record #0 is not the one posted" in result.stderr


@pytest.mark.parametrize("value", ["3", "x:00", "3:abc", "-1:" + "0" * 32, "3:" + "g" * 32])
def test_a_malformed_head_is_a_usage_error(posted: tuple[Path, str], value: str) -> None:
    """Not SEQ:HASH with 32 hex digits: exit 2, naming the value."""
    log, _ = posted
    result = invoke(log, "verify", "--expect-head", value)
    assert result.exit_code == 2 and repr(value) in result.stderr
