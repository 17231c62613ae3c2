"""SaGa events of the battle flow: start, turns, buffs, poison, release, LP, wipes.

Source: saga-eb-damage.ja.txt; SAGA-FIVE-1..2, SAGA-EFF-1..3, SAGA-POISON-1..2, SAGA-REL-1,
SAGA-HP-2..3, SAGA-LP-1..4.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from tablelog.events.core import Event, event
from tablelog.events.saga.audit import audit_lines

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


@event("saga.BattleStarted", rules=("SAGA-FIVE-1", "SAGA-FIVE-2"))
@attrs.frozen
class BattleStarted(Event):
    """A battle began (turn 1) on a terrain, in the five-sided hall (seasons), or neither."""

    terrain: str | None = None
    seasons: bool = False

    def describe(self) -> str:
        if self.seasons:
            return "battle starts in the five-sided hall (seasons)"
        where = f"on {self.terrain} terrain" if self.terrain else "with no terrain element"
        return f"battle starts {where}"

    def explain(self) -> list[str]:
        """The battle's element levels (SAGA-FIVE-1); with seasons, the season too (FIVE-2)."""
        return audit_lines(["SAGA-FIVE-1", "SAGA-FIVE-2"] if self.seasons else ["SAGA-FIVE-1"])


@event("saga.TurnEnded", rules=("SAGA-EFF-1", "SAGA-FIVE-2", "SAGA-POISON-1"))
@attrs.frozen
class TurnEnded(Event):
    """Turn ``turn`` ended: tech-power effects decay by 1, the next turn (and season) begins."""

    turn: int

    def describe(self) -> str:
        return f"turn {self.turn} ends -> turn {self.turn + 1}"


@event(
    "saga.EffectApplied",
    entities=("target", "by"),
    rules=("SAGA-EFF-1", "SAGA-EFF-2", "SAGA-EFF-3"),
)
@attrs.frozen
class EffectApplied(Event):
    """A buff/debuff (attack, defense, spell) or tech-power-up was given; ``landed`` False: it
    failed (SAGA-EFF-3) and nothing changed."""

    target: str
    by: str
    kind: str
    performance: int
    landed: bool = True
    tech: str | None = None

    def describe(self) -> str:
        outcome = "" if self.landed else " (did not land)"
        source = f" with {self.tech}" if self.tech else ""
        if self.kind == "tech_power":
            return f"{self.by}{source}: tech-power-up {self.performance} on {self.target}"
        return f"{self.by}{source}: {self.kind} {self.performance:+d} on {self.target}{outcome}"

    def explain(self) -> list[str]:
        """Tech-power-up: SAGA-EFF-1; a buff: whether it lands (EFF-3) and its clamp (EFF-2)."""
        if self.kind == "tech_power":
            return audit_lines(["SAGA-EFF-1"])
        return audit_lines(["SAGA-EFF-2", "SAGA-EFF-3"] if self.landed else ["SAGA-EFF-3"])


@event(
    "saga.PoisonDamageTaken",
    entities=("unit",),
    rules=("SAGA-POISON-1", "SAGA-POISON-2", "SAGA-HP-2"),
)
@attrs.frozen
class PoisonDamageTaken(Event):
    """A poisoned unit took poison damage at its timeline position (random factor recorded)."""

    unit: str
    damage: int
    random_factor: Fraction
    waiting: bool = False
    breakdown: dict[str, str] = attrs.field(factory=dict)

    def describe(self) -> str:
        waiting = " (waiting: halved)" if self.waiting else ""
        return f"{self.unit} takes {self.damage} poison damage{waiting}"


@event("saga.ReleaseDamageTaken", entities=("unit",), rules=("SAGA-REL-1", "SAGA-HP-3"))
@attrs.frozen
class ReleaseDamageTaken(Event):
    """A unit used 解き放つ (release) and took its release damage."""

    unit: str
    damage: int
    breakdown: dict[str, str] = attrs.field(factory=dict)

    def describe(self) -> str:
        return f"{self.unit} releases and takes {self.damage} damage"


@event("saga.BloodPaid", entities=("unit",), rules=("SAGA-LP-2", "SAGA-LP-4"))
@attrs.frozen
class BloodPaid(Event):
    """A unit used a Blood tech outside an overdrive and paid its LP cost."""

    unit: str
    tech: str
    lp_cost: int

    def describe(self) -> str:
        return f"{self.unit} pays {self.lp_cost} LP for {self.tech}"


@event("saga.UnitIncapacitated", entities=("unit",), rules=("SAGA-LP-1",))
@attrs.frozen
class UnitIncapacitated(Event):
    """A unit at 0 HP became incapacitated; an ally loses ``lp_lost`` (1) LP."""

    unit: str
    lp_lost: int = 0

    def describe(self) -> str:
        lost = f", loses {self.lp_lost} LP" if self.lp_lost else ""
        return f"{self.unit} is incapacitated{lost}"

    def explain(self) -> list[str]:
        """SAGA-LP-1 when an ally loses LP; an enemy (or untracked LP) names no rule."""
        return audit_lines(["SAGA-LP-1"] if self.lp_lost else [])


@event("saga.PartyWiped", rules=("SAGA-LP-3", "SAGA-LP-4"))
@attrs.frozen
class PartyWiped(Event):
    """The party was wiped out and retries: LP loss and recovery, the battle restarts."""

    def describe(self) -> str:
        return "party wiped: retry"
