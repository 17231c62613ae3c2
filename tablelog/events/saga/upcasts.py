"""Upcasters of saga events: schema v1 records brought to v2.

v2 records the outcomes that replay used to compute from the rules and catalogues (HP and LP
changes, the HP floor, the battle's five-element levels, effect values) and the draw counter
that keys the randomness. A v1 record cannot give them without today's rules, so the new fields
are None there and the evolvers take their documented legacy path (``projections.saga.legacy``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from tablelog.events.codec import upcaster

__all__: list[str] = []

_NEW_FIELDS: dict[str, dict[str, Any]] = {
    "saga.UnitAdded": {"hp_floor": None},
    "saga.BattleStarted": {"levels": None, "season": None},
    "saga.TurnEnded": {"next_turn": None, "levels": None, "season": None, "tech_power_lost": None},
    "saga.EffectApplied": {"value_before": None, "value_after": None, "reason": ""},
    "saga.AttackDamageDealt": {"hp_lost": None, "draw_no": None},
    "saga.HPHealed": {"healed": None},
    "saga.PoisonDamageTaken": {"hp_lost": None, "draw_no": None},
    "saga.BloodPaid": {
        "lp_lost": None,
        "lp_damage_effect_gain": None,
        "incapacitated": None,
        "overdrive": False,
    },
    "saga.PartyWiped": {
        "lp_before": None,
        "lp_damage_effect": None,
        "lp_after": None,
        "out": [],
        "levels": None,
        "season": None,
    },
}


def _v1_to_v2(fields: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def up(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, **copy.deepcopy(fields)}

    return up


for _tag, _fields in _NEW_FIELDS.items():
    upcaster(_tag, 1)(_v1_to_v2(_fields))
