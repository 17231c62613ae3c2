"""The log's exclusive writer lock: a lock on the log file itself, waiting up to a timeout.

The lock is taken on a descriptor of the log (``flock``: the kernel drops it when a writer dies,
even by SIGKILL, and closing *other* descriptors of the file does not release it, as it would a
``lockf`` record lock), and after locking it is checked that the file locked is still the one at
the path: a log deleted or replaced under a waiting writer is locked again, by its new inode.
There is no separate lock file that someone could delete or replace while a writer holds it (the
attack of issue 13: two writers at one offset). The appender writes through the same descriptor,
opened in append mode, so it writes to exactly the file it locked.

On Windows (no ``fcntl``) ``msvcrt.locking`` locks one byte far past any real log's end instead
(untested: tablelog's tests run on POSIX).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

from tablelog.text import Msg, english, msg

__all__ = ["LogLock", "LockTimeout", "LockUnavailable", "no_append_in_flight"]

_FAR = 1 << 40  # Windows: the byte locked (past any log: a Windows lock also blocks reads)


class LockTimeout(Exception):
    """The lock was not free within the timeout."""


class LockUnavailable(Exception):
    """The log cannot be opened for writing and locked (e.g. a read-only file).

    Attributes:
        msg: Why, as a sentence (:class:`~tablelog.text.Msg`); ``str(exc)`` is its English.
    """

    def __init__(self, message: Msg) -> None:
        super().__init__(english(message))
        self.msg = message


class LogLock:
    """An exclusive lock on the log at ``path`` (a context manager).

    Args:
        path: The log file (it must exist: a lock never creates a file).
        timeout: Seconds to wait for it before :class:`LockTimeout`.

    Attributes:
        fd: While held, a descriptor of the locked log, open for appending (else None).
    """

    def __init__(self, path: str, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, waiting up to the timeout.

        Raises:
            LockTimeout: another process holds it past the timeout.
            LockUnavailable: the log cannot be opened for appending or is not a regular file.
        """
        deadline, delay = time.monotonic() + self.timeout, 0.002
        while True:
            fd = self._open()
            try:
                locked = _try_lock(fd)
            except OSError as exc:  # a file system without locks, say
                os.close(fd)
                why = exc.strerror or str(exc)
                raise LockUnavailable(
                    msg("store.cannot.lock", "cannot lock {path}: {why}", path=self.path, why=why)
                ) from None
            if locked:
                if self.still_at_path(fd):
                    self.fd = fd
                    return
                delay = 0.0  # replaced while we waited: lock the new file at once
            os.close(fd)
            if time.monotonic() >= deadline:
                raise LockTimeout(self.path)
            time.sleep(delay)
            delay = min(max(delay, 0.002) * 2, 0.05)

    def _open(self) -> int:
        try:  # non-blocking: a FIFO at the path must not hang the command
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_NONBLOCK | _CLOEXEC)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise LockUnavailable(
                    msg(
                        "store.lock.read_only",
                        "cannot write {path}: it is read-only here ({why})",
                        path=self.path,
                        why=exc.strerror,
                    )
                ) from None
            why = exc.strerror or str(exc)
            raise LockUnavailable(
                msg("store.cannot.lock", "cannot lock {path}: {why}", path=self.path, why=why)
            ) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise LockUnavailable(
                msg(
                    "store.lock.not_regular",
                    "cannot lock {path}: not a regular file",
                    path=self.path,
                )
            )
        return fd

    def still_at_path(self, fd: int) -> bool:
        """Return whether the file locked through ``fd`` is still the one at the path."""
        try:
            now = os.stat(self.path)
        except OSError:
            return False
        held = os.fstat(fd)
        return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)

    def release(self) -> None:
        """Release the lock (closing its descriptor releases it)."""
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)

    def __enter__(self) -> LogLock:
        if self.fd is None:
            self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


@contextmanager
def no_append_in_flight(path: str, timeout: float) -> Iterator[bool | None]:
    """Hold a shared lock on the log at ``path`` for the block, waiting up to ``timeout``
    seconds: a writer holds the exclusive lock while it writes, so no append is in flight
    while the block runs, and a record the file ends inside is a crash mid-append, not a
    write another process has not finished. A reader takes it only after a read without it
    ended inside a record (a shared lock never blocks another reader).

    Yields:
        True: the lock is held. False: another process held the exclusive lock all the
        timeout (a live writer: the kernel frees a dead one's). None: cannot tell (the file
        cannot be opened or locked, or the platform has no ``flock``).
    """
    try:
        import fcntl
    except ImportError:  # Windows: its byte lock would block reads (see the module's text)
        yield None
        return
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _CLOEXEC)
    except OSError:
        yield None
        return
    try:
        deadline, delay, held = time.monotonic() + timeout, 0.002, None
        while stat.S_ISREG(os.fstat(fd).st_mode):
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                held = True
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    held = False
                    break
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
            except OSError:  # a file system without locks
                break
        yield held
    finally:
        os.close(fd)


def _try_lock(fd: int) -> bool:
    """Try to lock ``fd`` without waiting; return whether it is now held."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        os.lseek(fd, _FAR, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
