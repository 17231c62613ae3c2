"""SaGa events of the battle flow: start, turns, buffs, poison, release, LP, wipes.

Source: saga-eb-damage.ja.txt; SAGA-FIVE-1..2, SAGA-EFF-1..3, SAGA-POISON-1..2, SAGA-REL-1,
SAGA-HP-2..3, SAGA-LP-1..4.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from tablelog.events.core import Event, event

__all__ = [
    "BattleStarted",
    "BloodPaid",
    "EffectApplied",
    "PartyWiped",
    "PoisonDamageTaken",
    "ReleaseDamageTaken",
    "TurnEnded",
    "UnitIncapacitated",
]


@event("saga.BattleStarted", version=2, rules=("SAGA-FIVE-1", "SAGA-FIVE-2"))
@attrs.frozen
class BattleStarted(Event):
    """A battle began (turn 1) on a terrain, in the five-sided hall (seasons), or neither.

    ``levels`` are the battle's five-element levels of turn 1 by element and ``season`` its
    season (None without seasons); ``levels`` is None in records written before schema v2.
    """

    terrain: str | None = None
    seasons: bool = False
    levels: dict[str, int] | None = None
    season: str | None = None


@event("saga.TurnEnded", version=2, rules=("SAGA-EFF-1", "SAGA-FIVE-2", "SAGA-POISON-1"))
@attrs.frozen
class TurnEnded(Event):
    """Turn ``turn`` ended: tech-power effects decay, the next turn (and season) begins.

    ``next_turn`` is the displayed turn that begins (it stops at 99), ``levels`` and ``season``
    its five-element levels and season, ``tech_power_lost`` how much each unit's tech-power
    effect value fell (units whose value did not change are left out). All but ``turn`` are
    None in records written before schema v2.
    """

    turn: int
    next_turn: int | None = None
    levels: dict[str, int] | None = None
    season: str | None = None
    tech_power_lost: dict[str, int] | None = None


@event(
    "saga.EffectApplied",
    version=2,
    entities=("target", "by"),
    rules=("SAGA-EFF-1", "SAGA-EFF-2", "SAGA-EFF-3"),
)
@attrs.frozen
class EffectApplied(Event):
    """A buff/debuff (attack, defense, spell) or tech-power-up was given; ``landed`` False: it
    failed (SAGA-EFF-3) and nothing changed.

    ``value_before`` and ``value_after`` are the target's effect value of ``kind`` that the
    decision met and the one it left (equal when it did not land); ``reason`` says why a buff
    with a tech on the other side landed or not (SAGA-EFF-3). The values are None in records
    written before schema v2.
    """

    target: str
    by: str
    kind: str
    performance: int
    landed: bool = True
    tech: str | None = None
    value_before: int | None = None
    value_after: int | None = None
    reason: str = ""


@event(
    "saga.PoisonDamageTaken",
    version=2,
    entities=("unit",),
    rules=("SAGA-POISON-1", "SAGA-POISON-2", "SAGA-HP-2"),
)
@attrs.frozen
class PoisonDamageTaken(Event):
    """A poisoned unit took poison damage at its timeline position (random factor recorded).

    ``hp_lost`` is the HP it lost (the damage, down to 0 HP: SAGA-HP-2); ``draw_no`` the draw
    counter the random factor is keyed by. Both None in records written before schema v2.
    """

    unit: str
    damage: int
    random_factor: Fraction
    waiting: bool = False
    breakdown: dict[str, str] = attrs.field(factory=dict)
    hp_lost: int | None = None
    draw_no: int | None = None


@event("saga.ReleaseDamageTaken", entities=("unit",), rules=("SAGA-REL-1", "SAGA-HP-3"))
@attrs.frozen
class ReleaseDamageTaken(Event):
    """A unit used 解き放つ (release) and took its release damage."""

    unit: str
    damage: int
    breakdown: dict[str, str] = attrs.field(factory=dict)


@event("saga.BloodPaid", version=2, entities=("unit",), rules=("SAGA-LP-2", "SAGA-LP-4"))
@attrs.frozen
class BloodPaid(Event):
    """A unit used a Blood tech: outside an overdrive it paid its LP cost.

    ``lp_lost`` is the LP it lost (0 in an overdrive), ``lp_damage_effect_gain`` how much its
    LP-damage effect value grew, ``incapacitated`` whether the cost took its LP to 0. These are
    None in records written before schema v2 (always outside an overdrive).
    """

    unit: str
    tech: str
    lp_cost: int
    lp_lost: int | None = None
    lp_damage_effect_gain: int | None = None
    incapacitated: bool | None = None
    overdrive: bool = False


@event("saga.UnitIncapacitated", entities=("unit",), rules=("SAGA-LP-1",))
@attrs.frozen
class UnitIncapacitated(Event):
    """A unit at 0 HP became incapacitated; an ally loses ``lp_lost`` (1) LP."""

    unit: str
    lp_lost: int = 0


@event("saga.PartyWiped", version=2, rules=("SAGA-LP-3", "SAGA-LP-4"))
@attrs.frozen
class PartyWiped(Event):
    """The party was wiped out and retries: LP loss and recovery, the battle restarts.

    For each ally whose LP is tracked: ``lp_before`` and ``lp_damage_effect`` (what the wipe
    met) and ``lp_after``; ``out`` the allies left at 0 LP, who stay incapacitated at 0 HP
    (everyone else is back at max HP); ``levels`` and ``season`` the restarted battle's turn 1
    (None without a battle). All None (``out`` empty) in records written before schema v2.
    """

    lp_before: dict[str, int] | None = None
    lp_damage_effect: dict[str, int] | None = None
    lp_after: dict[str, int] | None = None
    out: tuple[str, ...] = ()
    levels: dict[str, int] | None = None
    season: str | None = None
