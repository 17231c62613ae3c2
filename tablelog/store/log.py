"""The append-only log file: create, scan (streaming), append under a lock, repair a torn tail.

Reads never load the whole file: records are read one by one through a buffered reader. Appends
take an exclusive lock (``filelock``), check that the file still ends where the caller decided,
write every record of the command in one write, then flush and fsync before reporting success.
"""

from __future__ import annotations

import os
import shutil
import zlib
from collections.abc import Iterator
from typing import Any, BinaryIO

import attrs
import filelock

from tablelog.store.format import (
    MAX_RECORD_BYTES, RECORD_PREFIX, FormatError, Header, Position, chain_hash, pack_header,
    pack_record, parse_header, unpack_payload,
)

__all__ = ["LogError", "LogMovedOn", "StoredRecord", "LogFile", "LOCK_TIMEOUT_S"]

LOCK_TIMEOUT_S = float(os.environ.get("TABLELOG_LOCK_TIMEOUT", "10"))
_READ_BUFFER = 1 << 20


class LogError(Exception):
    """The log cannot be used: missing, not a tablelog file, corrupt, or locked (exit status 3)."""

    def __init__(self, message: str, offset: int | None = None, seq: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset
        self.seq = seq


class LogMovedOn(Exception):
    """Another writer appended after the position a command was decided on: catch up, decide again."""


@attrs.frozen
class StoredRecord:
    """One record as read back: envelope fields plus its byte offset in the file."""

    seq: int
    type: str
    v: int
    at: str
    actor: str
    data: dict[str, Any]
    offset: int


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
    After a full :meth:`scan`: ``end`` (position after the last complete record) and ``torn_at``
    (offset of an incomplete last record, or None).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.header: Header | None = None
        self.start: Position | None = None
        self.end: Position | None = None
        self.torn_at: int | None = None

    @property
    def lock_path(self) -> str:
        return self.path + ".lock"

    @classmethod
    def create(cls, path: str, header: Header) -> LogFile:
        """Create a new log holding only ``header``; refuse to overwrite (LogError)."""
        data = pack_header(header)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise LogError(f"{path} already exists; refusing to overwrite it") from None
        except OSError as exc:
            raise LogError(f"cannot create {path}: {exc.strerror}") from None
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(path)
        log = cls(path)
        log.open()
        return log

    def open(self) -> Header:
        """Read and check the header.

        Raises:
            LogError: missing file, not a tablelog file, unsupported version, corrupt header.
        """
        try:
            with open(self.path, "rb") as f:
                head = f.read(64 * 1024 + 32)
        except FileNotFoundError:
            raise LogError(f"no log at {self.path} (create one with: tablelog init)") from None
        except OSError as exc:
            raise LogError(f"cannot read {self.path}: {exc.strerror}") from None
        try:
            header, size = parse_header(head)
        except FormatError as exc:
            raise LogError(f"{self.path}: {exc}", exc.offset) from None
        self.header = header
        self.start = Position(0, size, chain_hash(head[:size]))
        return header

    def scan(self, start: Position | None = None) -> Iterator[StoredRecord]:
        """Yield every complete record after ``start`` (default: the first), checking each.

        Checks the framing, the CRC-32, the hash chain and that ``seq`` is contiguous. A short
        last record (a crash mid-append) ends the scan and sets ``torn_at``.

        Raises:
            LogError: a corrupt record (bad length, checksum, chain or envelope), naming its
                offset and seq.
        """
        if self.start is None:
            self.open()
        pos = start or self.start
        assert pos is not None
        self.torn_at = None
        with open(self.path, "rb", buffering=_READ_BUFFER) as f:
            f.seek(pos.offset)
            yield from self._records(f, pos)

    def _records(self, f: BinaryIO, pos: Position) -> Iterator[StoredRecord]:
        seq, offset, prev = pos.seq, pos.offset, pos.prev
        size = RECORD_PREFIX.size
        while True:
            self.end = Position(seq, offset, prev)
            prefix = f.read(size)
            if not prefix:
                return
            if len(prefix) < size:
                self.torn_at = offset
                return
            length, crc = RECORD_PREFIX.unpack(prefix)
            if length > MAX_RECORD_BYTES:
                raise self._corrupt(f"record length {length} is over the limit", offset, seq + 1)
            payload = f.read(length)
            if len(payload) < length:
                self.torn_at = offset
                return
            if zlib.crc32(payload) != crc:
                raise self._corrupt("record checksum mismatch", offset, seq + 1)
            record = self._check_envelope(payload, offset, seq, prev)
            seq, prev, offset = seq + 1, chain_hash(payload), offset + size + length
            yield record

    def _check_envelope(self, payload: bytes, offset: int, seq: int, prev: bytes) -> StoredRecord:
        try:
            env = unpack_payload(payload, offset)
        except FormatError as exc:
            raise self._corrupt(str(exc).rsplit(" at byte", 1)[0], offset, seq + 1) from None
        if env["seq"] != seq + 1:
            raise self._corrupt(f"seq {env['seq']} where {seq + 1} was expected", offset, seq + 1)
        if env["prev"] != prev:
            raise self._corrupt("hash chain broken (an earlier record was edited)", offset, seq + 1)
        return StoredRecord(env["seq"], env["type"], env["v"], str(env["at"]), env["actor"],
                            env["data"], offset)

    def _corrupt(self, message: str, offset: int, seq: int) -> LogError:
        return LogError(f"{self.path}: corrupt record #{seq} at byte {offset}: {message}",
                        offset, seq)

    def scan_all(self) -> list[StoredRecord]:
        """Return every complete record (for small logs and tests)."""
        return list(self.scan())

    def append(self, envelopes: list[dict[str, Any]], expected: Position,
               locked: bool = False) -> Position:
        """Append records under the exclusive lock, if the log still ends at ``expected``.

        Args:
            envelopes: Maps with ``type, v, at, actor, data``; ``seq`` and ``prev`` are filled in.
            expected: The position the command was decided on.
            locked: The caller already holds the lock (an atomic run).

        Returns:
            The new end position (after fsync).

        Raises:
            LogMovedOn: another writer appended since ``expected``.
            LogError: locked past the timeout, a torn tail, or a failed write (then the file is
                truncated back to its size before the append).
        """
        if locked:
            return self._append_locked(envelopes, expected)
        try:
            with filelock.FileLock(self.lock_path, timeout=LOCK_TIMEOUT_S):
                return self._append_locked(envelopes, expected)
        except filelock.Timeout:
            raise LogError(f"{self.path} is locked by another writer "
                           f"(waited {LOCK_TIMEOUT_S:g} s)") from None

    def _append_locked(self, envelopes: list[dict[str, Any]], expected: Position) -> Position:
        fd = os.open(self.path, os.O_RDWR)
        try:
            size = os.fstat(fd).st_size
            if size != expected.offset:
                if size < expected.offset:
                    raise LogError(f"{self.path} shrank under us (now {size} bytes)")
                self._raise_moved_or_torn(expected)
            data, end = _frame(envelopes, expected)
            _write_all(fd, data, size, self.path)
            self.end = end
            return end
        finally:
            os.close(fd)

    def _raise_moved_or_torn(self, expected: Position) -> None:
        for _ in self.scan(expected):
            raise LogMovedOn()
        if self.torn_at is not None:
            raise LogError(f"{self.path}: torn last record at byte {self.torn_at} (a crash "
                           "mid-append); run: tablelog verify --repair", self.torn_at)
        raise LogMovedOn()

    def repair(self) -> tuple[int, str] | None:
        """Truncate a torn last record after copying the file to a backup.

        Returns:
            ``(offset truncated at, backup path)``, or None when there was nothing to repair.

        Raises:
            LogError: the log is corrupt before its tail (never repaired silently).
        """
        for _ in self.scan():
            pass
        if self.torn_at is None:
            return None
        backup = _free_name(self.path + ".bak")
        with filelock.FileLock(self.lock_path, timeout=LOCK_TIMEOUT_S):
            shutil.copy2(self.path, backup)
            with open(self.path, "r+b") as f:
                f.truncate(self.torn_at)
                f.flush()
                os.fsync(f.fileno())
        fsync_dir(self.path)
        return self.torn_at, backup


def _frame(envelopes: list[dict[str, Any]], pos: Position) -> tuple[bytes, Position]:
    seq, prev, offset = pos.seq, pos.prev, pos.offset
    chunks = []
    for env in envelopes:
        seq += 1
        record = pack_record({**env, "seq": seq, "prev": prev})
        prev = chain_hash(record[RECORD_PREFIX.size:])
        offset += len(record)
        chunks.append(record)
    return b"".join(chunks), Position(seq, offset, prev)


def _write_all(fd: int, data: bytes, size: int, path: str) -> None:
    try:
        os.lseek(fd, size, os.SEEK_SET)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        os.ftruncate(fd, size)
        os.fsync(fd)
        raise LogError(f"could not append to {path}: {exc.strerror}; the log is unchanged") from None


def _free_name(base: str) -> str:
    name, n = base, 0
    while os.path.exists(name):
        n += 1
        name = f"{base}.{n}"
    return name


