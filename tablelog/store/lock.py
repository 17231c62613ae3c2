"""The log's exclusive writer lock on ``<log>.lock``, waiting up to a timeout.

A thin adapter over the ``fasteners`` library's inter-process lock (a POSIX record lock,
``lockf``: the kernel drops it when a writer dies, even by SIGKILL; ``LockFileEx`` on Windows).
It is imported only when a command writes, so read-only commands do not pay its import. We chose
it over ``filelock`` for its start-up cost: importing ``filelock`` 4 took ≈35 ms of every
appending command, ``fasteners`` ≈9 ms (``python -X importtime``). A record lock belongs to the
process, so one process never waits for itself; tablelog takes the lock once per append.
"""

from __future__ import annotations

import os
import stat
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
        import fasteners

        try:  # fasteners opens it for writing, which would wait forever on a FIFO
            if not stat.S_ISREG(os.stat(self.path).st_mode):
                raise LockUnavailable(f"cannot lock {self.path}: not a regular file")
        except FileNotFoundError:
            pass  # created by the lock
        lock = fasteners.InterProcessLock(self.path)
        try:
            gotten = lock.acquire(timeout=self.timeout)
        except OSError as exc:
            raise LockUnavailable(f"cannot lock {self.path}: {exc.strerror or exc}") from None
        if not gotten:
            raise LockTimeout(self.path)
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
