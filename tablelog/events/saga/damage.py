"""SaGa events of one tech activation: each hit with its breakdown, misses, drains, instant death.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ, 現在HPの変動; SAGA-ATK-1..16, SAGA-DISP-2..3,
SAGA-HP-1, SAGA-HP-4, SAGA-HP-5.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from tablelog.events.core import Event, event

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


@event("saga.AttackAvoided", entities=("actor", "target"), rules=("SAGA-ATK-1",))
@attrs.frozen
class AttackAvoided(Event):
    """No attack damage was computed for a target, and why (power 0, missed, evaded, …)."""

    actor: str
    target: str
    tech: str
    reason: str


@event("saga.InstantDeathInflicted", entities=("target",), rules=("SAGA-HP-4",))
@attrs.frozen
class InstantDeathInflicted(Event):
    """Instant death (or forced instant death) landed: HP 0, even through an HP floor."""

    target: str
    tech: str = ""


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
