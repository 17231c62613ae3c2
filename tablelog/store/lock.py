"""The log's exclusive writer lock on ``<log>.lock``, waiting up to a timeout.

A thin adapter over the ``filelock`` library (flock on POSIX: the kernel drops the lock when a
writer dies, even by SIGKILL). It is imported only when a command writes, so read-only commands
do not pay its import.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

__all__ = ["LogLock", "LockTimeout", "LockUnavailable"]


class LockTimeout(Exception):
    """The lock was not free within the timeout."""


class LockUnavailable(Exception):
    """The lock file cannot be created or opened (e.g. a read-only directory)."""


class LogLock:
    """An exclusive lock on ``path`` (a context manager).

    Args:
        path: The lock file (created if missing, never removed).
        timeout: Seconds to wait for it before :class:`LockTimeout`.
    """

    def __init__(self, path: str, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._lock: Any = None

    def acquire(self) -> None:
        """Take the lock, waiting up to the timeout.

        Raises:
            LockTimeout: another process holds it past the timeout.
            LockUnavailable: the lock file cannot be opened (its strerror is kept).
        """
        import filelock

        lock = filelock.FileLock(self.path, timeout=self.timeout)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise LockTimeout(self.path) from None
        except OSError as exc:
            raise LockUnavailable(f"cannot lock {self.path}: {exc.strerror or exc}") from None
        self._lock = lock

    def release(self) -> None:
        """Release the lock."""
        if self._lock is not None:
            lock, self._lock = self._lock, None
            lock.release()

    def __enter__(self) -> LogLock:
        if self._lock is None:
            self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
