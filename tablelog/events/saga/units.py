"""SaGa events that define the cast of a battle: units and techs.

Source: saga-eb-damage.ja.txt (the inputs every formula reads); SAGA-ATK-5, SAGA-HP-1,
SAGA-EFF-4.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from tablelog.events.core import Event, event

__all__ = ["TechDefined", "Trait", "UnitAdded", "UnitSheet"]


@attrs.frozen
class Trait:
    """One trait (特性): its kind (see ``rules.saga.effects.TRAIT_KINDS``), performance value,
    and the weapon type / attribute / condition it is limited to (None: always)."""

    kind: str
    value: int
    on: str | None = None


@attrs.frozen
class UnitSheet:
    """Everything the formulas read about a unit (from options or a sheet file).

    ``side`` is ``ally`` or ``enemy``; ``lp_max`` None means LP is not tracked. ``stats`` by
    ability (str tec agi vit int con); ``slv`` and ``weapons`` (weapon powers, two for dual
    wielding) by weapon type; ``resistances`` by attribute; ``five`` levels by element;
    ``hp_floor_rate`` in percent of max HP (enemies); ``guard_rate`` the weapon's (allies) or
    own (enemies) guard rate; formation rates in percent.
    """

    side: str
    hp_max: int
    hp: int
    lp_max: int | None = None
    stats: dict[str, int] = attrs.field(factory=dict)
    slv: dict[str, int] = attrs.field(factory=dict)
    weapons: dict[str, tuple[int, ...]] = attrs.field(factory=dict)
    resistances: dict[str, int] = attrs.field(factory=dict)
    five: dict[str, int] = attrs.field(factory=dict)
    traits: tuple[Trait, ...] = ()
    race: str | None = None
    hp_floor_rate: Fraction = Fraction(0)
    intrinsic_hp: int | None = None
    battle_rank: int | None = None
    guard_rate: int = 0
    formation_attack: int = 0
    formation_defense: int = 0


@event("saga.UnitAdded", version=2, entities=("name",), rules=("SAGA-ATK-5", "SAGA-HP-1"))
@attrs.frozen
class UnitAdded(Event):
    """A unit (ally or enemy) joined the session with its sheet.

    ``hp_floor`` is its HP floor (SAGA-HP-1), None in records written before schema v2.
    """

    name: str
    sheet: UnitSheet
    hp_floor: int | None = None


@event("saga.TechDefined")
@attrs.frozen
class TechDefined(Event):
    """A tech the catalogue lacks (an enemy-only tech, say) or a table override, by id."""

    id: str
    power: int
    attack_count: int
    random_width: int
    weapon_type: str
    attributes: tuple[str, ...] = ()
    element: str | None = None
    self_ability: str | None = None
    target_ability: str | None = None
    weapon_sub: str | None = None
    target: str = "single"
    lp_cost: int = 0
    flags: tuple[str, ...] = ()
