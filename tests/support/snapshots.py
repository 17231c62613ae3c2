"""Helpers for tests that attack the snapshot cache: a log with checkpoints, the user's snapshot
file and key, and every command's output with and without a given snapshot."""

from __future__ import annotations

import re
from pathlib import Path

import msgpack

from tablelog.store.snapshot import cache_dir, seal, snapshot_path
from tests.support.cli import invoke, ok

FIXED = 46  # magic 8, version 2, body length 4, MAC 32 (docs/FORMAT.md)

# Every read command, and what each prints; an append is compared separately (its time differs).
READS = [
    ("state",),
    ("state", "--json"),
    ("state", "--at", "3"),
    ("log", "--json"),
    ("log", "--all"),
    ("history", "a"),
    ("replay",),
    ("verify",),
]
APPENDS = [("toy", "spend", "a", "2"), ("note", "after"), ("undo",), ("toy", "spend", "a", "50")]


def checkpointed_log(tmp_path: Path) -> Path:
    """A toy log of 11 records (a counter a with 9 points, b with 4, spends, notes, an undo),
    whose user's snapshot holds checkpoints every 2 records and one at the end (run's)."""
    log = tmp_path / "s.tlog"
    script = tmp_path / "play.txt"
    script.write_text(
        "init --system toy --seed 3\ntoy add a 9\ntoy add b 4\ntoy spend a 2\n"
        "note 'a ruling'\ntoy roll a\ntoy spend b 1\nundo\nnote two\n"
        "toy spend a 1\ntoy add c 5\nnote three\n"
    )
    ok(log, "run", str(script))
    assert Path(snapshot_path(str(log)) or "").exists()
    return log


def snapshot_of(log: Path) -> Path:
    """The path of this user's snapshot of ``log``."""
    path = snapshot_path(str(log))
    assert path is not None
    return Path(path)


def user_key() -> bytes:
    """This user's snapshot key (what only this user's tablelog can read)."""
    folder = cache_dir()
    assert folder is not None
    return (Path(folder) / "snapshot.key").read_bytes()


def body_of(raw: bytes) -> dict:
    """The decoded body of a snapshot file."""
    return msgpack.unpackb(raw[FIXED:], raw=False, strict_map_key=False)


def sealed(body: dict, key: bytes) -> bytes:
    """A snapshot file holding ``body`` under ``key``."""
    return seal(msgpack.packb(body, use_bin_type=True), key)


def put(log: Path, content: bytes | None) -> None:
    """Make the user's snapshot of ``log`` hold ``content`` (None: no snapshot)."""
    snap = snapshot_of(log)
    snap.unlink(missing_ok=True)
    if content is not None:
        snap.write_bytes(content)


def outputs(log: Path, content: bytes | None) -> list[tuple[int, str, str]]:
    """``(exit status, stdout, stderr)`` of every read command, each run with the snapshot
    holding ``content`` (put back before each: a command may write its own)."""
    results = []
    for args in READS:
        put(log, content)
        result = invoke(log, *args)
        results.append((result.exit_code, result.stdout, result.stderr))
    return results


def append_outputs(log: Path, content: bytes | None) -> list[tuple[int, str, str, str]]:
    """For each append, with the snapshot holding ``content``: its exit status and output, and
    `log --all` after it without the record times (the log is put back after each)."""
    before = log.read_bytes()
    results = []
    for args in APPENDS:
        put(log, content)
        result = invoke(log, *args)
        listing = invoke(log, "log", "--all").stdout
        untimed = re.sub(r" \d{4}-\d\d-\d\dT[\d:.]+Z", "", listing)
        results.append((result.exit_code, result.stdout, result.stderr, untimed))
        log.write_bytes(before)
    return results
