"""``saga cast``: one tech activation — Blood LP, every hit with its drawn random factor, misses,
instant death, drain, incapacitation.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ, 現在HPの変動, 現在LPの変動; SAGA-ATK-1..16,
SAGA-DISP-2..3, SAGA-HP-1, SAGA-HP-4, SAGA-HP-5, SAGA-LP-1, SAGA-LP-2.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import attrs

from tablelog.commands.core import decider
from tablelog.commands.saga import inputs
from tablelog.commands.saga.situation import parse_situation
from tablelog.events.core import Event
from tablelog.events.saga import (
    AttackAvoided,
    AttackDamageDealt,
    BloodPaid,
    HPHealed,
    InstantDeathInflicted,
    UnitIncapacitated,
)
from tablelog.projections.core import State, evolve
from tablelog.projections.saga.units import unit_of
from tablelog.rules.core import draw_fraction, draw_index, require
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import damage as dmg
from tablelog.rules.saga.corrections import random_factor
from tablelog.rules.saga.vitals import lp_after_blood

__all__ = ["CastTech", "incapacitations"]

_MULTI_TARGET = ("all", "area-back", "ally-all")


@attrs.frozen
class CastTech:
    """Use a tech: ``targets`` by name, an optional reported random factor, the table's
    situation as ``(key, value)`` text pairs, and the tech's rank (catalogue techs)."""

    actor: str
    tech: str
    targets: tuple[str, ...]
    roll: Fraction | None = None
    situation: tuple[tuple[str, str], ...] = ()
    rank: int = 1


def _blood(name: str, unit: dict[str, Any], tech: cat.Tech, table: dict[str, Any]) -> list[Event]:
    if not tech.lp_cost or table.get("overdrive"):
        return []
    require(
        unit["lp"] is not None,
        "SAGA-LP-2",
        f"{tech.id} is a Blood tech, but {name}'s LP is not tracked (add the unit with --lp)",
    )
    lp_after_blood(
        unit["lp"], unit["lp_damage_effect"], tech.lp_cost, confused=table.get("confused", False)
    )
    return [BloodPaid(unit=name, tech=tech.id, lp_cost=tech.lp_cost)]


def _plan(state: State, c: CastTech, tech: cat.Tech) -> list[tuple[int, int]]:
    processes = range(1, dmg.process_count(tech.attack_count) + 1)
    if tech.target == "random-multi" and len(c.targets) > 1:
        key = ("saga.target", state.seq + 1)
        return [(p, draw_index(state.seed, len(c.targets), *key, p)) for p in processes]
    return [(p, t) for p in processes for t in range(len(c.targets))]


def _prepare(
    state: State, c: CastTech, actor: dict[str, Any], name: str, tech: cat.Tech, table: dict
) -> tuple[dmg.Attacker, dmg.Defender, dmg.Situation]:
    target = unit_of(state, name)
    effective = inputs.effective_of(tech, target)
    return (
        inputs.attacker_of(c.actor, actor, tech, effective),
        inputs.defender_of(name, target, tech, effective),
        inputs.situation_for(state, tech, target, table),
    )


def _hits(state: State, c: CastTech, tech: cat.Tech, table: dict[str, Any]) -> list[Event]:
    actor = unit_of(state, c.actor)
    reason = dmg.no_damage_reason(tech.power, (table["outcome"],) if "outcome" in table else ())
    if reason is not None:
        return [
            AttackAvoided(actor=c.actor, target=t, tech=tech.id, reason=reason) for t in c.targets
        ]
    prepared = [_prepare(state, c, actor, name, tech, table) for name in c.targets]
    events: list[Event] = []
    split = cat.damage_split(tech.id)
    for process, ti in _plan(state, c, tech):
        draw = draw_fraction(state.seed, "saga.random", state.seq + 1, process, ti)
        factor = random_factor(tech.random_width, draw=draw, roll=c.roll)
        hit = dmg.compute_hit(tech, *prepared[ti], factor)
        events.append(
            AttackDamageDealt(
                actor=c.actor,
                target=c.targets[ti],
                tech=tech.id,
                process=process,
                processes=dmg.process_count(tech.attack_count),
                damage=hit.value,
                random_factor=factor,
                shown=dmg.split_display(hit.value, split).value,
                hidden=table.get("instant_death", False),
                support=table.get("support", False),
                breakdown={
                    **hit.breakdown,
                    "random_source": "reported roll" if c.roll is not None else "drawn",
                },
            )
        )
    return events


def _aftermath(state: State, c: CastTech, hits: list[Event], table: dict[str, Any]) -> list[Event]:
    dealt = [e for e in hits if isinstance(e, AttackDamageDealt)]
    out: list[Event] = []
    if table.get("instant_death"):
        out += [
            InstantDeathInflicted(target=t, tech=c.tech)
            for t in dict.fromkeys(e.target for e in dealt)
        ]
    if table.get("drain") and dealt:
        out.append(HPHealed(unit=c.actor, amount=sum(e.damage for e in dealt), kind="drain"))
    if table.get("full_heal"):
        out.append(HPHealed(unit=c.actor, amount=unit_of(state, c.actor)["hp_max"], kind="full"))
    return out


def incapacitations(state: State, events: list[Event], names: list[str]) -> list[Event]:
    """Return the UnitIncapacitated events for units that ``events`` bring to 0 HP.

    An ally with tracked LP loses 1 LP (SAGA-LP-1); enemies and untracked LP lose none.
    """
    trial = copy.deepcopy(state)
    for e in events:
        evolve(trial, e)
    out: list[Event] = []
    for name in dict.fromkeys(names):
        unit = trial.characters[name]
        if unit["hp"] == 0 and not unit["incapacitated"]:
            lost = 1 if unit["side"] == "ally" and unit["lp"] else 0
            out.append(UnitIncapacitated(unit=name, lp_lost=lost))
    return out


@decider(CastTech)
def decide_cast(state: State, c: CastTech) -> list[Event]:
    """Decide one activation of a tech against its targets.

    Raises:
        RuleViolation: UNKNOWN-NAME (unit or tech), SAGA-LP-1 (actor incapacitated),
            SAGA-ATK-2 (target count), SAGA-LP-2 (Blood cost ≥ LP), SAGA-ATK-11 (situation),
            SAGA-ATK-16 (roll outside the width), SAGA-ATK-5/8 (missing stats).
    """
    actor = unit_of(state, c.actor)
    tech = inputs.tech_of(state, c.tech, c.rank)
    for name in c.targets:
        unit_of(state, name)
    require(not actor["incapacitated"], "SAGA-LP-1", f"{c.actor} is incapacitated and cannot act")
    require(c.targets, "SAGA-ATK-2", f"{tech.id} needs at least one --target")
    require(
        len(c.targets) == 1 or tech.target in (*_MULTI_TARGET, "random-multi"),
        "SAGA-ATK-2",
        f"{tech.id} hits one target ({tech.target}): give one --target, not {len(c.targets)}",
    )
    table = parse_situation(c.situation)
    events = _blood(c.actor, actor, tech, table)
    events += _hits(state, c, tech, table)
    events += _aftermath(state, c, events, table)
    return events + incapacitations(state, events, [*c.targets, c.actor])
