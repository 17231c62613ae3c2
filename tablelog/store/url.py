"""``--log`` values: a file path, or ``STORE_URL#TABLE_ID`` (SERVER.md §1, docs/STORES.md).

| value | the log |
|---|---|
| ``PATH`` (no scheme) | the log file at PATH, as always |
| ``file:DIR#ID`` | the log file ``DIR/ID.tlog`` |
| ``postgresql://…#ID`` (or ``postgres://``) | table ID of that PostgreSQL store |

Table ids are 1-64 characters of ``[A-Za-z0-9_-]``. A store URL without ``#ID`` names no table:
only ``init`` takes it, and creates a table with a new id. psycopg is imported only when a
PostgreSQL URL is used.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from tablelog.store.base import Log
from tablelog.store.errors import LogError
from tablelog.store.format import Header, pack_header
from tablelog.store.logfile import LogFile
from tablelog.store.names import TABLE_ID, new_table_id, redact
from tablelog.store.waiting import lock_timeout_s
from tablelog.text import msg

__all__ = [
    "Spec",
    "parse_spec",
    "names_table",
    "open_log",
    "create_log",
    "discard_log",
    "new_table_id",
    "table_id_of",
    "TABLE_ID",
    "redact",
]

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_POSTGRES = ("postgresql", "postgres")


class Spec(NamedTuple):
    """A parsed ``--log`` value: ``kind`` is ``file`` or ``postgresql``; ``where`` the file path
    (for a plain path or ``file:DIR#ID``), the directory (``file:DIR``), or the PostgreSQL URL;
    ``table_id`` the id after ``#`` (None for a plain path or a store URL alone)."""

    kind: str
    where: str
    table_id: str | None


def parse_spec(value: str) -> Spec:
    """Parse a ``--log`` value.

    Raises:
        LogError: an unknown URL scheme, or a table id that is not 1-64 of ``[A-Za-z0-9_-]``.
    """
    scheme = _SCHEME.match(value)
    name = scheme.group(1).lower() if scheme else ""
    if name not in ("file", *_POSTGRES):
        if scheme and value[scheme.end() :].startswith("//"):
            raise LogError(
                msg(
                    "store.url.scheme",
                    "unknown store URL scheme {scheme} in {url} (use a file path, file:DIR#ID "
                    "or postgresql://…#ID)",
                    scheme=repr(name),
                    url=repr(redact(value)),
                )
            )
        return Spec("file", value, None)  # a plain path (a Windows drive letter too)
    where, sep, table_id = value.rpartition("#") if "#" in value else (value, "", "")
    if sep and not TABLE_ID.fullmatch(table_id):
        raise LogError(
            msg(
                "store.url.table_id",
                "{table} is not a table id (1-64 characters of A-Z a-z 0-9 _ -)",
                table=repr(table_id),
            )
        )
    if name == "file":
        folder = where[len("file:") :]
        folder = folder[2:] if folder.startswith("//") else folder  # file:///abs as file:/abs
        folder = folder or "."
        if not sep:
            return Spec("file", folder, None)
        return Spec("file", os.path.join(folder, f"{table_id}.tlog"), table_id)
    return Spec("postgresql", where, table_id if sep else None)


def names_table(value: str) -> bool:
    """Return whether a ``--log`` value names one table: a file path, or a store URL with
    ``#TABLE_ID`` (False for a store URL alone, which only ``init`` and ``copy`` take).

    Raises:
        LogError: a bad value (see :func:`parse_spec`).
    """
    spec = parse_spec(value)
    return spec.table_id is not None or (spec.kind == "file" and not value.startswith("file:"))


def open_log(value: str) -> Log:
    """Return the log a ``--log`` value names (not read yet: :meth:`Log.open` reads it).

    Raises:
        LogError: a bad value, a store URL without ``#TABLE_ID``, or a bad
            ``$TABLELOG_LOCK_TIMEOUT`` (refused here, before any read or write could need it).
    """
    lock_timeout_s()
    spec = parse_spec(value)
    if spec.kind == "file" and names_table(value):
        return LogFile(spec.where)
    if spec.table_id is None:
        raise LogError(
            msg(
                "store.url.no_table",
                "{url} names no table: add #TABLE_ID (tablelog init --log {url} creates a "
                "table and prints its id)",
                url=redact(value),
            )
        )
    from tablelog.store.postgres import PostgresLog

    return PostgresLog(spec.where, spec.table_id)


def create_log(value: str, header: Header) -> Log:
    """Create the log a ``--log`` value names, holding only ``header``; a store URL without
    ``#TABLE_ID`` gets a table with a new id. Never overwrites.

    Raises:
        LogError: the log or table exists, or cannot be created, or a bad
            ``$TABLELOG_LOCK_TIMEOUT`` (as :func:`open_log`).
    """
    lock_timeout_s()
    spec = parse_spec(value)
    if spec.kind == "file" and spec.table_id is None and value.startswith("file:"):
        os.makedirs(spec.where, exist_ok=True)
        for _ in range(8):  # a new id that happens to exist: draw again
            try:
                return LogFile.create(os.path.join(spec.where, f"{new_table_id()}.tlog"), header)
            except LogError:
                continue
        raise LogError(
            msg("store.no_new_table", "cannot create a new table in {where}", where=spec.where)
        )
    if spec.kind == "file":
        return LogFile.create(spec.where, header)
    from tablelog.store.postgres import PostgresLog

    return PostgresLog.create(spec.where, spec.table_id, pack_header(header))


def discard_log(log: Log) -> None:
    """Remove a log that this process created and does not keep (a ``run --dry-run`` or a
    refused ``run --atomic`` that began with ``init``)."""
    log.drop()


def table_id_of(log: Log) -> str:
    """Return a table's id: a PostgreSQL table's own, a log file's name without ``.tlog``."""
    found = getattr(log, "table_id", None)
    if found is not None:
        return str(found)
    name = os.path.basename(log.path)
    return name[: -len(".tlog")] if name.endswith(".tlog") else name
