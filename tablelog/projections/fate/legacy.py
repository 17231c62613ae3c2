"""The legacy path: outcomes that fate records written before v2/v3 did not record.

An evolver applies what its event records and never consults today's rules (docs/NEW-SYSTEM.md).
Records written before the events recorded their outcomes are upcast with those fields None
(:mod:`tablelog.events.fate.upcasts`); for them, and only for them, the functions here compute
the outcome from today's rules, as the evolvers of that time did. A log written since never comes
here, so an erratum in the rules never changes the state it folds to.

Source: fate-codecast-phantasm.ko.txt (as cited by each rule used); FATE-CC-5 … -8, FATE-NP-1,
FATE-NP-2 … -13.
"""

from __future__ import annotations

from tablelog.events.fate import MasterAdded, PhantasmAdded
from tablelog.projections.fate.entities import PhantasmNumbers
from tablelog.rules.fate import (
    EX_FIELD_ALLY_HP,
    MAX_PHANTASMS,
    always_uses_per_round,
    kind_powers,
    np_profile,
    parse_grade,
    power_grade,
    tile_pool,
    typed_mods,
)

__all__ = [
    "master_outcomes",
    "phantasm_numbers",
    "typed_mods",
    "ALLY_HP",
    "MAX_HELD",
    "uses_allowed",
]

ALLY_HP = EX_FIELD_ALLY_HP
"""HP an EX field gave each ally, for a v2 FieldRaised (FATE-NP-12)."""

MAX_HELD = MAX_PHANTASMS
"""NPs a servant may hold, for a v1 PhantasmAdded (FATE-NP-1)."""


def master_outcomes(e: MasterAdded) -> tuple[int, dict[str, int], int]:
    """Return ``(power, powers by kind, tiles)`` of a v1 MasterAdded, by today's rules.

    Source: 코드 캐스트 1.1 1)–3); FATE-CC-5 … FATE-CC-8.
    """
    power = power_grade(parse_grade(e.quality))
    return power, kind_powers(power, e.attributes, e.none_kind), tile_pool(parse_grade(e.quantity))


def phantasm_numbers(e: PhantasmAdded) -> tuple[PhantasmNumbers, int]:
    """Return the numbers of a v1 PhantasmAdded (as the v2 fields name them) and the max HP it
    adds to its owner, by today's rules.

    Source: 노블 판타즘 1.–4.; FATE-NP-2 … FATE-NP-13, FATE-UA-3.
    """
    profile = np_profile(
        parse_grade(e.grade),
        e.np_type,
        e.form,
        e.release,
        e.mods,
        extra_grades=1 if e.starting else 0,
    )
    numbers: PhantasmNumbers = {
        "points": profile.points,
        "mp_cost": profile.mp_cost,
        "hp_per_tile": profile.hp_per_tile,
        "mp_per_tile": profile.mp_per_tile,
        "targets": profile.targets,
        "tiles": profile.tiles,
        "block_per_tile": profile.block_per_tile,
        "mp_formula": profile.formula["mp_cost"],
    }
    return numbers, profile.hp_max_bonus


def uses_allowed(madness: str | None) -> int:
    """Return the uses a round of an always-active attack NP, for a v2 PhantasmReleased.

    Source: 노블 판타즘 3.①; FATE-NP-8.
    """
    return always_uses_per_round(parse_grade(madness) if madness else None)
