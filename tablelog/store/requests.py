"""Request ids: which command of a log carried each one (SERVER.md §2, docs/FORMAT.md).

A command appended with a request id carries it in its first record (``req``); its later records
share its command id (``cmd``). A client that sends the same request again gets the first
command's result, and nothing is appended twice.
"""

from __future__ import annotations

from typing import Any

from tablelog.store.errors import LogError
from tablelog.store.format import COMMAND_KEY, REQUEST_KEY, Position
from tablelog.text import msg

__all__ = ["Requests"]


class Requests:
    """The request ids of one log, read once and then only as far as the log grew."""

    def __init__(self) -> None:
        self._found: dict[str, tuple[int, int]] = {}  # request id -> (first, last) seq
        self._end: Position | None = None  # how far the log has been read

    def find(
        self, log: Any, end: Position, request_id: str, chain: bool = False
    ) -> tuple[int, int] | None:
        """Return ``(first, last)`` seq of the command with ``request_id`` up to ``end``.

        Args:
            log: The log (:class:`tablelog.store.base.Log`).
            end: Where the folded log ends (a shorter log than last time: read it again).
            request_id: The id to look for.
            chain: Check the hash chain of the records read.

        Raises:
            LogError: the log cannot be read, or is a format-1 log (no request ids).
        """
        if (log.version or 1) < 2:
            raise LogError(
                msg(
                    "store.requests.format1",
                    "{path} is a format-1 log, which has no request ids: start a new log to "
                    "use them",
                    path=log.path,
                )
            )
        if self._end is None or self._end.seq > end.seq:
            self._found, self._end = {}, None
        if self._end is None or self._end.seq < end.seq:
            self._read(log.records(self._end, chain), end.seq)
            self._end = end
        return self._found.get(request_id)

    def _read(self, records: Any, last: int) -> None:
        found, current = self._found, None
        for seq, env, *_ in records:
            if seq > last:
                break
            req, cmd = env.get(REQUEST_KEY), env.get(COMMAND_KEY)
            if req is not None:
                current = req if req not in found else None
                if current is not None:
                    found[current] = (seq, seq)
            elif current is not None and cmd is not None and cmd == found[current][0]:
                found[current] = (found[current][0], seq)
            else:
                current = None
