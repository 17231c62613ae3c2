"""SaGa commands that set up a session: units and techs.

Source: saga-eb-damage.ja.txt; SAGA-ATK-5, SAGA-EFF-4, SAGA-HP-1.
"""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.events.core import Event
from tablelog.events.saga import TechDefined, UnitAdded, UnitSheet
from tablelog.projections.core import State
from tablelog.rules.core import RuleViolation, check_name, require
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga.effects import TRAIT_KINDS
from tablelog.rules.saga.text import unknown_named
from tablelog.rules.saga.vitals import check_floor_rate, hp_floor
from tablelog.text import msg

__all__ = ["AddUnit", "DefineTech"]


@attrs.frozen
class AddUnit:
    """Add an ally or enemy unit with its sheet (enemies: a battle rank fills gaps)."""

    name: str
    sheet: UnitSheet
    force: bool = False  # add it though a taken name differs only by case (CORE-NAME)


@attrs.frozen
class DefineTech:
    """Define (or override) a tech for this session, in the catalogue's terms."""

    tech: TechDefined


def _check_keys(
    keys: object, allowed: tuple[str, ...] | dict[str, str], rule: str, what: str
) -> None:
    for key in keys:  # type: ignore[attr-defined]
        if key not in allowed:
            raise RuleViolation(rule, unknown_named(what, key, allowed))


def _validate_sheet(name: str, s: UnitSheet) -> None:
    check_name(name)
    require(
        s.side in ("ally", "enemy"),
        "SAGA-HP-1",
        msg("saga.unit.side", "side must be ally or enemy, not {side!r}", side=s.side),
    )
    require(
        s.hp_max > 0,
        "SAGA-HP-1",
        msg("saga.unit.max_hp", "max HP is 1 or more, got {hp_max}", hp_max=s.hp_max),
    )
    require(
        0 <= s.hp <= s.hp_max,
        "SAGA-HP-1",
        msg("saga.unit.hp", "HP {hp} must be 0 to the max HP, {hp_max}", hp=s.hp, hp_max=s.hp_max),
    )
    require(
        s.lp_max is None or s.lp_max >= 0,
        "SAGA-LP-1",
        msg("saga.unit.lp_range", "LP is 0 or more, got {lp}", lp=s.lp_max),
    )
    check_floor_rate(s.hp_floor_rate)
    require(
        s.side == "enemy" or s.hp_floor_rate == 0,
        "SAGA-HP-1",
        msg("saga.unit.ally_floor", "allies have no HP floor"),
    )
    _check_keys(s.stats, cat.ABILITIES, "SAGA-ATK-5", "stat")
    _check_keys(s.slv, cat.WEAPON_TYPES, "SAGA-ATK-5", "weapon type")
    _check_keys(s.weapons, cat.WEAPON_TYPES, "SAGA-ATK-5", "weapon type")
    _check_keys(s.resistances, cat.ATTRIBUTES[:-1], "SAGA-ATK-8", "attribute")
    _check_keys(s.five, cat.ELEMENTS, "SAGA-ATK-9", "element")
    _check_keys([t.kind for t in s.traits], TRAIT_KINDS, "SAGA-EFF-4", "trait kind")


def _rank_defaults(s: UnitSheet) -> UnitSheet:
    if s.battle_rank is None:
        return s
    rank = cat.battle_rank(s.battle_rank)
    return attrs.evolve(
        s,
        stats={**dict.fromkeys(cat.ABILITIES, rank.base_stat), **s.stats},
        resistances={**dict.fromkeys(cat.ATTRIBUTES[:-1], rank.base_resistance), **s.resistances},
    )


@decider(AddUnit)
def decide_add_unit(state: State, c: AddUnit) -> list[Event]:
    """Add a unit; an enemy's battle rank supplies its stats and resistances where not given.

    Raises:
        RuleViolation: CORE-NAME, SAGA-HP-1 (HP, side, floor), SAGA-ATK-5/8/9, SAGA-EFF-4
            (unknown stat, weapon type, attribute, element or trait kind).
    """
    require(
        c.name not in state.characters,
        "CORE-NAME",
        msg("saga.unit.exists", "a unit named {name!r} exists", name=c.name),
    )
    _validate_sheet(c.name, c.sheet)
    require(
        c.sheet.side == "enemy" or c.sheet.battle_rank is None,
        "SAGA-ATK-5",
        msg("saga.unit.ally_rank", "only enemies have a battle rank"),
    )
    s = c.sheet
    floor = hp_floor(s.hp_max, enemy=s.side == "enemy", floor_rate=s.hp_floor_rate)
    return [UnitAdded(name=c.name, sheet=_rank_defaults(s), hp_floor=floor)]


@decider(DefineTech)
def decide_define_tech(state: State, c: DefineTech) -> list[Event]:
    """Define a session tech after checking its type, attributes, element, abilities and numbers.

    Raises:
        RuleViolation: CORE-NAME (the id), SAGA-ATK-2 (count), SAGA-ATK-5 (type, ability),
            SAGA-ATK-8 (attribute), SAGA-ATK-9 (element), SAGA-ATK-16 (width), SAGA-LP-2 (LP
            cost).
    """
    t = c.tech
    require(t.id.strip(), "UNKNOWN-NAME", msg("saga.tech.no_id", "a tech needs an id"))
    # no comma, as every name (issue 15 item 22)
    check_name(t.id, msg("saga.what.tech_id", "a tech id"))
    require(
        t.weapon_type in cat.WEAPON_TYPES,
        "SAGA-ATK-5",
        msg("saga.weapon_type.unknown", "unknown weapon type {name!r}", name=t.weapon_type),
    )
    _check_keys(t.attributes, cat.ATTRIBUTES, "SAGA-ATK-8", "attribute")
    require(
        t.element is None or t.element in cat.ELEMENTS,
        "SAGA-ATK-9",
        msg("saga.element.unknown", "unknown element {name!r}", name=t.element),
    )
    for ability in (t.self_ability, t.target_ability):
        require(
            ability is None or ability in cat.ABILITIES,
            "SAGA-ATK-5",
            msg("saga.ability.unknown", "unknown ability {name!r}", name=ability),
        )
    require(
        t.power >= 0,
        "SAGA-ATK-6",
        msg("saga.tech.power_range", "tech power is 0 or more, got {power}", power=t.power),
    )
    require(
        t.attack_count >= 0,
        "SAGA-ATK-2",
        msg(
            "saga.tech.count_range", "attack count is 0 or more, got {count}", count=t.attack_count
        ),
    )
    require(
        0 <= t.random_width <= 100,
        "SAGA-ATK-16",
        msg(
            "saga.tech.width_range",
            "random width is 0 to 100 (%), got {width}",
            width=t.random_width,
        ),
    )
    require(
        t.lp_cost >= 0,
        "SAGA-LP-2",
        msg("saga.tech.lp_cost_range", "LP cost is 0 or more, got {lp}", lp=t.lp_cost),
    )
    return [attrs.evolve(t, random_width=t.random_width or 5)]
