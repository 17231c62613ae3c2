"""Copying a table between any two stores, streaming (``tablelog copy``, docs/STORES.md).

The copy reads the source once with every check ``verify`` makes on the bytes (framing, CRC-32,
envelope, contiguous seq, whole commands, the hash chain), writes the same header bytes and the
same payload bytes to the target, then reads the target back with the same checks and compares
its end (seq, byte offset, chain hash of the last record) with the source's. Memory stays
bounded: records are read in 1 MiB chunks or pages of rows and written as they come. The target
appears whole or not at all: a file is written under a temporary name and linked into place
(never over an existing file); a PostgreSQL table is written in one transaction (``COPY``). An
existing target is refused.
"""

from __future__ import annotations

import os
import secrets
import struct
import zlib
from contextlib import AbstractContextManager
from typing import Any, NamedTuple

from tablelog.store.base import Log
from tablelog.store.errors import LogError, cannot, exists_error
from tablelog.store.files import create_file, fsync_dir, remove_quietly
from tablelog.store.format import COMMAND_KEY, REQUEST_KEY, Position
from tablelog.store.reader import after
from tablelog.store.url import new_table_id, open_log, parse_spec, redact
from tablelog.text import msg

__all__ = ["Copied", "copy_log"]

_CHUNK = 1 << 20


class Copied(NamedTuple):
    """What a copy did: the target's ``--log`` value (``spec``, may hold a password) and
    ``path`` (for messages), the records copied, where they end, the offset of a torn
    command the source ended in (not copied) or None, and that of a command another writer was
    still writing, holding the lock past the timeout (not copied) or None."""

    spec: str
    path: str
    records: int
    end: Position
    torn_at: int | None
    in_flight: int | None = None


def copy_log(source: Log, target: str, upto: int | None = None) -> Copied:
    """Copy the table ``source`` into the new table ``target`` (a ``--log`` value; a store URL
    without ``#ID`` gets a new id), up to record ``upto`` (a command's last) or whole.

    Raises:
        LogError: the source is damaged (nothing is left at the target), the target exists or
            cannot be written, or the copy does not read back the same.
    """
    if source.start is None:
        source.open()
    sink = _sink(target, source)
    try:
        end = source.start
        assert end is not None
        records = source.records(chain=True) if upto != 0 else iter(())
        for record in records:  # stops at ``upto``: not a record more
            seq, env, _, _, payload = record
            sink.add(seq, payload, env)
            end = after(record)
            if seq == upto:
                break
        sink.commit()
    except BaseException:
        sink.abort()
        raise
    torn = source.torn_at if upto is None else None
    in_flight = source.in_flight if upto is None else None
    _check_copy(open_log(sink.spec), end)
    return Copied(sink.spec, sink.path, end.seq, end, torn, in_flight)


def _check_copy(copy: Log, end: Position) -> None:
    """Read the copy back with the hash chain and check that it ends where the source does."""
    try:
        for _ in copy.records(chain=True):
            pass
        if copy.end != end or copy.end.span != end.span or copy.torn_at is not None:
            raise LogError(
                msg(
                    "store.copy.differs",
                    "{path}: the copy does not read back the same (it ends at #{ends}, the "
                    "source at #{source})",
                    path=copy.path,
                    ends=copy.end.seq if copy.end else 0,
                    source=end.seq,
                )
            )
    finally:
        copy.close()


def _sink(target: str, source: Log) -> Any:
    """Return the writer of a new table at ``target`` (refused when it exists)."""
    spec = parse_spec(target)
    if spec.kind == "postgresql":
        return _TableSink(spec.where, spec.table_id, source.header_bytes())
    path = spec.where
    if spec.table_id is None and target.startswith("file:"):
        os.makedirs(path, exist_ok=True)
        path = os.path.join(path, f"{new_table_id()}.tlog")
    return _FileSink(path, source.header_bytes())


class _FileSink:
    """A new log file, written under a temporary name, linked into place when whole."""

    def __init__(self, path: str, header: bytes) -> None:
        self.spec = self.path = path
        if os.path.lexists(path):
            raise exists_error(path)
        self._tmp = os.path.join(
            os.path.dirname(os.path.abspath(path)),
            f".{os.path.basename(path)}.copy-{secrets.token_hex(8)}",
        )
        try:
            self._fd = create_file(self._tmp)  # never through a link planted at its name
        except OSError as exc:
            raise LogError(cannot("create", path, exc.strerror)) from None
        self._parts: list[bytes] = [header]
        self._size = len(header)

    def add(self, seq: int, payload: bytes, env: dict[str, Any]) -> None:
        self._parts.append(struct.pack(">II", len(payload), zlib.crc32(payload)) + payload)
        self._size += 8 + len(payload)
        if self._size >= _CHUNK:
            self._flush()

    def _flush(self) -> None:
        view = memoryview(b"".join(self._parts))
        self._parts, self._size = [], 0
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError as exc:
            raise LogError(cannot("write", self.path, exc.strerror, "copied")) from None

    def commit(self) -> None:
        self._flush()
        try:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1
            os.link(self._tmp, self.path)  # never over an existing file
        except FileExistsError:
            raise exists_error(self.path) from None
        except OSError as exc:
            raise LogError(cannot("write", self.path, exc.strerror, "copied")) from None
        os.remove(self._tmp)
        fsync_dir(self.path)

    def abort(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        remove_quietly(self._tmp)  # never raises over the error that brought us here


class _TableSink:
    """A new PostgreSQL table, written in one transaction with ``COPY``: the table's row and
    its records commit together, or nothing does."""

    def __init__(self, url: str, table_id: str | None, header: bytes) -> None:
        # PostgreSQL's modules only when a table is written there (a file's copy never loads them)
        from tablelog.store.pgsql import ensure_schema
        from tablelog.store.postgres import PostgresLog, insert_table

        self._log = PostgresLog(url, table_id or new_table_id())
        self.spec, self.path = self._log.spec, self._log.path
        conn = self._conn = self._log.connection()
        with self._errors():
            ensure_schema(conn)
            conn.autocommit = False
            if not insert_table(conn, self._log.table_id, header):
                self.abort()
                raise exists_error(self.path)
            self._copy_cm = conn.cursor().copy(
                "COPY tablelog_records (table_id, seq, crc, payload, type, actor, at, cmd, req) "
                "FROM STDIN"
            )
            self._copy = self._copy_cm.__enter__()

    def _errors(self) -> AbstractContextManager[None]:
        from tablelog.store.pgsql import db_errors

        return db_errors(self.path)

    def add(self, seq: int, payload: bytes, env: dict[str, Any]) -> None:
        row = (self._log.table_id, seq, zlib.crc32(payload), payload, env["type"], env["actor"])
        with self._errors():
            self._copy.write_row((*row, env["at"], env.get(COMMAND_KEY), env.get(REQUEST_KEY)))

    def commit(self) -> None:
        with self._errors():
            self._copy_cm.__exit__(None, None, None)
            self._conn.commit()
        self._log.close()

    def abort(self) -> None:
        self._log.close()  # the server rolls the transaction back: no table, no records


def describe(copied: Copied) -> str:
    """Return the one-line report of a copy."""
    return f"copied {copied.records} records into {redact(copied.path)}"
