"""A store's tables: which exist, and the ``--log`` value that opens each (SERVER.md §1).

``tablelog serve`` lists and finds tables through a :class:`Catalog`; it opens each table as the
CLI does (:func:`tablelog.store.url.open_log` on :meth:`Catalog.spec`). A ``file:DIR`` store's
tables are its ``DIR/<id>.tlog`` files; a PostgreSQL store's are the rows of
``tablelog_tables``, read on a connection of the catalog's own.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from tablelog.store.errors import LogError
from tablelog.store.url import TABLE_ID, parse_spec, redact
from tablelog.text import msg

__all__ = ["Catalog"]

_EXISTS = "SELECT 1 FROM tablelog_tables WHERE table_id = %s"


class Catalog:
    """The tables of one store.

    Args:
        store: ``file:DIR`` (the directory is created when missing) or a PostgreSQL URL,
            without ``#TABLE_ID``.

    Attributes:
        kind: ``file`` or ``postgresql``.
        url: The store URL as given (may hold a password: never print it).
        where: What messages call the store (no password).

    Raises:
        LogError: not a store URL, or a URL naming one table.
    """

    def __init__(self, store: str) -> None:
        spec = parse_spec(store)
        if spec.table_id is not None or (spec.kind == "file" and not store.startswith("file:")):
            raise LogError(
                msg(
                    "store.url.not_store",
                    "{url} is not a store URL (use file:DIR or postgresql://…, without #TABLE_ID)",
                    url=redact(store),
                )
            )
        self.kind, self.url, self.where = spec.kind, store, redact(store)
        self.folder = spec.where if spec.kind == "file" else ""
        if self.folder:
            os.makedirs(self.folder, exist_ok=True)
        self._conn: Any = None
        self._lock = threading.Lock()

    def spec(self, table_id: str) -> str:
        """Return the ``--log`` value of table ``table_id`` (``STORE_URL#ID``)."""
        if self.kind == "file":
            return f"file:{self.folder}#{table_id}"
        return f"{self.url}#{table_id}"

    def ids(self) -> list[str]:
        """Return the id of every table in the store, sorted.

        Raises:
            LogError: the database cannot be used.
        """
        if self.kind == "file":
            return sorted(
                name[:-5]
                for name in os.listdir(self.folder)
                if name.endswith(".tlog") and TABLE_ID.fullmatch(name[:-5])
            )
        from tablelog.store.pgsql import SQL

        return [row[0] for row in self._rows(SQL.TABLES, ())]

    def exists(self, table_id: str) -> bool:
        """Return whether the store holds table ``table_id`` (False for a malformed id).

        Raises:
            LogError: the database cannot be used.
        """
        if not TABLE_ID.fullmatch(table_id):
            return False
        if self.kind == "file":
            return os.path.isfile(os.path.join(self.folder, f"{table_id}.tlog"))
        return bool(self._rows(_EXISTS, (table_id,)))

    def _rows(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run a query on the catalog's connection (made on first use, made again when lost);
        no tablelog schema yet is no rows."""
        import psycopg

        from tablelog.store.pgsql import connect, db_errors

        with self._lock, db_errors(self.where):
            if self._conn is None or self._conn.closed:
                self._conn = connect(self.url)
            try:
                return list(self._conn.execute(query, params).fetchall())
            except psycopg.errors.UndefinedTable:
                return []
            except psycopg.OperationalError:
                self._conn.close()
                raise

    def close(self) -> None:
        """Close the catalog's connection, if any."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
