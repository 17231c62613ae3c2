"""Fate entity records: building them from events, looking them up, and shared state helpers.

Entity records are plain dicts (JSON-ready); keys starting with ``_`` are private.
"""

from __future__ import annotations

from typing import Any

from tablelog.events.fate import MasterAdded, ServantAdded
from tablelog.projections.core import State, require
from tablelog.rules.fate import kind_powers, parse_grade, power_grade, tile_pool

__all__ = [
    "master_record",
    "servant_record",
    "character",
    "next_effect_id",
    "fate_extra",
    "next_action_id",
    "register_action",
    "require_cause",
]


def _common(hp: int, mp: int, row: str, anti_magic: int) -> dict[str, Any]:
    return {
        "hp": hp,
        "hp_max": hp,
        "mp": mp,
        "mp_max": mp,
        "chants": 0,
        "row": row,
        "effects": [],
        "phantasms": {},
        "anti_magic": anti_magic,
        "injury": 0,
        "field": None,
        "army": None,
        "_np_turn": None,
        "_always_uses": {},
    }


def master_record(e: MasterAdded) -> dict[str, Any]:
    """Return a new master's record: derived power per kind and tile pool (FATE-CC-5 … -8)."""
    power = power_grade(parse_grade(e.quality))
    tiles = tile_pool(parse_grade(e.quantity))
    record = {
        "role": "master",
        **_common(e.hp, e.mp, e.row, e.anti_magic),
        "tiles": tiles,
        "tiles_max": tiles,
        "quality": e.quality,
        "quantity": e.quantity,
        "crest": e.crest,
        "attributes": list(e.attributes),
        "none_kind": e.none_kind,
        "power": power,
        "powers": kind_powers(power, e.attributes, e.none_kind),
        "hollow": "hollow" in e.attributes,
        "stored": dict(e.stored),
        "character_grade": e.character_grade,
        "cc_budget": e.cc_budget,
    }
    return record


def servant_record(e: ServantAdded) -> dict[str, Any]:
    """Return a new servant's record (servants have no code-cast tiles)."""
    return {
        "role": "servant",
        **_common(e.hp, e.mp, e.row, e.anti_magic),
        "tiles": 0,
        "tiles_max": 0,
        "madness": e.madness,
        "raging": False,
        "np_budget": e.np_budget,
        "np_points": 0,
    }


def character(state: State, name: str, rule_id: str = "UNKNOWN-NAME") -> dict[str, Any]:
    """Return the character ``name``.

    Raises:
        RuleViolation: ``rule_id`` (UNKNOWN-NAME by default) when there is none.
    """
    who = state.characters.get(name)
    require(who is not None, rule_id, f"no character named {name!r}")
    assert who is not None
    return who


def fate_extra(state: State) -> dict[str, Any]:
    """Return the fate part of ``state.extra`` (effect id counter)."""
    extra = state.extra.setdefault("fate", {"next_effect": 1})
    extra.setdefault("actions", [])
    return extra


def next_effect_id(state: State) -> int:
    """Return the id the next raised effect gets."""
    return int(fate_extra(state)["next_effect"])


def next_action_id(state: State) -> int:
    """Return the id the next cast or release gets (1 + the highest action in effect)."""
    return max(fate_extra(state)["actions"], default=0) + 1


def register_action(state: State, action: int, rule_id: str) -> None:
    """Record that cast or release ``action`` is in effect (0: untracked).

    Raises:
        RuleViolation: ``rule_id`` if the id is already in effect.
    """
    if not action:
        return
    actions = fate_extra(state)["actions"]
    require(action not in actions, rule_id, f"action #{action} is already in effect")
    actions.append(action)


def require_cause(state: State, cause: int, rule_id: str, what: str) -> None:
    """Refuse an outcome whose cast or release (``cause``) is not in effect (e.g. undone).

    Raises:
        RuleViolation: ``rule_id`` naming the outcome and the action.
    """
    require(not cause or cause in fate_extra(state)["actions"], rule_id,
            f"{what} comes from action #{cause}, which is not in effect")  # fmt: skip
