"""Turn ``saga calc`` options into the damage formula's inputs, and compute the result.

Pure apart from raising click errors for malformed options; no session, no I/O.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import click

from tablelog.lang import say
from tablelog.rules.core import RuleViolation
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import damage as dmg
from tablelog.rules.saga import power as pw
from tablelog.rules.saga import resist as rs
from tablelog.rules.saga.corrections import random_factor, random_range
from tablelog.rules.saga.figures import num_text, parse_number
from tablelog.rules.saga.text import key_of, slashed, term
from tablelog.rules.saga.text import tech as tech_term
from tablelog.text import Msg, msg

__all__ = ["compute", "parse_resistances"]


def parse_resistances(values: tuple[str, ...]) -> dict[str, int]:
    """Turn ``--resist`` values (``N`` for every attribute, or ``ATTR=N``, the attribute by its
    id or any of its names: ``斬=20``) into a dict of ids.

    Raises:
        click.BadParameter: for an unknown attribute, a value that is not an integer or one
            outside ±:data:`MAX_STAT`.
    """
    out: dict[str, int] = {}
    for text in values:
        attr, _, number = text.rpartition("=")
        try:
            value = int(number)
        except ValueError:
            raise click.BadParameter(
                say(msg("saga.usage.resist_form", "{text!r}: expected N or ATTR=N", text=text)),
                param_hint="--resist",
            ) from None
        if not -MAX_STAT <= value <= MAX_STAT:
            raise click.BadParameter(
                say(
                    msg(
                        "saga.usage.resist_range",
                        "{text!r}: a resistance is {low} to {high}",
                        text=text,
                        low=-MAX_STAT,
                        high=MAX_STAT,
                    )
                ),
                param_hint="--resist",
            )
        named = key_of("attribute", attr, cat.ATTRIBUTES[:-1]) if attr else None
        if not attr:
            out.update(dict.fromkeys(cat.ATTRIBUTES[:-1], value))
        elif named is not None:
            out[named] = value
        else:
            raise click.BadParameter(
                say(msg("saga.usage.unknown_attribute", "unknown attribute {name!r}", name=attr)),
                param_hint="--resist",
            )
    return out


def _roll(text: str | None) -> Fraction | None:
    if text is None:
        return None
    try:
        return parse_number(text)
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(not_a_number(text), param_hint="--roll") from None


def _custom_tech(o: dict[str, Any]) -> cat.Tech:
    for name in ("power", "weapon_type"):
        if o[name] is None:
            option = f"--{name.replace('_', '-')}"
            raise click.UsageError(
                say(
                    msg(
                        "saga.calc.option_required",
                        "without TECH, {option} is required",
                        option=option,
                    )
                )
            )
    return cat.Tech(
        id="custom",
        power=o["power"],
        attack_count=1,
        random_width=5,
        weapon_type=o["weapon_type"],
        self_ability="str" if o["self_stat"] is not None else None,
        target_ability="vit" if o["target_stat"] is not None else None,
    )


def _tech(tech_id: str | None, o: dict[str, Any]) -> cat.Tech:
    base = _custom_tech(o) if tech_id is None else cat.tech(tech_id, o["rank"])
    flags = base.flags + tuple(
        f
        for f, on in (("ignore-defense", o["ignore_defense"]), ("treated-as-spell", o["as_spell"]))
        if on
    )
    return attrs.evolve(
        base,
        flags=flags,
        power=o["power"] if o["power"] is not None else base.power,
        attack_count=o["attack_count"] if o["attack_count"] is not None else base.attack_count,
        random_width=o["random_width"] or base.random_width,
        weapon_type=o["weapon_type"] or base.weapon_type,
        attributes=tuple(o["attribute"]) or base.attributes,
        element=o["element"] or base.element,
    )


MAX_STAT = 10**4
"""The highest weapon power, SLv, stat or resistance the calculator takes (far beyond the game)."""


def not_a_number(text: str) -> str:
    """Return the usage error's words for an option value that is no number (``'x' is not a
    number``), in the reader's language."""
    return say(msg("saga.usage.not_a_number", "{text!r} is not a number", text=text))


def _numbers(values: tuple[str, ...], option: str) -> list[Fraction]:
    nums = []
    for text in values:
        try:
            number = parse_number(text)
        except (ValueError, ZeroDivisionError):
            raise click.BadParameter(not_a_number(text), param_hint=option) from None
        if not 0 <= number <= MAX_STAT:
            raise click.BadParameter(
                say(
                    msg(
                        "saga.usage.number_range",
                        "{text} must be 0 to {most}",
                        text=text,
                        most=MAX_STAT,
                    )
                ),
                param_hint=option,
            )
        nums.append(number)
    return nums


def _average(values: tuple[str, ...], floor: bool, option: str) -> Fraction | int | None:
    if not values:
        return None
    nums = _numbers(values, option)
    if len(nums) == 1:
        return nums[0]
    if len(nums) > 2:
        raise click.BadParameter(
            say(msg("saga.usage.two_values", "give at most two values")), param_hint=option
        )
    return pw.average_weapon_power(int(nums[0]), int(nums[1])) if floor else pw.average_slv(*nums)


def _weapon_and_slv(o: dict[str, Any]) -> tuple[Fraction | int | None, Fraction | int | None]:
    weapon_power = _average(o["weapon_power"], True, "--weapon-power")
    slv = _average(o["slv"], False, "--slv")
    if o["battle_rank"] is not None:
        rank = cat.battle_rank(o["battle_rank"])
        weapon_power = rank.enemy_weapon_power if weapon_power is None else weapon_power
        slv = rank.enemy_slv if slv is None else slv
    return weapon_power, slv


def _check_needs(tech: cat.Tech, o: dict[str, Any], weapon_power: object, slv: object) -> None:
    group = pw.bonus_group(
        tech.weapon_type,
        enemy_actor=o["enemy"],
        as_spell=tech.weapon_type == "spell" or tech.has("treated-as-spell"),
    )
    if group == "armed" and weapon_power is None:
        raise RuleViolation("SAGA-ATK-5", _type_needs(tech, "--weapon-power"))
    if group != "inherited" and slv is None:
        raise RuleViolation("SAGA-ATK-5", _type_needs(tech, "--slv"))
    if tech.self_ability and o["self_stat"] is None:
        raise RuleViolation(
            "SAGA-ATK-5",
            msg(
                "saga.calc.self_stat_needed",
                "{tech} depends on {ability}: --self-stat is needed",
                tech=tech_term(tech.id),
                ability=term("ability", tech.self_ability),
            ),
        )
    if tech.target_ability and o["target_stat"] is None:
        raise RuleViolation(
            "SAGA-ATK-8",
            msg(
                "saga.calc.target_stat_needed",
                "{tech} is resisted by {ability}: --target-stat is needed",
                tech=tech_term(tech.id),
                ability=term("ability", tech.target_ability),
            ),
        )


def _type_needs(tech: cat.Tech, option: str) -> Msg:
    """SAGA-ATK-5's refusal of a calculation whose tech's weapon type needs ``option``."""
    return msg(
        "saga.calc.type_needs",
        "{tech} is a {weapon_type} tech: {option} is needed",
        tech=tech_term(tech.id),
        weapon_type=term("weapon_type", tech.weapon_type),
        option=option,
    )


def _units(tech: cat.Tech, o: dict[str, Any]) -> tuple[dmg.Attacker, dmg.Defender, dmg.Situation]:
    weapon_power, slv = _weapon_and_slv(o)
    _check_needs(tech, o, weapon_power, slv)
    return _attacker(o, weapon_power, slv), _defender(o), _situation(o)


def _attacker(
    o: dict[str, Any], weapon_power: Fraction | int | None, slv: Fraction | int | None
) -> dmg.Attacker:
    return dmg.Attacker(
        weapon_power=weapon_power,
        slv=slv,
        stat=o["self_stat"],
        five_level=o["five_self"],
        tech_power_effect=o["tech_power_effect"],
        attack_effect=o["attack_effect"],
        spell_effect=o["spell_effect"],
        tech_power_trait=o["tech_power_trait"],
        anger_trait=o["anger_trait"],
        attack_trait=o["attack_trait"],
        formation_attack_rate=o["formation_attack"],
        enemy=o["enemy"],
    )


def _defender(o: dict[str, Any]) -> dmg.Defender:
    return dmg.Defender(
        resistances=parse_resistances(o["resist"]),
        stat=o["target_stat"],
        five_level=o["five_target"],
        defense_effect=o["defense_effect"],
        tech_power_up=o["target_tech_power_up"],
        defense_resist_trait=o["defense_resist_trait"],
        defense_trait=o["defense_trait"],
        formation_defense_rate=o["formation_defense"],
        weapon_guard_rate=o["guard_rate"] or 0,
    )


def _situation(o: dict[str, Any]) -> dmg.Situation:
    return dmg.Situation(
        defending=o["defending"],
        guard=o["guard_rate"] is not None or o["protect"] is not None,
        protect_power=o["protect"],
        angry=o["anger"],
        slayer=o["slayer"],
        instant_death_class=o["instant_death_class"],
        combo_rate=o["combo_rate"],
        battle_five_level=o["five_battle"],
        earth_shield=o["earth_shield"],
    )


def _check_resistance(tech: cat.Tech, d: dmg.Defender) -> None:
    if not rs.resistance_void(tech.attributes, ignore_defense=tech.has("ignore-defense")):
        missing = [x for x in tech.attributes if x != "none" and x not in d.resistances]
        if missing:
            raise RuleViolation(
                "SAGA-ATK-8",
                msg(
                    "saga.calc.resist_needed",
                    "{tech} attacks with {attributes}: --resist is needed",
                    tech=tech_term(tech.id),
                    attributes=slashed([term("attribute", a) for a in missing]),
                ),
            )


def compute(tech_id: str | None, o: dict[str, Any]) -> dict[str, Any]:
    """Return the calculator's result as a JSON-ready dict (see ``--json``)."""
    tech = _tech(tech_id, o)
    a, d, s = _units(tech, o)
    _check_resistance(tech, d)
    out: dict[str, Any] = {"tech": tech.id, "processes": dmg.process_count(tech.attack_count)}
    reason = dmg.no_damage_reason(tech.power, tuple(o["outcome"]), release=tech.has("release"))
    if reason is not None:
        return {**out, "damage": None, "no_damage": reason}
    given = _roll(o["roll"])
    roll = random_factor(tech.random_width, roll=Fraction(1) if given is None else given)
    hit = dmg.compute_hit(tech, a, d, s, roll)
    lo, hi = random_range(tech.random_width)
    out.update(
        damage=hit.value,
        roll=num_text(roll),
        min=dmg.compute_hit(tech, a, d, s, lo).value,
        max=dmg.compute_hit(tech, a, d, s, hi).value,
    )
    out["displayed_power"] = dmg.displayed_power_of(tech, a, s.battle_five_level).value
    out["split"] = list(dmg.split_display(hit.value, cat.damage_split(tech.id)).value)
    out["breakdown"] = hit.breakdown
    return out
