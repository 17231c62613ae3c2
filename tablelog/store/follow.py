"""Live subscription: wait for the records appended to a table after a seq (SERVER.md §1).

:func:`follow` yields every record after a seq, in order and each once, as it is appended,
by any process on any machine: a PostgreSQL table is followed with ``LISTEN tablelog`` and the
listeners' lock held (every append NOTIFYs after its transaction commits while a connection
listens, so a notification arrives only once the records are committed), a log file by
watching its size (polled: every ``poll_s`` seconds). The waiter is set up *before* each read,
so an append between a read and the wait is never missed. This is what the server's event
stream is built on.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from tablelog.store.base import Log
from tablelog.store.reader import StoredRecord

__all__ = ["follow", "seq_hint", "FileWaiter", "PostgresWaiter", "Watcher"]

POLL_S = 0.05  # seconds between two looks at a log file's size
LOOK_S = 1.0  # seconds between two reads of a PostgreSQL table without a notification


def follow(
    log: Log, after: int = 0, timeout_s: float | None = None, stop: threading.Event | None = None
) -> Iterator[StoredRecord]:
    """Yield every record of ``log`` after seq ``after`` as it is appended, in seq order.

    Args:
        log: The table (a log file or a PostgreSQL table).
        after: The last seq the caller has (0: from the first record).
        timeout_s: Return after this many seconds with nothing new (None: never).
        stop: Return as soon as it is set (checked at least every ``POLL_S`` seconds).

    Raises:
        LogError: the table cannot be read (or its connection was lost).
    """
    waiter = log.waiter()
    try:
        pos = None
        while pos is None:  # ``after`` may lie ahead of the table: wait until it is there
            pos = _position(log, after)
            if pos is None and not _wait(waiter, timeout_s, stop):
                return
        while True:
            yield from log.scan(pos)
            assert log.end is not None
            pos = log.end
            if not _wait(waiter, timeout_s, stop):
                return
    finally:
        waiter.close()


def _position(log: Log, after: int) -> Any:
    """Return the position after record ``after``, or None when the table does not hold it."""
    if log.start is None:
        log.open()
    return log.position(after)


def _wait(waiter: Any, timeout_s: float | None, stop: threading.Event | None) -> bool:
    """Wait until the waiter sees an append (True), or the timeout or ``stop`` (False)."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while stop is None or not stop.is_set():
        left = POLL_S if deadline is None else min(POLL_S, deadline - time.monotonic())
        if left <= 0:
            return False
        if waiter.wait(left):
            return True
    return False


def seq_hint(text: str) -> int | None:
    """Return the seq a notification's payload names after its table id (``"12"``), or None
    for anything else (empty, signed, not ASCII digits, or past a 64-bit seq): a payload is
    anyone's to send, so it must never raise (Python's ``int`` refuses some digits that
    ``str.isdigit`` accepts, such as ``"²"``, and strings of over 4,300 digits)."""
    if not (0 < len(text) <= 19 and text.isascii() and text.isdigit()):
        return None
    return int(text)


def _size(log: Log) -> int:
    """Return a log file's size, -1 when it cannot be read (removed, or not there yet)."""
    try:
        return os.stat(log.path).st_size
    except OSError:
        return -1


class FileWaiter:
    """Waits for a log file to change size (polling its size)."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self._size = self._now()

    def _now(self) -> int:
        return _size(self.log)

    def wait(self, timeout_s: float) -> bool:
        """Return True as soon as the file's size changed since the last call (or since this
        waiter was made), False after ``timeout_s`` seconds without a change."""
        deadline = time.monotonic() + timeout_s
        while True:
            size = self._now()
            if size != self._size:
                self._size = size
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(POLL_S, left))

    def close(self) -> None:
        """Nothing to release."""


class PostgresWaiter:
    """Waits for a PostgreSQL table's appends: ``LISTEN tablelog`` on a connection of its own.

    Raises:
        LogError: no connection to the database.
    """

    def __init__(self, log: Any) -> None:
        from tablelog.store.pgsql import connect, db_errors, listen  # loaded for PostgreSQL only

        self._prefix = f"{log.table_id} "
        self._looked = time.monotonic()
        self._errors: Callable[[], AbstractContextManager[None]] = lambda: db_errors(log.path)
        with self._errors():
            self._conn = connect(log.url)
            listen(self._conn)

    def wait(self, timeout_s: float) -> bool:
        """Return True when an append to this table was committed since the last call (or
        since this waiter was made), or a second passed since the last look (a writer that
        died between its commit and its NOTIFY must not hide its records); False after
        ``timeout_s`` seconds without either."""
        if time.monotonic() - self._looked >= LOOK_S:
            self._looked = time.monotonic()
            return True
        with self._errors():
            for note in self._conn.notifies(timeout=max(timeout_s, 0.001)):
                if note.payload.startswith(self._prefix):
                    self._looked = time.monotonic()
                    return True
        return False

    def close(self) -> None:
        """Close the listening connection."""
        self._conn.close()


class Watcher:
    """Watches many tables of one store in one thread, for a server's event streams: calls
    ``changed(table_id, seq)`` when any process appended to a watched table (``seq``: its new
    last seq when known, else None).

    A PostgreSQL store is followed with one ``LISTEN tablelog`` connection for all its tables
    (a notification names the table and its last seq: a hint only, as any client of the
    database may send one; a payload naming no watched table costs a look-up, a malformed
    seq is reported as None, and ``changed`` must read the table's end, never trust ``seq``
    for it), and every watched table is reported at
    least every ``LOOK_S`` seconds (with ``seq`` None: a writer that died between its commit
    and its NOTIFY must not hide its records, nor a notification missed while the connection
    was made again); a ``file:DIR`` store by polling the size of each
    watched table's file every ``POLL_S`` seconds. A lost connection is made again (a second
    later), reporting every watched table.

    Args:
        kind: ``file`` or ``postgresql``.
        url: The PostgreSQL URL (unused for files).
        changed: Called on the watcher's thread; it must return quickly.
    """

    def __init__(self, kind: str, url: str, changed: Any) -> None:
        self.kind, self.url, self.changed = kind, url, changed
        self._watched: dict[str, Log] = {}
        self._sizes: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, table_id: str, log: Log) -> None:
        """Watch table ``table_id`` (``log``: the table, for a file's size); starts the thread."""
        with self._lock:
            self._watched[table_id] = log
            if self._thread is None:
                target = self._listen if self.kind == "postgresql" else self._poll
                self._thread = threading.Thread(target=target, name="tablelog-watcher", daemon=True)
                self._thread.start()

    def unwatch(self, table_id: str) -> None:
        """Stop watching table ``table_id``."""
        with self._lock:
            self._watched.pop(table_id, None)
            self._sizes.pop(table_id, None)

    def close(self) -> None:
        """Stop the thread (within ``POLL_S`` seconds)."""
        self._stop.set()

    def _report(self, ids: list[str], seq: int | None = None) -> None:
        for table_id in ids:
            self.changed(table_id, seq)

    def _poll(self) -> None:
        while not self._stop.wait(POLL_S):
            with self._lock:
                logs = list(self._watched.items())
            for table_id, log in logs:
                size = _size(log)
                if self._sizes.setdefault(table_id, size) != size:
                    self._sizes[table_id] = size
                    self._report([table_id])

    def _listen(self) -> None:
        from tablelog.store.pgsql import connect, listen

        while not self._stop.is_set():
            try:
                conn = connect(self.url)
                listen(conn)
            except Exception:  # noqa: BLE001 - any failure to connect: try again in a second
                self._stop.wait(LOOK_S)
                continue
            self._report(list(self._watched))  # what was appended while not listening
            try:
                self._notes(conn)
            except Exception:  # noqa: BLE001 - a lost connection: listen again
                pass
            finally:
                conn.close()

    def _notes(self, conn: Any) -> None:
        looked = time.monotonic()
        while not self._stop.is_set():
            for note in conn.notifies(timeout=POLL_S):
                table_id, _, seq = note.payload.partition(" ")
                if table_id in self._watched:
                    self.changed(table_id, seq_hint(seq))
            if time.monotonic() - looked >= LOOK_S:
                looked = time.monotonic()
                self._report(list(self._watched))
