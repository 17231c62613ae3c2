"""Fate events of battle time and rest: clock, upkeep, refills, morning crest healing.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 1.1 2) 4), 노블 판타즘 2.①, 3.③④; RULES.md
decision on turns.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import event
from tablelog.events.fate.base import FateEvent

__all__ = [
    "BattleStarted",
    "TurnStarted",
    "RoundStarted",
    "BattleEnded",
    "UpkeepPaid",
    "CrestHealed",
    "TilesRefilled",
]


@event("fate.BattleStarted", rules=("FATE-CC-6",))
@attrs.frozen
class BattleStarted(FateEvent):
    """A battle began: round 1, turn 1; every master's tile pool refills."""


@event("fate.TurnStarted", rules=("FATE-CAST-5", "FATE-CAST-7", "FATE-CAST-8", "FATE-NP-9"))
@attrs.frozen
class TurnStarted(FateEvent):
    """A new turn began in the current round; effects tick down and those at 0 end (defense 3
    turns, buff 3, curse 5), and defensive NP tiles given one a turn are ready again."""

    turn: int


@event(
    "fate.RoundStarted",
    rules=("FATE-CAST-5", "FATE-CAST-7", "FATE-CAST-8", "FATE-NP-8", "FATE-NP-9"),
)
@attrs.frozen
class RoundStarted(FateEvent):
    """A combat round closed and the next began with its turn 1: effects tick as on a turn, and
    the always-active attack NPs' uses per round start again (FATE-NP-8). Upkeep is UpkeepPaid."""

    round: int


@event("fate.BattleEnded")
@attrs.frozen
class BattleEnded(FateEvent):
    """The battle ended: timed effects, pending chants, fields and armies end (decision)."""


@event("fate.UpkeepPaid", entities=("owner",), rules=("FATE-NP-10", "FATE-NP-11", "FATE-NP-12"))
@attrs.frozen
class UpkeepPaid(FateEvent):
    """A field (per turn) or army (per round) took its upkeep MP from its owner.

    ``rules``: FATE-NP-10 for a field (with FATE-NP-12 while an EX field pays nothing), FATE-NP-11
    for an army (with FATE-NP-13 when a modifier changes its upkeep).
    """

    owner: str
    np_id: str
    mp: int
    breakdown: dict[str, str] = attrs.Factory(dict)
    rules: tuple[str, ...] = ()


@event("fate.CrestHealed", entities=("name",), rules=("FATE-CC-9",))
@attrs.frozen
class CrestHealed(FateEvent):
    """A master's magic crest healed HP in the morning (its grade, capped at max HP)."""

    name: str
    hp: int
    breakdown: dict[str, str] = attrs.Factory(dict)


@event("fate.TilesRefilled", entities=("name",), rules=("FATE-CC-6",))
@attrs.frozen
class TilesRefilled(FateEvent):
    """A master's tile pool refilled on a rest."""

    name: str
    tiles: int
