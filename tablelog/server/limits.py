"""What one seat may ask of a table (docs/SERVER.md, *Limits per seat*): the size of a command
line, how many commands and how many characters of them in a while, and whole-log reads made
once per seq and kind of seat.

Every seat but a GM's is bounded (the GM runs the table, and its scripts may send hundreds of
commands a second): a command line of at most :data:`MAX_LINE_CHARS` characters; commands
(dry runs too) from a bucket of :data:`COMMANDS_BURST` that refills :data:`COMMANDS_PER_S` a
second; appended characters from a bucket of :data:`CHARS_BURST` that refills
:data:`CHARS_PER_S` a second. The buckets are each server process's own.
"""

from __future__ import annotations

import math
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from tablelog.lang import say
from tablelog.server.tables import Refusal
from tablelog.text import msg

__all__ = [
    "MAX_LINE_CHARS",
    "COMMANDS_BURST",
    "COMMANDS_PER_S",
    "CHARS_BURST",
    "CHARS_PER_S",
    "Budget",
    "WholeReads",
    "budget_of",
    "reads_of",
]

MAX_LINE_CHARS = 4_000  # a player's command line (a note of a long paragraph or two)
COMMANDS_BURST = 20  # commands a seat may send at once
COMMANDS_PER_S = 2.0  # then this many a second (120 a minute)
CHARS_BURST = 16_000  # characters of appended command lines a seat may send at once
CHARS_PER_S = 200.0  # then this many a second (12,000 a minute)
WHOLE_READS_KEPT = 64  # answers of whole-log reads a table keeps (the latest used)

T = TypeVar("T")


class _Bucket:
    """A token bucket: ``burst`` tokens, refilled at ``rate`` a second."""

    __slots__ = ("burst", "rate", "tokens", "at")

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate, self.tokens, self.at = burst, rate, burst, time.monotonic()

    def wait_s(self, cost: float) -> float:
        """Seconds until ``cost`` tokens are there (0: now)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return 0.0 if self.tokens >= cost else (cost - self.tokens) / self.rate


class Budget:
    """The command budgets of one table's seats (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seats: dict[str, tuple[_Bucket, _Bucket]] = {}

    def take(self, seat: str, line: str, dry_run: bool) -> None:
        """Take one command (and, unless a dry run, its characters) from ``seat``'s budget.

        Raises:
            Refusal: 413 ``too_large`` for a line over :data:`MAX_LINE_CHARS`; 429
                ``too_many`` naming the seconds to wait (``params.retry_after_s``).
        """
        if len(line) > MAX_LINE_CHARS:
            raise Refusal(
                413,
                "too_large",
                say(
                    msg(
                        "server.limit.line",
                        "a command line of a seat is at most {most:,} characters, not {size:,}",
                        most=MAX_LINE_CHARS,
                        size=len(line),
                    )
                ),
                params={"most": MAX_LINE_CHARS, "size": len(line)},
            )
        chars = 0 if dry_run else len(line)
        with self._lock:
            commands, appended = self._seats.setdefault(
                seat, (_Bucket(COMMANDS_BURST, COMMANDS_PER_S), _Bucket(CHARS_BURST, CHARS_PER_S))
            )
            wait = max(commands.wait_s(1), appended.wait_s(chars))
            if wait == 0:
                commands.tokens -= 1
                appended.tokens -= chars
                return
        wait = math.ceil(wait * 10) / 10  # tenths of a second, rounded up: never "0.0 s"
        raise Refusal(
            429,
            "too_many",
            say(
                msg(
                    "server.limit.rate",
                    "{seat} has sent more than a seat may in a while: try again in {wait} s",
                    seat=seat,
                    wait=f"{wait:.1f}",
                )
            ),
            params={"seat": seat, "retry_after_s": wait},
        )


class WholeReads:
    """The answers of a table's whole-log reads (history, report), made once per key (the seq
    the table is at, the kind of seat, the route's arguments) and kept for the latest
    :data:`WHOLE_READS_KEPT` keys; a read whose key is being made waits for it rather than
    making it again, so a seat that loops a report costs one fold per new seq."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # the made answers
        self._making = threading.Lock()  # one whole read of this table at a time
        self._made: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """Return the answer for ``key``, made by ``make()`` when it is not kept."""
        with self._lock:
            if key in self._made:
                self._made.move_to_end(key)
                return self._made[key]  # type: ignore[no-any-return]
        with self._making:
            with self._lock:
                if key in self._made:
                    return self._made[key]  # type: ignore[no-any-return]
            made = make()
            with self._lock:
                self._made[key] = made
                while len(self._made) > WHOLE_READS_KEPT:
                    self._made.popitem(last=False)
            return made


_BUDGETS: weakref.WeakKeyDictionary[Any, Budget] = weakref.WeakKeyDictionary()
_READS: weakref.WeakKeyDictionary[Any, WholeReads] = weakref.WeakKeyDictionary()
_OF = threading.Lock()


def budget_of(table: Any) -> Budget:
    """The command budgets of ``table``'s seats (this process's)."""
    with _OF:
        return _BUDGETS.setdefault(table, Budget())


def reads_of(table: Any) -> WholeReads:
    """The whole-log read answers ``table`` keeps (this process's)."""
    with _OF:
        return _READS.setdefault(table, WholeReads())
