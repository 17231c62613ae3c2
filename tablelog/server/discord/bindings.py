"""Which table a Discord channel is, and which seat a Discord user is at it.

Kept in one JSON file, ``discord.json``, in the server's data directory (a file store's folder,
beside the tables' ``.tlog`` files; ``--discord-data DIR`` otherwise), so bindings survive a
restart and are shared by the processes serving that folder. The file holds no secret: a
user is linked to a seat by its *name* (the seat's identity in the log), once the GM proved the
table's GM token (``/tl bind``) or a player used up the seat's one-time link (``/tl join``);
a revoked seat's name opens nothing, whatever the file says (:meth:`Bindings.seat`).

Shape: ``{"version": 1, "channels": {CHANNEL_ID: {"table": ID, "lang": "ja"}},
"users": {TABLE_ID: {USER_ID: SEAT_NAME}}}``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import threading
from collections.abc import Iterator
from typing import Any

import attrs

__all__ = ["Bindings", "Channel"]

FILE_NAME = "discord.json"


@attrs.frozen
class Channel:
    """A bound channel: its table and the language its public lines are written in."""

    table_id: str
    lang: str


class Bindings:
    """The bindings file of one data directory.

    Args:
        folder: The directory (created when missing).
    """

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        self.path = os.path.join(folder, FILE_NAME)
        self._lock = threading.Lock()

    def channel(self, channel_id: str) -> Channel | None:
        """Return the table the channel is bound to, or None."""
        found = self._read()["channels"].get(channel_id)
        return None if found is None else Channel(found["table"], found.get("lang", "en"))

    def seat_name(self, table_id: str, user_id: str) -> str | None:
        """Return the name of the seat the user is linked to at the table, or None."""
        found = self._read()["users"].get(table_id, {}).get(user_id)
        return found if isinstance(found, str) else None

    def users(self, table_id: str) -> dict[str, str]:
        """Return every user linked to a seat of the table: user id -> seat name."""
        found = self._read()["users"].get(table_id, {})
        return {u: n for u, n in found.items() if isinstance(n, str)}

    def bind(self, channel_id: str, table_id: str, lang: str) -> None:
        """Bind the channel to the table (a channel is one table; binding again replaces)."""
        with self._changing() as data:
            data["channels"][channel_id] = {"table": table_id, "lang": lang}

    def link(self, table_id: str, user_id: str, seat: str) -> None:
        """Link the user to the seat named ``seat`` at the table (replacing any other)."""
        with self._changing() as data:
            data["users"].setdefault(table_id, {})[user_id] = seat

    def _read(self) -> dict[str, Any]:
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            data = {}
        except (OSError, ValueError):
            data = {}  # a torn or edited file binds nothing; the next change rewrites it
        if not isinstance(data, dict):
            data = {}
        data.setdefault("version", 1)
        for key in ("channels", "users"):
            if not isinstance(data.get(key), dict):
                data[key] = {}
        return data

    @contextlib.contextmanager
    def _changing(self) -> Iterator[dict[str, Any]]:
        """Read, change and write the file under its lock (one process's threads and other
        processes alike), replacing it whole so a reader never sees half of it."""
        with self._lock, open(self.path + ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data = self._read()
            yield data
            folder = os.path.dirname(self.path) or "."
            fd, tmp = tempfile.mkstemp(prefix=".discord-", dir=folder)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, ensure_ascii=False, indent=1, sort_keys=True)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
