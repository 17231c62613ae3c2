"""Fate entity records: building them from events, looking them up, and shared state helpers.

Entity records are plain dicts (JSON-ready); keys starting with ``_`` are private.
"""

from __future__ import annotations

from typing import Literal, cast

from tablelog.events.fate import MasterAdded, ServantAdded
from tablelog.projections.core import State
from tablelog.projections.fate import legacy
from tablelog.projections.fate.entities import (
    Character,
    CharacterBase,
    Extra,
    Master,
    Servant,
    find,
)
from tablelog.rules.core import RuleViolation, Unknown
from tablelog.text import Msg, msg

__all__ = [
    "master_record",
    "servant_record",
    "character",
    "next_effect_id",
    "fate_extra",
    "next_action_id",
    "register_action",
    "require_action_free",
    "require_cause",
    "adjust",
    "CAST",
    "RELEASE",
    "ABILITY_USE",
    "no_character",
]

CAST = msg("fate.label.cast", "cast")
RELEASE = msg("fate.label.release", "release")
ABILITY_USE = msg("fate.label.ability_use", "ability use")
"""What a cast, a release or an ability use is called in a refusal that names it by its seq."""


def _common(hp: int, mp: int, row: str, anti_magic: int, tiles: int) -> CharacterBase:
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
        "_acted": None,
        "_released": {},
        "_wounds": {},
        "_always_uses": {},
        "_battle_uses": [],
        "_turn_use": {},
        "tiles": tiles,
        "tiles_max": tiles,
    }


def master_record(e: MasterAdded) -> Master:
    """Return a new master's record with the power per kind and tile pool the event records
    (FATE-CC-5 … -8); a v1 event records none: :func:`legacy.master_outcomes`."""
    if e.power is None or e.powers is None or e.tiles is None:
        power, powers, tiles = legacy.master_outcomes(e)
    else:
        power, powers, tiles = e.power, dict(e.powers), e.tiles
    record: Master = {
        "role": "master",
        **_common(e.hp, e.mp, e.row, e.anti_magic, tiles),
        "quality": e.quality,
        "quantity": e.quantity,
        "crest": e.crest,
        "attributes": list(e.attributes),
        "none_kind": e.none_kind,
        "power": power,
        "powers": powers,
        "hollow": "hollow" in e.attributes,
        "stored": dict(e.stored),
        "character_grade": e.character_grade,
        "cc_budget": e.cc_budget,
    }
    return record


def servant_record(e: ServantAdded) -> Servant:
    """Return a new servant's record (servants have no code-cast tiles)."""
    return {
        "role": "servant",
        **_common(e.hp, e.mp, e.row, e.anti_magic, 0),
        "madness": e.madness,
        "raging": False,
        "np_budget": e.np_budget,
        "np_points": 0,
    }


def character(state: State, name: str, rule_id: str = "UNKNOWN-NAME") -> Character:
    """Return the character ``name``.

    Raises:
        RuleViolation: ``rule_id`` (UNKNOWN-NAME by default) when there is none.
    """
    who = find(state, name)
    if who is None:
        raise no_character(name, rule_id)
    return who


def no_character(name: str, rule_id: str = "UNKNOWN-NAME") -> RuleViolation:
    """Return the refusal ``no character named NAME`` (UNKNOWN-NAME: "did you mean" a name of
    the table)."""
    unknown = Unknown("name", name) if rule_id == "UNKNOWN-NAME" else None
    return RuleViolation(
        rule_id, msg("fate.name.unknown", "no character named {name}", name=name), unknown
    )


def fate_extra(state: State) -> Extra:
    """Return the fate part of ``state.extra``: the effect id counter and the casts and releases
    in effect (``actions``: their ids, see :func:`next_action_id`); made on first use."""
    extra = state.extra.get("fate")
    if extra is None or "actions" not in extra:
        extra = state.extra.setdefault("fate", {"next_effect": 1})
        extra.setdefault("actions", set())
    return cast("Extra", extra)


def next_effect_id(state: State) -> int:
    """Return the id the next raised effect gets."""
    return int(fate_extra(state)["next_effect"])


def next_action_id(state: State, offset: int = 0) -> int:
    """Return the id of a cast or release decided on ``state``: the seq its event will get.

    A command's events are appended from ``state.seq + 1`` on, so the event ``offset`` places
    into the command has seq ``state.seq + 1 + offset``: outcomes name their cast or release by
    its seq in the log (``cause``). A state that does not count seqs (unit tests) gets the next
    free id. Ids of logs written before this (schema v1) are upcast to negative numbers.
    """
    return max(state.seq + 1 + offset, max(fate_extra(state)["actions"], default=0) + 1)


def register_action(state: State, action: int) -> None:
    """Record that the cast or release with id ``action`` is in effect (0: untracked; total).

    Args:
        state: The state (mutated).
        action: The id (the seq of the cast or release event; negative for a v1 log).
    """
    if action:
        fate_extra(state)["actions"].add(action)


def require_action_free(state: State, action: int, label: Msg, rule_id: str) -> None:
    """Refuse a cast or release whose id is already in effect (a precondition).

    Args:
        state: The state.
        action: The id (0: untracked).
        label: :data:`CAST`, :data:`RELEASE` or :data:`ABILITY_USE`, for messages.
        rule_id: The rule ID to refuse with.

    Raises:
        RuleViolation: ``rule_id`` if the id is already in effect.
    """
    actions = fate_extra(state)["actions"]
    if action and action in actions:
        raise RuleViolation(
            rule_id,
            msg(
                "fate.action.in_effect",
                "the {label} #{action} is already in effect",
                label=label,
                action=action,
            ),
        )


def require_cause(
    state: State, cause: int, rule_id: str, what: Msg, label: Msg, noun: object
) -> None:
    """Refuse an outcome whose cast or release (``cause``) is not in effect (e.g. undone).

    Args:
        state: The state.
        cause: The seq of the cast or release the outcome comes from (0: none; negative: an id
            from a v1 log, which names no seq).
        rule_id: The rule ID to refuse with.
        what: The outcome, e.g. ``damage to Lancer``.
        label: :data:`CAST` or :data:`RELEASE`.
        noun: The outcome in one word or two, e.g. ``damage`` (a sentence or a term).

    Raises:
        RuleViolation: ``rule_id``, in log terms: ``damage to Lancer comes from the release #11,
            which is undone; undo the damage first, or redo #11``.
    """
    if not cause or cause in fate_extra(state)["actions"]:
        return
    if cause > 0:
        message = msg(
            "fate.cause.undone",
            "{what} comes from the {label} #{cause}, which is undone;"
            " undo the {noun} first, or redo #{cause}",
            what=what,
            label=label,
            cause=cause,
            noun=noun,
        )
    else:
        message = msg(
            "fate.cause.undone_earlier",
            "{what} comes from an earlier {label}, which is undone;"
            " undo the {noun} first, or redo that {label}",
            what=what,
            label=label,
            noun=noun,
        )
    raise RuleViolation(rule_id, message)


def adjust(
    state: State,
    name: str,
    key: Literal["hp", "mp", "injury"],
    change: int,
    cap: Literal["hp_max", "mp_max"] | None = None,
) -> None:
    """Add ``change`` to a character's number ``key``: never below 0, nor above its ``cap`` key
    (``hp_max``); a character not at the table is skipped (evolvers are total)."""
    who = find(state, name)
    if who is not None:
        value = max(0, who[key] + change)
        who[key] = min(who[cap], value) if cap is not None else value
