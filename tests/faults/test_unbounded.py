"""Unbounded inputs (issue 13, item 8): an endless script, undo on a log of many undo/redo
markers, a record dated 9999-12-31 (flagged, never fatal), event data with fields the event
does not have."""

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


def far_off_warnings(log: Path, offsets: dict[int, int], first: str, later: str) -> tuple[str, str]:
    """The warnings `verify` gives of ``log``: record #2 (dated ``first``) a day after this
    clock, #3 (dated ``later``) more than a day before it; the start of each line's text."""
    return (
        f"warning: {log}: record #2 at byte {offsets[2]} is dated {first}, more than a day "
        "after this machine's clock (",
        f"warning: {log}: record #3 at byte {offsets[3]} is dated {later}, more than a day "
        f"before the record before it ({first}): a wrong clock dated one of them; seq orders "
        "the log, nothing is lost\n",
    )


@pytest.mark.parametrize("first", ["9999-12-31T00:00:00.000000Z", "9999-12-31T23:59:59.999999Z"])
def test_a_record_dated_far_ahead_is_flagged_and_the_log_stays_usable(
    tmp_path: Path, first: str
) -> None:
    """A record a machine whose clock runs years ahead wrote (acknowledged), dated 9999-12-31
    or at the last time of all (which no time follows): every other machine still appends
    after it (`note`, `undo`), dated by its own clock, then strictly later again; `verify` exits
    0, warning of the record and its time (and of the next, dated before it), and nothing is
    dropped (issue 32 item 12: the log was called corrupt and appends were refused)."""
    log = crafted(tmp_path, first)
    assert ok(log, "note", "later").startswith("#3 core.Noted 'later'")
    assert ok(log, "undo", actor="mallory").startswith("#4 core.Undone #2")
    records = LogFile(str(log)).scan_all()
    assert [r.seq for r in records] == [1, 2, 3, 4]
    assert (records[2].at < first, records[2].at < records[3].at) == (True, True)
    clock = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H")
    assert clock == records[3].at[:13] or records[3].at[:13] < clock
    result = invoke(log, "verify")
    assert (result.exit_code, result.stdout.partition("ok: ")[0]) == (0, "")
    assert result.stdout.startswith(f"ok: {log}: 4 records, hash chain intact, replays (toy)")
    ahead, before = far_off_warnings(log, {r.seq: r.offset for r in records}, first, records[2].at)
    lines = result.stderr.splitlines(keepends=True)
    assert (2, True, before) == (len(lines), lines[0].startswith(ahead), lines[1])
    assert "from the future" in ok(log, "log", "--all")
    assert ok(log, "note", "again").startswith("#5 core.Noted")
    assert invoke(log, "verify").exit_code == 0


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
