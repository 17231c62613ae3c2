"""Evolvers and preconditions of code casts, chants, effects, damage and healing.

Evolvers apply what the events record and never raise. The preconditions hold the checks of what
an event depends on: the caster can pay, the cast or release behind an outcome is in effect (the
refusal names it by its seq), the defense tiles a hit used are there.
"""

from __future__ import annotations

from tablelog.events.fate import (
    Chanted,
    CodeCast,
    DamageTaken,
    EffectRaised,
    Healed,
    InjuryHealed,
    ManaAbsorbed,
)
from tablelog.projections.core import RuleViolation, State, evolver, precondition, require
from tablelog.projections.fate.entities import Character, Effect, find
from tablelog.projections.fate.records import (
    CAST,
    RELEASE,
    adjust,
    character,
    fate_extra,
    next_effect_id,
    register_action,
    require_action_free,
    require_cause,
)
from tablelog.projections.fate.turns import A_CODE_CAST, mark_judgment, require_no_np_turn
from tablelog.rules.fate import check_buff_held, count, kind_term
from tablelog.text import msg

__all__: list[str] = []


_EFFECT_RULE = {
    "defense": "FATE-CAST-5",
    "buff": "FATE-CAST-7",
    "curse": "FATE-CAST-8",
    "np-defense": "FATE-NP-9",
}


@precondition(Chanted)
def _may_chant(state: State, e: Chanted) -> None:
    who = character(state, e.name, "FATE-CHANT-1")
    require(
        who["row"] == "front",
        "FATE-CHANT-3",
        msg("fate.chant.back_row", "{name} is in the back row and cannot chant", name=e.name),
    )


@evolver(Chanted)
def _chanted(state: State, e: Chanted) -> None:
    who = find(state, e.name)
    if who is not None:
        who["chants"] += 1


@precondition(CodeCast)
def _may_cast(state: State, e: CodeCast) -> None:
    who = character(state, e.caster, "FATE-CAST-2")
    require(
        who["tiles"] >= e.pool_tiles,
        "FATE-CAST-2",
        msg(
            "fate.cast.short_tiles",
            "{caster} has {has}; the cast takes {tiles}",
            caster=e.caster,
            has=count(who["tiles"], "tile"),
            tiles=e.pool_tiles,
        ),
    )
    require(
        who["mp"] >= e.mp,
        "FATE-CAST-3",
        msg(
            "fate.cast.short_mp",
            "{caster} has {has} MP; the cast costs {mp}",
            caster=e.caster,
            has=who["mp"],
            mp=e.mp,
        ),
    )
    require(
        who["hp"] > e.hp or e.hp == 0,
        "FATE-CC-10",
        msg(
            "fate.cast.short_hp",
            "{caster} has {has} HP; the crest spell costs {hp}",
            caster=e.caster,
            has=who["hp"],
            hp=e.hp,
        ),
    )
    require(
        who["chants"] == e.chants,
        "FATE-CHANT-1",
        msg(
            "fate.cast.chants_differ",
            "{caster} has {has} pending; the cast used {chants}",
            caster=e.caster,
            has=count(who["chants"], "chant"),
            chants=e.chants,
        ),
    )
    require_action_free(state, e.action, CAST, "FATE-CAST-1")
    require_no_np_turn(state, e.caster, who, A_CODE_CAST)


@evolver(CodeCast)
def _code_cast(state: State, e: CodeCast) -> None:
    register_action(state, e.action)
    who = find(state, e.caster)
    if who is None:
        return
    who["tiles"] = max(0, who["tiles"] - e.pool_tiles)
    who["mp"] = max(0, who["mp"] - e.mp)
    who["hp"] = max(0, who["hp"] - e.hp)
    who["chants"] = 0
    mark_judgment(state, who, A_CODE_CAST)


@precondition(EffectRaised)
def _effect_holds(state: State, e: EffectRaised) -> None:
    """The target is there, the cast or release is in effect, the id is new, and an un-chanted
    buff finds no un-chanted buff on its target (FATE-CAST-7)."""
    who = character(state, e.target)
    label = RELEASE if e.kind == "np-defense" else CAST
    rule_id = _EFFECT_RULE.get(e.kind, "FATE-CAST-5")
    kind = kind_term(e.kind)
    what = msg("fate.cause.effect", "{kind} on {target}", kind=kind, target=e.target)
    require_cause(state, e.cause, rule_id, what, label, kind)
    require(
        e.effect_id >= next_effect_id(state),
        rule_id,
        msg(
            "fate.effect.out_of_order",
            "effect #{effect} is out of order (next is #{next})",
            effect=e.effect_id,
            next=next_effect_id(state),
        ),
    )
    if e.kind == "buff":
        check_buff_held(e.target, who["effects"], e.chanted)


@evolver(EffectRaised)
def _effect_raised(state: State, e: EffectRaised) -> None:
    fate_extra(state)["next_effect"] = e.effect_id + 1
    who = find(state, e.target)
    if who is None:
        return
    who["effects"].append(
        {
            "id": e.effect_id,
            "kind": e.kind,
            "grade": e.grade,
            "tiles": e.tiles,
            "turns_left": e.turns,
            "target": e.target,
            "source": e.source,
            "block_hp": e.block_hp,
            "block_mp": e.block_mp,
            "injury": e.injury,
            "per_turn": e.per_turn,
            "chanted": e.chanted,
            "counter": e.counter,
        }
    )


def _effect(who: Character, effect_id: str) -> Effect | None:
    return next((x for x in who["effects"] if str(x["id"]) == effect_id), None)


@precondition(DamageTaken)
def _damage_holds(state: State, e: DamageTaken) -> None:
    """The target is there, the cast or release is in effect, every defense tile the hits used
    is there (and a per-turn one has tiles left this turn), the chants it broke are pending."""
    who = character(state, e.name)
    label, rule_id = (RELEASE, "FATE-NP-6") if "np" in e.breakdown else (CAST, "FATE-CAST-4")
    what = msg("fate.cause.damage", "damage to {name}", name=e.name)
    require_cause(state, e.cause, rule_id, what, label, msg("fate.noun.damage", "damage"))
    used = who["_turn_use"]
    for effect_id, tiles in e.spent.items():
        effect = _effect(who, effect_id)
        if effect is None or effect["tiles"] < tiles:
            raise RuleViolation(
                "FATE-CAST-5",
                msg(
                    "fate.damage.no_effect",
                    "{name} has no effect #{effect} with {tiles} left",
                    name=e.name,
                    effect=effect_id,
                    tiles=count(tiles, "tile"),
                ),
            )
        if effect["per_turn"] is not None:
            require(
                used.get(effect_id, 0) + tiles <= effect["per_turn"],
                "FATE-NP-9",
                msg(
                    "fate.damage.per_turn",
                    "{name}'s effect #{effect} gives {tiles} a turn",
                    name=e.name,
                    effect=effect_id,
                    tiles=count(effect["per_turn"], "tile"),
                ),
            )
    if e.chants_cancelled:
        require(
            who["chants"] == e.chants_cancelled,
            "FATE-CHANT-2",
            msg(
                "fate.damage.chants_differ",
                "{name} has {has} pending; the damage cancels {chants}",
                name=e.name,
                has=count(who["chants"], "chant"),
                chants=e.chants_cancelled,
            ),
        )


@evolver(DamageTaken)
def _damage_taken(state: State, e: DamageTaken) -> None:
    who = find(state, e.name)
    if who is None:
        return
    used = who["_turn_use"]
    for effect_id, tiles in e.spent.items():
        effect = _effect(who, effect_id)
        if effect is None:
            continue
        if effect["per_turn"] is not None:
            used[effect_id] = used.get(effect_id, 0) + tiles
        effect["tiles"] -= tiles
    who["effects"] = [x for x in who["effects"] if x["tiles"] > 0]
    if e.chants_cancelled:
        who["chants"] = 0
    who["hp"] = max(0, who["hp"] - e.hp)
    who["mp"] = max(0, who["mp"] - e.mp)
    who["injury"] += e.injury
    if e.wound:
        wounds = who["_wounds"]
        wounds[e.wound] = wounds.get(e.wound, 0) + e.injury


@precondition(Healed)
def _heal_holds(state: State, e: Healed) -> None:
    character(state, e.name)
    require_cause(
        state,
        e.cause,
        "FATE-CAST-6",
        msg("fate.cause.healing", "healing of {name}", name=e.name),
        CAST,
        msg("fate.noun.healing", "healing"),
    )


@evolver(Healed)
def _healed(state: State, e: Healed) -> None:
    adjust(state, e.name, "hp", e.hp, "hp_max")


@precondition(InjuryHealed)
def _injury_heal_holds(state: State, e: InjuryHealed) -> None:
    character(state, e.name)
    require_cause(
        state,
        e.cause,
        "FATE-CAST-9",
        msg("fate.cause.injury_healing", "injury healing of {name}", name=e.name),
        CAST,
        msg("fate.noun.injury_healing", "injury healing"),
    )
    require(
        not state.clock.get("battle"),
        "FATE-CAST-9",
        msg("fate.injury.in_battle", "injuries heal only outside battle"),
    )


@evolver(InjuryHealed)
def _injury_healed(state: State, e: InjuryHealed) -> None:
    adjust(state, e.name, "injury", -e.grades)


@precondition(ManaAbsorbed)
def _absorber_there(state: State, e: ManaAbsorbed) -> None:
    character(state, e.name, "FATE-NP-13")


@evolver(ManaAbsorbed)
def _mana_absorbed(state: State, e: ManaAbsorbed) -> None:
    adjust(state, e.name, "mp", e.mp, "mp_max")
