"""The ``at`` stamp of a command's records: the time it was appended, never before the log's last.

Every record of one command shares one ``at`` (docs/FORMAT.md): the current UTC time as ISO 8601
with microseconds and a ``Z``, or one microsecond after the log's last record when this machine's
clock is behind it (a player's clock ahead of the server's, a clock set back), so times in a log
never go back.
"""

from __future__ import annotations

import datetime as dt

from tablelog.store.errors import LogError

__all__ = ["now_utc", "after", "stamp"]

_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def now_utc() -> str:
    """Return the current UTC time as ISO 8601 with microseconds and a ``Z`` (``_FORMAT``'s
    text, made by ``isoformat``: a hot path of every append, at half ``strftime``'s cost)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")[:-6] + "Z"


def after(at: str) -> str:
    """Return the ISO time one microsecond after ``at`` (same format).

    Raises:
        LogError: ``at`` (the log's last record's) is no such time, or the last one there is.
    """
    try:
        moment = dt.datetime.strptime(at, _FORMAT) + dt.timedelta(microseconds=1)
    except (ValueError, OverflowError):
        raise LogError(f"the log's last record has a time no command can follow: {at!r}") from None
    return moment.strftime(_FORMAT)


def stamp(last: str) -> str:
    """Return a new command's ``at``: now, but after ``last`` (the log's last record's ``at``,
    ``""`` for an empty log).

    Raises:
        LogError: ``last`` is no time a command can follow (see :func:`after`).
    """
    at = now_utc()
    return at if at > last else after(last)
