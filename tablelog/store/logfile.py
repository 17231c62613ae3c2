"""The file store: a table is one log file (docs/FORMAT.md), appended under a lock on itself.

Reads never load the whole file: it is read in 1 MiB chunks and each record's length is checked
before its bytes are read (:func:`tablelog.store.framing.file_frames`), then the one reader
checks each envelope and hands over whole batches (:mod:`tablelog.store.reader`). A read without
the writer lock that ends inside a record reads on holding a shared lock
(:func:`tablelog.store.waiting.settled`): an append in flight then reads whole. An append takes
the exclusive lock, checks that the file still ends where the command was decided, writes every
record of the batch in one write and fsyncs before reporting success; a failed write is cut
back. Positions are the interface's (seq and chain hash); a position this store made carries
where its record lies in the file (its span), which is where a read goes on.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

from tablelog.store.base import is_record, placed
from tablelog.store.envelope import FarOff, checker
from tablelog.store.errors import LogError, cannot, record_error
from tablelog.store.fileappend import appended
from tablelog.store.filebytes import (
    READ_BACK_ERRORS,
    crc_before,
    envelope_in,
    payload_in,
    read_head,
    write_new,
)
from tablelog.store.files import fsync_dir, open_regular
from tablelog.store.follow import FileWaiter
from tablelog.store.format import (
    FormatError,
    Header,
    Position,
    header_position,
    header_version,
    pack_header,
    parse_header,
)
from tablelog.store.framing import file_frames
from tablelog.store.lock import LogLock
from tablelog.store.reader import Record, StoredRecord, after, read, stored
from tablelog.store.snapcache import read_body, write_body
from tablelog.store.waiting import settled, take_lock
from tablelog.text import msg

__all__ = ["LogFile"]


class LogFile:
    """A tablelog file on disk (the store interface: :class:`tablelog.store.base.Log`).

    Args:
        path: The log file's path.

    Attributes:
        signer: Signs each appended record of a format-2 log when set (``sign(bytes) -> sig``).
    """

    kind = "file"  # the store's kind (docs/STORES.md)

    def __init__(self, path: str) -> None:
        self.path = path
        self.spec = path  # what opens it again (tablelog.store.url.open_log)
        self.header: Header | None = None
        self.version: int | None = None  # the file's format version, once opened
        self.start: Position | None = None
        self.end: Position | None = None
        self.torn_at: int | None = None
        self.in_flight: int | None = None
        self.far_off: FarOff = {}  # what reads with ``chain`` found dated far off
        self.signer: Callable[[bytes], bytes] | None = None
        self._held: LogLock | None = None  # the latest lock taken (appends write through it)
        self._crc_at = (0, 0)  # (offset, CRC-32 of the bytes before it), extended as read

    @classmethod
    def create(cls, path: str, header: Header) -> LogFile:
        """Create a new log holding only ``header``: a new file (never through a symbolic link,
        never over an existing file); a failed write removes it again.

        Raises:
            LogError: the path exists, or the file cannot be created or written in full.
        """
        write_new(path, pack_header(header))
        log = cls(path)
        log.open()
        return log

    def open(self) -> Header:
        """Read and check the header.

        Raises:
            LogError: missing file, not a tablelog file, unsupported version, corrupt header.
        """
        head = read_head(self.path)
        try:
            header, size = parse_header(head)
        except FormatError as exc:
            raise LogError(
                msg("store.path_fault", "{path}: {message}", path=self.path, message=exc.msg),
                exc.offset,
            ) from None
        self.header, self.version = header, header_version(head)
        self.start = header_position(head[:size])
        return header

    def _opened(self) -> Position:
        """Return the position before the first record, opening the log first if need be."""
        if self.start is None:
            self.open()
        assert self.start is not None
        return self.start

    def header_bytes(self) -> bytes:
        """Return the header's bytes (the file's first bytes, magic to CRC).

        Raises:
            LogError: the file cannot be read.
        """
        size = self._opened().span[1]  # type: ignore[index]
        with self._reader(0) as f:
            return bytes(f.read(size))

    def size(self) -> int:
        """Return the file's current size in bytes (raises OSError)."""
        return os.stat(self.path).st_size

    # -- reading -------------------------------------------------------------------------

    def records(
        self, after: Position | None = None, chain: bool = False, fold: bool = False
    ) -> Iterator[Record]:
        """Return an iterator of every whole record after ``after`` (default: the first),
        checked: framing, the length bound, the CRC-32, the msgpack limits, the envelope, a
        contiguous ``seq``, whole batches; with ``chain`` the hash chain and times (``verify``).
        A ``fold`` reads only ``seq``, ``type``, ``v``, ``data`` and the batch count.

        A read without the writer lock that ends inside a record reads on holding a shared
        lock (waiting up to the lock timeout for a writer's append in flight): only then is it
        a torn tail (``torn_at``); a writer that holds the lock all the timeout is still
        writing it (``in_flight``; the read ends before it, and this process waits for that
        record only once).

        Raises:
            LogError: the file cannot be read, ``after`` is no record of it, or a corrupt
                record (when it is reached).
        """
        start = self._opened()
        if after is not None:
            start = placed(self, after)
        self.torn_at = self.in_flight = None
        self.end = start
        return self._records(start, chain, fold)

    def _records(
        self, start: Position, chain: bool, fold: bool, settle: bool = True
    ) -> Iterator[Record]:
        assert self.version is not None and start.span is not None
        check = checker(self.path, self.version, start, chain, fold, self.far_off)
        with self._reader(start.span[1]) as f:
            yield from read(file_frames(f, start.span[1], start.seq, self), start, check, self)
        torn = self.torn_at
        if torn is None or not settle or (self._held is not None and self._held.fd is not None):
            return
        # No append is in flight under the shared lock: what the file still ends inside is torn.
        # The rest is read whole before it is handed over (a slow consumer never holds writers).
        with settled(self.path, torn) as held:
            if held is False:  # a live writer holds the lock: its append, not a crash
                self.torn_at, self.in_flight = None, torn
            if not held:
                return
            assert self.end is not None
            self.torn_at = None
            rest = list(self._records(self.end, chain, fold, settle=False))
        yield from rest

    def scan(self, after: Position | None = None, chain: bool = False) -> Iterator[StoredRecord]:
        """Yield every whole record after ``after`` as a StoredRecord (see :meth:`records`)."""
        return stored(self.records(after, chain))

    def scan_all(self, chain: bool = False) -> list[StoredRecord]:
        """Return every whole record (for small logs and tests)."""
        return list(self.scan(chain=chain))

    def _reader(self, offset: int) -> Any:
        """Return the file open for reading at byte ``offset`` (unbuffered: read in chunks).

        Raises:
            LogError: the file cannot be opened.
        """
        try:
            f = open_regular(self.path, buffering=0)  # replaced by a FIFO since: no hang
        except OSError as exc:
            raise LogError(cannot("read", self.path, exc.strerror)) from None
        f.seek(offset)
        return f

    def position(self, seq: int) -> Position | None:
        """Return the position right after record ``seq`` (0: before the first record), or
        None when the log holds no whole record ``seq``.

        Raises:
            LogError: the log cannot be read, or a corrupt record before ``seq``.
        """
        start = self._opened()
        if seq == 0:
            return start
        for record in self.records():
            if record[0] == seq:
                return after(record)
        return None

    def holds(self, pos: Position) -> bool:
        """Return whether the log still holds record ``pos.seq`` with the chain hash
        ``pos.prev``, where ``pos``'s span says (a checkpoint's anchor)."""
        if pos.seq == 0:
            return pos == self._opened() and pos.span == self._opened().span
        start = self._opened().span
        if pos.span is None or start is None or pos.span[0] < start[1]:
            return False
        return is_record(payload_in(self.path, pos.span), pos)

    def prefix_digest(self, pos: Position) -> int:
        """Return the CRC-32 of the file's bytes before the end of ``pos``'s record (-1 when
        they cannot be read). One pass over the log per process, however many checkpoints
        are taken or checked: it goes on from the furthest prefix it read."""
        if pos.span is None:
            return -1
        offset = pos.span[1]
        start, crc = self._crc_at if self._crc_at[0] <= offset else (0, 0)
        crc = crc_before(self.path, offset, start, crc)
        if crc != -1:
            self._crc_at = (offset, crc)
        return crc

    def envelope_at(self, pos: Position) -> dict[str, Any]:
        """Return the envelope of the record that ends at ``pos`` (``pos.seq`` ≥ 1).

        Raises:
            LogError: that record cannot be read back whole and intact.
        """
        last = placed(self, pos).span[0]  # type: ignore[index]
        try:
            return envelope_in(self.path, last)
        except READ_BACK_ERRORS as exc:
            message = msg("store.read_back.why", "cannot be read back ({why})", why=str(exc))
            raise record_error(self.path, pos.seq, last, message) from None

    def ends_at(self, pos: Position) -> bool:
        """Return whether the log still ends with record ``pos``: the file ends right after
        its span, and the bytes there are that record (its chain hash: a file replaced by
        an older copy, or rewritten, does not; one ``fstat`` and one read of that record)."""
        return pos.span is not None and self.size() == pos.span[1] and self.holds(pos)

    # -- appending -----------------------------------------------------------------------

    def lock(self) -> LogLock:
        """Return the log's exclusive lock, acquired (release it, or use it as a context manager).
        While it is held, :meth:`append` writes through its descriptor.

        Raises:
            LogError: locked by another writer past the timeout (:func:`take_lock`), the log
                cannot be opened for appending, or a bad ``$TABLELOG_LOCK_TIMEOUT``.
        """
        self._held = take_lock(self.path)
        return self._held

    def append(
        self, envelopes: list[dict[str, Any]], expected: Position, locked: bool = False
    ) -> Position:
        """Append one batch of records under the exclusive lock, if the log still ends at
        ``expected``.

        Args:
            envelopes: Maps with ``type, v, at, actor, data``; ``seq``, ``prev`` and the batch
                count are filled in.
            expected: The position the command was decided on.
            locked: The caller already holds the lock (an atomic run).

        Returns:
            The new end position (after fsync).

        Raises:
            LogMovedOn: another writer appended since ``expected``, or the log at the path
                was replaced by another file (then the caller catches up on that one).
            LogError: locked past the timeout, a torn tail, or a failed write (then the file is
                cut back to its size before the append).
        """
        if locked:
            return appended(self, envelopes, placed(self, expected))
        with self.lock():
            return appended(self, envelopes, placed(self, expected))

    # -- the snapshot cache, subscription, removal ---------------------------------------

    def load_snapshot(self) -> bytes | None:
        """Return the body of this user's snapshot of the log when it is provably theirs
        (:mod:`tablelog.store.snapcache`), else None."""
        return read_body(self.path)

    def save_snapshot(self, body: bytes) -> None:
        """Replace this user's snapshot of the log (raises OSError: callers ignore it)."""
        write_body(self.path, body)

    def waiter(self) -> Any:
        """Return a waiter for appends to this file (tablelog.store.follow: it polls)."""
        return FileWaiter(self)

    def close(self) -> None:
        """Nothing to release: a log file is opened for each read and append."""

    def drop(self) -> None:
        """Remove the log (and an old lock file beside it): one this process just created and
        does not keep."""
        for path in (self.path, self.path + ".lock"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
        fsync_dir(self.path)
