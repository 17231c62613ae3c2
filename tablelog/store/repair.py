"""Mending a table, on any store: cut a torn tail (after a backup), or salvage the valid
prefix into a new table.

Neither ever changes a complete record: :func:`repair` cuts only a batch that a crash left
incomplete at the very end of a log file (a PostgreSQL table never ends torn: each command is
one transaction), and refuses anything else; :func:`salvage` writes a *new* table and leaves the
damaged one as it is (docs/RELIABILITY.md).
"""

from __future__ import annotations

import os

from tablelog.store.base import Log
from tablelog.store.copy import copy_log
from tablelog.store.errors import LogError, LogLocked, LogUnwritable, cannot
from tablelog.store.files import create_file, fsync_dir, open_regular, remove_quietly, write_all
from tablelog.store.format import BATCH_KEY, Position
from tablelog.store.reader import after
from tablelog.text import msg

__all__ = ["repair", "salvage", "sound_prefix"]

_CHUNK = 1 << 20
_MAX_BACKUPS = 1000


def repair(log: Log) -> tuple[int, str] | None:
    """Truncate a torn last batch after copying the file to a backup (under the writer lock,
    taken only when a read without it found the log torn, or a record still being written).
    Only a log file ever tears: on any other store this reads the table and cuts nothing.

    Returns:
        ``(offset truncated at, backup path)``, or None when there was nothing to repair.

    Raises:
        LogError: the log is corrupt before its tail (never repaired silently), or locked.
        LogUnwritable: the backup or the cut could not be written (nothing repaired).
    """
    for _ in log.records(chain=True):  # first without the lock: a sound log needs none
        pass
    if log.torn_at is None and log.in_flight is None:
        return None
    if log.in_flight is not None:
        raise LogLocked(
            msg(
                "store.repair.in_flight",
                "{path}: the record at byte {offset} is still being written by another writer "
                "(it held the lock past the timeout); nothing to repair: verify again when it "
                "is done",
                path=log.path,
                offset=log.in_flight,
            )
        )
    with log.lock():
        for _ in log.records(chain=True):
            pass
        if log.torn_at is None:
            return None
        return _cut(log.path, log.torn_at)


def _cut(path: str, torn_at: int) -> tuple[int, str]:
    """Copy the log file at ``path`` to a backup, then cut it at byte ``torn_at``.

    Raises:
        LogUnwritable: the backup or the cut could not be written.
    """
    backup = _backup(path)
    try:
        with open(path, "r+b") as f:
            f.truncate(torn_at)
            f.flush()
            os.fsync(f.fileno())
        fsync_dir(path)
    except OSError as exc:
        raise LogUnwritable(
            msg(
                "store.repair.cut",
                "cannot cut {path} at byte {offset}: {why}; its copy is at {backup}",
                path=path,
                offset=torn_at,
                why=exc.strerror,
                backup=backup,
            )
        ) from None
    return torn_at, backup


def _backup(path: str) -> str:
    """Copy the log to a new file ``<log>.bak`` (``.bak.1``, … when taken): created, never
    opened through a symbolic link or over an existing file; removed again if the copy fails.

    Returns:
        The backup's path.

    Raises:
        LogUnwritable: no backup could be written in full (read-only directory, full disk, …): then
            nothing is repaired and no backup is left.
    """
    fd, backup = _new_file(path + ".bak")
    try:
        try:
            _copy_prefix(path, fd, os.stat(path).st_size)
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(backup)
    except OSError as exc:
        remove_quietly(backup)
        raise LogUnwritable(
            msg(
                "store.repair.backup_write",
                "cannot write the backup {path}: {why}; nothing repaired",
                path=backup,
                why=exc.strerror or str(exc),
            )
        ) from None
    return backup


def _new_file(base: str) -> tuple[int, str]:
    """Create the first free name of ``base``, ``base.1``, … (at most 1,000 tries).

    Raises:
        LogUnwritable: it cannot be created (the error of the last try).
    """
    for n in range(_MAX_BACKUPS):
        name = base if n == 0 else f"{base}.{n}"
        try:
            return create_file(name), name
        except FileExistsError:  # a file, or a link (dangling too): never written through
            continue
        except OSError as exc:
            raise LogUnwritable(
                msg(
                    "store.repair.backup_create",
                    "cannot create the backup {path}: {why}; nothing repaired",
                    path=name,
                    why=exc.strerror,
                )
            ) from None
    raise LogUnwritable(
        msg(
            "store.repair.backups_full",
            "cannot create a backup: {base} to {last} all exist; nothing repaired",
            base=base,
            last=f"{base}.{_MAX_BACKUPS - 1}",
        )
    )


def salvage(log: Log, out: str, before: int | None = None) -> tuple[int, int, int | None]:
    """Copy the header and every whole command before the first bad record into a new table
    ``out`` (any ``--log`` value): the first record that fails a check, or record ``before``
    when given (one that is sound but does not decode or apply, found by a fold). A log file
    into a file path is copied byte for byte; any other pair through :mod:`tablelog.store.copy`.

    Returns:
        ``(records kept, bytes of the kept file form, offset of the first bad record or
        None)``.

    Raises:
        LogError: ``out`` exists or cannot be written, or the header itself is bad.
    """
    if log.kind != "file" or out.startswith(("file:", "postgres")):  # into a store
        keep, bad = sound_prefix(log, before)
        copy_log(log, out, keep.seq)
        return keep.seq, _ends(keep), bad
    keep, bad = sound_prefix(log, before)
    size = _ends(keep)
    try:
        fd = create_file(out)
    except OSError as exc:
        raise LogError(cannot("create", out, exc.strerror)) from None
    try:
        try:
            _copy_prefix(log.path, fd, size)
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(out)
    except OSError as exc:
        remove_quietly(out)
        raise LogError(cannot("write", out, exc.strerror or str(exc), "salvaged")) from None
    return keep.seq, size, bad


def _ends(pos: Position) -> int:
    """Return where the record before ``pos`` ends in the file form."""
    assert pos.span is not None
    return pos.span[1]


def sound_prefix(log: Log, before: int | None = None) -> tuple[Position, int | None]:
    """Return where the whole commands before the first bad record of ``log`` end (the first
    record that fails a check, or record ``before``), and that record's offset (or the torn
    tail's, or None when every record is sound).

    Raises:
        LogError: the header is bad.
    """
    log.open()
    bad: int | None = None
    keep = log.start
    assert keep is not None
    try:
        for record in log.records(chain=True):
            seq, env, offset, _, _ = record
            if before is not None and seq >= before:
                bad = offset
                break
            if BATCH_KEY not in env:  # the last record of its command
                keep = after(record)
        else:
            bad = log.torn_at
    except LogError as exc:
        bad = exc.offset
    return keep, bad


def _copy_prefix(path: str, fd: int, size: int) -> None:
    """Copy the first ``size`` bytes of ``path`` to the open descriptor ``fd``."""
    with open_regular(path) as src:  # a FIFO swapped in meanwhile: refused, not waited on
        remaining = size
        while remaining:
            chunk = memoryview(src.read(min(remaining, _CHUNK)))
            if not chunk:
                raise OSError(0, "the log got shorter while it was copied")
            remaining -= len(chunk)
            write_all(fd, chunk)
