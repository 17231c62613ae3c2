"""Preconditions of saga events: what each one depends on in the state it applies to.

They read only the state and the event's recorded fields (never a rule function, a table or a
catalogue), with the rule IDs and messages the evolvers used to raise. The session runs them on
every decided event; undo and redo run them on the later events to find those that depend on an
action taken back or restored (docs/saga.md, "Undo").

Source: saga-eb-damage.ja.txt; SAGA-ATK-2, SAGA-EFF-2, SAGA-FIVE-2, SAGA-HP-1..5,
SAGA-LP-1..3, SAGA-POISON-1, SAGA-REL-1.
"""

from __future__ import annotations

from tablelog.events.saga import (
    AttackAvoided,
    AttackDamageDealt,
    BloodPaid,
    EffectApplied,
    HPHealed,
    InstantDeathInflicted,
    PartyWiped,
    PoisonDamageTaken,
    ReleaseDamageTaken,
    TurnEnded,
    UnitAdded,
    UnitIncapacitated,
)
from tablelog.projections.core import RuleViolation, State, precondition, require
from tablelog.projections.saga.entities import Unit, effect_kind, unit_of
from tablelog.projections.saga.units import vitals_told
from tablelog.rules.saga.text import tech, term
from tablelog.text import Msg, msg

__all__: list[str] = []


@precondition(UnitAdded)
def _can_add(state: State, e: UnitAdded) -> None:
    require(
        e.name not in state.characters,
        "CORE-NAME",
        msg("saga.unit.exists", "a unit named {name!r} exists", name=e.name),
    )


@precondition(TurnEnded)
def _can_end_turn(state: State, e: TurnEnded) -> None:
    require(
        state.extra["battle"] is not None,
        "SAGA-FIVE-2",
        msg("saga.battle.none", "no battle has started"),
    )
    require(
        state.clock["turn"] == e.turn,
        "SAGA-FIVE-2",
        msg(
            "saga.turn.not_now",
            "the turn is {now}, not {turn}",
            now=state.clock["turn"],
            turn=e.turn,
        ),
    )


@precondition(EffectApplied)
def _can_apply(state: State, e: EffectApplied) -> None:
    unit = unit_of(state, e.target)
    unit_of(state, e.by)
    kind = effect_kind(e.kind)
    if kind is None:
        raise RuleViolation(
            "SAGA-EFF-2", msg("saga.effect.unknown", "unknown effect {kind!r}", kind=e.kind)
        )
    if e.landed and kind != "tech_power" and e.value_before is not None:
        now = unit["effects"][kind]
        require(
            now == e.value_before,
            "SAGA-EFF-2",
            msg(
                "saga.effect.decided_on",
                "{target}'s {kind} effect value is {now}; the buff was decided on {before}",
                target=e.target,
                kind=term("effect", e.kind),
                now=now,
                before=e.value_before,
            ),
        )


def _hp_stays_above_floor(unit: Unit, name: str, lost: int, what: Msg) -> None:
    told = msg(
        "saga.hp.floor_told",
        "{name} has {hp} HP and an HP floor of {floor}",
        name=name,
        hp=unit["hp"],
        floor=unit["hp_floor"],
    )
    require(
        unit["hp"] - lost >= unit["hp_floor"],
        "SAGA-HP-1",
        msg(
            "saga.hp.below_floor",
            "{what} takes {lost} HP; {told}",
            what=what,
            lost=lost,
            told=vitals_told(unit, name, told),
        ),
    )


@precondition(AttackDamageDealt)
def _can_hit(state: State, e: AttackDamageDealt) -> None:
    unit_of(state, e.actor)
    target = unit_of(state, e.target)
    require(
        0 <= e.damage <= 9999,
        "SAGA-ATK-2",
        msg("saga.hit.damage_range", "attack damage {damage} is outside 0..9999", damage=e.damage),
    )
    if e.hp_lost is not None:
        what = msg("saga.hit.whose", "{actor}'s {tech}", actor=e.actor, tech=tech(e.tech))
        _hp_stays_above_floor(target, e.target, e.hp_lost, what)


@precondition(AttackAvoided)
def _can_miss(state: State, e: AttackAvoided) -> None:
    unit_of(state, e.actor)
    unit_of(state, e.target)


@precondition(InstantDeathInflicted)
def _can_kill(state: State, e: InstantDeathInflicted) -> None:
    unit_of(state, e.target)


@precondition(HPHealed)
def _can_heal(state: State, e: HPHealed) -> None:
    unit = unit_of(state, e.unit)
    require(
        not unit["incapacitated"],
        "SAGA-HP-5",
        msg("saga.unit.incapacitated", "{unit} is incapacitated", unit=e.unit),
    )
    if e.healed is not None:
        told = msg(
            "saga.hp.of_max",
            "{name} has {hp}/{hp_max} HP",
            name=e.unit,
            hp=unit["hp"],
            hp_max=unit["hp_max"],
        )
        require(
            unit["hp"] + e.healed <= unit["hp_max"],
            "SAGA-HP-5",
            msg(
                "saga.heal.over_max",
                "the heal gives {healed} HP; {told}",
                healed=e.healed,
                told=vitals_told(unit, e.unit, told),
            ),
        )


@precondition(PoisonDamageTaken)
def _can_poison(state: State, e: PoisonDamageTaken) -> None:
    unit = unit_of(state, e.unit)
    turn = state.clock["turn"]
    require(
        unit["_poisoned_turn"] != turn or turn == 0,
        "SAGA-POISON-1",
        msg(
            "saga.poison.this_turn",
            "{unit} already took poison damage in turn {turn}",
            unit=e.unit,
            turn=turn,
        ),
    )
    require(
        unit["hp_floor"] == 0,
        "SAGA-HP-2",
        msg("saga.poison.has_floor", "{unit} has an HP floor: immune to poison", unit=e.unit),
    )
    if e.hp_lost is not None:
        told = msg("saga.hp.has", "{name} has {hp} HP", name=e.unit, hp=unit["hp"])
        require(
            e.hp_lost <= unit["hp"],
            "SAGA-HP-2",
            msg(
                "saga.poison.over_hp",
                "the poison takes {lost} HP; {told}",
                lost=e.hp_lost,
                told=vitals_told(unit, e.unit, told),
            ),
        )


@precondition(ReleaseDamageTaken)
def _can_release(state: State, e: ReleaseDamageTaken) -> None:
    unit = unit_of(state, e.unit)
    told = msg("saga.hp.short", "HP {hp}", hp=unit["hp"])
    require(
        0 <= e.damage < max(unit["hp"], 1),
        "SAGA-REL-1",
        msg(
            "saga.release.below_one",
            "release damage {damage} would leave {name} below 1 HP ({told})",
            damage=e.damage,
            name=e.unit,
            told=vitals_told(unit, e.unit, told),
        ),
    )


@precondition(BloodPaid)
def _can_pay(state: State, e: BloodPaid) -> None:
    unit = unit_of(state, e.unit)
    lp = unit["lp"]
    if lp is None or lp <= 0:
        raise RuleViolation(
            "SAGA-LP-2", msg("saga.blood.no_lp", "{unit} has no LP to pay", unit=e.unit)
        )
    if e.lp_lost is not None:
        told = msg("saga.lp.has", "{name} has {lp} LP", name=e.unit, lp=lp)
        require(
            e.lp_lost <= lp,
            "SAGA-LP-2",
            msg(
                "saga.blood.over_lp",
                "{tech} takes {lost} LP; {told}",
                tech=tech(e.tech),
                lost=e.lp_lost,
                told=vitals_told(unit, e.unit, told),
            ),
        )


@precondition(UnitIncapacitated)
def _can_fall(state: State, e: UnitIncapacitated) -> None:
    unit = unit_of(state, e.unit)
    told = msg("saga.hp.has", "{name} has {hp} HP", name=e.unit, hp=unit["hp"])
    require(
        unit["hp"] == 0,
        "SAGA-LP-1",
        msg("saga.fall.not_zero", "{told}, not 0", told=vitals_told(unit, e.unit, told)),
    )
    require(
        not unit["incapacitated"],
        "SAGA-LP-1",
        msg("saga.fall.already", "{unit} is already incapacitated", unit=e.unit),
    )
    if e.lp_lost:
        require(
            unit["lp"] is not None,
            "SAGA-LP-1",
            msg("saga.fall.no_lp", "{unit} has no LP", unit=e.unit),
        )


@precondition(PartyWiped)
def _can_wipe(state: State, e: PartyWiped) -> None:
    for name, lp in (e.lp_before or {}).items():
        effect = (e.lp_damage_effect or {}).get(name, 0)
        unit = unit_of(state, name)
        require(
            (unit["lp"], unit["lp_damage_effect"]) == (lp, effect),
            "SAGA-LP-3",
            msg(
                "saga.wipe.decided_on",
                "the wipe was decided with {name} at {lp} LP (LP-damage effect {effect}); "
                "{name} has {now} LP (LP-damage effect {now_effect})",
                name=name,
                lp=lp,
                effect=effect,
                now=unit["lp"],
                now_effect=unit["lp_damage_effect"],
            ),
        )
