"""The table's answers for one cast (``--situation KEY=VALUE``), parsed and checked.

Source: saga-eb-damage.ja.txt, 攻撃ダメージの算出条件 and 攻撃ダメージ補正; SAGA-ATK-1,
SAGA-ATK-11..15, SAGA-HP-1, SAGA-HP-4, SAGA-HP-5, SAGA-LP-2.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga.damage import NO_DAMAGE_REASONS
from tablelog.rules.saga.text import key_of
from tablelog.text import Listed, msg

__all__ = ["BOOL_KEYS", "CHOICE_KEYS", "INT_KEYS", "MAX_SITUATION_NUMBER", "parse_situation"]

#: Yes/no answers: target defending, a guard triggers, earth shield, actor angry, race slayer
#: (overrides the automatic check), an instant-death-class hit, instant death landed, drain,
#: full heal, a guest's support action, actor in an overdrive, actor confused.
BOOL_KEYS = (
    "defending",
    "guard",
    "earth_shield",
    "angry",
    "slayer",
    "instant_death_class",
    "instant_death",
    "drain",
    "full_heal",
    "support",
    "overdrive",
    "confused",
)
#: Numbers: the protect tech's power; the combo rate just before the tech.
INT_KEYS = ("protect", "combo")
#: The largest protect power or combo rate a situation takes (far beyond the game).
MAX_SITUATION_NUMBER = 10**4
#: Choices: why defending does not count; why no damage is computed.
CHOICE_KEYS = {
    "defend_void": (
        "placed-object",
        "stunned",
        "paralysed",
        "petrified",
        "mech-stunned",
        "mech-paralysed",
        "ambushed",
    ),
    "outcome": NO_DAMAGE_REASONS,
}
_TRUE = ("1", "true", "yes", "y", "on")
_FALSE = ("0", "false", "no", "n", "off")


def _value(key: str, text: str) -> Any:
    low = text.strip().lower()
    if key in BOOL_KEYS:
        if low not in _TRUE + _FALSE:
            raise RuleViolation(
                "SAGA-ATK-11",
                msg(
                    "saga.situation.yes_or_no",
                    "situation {key} must be yes or no, not {text!r}",
                    key=key,
                    text=text,
                ),
            )
        return low in _TRUE
    if key in INT_KEYS:
        try:
            number = int(low)
        except ValueError:
            number = -1
        if not 0 <= number <= MAX_SITUATION_NUMBER:
            raise RuleViolation(
                "SAGA-ATK-11",
                msg(
                    "saga.situation.number",
                    "situation {key} must be a whole number from 0 to {most}, not {text!r}",
                    key=key,
                    most=MAX_SITUATION_NUMBER,
                    text=text,
                ),
            )
        return number
    if low not in CHOICE_KEYS[key] and key == "outcome":  # 回避, 회피 …: the reason's id
        low = key_of("no_damage", text.strip(), NO_DAMAGE_REASONS) or low
    if low not in CHOICE_KEYS[key]:
        raise RuleViolation(
            "SAGA-ATK-11",
            msg(
                "saga.situation.choice",
                "situation {key} must be one of {choices}",
                key=key,
                choices=Listed(CHOICE_KEYS[key], "comma"),
            ),
        )
    return low


def parse_situation(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Return the situation dict from ``(key, value)`` text pairs (``-`` and ``_`` alike).

    Raises:
        RuleViolation: SAGA-ATK-11 for an unknown key or a value of the wrong kind.
    """
    known = (*BOOL_KEYS, *INT_KEYS, *CHOICE_KEYS)
    out: dict[str, Any] = {}
    for raw, text in pairs:
        key = raw.strip().replace("-", "_")
        if key not in known:
            raise RuleViolation(
                "SAGA-ATK-11",
                msg(
                    "saga.situation.unknown",
                    "unknown situation {key!r} (known: {known})",
                    key=raw,
                    known=Listed(known, "comma"),
                ),
            )
        out[key] = _value(key, text)
    return out
