"""How long a process waits for another writer of a log file, and what it remembers of one
that outwaited it (docs/RELIABILITY.md, "What concurrent writers may expect").

A writer waits up to ``$TABLELOG_LOCK_TIMEOUT`` (default 10 s) for the log's lock
(:mod:`tablelog.store.lock`). A read that ends inside a record without the lock waits as long
for a shared lock, so an append in flight reads whole. A writer that held the lock all that
time is alive (the kernel frees a dead one's lock): this process then remembers it, per
process, so a long-lived process (a server, a shell) spends one wait per timeout on a stuck
writer, not one per command (:data:`_LOCK_OUTWAITED`), and one per record it stalls in
(:data:`_OUTWAITED`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from tablelog.store.errors import LogError, LogLocked
from tablelog.store.lock import LockTimeout, LockUnavailable, LogLock, no_append_in_flight
from tablelog.text import msg

__all__ = ["LOCK_TIMEOUT_S", "lock_timeout_s", "take_lock", "settled"]

LOCK_TIMEOUT_S = 10.0  # seconds; $TABLELOG_LOCK_TIMEOUT overrides it

_LOCK_OUTWAITED: dict[str, float] = {}
"""Log path → until when (``time.monotonic()``) a writer lock that this process waited for
all the timeout is only tried, not waited for (:func:`take_lock`): a long-lived process (a
server, a shell) does not spend a timeout per command on a writer that is stuck, so a stalled
writer holds up one request per timeout, not every thread of the server."""

_OUTWAITED: set[tuple[str, int]] = set()
"""``(log path, offset)`` of each record whose writer held the lock past a reader's whole wait
(:func:`settled`): later reads in this process try the lock once without waiting."""


def lock_timeout_s() -> float:
    """Return the lock timeout in seconds (``$TABLELOG_LOCK_TIMEOUT``, default 10).

    Raises:
        LogError: the variable is not a non-negative number.
    """
    text = os.environ.get("TABLELOG_LOCK_TIMEOUT")
    if text is None:
        return LOCK_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise LogError(
            msg(
                "store.lock.timeout_env",
                "TABLELOG_LOCK_TIMEOUT must be a number of seconds, got {text}",
                text=repr(text),
            )
        )
    return value


def take_lock(path: str) -> LogLock:
    """Return the exclusive lock of the log file at ``path``, acquired, waiting up to the
    timeout (only trying, within a timeout of a wait for it that ran out).

    Raises:
        LogLocked: locked by another writer past the timeout (or at that one try), or the log
            cannot be opened for appending; LogError: a bad ``$TABLELOG_LOCK_TIMEOUT``.
    """
    timeout = lock_timeout_s()
    key = os.path.abspath(path)
    busy = time.monotonic() < _LOCK_OUTWAITED.get(key, 0.0)
    lock = LogLock(path, 0.0 if busy else timeout)
    try:
        lock.acquire()
    except LockTimeout:
        if busy:
            raise LogLocked(
                msg(
                    "store.lock.still",
                    "{path} is still locked by another writer (a wait of {seconds} s for it "
                    "ran out moments ago)",
                    path=path,
                    seconds=f"{timeout:g}",
                )
            ) from None
        _LOCK_OUTWAITED[key] = time.monotonic() + timeout
        raise LogLocked(
            msg(
                "store.lock.locked",
                "{path} is locked by another writer (waited {seconds} s)",
                path=path,
                seconds=f"{timeout:g}",
            )
        ) from None
    except LockUnavailable as exc:
        raise LogLocked(exc.msg) from None
    _LOCK_OUTWAITED.pop(key, None)
    return lock


def settled(path: str, offset: int) -> AbstractContextManager[bool | None]:
    """Return a block holding a shared lock on the log file at ``path``, so no append is in
    flight in it (:func:`tablelog.store.lock.no_append_in_flight`), after a read ended inside
    a record at ``offset``: it waits up to the lock timeout, once per record in this process
    (a record whose writer held the lock all the timeout gets one try without waiting).

    Raises:
        LogError: ``$TABLELOG_LOCK_TIMEOUT`` is not a number of seconds.
    """
    key = (os.path.abspath(path), offset)
    timeout = 0.0 if key in _OUTWAITED else lock_timeout_s()
    return _outwaited(key, timeout, no_append_in_flight(path, timeout))


@contextmanager
def _outwaited(
    key: tuple[str, int], timeout: float, block: AbstractContextManager[bool | None]
) -> Iterator[bool | None]:
    """Run ``block`` (a wait of ``timeout`` seconds), noting ``key`` in :data:`_OUTWAITED`
    when its wait ran out (and the writer lock as waited for, :data:`_LOCK_OUTWAITED`: an
    append right after does not wait for the same writer again), and forgetting it when the
    lock was had (that writer is done: a record written at the same offset later, after a
    repair, is another's and is waited for again)."""
    with block as held:
        if held is False:
            if len(_OUTWAITED) > 1000:  # stuck writers are rare: never more than a handful
                _OUTWAITED.clear()
            _OUTWAITED.add(key)
            if timeout:
                _LOCK_OUTWAITED[key[0]] = time.monotonic() + timeout
        elif held:
            _OUTWAITED.discard(key)
        yield held
