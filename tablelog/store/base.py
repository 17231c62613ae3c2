"""The store interface: what the session, the replay, the server and ``copy`` use of a table.

A *store* holds tables; a *table* is one log (docs/FORMAT.md: the same header, the same
envelopes, the same msgpack bytes, the same hash chain). :class:`Log` is one table of a store,
opened; two implementations satisfy it, with nothing in common but this interface:

- :class:`tablelog.store.logfile.LogFile`: a log file (``PATH``, or ``file:DIR#ID`` for
  ``DIR/ID.tlog``), appended under a lock on itself.
- :class:`tablelog.store.postgres.PostgresLog`: a table in PostgreSQL
  (``postgresql://…#ID``), one row per record holding the record's payload bytes, one
  transaction per command.

A table is asked for records by seq and by a :class:`~tablelog.store.format.Position`, the seq
and chain hash of a record (``SEQ:HASH``, its head), never by byte offsets. A record's byte
offset in the table's file form only names it in messages (``corrupt record #12 at byte
1464``), alike on both stores. What else a store does is done over this interface by
functions: mending (:mod:`tablelog.store.repair`), the snapshot cache
(:mod:`tablelog.store.snapshot`), copying (:mod:`tablelog.store.copy`), following
(:mod:`tablelog.store.follow`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

from tablelog.store.errors import LogError
from tablelog.store.format import Header, Position, chain_hash, decode_payload
from tablelog.store.reader import Record, StoredRecord
from tablelog.text import msg

__all__ = ["Log", "Lock", "is_record"]


class Lock(AbstractContextManager["Lock"], Protocol):
    """A table's exclusive writer lock, held (release it, or leave the ``with`` block)."""

    def release(self) -> None: ...


class Log(Protocol):
    """One table of a store (every method raises :class:`~tablelog.store.errors.LogError` when
    the table cannot be used).

    Attributes:
        kind: ``file`` or ``postgresql``.
        path: What messages call the table (a file path, or the store URL without its password
            and ``#ID``).
        spec: The ``--log`` value that opens it again (may hold a password: never print it).
        header, version, start: After :meth:`open`: the header, the format version, the
            position before the first record.
        end, torn_at, in_flight: After a read: the position after the last whole command
            read; where a torn last command starts (a file cut mid-append; never on
            PostgreSQL), or None; where a last command starts that another writer was still
            writing, holding the lock past the timeout (not read, not torn), or None. Torn and
            in-flight commands are named by their byte offset: there is no position of them.
        far_off: The records reads with ``chain`` (``verify``) met dated far off, by seq
            (:data:`tablelog.store.envelope.FarOff`: a wrong clock's, flagged, not faults).
        signer: Signs each record appended to a format-2 log when set (``sign(bytes)``).
    """

    kind: str
    path: str
    spec: str
    header: Header | None
    version: int | None
    start: Position | None
    end: Position | None
    torn_at: int | None
    in_flight: int | None
    far_off: dict[int, tuple[int, str, str]]
    signer: Callable[[bytes], bytes] | None

    def open(self) -> Header:
        """Read and check the header."""

    def header_bytes(self) -> bytes:
        """Return the header's bytes, exactly as a log file begins with them."""

    def records(
        self, after: Position | None = None, chain: bool = False, fold: bool = False
    ) -> Iterator[Record]:
        """Yield every whole record after ``after`` (None: from the first), checked (with
        ``chain`` the hash chain and times too; a ``fold`` reads only what a fold needs)."""

    def scan(self, after: Position | None = None, chain: bool = False) -> Iterator[StoredRecord]:
        """Yield every whole record after ``after`` as a StoredRecord, checked."""

    def position(self, seq: int) -> Position | None:
        """Return the position right after record ``seq`` (0: the start), or None when the
        table holds no record ``seq`` (yet)."""

    def holds(self, pos: Position) -> bool:
        """Return whether the table still holds record ``pos.seq`` with chain hash
        ``pos.prev`` (a checkpoint's anchor)."""

    def prefix_digest(self, pos: Position) -> int:
        """Return a digest of the whole table up to and including record ``pos.seq`` (-1 when
        it cannot be had): a checkpoint is used only while it is unchanged."""

    def envelope_at(self, pos: Position) -> dict[str, Any]:
        """Return the envelope of record ``pos.seq`` (≥ 1): its ``at`` and ``actor`` checked."""

    def ends_at(self, pos: Position) -> bool:
        """Return whether the table still ends with record ``pos``, its seq and its chain
        hash: nothing appended after it, nothing lost or changed before (one look: a file's
        size and that record's bytes, one indexed query)."""

    def lock(self) -> Lock:
        """Take the table's exclusive writer lock (waiting up to $TABLELOG_LOCK_TIMEOUT)."""

    def append(
        self, envelopes: list[dict[str, Any]], expected: Position, locked: bool = False
    ) -> Position:
        """Append one command's records if the table still ends at ``expected`` (else
        LogMovedOn); durable before it returns the new end."""

    def load_snapshot(self) -> bytes | None:
        """Return the body of the table's snapshot cache when it is sound, else None."""

    def save_snapshot(self, body: bytes) -> None:
        """Replace the table's snapshot cache (OSError or LogError: callers ignore it)."""

    def waiter(self) -> Any:
        """Return a :class:`tablelog.store.follow.Waiter` for this table's appends."""

    def close(self) -> None:
        """Release what the table holds open (a connection); it opens again when used."""

    def drop(self) -> None:
        """Remove the table: one this process just created and does not keep."""


def is_record(payload: bytes | None, pos: Position) -> bool:
    """Return whether ``payload`` is that of record ``pos.seq`` with the chain hash
    ``pos.prev`` (a checkpoint is bound to its record's own seq and bytes)."""
    if payload is None or chain_hash(payload) != pos.prev:
        return False
    try:
        env = decode_payload(payload)
    except Exception:  # noqa: BLE001 - not a record at all
        return False
    return type(env) is dict and type(env.get("seq")) is int and env["seq"] == pos.seq


def placed(log: Log, pos: Position) -> Position:
    """Return ``pos`` with its record's span in the file form (``log.position(pos.seq)`` when
    ``pos`` holds none): what the file store and the PostgreSQL store check alike.

    Raises:
        LogError: the log holds no record ``pos.seq`` with the hash ``pos.prev``.
    """
    if pos.span is not None:
        return pos
    found = log.position(pos.seq)
    if found is None or found != pos:
        raise LogError(
            msg(
                "store.no_record",
                "{path}: holds no record #{seq} with that chain hash",
                path=log.path,
                seq=pos.seq,
            )
        )
    return found
