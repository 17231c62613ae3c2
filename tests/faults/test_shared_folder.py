"""A hostile player with write access to the log's folder (issue 13, items 3 and 4): the lock
cannot be lost by deleting or replacing a file, an append never overwrites bytes it did not
write, and no file the store writes is opened through a planted symbolic link."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tablelog.store import fileappend as store_file
from tablelog.store.format import Position
from tablelog.store.log import LogFile, LogMovedOn, create_file
from tests.support import toy
from tests.support.cli import invoke, ok

toy.install()

TOYCLI = str(Path(__file__).resolve().parent / "toycli.py")


def cli(*args: str, timeout_s: str = "20") -> subprocess.CompletedProcess[str]:
    """The real tablelog command (toy system) in a child process."""
    return subprocess.run(
        [sys.executable, TOYCLI, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TABLELOG_LOCK_TIMEOUT": timeout_s},
    )


def fresh(tmp_path: Path) -> Path:
    """A toy log with one note (#1)."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "note", "first")
    return log


def test_deleting_or_replacing_the_old_lock_file_does_not_free_the_lock(tmp_path: Path) -> None:
    """While a writer holds the lock, `<log>.lock` deleted and created anew (the attack of the
    issue): a second writer still waits and gives up (exit 3), appending nothing."""
    log = fresh(tmp_path)
    holder = LogFile(str(log)).lock()
    try:
        lock_file = Path(str(log) + ".lock")
        lock_file.write_bytes(b"")
        lock_file.unlink()
        lock_file.write_bytes(b"")
        before = log.read_bytes()
        done = cli("--log", str(log), "note", "second", timeout_s="0.3")
    finally:
        holder.release()
    assert (done.returncode, done.stderr) == (
        3,
        f"error: {log} is locked by another writer (waited 0.3 s)\n",
    )
    assert log.read_bytes() == before


def test_concurrent_writers_with_a_vandal_lose_nothing(tmp_path: Path) -> None:
    """Four writers append 15 notes each while a vandal deletes and recreates `<log>.lock` in a
    loop: 61 records, each note exactly once, each writer's printed seq its own, verify ok."""
    log = fresh(tmp_path)
    stop = threading.Event()

    def vandal() -> None:
        lock_file = Path(str(log) + ".lock")
        while not stop.is_set():
            lock_file.write_bytes(b"")
            lock_file.unlink(missing_ok=True)

    script = [tmp_path / f"w{w}.txt" for w in range(4)]
    for w, path in enumerate(script):
        path.write_text("".join(f"note 'w{w} n{i}'\n" for i in range(15)))
    thread = threading.Thread(target=vandal)
    thread.start()
    try:
        procs = [
            subprocess.Popen(
                [sys.executable, TOYCLI, "--log", str(log), "run", str(p)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "TABLELOG_LOCK_TIMEOUT": "60"},
            )
            for p in script
        ]
        printed = [proc.communicate(timeout=300) for proc in procs]
    finally:
        stop.set()
        thread.join()
    assert [proc.returncode for proc in procs] == [0] * 4, printed
    seqs = [
        line.split()[0] for out, _ in printed for line in out.splitlines() if line.startswith("#")
    ]
    assert sorted(seqs, key=lambda s: int(s[1:])) == [f"#{n}" for n in range(2, 62)]
    texts = [r.data["text"] for r in LogFile(str(log)).scan_all()]
    assert sorted(texts) == sorted(["first"] + [f"w{w} n{i}" for w in range(4) for i in range(15)])
    assert ok(log, "verify").startswith(f"ok: {log}: 61 records")


def test_a_log_replaced_under_the_lock_is_not_written(tmp_path: Path) -> None:
    """A log renamed over while a writer holds the lock on the old file: the append writes
    nothing to the old (now nameless) file and catches up on the new one instead."""
    log = fresh(tmp_path)
    writer = LogFile(str(log))
    writer.scan_all()
    end = writer.end
    assert end is not None
    lock = writer.lock()
    try:
        copy = tmp_path / "copy.tlog"
        shutil.copyfile(log, copy)
        os.replace(copy, log)
        replaced = log.read_bytes()
        with pytest.raises(LogMovedOn):
            writer.append(
                [
                    {
                        "type": "core.Noted",
                        "v": 1,
                        "at": "2030-01-01T00:00:00.000000Z",
                        "actor": "gm",
                        "data": {"text": "lost?"},
                        "cmd": 2,
                    }
                ],
                end,
                locked=True,
            )
    finally:
        lock.release()
    assert log.read_bytes() == replaced
    assert ok(log, "note", "second").startswith("#2 core.Noted")


def test_an_append_never_overwrites_bytes_it_did_not_write(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bytes written by someone who ignores the lock between the append's size check and its
    write stay in the file: the append writes after them (append mode), it never seeks back."""
    log = fresh(tmp_path)
    real_frame = store_file.frame

    def intruding_frame(envelopes: list, pos: Position, sign: object = None) -> tuple:
        with open(log, "ab") as f:
            f.write(b"INTRUDER")
        return real_frame(envelopes, pos, sign)  # type: ignore[arg-type]

    monkeypatch.setattr(store_file, "frame", intruding_frame)
    before = log.read_bytes()
    ok(log, "note", "second")
    after = log.read_bytes()
    assert after.startswith(before + b"INTRUDER")
    assert b"second" in after[len(before) + 8 :]


def test_planted_links_at_temporary_names_are_never_written_through(tmp_path: Path) -> None:
    """Symbolic links planted at `<log>.snap.tmp.<pid>` for this process's id and the next 300
    (the attack of the issue) point at a victim file: `run`, `state` and appends, here and in
    child processes, leave the victim as it was and write nothing beside the log."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    log = tmp_path / "s.tlog"
    for pid in range(os.getpid(), os.getpid() + 301):
        os.symlink(victim, f"{log}.snap.tmp.{pid}")
    script = tmp_path / "play.txt"
    script.write_text("init --system toy\ntoy add a 9\nnote x\n")
    ok(log, "run", str(script))
    ok(log, "state")
    for args in (("state",), ("note", "y"), ("toy", "spend", "a", "1")):
        assert cli("--log", str(log), *args).returncode == 0
    assert victim.read_text() == "precious\n"
    names = {p.name for p in tmp_path.iterdir()} - {"victim.txt", "play.txt"}
    assert names == {"s.tlog"} | {
        f"s.tlog.snap.tmp.{pid}" for pid in range(os.getpid(), os.getpid() + 301)
    }


def test_a_dangling_backup_link_is_not_followed_by_repair(tmp_path: Path) -> None:
    """A dangling `<log>.bak` link: `verify --repair` creates no file at its target; the backup
    goes to `<log>.bak.1` and the torn tail is cut."""
    log = fresh(tmp_path)
    whole = log.read_bytes()
    ok(log, "note", "second")
    log.write_bytes(log.read_bytes()[:-3])
    target = tmp_path / "elsewhere" / "planted"
    (tmp_path / "elsewhere").mkdir()
    os.symlink(target, f"{log}.bak")
    out = ok(log, "verify", "--repair")
    assert f"backup at {log}.bak.1" in out
    assert not target.exists()
    assert log.read_bytes() == whole


def test_salvage_and_init_never_write_through_a_link(tmp_path: Path) -> None:
    """`verify --salvage OUT` and `init` at a dangling link: exit 3, nothing at the target."""
    log = fresh(tmp_path)
    target = tmp_path / "target.tlog"
    os.symlink(target, tmp_path / "out.tlog")
    result = invoke(log, "verify", "--salvage", str(tmp_path / "out.tlog"))
    assert result.exit_code == 3 and result.stderr.startswith("error: cannot create ")
    result = invoke(tmp_path / "out.tlog", "init", "--system", "toy")
    assert result.exit_code == 3 and "already exists" in result.stderr
    assert not target.exists()


def test_create_file_refuses_links_and_existing_files(tmp_path: Path) -> None:
    """The one way the store creates a file: never over a file, never through a link."""
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling")
    (tmp_path / "there").write_text("x")
    for name in ("dangling", "there"):
        with pytest.raises(FileExistsError):
            create_file(str(tmp_path / name))
    fd = create_file(str(tmp_path / "new"), 0o600)
    os.close(fd)
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o600
    assert not (tmp_path / "nowhere").exists()
