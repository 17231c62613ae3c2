"""Bounded fields and army-type NPs: upkeep, units, reality marbles, EX extras.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.①②④ and 3.③④, 4.; FATE-NP-10, FATE-NP-11,
FATE-NP-12.
"""

from __future__ import annotations

import attrs

from tablelog.rules.fate.grades import Grade
from tablelog.rules.fate.phantasm import effective_plusses

__all__ = [
    "field_upkeep_value",
    "field_upkeep_due",
    "upkeep_mp",
    "field_power",
    "FieldClash",
    "field_clash",
    "EX_FIELD_HP",
    "EX_FIELD_ALLY_HP",
    "EX_FIELD_FREE_ROUNDS",
    "ArmyUnits",
    "army_units",
    "army_upkeep_per_round",
    "army_summon_mp",
    "EX_ARMY_POINTS",
]

EX_FIELD_HP = 20
EX_FIELD_ALLY_HP = 10
EX_FIELD_FREE_ROUNDS = 3
ARMY_BASE_UNITS = 5
EX_ARMY_POINTS = 7
"""Stat points per unit of an EX army (FATE-NP-12)."""
ARMY_UPKEEP_PER_UNIT = 2


def field_upkeep_value(grade: Grade, rounds_elapsed: int, plus_used: bool) -> int:
    """Return a bounded field's upkeep value for a turn (may be below 0).

    Args:
        grade: The field's grade; each ``+`` (EX: 2) lowers the value by 1.
        rounds_elapsed: Combat rounds since the field was raised.
        plus_used: Whether a ``+`` was used at the release (growth halves: +1 per 2 rounds).

    Returns:
        1 + growth − plusses (무한의 검제, A++: −1, then 0 after one round).

    Source: 노블 판타즘 3.④ and 5.④; FATE-NP-10.
    """
    growth = rounds_elapsed // 2 if plus_used else rounds_elapsed
    return 1 + growth - effective_plusses(grade)


def field_upkeep_due(grade: Grade, rounds_elapsed: int, plus_used: bool) -> int:
    """Return the MP a field's upkeep takes this turn: the value, never below 0, and nothing in
    an EX field's first 3 rounds (its growth still counts from the raising — decision).

    Source: 노블 판타즘 4.② (3회기 동안 결계의 유지 마력을 소모하지 않으며); FATE-NP-10, FATE-NP-12.
    """
    if grade.is_ex and rounds_elapsed < EX_FIELD_FREE_ROUNDS:
        return 0
    return upkeep_mp(field_upkeep_value(grade, rounds_elapsed, plus_used))


def upkeep_mp(value: int) -> int:
    """Return the MP actually paid for an upkeep value: never below 0 (UBW: −1 pays 0).

    Source: 노블 판타즘 5.④ (- 값의 실제 소모량은 0); FATE-NP-10.
    """
    return max(0, value)


def field_power(grade: Grade) -> int:
    """Return a field's power in grades: its letter value; EX is A-level + 2 = 7.

    Source: 노블 판타즘 4.①② (A등급 수준의 결계 위력 … 2등급 분량 증가); FATE-NP-12.
    """
    return 7 if grade.is_ex else grade.value


@attrs.frozen
class FieldClash:
    """The outcome of raising a field while another is up.

    Attributes:
        outcome: ``"replace"`` (the old field goes), ``"cancel"`` (both go), ``"nullified"``
            (the new one fails and costs nothing), ``"overwrite"`` (the old goes, normal cost).
        mp_factor: Multiplier on the new field's activation MP (2, 1 or 0).
    """

    outcome: str
    mp_factor: int


def field_clash(new: Grade, new_marble: bool, old: Grade, old_marble: bool) -> FieldClash:
    """Decide what happens when a field is raised over another (plusses never count).

    A reality marble removes other fields and lower marbles at double MP; equal marbles cancel
    each other at double MP. Otherwise a field of the same or lower grade than the one up is
    nullified and costs nothing; a higher non-marble field overwrites a lower non-marble one at
    normal cost; a non-marble field never removes a marble (decision).

    Source: 노블 판타즘 2.④ (고유 결계는 … 발동 마력을 2배로; 덧쓰기 규칙); FATE-NP-10.
    """
    new_rank, old_rank = field_power(new), field_power(old)
    if new_marble and old_marble and new_rank == old_rank:
        return FieldClash("cancel", 2)
    if new_marble and (not old_marble or new_rank > old_rank):
        return FieldClash("replace", 2)
    if not new_marble and not old_marble and new_rank > old_rank:
        return FieldClash("overwrite", 1)
    return FieldClash("nullified", 0)


@attrs.frozen
class ArmyUnits:
    """The units an army-type NP summons.

    Attributes:
        units: Units in all.
        free_units: Units that cost no summon or upkeep MP.
        stat_points: Stat points per unit (attack 0, HP 1 plus these).
    """

    units: int
    free_units: int
    stat_points: int


def army_units(grade: Grade, plus_used: bool) -> ArmyUnits:
    """Return an army's units: 5, +1 free per ``+`` (EX: 2), EX 3 more free; a used ``+`` doubles.

    The EX example 왕의 군세 (10 units of 7 points, 5 without upkeep) is 5 + 2 + 3 units.

    Source: 노블 판타즘 2.② and 3.③, 4.①② (설정 점수 7점의 부대 10부대); FATE-NP-11, FATE-NP-12.
    """
    plusses = effective_plusses(grade)
    free = plusses + (3 if grade.is_ex else 0)
    units = ARMY_BASE_UNITS + free
    points = EX_ARMY_POINTS if grade.is_ex else grade.value
    factor = 2 if plus_used else 1
    return ArmyUnits(units * factor, free * factor, points)


def army_upkeep_per_round(army: ArmyUnits, plus_used: bool, per_unit_mod: int = 0) -> int:
    """Return an army's upkeep MP per combat round: 2 per paid unit (1 if a ``+`` was used).

    Source: 노블 판타즘 2.① (부대마다 매 회기 당 2점) and 2.② (유지 마력은 절반); FATE-NP-11.
    """
    per_unit = max(0, (ARMY_UPKEEP_PER_UNIT // (2 if plus_used else 1)) + per_unit_mod)
    return per_unit * (army.units - army.free_units)


def army_summon_mp(base_mp: int, grade: Grade, reality_marble: bool) -> int:
    """Return an army's summon MP: doubled for a reality-marble army, except EX (decision).

    The seed doubles the summon MP of an army given the reality-marble trait, yet lists 왕의 군세
    (EX, reality marble) at 25 MP = 5 × 5; the tool keeps both by exempting EX.

    Source: 노블 판타즘 2.④ (군세형 보구 … 소환 시 소모 마력이 2배) and 5-2.⑤; FATE-NP-11.
    """
    return base_mp * 2 if reality_marble and not grade.is_ex else base_mp
