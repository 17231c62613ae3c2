"""Concurrent writers through the real command line: nothing lost, no decision on a stale state."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.commands.core import AddNote
from tablelog.events.codec import to_record
from tablelog.events.core import Noted
from tablelog.session import Session, now_utc
from tablelog.store.format import COMMAND_KEY
from tablelog.store.log import LogError, LogFile, frame
from tests.support import toy
from tests.support.cli import invoke, ok, refused

toy.install()

TOYCLI = str(Path(__file__).resolve().parent / "toycli.py")
ENV = {**os.environ, "TABLELOG_LOCK_TIMEOUT": "60"}


def start(*args: str) -> subprocess.Popen[str]:
    """Start the real tablelog command (toy system installed) in a child process."""
    return subprocess.Popen(
        [sys.executable, TOYCLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def finish(procs: list[subprocess.Popen[str]]) -> list[tuple[int, str, str]]:
    """Wait for every child; return ``(exit status, stdout, stderr)`` of each."""
    outputs = [p.communicate(timeout=300) for p in procs]  # reads the pipes while waiting
    return [(p.returncode, out, err) for p, (out, err) in zip(procs, outputs, strict=True)]


@pytest.mark.slow
def test_eight_processes_append_a_hundred_each(tmp_path: Path) -> None:
    """8 CLI processes × 100 appends: 800 events, seq contiguous, each exactly once, log valid."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    procs = []
    for writer in range(8):
        script = tmp_path / f"w{writer}.txt"
        script.write_text("".join(f"note 'w{writer} line {i}'\n" for i in range(100)))
        procs.append(start("--log", str(log), "--actor", f"w{writer}", "run", str(script)))
    results = finish(procs)
    assert [status for status, _, _ in results] == [0] * 8, [err for _, _, err in results]
    records = LogFile(str(log)).scan_all()
    assert [r.seq for r in records] == list(range(1, 801))
    assert sorted(r.data["text"] for r in records) == sorted(
        f"w{w} line {i}" for w in range(8) for i in range(100)
    )
    for writer in range(8):  # each writer's own lines stay in its order
        mine = [r.data["text"] for r in records if r.actor == f"w{writer}"]
        assert mine == [f"w{writer} line {i}" for i in range(100)]
    assert ok(log, "verify").startswith(
        f"ok: {log}: 800 records, hash chain intact, replays (toy)\nhead: 800:"
    )


@pytest.mark.slow
def test_concurrent_spenders_always_decide_on_the_latest_state(tmp_path: Path) -> None:
    """8 processes spend 1 point 25 times each from a 200-point counter: every spend saw the
    points left by all earlier ones, and one more spend is refused."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "a", "200")
    script = tmp_path / "spend.txt"
    script.write_text("toy spend a 1\n" * 25)
    results = finish([start("--log", str(log), "run", str(script)) for _ in range(8)])
    assert [status for status, _, _ in results] == [0] * 8, [err for _, _, err in results]
    spends = [
        r.data["breakdown"]["before"]
        for r in LogFile(str(log)).scan()
        if r.type == "toy.PointsSpent"
    ]
    assert spends == list(range(200, 0, -1))
    done = subprocess.run(
        [sys.executable, TOYCLI, "--log", str(log), "toy", "spend", "a", "1"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (1, "error: TOY-SPEND-1: a has 0, needs 1\n")


def test_separate_commands_race_without_losses(tmp_path: Path) -> None:
    """Four processes racing single appending commands: all four land, seq 1..4."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    results = finish([start("--log", str(log), "note", f"racer {i}") for i in range(4)])
    assert [status for status, _, _ in results] == [0] * 4
    assert sorted(out.split(" ", 1)[0] for _, out, _ in results) == ["#1", "#2", "#3", "#4"]
    assert sorted(r.data["text"] for r in LogFile(str(log)).scan()) == [
        f"racer {i}" for i in range(4)
    ]


def _half_written(path: str, text: str) -> tuple[LogFile, bytes]:
    """Lock the log at ``path`` as a writer does and write the first half of a note's record;
    return the locked log and the rest of the record (a writer caught mid-append)."""
    writer = LogFile(path)
    list(writer.scan())  # to its end
    assert writer.end is not None
    type_tag, version, data = to_record(Noted(text=text))
    env = {"type": type_tag, "v": version, "at": now_utc(), "actor": "other", "data": data}
    record, _ = frame([{**env, COMMAND_KEY: writer.end.seq + 1}], writer.end, writer.signer)
    writer.lock()
    fd = writer._held.fd  # type: ignore[union-attr]
    os.write(fd, record[: len(record) // 2])
    return writer, record[len(record) // 2 :]


def test_commands_and_reads_wait_for_an_append_in_flight_rather_than_call_it_torn(
    tmp_path: Path,
) -> None:
    """A command, a fold or a scan that meets another writer's append half written (a read
    without the lock can) waits for that writer and reads its record whole: a record the file ends
    inside is a crash only when no writer holds the lock (CI once saw 1 of 8 racing writers
    refused with "torn last record")."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    writer, rest = _half_written(str(log), "in flight")
    done: list[object] = []

    def fold() -> object:
        session = Session(str(log))
        return (session.state().seq, session.torn_at)

    def scan() -> object:  # what every other reader does: log, history, copy, the server's tail
        reader = LogFile(str(log))
        return [[r.seq for r in reader.scan()], reader.torn_at]

    racers = [
        threading.Thread(target=lambda: done.append(_outcome(Session(str(log)), AddNote("mine")))),
        threading.Thread(target=lambda: done.append(fold())),
        threading.Thread(target=lambda: done.append(scan())),
    ]
    for racer in racers:
        racer.start()
    time.sleep(0.5)
    assert all(racer.is_alive() for racer in racers) and not done, done  # waiting, not refused
    os.write(writer._held.fd, rest)  # type: ignore[union-attr]
    writer._held.release()  # type: ignore[union-attr]
    for racer in racers:
        racer.join(30)
    assert sorted(type(o).__name__ for o in done) == ["Outcome", "list", "tuple"], done
    assert [o for o in done if isinstance(o, tuple)][0] in ((1, None), (2, None))
    assert [o for o in done if isinstance(o, list)][0] in ([[1], None], [[1, 2], None])
    assert [(r.seq, r.data["text"]) for r in LogFile(str(log)).scan()] == [
        (1, "in flight"),
        (2, "mine"),
    ]


def test_a_torn_tail_under_the_lock_is_still_refused(tmp_path: Path) -> None:
    """A half-written record no writer holds the lock for is a crash mid-append: a command and
    a dry run are refused with the repair hint, and the log is unchanged."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    writer, _ = _half_written(str(log), "crashed")
    writer._held.release()  # type: ignore[union-attr]  # the writer died mid-append
    before = log.read_bytes()
    for dry_run in (False, True):
        with pytest.raises(LogError, match=r"torn last record at byte \d+ .*verify --repair"):
            Session(str(log)).execute(AddNote(text="mine"), dry_run=dry_run)
    assert log.read_bytes() == before


def _outcome(session: Session, command: object) -> object:
    """Execute ``command``; return its outcome, or the exception it raised."""
    try:
        return session.execute(command)
    except Exception as exc:  # noqa: BLE001 - the test reports whatever came out
        return exc


@contextlib.contextmanager
def slept(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Within the block, every ``time.sleep`` (the lock's waits) is recorded, its seconds in the
    list, and still slept: a test counts waits instead of timing them."""
    naps: list[float] = []
    sleep = time.sleep

    def recorded(seconds: float) -> None:
        naps.append(seconds)
        sleep(seconds)

    with monkeypatch.context() as patch:
        patch.setattr(time, "sleep", recorded)
        yield naps


def test_a_writer_that_holds_the_lock_past_the_timeout_is_still_writing_not_torn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record half written by a writer that holds the lock past the timeout: reads show the
    log without it and say so, `verify` cannot vouch for it (exit 3), an append is refused as
    locked; none calls it a crash or suggests a repair, this process waits for it once, and
    nothing is written (QA: `verify` printed "ok: 1 records" beside "head: 2:…", every read
    waited the timeout again, and appends blamed a crash)."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "note", "first")
    monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", "0.5")
    writer, _ = _half_written(str(log), "stalled")
    before = log.read_bytes()
    started = time.monotonic()
    session, stalled_at = Session(str(log)), writer.end.span[1]  # type: ignore[union-attr,index]
    assert (session.state().seq, session.torn_at, session.in_flight) == (1, None, stalled_at)
    assert time.monotonic() - started >= 0.5  # it waited for the writer
    with slept(monkeypatch) as naps:
        result = invoke(log, "log")
    assert naps == []  # it waited once per record in a process, not once per read
    assert result.exit_code == 0 and result.stdout.startswith("#1"), result.output
    assert result.stderr == (
        f"warning: the record at byte {stalled_at} is still being written by "
        "another writer (it held the lock past the timeout); shown without it\n"
    )
    assert refused(log, "verify", status=3) == (
        f"error: {log}: the record at byte {stalled_at} is still being written by "
        "another writer (it held the lock past the timeout); verify again when it is done\n"
    )
    started = time.monotonic()
    refusal = refused(log, "note", "mine", status=3)  # the same writer is not waited for twice
    assert refusal == (
        f"error: {log} is still locked by another writer (a wait of 0.5 s for it ran out "
        "moments ago)\n"
    ) or (refusal, time.monotonic() - started >= 0.5) == (  # the window passed: one wait
        f"error: {log} is locked by another writer (waited 0.5 s)\n",
        True,
    ), refusal
    assert refused(log, "verify", "--repair", status=3) == (  # no second wait, no "locked"
        f"error: {log}: the record at byte {stalled_at} is still being written by another "
        "writer (it held the lock past the timeout); nothing to repair: verify again when it "
        "is done\n"
    )
    assert refused(log, "verify", "--expect-head", "1:" + "0" * 32, status=1).endswith(
        "the log was rewritten at or before #1\n"  # a definite answer before the record in flight
    )
    dry = invoke(log, "note", "mine", "--dry-run")  # decided without it, and says so
    assert dry.exit_code == 0 and "still being written" in dry.stderr, dry.output
    assert log.read_bytes() == before
    writer._held.release()  # type: ignore[union-attr]


def test_a_record_outwaited_once_and_cut_does_not_spare_the_next_writer_the_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record whose writer outlasted a reader's wait, then died (cut by `verify --repair`):
    a later record written at the same byte is another writer's and is waited for again, in
    the same process (QA: a shell, and a server, answered at once without it)."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", "0.3")
    writer, _ = _half_written(str(log), "stalled")
    assert Session(str(log)).state() is not None and Session(str(log)).in_flight is None
    session = Session(str(log))
    session.state()
    assert session.in_flight is not None
    writer._held.release()  # type: ignore[union-attr]  # it dies mid-record
    assert ok(log, "verify", "--repair").startswith("repaired: torn last record")
    monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", "5")
    writer, rest = _half_written(str(log), "slow")
    finisher = threading.Timer(
        0.5, lambda: (os.write(writer._held.fd, rest), writer._held.release())
    )  # type: ignore[union-attr]
    finisher.start()
    reader = Session(str(log))
    assert (reader.state().seq, reader.in_flight, reader.torn_at) == (1, None, None)
    finisher.join()


def test_a_server_session_forgets_a_tear_that_was_cut(tmp_path: Path) -> None:
    """A long-lived session (the server's) that read a torn tail appends again once another
    process cut it (`verify --repair`), without reopening (QA: the server answered 503 "torn"
    until restarted)."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "note", "first")
    writer, _ = _half_written(str(log), "crashed")
    writer._held.release()  # type: ignore[union-attr]
    session = Session(str(log))
    session.state()
    assert session.torn_at is not None
    assert ok(log, "verify", "--repair").startswith("repaired: torn last record")
    session.catch_up()
    assert session.execute(AddNote(text="after")).applied[0].seq == 2


def test_a_bad_lock_timeout_is_refused_by_every_command_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$TABLELOG_LOCK_TIMEOUT is checked when a log is opened, not only when a lock is waited
    for: every command refuses a bad value the same way (exit 3), reads as well as repairs (QA:
    reads passed it until they met an append in flight; `verify --repair` said "not repaired:
    only a torn tail is ever cut" on a sound log)."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "note", "first")
    for value in ("10s", "-1", "inf", "nan", ""):
        monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", value)
        for args in (["state"], ["log"], ["verify"], ["verify", "--repair"], ["note", "x"]):
            assert refused(log, *args, status=3) == (
                f"error: TABLELOG_LOCK_TIMEOUT must be a number of seconds, got {value!r}\n"
            ), args
        assert refused(tmp_path / "new.tlog", "init", "--system", "toy", status=3) == (
            f"error: TABLELOG_LOCK_TIMEOUT must be a number of seconds, got {value!r}\n"
        )
        assert not (tmp_path / "new.tlog").exists()


def test_a_stuck_writer_costs_a_long_lived_process_one_wait_per_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that holds the lock and never lets go: a long-lived process (a server, a shell)
    waits the timeout once, then for a timeout's length only tries, so a queue of commands is
    refused at once instead of each waiting (QA: 45 requests to a table with a stalled writer
    held every thread of a server, other tables' reads took 31 s); once the lock is free, the
    next try takes it."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    monkeypatch.setenv("TABLELOG_LOCK_TIMEOUT", "0.5")
    holder = LogFile(str(log)).lock()
    started = time.monotonic()
    with pytest.raises(LogError, match=r"is locked by another writer \(waited 0.5 s\)$"):
        LogFile(str(log)).lock()
    assert time.monotonic() - started >= 0.5
    with slept(monkeypatch) as naps:
        for _ in range(5):
            with pytest.raises(LogError, match=r"still locked by another writer \(a wait of 0.5 s"):
                Session(str(log)).execute(AddNote(text="queued"))
    assert naps == []  # refused at once: no command waited
    holder.release()
    assert Session(str(log)).execute(AddNote(text="free")).applied[0].seq == 1
