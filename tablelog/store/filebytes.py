"""A log file's bytes at given places, for the file store (:mod:`tablelog.store.logfile`): a new
file's first bytes written whole, the header read, one record's payload and envelope read back
where its span says, and the CRC-32 of a prefix.

Every read opens the file afresh (:func:`tablelog.store.files.open_regular`: a FIFO planted at
the name is refused, never waited on), so a file renamed over meanwhile is the one read.
"""

from __future__ import annotations

import os
import struct
import zlib
from typing import Any

import msgpack

from tablelog.store.errors import LogError, cannot, exists_error
from tablelog.store.files import (
    NotRegularFile,
    create_file,
    fsync_dir,
    open_regular,
    remove_quietly,
    write_all,
)
from tablelog.store.format import MAX_HEADER_BYTES, MAX_RECORD_BYTES, RECORD_PREFIX
from tablelog.text import msg

__all__ = ["write_new", "read_head", "payload_in", "envelope_in", "crc_before"]

_HEAD_BYTES = MAX_HEADER_BYTES + 32  # a header's fixed part, body and CRC, at most


def write_new(path: str, data: bytes) -> None:
    """Create the file ``path`` holding ``data`` (never through a symbolic link, never over an
    existing file), fsynced with its directory; a failed write removes it again.

    Raises:
        LogError: the path exists, or the file cannot be created or written in full.
    """
    try:
        fd = create_file(path)
    except FileExistsError:
        raise exists_error(path) from None
    except OSError as exc:
        raise LogError(cannot("create", path, exc.strerror)) from None
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(path)
    except OSError as exc:
        remove_quietly(path)  # ours (O_EXCL): a 0-byte or short file would block a retry
        raise LogError(cannot("write", path, exc.strerror or str(exc), "created")) from None


def read_head(path: str) -> bytes:
    """Return the first bytes of the log file ``path``, enough for any header.

    Raises:
        LogError: the file is missing, not a regular file, or cannot be read.
    """
    try:  # non-blocking open: a FIFO at the path must not hang the command
        with open_regular(path) as f:
            return f.read(_HEAD_BYTES)
    except NotRegularFile:
        raise LogError(msg("store.not_regular", "{path}: not a regular file", path=path)) from None
    except FileNotFoundError:
        raise LogError(
            msg("store.no_log", "no log at {path} (create one with: tablelog init)", path=path)
        ) from None
    except OSError as exc:
        raise LogError(cannot("read", path, exc.strerror)) from None


def payload_in(path: str, span: tuple[int, int]) -> bytes | None:
    """Return the payload framed at ``span`` (a record's start and end), or None when no
    record of that length lies there (or the file cannot be read)."""
    last, end = span
    if end - last - 8 > MAX_RECORD_BYTES or end - last < 8:
        return None
    try:
        with open_regular(path) as f:
            f.seek(last)
            data = f.read(end - last)
    except OSError:
        return None
    return data[8:] if len(data) == end - last else None


def envelope_in(path: str, last: int) -> dict[str, Any]:
    """Return the envelope of the record that starts at byte ``last``, its CRC-32 checked and
    its ``at`` and ``actor`` text.

    Raises:
        ValueError: what is wrong with it (OSError, KeyError, TypeError and msgpack's errors
            too): the caller names the record.
    """
    with open_regular(path) as f:
        f.seek(last)
        length, crc = RECORD_PREFIX.unpack(f.read(RECORD_PREFIX.size))
        payload = f.read(min(length, MAX_RECORD_BYTES))
    env = msgpack.unpackb(payload, strict_map_key=False)
    if zlib.crc32(payload) != crc:
        raise ValueError("checksum")
    if type(env) is not dict or type(env["at"]) is not str or type(env["actor"]) is not str:
        raise ValueError("not an envelope")
    return env


READ_BACK_ERRORS = (OSError, ValueError, KeyError, TypeError, struct.error, msgpack.UnpackException)
"""What :func:`envelope_in` raises for a record that cannot be read back."""


def crc_before(path: str, offset: int, start: int = 0, crc: int = 0) -> int:
    """Return the CRC-32 of the file's bytes before ``offset``, continuing ``crc`` (that of the
    bytes before ``start``); -1 when they cannot be read."""
    try:
        with open_regular(path) as f:
            f.seek(start)
            while start < offset:
                chunk = f.read(min(1 << 20, offset - start))
                if not chunk:
                    return -1
                crc, start = zlib.crc32(chunk, crc), start + len(chunk)
    except OSError:
        return -1
    return crc
