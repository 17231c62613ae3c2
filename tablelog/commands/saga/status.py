"""SaGa commands for buffs and debuffs, poison and release damage.

Source: saga-eb-damage.ja.txt, 効果値, 毒ダメージ, 解放ダメージ; SAGA-EFF-1..3,
SAGA-POISON-1..2, SAGA-REL-1, SAGA-HP-2, SAGA-HP-3.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from tablelog.commands.core import decider
from tablelog.commands.saga.inputs import tech_of
from tablelog.commands.saga.outcomes import incapacitations, settle
from tablelog.events.core import Event
from tablelog.events.saga import EffectApplied, PoisonDamageTaken, ReleaseDamageTaken
from tablelog.projections.core import State, random_seed
from tablelog.projections.saga.entities import EffectKind, unit_of
from tablelog.projections.saga.units import vitals_told
from tablelog.rules.core import draw_fraction, require
from tablelog.rules.saga import vitals
from tablelog.rules.saga.effects import buff_effect_after, buff_lands
from tablelog.text import msg

__all__ = ["ApplyBuff", "PoisonUnit", "ReleaseUnit"]


@attrs.frozen
class ApplyBuff:
    """Give ``target`` buffs/debuffs (performance values) and/or tech-power-up, by ``by``
    (optionally with ``tech``, which decides whether a debuff on the other side lands)."""

    target: str
    by: str
    tech_power: int | None = None
    attack: int | None = None
    defense: int | None = None
    spell: int | None = None
    tech: str | None = None


@attrs.frozen
class PoisonUnit:
    """``name`` is poisoned and takes poison damage at its timeline position."""

    name: str
    roll: Fraction | None = None
    waiting: bool = False


@attrs.frozen
class ReleaseUnit:
    """``name`` uses 解き放つ (release) and takes release damage (none in an overdrive)."""

    name: str
    overdrive: bool = False


def _lands(state: State, c: ApplyBuff) -> tuple[bool, str]:
    """Return whether the buffs land and, for a tech on the other side, why (SAGA-EFF-3)."""
    same_side = unit_of(state, c.target)["side"] == unit_of(state, c.by)["side"]
    if c.tech is None or same_side:
        return True, ""
    tech = tech_of(state, c.tech)
    damage = state.extra["last_hits"].get(f"{c.by}>{c.target}", {}).get(tech.id)
    landed = buff_lands(same_side=same_side, tech_power=tech.power, attack_damage=damage)
    if tech.power == 0:
        why = f"{tech.id} has power 0"
    elif damage is None:
        why = f"{c.by} has not hit {c.target} with {tech.id} in this battle"
    else:
        why = f"{c.by}'s latest {tech.id} on {c.target} dealt {damage} damage"
    return landed, why


@decider(ApplyBuff)
def decide_buff(state: State, c: ApplyBuff) -> list[Event]:
    """Decide buffs/debuffs: tech-power-up always lands; the others per SAGA-EFF-3: on the
    giver's side, without a tech or with a power-0 tech they land; with a tech on the other side
    only if the giver's latest hit of that tech on the target dealt damage ≠ 0 (the reason is
    recorded).

    The event records the tech's id (a Japanese name given for it is resolved).

    Raises:
        RuleViolation: UNKNOWN-NAME (also for a tech neither defined nor in the catalogue);
            SAGA-EFF-2 when nothing is given; SAGA-EFF-1 for a negative tech-power-up.
    """
    kinds: dict[EffectKind, int | None] = {
        "tech_power": c.tech_power,
        "attack": c.attack,
        "defense": c.defense,
        "spell": c.spell,
    }
    given = {k: v for k, v in kinds.items() if v is not None}
    require(
        given,
        "SAGA-EFF-2",
        msg("saga.buff.none", "give at least one of --tech-power --attack --defense --spell"),
    )
    require(
        (c.tech_power or 0) >= 0,
        "SAGA-EFF-1",
        msg("saga.buff.negative_tech_power", "a tech-power-up value is not negative"),
    )
    landed, why = _lands(state, c)
    tech = None if c.tech is None else tech_of(state, c.tech).id  # a Japanese name: its id
    effects = unit_of(state, c.target)["effects"]
    return [
        EffectApplied(
            target=c.target,
            by=c.by,
            kind=k,
            performance=v,
            tech=tech,
            landed=landed or k == "tech_power",
            value_before=effects[k],
            value_after=_effect_after(effects[k], k, v, landed),
            reason="" if k == "tech_power" else why,
        )
        for k, v in given.items()
    ]


def _effect_after(value: int, kind: str, performance: int, landed: bool) -> int:
    """Return the effect value a buff leaves: tech-power-up sets it (SAGA-EFF-1), a buff or
    debuff that lands moves it within its clamp (SAGA-EFF-2), one that fails leaves it."""
    if kind == "tech_power":
        return performance
    return buff_effect_after(value, performance) if landed else value


@decider(PoisonUnit)
def decide_poison(state: State, c: PoisonUnit) -> list[Event]:
    """Decide poison damage with a drawn (or reported) random factor.

    Raises:
        RuleViolation: UNKNOWN-NAME; SAGA-POISON-1 (at 0 HP, or poisoned this turn);
            SAGA-HP-2 (an enemy with an HP floor is immune); SAGA-POISON-2 (roll, intrinsic HP).
    """
    unit = unit_of(state, c.name)
    turn = state.clock["turn"]
    require(
        unit["hp"] > 0 and not unit["incapacitated"],
        "SAGA-POISON-1",
        msg("saga.unit.down", "{unit} is down", unit=c.name),
    )
    require(
        turn == 0 or unit["_poisoned_turn"] != turn,
        "SAGA-POISON-1",
        msg(
            "saga.poison.this_turn",
            "{unit} already took poison damage in turn {turn}",
            unit=c.name,
            turn=turn,
        ),
    )
    told = msg(
        "saga.hp.floor_of", "{name} has an HP floor of {floor}", name=c.name, floor=unit["hp_floor"]
    )
    require(
        unit["hp_floor"] == 0,
        "SAGA-HP-2",
        msg(
            "saga.poison.floor_immune",
            "{told}: immune to poison",
            told=vitals_told(unit, c.name, told),
        ),
    )
    base = vitals.poison_base(
        unit["hp_max"], enemy=unit["side"] == "enemy", intrinsic_hp=unit["intrinsic_hp"]
    )
    draw_no = state.extra.get("draws", 0)
    draw = draw_fraction(random_seed(state), "saga.poison", draw_no)
    factor = vitals.poison_random(draw=draw, roll=c.roll)
    hit = vitals.poison_damage(base.value, waiting=c.waiting, random=factor)
    poisoned = PoisonDamageTaken(
        unit=c.name,
        damage=hit.value,
        random_factor=factor,
        waiting=c.waiting,
        breakdown=hit.breakdown,
        draw_no=draw_no,
    )
    events, trial = settle(state, [poisoned])
    return events + incapacitations(trial, [c.name])


@decider(ReleaseUnit)
def decide_release(state: State, c: ReleaseUnit) -> list[Event]:
    """Decide release damage: min(⌊max HP × 0.2⌋, HP − 1), 0 in an overdrive.

    Raises:
        RuleViolation: UNKNOWN-NAME; SAGA-REL-1 when the unit is down.
    """
    unit = unit_of(state, c.name)
    require(
        unit["hp"] > 0 and not unit["incapacitated"],
        "SAGA-REL-1",
        msg("saga.unit.down", "{unit} is down", unit=c.name),
    )
    hit = vitals.release_damage(unit["hp_max"], unit["hp"], overdrive=c.overdrive)
    return [ReleaseDamageTaken(unit=c.name, damage=hit.value, breakdown=hit.breakdown)]
