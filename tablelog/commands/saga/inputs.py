"""Turn the session state into the inputs of the damage formula (actor, target, situation).

Source: saga-eb-damage.ja.txt, 基礎威力 (weapon power and SLv, dual weapons, enemies),
攻撃ダメージに影響する特性値; SAGA-ATK-5, SAGA-ATK-8, SAGA-ATK-12..14, SAGA-EFF-4.
"""

from __future__ import annotations

from typing import Any

import attrs

from tablelog.projections.core import State
from tablelog.projections.saga.entities import Unit
from tablelog.rules.core import RuleViolation, require
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import power as pw
from tablelog.rules.saga import resist as rs
from tablelog.rules.saga.damage import Attacker, Defender, Situation
from tablelog.rules.saga.effects import trait_values
from tablelog.rules.saga.figures import Number
from tablelog.rules.saga.text import tech as tech_term
from tablelog.rules.saga.text import term
from tablelog.text import Msg, msg, msgn

__all__ = ["attacker_of", "defender_of", "effective_of", "situation_for", "tech_of"]


def tech_of(state: State, tech_id: str, rank: int = 1) -> cat.Tech:
    """Return a session-defined tech, else the catalogue's at ``rank``.

    Raises:
        RuleViolation: UNKNOWN-NAME for a tech neither defined nor in the catalogue.
    """
    defined = state.extra["techs"].get(tech_id)
    if defined is None:
        return cat.tech(tech_id, rank)
    fields = {f.name for f in attrs.fields(cat.Tech)}
    given: dict[str, Any] = {
        k: tuple(v) if isinstance(v, list) else v for k, v in defined.items() if k in fields
    }
    return cat.Tech(**given)


def effective_of(tech: cat.Tech, target: Unit) -> str | None:
    """Return the effective attribute for traits (None for attributeless techs)."""
    if all(a == "none" for a in tech.attributes):
        return None
    return rs.effective_attribute(tech.attributes, target["resistances"])[0]


def _weapon(name: str, unit: Unit, kind: str, count: int) -> list[int]:
    found: list[int] = unit["weapons"].get(kind, [])
    require(
        len(found) >= count,
        "SAGA-ATK-5",
        msg(
            "saga.weapons.needed",
            "{name} needs {weapons} for this tech, has {has}",
            name=name,
            weapons=_weapons(count, kind),
            has=len(found),
        ),
    )
    return found[:count]


def _weapons(count: int, kind: str) -> Msg:
    return msgn(
        "saga.weapons.count",
        "{n} {kind} weapon",
        "{n} {kind} weapons",
        count,
        kind=term("weapon_type", kind),
    )


def _skill(name: str, unit: Unit, kind: str) -> int:
    require(
        kind in unit["slv"],
        "SAGA-ATK-5",
        msg("saga.slv.none", "{name} has no {kind} SLv", name=name, kind=term("weapon_type", kind)),
    )
    return unit["slv"][kind]


def _enemy_weapon_and_slv(name: str, unit: Unit) -> tuple[int, int]:
    rank = cat.battle_rank(unit["battle_rank"]) if unit["battle_rank"] else None
    weapons = unit["weapons"]
    wp = weapons["enemy"][0] if "enemy" in weapons else rank.enemy_weapon_power if rank else None
    slv = unit["slv"].get("enemy", rank.enemy_slv if rank else None)
    if wp is None or slv is None:
        raise RuleViolation(
            "SAGA-ATK-5",
            msg(
                "saga.enemy.needs_rank",
                "enemy {name} needs a battle rank (or an enemy weapon power and SLv)",
                name=name,
            ),
        )
    return wp, slv


def _weapon_and_slv(name: str, unit: Unit, tech: cat.Tech) -> tuple[Number | None, Number | None]:
    if unit["side"] == "enemy":
        return _enemy_weapon_and_slv(name, unit)
    group = pw.bonus_group(tech.weapon_type, as_spell=tech.has("treated-as-spell"))
    if group == "inherited":
        return None, None
    if tech.weapon_sub == "sword-gun":
        sword, gun = _weapon(name, unit, "1h-sword", 1)[0], _weapon(name, unit, "1h-gun", 1)[0]
        average = pw.average_slv(_skill(name, unit, "1h-sword"), _skill(name, unit, "1h-gun"))
        return pw.average_weapon_power(sword, gun), average
    slv = _skill(name, unit, tech.weapon_type)
    if group != "armed":
        return None, slv
    if tech.weapon_sub in ("dual-wield", "two-guns"):
        return pw.average_weapon_power(*_weapon(name, unit, tech.weapon_type, 2)), slv
    return _weapon(name, unit, tech.weapon_type, 1)[0], slv


def _traits(unit: Unit, tech: cat.Tech, effective: str | None) -> dict[str, int]:
    if unit["side"] == "enemy":
        return trait_values((), tech, effective).value  # type: ignore[no-any-return]
    return trait_values(unit["traits"], tech, effective).value  # type: ignore[no-any-return]


def attacker_of(name: str, unit: Unit, tech: cat.Tech, effective: str | None) -> Attacker:
    """Return the actor's formula inputs for ``tech``.

    Raises:
        RuleViolation: SAGA-ATK-5 when a weapon, SLv or the dependent stat is missing.
    """
    weapon_power, slv = _weapon_and_slv(name, unit, tech)
    stat = None
    if tech.self_ability:
        require(
            tech.self_ability in unit["stats"],
            "SAGA-ATK-5",
            msg(
                "saga.stat.needed_by",
                "{name} has no {ability} stat (needed by {tech})",
                name=name,
                ability=term("ability", tech.self_ability),
                tech=tech_term(tech.id),
            ),
        )
        stat = unit["stats"][tech.self_ability]
    t = _traits(unit, tech, effective)
    fx = unit["effects"]
    return Attacker(
        weapon_power=weapon_power,
        slv=slv,
        stat=stat,
        five_level=unit["five"].get(tech.element, 0) if tech.element else 0,
        tech_power_effect=fx["tech_power"],
        attack_effect=fx["attack"],
        spell_effect=fx["spell"],
        tech_power_trait=t["tech_power_trait"],
        anger_trait=t["anger_trait"],
        target_guard_trait=t["target_guard_trait"],
        attack_trait=t["attack_trait"],
        formation_attack_rate=unit["formation_attack"],
        enemy=unit["side"] == "enemy",
    )


def defender_of(name: str, unit: Unit, tech: cat.Tech, effective: str | None) -> Defender:
    """Return the target's formula inputs for ``tech``.

    Raises:
        RuleViolation: SAGA-ATK-8 when the target's dependent stat is missing.
    """
    stat = None
    if tech.target_ability:
        require(
            tech.target_ability in unit["stats"],
            "SAGA-ATK-8",
            msg(
                "saga.stat.resists",
                "{name} has no {ability} stat (resists {tech})",
                name=name,
                ability=term("ability", tech.target_ability),
                tech=tech_term(tech.id),
            ),
        )
        stat = unit["stats"][tech.target_ability]
    t = _traits(unit, tech, effective)
    return Defender(
        resistances=dict(unit["resistances"]),
        stat=stat,
        five_level=unit["five"].get(tech.element, 0) if tech.element else 0,
        defense_effect=unit["effects"]["defense"],
        tech_power_up=unit["effects"]["tech_power"] > 0,
        defense_resist_trait=t["defense_resist_trait"],
        guard_trait=t["guard_trait"],
        defense_trait=t["defense_trait"],
        weapon_guard_rate=unit["guard_rate"],
        formation_defense_rate=unit["formation_defense"],
    )


def situation_for(state: State, tech: cat.Tech, target: Unit, table: dict[str, Any]) -> Situation:
    """Return the situation of one hit: the table's answers plus the battle and race slayer.

    Raises:
        RuleViolation: SAGA-ATK-13 when guard and protect are both given.
    """
    if table.get("protect") is not None and table.get("guard") is False:
        raise RuleViolation(
            "SAGA-ATK-13",
            msg("saga.situation.protect_guards", "a protect tech guards: guard cannot be false"),
        )
    slayer = table.get("slayer")
    if slayer is None:
        slayer = target["race"] is not None and tech.has(f"slayer-{target['race']}")
    level = state.clock["levels"].get(tech.element, 0) if tech.element else 0
    return Situation(
        defending=table.get("defending", False),
        defend_void=table.get("defend_void"),
        guard=table.get("guard", False) or table.get("protect") is not None,
        protect_power=table.get("protect"),
        earth_shield=table.get("earth_shield", False),
        angry=table.get("angry", False),
        slayer=slayer,
        instant_death_class=table.get("instant_death_class", False),
        combo_rate=table.get("combo"),
        battle_five_level=level,
    )
