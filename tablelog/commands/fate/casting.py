"""Fate code-cast commands: cast, chant, and damage from outside the tool's own actions.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 1.1 4) and 2.; FATE-CAST-*, FATE-CHANT-*,
FATE-CC-8, FATE-CC-10.
"""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.commands.fate.common import Pending, who
from tablelog.commands.fate.hits import Attack, Tile, land_hits
from tablelog.events.core import Event
from tablelog.events.fate import Chanted, CodeCast, EffectRaised, Healed, InjuryHealed
from tablelog.events.fate.base import with_rules
from tablelog.projections.core import State
from tablelog.projections.fate.entities import Master, characters
from tablelog.projections.fate.records import next_effect_id
from tablelog.projections.fate.turns import A_CODE_CAST, require_no_np_turn
from tablelog.rules.core import require
from tablelog.rules.fate import (
    CREST_CAST_HP,
    DURATION_TURNS,
    KINDS,
    TIMING,
    article,
    attack_hp_per_tile,
    cast_mp_cost,
    chanted_tiles,
    check_buff_held,
    check_buff_tiles,
    check_cast,
    count,
    crest_stores_none,
    curse_tiles_after_anti_magic,
    deal_tiles,
    defense_block,
    heal_hp,
    kind_term,
    parse_grade,
)
from tablelog.text import msg, msgn

__all__ = ["Cast", "Chant", "TakeDamage"]


@attrs.frozen
class Cast:
    """Cast a code cast: kind, grade, tiles from the pool, targets; ``crest``: a stored spell."""

    caster: str
    kind: str
    grade: int
    tiles: int
    targets: tuple[str, ...] = ()
    crest: bool = False
    injury: bool = False


@attrs.frozen
class Chant:
    """Chant once: the next cast's tiles double."""

    name: str


@attrs.frozen
class TakeDamage:
    """Apply damage from outside the tool's own actions (one incoming tile, through defenses);
    ``rank``: the attack's grade number, if it has one (an NP may ignore it, FATE-NP-15)."""

    name: str
    hp: int = 0
    mp: int = 0
    injury: int = 0
    rank: int | None = None


def _powers(caster: Master, crest: bool) -> dict[str, int]:
    """Return the kinds and powers a cast may use: attributes, or the crest's stored spells."""
    if not crest:
        return dict(caster["powers"])
    grade = parse_grade(caster["crest"]).value
    require(grade >= 1, "FATE-CC-10", crest_stores_none(caster["crest"]))
    if caster["stored"]:
        return dict(caster["stored"])
    return dict.fromkeys(KINDS, grade)


def _targets(c: Cast, state: State) -> list[str]:
    targets = list(c.targets) or ([] if c.kind in ("attack", "curse") else [c.caster])
    require(
        targets,
        "FATE-CAST-2",
        msg(
            "fate.cast.needs_target",
            "{a_kind} cast needs a --target",
            a_kind=article(kind_term(c.kind)),
        ),
    )
    for name in targets:
        who(state, name)
    return targets


def _check_cost_and_injury(state: State, c: Cast, caster: Master) -> int:
    """Return the cast's MP cost, refusing it without enough MP or with a misplaced --injury."""
    mp = cast_mp_cost(c.tiles, caster["hollow"])
    require(
        mp <= caster["mp"],
        "FATE-CAST-3",
        msgn(
            "fate.cast.over_mp",
            "{n} tile costs {mp} MP; {caster} has {has}",
            "{n} tiles cost {mp} MP; {caster} has {has}",
            c.tiles,
            mp=mp,
            caster=c.caster,
            has=caster["mp"],
        ),
    )
    require(
        not (c.injury and c.kind == "defense"),
        "FATE-CAST-9",
        msg("fate.injury.not_defense", "--injury is for attack, curse, buff and heal, not defense"),
    )
    require(
        not (c.injury and c.kind == "heal" and state.clock.get("battle")),
        "FATE-CAST-9",
        msg(
            "fate.injury.heal_in_battle",
            "injury heals only outside battle (in a scene or on a rest)",
        ),
    )
    return mp


@decider(Cast)
def decide_cast(state: State, c: Cast) -> list[Event]:
    """Check the cast (FATE-CAST-2/3), pay for it, and apply its kind to each target."""
    caster = who(state, c.caster, "master", "FATE-CAST-2")
    require_no_np_turn(state, c.caster, caster, A_CODE_CAST)
    check_cast(c.kind, c.grade, c.tiles, caster["tiles"], _powers(caster, c.crest), c.crest)
    targets = _targets(c, state)
    mp = _check_cost_and_injury(state, c, caster)
    total = chanted_tiles(c.tiles, caster["chants"])
    per_target = deal_tiles(total, targets)
    if c.kind == "buff":
        check_buff_tiles(per_target, caster["chants"] > 0)
        for name in per_target:
            check_buff_held(name, characters(state)[name]["effects"], caster["chants"] > 0)
    pending = Pending(state, action=True)
    hp = CREST_CAST_HP if c.crest else 0
    breakdown = _cast_breakdown(c, caster, total, mp)
    pending.add(
        CodeCast(
            c.caster,
            c.kind,
            c.grade,
            c.tiles,
            total,
            tuple(targets),
            mp,
            caster["chants"],
            hp,
            c.crest,
            c.injury,
            breakdown,
        )
    )
    for name, tiles in per_target.items():
        _APPLY[c.kind](pending, c, name, tiles, caster["chants"] > 0)
    return pending.events


def _cast_breakdown(c: Cast, caster: Master, total: int, mp: int) -> dict[str, str]:
    hollow = " - 1 (hollow)" if caster["hollow"] else ""
    out = {
        "mp": f"2 x {count(c.tiles, 'pool tile')}{hollow} = {mp}",
        "tiles": f"{count(c.tiles, 'pool tile')} x 2^{caster['chants']}"
        f" ({count(caster['chants'], 'chant')}) = {total}",
        "timing": f"{TIMING[c.kind]} the other judgments (FATE-CAST-1)",
    }
    if c.crest:
        out["hp"] = f"crest spell: {CREST_CAST_HP} HP"
    return out


def _attack(pending: Pending, c: Cast, name: str, tiles: int, chanted: bool) -> None:
    anti = characters(pending.state)[name]["anti_magic"]
    hp = attack_hp_per_tile(c.grade, anti)
    grades = max(0, c.grade - anti)
    tile = Tile(0, 0, grades) if c.injury else Tile(hp)
    what = (
        f"{c.grade} - {anti} anti-magic = {count(grades, 'injury grade')}"
        if c.injury
        else f"2 x ({c.grade} - {anti} anti-magic) = {hp} HP"
    )
    header = {"cast": f"{c.caster} attack grade {c.grade}", "per tile": what, "tiles": str(tiles)}
    rules = with_rules("FATE-CAST-4", c.injury and "FATE-CAST-9")
    land_hits(
        pending,
        name,
        [tile] * tiles,
        f"{c.caster} attack",
        Attack(c.caster, c.grade),
        header=header,
        rules=rules,
    )


def _effect(
    pending: Pending, c: Cast, name: str, tiles: int, kind: str, chanted: bool, note: str = ""
) -> None:
    block_hp, block_mp = defense_block(c.grade) if kind == "defense" else (0, 0)
    breakdown = {"cast": f"{c.caster} {kind} grade {c.grade}", "tiles": str(tiles)}
    if note:
        breakdown["anti-magic"] = note
    pending.add(
        EffectRaised(
            name,
            next_effect_id(pending.state),
            kind,
            c.grade,
            tiles,
            DURATION_TURNS[kind],
            c.caster,
            block_hp,
            block_mp,
            c.injury,
            breakdown,
            chanted=chanted and kind == "buff",
            rules=with_rules(
                _EFFECT_RULE[kind],
                chanted and kind == "buff" and "FATE-CHANT-4",
                c.injury and "FATE-CAST-9",
            ),
        )
    )


_EFFECT_RULE = {"defense": "FATE-CAST-5", "buff": "FATE-CAST-7", "curse": "FATE-CAST-8"}


def _defense(pending: Pending, c: Cast, name: str, tiles: int, chanted: bool) -> None:
    _effect(pending, c, name, tiles, "defense", chanted)


def _buff(pending: Pending, c: Cast, name: str, tiles: int, chanted: bool) -> None:
    _effect(pending, c, name, tiles, "buff", chanted)


def _curse(pending: Pending, c: Cast, name: str, tiles: int, chanted: bool) -> None:
    anti = characters(pending.state)[name]["anti_magic"]
    left = curse_tiles_after_anti_magic(tiles, anti)
    if left:
        note = f"{count(tiles, 'tile')} - {anti} anti-magic = {left}"
        _effect(pending, c, name, left, "curse", chanted, note)


def _heal(pending: Pending, c: Cast, name: str, tiles: int, chanted: bool) -> None:
    target = characters(pending.state)[name]
    if c.injury:
        grades = min(target["injury"], c.grade * tiles)
        pending.add(
            InjuryHealed(
                name,
                grades,
                f"{c.caster} heal",
                {
                    "per tile": str(count(c.grade, "injury grade")),
                    "tiles": str(tiles),
                    "cured": f"min({target['injury']}, {c.grade * tiles}) = {grades}",
                },
            )
        )
        return
    hp = heal_hp(c.grade, tiles, target["hp"], target["hp_max"])
    pending.add(
        Healed(
            name,
            hp,
            f"{c.caster} heal",
            {
                "per tile": f"{c.grade} HP",
                "tiles": str(tiles),
                "healed": f"min({c.grade} x {tiles}, {target['hp_max']} - {target['hp']}) = {hp}",
            },
        )
    )


_APPLY = {"attack": _attack, "defense": _defense, "heal": _heal, "buff": _buff, "curse": _curse}


@decider(Chant)
def decide_chant(state: State, c: Chant) -> list[Event]:
    """Chant once; a caster in the back row cannot (FATE-CHANT-3)."""
    caster = who(state, c.name, "master", "FATE-CHANT-1")
    require(
        caster["row"] == "front",
        "FATE-CHANT-3",
        msg("fate.chant.back_row", "{name} is in the back row and cannot chant", name=c.name),
    )
    return [Chanted(c.name)]


@decider(TakeDamage)
def decide_take_damage(state: State, c: TakeDamage) -> list[Event]:
    """Apply outside damage as one incoming tile through the target's defenses (FATE-CAST-5)."""
    who(state, c.name)
    require(
        min(c.hp, c.mp, c.injury) >= 0 and (c.hp or c.mp or c.injury),
        "FATE-CAST-5",
        msg(
            "fate.damage.needs_some",
            "damage needs --hp, --mp or --injury above 0 and none below"
            " (got {hp} HP, {mp} MP, {injury})",
            hp=c.hp,
            mp=c.mp,
            injury=count(c.injury, "injury grade"),
        ),
    )
    rules = with_rules("FATE-CAST-5", c.injury > 0 and "FATE-CAST-9")
    pending = Pending(state)
    land_hits(
        pending, c.name, [Tile(c.hp, c.mp, c.injury)], "external", Attack(rank=c.rank), rules=rules
    )
    return pending.events
