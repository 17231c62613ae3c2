"""The log's exclusive writer lock: ``flock`` on ``<log>.lock``, waiting up to a timeout.

On POSIX this is a few lines over ``fcntl.flock`` (the lock file is never deleted, so every
writer locks the same inode; the kernel drops the lock when a writer dies, even by SIGKILL).
Elsewhere it falls back to ``filelock``, imported only then: it costs a tenth of a second of
start-up that every appending command would pay.
"""

from __future__ import annotations

import os
import time
from types import TracebackType
from typing import Any

__all__ = ["LogLock", "LockTimeout"]

_POLL_S = 0.005


class LockTimeout(Exception):
    """The lock was not free within the timeout."""


class LogLock:
    """An exclusive, non-reentrant lock on ``path`` (a context manager).

    Args:
        path: The lock file (created if missing, never removed).
        timeout: Seconds to wait for it before :class:`LockTimeout`.
    """

    def __init__(self, path: str, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None
        self._fallback: Any = None

    def acquire(self) -> None:
        """Take the lock, waiting up to the timeout.

        Raises:
            LockTimeout: another process holds it past the timeout.
            OSError: the lock file cannot be opened.
        """
        try:
            import fcntl
        except ImportError:  # not POSIX
            self._acquire_fallback()
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._fd = fd
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout(self.path) from None
                time.sleep(_POLL_S)

    def _acquire_fallback(self) -> None:
        import filelock

        lock = filelock.FileLock(self.path, timeout=self.timeout)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise LockTimeout(self.path) from None
        self._fallback = lock

    def release(self) -> None:
        """Release the lock (closing the descriptor drops the flock)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)
        if self._fallback is not None:
            lock, self._fallback = self._fallback, None
            lock.release()

    def __enter__(self) -> LogLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
