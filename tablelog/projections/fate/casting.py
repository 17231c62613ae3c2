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
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.fate.entities import Character, Effect, find
from tablelog.projections.fate.records import (
    adjust,
    character,
    fate_extra,
    next_effect_id,
    register_action,
    require_action_free,
    require_cause,
)
from tablelog.projections.fate.turns import mark_judgment, require_no_np_turn
from tablelog.rules.fate import check_buff_held, count

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
    require(who["row"] == "front", "FATE-CHANT-3", f"{e.name} is in the back row and cannot chant")


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
        f"{e.caster} has {count(who['tiles'], 'tile')}; the cast takes {e.pool_tiles}",
    )
    require(
        who["mp"] >= e.mp, "FATE-CAST-3", f"{e.caster} has {who['mp']} MP; the cast costs {e.mp}"
    )
    require(
        who["hp"] > e.hp or e.hp == 0,
        "FATE-CC-10",
        f"{e.caster} has {who['hp']} HP; the crest spell costs {e.hp}",
    )
    require(
        who["chants"] == e.chants,
        "FATE-CHANT-1",
        f"{e.caster} has {count(who['chants'], 'chant')} pending; the cast used {e.chants}",
    )
    require_action_free(state, e.action, "cast", "FATE-CAST-1")
    require_no_np_turn(state, e.caster, who, "a code cast")


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
    mark_judgment(state, who, "a code cast")


@precondition(EffectRaised)
def _effect_holds(state: State, e: EffectRaised) -> None:
    """The target is there, the cast or release is in effect, the id is new, and an un-chanted
    buff finds no un-chanted buff on its target (FATE-CAST-7)."""
    who = character(state, e.target)
    label = "release" if e.kind == "np-defense" else "cast"
    rule_id = _EFFECT_RULE.get(e.kind, "FATE-CAST-5")
    require_cause(state, e.cause, rule_id, f"{e.kind} on {e.target}", label, e.kind)
    require(
        e.effect_id >= next_effect_id(state),
        rule_id,
        f"effect #{e.effect_id} is out of order (next is #{next_effect_id(state)})",
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
    label, rule_id = ("release", "FATE-NP-6") if "np" in e.breakdown else ("cast", "FATE-CAST-4")
    require_cause(state, e.cause, rule_id, f"damage to {e.name}", label, "damage")
    used = who["_turn_use"]
    for effect_id, tiles in e.spent.items():
        effect = _effect(who, effect_id)
        require(
            effect is not None and effect["tiles"] >= tiles,
            "FATE-CAST-5",
            f"{e.name} has no effect #{effect_id} with {count(tiles, 'tile')} left",
        )
        assert effect is not None
        if effect["per_turn"] is not None:
            require(
                used.get(effect_id, 0) + tiles <= effect["per_turn"],
                "FATE-NP-9",
                f"{e.name}'s effect #{effect_id} gives {count(effect['per_turn'], 'tile')} a turn",
            )
    if e.chants_cancelled:
        require(
            who["chants"] == e.chants_cancelled,
            "FATE-CHANT-2",
            f"{e.name} has {count(who['chants'], 'chant')} pending;"
            f" the damage cancels {e.chants_cancelled}",
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
    require_cause(state, e.cause, "FATE-CAST-6", f"healing of {e.name}", "cast", "healing")


@evolver(Healed)
def _healed(state: State, e: Healed) -> None:
    adjust(state, e.name, "hp", e.hp, "hp_max")


@precondition(InjuryHealed)
def _injury_heal_holds(state: State, e: InjuryHealed) -> None:
    character(state, e.name)
    require_cause(
        state, e.cause, "FATE-CAST-9", f"injury healing of {e.name}", "cast", "injury healing"
    )
    require(not state.clock.get("battle"), "FATE-CAST-9", "injuries heal only outside battle")


@evolver(InjuryHealed)
def _injury_healed(state: State, e: InjuryHealed) -> None:
    adjust(state, e.name, "injury", -e.grades)


@precondition(ManaAbsorbed)
def _absorber_there(state: State, e: ManaAbsorbed) -> None:
    character(state, e.name, "FATE-NP-13")


@evolver(ManaAbsorbed)
def _mana_absorbed(state: State, e: ManaAbsorbed) -> None:
    adjust(state, e.name, "mp", e.mp, "mp_max")
