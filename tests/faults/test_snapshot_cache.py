"""The snapshot cache against a hostile player (issue 13, item 1): a snapshot is used only when
it is provably this user's own (a private directory and a MAC under the user's key), each
checkpoint is bound to its record's own seq, decoding is bounded, and any failure means folding
from the log: no command's output, and nothing appended, ever depends on a snapshot."""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import msgpack
import pytest

from tablelog.store.snapshot import (
    MAX_SNAPSHOT_BYTES,
    SNAPSHOT_MAGIC,
    cache_dir,
    decode_state,
    encode_state,
    snapshot_path,
)
from tests.support import toy
from tests.support.cli import ok
from tests.support.snapshots import (
    append_outputs,
    body_of,
    checkpointed_log,
    outputs,
    put,
    sealed,
    snapshot_of,
    user_key,
)

toy.install()

TOYCLI = str(Path(__file__).resolve().parent / "toycli.py")


@pytest.fixture(autouse=True)
def every_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint every 2 records, so the snapshot holds several."""
    monkeypatch.setenv("TABLELOG_SNAPSHOT_EVERY", "2")


def forged(good: bytes, points: int = 999) -> dict:
    """The body of the user's snapshot ``good`` with counter a's points (``hp``) at ``points`` in
    every checkpoint (anchors, CRCs and seqs as they were: only the state is forged)."""
    body = body_of(good)
    for cp in body["checkpoints"]:
        fields = decode_state(cp["state"])
        if "a" in fields["characters"]:
            fields["characters"]["a"]["hp"] = points
        cp["state"] = encode_state(fields)
    return body


def test_a_forged_snapshot_beside_the_log_is_never_read(tmp_path: Path) -> None:
    """The old place, `<log>.snap`, with a forged state, the CRC recomputed and the anchors
    copied from the user's own snapshot: nothing reads it (exit 0 with the true state)."""
    log = checkpointed_log(tmp_path)
    good = snapshot_of(log).read_bytes()
    expected = outputs(log, None)
    body = msgpack.packb(forged(good), use_bin_type=True)
    old = struct.pack(">8sHII", SNAPSHOT_MAGIC, 2, len(body), zlib.crc32(body)) + body
    Path(str(log) + ".snap").write_bytes(old)
    assert outputs(log, None) == expected
    assert '"a": {"hp": 6,' in ok(log, "state", "--json")


def test_a_forged_snapshot_without_the_users_key_changes_nothing(tmp_path: Path) -> None:
    """A forged state (a: 999 points) sealed with any other key: every read prints the true
    state, and `toy spend a 50` is refused as on the log alone (a has 6 points)."""
    log = checkpointed_log(tmp_path)
    body = forged(snapshot_of(log).read_bytes())
    hostile = sealed(body, b"k" * 32)
    assert outputs(log, hostile) == outputs(log, None)
    assert append_outputs(log, hostile) == append_outputs(log, None)
    put(log, hostile)
    assert '"a": {"hp": 6,' in ok(log, "state", "--json")
    put(log, sealed(body, user_key()))  # the same forgery under the user's key is believed:
    assert '"a": {"hp": 999,' in ok(log, "state", "--json")  # the key is what protects


def test_a_checkpoint_is_bound_to_its_own_seq(tmp_path: Path) -> None:
    """A checkpoint whose seq says 9 while its anchors (offset, chain hash) are record #11's,
    even under the user's own key: it is not used, and the next note is #12, not #10."""
    log = checkpointed_log(tmp_path)
    body = body_of(snapshot_of(log).read_bytes())
    last = body["checkpoints"][-1]
    assert last["seq"] == 11
    last["seq"] = 9
    put(log, sealed(body, user_key()))
    assert ok(log, "note", "next").startswith("#12 core.Noted")
    assert ok(log, "verify").startswith(f"ok: {log}: 12 records")


def _nested_tuples(depth: int) -> bytes:
    """The msgpack of a map whose one value is a tuple inside a tuple … ``depth`` deep."""
    inner = msgpack.packb([], use_bin_type=True)
    for _ in range(depth):
        inner = msgpack.packb(msgpack.ExtType(1, inner), use_bin_type=True)
    return b"\x81\xa1x" + inner


HOSTILE_STATES = {
    "3,000 nested ext values": _nested_tuples(3000),
    "a fraction '1e999999999'": msgpack.packb(
        {"x": msgpack.ExtType(2, msgpack.packb(["1e999999999", 1]))}, use_bin_type=True
    ),
    "a zero denominator": msgpack.packb(
        {"x": msgpack.ExtType(2, msgpack.packb([1, 0]))}, use_bin_type=True
    ),
    "a list where a map belongs": msgpack.packb([1, 2, 3], use_bin_type=True),
    "an unknown ext code": msgpack.packb({"x": msgpack.ExtType(99, b"")}, use_bin_type=True),
    "a 100,000-digit integer": msgpack.packb(
        {"x": msgpack.ExtType(5, b"9" * 100_000)}, use_bin_type=True
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE_STATES))
def test_hostile_state_values_are_decoded_within_bounds(tmp_path: Path, name: str) -> None:
    """Each checkpoint's state replaced by a hostile value, sealed even with the user's own key
    (the worst case): a child process neither crashes (SIGSEGV), hangs, nor prints a traceback:
    every command prints what it prints without a snapshot."""
    log = checkpointed_log(tmp_path)
    body = body_of(snapshot_of(log).read_bytes())
    for cp in body["checkpoints"]:
        cp["state"] = HOSTILE_STATES[name]
    hostile = sealed(body, user_key())
    for args in (("state", "--json"), ("note", "x")):
        runs = []
        for content in (None, hostile):
            put(log, content)
            before = log.read_bytes()
            done = subprocess.run(
                [sys.executable, TOYCLI, "--log", str(log), *args],
                capture_output=True,
                text=True,
                timeout=60,
            )
            runs.append((done.returncode, done.stdout, done.stderr))
            log.write_bytes(before)
        assert runs[1] == runs[0], name
        assert runs[0][0] == 0


def test_a_state_beyond_the_decoder_bounds_is_packed_and_refused_when_restored() -> None:
    """A checkpoint's state is packed, not decoded back, when it is taken: tuples nested 40 deep
    (the decoder reads 32) pack, and restoring them is refused (the fold starts from the log)."""
    deep: object = ()
    for _ in range(40):
        deep = (deep,)
    data = encode_state({"extra": {"deep": deep}})
    with pytest.raises(ValueError, match="snapshot state does not decode"):
        decode_state(data)
    shallow = encode_state({"extra": {"pair": ((1, 2), "a")}})
    assert decode_state(shallow) == {"extra": {"pair": ((1, 2), "a")}}


def test_a_checkpoint_that_is_a_list_is_no_checkpoint(tmp_path: Path) -> None:
    """A checkpoint list holding a list where a map belongs, sealed with the user's key: no
    traceback, the true state."""
    log = checkpointed_log(tmp_path)
    body = body_of(snapshot_of(log).read_bytes())
    body["checkpoints"][-1] = [1, 2, 3]
    assert outputs(log, sealed(body, user_key())) == outputs(log, None)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (768 << 20, 768 << 20))


def test_a_200_MB_snapshot_is_not_read(tmp_path: Path) -> None:
    """A snapshot of 200 MB (over the 64 MiB bound) is refused by its size before any byte of
    it is read: under a 768 MB address-space limit the state is the log's."""
    log = checkpointed_log(tmp_path)
    expected = ok(log, "state")
    snap = snapshot_of(log)
    size = 200 * 1024 * 1024
    assert size > MAX_SNAPSHOT_BYTES
    with open(snap, "wb") as f:
        f.write(struct.pack(">8sHI32s", SNAPSHOT_MAGIC, 3, size, bytes(32)))
        f.truncate(46 + size)  # sparse: the disk holds almost none of it
    done = subprocess.run(
        [sys.executable, TOYCLI, "--log", str(log), "state"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_the_cache_directory_is_private(tmp_path: Path) -> None:
    """The cache directory is made with mode 0700 and the key with 0600; a cache directory
    that others may write, or that is a symbolic link, is not used (no snapshot is read or
    written there) and every command still works."""
    log = checkpointed_log(tmp_path)
    folder = cache_dir()
    assert folder is not None
    assert os.stat(folder).st_mode & 0o777 == 0o700
    assert os.stat(Path(folder) / "snapshot.key").st_mode & 0o777 == 0o600
    expected = outputs(log, None)
    os.chmod(folder, 0o777)
    assert snapshot_path(str(log)) is None
    assert ok(log, "state") == expected[0][1]
    assert ok(log, "note", "open").startswith("#12 ")
    os.chmod(folder, 0o700)
    os.environ["XDG_CACHE_HOME"] = str(tmp_path / "linked")
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "tablelog").symlink_to(folder)
    assert cache_dir() is None


def test_temporaries_left_by_a_crash_are_removed(tmp_path: Path) -> None:
    """A snapshot temporary older than an hour (a crash between create and rename) is removed
    by the next snapshot written; a younger one (another process's, mid-write) is left."""
    log = checkpointed_log(tmp_path)
    snap = snapshot_of(log)
    old, young = Path(f"{snap}.tmp.0123456789abcdef"), Path(f"{snap}.tmp.fedcba9876543210")
    for path in (old, young):
        path.write_bytes(b"half a snapshot")
    hours_ago = time.time() - 7200
    os.utime(old, (hours_ago, hours_ago))
    ok(log, "note", "one")
    ok(log, "note", "two")  # a checkpoint at #12 is written (every 2)
    assert not old.exists() and young.exists()
