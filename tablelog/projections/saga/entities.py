"""The typed records of a SaGa session: the unit, with its effect values and traits.

SaGa has one entity kind, the **unit** (``state.characters[name]``; no items): an ally or an
enemy in battle, built by the ``saga.UnitAdded`` evolver from the sheet its event records and
changed by the damage, LP, effect and battle-flow evolvers. Every unit record has every key
(none is optional):

- :class:`Unit` — side, current and maximum HP and LP (``lp``/``lp_max`` None: LP not tracked,
  SAGA-LP-1), ``incapacitated`` (SAGA-LP-1), the HP floor and its rate as exact text
  (SAGA-HP-1), the sheet the formulas read (stats, SLv, weapon powers, resistances, five-element
  levels, traits, guard and formation rates, race, intrinsic HP, battle rank: SAGA-ATK-5..14,
  SAGA-EFF-4, SAGA-POISON-2), and what lives only during a battle: the effect values, the
  LP-damage effect value (SAGA-LP-2..4) and the private ``_poisoned_turn`` (the turn of its last
  poison damage, None since the battle began: SAGA-POISON-1).
- :class:`Effects` — the effect values by kind (SAGA-EFF-1, SAGA-EFF-2).
- :class:`TraitRecord` — one trait (特性): kind, performance value, condition (SAGA-EFF-4).

The records are plain dicts at run time (``state --json`` shows them as they are, private keys
left out); these TypedDicts let mypy check every key the saga code reads or writes, and the
contract test checks every folded record against them (docs/saga.md, "State records").

Source: saga-eb-damage.ja.txt, 現在HPの変動, 現在LPの変動, 効果値, 攻撃ダメージに影響する特性値.
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from tablelog.projections.core import State
from tablelog.rules.core import RuleViolation, Unknown
from tablelog.text import msg

__all__ = [
    "EFFECT_KINDS",
    "EffectKind",
    "Effects",
    "Side",
    "TraitRecord",
    "Unit",
    "effect_kind",
    "unit_of",
    "units",
]

Side = Literal["ally", "enemy"]
EffectKind = Literal["tech_power", "attack", "defense", "spell"]
EFFECT_KINDS: tuple[EffectKind, ...] = ("tech_power", "attack", "defense", "spell")
_EFFECT_KINDS: dict[str, EffectKind] = {kind: kind for kind in EFFECT_KINDS}


class Effects(TypedDict):
    """A unit's effect values (SAGA-EFF-1, SAGA-EFF-2): all 0 when a battle begins."""

    tech_power: int
    attack: int
    defense: int
    spell: int


class TraitRecord(TypedDict):
    """One trait: its kind, performance value and what it is limited to (None: always)."""

    kind: str
    value: int
    on: str | None


class Unit(TypedDict):
    """A unit record (``state.characters[name]``): an ally or an enemy, see the module."""

    side: Side
    hp: int
    hp_max: int
    lp: int | None
    lp_max: int | None
    incapacitated: bool
    hp_floor: int
    hp_floor_rate: str
    intrinsic_hp: int | None
    battle_rank: int | None
    race: str | None
    stats: dict[str, int]
    slv: dict[str, int]
    weapons: dict[str, list[int]]
    resistances: dict[str, int]
    five: dict[str, int]
    traits: list[TraitRecord]
    guard_rate: int
    formation_attack: int
    formation_defense: int
    effects: Effects
    lp_damage_effect: int
    _poisoned_turn: int | None


def effect_kind(kind: str) -> EffectKind | None:
    """Return ``kind`` as a key of :class:`Effects`, or None when it names no effect value (an
    event records its kind as text)."""
    return _EFFECT_KINDS.get(kind)


def units(state: State) -> dict[str, Unit]:
    """Return the session's units by name: ``state.characters`` itself, typed (changes to it
    change the state)."""
    return cast("dict[str, Unit]", state.characters)


def unit_of(state: State, name: str, rule: str = "UNKNOWN-NAME") -> Unit:
    """Return the unit called ``name``.

    Raises:
        RuleViolation: ``rule`` (default UNKNOWN-NAME) if there is no such unit.
    """
    unit = units(state).get(name)
    if unit is None:
        raise RuleViolation(
            rule, msg("saga.unit.none", "no unit named {name!r}", name=name), Unknown("name", name)
        )
    return unit
