"""SaGa events of one tech activation: each hit with its breakdown, misses, drains, instant death.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ, 現在HPの変動; SAGA-ATK-1..16, SAGA-DISP-2..3,
SAGA-HP-1, SAGA-HP-4, SAGA-HP-5.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from tablelog.events.core import Event, event
from tablelog.events.saga.audit import audit_lines

__all__ = ["AttackAvoided", "AttackDamageDealt", "HPHealed", "InstantDeathInflicted"]


@event(
    "saga.AttackDamageDealt",
    version=2,
    entities=("actor", "target"),
    rules=(
        "SAGA-ATK-2",
        "SAGA-ATK-3",
        "SAGA-ATK-4",
        "SAGA-ATK-11",
        "SAGA-ATK-16",
        "SAGA-HP-1",
        "SAGA-DISP-2",
        "SAGA-DISP-3",
    ),
)
@attrs.frozen
class AttackDamageDealt(Event):
    """One attack process of a tech hit a target (its random factor drawn once and recorded).

    ``breakdown`` names every factor; ``shown`` the split display; ``hidden`` True when
    instant death landed (the damage is still dealt to the log); ``support`` for a guest's
    support action (HP never below 1). ``hp_lost`` is the HP the target lost (the damage, less
    what its HP floor or the support rule kept: SAGA-HP-1); ``draw_no`` the session's draw
    counter this activation's random factors and random targets are keyed by (docs/saga.md).
    Both are None in records written before schema v2 (replay then takes the legacy path).
    """

    actor: str
    target: str
    tech: str
    process: int
    processes: int
    damage: int
    random_factor: Fraction
    shown: tuple[int, ...] = ()
    hidden: bool = False
    support: bool = False
    breakdown: dict[str, str] = attrs.field(factory=dict)
    hp_lost: int | None = None
    draw_no: int | None = None

    def describe(self) -> str:
        shown = (
            " (hidden: instant death)"
            if self.hidden
            else (f" shown as {' + '.join(map(str, self.shown))}" if len(self.shown) > 1 else "")
        )
        return (
            f"{self.actor} {self.tech} -> {self.target}: {self.damage} damage "
            f"(process {self.process}/{self.processes}, random {float(self.random_factor):.4f})"
            f"{shown}"
        )

    def explain(self) -> list[str]:
        """The damage formula and the HP after it; a split display (SAGA-DISP-2) or hidden
        damage (SAGA-DISP-3) adds its rule."""
        ids = ["SAGA-ATK-2", "SAGA-ATK-3", "SAGA-ATK-4", "SAGA-ATK-11", "SAGA-ATK-16"]
        ids += ["SAGA-DISP-3"] if self.hidden else ["SAGA-DISP-2"] if len(self.shown) > 1 else []
        return audit_lines([*ids, "SAGA-HP-1"], self.breakdown)


@event("saga.AttackAvoided", entities=("actor", "target"), rules=("SAGA-ATK-1",))
@attrs.frozen
class AttackAvoided(Event):
    """No attack damage was computed for a target, and why (power 0, missed, evaded, …)."""

    actor: str
    target: str
    tech: str
    reason: str

    def describe(self) -> str:
        return f"{self.actor} {self.tech} -> {self.target}: no damage ({self.reason})"


@event("saga.InstantDeathInflicted", entities=("target",), rules=("SAGA-HP-4",))
@attrs.frozen
class InstantDeathInflicted(Event):
    """Instant death (or forced instant death) landed: HP 0, even through an HP floor."""

    target: str
    tech: str = ""

    def describe(self) -> str:
        return f"{self.target}: instant death"


@event("saga.HPHealed", version=2, entities=("unit",), rules=("SAGA-HP-5",))
@attrs.frozen
class HPHealed(Event):
    """A unit healed itself by drain (the damage dealt) or full heal (max HP); HP ≤ max.

    ``amount`` is what the heal was worth; ``healed`` the HP the unit gained (up to its max HP),
    None in records written before schema v2.
    """

    unit: str
    amount: int
    kind: str = "drain"
    healed: int | None = None

    def describe(self) -> str:
        how = "full heal" if self.kind == "full" else self.kind
        return f"{self.unit} heals {self.amount} HP ({how})"
