"""The reader's time zone: times a person reads (``log``, ``history``, ``replay``, the report)
shown in it, as ISO 8601 with the offset (``2026-11-30T14:01:51.124022+09:00``).

The log records every ``at`` in UTC (``2026-11-30T05:01:51.124022Z``), and what machines read
(``--json``, the exports' jsonl and csv, the report's JSON) keeps it so. Without a zone, or in
UTC itself, a time shows exactly as recorded (with its ``Z``). The CLI's zone is ``--tz``, else
``$TZ`` (:func:`zone_of`); the server's page shows times in the browser's own zone.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Mapping

__all__ = ["UnknownZone", "zone_named", "zone_of", "local"]

_UTC_NAMES = frozenset(
    {"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Zulu", "Etc/Zulu", "Universal", "Etc/Universal"}
)
# A POSIX TZ without daylight saving (``JST-9``, ``KST-9``, ``UTC0``): the hours WEST of UTC.
_POSIX = re.compile(
    r"(?P<name>[A-Za-z]{3,}|<[A-Za-z0-9+-]+>)(?P<hours>[+-]?\d{1,2})(?::(?P<minutes>\d\d))?"
)


class UnknownZone(ValueError):
    """A time zone name that is neither an IANA zone (``Asia/Tokyo``) nor a POSIX fixed one."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def zone_named(name: str) -> dt.tzinfo | None:
    """Return the time zone ``name`` names: an IANA name (``Asia/Tokyo``, ``Europe/Paris``;
    a leading ``:`` as in ``TZ=:Asia/Tokyo`` is allowed), a zone file's absolute path, or a
    POSIX zone without daylight saving (``JST-9``); None for UTC itself (times show as
    recorded).

    Raises:
        UnknownZone: no such zone.
    """
    import zoneinfo

    given = name.strip()
    key = given[1:] if given.startswith(":") else given
    if key in _UTC_NAMES:
        return None
    try:
        if os.path.isabs(key):
            with open(key, "rb") as stream:
                return zoneinfo.ZoneInfo.from_file(stream, key=key)
        return zoneinfo.ZoneInfo(key)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        pass
    fixed = _POSIX.fullmatch(key)
    if fixed is not None:
        minutes = int(fixed["hours"]) * 60 + int(fixed["minutes"] or 0) * (
            -1 if fixed["hours"].startswith("-") else 1
        )
        if abs(minutes) < 24 * 60:
            return None if minutes == 0 else dt.timezone(dt.timedelta(minutes=-minutes))
    raise UnknownZone(name)


def zone_of(given: str | None, environ: Mapping[str, str]) -> dt.tzinfo | None:
    """Return the reader's zone: ``--tz`` (``given``), else ``$TZ``, else None (UTC).

    Raises:
        UnknownZone: ``given`` names no zone. A ``$TZ`` that names none is passed over (UTC):
            it is the whole environment's setting, not one given to tablelog.
    """
    if given is not None:
        return zone_named(given)
    found = environ.get("TZ", "").strip()
    if not found:
        return None
    try:
        return zone_named(found)
    except UnknownZone:
        return None


def local(at: str | None, zone: dt.tzinfo | None) -> str | None:
    """Return a recorded time (UTC, ``…Z``) in ``zone`` as ISO 8601 with its offset, keeping
    the recorded precision; as recorded when ``zone`` is None or the text is not such a time.

    Example: ``local("2026-11-30T05:01:51.124022Z", ZoneInfo("Asia/Tokyo"))`` is
    ``"2026-11-30T14:01:51.124022+09:00"``.
    """
    if zone is None or not at or not at.endswith("Z"):
        return at
    try:
        moment = dt.datetime.fromisoformat(at[:-1] + "+00:00")
    except ValueError:
        return at
    head, dot, fraction = at[:-1].partition(".")
    spec = "auto" if not dot else ("microseconds" if len(fraction) > 3 else "milliseconds")
    if "T" in head and head.count(":") == 1:
        spec = "minutes"
    return moment.astimezone(zone).isoformat(timespec=spec)
