"""Battle five-element levels by terrain and by season, and the season of a displayed turn.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ：バトルの五行レベル; SAGA-FIVE-1, SAGA-FIVE-2.
"""

from __future__ import annotations

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga.catalogue import ELEMENTS
from tablelog.rules.saga.figures import Figure
from tablelog.text import Msg, msg

__all__ = [
    "MAX_DISPLAYED_TURN",
    "SEASONS",
    "TERRAIN_LEVELS",
    "battle_levels",
    "next_displayed_turn",
    "season_for_turn",
    "TERRAIN_OR_SEASONS",
    "unknown_terrain",
]

TERRAIN_OR_SEASONS = msg(
    "saga.battle.terrain_or_seasons", "a battle has a terrain or seasons, not both"
)
"""SAGA-FIVE-1's refusal of a battle given both a terrain and seasons."""


def unknown_terrain(terrain: str | None) -> Msg:
    """Return SAGA-FIVE-1's refusal of a terrain that is no element."""
    return msg(
        "saga.battle.unknown_terrain", "unknown terrain element {terrain!r}", terrain=terrain
    )


#: The highest displayed turn (「表示ターンの最大値は99です」).
MAX_DISPLAYED_TURN = 99

#: Levels (wood, fire, earth, metal, water) by terrain (地相), battles without seasons.
TERRAIN_LEVELS = {
    "wood": (5, 0, -5, 0, 0),
    "fire": (0, 5, 0, -5, 0),
    "earth": (0, 0, 5, 0, -5),
    "metal": (-5, 0, 0, 5, 0),
    "water": (0, -5, 0, 0, 5),
}
#: Levels by season, battles with seasons (the five-sided hall 五角堂).
SEASONS = {
    "spring": (40, 0, -20, 0, 0),
    "summer": (0, 40, 0, -20, 0),
    "doyo": (0, 0, 40, 0, -20),
    "autumn": (-20, 0, 0, 40, 0),
    "winter": (0, -20, 0, 0, 40),
}
_BY_DIGIT = (
    "winter",
    "doyo",
    "doyo",
    "spring",
    "spring",
    "summer",
    "summer",
    "autumn",
    "autumn",
    "winter",
)


def season_for_turn(turn: int) -> str:
    """Return the season of a displayed turn by its last digit; from turn 99 on, winter.

    1,2 doyo; 3,4 spring; 5,6 summer; 7,8 autumn; 0,9 winter.

    Raises:
        RuleViolation: SAGA-FIVE-2 for a turn below 1.

    Source: saga-eb-damage.ja.txt, 表示ターン下1桁と季節; SAGA-FIVE-2.
    """
    if turn < 1:
        raise RuleViolation(
            "SAGA-FIVE-2",
            msg("saga.turn.starts_at_1", "displayed turns start at 1, got {turn}", turn=turn),
        )
    return "winter" if turn >= MAX_DISPLAYED_TURN else _BY_DIGIT[turn % 10]


def next_displayed_turn(turn: int) -> int:
    """Return the displayed turn after ``turn`` ends: turn + 1, at most 99.

    Source: saga-eb-damage.ja.txt, 表示ターン (「表示ターンの最大値は99です。99ターン目以降は
    季節が冬に固定され、四季が巡りません。」); SAGA-FIVE-2.
    """
    return min(turn + 1, MAX_DISPLAYED_TURN)


def battle_levels(terrain: str | None = None, *, seasons: bool = False, turn: int = 1) -> Figure:
    """Return the battle's five-element levels ``{wood, fire, earth, metal, water}``.

    Args:
        terrain: The battle's element (地相) when the battle has no seasons, or None.
        seasons: The battle has seasons: levels follow the season of ``turn``.
        turn: The displayed turn (for seasons).

    Raises:
        RuleViolation: SAGA-FIVE-1 for an unknown terrain, or both terrain and seasons.

    Source: saga-eb-damage.ja.txt, バトルの五行レベル; SAGA-FIVE-1.
    """
    if seasons and terrain is not None:
        raise RuleViolation("SAGA-FIVE-1", TERRAIN_OR_SEASONS)
    if seasons:
        season = season_for_turn(turn)
        return Figure(dict(zip(ELEMENTS, SEASONS[season], strict=True)), {"season": season})
    if terrain is None:
        return Figure(dict.fromkeys(ELEMENTS, 0), {"terrain": "none"})
    if terrain not in TERRAIN_LEVELS:
        raise RuleViolation("SAGA-FIVE-1", unknown_terrain(terrain))
    return Figure(dict(zip(ELEMENTS, TERRAIN_LEVELS[terrain], strict=True)), {"terrain": terrain})
