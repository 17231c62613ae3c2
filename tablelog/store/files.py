"""POSIX file handling the store shares: files it creates, reads it makes safely, and writes
that complete or are taken back (docs/RELIABILITY.md).

Every file the store creates is created with ``O_EXCL|O_NOFOLLOW`` (never over an existing file,
never through a symbolic link planted at its name); every file it reads is refused at once when
it is not a regular file (a FIFO planted at the name is never waited on, ``/dev/zero`` never
read without end); every write checks its length (a short write is continued, one that writes
nothing is a full disk).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from typing import BinaryIO

from tablelog.store.errors import LogError
from tablelog.text import msg

__all__ = [
    "NotRegularFile",
    "open_regular",
    "create_file",
    "write_all",
    "append_all",
    "remove_quietly",
    "fsync_dir",
]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class NotRegularFile(OSError):
    """A FIFO, a device, a directory or a socket where a file to read was expected."""

    def __str__(self) -> str:
        return "not a regular file"


def open_regular(path: str, buffering: int = -1) -> BinaryIO:
    """Open ``path`` for reading, only when it is a regular file: a FIFO, a device or a
    directory planted at the name (a shared folder) is refused at once, never waited on (the
    open does not block) nor read without end (``/dev/zero``).

    Raises:
        NotRegularFile: it is not a regular file (``strerror`` "not a regular file");
            OSError: it cannot be opened.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotRegularFile(errno.EINVAL, "not a regular file", path)
    return os.fdopen(fd, "rb", buffering=buffering)


def create_file(path: str, mode: int = 0o644) -> int:
    """Create a new file at ``path`` and return a descriptor open for writing: never over an
    existing file, never through a symbolic link (dangling or not), so a link planted at a name
    the store writes cannot redirect the write.

    Raises:
        FileExistsError: something (a file, a link) is at ``path``; OSError: cannot create it.
    """
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, mode)


def write_all(fd: int, data: bytes | memoryview) -> None:
    """Write every byte of ``data`` to ``fd``: ``os.write`` may write fewer; one that writes
    nothing is a full disk.

    Raises:
        OSError: a write failed or wrote nothing (the caller undoes what it wrote).
    """
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def append_all(fd: int, data: bytes, size: int, path: str) -> None:
    """Append ``data`` to the log at ``fd`` (``size`` bytes long) and fsync; on any failure cut
    the file back to ``size``.

    Raises:
        LogError: the write failed (saying whether the log is as it was).
    """
    try:
        write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        except OSError:
            raise LogError(
                msg(
                    "store.append.torn",
                    "could not append to {path}: {why}; the log may end in a torn record: run "
                    "tablelog verify --repair",
                    path=path,
                    why=reason,
                )
            ) from None
        raise LogError(
            msg(
                "store.append.failed",
                "could not append to {path}: {why}; the log is unchanged",
                path=path,
                why=reason,
            )
        ) from None


def remove_quietly(path: str) -> None:
    """Delete ``path`` if it exists (a file this process created and must take back)."""
    with contextlib.suppress(OSError):
        os.remove(path)


def fsync_dir(path: str) -> None:
    """Flush the directory entry of ``path`` so a created or renamed file survives a crash."""
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
