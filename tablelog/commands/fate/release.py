"""Fate NP release: attack NPs through the targets' defenses, defensive NPs, fields, armies.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.–4., 고유 능력 2.; FATE-NP-4 … FATE-NP-12,
FATE-UA-2, FATE-UA-3.
"""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.commands.fate.common import Pending, costs_over, who
from tablelog.commands.fate.strike import release_attack
from tablelog.commands.fate.summons import release_army, release_field
from tablelog.events.core import Event
from tablelog.events.fate import EffectRaised, PhantasmReleased
from tablelog.events.fate.base import with_rules
from tablelog.projections.core import State
from tablelog.projections.fate.entities import Character, Phantasm, madness
from tablelog.projections.fate.records import next_effect_id
from tablelog.projections.fate.turns import (
    AN_ALWAYS_ACTIVE_NP,
    require_no_np_turn,
    require_no_other_judgment,
)
from tablelog.rules.core import RuleViolation, require
from tablelog.rules.fate import (
    EX_COUNTER_HP,
    EX_COUNTER_NP_HP,
    always_uses_per_round,
    check_true_name_allowed,
    check_ua_usable,
    count,
    effective_plusses,
    listing,
    parse_grade,
    parse_mods,
)
from tablelog.text import msg

__all__ = ["Release"]


@attrs.frozen
class Release:
    """Release NP ``np_id`` of ``owner`` at ``targets`` (allies for an EX field); ``plus_used``:
    use its ``+``; ``spread``: a defensive NP's tiles one a turn; ``units``: familiars to summon."""

    owner: str
    np_id: str
    targets: tuple[str, ...] = ()
    plus_used: bool = False
    spread: bool = False
    units: int | None = None


def _uses_allowed(owner: Character) -> int:
    """Return how often a round the owner may use an always-active attack NP (FATE-NP-8)."""
    grade = madness(owner)
    return always_uses_per_round(parse_grade(grade) if grade else None)


def _check_may_release(state: State, c: Release, owner: Character, np: Phantasm) -> None:
    """Refuse a release the owner may not make now (madness, UA grade, once per turn/round)."""
    grade = parse_grade(np["grade"])
    if np["unique"] and owner["role"] == "master":
        check_ua_usable(grade, owner["character_grade"], np["starting"])
    if np["release"] == "always":
        if state.clock.get("battle") and np["form"] == "attack":
            require_no_np_turn(state, c.owner, owner, AN_ALWAYS_ACTIVE_NP)
            allowed, used = _uses_allowed(owner), owner["_always_uses"].get(c.np_id, 0)
            require(
                used < allowed,
                "FATE-NP-8",
                msg(
                    "fate.release.uses_spent",
                    "{owner} has used {np_id} {times} this round; {uses} allowed",
                    owner=c.owner,
                    np_id=c.np_id,
                    times=count(used, "time"),
                    uses=count(allowed, "use"),
                ),
            )
        return
    enhanced = madness(owner)
    check_true_name_allowed(
        parse_grade(enhanced) if enhanced else None,
        owner["role"] == "servant" and owner["raging"],
    )
    now = [state.clock.get("round"), state.clock.get("turn")]
    require(
        not state.clock.get("battle") or owner["_np_turn"] != now,
        "FATE-NP-6",
        msg(
            "fate.release.once_a_turn",
            "{owner} already released an NP in round {round}, turn {turn}",
            owner=c.owner,
            round=now[0],
            turn=now[1],
        ),
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
            msg(
                "fate.np.not_held_has",
                "{owner} has no NP called {np_id} (has {held})",
                owner=c.owner,
                np_id=c.np_id,
                held=listing(owner["phantasms"]),
            ),
        )
    _check_flags(c, np)
    _check_may_release(state, c, owner, np)
    pending = Pending(state, action=True)
    checks = _checked_rules(owner, np)
    if np["form"] == "defense":
        _release_defense(pending, c, owner, np, checks)
    elif np["type"] == "field":
        release_field(pending, c.owner, c.np_id, np, c.targets, c.plus_used, checks)
    elif np["type"] == "army":
        release_army(pending, c.owner, c.np_id, np, c.plus_used, checks, c.units)
    else:
        uses = _uses_allowed(owner) if np["release"] == "always" else None
        release_attack(pending, c.owner, c.np_id, np, c.targets, c.plus_used, checks, uses)
    return pending.events


def _check_flags(c: Release, np: Phantasm) -> None:
    """Refuse a flag that would do nothing for this NP (issue 15: none is silently ignored).

    Raises:
        RuleViolation: FATE-NP-15 for an always-active NP that ignores attacks (nothing to
            release); FATE-NP-13 for ``--use-plus`` on a defensive NP or an NP without ``+``;
            FATE-NP-9 for ``--spread`` but on a true-name defensive NP; FATE-NP-11 for
            ``--units`` but on an NP that summons familiars (which needs it).
    """
    mods = parse_mods(np["mods"])
    require(
        not mods.ignores_attacks,
        "FATE-NP-15",
        msg(
            "fate.release.ignores_attacks",
            "{np_id} is always active: it ignores attacks of rank {grade} or lower and raises"
            " no defense tiles; there is nothing to release",
            np_id=c.np_id,
            grade=np["grade"],
        ),
    )
    require(
        not (c.plus_used and np["form"] == "defense"),
        "FATE-NP-13",
        msg(
            "fate.plus.defense",
            "--use-plus does nothing for {np_id}: a defensive NP's + adds nothing when used",
            np_id=c.np_id,
        ),
    )
    require(
        not (c.plus_used and effective_plusses(parse_grade(np["grade"])) == 0),
        "FATE-NP-13",
        msg(
            "fate.plus.none_on",
            "{np_id} ({grade}) has no + to use",
            np_id=c.np_id,
            grade=np["grade"],
        ),
    )
    true_name_defense = np["form"] == "defense" and np["release"] == "true-name"
    require(
        not c.spread or true_name_defense,
        "FATE-NP-9",
        msg(
            "fate.spread.true_name_defense",
            "--spread is for a true-name defensive NP (one tile a turn over 5 turns)",
        ),
    )
    familiars = mods.familiar_mp is not None
    require(
        (c.units is not None) == familiars,
        "FATE-NP-11",
        msg("fate.units.needed", "{np_id} summons familiars: give --units N", np_id=c.np_id)
        if familiars
        else msg("fate.units.familiars_only", "--units is for an NP that summons familiars"),
    )


def _checked_rules(owner: Character, np: Phantasm) -> tuple[str, ...]:
    """Return the rules a release passed besides its form's: madness (FATE-NP-4), a unique
    ability's character grade (FATE-UA-2) or starting cost (FATE-UA-3), a cost modifier."""
    true_name = np["release"] == "true-name"
    return with_rules(
        true_name and bool(madness(owner)) and "FATE-NP-4",
        np["unique"] and not np["starting"] and "FATE-UA-2",
        np["unique"] and np["starting"] and "FATE-UA-3",
        "mp-cost" in np["mods"] and "FATE-NP-13",
    )


def _pay(owner: Character, c: Release, mp: int) -> None:
    require(owner["mp"] >= mp, "FATE-NP-5", costs_over(c.np_id, mp, c.owner, owner["mp"]))


def _release_defense(
    pending: Pending, c: Release, owner: Character, np: Phantasm, checks: tuple[str, ...]
) -> None:
    """Raise the defensive NP's critical:defense tiles on its owner (FATE-NP-9)."""
    always = np["release"] == "always"
    require(
        pending.state.clock.get("battle"),
        "FATE-NP-9",
        msg(
            "fate.defense.in_battle",
            "a defensive NP is released only in battle (fate battle start)",
        ),
    )
    used = c.np_id in owner["_battle_uses"]
    require(
        not (always and used),
        "FATE-NP-9",
        msg(
            "fate.release.tiles_given",
            "{owner}'s always-active {np_id} already gave its tiles this battle",
            owner=c.owner,
            np_id=c.np_id,
        ),
    )
    _pay(owner, c, np["mp_cost"])
    block, tiles = np["block_per_tile"], np["tiles"]
    breakdown = {
        "mp_cost": np["mp_formula"],
        "block": f"{block} HP and MP x {count(tiles, 'tile')}",
    }
    rules = with_rules(not always and "FATE-NP-5", "FATE-NP-9", *checks)
    pending.add(
        PhantasmReleased(
            c.owner, c.np_id, np["mp_cost"], (c.owner,), always, breakdown, rules=rules
        )
    )
    grade = parse_grade(np["grade"])
    turns, per_turn = _defense_timing(always, c.spread, tiles)
    effect_id = next_effect_id(pending.state)
    effect_rules = with_rules("FATE-NP-9", grade.is_ex and "FATE-NP-12")
    counter = None
    if grade.is_ex and not always:
        counter = {
            "hp": EX_COUNTER_HP,
            "np_hp": EX_COUNTER_NP_HP,
            "round": pending.state.clock["round"],
        }
    pending.add(
        EffectRaised(
            c.owner,
            effect_id,
            "np-defense",
            grade.value,
            tiles,
            turns,
            c.owner,
            block,
            block,
            False,
            {"np": c.np_id},
            per_turn=per_turn,
            rules=effect_rules,
            counter=counter,
        )
    )


def _defense_timing(always: bool, spread: bool, tiles: int) -> tuple[int | None, int | None]:
    """Return (turns, tiles per turn) of defensive NP tiles: always-active one a turn for the
    battle; true-name all in the release turn, or with ``spread`` one a turn over 5 turns.

    Source: 노블 판타즘 3.② (1턴 당 5개의 판정이나 5턴 당 각각 1개; 턴 당 최대 1장); FATE-NP-9.
    """
    if always:
        return None, 1
    return (tiles, 1) if spread else (1, None)
