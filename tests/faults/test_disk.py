"""Failures of the disk (issue 13, item 7): every write checks its length, a failure is one
`error:` line with exit 3, and a failed create leaves nothing behind."""

from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.cli.main import cli as cli_main
from tablelog.replay import code_version
from tablelog.store import repair
from tablelog.store.log import LogFile
from tablelog.store.snapshot import read_snapshot
from tests.support import toy
from tests.support.cli import invoke, ok

toy.install()

TOYCLI = str(Path(__file__).resolve().parent / "toycli.py")


def cli(*args: str, file_limit: int) -> subprocess.CompletedProcess[str]:
    """The real command in a child process that may write files of at most ``file_limit``
    bytes (a full disk, as the kernel reports it: a short write, then EFBIG)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run(
        [sys.executable, TOYCLI, *args],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )


def test_init_on_a_full_disk_leaves_no_file_and_a_retry_works(tmp_path: Path) -> None:
    """`init` when only 100 bytes fit: exit 3, one line, no 0-byte or short file to block the
    retry, which then works."""
    log = tmp_path / "s.tlog"
    done = cli("--log", str(log), "init", "--system", "toy", file_limit=100)
    assert done.returncode == 3
    assert done.stderr == f"error: cannot write {log}: File too large; no log was created\n"
    assert not log.exists()
    assert ok(log, "init", "--system", "toy").startswith(f"created {log}")


@pytest.fixture
def short_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every os.write writes at most 5 bytes (as a pipe, a signal or a quota may make it)."""
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data[:5])))


def test_short_writes_are_completed(
    tmp_path: Path, short_writes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 5-byte writes, init, appends, a snapshot, repair and salvage write every byte."""
    monkeypatch.setenv("TABLELOG_SNAPSHOT_EVERY", "1")
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "toy", "add", "a", "9")
    assert read_snapshot(str(log), LogFile(str(log)).open().session_id, code_version("toy"))
    whole = log.read_bytes()
    ok(log, "note", "a ruling")
    cut = log.read_bytes()[:-3]  # the note's record torn
    log.write_bytes(cut)
    assert "backup at" in ok(log, "verify", "--repair")
    assert Path(f"{log}.bak").read_bytes() == cut
    assert log.read_bytes() == whole
    ok(log, "note", "again")
    assert ok(log, "verify", "--salvage", str(tmp_path / "out.tlog")).startswith(
        "salvaged: 2 records"
    )
    assert (tmp_path / "out.tlog").read_bytes() == log.read_bytes()
    assert ok(log, "verify").startswith(f"ok: {log}: 2 records")


def test_a_write_of_nothing_is_a_full_disk_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An os.write that writes 0 bytes: init and an append fail with exit 3 and one line, the
    log is as before, no file is left by init."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy")
    before = log.read_bytes()
    monkeypatch.setattr(os, "write", lambda fd, data: 0)
    result = invoke(log, "note", "x")
    assert (result.exit_code, result.stderr) == (
        3,
        f"error: could not append to {log}: No space left on device; the log is unchanged\n",
    )
    assert log.read_bytes() == before
    other = tmp_path / "o.tlog"
    result = invoke(other, "init", "--system", "toy")
    assert (result.exit_code, result.stderr) == (
        3,
        f"error: cannot write {other}: No space left on device; no log was created\n",
    )
    assert not other.exists()


def torn(tmp_path: Path) -> tuple[Path, bytes]:
    """A toy log of 40 notes whose last record is torn; its bytes."""
    log = tmp_path / "s.tlog"
    script = tmp_path / "notes.txt"
    script.write_text("init --system toy\n" + "".join(f"note n{i}\n" for i in range(40)))
    ok(log, "run", str(script))
    log.write_bytes(log.read_bytes()[:-3])
    return log, log.read_bytes()


def test_repair_when_the_backup_does_not_fit(tmp_path: Path) -> None:
    """`verify --repair` when the backup cannot be written in full (files of at most half the
    log): exit 3, one line, no `.bak` left (not even 0 bytes), the log unchanged."""
    log, before = torn(tmp_path)
    done = cli("--log", str(log), "verify", "--repair", file_limit=len(before) // 2)
    assert done.returncode == 3
    assert done.stderr == (
        f"error: cannot write the backup {log}.bak: File too large; nothing repaired\n"
    )
    assert not list(tmp_path.glob("*.bak*"))
    assert log.read_bytes() == before


def test_repair_in_a_read_only_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`verify --repair` where no file can be created (a read-only directory: EROFS; tests run
    as root, whom file modes do not stop): exit 3, one line, nothing created, log unchanged."""
    log, before = torn(tmp_path)

    def read_only(path: str, mode: int = 0o644) -> int:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)

    monkeypatch.setattr(repair, "create_file", read_only)
    result = invoke(log, "verify", "--repair")
    assert (result.exit_code, result.stderr) == (
        3,
        f"error: cannot create the backup {log}.bak: Read-only file system; nothing repaired\n",
    )
    assert not list(tmp_path.glob("*.bak*"))
    assert log.read_bytes() == before


@pytest.fixture
def read_only_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory holding a log of two notes where nothing can be created or removed: a tmpfs
    remounted read-only as root (file modes do not stop root), a 0555 directory otherwise; as
    root without ``mount``, the store's create and remove are made to fail with EROFS."""
    ro = tmp_path / "ro2"
    ro.mkdir()
    base = tmp_path / "base.tlog"
    ok(base, "init", "--system", "toy")
    ok(base, "note", "one")
    if os.geteuid() != 0:
        (ro / "t.tlog").write_bytes(base.read_bytes())
        ro.chmod(0o555)
        yield ro
        ro.chmod(0o755)
        return
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(ro)], capture_output=True
        ).returncode
        == 0
    )
    (ro / "t.tlog").write_bytes(base.read_bytes())
    if (
        mounted
        and subprocess.run(["mount", "-o", "remount,ro", str(ro)], capture_output=True).returncode
        == 0
    ):
        yield ro
    else:

        def refuse(path: object, *args: object, **kwargs: object) -> None:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)

        monkeypatch.setattr("tablelog.store.log.create_file", refuse)
        monkeypatch.setattr(os, "remove", refuse)
        yield ro
    if mounted:
        os.chdir(tmp_path)  # a test may have entered it: a busy mount does not unmount
        subprocess.run(["umount", str(ro)], check=True)


@pytest.mark.parametrize(
    "args",
    [
        ("export", "-o", "x.jsonl"),
        ("export", "--format", "csv", "-o", "c.csv"),
        ("report", "-o", "r.md"),
        ("report", "--format", "html", "-o", "r.html"),
    ],
)
def test_export_and_report_to_a_read_only_directory(
    read_only_dir: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """`export -o` and `report -o` in a read-only folder (the attack's `cd ro2; tablelog --log
    t.tlog export -o x.jsonl`): the temporary file's removal once raised EROFS over the real
    error (a traceback); now one `error:` line naming the file, exit 3, nothing created."""
    monkeypatch.chdir(read_only_dir)
    before = sorted(os.listdir(read_only_dir))
    result = invoke("t.tlog", *args)
    assert (result.exit_code, result.stdout) == (3, "")
    reason = "Permission denied" if os.geteuid() != 0 else "Read-only file system"
    assert result.stderr == f"error: cannot write {args[-1]}: {reason}\n"
    assert sorted(os.listdir(read_only_dir)) == before


def test_import_and_copy_into_a_read_only_directory(
    read_only_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`import` and `copy` into a read-only folder: one line, exit 3, nothing created."""
    monkeypatch.chdir(read_only_dir)
    exported = read_only_dir.parent / "t.jsonl"
    exported.write_text(ok("t.tlog", "export"))
    reason = "Permission denied" if os.geteuid() != 0 else "Read-only file system"
    result = invoke("o.tlog", "import", str(exported))
    assert (result.exit_code, result.stderr) == (3, f"error: cannot create o.tlog: {reason}\n")
    result = CliRunner().invoke(cli_main, ["copy", "t.tlog", "c.tlog"])
    assert (result.exit_code, result.stderr) == (3, f"error: cannot create c.tlog: {reason}\n")
    assert sorted(os.listdir(read_only_dir)) == ["t.tlog"]
