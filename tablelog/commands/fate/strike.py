"""Attack NPs striking their targets: a release (true-name or always-active) and a charge.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.④, 3.①, 4.②, 5.① ⑤, 5-2.③ ④; FATE-NP-6 …
FATE-NP-8, FATE-NP-12, FATE-NP-13.
"""

from __future__ import annotations

from tablelog.commands.fate.common import Pending, costs_over, who
from tablelog.commands.fate.hits import DEFENSE_KINDS, Attack, Tile, land_hits
from tablelog.events.fate import FieldEnded, PhantasmReleased
from tablelog.events.fate.base import with_rules
from tablelog.projections.fate.entities import Character, Phantasm, characters
from tablelog.rules.core import require
from tablelog.rules.fate import (
    ANTI_WORLD_BACK_MP,
    NPMods,
    PlusUse,
    TargetPlan,
    attack_plus_use,
    attack_rank,
    back_row_hp,
    parse_grade,
    parse_mods,
    plan_targets,
)

__all__ = ["release_attack", "strike"]

_DAMAGE_MODS = (
    "concealment",
    "hp-per-tile",
    "mp-per-tile",
    "piercing",
    "damage",
    "ignores-defense",
    "plus-hp",
    "plus-mp",
    "wound",
)
"""Modifiers that change an NP's damage (FATE-NP-13)."""
_NO_LIMIT = 10**9


def _per_tile(
    np: Phantasm, target: Character, mods: NPMods, plus: PlusUse | None
) -> tuple[Tile, str]:
    """Return one NP tile on ``target``: with a used ``+`` (its abilities), less 2 HP per
    anti-magic grade for astral strikes."""
    hp, mp = np["hp_per_tile"], np["mp_per_tile"]
    text = f"{hp} HP, {mp} MP"
    if plus is not None and (plus.hp or plus.mp):
        hp, mp = hp + plus.hp, mp + plus.mp
        text += f"; + used: {plus.text} = {hp} HP, {mp} MP"
    if mods.ignores_defense and target["anti_magic"]:
        hp = max(0, hp - 2 * target["anti_magic"])
        text += f"; - 2 x {target['anti_magic']} anti-magic = {hp} HP"
    return Tile(hp, mp), text


def _defense_kinds(np: Phantasm, mods: NPMods) -> tuple[str, ...]:
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


def _attack(owner: str, np_id: str, np: Phantasm, mods: NPMods) -> Attack:
    """Return the NP as an attack: its owner, rank, true-name or not, and its wound."""
    wound = (f"{owner} {np_id}", mods.wound, mods.wound_max or _NO_LIMIT) if mods.wound else None
    return Attack(owner, attack_rank(parse_grade(np["grade"])), np["release"] == "true-name", wound)


def strike(
    pending: Pending,
    owner: str,
    np_id: str,
    np: Phantasm,
    plans: list[TargetPlan],
    tiles: int,
    plus: PlusUse | None = None,
) -> None:
    """Deal ``tiles`` of the NP's damage to each planned target through its defenses.

    Source: 노블 판타즘 2.④, 3.①, 4.②; FATE-NP-6 … FATE-NP-8, FATE-NP-12, FATE-NP-13.
    """
    mods = parse_mods(np["mods"])
    always = np["release"] == "always"
    ex = parse_grade(np["grade"]).is_ex
    shaped = plus is not None or any(key in _DAMAGE_MODS for key in np["mods"])
    attack = _attack(owner, np_id, np, mods)
    taken: dict[str, int] = {}
    for plan in plans:
        tile, text = _per_tile(np, characters(pending.state)[plan.name], mods, plus)
        hits, share = _tiles_for(plan, tile, tiles, taken)
        header = {
            "np": f"{owner} {np_id} ({np['grade']} {np['type']})",
            "per tile": share or text,
            "tiles": str(len(hits)),
            "row": plan.row,
        }
        rules = with_rules(
            *(
                ("FATE-NP-8", hits[0].mp > 0 and "FATE-NP-6")
                if always
                else ("FATE-NP-6", "FATE-NP-7")
            ),
            ex and "FATE-NP-12",
            shaped and "FATE-NP-13",
        )
        damage = land_hits(
            pending,
            plan.name,
            hits,
            f"{owner} {np_id}",
            attack,
            _defense_kinds(np, mods),
            header,
            rules,
        )
        taken[plan.name] = damage.hp


def release_attack(
    pending: Pending,
    owner: str,
    np_id: str,
    np: Phantasm,
    targets: tuple[str, ...],
    plus_used: bool,
    checks: tuple[str, ...],
    uses_allowed: int | None,
) -> None:
    """Release an attack NP: pay, then strike each target (FATE-NP-6, -7, -8, -12, -13).

    A used ``+`` sets off the NP's + abilities (more targets, more damage) at the same MP.
    """
    mods = parse_mods(np["mods"])
    plus = attack_plus_use(parse_grade(np["grade"]), mods) if plus_used else None
    always = np["release"] == "always"
    limit = 1 if always else (plus.targets if plus and plus.targets else np["targets"])
    rows = [(t, who(pending.state, t)["row"]) for t in targets]
    plans = plan_targets(np["type"], limit, rows)
    record = characters(pending.state)[owner]
    require(
        record["mp"] >= np["mp_cost"],
        "FATE-NP-5",
        costs_over(np_id, np["mp_cost"], owner, record["mp"]),
    )
    breakdown = {"mp_cost": np["mp_formula"]}
    if plus is not None:
        breakdown["plus"] = f"+ used: {plus.text}; MP unchanged"
    kind = ("FATE-NP-8",) if always else ("FATE-NP-5", "FATE-NP-6", "FATE-NP-7")
    pending.add(
        PhantasmReleased(
            owner,
            np_id,
            np["mp_cost"],
            targets,
            always,
            breakdown,
            rules=with_rules(*kind, *checks, plus and "FATE-NP-13"),
            uses_allowed=uses_allowed,
        )
    )
    strike(pending, owner, np_id, np, plans, np["tiles"], plus)
    if np["type"] == "anti-world":
        for name, other in list(characters(pending.state).items()):
            if other["field"] is not None:
                pending.add(
                    FieldEnded(
                        name, other["field"]["np"], f"removed by {np_id}", rules=("FATE-NP-7",)
                    )
                )
