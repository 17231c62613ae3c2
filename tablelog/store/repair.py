"""Mending a log: cut a torn tail (after a backup), or salvage the valid prefix into a new file.

Neither ever changes a complete record: ``repair`` cuts only a batch that a crash left incomplete
at the very end, and refuses anything else; ``salvage`` writes a *new* file and leaves the damaged
one as it is (docs/RELIABILITY.md).
"""

from __future__ import annotations

import os
import shutil

from tablelog.store.base import Log
from tablelog.store.format import BATCH_KEY, Position, chain_hash
from tablelog.store.log import LogError, LogFile, fsync_dir

__all__ = ["repair", "salvage", "sound_prefix"]

_CHUNK = 1 << 20


def repair(log: LogFile) -> tuple[int, str] | None:
    """Truncate a torn last batch after copying the file to a backup (under the writer lock).

    Returns:
        ``(offset truncated at, backup path)``, or None when there was nothing to repair.

    Raises:
        LogError: the log is corrupt before its tail (never repaired silently), or locked.
    """
    with log.lock():
        for _ in log.records(chain=True):
            pass
        if log.torn_at is None:
            return None
        backup = _free_name(log.path + ".bak")
        shutil.copy2(log.path, backup)
        with open(backup, "rb") as b:
            os.fsync(b.fileno())
        with open(log.path, "r+b") as f:
            f.truncate(log.torn_at)
            f.flush()
            os.fsync(f.fileno())
        fsync_dir(log.path)
        return log.torn_at, backup


def salvage(log: LogFile, out: str, before: int | None = None) -> tuple[int, int, int | None]:
    """Copy the header and every whole command before the first bad record into a new file
    ``out``: the first record that fails a check, or record ``before`` when given (one that
    is sound but does not decode or apply, found by a fold).

    Returns:
        ``(records kept, bytes written, offset of the first bad record or None)``.

    Raises:
        LogError: ``out`` exists or cannot be written, or the header itself is bad.
    """
    keep, bad = sound_prefix(log, before)
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as exc:
        raise LogError(f"cannot create {out}: {exc.strerror}") from None
    try:
        _copy_prefix(log.path, fd, keep.offset)
        os.fsync(fd)
    except OSError as exc:
        os.close(fd)
        os.remove(out)
        raise LogError(f"cannot write {out}: {exc.strerror}; nothing salvaged") from None
    os.close(fd)
    fsync_dir(out)
    return keep.seq, keep.offset, bad


def sound_prefix(log: Log, before: int | None = None) -> tuple[Position, int | None]:
    """Return where the whole commands before the first bad record of ``log`` end (the first
    record that fails a check, or record ``before``), and that record's offset (or the torn
    tail's, or None when every record is sound).

    Raises:
        LogError: the header is bad.
    """
    log.open()
    bad: int | None = None
    keep = log.start
    assert keep is not None
    try:
        for seq, env, offset, end, payload in log.records(chain=True):
            if before is not None and seq >= before:
                bad = offset
                break
            if BATCH_KEY not in env:  # the last record of its command
                keep = Position(seq, end, chain_hash(payload), offset)
        else:
            bad = log.torn_at
    except LogError as exc:
        bad = exc.offset
    return keep, bad


def _copy_prefix(path: str, fd: int, size: int) -> None:
    """Copy the first ``size`` bytes of ``path`` to the open descriptor ``fd``."""
    with open(path, "rb") as src:
        remaining = size
        while remaining:
            chunk = memoryview(src.read(min(remaining, _CHUNK)))
            if not chunk:
                raise OSError(0, "the log got shorter while it was copied")
            remaining -= len(chunk)
            while chunk:
                chunk = chunk[os.write(fd, chunk):]


def _free_name(base: str) -> str:
    name, n = base, 0
    while os.path.exists(name):
        n += 1
        name = f"{base}.{n}"
    return name
