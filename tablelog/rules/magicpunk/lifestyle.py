"""Cohabitation (同居): shared residence, the point split, and shared leisure events.

Living points (生活ポイント) are integers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from tablelog.rules.core import require
from tablelog.rules.magicpunk.text import listing
from tablelog.text import Listed, Term, msg, msgn

__all__ = [
    "UNSHARABLE_RESIDENCES",
    "SHARED_LEISURE_EVENTS",
    "SHARED_LEISURE_EVENTS_WILDS",
    "SHARED_TABLES",
    "even_split",
    "check_split",
    "check_household",
    "check_residence",
    "shared_leisure_roll",
]

UNSHARABLE_RESIDENCES = frozenset({"student-dorm", "orphanage", "monastery", "barracks"})
"""Residences that cannot be shared (学生寮, 孤児院, 修道院, 兵舎)."""

SHARED_LEISURE_EVENTS: dict[int, int] = {roll: roll for roll in (2, 3, 4, 7, 10, 13, 15)}
"""Leisure-table roll whose event affects every cohabitant -> that event (MP-COHAB-2); an event
is named by the lowest roll that reads it."""

SHARED_LEISURE_EVENTS_WILDS: dict[int, int] = {
    1: 1,
    2: 2,
    3: 3,
    4: 2,
    5: 5,
    6: 2,
    7: 7,
    8: 8,
    11: 11,
    13: 13,
}
"""The seed's second shared-event table (stampedes, mana disasters, raiders, exiles' camps):
cohabitants living outside the towns. Rolls 2, 4 and 6 read the same event
(「突如として魔煌災害が発生した。」), so they are one event, 2: the same event, not the same
roll."""

SHARED_TABLES = {"town": SHARED_LEISURE_EVENTS, "wilds": SHARED_LEISURE_EVENTS_WILDS}


def check_household(names: Sequence[str]) -> None:
    """Check that ``names`` can form a household: two or more PCs, each named once.

    Raises:
        RuleViolation: MP-COHAB-1 for fewer than two PCs or a PC named twice.

    Source: magicpunk-optional-rules.ja.txt, 同居 (「同意した2人以上のＰＣ」); MP-COHAB-1.
    """
    require(
        len(names) >= 2,
        "MP-COHAB-1",
        msg(
            "magicpunk.cohab.too_few",
            "cohabitation needs 2 or more PCs, got only {names}",
            names=listing(names),
        ),
    )
    twice = [n for n, times in Counter(names).items() if times > 1]  # linear: names may be many
    require(
        not twice,
        "MP-COHAB-1",
        msg(
            "magicpunk.cohab.twice", "{names} named twice: name each PC once", names=listing(twice)
        ),
    )


def check_residence(names: Sequence[str], residence: str) -> None:
    """Check that ``names`` may share ``residence``.

    Raises:
        RuleViolation: MP-COHAB-1 for fewer than two PCs, a PC named twice, or a residence
            that cannot be shared.

    Source: magicpunk-optional-rules.ja.txt, 同居; MP-COHAB-1.
    """
    check_household(names)
    require(
        residence not in UNSHARABLE_RESIDENCES,
        "MP-COHAB-1",
        msg(
            "magicpunk.cohab.unsharable",
            "{residence!r} cannot be shared ({residences})",
            residence=residence,
            residences=Listed(
                tuple(Term("magicpunk.residence", r) for r in sorted(UNSHARABLE_RESIDENCES)),
                "comma",
            ),
        ),
    )


def even_split(points: int, count: int) -> tuple[int, ...]:
    """Split ``points`` over ``count`` PCs as evenly as possible (earlier PCs pay the extra).

    Source: 同居, 住居; MP-COHAB-1.
    """
    share, extra = divmod(points, count)
    return tuple(share + (1 if i < extra else 0) for i in range(count))


def check_split(points: int, split: Sequence[int], count: int) -> None:
    """Check an agreed uneven split of a residence's points.

    Raises:
        RuleViolation: MP-COHAB-1 if the split has the wrong length, a negative share, or does
            not add up to ``points``.
    """
    shown = Listed(tuple(split), "comma")
    require(
        len(split) == count,
        "MP-COHAB-1",
        msg(
            "magicpunk.cohab.split_length",
            "the split {split} names {shares}, the residence has {pcs}",
            split=shown,
            shares=msgn("magicpunk.count.shares", "{n} share", "{n} shares", len(split)),
            pcs=msgn("magicpunk.count.pcs", "{n} PC", "{n} PCs", count),
        ),
    )
    require(
        all(s >= 0 for s in split),
        "MP-COHAB-1",
        msg(
            "magicpunk.cohab.split_negative", "the split {split} has a negative share", split=shown
        ),
    )
    require(
        sum(split) == points,
        "MP-COHAB-1",
        msg(
            "magicpunk.cohab.split_sum",
            "the split {split} adds up to {total}, the residence costs {points}",
            split=shown,
            total=sum(split),
            points=msgn("magicpunk.count.points", "{n} point", "{n} points", points),
        ),
    )


def shared_leisure_roll(
    roll: int,
    safety: int,
    taken: Collection[int],
    shared: Mapping[int, int] = SHARED_LEISURE_EVENTS,
) -> int:
    """Return the leisure roll that applies when shared events may not repeat in one leisure.

    A roll reading a shared event already taken (the same event, whatever roll read it) is moved
    by up to ``safety`` (the region's safety value, either way; the smallest shift first, down
    before up) to a roll that does not read a taken shared event; if no such roll exists within
    reach, the nearest lower roll that does not read one applies.

    Args:
        roll: The leisure-table roll.
        safety: The safety (治安) value, the most the roll may be shifted.
        taken: Shared events (:data:`SHARED_LEISURE_EVENTS` values) already taken in this
            leisure by a cohabitant.
        shared: Roll -> shared event: the town table, or the wilds table.

    Raises:
        RuleViolation: MP-COHAB-2 if no roll is possible (every lower roll is taken).

    Source: 同居, 余暇イベント (「同居するＰＣ全員に影響を及ぼすイベントは同じ余暇では重複しない」);
    MP-COHAB-2.
    """

    def free(r: int) -> bool:
        return r >= 1 and not (r in shared and shared[r] in taken)

    if free(roll):
        return roll
    for shift in range(1, abs(safety) + 1):
        for candidate in (roll - shift, roll + shift):
            if free(candidate):
                return candidate
    lower = [r for r in range(roll - 1, 0, -1) if free(r)]
    require(
        lower,
        "MP-COHAB-2",
        msg("magicpunk.leisure.no_event", "roll {roll}: no other event is possible", roll=roll),
    )
    return lower[0]
