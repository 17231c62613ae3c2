"""Fate NP release: attack NPs through the targets' defenses, defensive NPs, fields, armies.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.–4., 고유 능력 2.; FATE-NP-4 … FATE-NP-12,
FATE-UA-2, FATE-UA-3.
"""

from __future__ import annotations

from typing import Any

import attrs

from tablelog.commands.core import decider
from tablelog.commands.fate.common import DEFENSE_KINDS, Pending, Tile, hits_on, who
from tablelog.commands.fate.summons import release_army, release_field
from tablelog.events.core import Event
from tablelog.events.fate import EffectRaised, FieldEnded, PhantasmReleased
from tablelog.events.fate.base import with_rules
from tablelog.projections.core import State
from tablelog.projections.fate.records import next_effect_id
from tablelog.projections.fate.turns import require_no_np_turn, require_no_other_judgment
from tablelog.rules.core import RuleViolation, require
from tablelog.rules.fate import (
    ANTI_WORLD_BACK_MP,
    NPMods,
    TargetPlan,
    always_uses_per_round,
    back_row_hp,
    check_true_name_allowed,
    check_ua_usable,
    count,
    listing,
    parse_grade,
    parse_mods,
    plan_targets,
)

__all__ = ["Release"]


@attrs.frozen
class Release:
    """Release NP ``np_id`` of ``owner`` at ``targets`` (allies for an EX field)."""

    owner: str
    np_id: str
    targets: tuple[str, ...] = ()
    plus_used: bool = False
    spread: bool = False


def _uses_allowed(owner: dict[str, Any]) -> int:
    """Return how often a round the owner may use an always-active attack NP (FATE-NP-8)."""
    return always_uses_per_round(parse_grade(owner["madness"]) if owner.get("madness") else None)


def _check_may_release(state: State, c: Release, owner: dict[str, Any], np: dict[str, Any]) -> None:
    """Refuse a release the owner may not make now (madness, UA grade, once per turn/round)."""
    grade = parse_grade(np["grade"])
    if np["unique"]:
        check_ua_usable(grade, owner["character_grade"], np["starting"])
    madness = parse_grade(owner["madness"]) if owner.get("madness") else None
    if np["release"] == "always":
        if state.clock.get("battle") and np["form"] == "attack":
            require_no_np_turn(state, c.owner, owner, "an always-active NP")
            allowed, used = _uses_allowed(owner), owner["_always_uses"].get(c.np_id, 0)
            require(
                used < allowed,
                "FATE-NP-8",
                f"{c.owner} has used {c.np_id} {count(used, 'time')} this round;"
                f" {count(allowed, 'use')} allowed",
            )
        return
    check_true_name_allowed(madness, owner.get("raging", False))
    now = [state.clock.get("round"), state.clock.get("turn")]
    require(
        not state.clock.get("battle") or owner["_np_turn"] != now,
        "FATE-NP-6",
        f"{c.owner} already released an NP in round {now[0]}, turn {now[1]}",
    )
    require_no_other_judgment(state, c.owner, owner)


@decider(Release)
def decide_release(state: State, c: Release) -> list[Event]:
    """Check and pay for a release, then apply it by form and type."""
    owner = who(state, c.owner)
    np = owner["phantasms"].get(c.np_id)
    if np is None:
        raise RuleViolation(
            "UNKNOWN-NAME",
            f"{c.owner} has no NP called {c.np_id}"
            + (f" (has {listing(owner['phantasms'])})" if owner["phantasms"] else " (has none)"),
        )
    _check_may_release(state, c, owner, np)
    pending = Pending(state, action=True)
    checks = _checked_rules(owner, np)
    if np["form"] == "defense":
        _release_defense(pending, c, owner, np, checks)
    elif np["type"] == "field":
        release_field(pending, c.owner, c.np_id, np, c.targets, c.plus_used, checks)
    elif np["type"] == "army":
        release_army(pending, c.owner, c.np_id, np, c.plus_used, checks)
    else:
        _release_attack(pending, c, owner, np, checks)
    return pending.events


def _checked_rules(owner: dict[str, Any], np: dict[str, Any]) -> tuple[str, ...]:
    """Return the rules a release passed besides its form's: madness (FATE-NP-4), a unique
    ability's character grade (FATE-UA-2) or starting cost (FATE-UA-3), a cost modifier."""
    true_name = np["release"] == "true-name"
    return with_rules(
        true_name and bool(owner.get("madness")) and "FATE-NP-4",
        np["unique"] and not np["starting"] and "FATE-UA-2",
        np["unique"] and np["starting"] and "FATE-UA-3",
        "mp-cost" in np["mods"] and "FATE-NP-13",
    )


def _pay(owner: dict[str, Any], c: Release, mp: int) -> None:
    require(owner["mp"] >= mp, "FATE-NP-5", f"{c.np_id} costs {mp} MP, {c.owner} has {owner['mp']}")


def _release_defense(
    pending: Pending, c: Release, owner: dict[str, Any], np: dict[str, Any], checks: tuple[str, ...]
) -> None:
    """Raise the defensive NP's critical:defense tiles on its owner (FATE-NP-9)."""
    always = np["release"] == "always"
    require(pending.state.clock.get("battle"), "FATE-NP-9",
            "a defensive NP is released only in battle (fate battle start)")  # fmt: skip
    used = c.np_id in owner.get("_battle_uses", [])
    require(not (always and used), "FATE-NP-9",
            f"{c.owner}'s always-active {c.np_id} already gave its tiles this battle")  # fmt: skip
    _pay(owner, c, np["mp_cost"])
    block, tiles = np["block_per_tile"], np["tiles"]
    breakdown = {"mp_cost": np["mp_formula"],
                 "block": f"{block} HP and MP x {count(tiles, 'tile')}"}  # fmt: skip
    rules = with_rules(not always and "FATE-NP-5", "FATE-NP-9", *checks)
    pending.add(PhantasmReleased(c.owner, c.np_id, np["mp_cost"], (c.owner,), always, breakdown,
                                 rules=rules))  # fmt: skip
    grade = parse_grade(np["grade"])
    turns, per_turn = _defense_timing(always, c.spread, tiles)
    effect_id = next_effect_id(pending.state)
    effect_rules = with_rules("FATE-NP-9", grade.is_ex and "FATE-NP-12")
    pending.add(EffectRaised(c.owner, effect_id, "np-defense", grade.value, tiles, turns, c.owner,
                             block, block, False, {"np": c.np_id}, per_turn=per_turn,
                             rules=effect_rules))  # fmt: skip


def _defense_timing(always: bool, spread: bool, tiles: int) -> tuple[int | None, int | None]:
    """Return (turns, tiles per turn) of defensive NP tiles: always-active one a turn for the
    battle; true-name all in the release turn, or with ``spread`` one a turn over 5 turns.

    Source: 노블 판타즘 3.② (1턴 당 5개의 판정이나 5턴 당 각각 1개; 턴 당 최대 1장); FATE-NP-9.
    """
    if always:
        return None, 1
    return (tiles, 1) if spread else (1, None)


_DAMAGE_MODS = (
    "concealment", "hp-per-tile", "mp-per-tile", "piercing", "damage", "ignores-defense"
)  # fmt: skip
"""Modifiers that change an NP's damage (FATE-NP-13)."""


def _per_tile(np: dict[str, Any], target: dict[str, Any], mods: NPMods) -> tuple[Tile, str]:
    """Return one NP tile on ``target`` (astral strikes lose 2 HP per anti-magic grade)."""
    hp, mp = np["hp_per_tile"], np["mp_per_tile"]
    text = f"{hp} HP, {mp} MP"
    if mods.ignores_defense and target["anti_magic"]:
        hp = max(0, hp - 2 * target["anti_magic"])
        text += f"; - 2 x {target['anti_magic']} anti-magic = {hp} HP"
    return Tile(hp, mp), text


def _defense_kinds(np: dict[str, Any], mods: NPMods) -> tuple[str, ...]:
    """Return the defense kinds an NP's tiles meet: none for astral strikes, NP only for EX."""
    if mods.ignores_defense:
        return ()
    return ("np-defense",) if parse_grade(np["grade"]).is_ex else DEFENSE_KINDS


def _tiles_for(
    plan: TargetPlan, tile: Tile, count: int, taken: dict[str, int]
) -> tuple[list[Tile], str]:
    """Return the tiles a target takes by its row share, with the per-tile text."""
    if plan.share == "half-of-front":
        front = taken[str(plan.behind_of)]
        half = back_row_hp(front)
        return [Tile(half)], f"half of the {front} HP {plan.behind_of} took = {half}"
    if plan.share == "half":
        half = back_row_hp(tile.hp)
        text = f"half of {tile.hp} HP = {half}, {ANTI_WORLD_BACK_MP} MP"
        return [Tile(half, ANTI_WORLD_BACK_MP)] * count, text
    return [tile] * count, ""


def _release_attack(
    pending: Pending, c: Release, owner: dict[str, Any], np: dict[str, Any], checks: tuple[str, ...]
) -> None:
    """Deal the NP's tiles to each target through its defenses (FATE-NP-6, -7, -8, -12)."""
    mods = parse_mods(np["mods"])
    limit = 1 if np["release"] == "always" else np["targets"]
    rows = [(t, who(pending.state, t)["row"]) for t in c.targets]
    plans = plan_targets(np["type"], limit, rows)
    _pay(owner, c, np["mp_cost"])
    always, breakdown = np["release"] == "always", {"mp_cost": np["mp_formula"]}
    kind = ("FATE-NP-8",) if always else ("FATE-NP-5", "FATE-NP-6", "FATE-NP-7")
    uses = _uses_allowed(owner) if always else None
    pending.add(PhantasmReleased(c.owner, c.np_id, np["mp_cost"], c.targets, always, breakdown,
                                 rules=with_rules(*kind, *checks), uses_allowed=uses))  # fmt: skip
    ex = parse_grade(np["grade"]).is_ex
    shaped = any(key in _DAMAGE_MODS for key in np["mods"])
    taken: dict[str, int] = {}
    for plan in plans:
        tile, text = _per_tile(np, pending.state.characters[plan.name], mods)
        tiles, share = _tiles_for(plan, tile, np["tiles"], taken)
        header = {"np": f"{c.owner} {c.np_id} ({np['grade']} {np['type']})",
                  "per tile": share or text, "tiles": str(len(tiles)), "row": plan.row}  # fmt: skip
        source = f"{c.owner} {c.np_id}"
        rules = with_rules(
            *(("FATE-NP-8", tiles[0].mp > 0 and "FATE-NP-6") if always
              else ("FATE-NP-6", "FATE-NP-7")),
            ex and "FATE-NP-12", shaped and "FATE-NP-13",
        )  # fmt: skip
        damage = hits_on(pending.state, plan.name, tiles, source, _defense_kinds(np, mods), header,
                         rules)  # fmt: skip
        pending.add(damage)
        taken[plan.name] = damage.hp
    if np["type"] == "anti-world":
        for name, record in list(pending.state.characters.items()):
            if record["field"] is not None:
                pending.add(FieldEnded(name, record["field"]["np"], f"removed by {c.np_id}",
                                       rules=("FATE-NP-7",)))  # fmt: skip
