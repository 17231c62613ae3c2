"""SaGa Emerald Beyond battle math: pure functions with exact fractions, no I/O.

Each formula returns a :class:`~tablelog.rules.saga.figures.Figure` (value + breakdown).
Modules by domain area: ``catalogue`` (techs, battle ranks, splits), ``power`` (base and
compound power, displayed power), ``resist`` (power correction, five elements, damage
reduction), ``corrections`` (state, action, ally-only, combo, random), ``damage`` (attack
damage per process, split display), ``vitals`` (poison, release, HP, LP), ``effects``
(effect and trait values), ``five`` (battle five-element levels, seasons).

Source: saga-eb-damage.ja.txt; SAGA-* in RULES.md.
"""

from tablelog.rules.saga.catalogue import (
    ABILITIES,
    ATTRIBUTES,
    ELEMENTS,
    WEAPON_TYPES,
    Tech,
    battle_rank,
    damage_split,
    tech,
)
from tablelog.rules.saga.damage import (
    Attacker,
    Defender,
    Situation,
    attack_damage,
    compute_hit,
    no_damage_reason,
    process_count,
    split_display,
)
from tablelog.rules.saga.figures import Figure, num_text, parse_number

__all__ = [
    "ABILITIES",
    "ATTRIBUTES",
    "ELEMENTS",
    "WEAPON_TYPES",
    "Attacker",
    "Defender",
    "Figure",
    "Situation",
    "Tech",
    "attack_damage",
    "battle_rank",
    "compute_hit",
    "damage_split",
    "no_damage_reason",
    "num_text",
    "parse_number",
    "process_count",
    "split_display",
    "tech",
]
