"""Casting code casts: checks, MP cost, chant doubling and the per-tile effect of each kind.

Source: fate-codecast-phantasm.ko.txt, 1. 코드 캐스트 2. (마술의 종류); FATE-CAST-1 … FATE-CAST-9,
FATE-CHANT-1 … FATE-CHANT-4.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from tablelog.rules.core import RuleViolation, Unknown, require
from tablelog.rules.fate.grades import KINDS
from tablelog.rules.fate.text import count, listing
from tablelog.text import Msg, Term, msg

__all__ = [
    "TIMING",
    "DURATION_TURNS",
    "MP_PER_TILE",
    "check_cast",
    "check_kind",
    "chanted_tiles",
    "cast_mp_cost",
    "deal_tiles",
    "attack_hp_per_tile",
    "defense_block",
    "Hit",
    "meet_defense",
    "defense_tile_lost",
    "heal_hp",
    "curse_tiles_after_anti_magic",
    "check_buff_tiles",
    "check_buff_held",
    "kind_term",
    "kinds_listing",
]

TIMING = {"attack": "with", "defense": "before", "heal": "after", "buff": "after", "curse": "after"}
"""When each kind resolves relative to the other judgments (FATE-CAST-1)."""

DURATION_TURNS = {"defense": 3, "buff": 3, "curse": 5}
"""How long an unused effect lasts, in turns (FATE-CAST-5, -7, -8)."""

MP_PER_TILE = 2
"""MP paid for each tile taken from the pool, whatever the grade (FATE-CAST-3)."""


def check_kind(kind: str, rule_id: str = "FATE-CAST-1", what: Msg | str | None = None) -> str:
    """Return ``kind`` if it is one of the five kinds of magic.

    Args:
        kind: The kind as typed (``attack``).
        rule_id: The rule to refuse with (a crest's stored spell: FATE-CC-10).
        what: What the kind is of, for the message (``stored spell kind``; default ``kind``).

    Raises:
        RuleViolation: ``rule_id`` for any other word.

    Source: 코드 캐스트 2. (공격, 방어, 회복, 버프, 저주); FATE-CAST-1.
    """
    if kind not in KINDS:
        raise RuleViolation(
            rule_id,
            msg(
                "fate.kind.unknown",
                "unknown {what} {kind}: a kind is {kinds}",
                what=msg("fate.what.kind", "kind") if what is None else what,
                kind=kind,
                kinds=kinds_listing(KINDS, "or"),
            ),
            Unknown("magic kind", kind),
        )
    return kind


def kind_term(kind: str) -> Term:
    """Return a kind of magic (``attack``, ``np-defense`` …) as a game term."""
    return Term("fate.kind", kind)


def kinds_listing(kinds: Iterable[str], last: str = "and", empty: Msg | None = None) -> Msg:
    """Return kinds of magic listed as game terms (``attack, heal or curse``)."""
    terms = [kind_term(k) for k in kinds]
    return listing(terms, last) if empty is None else listing(terms, last, empty)


def check_cast(
    kind: str,
    grade: int,
    tiles: int,
    tiles_left: int,
    powers: Mapping[str, int],
    crest: bool = False,
) -> None:
    """Refuse a cast the caster cannot make.

    Args:
        kind: attack, defense, heal, buff or curse.
        grade: The cast's grade (1 … the caster's power for that kind).
        tiles: Tiles taken from the pool (≥ 1).
        tiles_left: Tiles the caster has left.
        powers: ``{kind: power grade}`` of the kinds the caster may use.
        crest: Whether ``powers`` are the spells stored in the caster's crest (for messages).

    Raises:
        RuleViolation: FATE-CAST-1 for an unknown kind; FATE-CC-7 for a kind the caster's
            attributes do not enable (or leave at power 0), FATE-CC-10 for a kind the crest does
            not store; FATE-CAST-2 for a grade outside 1 … power or a tile count outside 1 …
            tiles left.

    Source: 코드 캐스트 1.1 3) (속성에 따라 특정 종류의 마술을 사용하지 못할 수도 있으며) and 4),
        2. (보유하고 있는 마술의 판정은 …); FATE-CAST-1, FATE-CAST-2, FATE-CC-7, FATE-CC-10.
    """
    check_kind(kind)
    term = kind_term(kind)
    allowed = kinds_listing([k for k in KINDS if k in powers], empty=msg("fate.nothing", "nothing"))
    limit = (
        msg("fate.cast.limit_crest", "the {kind} spell stored in the crest", kind=term)
        if crest
        else msg("fate.cast.limit_power", "the caster's {kind} power", kind=term)
    )
    enabling = "FATE-CC-10" if crest else "FATE-CC-7"
    require(
        kind in powers,
        enabling,
        msg(
            "fate.cast.not_stored",
            "cannot cast {kind} from the crest: it stores {allowed}",
            kind=term,
            allowed=allowed,
        )
        if crest
        else msg(
            "fate.cast.not_enabled",
            "cannot cast {kind}: the caster may cast {allowed}",
            kind=term,
            allowed=allowed,
        ),
    )
    require(
        powers[kind] >= 1,
        enabling,
        msg("fate.cast.power_zero", "cannot cast {kind}: {limit} is 0", kind=term, limit=limit),
    )
    require(
        1 <= grade <= powers[kind],
        "FATE-CAST-2",
        msg(
            "fate.cast.grade_range",
            "{kind} grade {grade} is outside {low}..{high} ({limit})",
            kind=term,
            grade=grade,
            low=1,
            high=powers[kind],
            limit=limit,
        ),
    )
    require(
        tiles >= 1,
        "FATE-CAST-2",
        msg("fate.cast.no_tile", "a cast takes at least 1 tile, not {tiles}", tiles=tiles),
    )
    require(
        tiles <= tiles_left,
        "FATE-CAST-2",
        msg(
            "fate.cast.tiles_left",
            "{asked} asked, {left} left in the pool",
            asked=count(tiles, "tile"),
            left=count(tiles_left, "tile"),
        ),
    )


def chanted_tiles(tiles: int, chants: int) -> int:
    """Return the tiles a cast puts out after ``chants`` chants: tiles × 2ⁿ.

    Source: 코드 캐스트 2. (영창 1회마다 … 판정패가 2배로 증가); FATE-CHANT-1.
    """
    return tiles << chants  # × 2ⁿ (chants ≥ 0)


def cast_mp_cost(pool_tiles: int, hollow: bool) -> int:
    """Return the MP a cast costs: 2 per pool tile, hollow 1 less per cast, never below 0.

    Args:
        pool_tiles: Tiles taken from the pool (chant doubling is free).
        hollow: Whether the caster has the 허 (hollow) attribute.

    Source: 코드 캐스트 2. (판정패 1장 당 2점의 MP); 1.1 3)③ⅰ); FATE-CAST-3, FATE-CC-8.
    """
    return max(0, MP_PER_TILE * pool_tiles - (1 if hollow else 0))


def deal_tiles(tiles: int, targets: list[str]) -> dict[str, int]:
    """Deal a cast's tiles out to its targets in turn (decision: round-robin, in the given order).

    Returns:
        ``{target: tiles}``; 4 tiles on [A, B] give 2 and 2, 3 tiles give 2 and 1.

    Raises:
        RuleViolation: FATE-CAST-2 if there are more targets than tiles or a target repeats.

    Source: decision (docs/fate.md), FATE-CAST-2.
    """
    twice = [name for i, name in enumerate(targets) if name in targets[:i]]
    require(
        not twice,
        "FATE-CAST-2",
        msg(
            "fate.target.twice",
            "{names} named twice as a target",
            names=listing(dict.fromkeys(twice)),
        ),
    )
    require(
        len(targets) <= tiles,
        "FATE-CAST-2",
        msg(
            "fate.cast.more_targets",
            "{targets} but only {tiles}",
            targets=count(len(targets), "target"),
            tiles=count(tiles, "tile"),
        ),
    )
    return {
        name: tiles // len(targets) + (1 if i < tiles % len(targets) else 0)
        for i, name in enumerate(targets)
    }


def attack_hp_per_tile(grade: int, anti_magic: int) -> int:
    """Return the HP damage of one attack tile: 2 per grade left after anti-magic, never below 0.

    Source: 코드 캐스트 2.② and (공격 마술은 대마력 1등급마다 …); FATE-CAST-4.
    """
    return 2 * max(0, grade - anti_magic)


def defense_block(grade: int) -> tuple[int, int]:
    """Return what one defense tile blocks: (grade HP, 2 × grade MP).

    Source: 코드 캐스트 2.③; FATE-CAST-5.
    """
    return grade, 2 * grade


@attrs.frozen
class Hit:
    """What one incoming tile did after meeting (or not) a defense tile.

    Attributes:
        hp: HP damage that goes through.
        mp: MP damage that goes through.
        blocked_hp: HP the defense took off.
        blocked_mp: MP the defense took off.
        defense: Description of the defense tile it met, or None.
    """

    hp: int
    mp: int
    blocked_hp: int = 0
    blocked_mp: int = 0
    defense: str | None = None


def meet_defense(hp: int, mp: int, block_hp: int, block_mp: int, label: str) -> Hit:
    """Meet one incoming tile with one defense tile; the excess goes through, never to another tile.

    Args:
        hp: The tile's HP damage.
        mp: The tile's MP damage.
        block_hp: HP the defense tile blocks.
        block_mp: MP the defense tile blocks.
        label: How the defense tile is named in the breakdown.

    Returns:
        The hit after the block (whether the tile is lost: :func:`defense_tile_lost`).

    Source: 코드 캐스트 2.③ (남는 피해량이 다른 마술 판정패로 옮겨가지 않습니다); FATE-CAST-5.
    """
    through_hp, through_mp = max(0, hp - block_hp), max(0, mp - block_mp)
    return Hit(through_hp, through_mp, hp - through_hp, mp - through_mp, label)


def defense_tile_lost(
    kind: str, hp: int, mp: int, injury: int, block_hp: int, block_mp: int
) -> bool:
    """Return whether a defense tile that met one incoming tile is lost.

    A code-cast defense tile is lost only when the hit exceeds what it blocks, in HP, in MP or
    in injury grades (blocked up to its HP block); one that absorbs the hit stays for its
    remaining turns. A defensive NP's tile (``np-defense``) is a judgment played against the hit:
    it is used up either way (decision).

    Args:
        kind: ``"defense"`` or ``"np-defense"``.
        hp: The incoming tile's HP damage.
        mp: Its MP damage.
        injury: Its injury grades.
        block_hp: HP (and injury grades) the tile blocks.
        block_mp: MP the tile blocks.

    Source: 코드 캐스트 2.③ (방어 가능한 피해량을 넘어서는 공격을 받을 경우 해당 마술 판정은
        소실됩니다; 한 종류의 피해만을 받아 … 사라집니다); 노블 판타즘 3.② (5장의 판정을 사용);
        FATE-CAST-5 (revised), FATE-NP-9.
    """
    if kind != "defense":
        return True
    return hp > block_hp or mp > block_mp or injury > block_hp


def heal_hp(grade: int, tiles: int, hp: int, hp_max: int) -> int:
    """Return the HP a heal restores: grade per tile, never above max HP.

    Source: 코드 캐스트 2.①; FATE-CAST-6.
    """
    return max(0, min(grade * tiles, hp_max - hp))


def curse_tiles_after_anti_magic(tiles: int, anti_magic: int) -> int:
    """Return the curse tiles left after the target's anti-magic cancels one per grade.

    Source: 코드 캐스트 2. (저주 마술은 대마력 1등급마다 저주 판정 1개가 상쇄); FATE-CAST-8.
    """
    return max(0, tiles - anti_magic)


def check_buff_tiles(per_target: Mapping[str, int], chanted: bool) -> None:
    """Refuse more than one buff tile on a target unless the buff was chanted.

    Raises:
        RuleViolation: FATE-CAST-7 naming the target and its tiles.

    Source: 코드 캐스트 2. (강화 마술은 1명에게 1장의 판정만); FATE-CAST-7, FATE-CHANT-4.
    """
    if chanted:
        return
    for name, tiles in per_target.items():
        require(
            tiles <= 1,
            "FATE-CAST-7",
            msg(
                "fate.buff.one_per_target",
                "{tiles} on {name}: one per target unless chanted (FATE-CHANT-4)",
                tiles=count(tiles, "buff tile"),
                name=name,
            ),
        )


def check_buff_held(name: str, effects: Iterable[Mapping[str, Any]], chanted: bool) -> None:
    """Refuse an un-chanted buff on a target that already holds an un-chanted buff tile.

    A target holds one un-chanted buff tile at a time: a second one, from the same caster or
    another, is refused (not swapped in) until the first ends; a chanted buff may add several
    (decision, docs/fate.md).

    Args:
        name: The target.
        effects: The target's effects (``kind``, ``chanted``, ``id``, ``source``, ``turns_left``).
        chanted: Whether the new buff comes from a chanted cast.

    Raises:
        RuleViolation: FATE-CAST-7 naming the buff the target holds.

    Source: 코드 캐스트 2. (강화 마술은 1명에게 1장의 판정만 사용 가능합니다; 영창 … 강화 마술의
        경우에는 동시에 여러가지 판정의 피해점을 증가); FATE-CAST-7, FATE-CHANT-4.
    """
    if chanted:
        return
    for effect in effects:
        if effect["kind"] == "buff" and not effect.get("chanted", False):
            left = effect["turns_left"]
            until = (
                msg("fate.buff.until_battle_ends", "until the battle ends")
                if left is None
                else msg("fate.buff.turns_left", "{turns} left", turns=count(left, "turn"))
            )
            raise RuleViolation(
                "FATE-CAST-7",
                msg(
                    "fate.buff.held",
                    "{name} already holds a buff tile (effect #{effect} from {source}, {until}):"
                    " one un-chanted buff tile per target; chant to raise several (FATE-CHANT-4)",
                    name=name,
                    effect=effect["id"],
                    source=effect["source"],
                    until=until,
                ),
            )
