"""The in-game clock and the rest packages (休息パッケージ) with sleep and dawn timing.

A clock time is ``(day, minutes)``: the day number (day 1 is the first) and minutes since that
day's midnight (0..1439). Dawn is 06:00.
"""

from __future__ import annotations

import re

import attrs

from tablelog.rules.core import require
from tablelog.text import Msg, Term, msg

__all__ = [
    "CLOCK_RULE",
    "DAWN_MINUTES",
    "DEFAULT_CLOCK",
    "MAX_DAY",
    "REST_PACKAGES",
    "RestMoment",
    "absolute",
    "at_text",
    "at_msg",
    "clock_text",
    "from_absolute",
    "next_dawn",
    "parse_clock",
    "rest_moments",
    "rest_sleeps",
]

CLOCK_RULE = "MP-CLOCK"
"""Rule ID for a malformed clock (RULES.md, magicpunk preamble: Decision (clock))."""

DAY_MINUTES = 24 * 60
DAWN_MINUTES = 6 * 60
DEFAULT_CLOCK = (1, 12 * 60)
SLEEP_CIRCULATION_MINUTES = 60
REST_PACKAGES: dict[str, int] = {"10m": 10, "1h": 60, "8h": 480}
"""Rest package name -> duration in minutes (MP-REST-1)."""

MAX_DAY = 10**4
"""The latest starting day ``init --clock`` takes (no campaign needs more)."""

_CLOCK = re.compile(r"^\s*(\d+)\s+(\d{1,2}):(\d{2})\s*$")


def parse_clock(text: str | None) -> tuple[int, int]:
    """Parse ``"DAY HH:MM"`` (``init --clock``) into ``(day, minutes)``.

    Raises:
        RuleViolation: MP-CLOCK if the text is not ``DAY HH:MM`` with a day from 1 to
            :data:`MAX_DAY` and a valid time.

    Source: RULES.md, magicpunk preamble (Decision (clock): day 1 12:00 by default).
    """
    if text is None or not str(text).strip():
        return DEFAULT_CLOCK
    match = _CLOCK.match(str(text))
    require(
        match,
        CLOCK_RULE,
        msg(
            "magicpunk.clock.malformed",
            "clock {text!r} is not 'DAY HH:MM' (e.g. '1 22:00')",
            text=text,
        ),
    )
    assert match is not None
    day, hours, minutes = (int(g) for g in match.groups())
    require(
        1 <= day <= MAX_DAY and hours < 24 and minutes < 60,
        CLOCK_RULE,
        msg(
            "magicpunk.clock.out_of_range",
            "clock {text!r}: the day is 1 to {most} and the time 00:00 to 23:59",
            text=text,
            most=MAX_DAY,
        ),
    )
    return day, hours * 60 + minutes


def absolute(day: int, minutes: int) -> int:
    """Return minutes since day 1 00:00 for ``(day, minutes)``."""
    return (day - 1) * DAY_MINUTES + minutes


def from_absolute(total: int) -> tuple[int, int]:
    """Return ``(day, minutes)`` for minutes since day 1 00:00."""
    days, minutes = divmod(total, DAY_MINUTES)
    return days + 1, minutes


def clock_text(day: int, minutes: int) -> str:
    """Format a clock time: ``(2, 370)`` -> ``"day 2 06:10"``."""
    return f"day {day} {minutes // 60:02d}:{minutes % 60:02d}"


def at_text(total: int) -> str:
    """Format absolute minutes as a clock time: ``1810`` -> ``"day 2 06:10"``."""
    return clock_text(*from_absolute(total))


def at_msg(total: int) -> Msg:
    """Return absolute minutes as a clock time, as data: ``1810`` -> ``day 2 06:10``."""
    day, minutes = from_absolute(total)
    return msg(
        "magicpunk.clock.time",
        "day {day} {hours:02d}:{minutes:02d}",
        day=day,
        hours=minutes // 60,
        minutes=minutes % 60,
    )


def next_dawn(start: int) -> int:
    """Return the absolute minute of the first 06:00 strictly after ``start``."""
    day_start = start - start % DAY_MINUTES
    dawn = day_start + DAWN_MINUTES
    return dawn if dawn > start else dawn + DAY_MINUTES


def rest_sleeps(package: str, sleep: bool | None) -> bool:
    """Return whether a rest package includes sleep.

    Args:
        package: ``"10m"``, ``"1h"`` or ``"8h"``.
        sleep: ``--sleep`` (True), ``--no-sleep`` (False) or neither (None).

    Raises:
        RuleViolation: MP-REST-1 for an unknown package or a 10-minute rest with sleep.

    Source: magicpunk-optional-rules.ja.txt, 休息パッケージ; MP-REST-1 (Decision: 8h sleeps
    unless --no-sleep, 1h only with --sleep, 10m never).
    """
    require(
        package in REST_PACKAGES,
        "MP-REST-1",
        msg(
            "magicpunk.rest.unknown_package",
            "unknown rest package {package!r} (10m, 1h or 8h)",
            package=package,
        ),
    )
    minutes = REST_PACKAGES[package]
    require(
        not (sleep and minutes < SLEEP_CIRCULATION_MINUTES),
        "MP-REST-1",
        msg(
            "magicpunk.rest.no_sleep",
            "a {package} rest ({minutes} minutes) cannot include sleep: sleep circulation "
            "needs {needs} minutes",
            package=Term("magicpunk.rest", package),
            minutes=minutes,
            needs=SLEEP_CIRCULATION_MINUTES,
        ),
    )
    if sleep is None:
        return package == "8h"
    return sleep


@attrs.frozen
class RestMoment:
    """Something a rest triggers at a clock time: ``kind`` is ``"sleep"`` or ``"dawn"``."""

    kind: str
    at: int


def rest_moments(start: int, minutes: int, sleep: bool) -> list[RestMoment]:
    """Return the circulations a rest triggers, in clock order (sleep before dawn on a tie).

    Args:
        start: Absolute minute the rest starts.
        minutes: Its length in minutes.
        sleep: Whether it includes sleep (from its start).

    Returns:
        A sleep moment when the first hour of sleep completes (MP-CIRC-1) and a dawn moment
        for every 06:00 in (start, start + minutes] (MP-CIRC-2).

    Source: MP-REST-1, MP-CIRC-1, MP-CIRC-2.
    """
    end = start + minutes
    moments = []
    if sleep and minutes >= SLEEP_CIRCULATION_MINUTES:
        moments.append(RestMoment("sleep", start + SLEEP_CIRCULATION_MINUTES))
    dawn = next_dawn(start)
    while dawn <= end:
        moments.append(RestMoment("dawn", dawn))
        dawn += DAY_MINUTES
    return sorted(moments, key=lambda m: (m.at, m.kind != "sleep"))
