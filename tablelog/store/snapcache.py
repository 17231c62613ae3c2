"""This user's private snapshot cache of log files: one sealed file per log, never beside it.

A log file's snapshot (:mod:`tablelog.store.snapshot`: its checkpoints) lives in this user's own
cache directory (``$XDG_CACHE_HOME/tablelog``, else ``~/.cache/tablelog``; mode 0700, owned by the
user, never a symbolic link), named by a hash of the log's real path, and is sealed with a MAC
(keyed BLAKE2b-256) under a key kept there (``snapshot.key``, 32 random bytes, mode 0600): a
snapshot is believed only when it is provably one this user's tablelog wrote. It is written
atomically (a new temporary file with a random name, fsync, rename, directory fsync). The layout
is in docs/FORMAT.md.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import struct
import time

from tablelog.store.files import create_file, fsync_dir, remove_quietly, write_all
from tablelog.store.private import (
    is_own,
    private_dir,
    read_private,
    temporary_name,
    write_private,
)

__all__ = [
    "SNAPSHOT_MAGIC",
    "SNAPSHOT_VERSION",
    "MAX_SNAPSHOT_BYTES",
    "FIXED",
    "cache_dir",
    "seal",
    "snapshot_path",
    "read_body",
    "write_body",
]

SNAPSHOT_MAGIC = b"\x89TBSNAP\n"
SNAPSHOT_VERSION = 3  # 3: a MAC under the user's key in place of the CRC-32; a private directory
MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024
KEY_NAME = "snapshot.key"
_KEY_BYTES = 32
_STALE_TEMP_S = 3600  # a temporary older than this was left by a crash: removed
FIXED = struct.Struct(">8sHI32s")  # magic, version, body length, MAC of the body
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def cache_dir() -> str | None:
    """Return this user's private tablelog cache directory, made if missing, or None when
    there is none that is provably private (see :func:`tablelog.store.private.private_dir`)."""
    return private_dir("XDG_CACHE_HOME", ".cache")


def _key(folder: str) -> bytes | None:
    """Return the user's snapshot key (made on first use), or None when it cannot be had."""
    path = os.path.join(folder, KEY_NAME)
    key = read_private(path, _KEY_BYTES)
    if key is None and write_private(path, secrets.token_bytes(_KEY_BYTES)):
        key = read_private(path, _KEY_BYTES)
    return key if key is not None and len(key) == _KEY_BYTES else None


def seal(body: bytes, key: bytes) -> bytes:
    """Return the snapshot file's bytes for ``body``: the fixed part with its MAC, the body."""
    mac = hashlib.blake2b(body, key=key, digest_size=32).digest()
    return FIXED.pack(SNAPSHOT_MAGIC, SNAPSHOT_VERSION, len(body), mac) + body


def snapshot_path(log_path: str) -> str | None:
    """Return where this user's snapshot of ``log_path`` lives (named by a hash of the log's
    real path), or None when there is no private cache directory."""
    folder = cache_dir()
    if folder is None:
        return None
    where = os.path.realpath(log_path).encode("utf-8", "surrogateescape")
    return os.path.join(folder, hashlib.blake2b(where, digest_size=16).hexdigest() + ".snap")


def write_body(log_path: str, body: bytes) -> None:
    """Write the snapshot file of ``log_path`` holding ``body``, sealed, atomically: a new
    temporary file, fsync, rename, directory fsync. Removes temporaries that a crash left
    behind (older than an hour).

    Raises:
        OSError: the file could not be written (callers ignore it: a snapshot is a cache).
    """
    path = snapshot_path(log_path)
    key = _key(os.path.dirname(path)) if path is not None else None
    if path is None or key is None:
        raise OSError("no private cache directory for snapshots")
    if len(body) > MAX_SNAPSHOT_BYTES:
        raise OSError(f"snapshot of {len(body)} bytes is over the limit")
    _remove_stale_temporaries(path)
    tmp = temporary_name(path)
    try:
        fd = create_file(tmp, 0o600)
        try:
            write_all(fd, seal(body, key))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        remove_quietly(tmp)
        raise
    fsync_dir(path)


def read_body(log_path: str) -> bytes | None:
    """Return the body of this user's snapshot of ``log_path`` when its size and MAC check
    under this user's key, else None (missing, not provably this user's, too large)."""
    path = snapshot_path(log_path)
    key = _key(os.path.dirname(path)) if path is not None else None
    return _read_sealed(path, key) if path is not None and key is not None else None


def _remove_stale_temporaries(path: str) -> None:
    folder, prefix = os.path.split(path + ".tmp.")
    cutoff = time.time() - _STALE_TEMP_S
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                if (
                    entry.name.startswith(prefix)
                    and entry.stat(follow_symlinks=False).st_mtime < cutoff
                ):
                    remove_quietly(entry.path)
            except OSError:
                continue


def _read_sealed(path: str, key: bytes) -> bytes | None:
    """Return the body of the snapshot file at ``path`` when its size and MAC check, else None."""
    try:  # non-blocking open: a FIFO at the path must not hang the command
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if (
                not stat.S_ISREG(info.st_mode)
                or not is_own(info)
                or not FIXED.size <= info.st_size <= FIXED.size + MAX_SNAPSHOT_BYTES
            ):
                return None
            magic, version, size, mac = FIXED.unpack(f.read(FIXED.size))
            if (
                magic != SNAPSHOT_MAGIC
                or version != SNAPSHOT_VERSION
                or size != info.st_size - FIXED.size
            ):
                return None
            body = f.read(size)
    except (OSError, struct.error):
        return None
    expected = hashlib.blake2b(body, key=key, digest_size=32).digest()
    return body if len(body) == size and hmac.compare_digest(mac, expected) else None
