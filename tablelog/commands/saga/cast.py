"""``saga cast``: one tech activation — Blood LP, 解き放つ's release damage, every hit with its
drawn random factor, misses, instant death, drain, incapacitation.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ, 解放ダメージ, 現在HPの変動, 現在LPの変動;
SAGA-ATK-1..16, SAGA-DISP-2..3, SAGA-REL-1, SAGA-HP-1, SAGA-HP-4, SAGA-HP-5, SAGA-LP-1, SAGA-LP-2.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from tablelog.commands.core import decider
from tablelog.commands.saga import inputs
from tablelog.commands.saga.outcomes import incapacitations, settle
from tablelog.commands.saga.situation import parse_situation
from tablelog.events.core import Event
from tablelog.events.saga import (
    AttackAvoided,
    AttackDamageDealt,
    BloodPaid,
    HPHealed,
    InstantDeathInflicted,
    ReleaseDamageTaken,
)
from tablelog.projections.core import State, random_seed
from tablelog.projections.saga.entities import Unit, unit_of
from tablelog.rules.core import RuleViolation, draw_fraction, draw_index, require
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import damage as dmg
from tablelog.rules.saga.corrections import random_factor
from tablelog.rules.saga.text import tech as tech_term
from tablelog.rules.saga.text import term
from tablelog.rules.saga.vitals import lp_after_blood, release_damage
from tablelog.text import msg

__all__ = ["CastTech"]

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


def _blood(name: str, unit: Unit, tech: cat.Tech, table: dict[str, Any]) -> list[Event]:
    """Return the Blood payment of ``tech``: its LP outside an overdrive, the LP-damage effect
    value in and out of one; refused when the cost is not below the LP (SAGA-LP-2, -4)."""
    if not tech.lp_cost:
        return []
    lp = unit["lp"]
    if lp is None:
        raise RuleViolation(
            "SAGA-LP-2",
            msg(
                "saga.blood.untracked",
                "{tech} is a Blood tech, but {name}'s LP is not tracked (add the unit with --lp)",
                tech=tech_term(tech.id),
                name=name,
            ),
        )
    overdrive = table.get("overdrive", False)
    paid = lp_after_blood(
        lp,
        unit["lp_damage_effect"],
        tech.lp_cost,
        confused=table.get("confused", False),
        overdrive=overdrive,
    ).value
    return [
        BloodPaid(
            unit=name,
            tech=tech.id,
            lp_cost=tech.lp_cost,
            lp_lost=lp - paid["lp"],
            lp_damage_effect_gain=paid["lp_damage_effect"] - unit["lp_damage_effect"],
            incapacitated=paid["incapacitated"],
            overdrive=overdrive,
        )
    ]


def _release(name: str, unit: Unit, tech: cat.Tech, table: dict[str, Any]) -> list[Event]:
    """Return the release damage of 解き放つ to its user: min(⌊max HP × 0.2⌋, HP − 1), 0 in an
    overdrive (SAGA-REL-1); nothing for any other tech."""
    if not tech.has("release"):
        return []
    hit = release_damage(unit["hp_max"], unit["hp"], overdrive=table.get("overdrive", False))
    return [ReleaseDamageTaken(unit=name, damage=hit.value, breakdown=hit.breakdown)]


def _random_targets(c: CastTech, tech: cat.Tech) -> bool:
    """Whether tablelog draws the target of each hit (SAGA-ATK-2: a random-multi tech at two or
    more targets): an outcome it rolls even when the factor is reported (CORE-REROLL)."""
    return tech.target == "random-multi" and len(c.targets) > 1


def _plan(state: State, c: CastTech, tech: cat.Tech, draw_no: int) -> list[tuple[int, int]]:
    processes = range(1, dmg.process_count(tech.attack_count) + 1)
    if _random_targets(c, tech):
        key = ("saga.target", draw_no)
        return [(p, draw_index(random_seed(state), len(c.targets), *key, p)) for p in processes]
    return [(p, t) for p in processes for t in range(len(c.targets))]


def _prepare(
    state: State,
    c: CastTech,
    actor: Unit,
    name: str,
    tech: cat.Tech,
    table: dict[str, Any],
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
    outcome = (table["outcome"],) if "outcome" in table else ()
    reason = dmg.no_damage_reason(tech.power, outcome, release=tech.has("release"))
    if reason is not None:
        return [
            AttackAvoided(actor=c.actor, target=t, tech=tech.id, reason=reason) for t in c.targets
        ]
    prepared = [_prepare(state, c, actor, name, tech, table) for name in c.targets]
    events: list[Event] = []
    split = cat.damage_split(tech.id)
    draw_no = state.extra.get("draws", 0)
    for process, ti in _plan(state, c, tech, draw_no):
        draw = draw_fraction(random_seed(state), "saga.random", draw_no, process, ti)
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
                    **({"random_targets": "drawn"} if _random_targets(c, tech) else {}),
                },
                draw_no=draw_no,
            )
        )
    return events


def _aftermath(
    state: State, c: CastTech, tech: cat.Tech, hits: list[Event], table: dict[str, Any]
) -> list[Event]:
    dealt = [e for e in hits if isinstance(e, AttackDamageDealt)]
    out: list[Event] = []
    if table.get("instant_death"):
        out += [
            InstantDeathInflicted(target=t, tech=tech.id)  # the id, whatever name was typed
            for t in dict.fromkeys(e.target for e in dealt)
        ]
    if table.get("drain") and dealt:
        out.append(HPHealed(unit=c.actor, amount=sum(e.damage for e in dealt), kind="drain"))
    if table.get("full_heal"):
        out.append(HPHealed(unit=c.actor, amount=unit_of(state, c.actor)["hp_max"], kind="full"))
    return out


@decider(CastTech)
def decide_cast(state: State, c: CastTech) -> list[Event]:
    """Decide one activation of a tech against its targets.

    Raises:
        RuleViolation: UNKNOWN-NAME (unit or tech), SAGA-LP-1 (actor incapacitated),
            SAGA-TARGET-1 (a target incapacitated), SAGA-ATK-2 (target count),
            SAGA-LP-2 (Blood cost ≥ LP), SAGA-ATK-11 (situation),
            SAGA-ATK-16 (roll outside the width), SAGA-ATK-5/8 (missing stats).
    """
    actor = unit_of(state, c.actor)
    tech = inputs.tech_of(state, c.tech, c.rank)
    for name in c.targets:
        unit_of(state, name)
    require(
        not actor["incapacitated"],
        "SAGA-LP-1",
        msg("saga.cast.incapacitated", "{actor} is incapacitated and cannot act", actor=c.actor),
    )
    for name in c.targets:
        require(
            not unit_of(state, name)["incapacitated"],
            "SAGA-TARGET-1",
            msg(
                "saga.cast.target_down",
                "{target} is incapacitated: no tech targets it",
                target=name,
            ),
        )
    require(
        c.targets,
        "SAGA-ATK-2",
        msg("saga.cast.no_target", "{tech} needs at least one --target", tech=tech_term(tech.id)),
    )
    require(
        len(c.targets) == 1 or tech.target in (*_MULTI_TARGET, "random-multi"),
        "SAGA-ATK-2",
        msg(
            "saga.cast.one_target",
            "{tech} hits one target ({kind}): give one --target, not {n}",
            tech=tech_term(tech.id),
            kind=term("target", tech.target),
            n=len(c.targets),
        ),
    )
    table = parse_situation(c.situation)
    events = _blood(c.actor, actor, tech, table) + _release(c.actor, actor, tech, table)
    events += _hits(state, c, tech, table)
    events += _aftermath(state, c, tech, events, table)
    events, trial = settle(state, events)
    return events + incapacitations(trial, [*c.targets, c.actor])
