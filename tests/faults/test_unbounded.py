"""Unbounded inputs (issue 13, item 8): an endless script, undo on a log of many undo/redo
markers, a record dated 9999-12-31, event data with fields the event does not have."""

from __future__ import annotations

import datetime as dt
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tablelog.session import now_utc
from tablelog.store.log import LogError, LogFile, frame
from tests.support import toy
from tests.support.cli import invoke, ok
from tests.support.forge import append_forged
from tests.support.needs import missing

toy.install()

TOYCLI = str(Path(__file__).resolve().parent / "toycli.py")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (768 << 20, 768 << 20))


def test_run_of_an_endless_script_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    """`run /dev/zero` under a 768 MB address-space limit: exit 2 at once, one line, nothing
    appended (it grew to gigabytes)."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    before = log.read_bytes()
    done = subprocess.run(
        [sys.executable, TOYCLI, "--log", str(log), "run", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "error: /dev/zero is longer than 4,194,304 characters: split it into several scripts\n"
    )
    assert log.read_bytes() == before


# A child process that runs the real command, then writes its peak RSS (VmHWM, in kB: ru_maxrss
# would carry the parent's peak across fork and exec) to the file named by $PEAK_RSS_FILE.
PEAK_RSS = """
import atexit, os, runpy, sys
def peak():
    with open('/proc/self/status') as f:
        kb = [line.split()[1] for line in f if line.startswith('VmHWM')][0]
    with open(os.environ['PEAK_RSS_FILE'], 'w') as out:
        out.write(kb)
atexit.register(peak)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name='__main__')
"""


def marker_log(path: Path, markers: int) -> Path:
    """A toy log: gm's note (#1), then ``markers`` records by Mallory's hostile tool that undo
    and redo #1 in turn (each its own command), framed with correct CRCs and chain hashes."""
    ok(path, "init", "--system", "toy")
    ok(path, "note", "honest")
    reader = LogFile(str(path))
    reader.scan_all()
    end, at = reader.end, now_utc()
    assert end is not None
    chunks = []
    for i in range(markers):
        undo = i % 2 == 0
        envelope = {
            "type": "core.Undone" if undo else "core.Redone",
            "v": 1,
            "at": at,
            "actor": "mallory",
            "data": {"target": 1, "reason": ""} if undo else {"target": 1},
            "cmd": end.seq + 1,
        }
        record, end = frame([envelope], end)
        chunks.append(record)
    with open(path, "ab") as f:
        f.write(b"".join(chunks))
    return path


def peak_rss_kb(log: Path, tmp_path: Path, *args: str) -> int:
    """Run ``tablelog --log LOG ARGS…`` twice in fresh processes (the second with the snapshot
    cache the first saved, in ``tmp_path``) and return the larger peak RSS in kB."""
    peaks = []
    for run in range(2):
        out = tmp_path / f"peak-{log.name}-{run}"
        env = {**os.environ, "PEAK_RSS_FILE": str(out), "XDG_CACHE_HOME": str(tmp_path / "c")}
        subprocess.run(
            [sys.executable, "-c", PEAK_RSS, TOYCLI, "--log", str(log), *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        peaks.append(int(out.read_text()))
    return max(peaks)


def test_undo_on_a_log_of_many_markers_takes_memory_for_what_is_undone(tmp_path: Path) -> None:
    """`undo --dry-run` on a log of 30,000 markers that undo and redo one note needs no more
    than 8 MB beyond it on a log of 2 such markers (it took 31 MB more, and 55 MB more once the
    snapshot cache held every marker in each checkpoint: 542 MB for 300,000 markers), and
    decides the same undo."""
    if not os.path.exists("/proc/self/status"):
        missing("reads VmHWM from /proc (Linux)")
    small = marker_log(tmp_path / "small.tlog", 2)
    big = marker_log(tmp_path / "big.tlog", 30000)
    assert "\n#30002 core.Undone #1\n" in ok(big, "undo", "--dry-run")
    assert "\n#4 core.Undone #1\n" in ok(small, "undo", "--dry-run")
    grown = peak_rss_kb(big, tmp_path, "undo", "--dry-run") - peak_rss_kb(
        small, tmp_path, "undo", "--dry-run"
    )
    assert grown < 8 * 1024, f"undo grew by {grown} kB on 30,000 markers"


def crafted(tmp_path: Path, at: str | None, data: dict | None = None) -> Path:
    """A toy log (a note, #1) then a record written by a hostile tool: a note dated ``at``
    (None: now) with ``data``, framed with a correct CRC and chain hash."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "note", "honest")
    reader = LogFile(str(log))
    reader.scan_all()
    assert reader.end is not None
    record, _ = frame(
        [
            {
                "type": "core.Noted",
                "v": 1,
                "at": at or now_utc(),
                "actor": "mallory",
                "data": data or {"text": "from the future"},
                "cmd": 2,
            }
        ],
        reader.end,
    )
    with open(log, "ab") as f:
        f.write(record)
    return log


def test_a_record_dated_9999_is_named_and_the_log_can_be_mended(tmp_path: Path) -> None:
    """A last record dated 9999-12-31: an append is refused (exit 3) saying what to do;
    `verify` names the record (exit 1) with the salvage hint; `verify --salvage OUT` keeps
    the records before it, and OUT takes appends again. Reads still show the log."""
    log = crafted(tmp_path, "9999-12-31T00:00:00.000000Z")
    before = log.read_bytes()
    result = invoke(log, "note", "later")
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {log}: cannot append after record #2: the next record would be dated "
        "9999-12-31T00:00:00.000001Z, more than a day after this machine's clock ("
    )
    assert result.stderr.endswith(
        "): a wrong clock or a hostile edit dated #2 so; keep the records before it with: "
        f"tablelog --log {log} verify --salvage OUT (or, if this machine's clock is wrong, "
        "set it)\n"
    )
    assert result.stderr.count("\n") == 1
    assert log.read_bytes() == before
    result = invoke(log, "verify")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"error: {log}: corrupt record #2 at byte {LogFile(str(log)).scan_all()[1].offset}: "
        "time 9999-12-31T00:00:00.000000Z is more than a day after this machine's clock ("
    )
    assert result.stderr.endswith(  # the salvage hint once, with the log's path
        "): a wrong clock or a hostile edit wrote it (or this machine's clock is wrong: then "
        f"set it); keep the valid prefix with: tablelog --log {log} verify --salvage OUT\n"
    )
    assert result.stderr.count("--salvage") == 1
    assert "from the future" in ok(log, "log")
    out = tmp_path / "out.tlog"
    assert ok(log, "verify", "--salvage", str(out)).startswith("salvaged: 1 records")
    assert ok(out, "note", "later").startswith("#2 core.Noted")
    assert ok(out, "verify").startswith(f"ok: {out}: 2 records")


def test_the_last_time_of_all_is_refused_saying_what_to_do(tmp_path: Path) -> None:
    """A last record dated 9999-12-31T23:59:59.999999Z (no time follows it): `note` and `undo`
    once said only that no command can follow it; now exit 3, one line naming the record, the
    time and what to do (salvage, with the log's path), the log unchanged; the salvage works."""
    log = crafted(tmp_path, "9999-12-31T23:59:59.999999Z")
    before = log.read_bytes()
    for args in (("note", "later"), ("undo",)):
        result = invoke(log, *args, actor="mallory")
        assert (result.exit_code, result.stdout) == (3, "")
        assert result.stderr == (
            f"error: {log}: cannot append after record #2: its time "
            "'9999-12-31T23:59:59.999999Z' is one no command can follow (a wrong clock or a "
            f"hostile edit wrote it); keep the records before it with: tablelog --log {log} "
            "verify --salvage OUT\n"
        )
        assert log.read_bytes() == before
    out = tmp_path / "out.tlog"
    assert ok(log, "verify", "--salvage", str(out)).startswith("salvaged: 1 records")
    assert ok(out, "note", "later").startswith("#2 core.Noted")


def test_the_store_never_writes_a_time_a_day_ahead(tmp_path: Path) -> None:
    """An append whose records are dated more than a day after this clock is refused by the
    store itself, whoever calls it; a time a few minutes ahead (a fast laptop) is not."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    writer = LogFile(str(log))
    writer.scan_all()
    assert writer.end is not None
    envelope = {"type": "core.Noted", "v": 1, "actor": "gm", "data": {"text": "x"}, "cmd": 1}
    with pytest.raises(LogError, match="dated 2999-01-01T00:00:00.000000Z, more than a day after"):
        writer.append([{**envelope, "at": "2999-01-01T00:00:00.000000Z"}], writer.end)
    hour = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    ahead = hour.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    writer.append([{**envelope, "at": ahead}], writer.end)
    assert ok(log, "verify").startswith(f"ok: {log}: 1 records")


def test_event_data_with_a_field_the_event_lacks_is_refused(tmp_path: Path) -> None:
    """A note with a `gold` field: verify exits 1 naming the field; every read exits 3."""
    log = crafted(tmp_path, None, {"text": "a gift", "gold": 1000})
    fragment = "core.Noted: data does not fit the event: extra fields found (gold)"
    result = invoke(log, "verify")
    assert result.exit_code == 1 and fragment in result.stderr
    for args in (("state",), ("log",), ("note", "x")):
        result = invoke(log, *args)
        assert result.exit_code == 3 and fragment in result.stderr, args


def test_an_undone_event_with_an_extra_field_is_refused_by_verify(tmp_path: Path) -> None:
    """The extra field is found by verify even when the event is undone (a fold skips it)."""
    log = crafted(tmp_path, None, {"text": "a gift", "gold": 1000})
    append_forged(log, ("core.Undone", "mallory", {"target": 2, "reason": ""}))
    result = invoke(log, "verify")
    assert result.exit_code == 1
    assert "record #2" in result.stderr and "extra fields found (gold)" in result.stderr
