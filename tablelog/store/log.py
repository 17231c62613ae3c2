"""The append-only log file: create, scan (streaming), append under a lock, repair a torn tail.

Reads never load the whole file: it is read in 1 MiB chunks and each record's length is checked
against ``MAX_RECORD_BYTES`` before its bytes are read. Appends take an exclusive lock (lock.py),
check that the file still ends where the caller decided, write every record of the batch in one
write, then fsync before reporting success. A failed write is cut back: the file is as it was
before.
"""

from __future__ import annotations

import datetime as dt
import errno
import hashlib
import os
import stat
import struct
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, BinaryIO, NamedTuple

import msgpack
import msgspec
from msgspec import UNSET

from tablelog.store import format as format_
from tablelog.store.format import (
    _MAP_MARKERS,
    BATCH_KEY,
    COMMAND_KEY,
    MAX_CONTAINER_LEN,
    MAX_RECORD_BYTES,
    RECORD_PREFIX,
    REQUEST_KEY,
    SIG_KEY,
    TIME_FORMAT,
    FormatError,
    Header,
    Position,
    chain_hash,
    header_version,
    optional_fault,
    pack_header,
    pack_record,
    parse_header,
    signed_message,
)
from tablelog.store.lock import LockTimeout, LockUnavailable, LogLock, no_append_in_flight

__all__ = [
    "LogError",
    "LogLocked",
    "LogUnwritable",
    "LogMovedOn",
    "StoredRecord",
    "RawRecord",
    "LogFile",
    "LOCK_TIMEOUT_S",
    "fsync_dir",
    "create_file",
    "write_all",
    "remove_quietly",
    "open_regular",
    "NotRegularFile",
]

MAX_AHEAD_S = 24 * 3600  # how far after this machine's clock a record may be dated
LOCK_TIMEOUT_S = 10.0  # seconds; $TABLELOG_LOCK_TIMEOUT overrides it
_READ_BUFFER = 1 << 20
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # files the store creates: never through a link
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_EMPTY_HASH = hashlib.blake2b(digest_size=16)  # copied for each record's chain hash
_AT = TIME_FORMAT


_LOCK_OUTWAITED: dict[str, float] = {}
"""Log path → until when (``time.monotonic()``) a writer lock that this process waited for
all the timeout is only tried, not waited for (:meth:`LogFile.lock`): a long-lived process (a
server, a shell) does not spend a timeout per command on a writer that is stuck, so a stalled
writer holds up one request per timeout, not every thread of the server."""

_OUTWAITED: set[tuple[str, int]] = set()
"""``(log path, offset)`` of each record whose writer held the lock past a reader's whole wait
(:meth:`LogFile._settled`): later reads in this process try the lock once without waiting."""


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
        raise LogError(f"TABLELOG_LOCK_TIMEOUT must be a number of seconds, got {text!r}")
    return value


class LogError(Exception):
    """The log cannot be used: missing, not a tablelog file, corrupt, or locked (exit status 3)."""

    def __init__(self, message: str, offset: int | None = None, seq: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset
        self.seq = seq


def record_error(
    path: str, seq: int, offset: int, message: object, what: str = "record"
) -> LogError:
    """Return the error for record ``seq`` at byte ``offset`` of the log ``path`` that cannot
    be used: ``"{path}: {what} #{seq} at byte {offset}: {message}"`` (exit status 3). Every
    message that names a record by its seq and offset is made here.

    Args:
        path: What messages call the log (:attr:`tablelog.store.base.Log.path`).
        seq: The record's seq.
        offset: Where the record starts in the log's file form.
        message: What is wrong with it.
        what: ``record``, or ``corrupt record`` when its bytes fail the reader's checks.
    """
    return LogError(f"{path}: {what} #{seq} at byte {offset}: {message}", offset, seq)


class LogLocked(LogError):
    """The writer lock cannot be taken: held past the timeout, or its file cannot be used."""


class LogUnwritable(LogError):
    """A file the command must write (a backup, a cut) could not be written in full: a full
    disk, a read-only directory; what was written is taken back (exit status 3)."""


class LogMovedOn(Exception):
    """Another writer appended after the position a command was decided on: decide again."""


class StoredRecord(NamedTuple):
    """One record as read back: envelope fields plus its byte offset in the file.

    ``cmd`` is the command id (the seq of the command's first record; None in a log written
    before command ids), ``req`` the command's request id on its first record, else None.
    """

    seq: int
    type: str
    v: int
    at: str
    actor: str
    data: dict[str, Any]
    offset: int
    cmd: int | None = None
    req: str | None = None

    @classmethod
    def of(cls, seq: int, env: dict[str, Any], offset: int) -> StoredRecord:
        """Return the record of a checked envelope ``env`` (seq ``seq`` at byte ``offset``)."""
        return cls(
            seq,
            env["type"],
            env["v"],
            env["at"],
            env["actor"],
            env["data"],
            offset,
            env.get(COMMAND_KEY),
            env.get(REQUEST_KEY),
        )


RawRecord = tuple[int, Any, int, int, bytes]
"""``(seq, envelope, offset, end offset, payload)`` of one checked record (the hot path); the
envelope is a dict, or for a fold a :class:`~tablelog.store.format.FoldEnvelope`; the record's
chain hash, when needed, is ``chain_hash(payload)``."""


def fsync_dir(path: str) -> None:
    """Flush the directory entry of ``path`` so a created or renamed file survives a crash."""
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class LogFile:
    """A tablelog file on disk.

    Args:
        path: The log file's path.

    Attributes (after :meth:`open`): ``header``, ``start`` (position before the first record).
    After a full scan: ``end`` (position after the last complete batch), ``torn_at`` (offset
    of an incomplete last batch, or None) and ``in_flight`` (offset of a last batch another
    writer was still writing, holding the lock past the timeout, or None: not torn, not read).
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
        self._held: LogLock | None = None  # the latest lock taken (appends write through it)
        self.signer: Callable[[bytes], bytes] | None = None  # signs appended records, if set

    def lock(self) -> LogLock:
        """Return the log's exclusive lock, acquired (release it, or use it as a context manager).
        While it is held, :meth:`append` writes through its descriptor.

        Raises:
            LogError: locked by another writer past the timeout (or, within a timeout of a
                wait that ran out, at one try: :data:`_LOCK_OUTWAITED`), the log cannot be
                opened for appending, or ``$TABLELOG_LOCK_TIMEOUT`` is not a number of seconds.
        """
        timeout = lock_timeout_s()
        key = os.path.abspath(self.path)
        busy = time.monotonic() < _LOCK_OUTWAITED.get(key, 0.0)
        lock = LogLock(self.path, 0.0 if busy else timeout)
        try:
            lock.acquire()
        except LockTimeout:
            if busy:
                raise LogLocked(
                    f"{self.path} is still locked by another writer (a wait of {timeout:g} s "
                    "for it ran out moments ago)"
                ) from None
            _LOCK_OUTWAITED[key] = time.monotonic() + timeout
            raise LogLocked(
                f"{self.path} is locked by another writer (waited {timeout:g} s)"
            ) from None
        except LockUnavailable as exc:
            raise LogLocked(str(exc)) from None
        _LOCK_OUTWAITED.pop(key, None)
        self._held = lock
        return lock

    @classmethod
    def create(cls, path: str, header: Header) -> LogFile:
        """Create a new log holding only ``header``: a new file (never through a symbolic link,
        never over an existing file); a failed write removes it again.

        Raises:
            LogError: the path exists, or the file cannot be created or written in full.
        """
        data = pack_header(header)
        try:
            fd = create_file(path)
        except FileExistsError:
            raise LogError(f"{path} already exists; refusing to overwrite it") from None
        except OSError as exc:
            raise LogError(f"cannot create {path}: {exc.strerror}") from None
        try:
            try:
                write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            fsync_dir(path)
        except OSError as exc:
            remove_quietly(path)  # ours (O_EXCL): a 0-byte or short file would block a retry
            raise LogError(
                f"cannot write {path}: {exc.strerror or exc}; no log was created"
            ) from None
        log = cls(path)
        log.open()
        return log

    def open(self) -> Header:
        """Read and check the header.

        Raises:
            LogError: missing file, not a tablelog file, unsupported version, corrupt header.
        """
        try:  # non-blocking open: a FIFO at the path must not hang the command
            with open_regular(self.path) as f:
                head = f.read(64 * 1024 + 32)
        except NotRegularFile:
            raise LogError(f"{self.path}: not a regular file") from None
        except FileNotFoundError:
            raise LogError(f"no log at {self.path} (create one with: tablelog init)") from None
        except OSError as exc:
            raise LogError(f"cannot read {self.path}: {exc.strerror}") from None
        try:
            header, size = parse_header(head)
        except FormatError as exc:
            raise LogError(f"{self.path}: {exc}", exc.offset) from None
        self.header = header
        self.version = header_version(head)
        self.start = Position(0, size, hashlib.blake2b(head[:size], digest_size=16).digest(), size)
        return header

    def size(self) -> int:
        """Return the file's current size in bytes."""
        return os.stat(self.path).st_size

    def scan(
        self,
        start: Position | None = None,
        chain: bool = False,
    ) -> Iterator[StoredRecord]:
        """Yield every complete record after ``start`` (default: the first), checking each.

        Checks the framing, the length bound, the CRC-32, the msgpack limits, the envelope (its
        keys and their types), that ``seq`` is contiguous and that batches are whole; with
        ``chain`` also the hash chain (every ``prev``), as ``verify`` does. An incomplete last
        batch (a crash mid-append) ends the scan and sets ``torn_at``.

        Raises:
            LogError: a corrupt record (bad length, checksum, envelope or chain), naming its
                offset and seq.
        """
        for seq, env, offset, _, _ in self.records(start, chain):
            yield StoredRecord.of(seq, env, offset)

    def records(
        self, start: Position | None = None, chain: bool = False, fold: bool = False
    ) -> Iterator[RawRecord]:
        """Return an iterator of ``(seq, envelope, offset, end, payload)`` for every complete
        record, checked as by :meth:`scan`; a ``fold`` (it reads only ``seq``, ``type``, ``v``,
        ``data`` and the batch count) leaves the types of ``at``, ``actor`` and ``prev`` to
        the reads that use them, unless ``chain`` is checked too. A read without the writer
        lock that ends inside a record reads on holding a shared lock (waiting up to the lock
        timeout for a writer's append in flight): only then is it a torn tail (``torn_at``);
        a writer that holds the lock all the timeout is still writing it (``in_flight``; the
        read ends before it, and this process waits for that record only once).

        Raises:
            LogError: the file cannot be read, or a corrupt record (when it is reached).
        """
        if self.start is None:
            self.open()
        pos = start or self.start
        assert pos is not None
        self.torn_at = self.in_flight = None
        self.end = pos
        if fold and not chain and (self.version or 1) >= 2:
            return self._fold_records(pos)
        return self._records(pos, chain, fold)

    def _fold_records(self, pos: Position) -> Iterator[RawRecord]:
        """The fold's reader (format 2, no chain): framing, the fold's envelope check
        (:data:`~tablelog.store.format.decode_folded`) and whole batches in one loop, the hot
        path of every cold replay (a tenth of a fold: the three stages hand each record on
        twice). It takes only what reads plainly: at the first frame the buffer does not hold
        whole, a length or CRC-32 the framing would refuse, an envelope the check would not
        pass as it is, or a batch count out of turn, it hands the rest of the read to
        :meth:`_records` from the first record it has not handed over, so every error, torn
        tail and message is the general reader's."""
        f = self._reader(pos)
        read, unpack_from, crc32 = f.read, RECORD_PREFIX.unpack_from, zlib.crc32
        decode, view, maps, unset = format_.decode_folded, memoryview, _MAP_MARKERS, UNSET
        buf, at, size = b"", 0, 0  # unread bytes; the record at ``offset`` starts at buf[at]
        seq, offset = pos.seq, pos.offset  # the last record read, where the next one starts
        batch: list[RawRecord] = []  # a batch's records so far (handed over once it is whole)
        need = 0  # how many records the batch still expects
        last: RawRecord | None = None  # the last record handed over
        try:
            while True:
                if at + 8 > size:
                    buf, at = buf[at:] + read(_READ_BUFFER), 0
                    size = len(buf)
                    if size < 8:
                        break  # the end, or a torn tail
                length, crc = unpack_from(buf, at)
                stop = at + 8 + length
                if length > MAX_CONTAINER_LEN:  # the general reader's bounds and limits
                    break
                if stop > size:
                    buf, at = buf[at:] + read(_READ_BUFFER), 0
                    size, stop = len(buf), 8 + length
                    if stop > size:
                        break
                payload = buf[at + 8 : stop]
                if crc32(payload) != crc:
                    break
                try:
                    env = decode(payload)
                except (msgspec.MsgspecError, RecursionError):  # too deep: the general reader's
                    break
                more = 0 if env.more is unset else env.more
                if not (
                    env.seq == seq + 1
                    and (env.cmd is unset or 0 < env.cmd <= env.seq)
                    and view(env.data)[0] in maps
                    and (env.more is unset or more > 0)
                    and (not batch or more == need - 1)
                ):
                    break
                seq += 1
                item = (seq, env, offset, offset + 8 + length, payload)
                at, offset = stop, offset + 8 + length
                if batch or more:
                    batch.append(item)
                    need = more
                    if need:
                        continue
                    yield from batch  # the batch is whole: hand its records over
                    last, batch = batch[-1], []
                else:
                    yield item
                    last = item
        finally:
            f.close()
            if last is not None:
                self.end = Position(last[0], last[3], chain_hash(last[4]), last[2])
        assert self.end is not None
        yield from self._records(self.end, False, True)

    def _records(
        self, pos: Position, chain: bool, fold: bool, settle: bool = True
    ) -> Iterator[RawRecord]:
        # Framing (_frames: lengths and CRC-32s) -> checks (_checker: the envelope, the seq,
        # with ``chain`` the hash chain and times) -> records (here: whole batches only, and
        # where the read ended). The chain hash costs as much as a third of decoding a record,
        # so only ``verify`` (and repair, salvage) pays it on every record: RELIABILITY.md.
        # A read that ends inside a record without the writer lock reads on holding a shared
        # lock (``settle``): it may have met another writer's append in flight, not a crash.
        f = self._reader(pos)
        if self.version is None:
            self.open()
        check = _checker(self, pos, chain, fold)
        batch: list[RawRecord] = []
        need = 0
        last: RawRecord | None = None  # the last record handed over
        try:
            for seq, offset, payload in self._frames(f, pos.offset, pos.seq):
                env, more = check(payload, offset, seq)
                item = (seq, env, offset, offset + 8 + len(payload), payload)
                if batch:
                    need -= 1
                    if more != need:
                        raise self._corrupt(
                            f"batch count {more!r} where {need} was expected", offset, seq
                        )
                    batch.append(item)
                    if not need:  # the batch is whole: hand its records over
                        for last in batch:  # noqa: B007 - ``last``: where the read ended
                            yield last
                        batch = []
                elif more:
                    batch, need = [item], more
                else:
                    last = item
                    yield item
            if batch:  # the file ends inside a batch: a crash mid-append
                self.torn_at = batch[0][2]
        finally:
            f.close()
            if last is not None:
                self.end = Position(last[0], last[3], chain_hash(last[4]), last[2])
        if self.torn_at is not None and settle and (self._held is None or self._held.fd is None):
            # No append is in flight under the shared lock: what the file still ends inside is
            # torn. The rest (one command's records, or a few) is read whole before it is handed
            # over, so a slow consumer never holds the lock, and writers, up.
            torn = self.torn_at
            with self._settled(torn) as held:
                if held is False:  # a live writer holds the lock: its append, not a crash
                    self.torn_at, self.in_flight = None, torn
                if not held:
                    return
                assert self.end is not None
                self.torn_at = None
                rest = list(self._records(self.end, chain, fold, settle=False))
            yield from rest

    def _frames(self, f: Any, offset: int, seq: int) -> Iterator[tuple[int, int, bytes]]:
        """Framing: yield ``(seq, offset, payload)`` of each whole frame read from ``f`` (at
        ``offset``, after record ``seq``), its length within bounds and its CRC-32 matching.
        A frame the file ends inside sets ``torn_at`` to its offset and ends the read. The
        file is read in large chunks and sliced.

        Raises:
            LogError: a length over the limit, a checksum mismatch, or a record that runs past
                the end of the file but is whole (its length field is damaged).
        """
        read, unpack_from, crc32 = f.read, RECORD_PREFIX.unpack_from, zlib.crc32
        buf, at, size = b"", 0, 0  # unread bytes; the record at ``offset`` starts at buf[at]
        while True:
            if at + 8 > size:
                buf, at = buf[at:] + read(_READ_BUFFER), 0
                size = len(buf)
                if size < 8:
                    if size:
                        self.torn_at = offset
                    return
            length, crc = unpack_from(buf, at)
            seq += 1
            if length > MAX_RECORD_BYTES:
                raise self._corrupt(f"record length {length} is over the limit", offset, seq)
            stop = at + 8 + length
            if stop > size:
                buf, at = buf[at:] + read(max(_READ_BUFFER, 8 + length)), 0
                size, stop = len(buf), 8 + length
                if stop > size:
                    self._check_torn(buf[8:], crc, offset, seq)
                    self.torn_at = offset
                    return
            payload = buf[at + 8 : stop]
            if crc32(payload) != crc:
                raise self._corrupt("record checksum mismatch", offset, seq)
            yield seq, offset, payload
            at = stop
            offset += 8 + length

    def _check_torn(self, partial: bytes, crc: int, offset: int, seq: int) -> None:
        """Raise if a record that runs past the end of the file is whole but has a bad length."""
        unpacker = msgpack.Unpacker(
            raw=False, strict_map_key=False, max_buffer_size=MAX_RECORD_BYTES
        )
        unpacker.feed(partial)
        try:
            unpacker.unpack()
        except Exception:  # incomplete or garbage: a real torn tail
            return
        if zlib.crc32(partial[: unpacker.tell()]) == crc:
            raise self._corrupt("record length field damaged (the record is whole)", offset, seq)

    def _corrupt(self, message: str, offset: int, seq: int) -> LogError:
        return record_error(self.path, seq, offset, message, "corrupt record")

    def hash_of(self, seq: int) -> bytes | None:
        """Return the chain hash of record ``seq`` (of the header for 0), or None when the log
        holds no such record (it ends before it). Reads with the everyday checks (CRC …).

        Raises:
            LogError: a corrupt record before it.
        """
        if self.start is None:
            self.open()
        assert self.start is not None
        if seq == 0:
            return self.start.prev
        for found, _, _, _, payload in self.records():
            if found == seq:
                return chain_hash(payload)
        return None

    def scan_all(self, chain: bool = False) -> list[StoredRecord]:
        """Return every complete record (for small logs and tests; ``chain`` as for scan)."""
        return list(self.scan(chain=chain))

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
            return self._append_locked(envelopes, expected)
        with self.lock():
            return self._append_locked(envelopes, expected)

    def last_at(self, end: Position) -> str:
        """Return the ``at`` of the record that ends at ``end`` (``""`` for an empty log).

        Raises:
            LogError: that record cannot be read back whole and intact.
        """
        return str(self.envelope_at(end)["at"]) if end.seq else ""

    def envelope_at(self, end: Position) -> dict[str, Any]:
        """Return the envelope of the record that ends at ``end`` (``end.seq`` ≥ 1).

        Raises:
            LogError: that record cannot be read back whole and intact.
        """
        try:
            with open_regular(self.path) as f:
                f.seek(end.last)
                length, crc = RECORD_PREFIX.unpack(f.read(RECORD_PREFIX.size))
                payload = f.read(min(length, MAX_RECORD_BYTES))
            env = msgpack.unpackb(payload, strict_map_key=False)
            if zlib.crc32(payload) != crc:
                raise ValueError("checksum")
            if type(env) is not dict or type(env["at"]) is not str or type(env["actor"]) is not str:
                raise ValueError("not an envelope")
            return env
        except (
            OSError,
            ValueError,
            KeyError,
            TypeError,
            struct.error,
            msgpack.UnpackException,
        ) as exc:
            raise record_error(
                self.path, end.seq, end.last, f"cannot be read back ({exc})"
            ) from None

    def _append_locked(self, envelopes: list[dict[str, Any]], expected: Position) -> Position:
        held = self._held
        if held is None or held.fd is None:
            raise LogError(f"{self.path}: an append without the writer lock")
        fd = held.fd  # the locked file itself, in append mode: we write to what we locked
        if not held.still_at_path(fd):  # replaced under the lock: catch up on the new file
            raise LogMovedOn()
        size = os.fstat(fd).st_size
        if size != expected.offset:
            if size < expected.offset:
                raise LogError(f"{self.path} shrank under us (now {size} bytes)")
            self._raise_moved_or_torn(expected)
        horizon = time_horizon()
        for env in envelopes[:1]:  # one command's records share one time
            if env["at"] > horizon and _AT.fullmatch(env["at"]):
                raise LogError(
                    f"{self.path}: cannot append after record #{expected.seq}: the next "
                    f"record would be dated {env['at']}, more than a day after this machine's "
                    f"clock ({_clock_now()}): a wrong clock or a hostile edit dated "
                    f"#{expected.seq} so; keep the records before it with: tablelog --log "
                    f"{self.path} verify --salvage OUT (or, if this machine's clock is wrong, "
                    "set it)"
                )
        try:
            data, end = frame(
                envelopes, expected, self.signer if self.version and self.version >= 2 else None
            )
        except (TypeError, ValueError, OverflowError) as exc:  # a value msgpack cannot hold
            raise LogError(
                f"cannot store the events in {self.path}: {exc}; the log is unchanged"
            ) from None
        _write_all(fd, data, size, self.path)
        self.end = end
        return end

    def _raise_moved_or_torn(self, expected: Position) -> None:
        for _ in self.records(expected):
            raise LogMovedOn()
        if self.torn_at is not None:
            raise self.torn_error()
        raise LogMovedOn()

    def _settled(self, offset: int) -> AbstractContextManager[bool | None]:
        """Return a block holding a shared lock on the file, so no append is in flight in it
        (:func:`tablelog.store.lock.no_append_in_flight`), after a read ended inside a record
        at ``offset``: it waits up to the lock timeout, once per record in this process (a
        record whose writer held the lock all the timeout gets one try without waiting).

        Raises:
            LogError: ``$TABLELOG_LOCK_TIMEOUT`` is not a number of seconds.
        """
        key = (os.path.abspath(self.path), offset)
        timeout = 0.0 if key in _OUTWAITED else lock_timeout_s()
        return _outwaited(key, timeout, no_append_in_flight(self.path, timeout))

    def torn_error(self) -> LogError:
        """Return the refusal of an append to a log whose last scan ended in a torn batch."""
        return LogError(
            f"{self.path}: torn last record at byte {self.torn_at} (a crash "
            "mid-append); run: tablelog verify --repair",
            self.torn_at,
        )

    def repair(self) -> tuple[int, str] | None:
        """Truncate a torn last batch after a backup (see :func:`tablelog.store.repair.repair`)."""
        from tablelog.store.repair import repair

        return repair(self)

    def salvage(self, out: str, before: int | None = None) -> tuple[int, int, int | None]:
        """Copy the valid prefix into a new log (see :func:`tablelog.store.repair.salvage`)."""
        from tablelog.store.repair import salvage

        return salvage(self, out, before)

    # -- the store interface beyond reading and appending (tablelog/store/base.py) ----------

    def _reader(self, pos: Position) -> Any:
        """Return the file open for reading at ``pos`` (what :meth:`records` reads from).

        Raises:
            LogError: the file cannot be opened.
        """
        try:
            f = open_regular(self.path, buffering=0)  # replaced by a FIFO since: no hang
        except OSError as exc:
            raise LogError(f"cannot read {self.path}: {exc.strerror}") from None
        f.seek(pos.offset)
        return f

    def header_bytes(self) -> bytes:
        """Return the header's bytes (offsets 0 to ``start.offset``).

        Raises:
            LogError: the file cannot be read.
        """
        if self.start is None:
            self.open()
        assert self.start is not None
        with self._reader(Position(0, 0, b"")) as f:
            return bytes(f.read(self.start.offset))

    def payload_at(self, end: Position) -> bytes | None:
        """Return the payload of the record framed at ``end.last``..``end.offset``, or None
        when no record of that length lies there (a checkpoint's anchor)."""
        last = end.last
        if end.offset - last - 8 > MAX_RECORD_BYTES or end.offset - last < 8:
            return None
        try:
            with open_regular(self.path) as f:
                f.seek(last)
                data = f.read(end.offset - last)
        except OSError:
            return None
        return data[8:] if len(data) == end.offset - last else None

    def prefix_crc(self, offset: int, start: int = 0, crc: int = 0) -> int:
        """Return the CRC-32 of the file's bytes before ``offset``, continuing ``crc`` (the CRC
        of the bytes before ``start``); -1 if they cannot be read."""
        try:
            with open_regular(self.path) as f:
                f.seek(start)
                while start < offset:
                    chunk = f.read(min(1 << 20, offset - start))
                    if not chunk:
                        return -1
                    crc, start = zlib.crc32(chunk, crc), start + len(chunk)
        except OSError:
            return -1
        return crc

    def position(self, seq: int) -> Position | None:
        """Return the position right after record ``seq`` (0: before the first record), or
        None when the log holds no whole record ``seq``.

        Raises:
            LogError: the log cannot be read, or a corrupt record before ``seq``.
        """
        if self.start is None:
            self.open()
        assert self.start is not None
        if seq == 0:
            return self.start
        for found, _, offset, end, payload in self.records():
            if found == seq:
                return Position(seq, end, chain_hash(payload), offset)
        return None

    def read_snapshot(self, session_id: str, code: str) -> list[Any]:
        """Return the checkpoints of the log's snapshot cache (see tablelog.store.snapshot)."""
        from tablelog.store.snapshot import read_snapshot

        return read_snapshot(self.path, session_id, code)

    def write_snapshot(self, session_id: str, code: str, checkpoints: list[Any]) -> None:
        """Replace the log's snapshot cache (raises OSError: callers ignore it)."""
        from tablelog.store.snapshot import write_snapshot

        write_snapshot(self.path, session_id, code, checkpoints)

    def waiter(self) -> Any:
        """Return a waiter for appends to this file (tablelog.store.follow: it polls)."""
        from tablelog.store.follow import FileWaiter

        return FileWaiter(self)

    def close(self) -> None:
        """Nothing to release: a log file is opened for each read and append."""


def _checker(
    log: LogFile, pos: Position, chain: bool, fold: bool
) -> Callable[[bytes, int, int], tuple[dict[str, Any], int]]:
    """Return the reader's checks: ``check(payload, offset, seq) -> (envelope, batch count)``
    decodes a frame's payload (within msgpack's limits) and checks its envelope: the keys and
    their types (with ``fold``, not those of ``at``, ``actor``, ``prev``), ``seq``, the optional
    keys of ``log``'s format, and with ``chain`` the hash chain from ``pos`` and times that
    never go back nor pass this machine's clock by more than a day.

    The returned function raises LogError, naming the record's offset and seq.
    """
    unpackb, limit, corrupt = msgpack.unpackb, MAX_CONTAINER_LEN, log._corrupt
    decode_folded, is_packed_map, unset = format_.decode_folded, format_.is_packed_map, UNSET
    assert log.version is not None
    # Command and request ids exist from format 2 on: in a format-1 file no key matches.
    keys = (COMMAND_KEY, REQUEST_KEY, SIG_KEY) if log.version >= 2 else ("", "", "")
    prev, new_hash = pos.prev, _EMPTY_HASH.copy
    at_before = ""  # the time of the record before (checked with ``chain``)
    horizon = time_horizon() if chain else ""  # no record is dated later than this
    loose = fold and not chain  # at, actor and prev: their types are left to their reads
    cheap = loose and log.version >= 2  # a fold's usual envelope: decode_folded

    def check(payload: bytes, offset: int, seq: int) -> tuple[Any, int]:
        nonlocal prev, at_before
        if cheap and len(payload) <= limit:  # the usual envelope passes here, all else below
            try:
                folded = decode_folded(payload)
            except (msgspec.MsgspecError, RecursionError):  # the full check names the fault
                pass
            else:
                more = folded.more
                cmd = folded.cmd
                if (
                    folded.seq == seq
                    and (cmd is unset or 0 < cmd <= seq)
                    and (more is unset or more > 0)
                    and is_packed_map(folded.data)
                ):
                    return folded, 0 if more is unset else more
        env, more = full(payload, offset, seq)
        if not fold:
            return env, more
        none = msgspec.Raw(b"")  # a fold never reads at, actor, prev
        data: Any = env["data"]  # unpacked already: the fold builds the event from the dict
        return format_.FoldEnvelope(env["type"], env["v"], data, seq, none, none, none), more

    def full(payload: bytes, offset: int, seq: int) -> tuple[dict[str, Any], int]:
        nonlocal prev, at_before
        try:  # msgpack's own limits are the payload's length: the same for short ones
            env = (
                unpackb(payload, strict_map_key=False)
                if len(payload) <= limit
                else unpackb(payload, strict_map_key=False, max_array_len=limit, max_map_len=limit)
            )
        except Exception as exc:  # msgpack raises several types; all mean the same
            raise corrupt(f"malformed record payload ({type(exc).__name__})", offset, seq) from None
        try:  # a KeyError or TypeError here: not a map with the envelope's keys
            kind, version, data = env["type"], env["v"], env["data"]
            more = 0 if len(env) == 7 else _optional(env, seq, offset, keys, corrupt)
            ok = (
                env["seq"] == seq
                and type(env["seq"]) is int
                and type(kind) is str
                and type(version) is int
                and type(data) is dict
                and (
                    loose
                    or (
                        type(env["actor"]) is str
                        and type(env["at"]) is str
                        and type(env["prev"]) is bytes
                    )
                )
            )
        except (KeyError, TypeError):
            raise corrupt("record is not a tablelog envelope", offset, seq) from None
        if chain:  # verify: the chain, and times in the format, never going back,
            ok = (
                ok
                and env["prev"] == prev
                and _AT.fullmatch(env["at"]) is not None
                and at_before <= env["at"] <= horizon
            )  # nor past the horizon
        if not ok:
            raise corrupt(
                _envelope_fault(
                    env, seq, prev if chain else None, at_before if chain else None, horizon
                ),
                offset,
                seq,
            )
        if chain:
            at_before = env["at"]
            digest = new_hash()
            digest.update(payload)
            prev = digest.digest()
        return env, more

    return check


def _optional(
    env: dict[str, Any],
    seq: int,
    offset: int,
    keys: tuple[str, str, str],
    corrupt: Callable[[str, int, int], LogError],
) -> int:
    """Check the optional keys of record ``seq``'s envelope (the batch count and ``keys``, the
    command id, request id and signature of the log's format); return its batch count.

    Raises:
        KeyError: a key the format does not have (the caller: not a tablelog envelope).
        LogError: a bad batch count, command id, request id or signature.
    """
    more = env.get(BATCH_KEY, 0)
    cmd_key, req_key, sig_key = keys
    if len(env) - 7 != (BATCH_KEY in env) + (cmd_key in env) + (req_key in env) + (sig_key in env):
        raise KeyError(BATCH_KEY)
    if BATCH_KEY in env and (type(more) is not int or more < 1):
        raise corrupt(f"record envelope has a bad batch count {more!r}", offset, seq)
    fault = optional_fault(env) if env["seq"] == seq else ""
    if fault:
        raise corrupt(fault, offset, seq)
    return more  # type: ignore[no-any-return]


def _envelope_fault(
    env: dict[str, Any], seq: int, prev: bytes | None, at_before: str | None, horizon: str = ""
) -> str:
    """Return why an envelope with all its keys failed the reader's check (``prev``: the chain
    hash expected, ``at_before``: the time before, ``horizon``: the latest time allowed; None
    and ``""`` when the chain is not checked)."""
    if env["seq"] != seq or type(env["seq"]) is not int:
        return f"seq {env['seq']!r} where {seq} was expected"
    if type(env["at"]) is str and at_before is not None and not _AT.fullmatch(env["at"]):
        return f"time {env['at']!r} is not YYYY-MM-DDTHH:MM:SS.ffffffZ"
    if type(env["at"]) is str and at_before is not None and env["at"] < at_before:
        return f"time {env['at']} is before the previous record's {at_before}"
    if type(env["at"]) is str and horizon and env["at"] > horizon:
        return _future_fault(env["at"])
    if prev is not None and env["prev"] != prev:
        return "hash chain broken (an earlier record was edited)"
    return "record envelope has fields of the wrong type"


def time_horizon() -> str:
    """Return the latest time a record may have: this machine's clock plus
    :data:`MAX_AHEAD_S` (clocks at one table disagree by minutes, not by a day)."""
    moment = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=MAX_AHEAD_S)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _future_fault(at: str) -> str:
    """Say why a record's time past the horizon is refused (``verify`` adds its salvage hint)."""
    return (
        f"time {at} is more than a day after this machine's clock ({_clock_now()}): a wrong "
        "clock or a hostile edit wrote it (or this machine's clock is wrong: then set it)"
    )


def _clock_now() -> str:
    """Return this machine's clock, UTC to the second, as messages show it."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def frame(
    envelopes: list[dict[str, Any]], pos: Position, sign: Callable[[bytes], bytes] | None = None
) -> tuple[bytes, Position]:
    """Return the bytes of one batch of records after ``pos``, and the position after it; with
    ``sign``, each record carries ``sig``, the signature of the rest of its envelope."""
    seq, prev, offset, last = pos.seq, pos.prev, pos.offset, pos.last
    chunks = []
    for i, env in enumerate(envelopes):
        seq += 1
        more = len(envelopes) - 1 - i
        full = {**env, "seq": seq, "prev": prev}
        if more:
            full[BATCH_KEY] = more
        if sign is not None:
            full[SIG_KEY] = sign(signed_message(full))
        record = pack_record(full)
        prev = hashlib.blake2b(record[RECORD_PREFIX.size :], digest_size=16).digest()
        last = offset
        offset += len(record)
        chunks.append(record)
    return b"".join(chunks), Position(seq, offset, prev, last)


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


def remove_quietly(path: str) -> None:
    """Delete ``path`` if it exists (a file this process created and must take back)."""
    try:
        os.remove(path)
    except OSError:
        pass


def _write_all(fd: int, data: bytes, size: int, path: str) -> None:
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
                f"could not append to {path}: {reason}; the log may end in a torn "
                "record: run tablelog verify --repair"
            ) from None
        raise LogError(f"could not append to {path}: {reason}; the log is unchanged") from None
