"""The ``at`` stamp of a command's records: the time it was appended, never before the log's last
but for a far-off one.

Every record of one command shares one ``at`` (docs/FORMAT.md): the current UTC time as ISO 8601
with microseconds and a ``Z``, or one microsecond after the log's last record when this machine's
clock is behind it (a player's clock ahead of the server's, a clock set back), so times in a log
never go back. A last record dated a day or more after this clock (:data:`MAX_AHEAD_S`: one
machine's clock years ahead, or this one set back years), or at the last time of all (which no
time follows), is not followed: seq orders the log, and the command is dated by this clock
(``verify`` flags the far-off record).
"""

from __future__ import annotations

import datetime as dt

from tablelog.store.errors import LogError
from tablelog.text import msg

__all__ = ["LAST_TIME", "MAX_AHEAD_S", "now_utc", "after", "horizon", "stamp", "stepped_back"]

MAX_AHEAD_S = 24 * 3600  # how far after this machine's clock a record may be dated
_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
LAST_TIME = "9999-12-31T23:59:59.999999Z"  # the last time of all: no time follows it


def now_utc() -> str:
    """Return the current UTC time as ISO 8601 with microseconds and a ``Z`` (``_FORMAT``'s
    text, made by ``isoformat``: a hot path of every append, at half ``strftime``'s cost)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")[:-6] + "Z"


def _text(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"


def horizon(moment: dt.datetime) -> str:
    """Return the time a day after ``moment`` (aware, UTC): a record dated at or after it is
    far off for a machine whose clock reads ``moment`` (clocks at one table disagree by
    minutes, not by a day; past the last time of all: ``"~"``, after every time)."""
    try:
        return _text(moment + dt.timedelta(seconds=MAX_AHEAD_S))
    except OverflowError:
        return "~"


def after(at: str) -> str:
    """Return the ISO time one microsecond after ``at`` (same format).

    Raises:
        LogError: ``at`` (the log's last record's) is no such time, or the last one there is.
    """
    try:
        moment = dt.datetime.strptime(at, _FORMAT) + dt.timedelta(microseconds=1)
    except (ValueError, OverflowError):
        raise LogError(
            msg(
                "store.stamp.last_time",
                "the log's last record has a time no command can follow: {at}",
                at=repr(at),
            )
        ) from None
    return moment.strftime(_FORMAT)


def stamp(last: str) -> str:
    """Return a new command's ``at``: now, but after ``last`` (the log's last record's ``at``,
    ``""`` for an empty log), unless ``last`` is far off: a day or more after this clock, or
    the last time of all. A far-off time is not followed (it would date every later record by
    one wrong clock, and could pass this machine's horizon): the command is dated now, before
    it; seq orders the log, and ``verify`` flags the step back. Which clock was wrong, this one
    (set back years) or the last record's (years ahead), cannot be told here: either way the
    log stays usable and nothing is refused.

    Raises:
        LogError: ``last`` is no time at all (see :func:`after`).
    """
    at = now_utc()
    if at > last:
        return at
    moment = _moment(last)
    if moment is not None and (last == LAST_TIME or last >= _horizon_of(at)):
        return at
    return after(last)


def _horizon_of(at: str) -> str:
    moment = _moment(at)
    return "~" if moment is None else horizon(moment)


def stepped_back(before: str, at: str) -> bool:
    """Return whether ``at``, a record's time before the previous record's ``before``, is one
    :func:`stamp` may give: ``before`` is a time far off for the clock that read ``at`` (a day
    or more after it, or the last time of all). False when either is no time."""
    if _moment(at) is None or _moment(before) is None:
        return False
    return before == LAST_TIME or before >= _horizon_of(at)


def _moment(at: str) -> dt.datetime | None:
    """Return the moment (aware, UTC) that ``at`` names in the format, or None."""
    try:
        return dt.datetime.strptime(at, _FORMAT).replace(tzinfo=dt.UTC)
    except ValueError:
        return None
