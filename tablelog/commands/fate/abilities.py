"""Using an NP's ability on its own (``fate use``): a shot ([사격]) or a charge ([선회]).

The abilities are declared on the NP as modifiers (:mod:`tablelog.rules.fate.mods`); a use is a
judgment of its own, so it is refused in the turn of its owner's true-name NP (FATE-NP-14).

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 5.④, 5-2.① ④; FATE-NP-13, FATE-NP-14.
"""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.commands.fate.common import Pending, who
from tablelog.commands.fate.strike import strike
from tablelog.events.core import Event
from tablelog.events.fate import AbilityUsed
from tablelog.projections.core import State
from tablelog.projections.fate.entities import Character, Phantasm, up_np
from tablelog.projections.fate.turns import ability_judgment, require_no_np_turn
from tablelog.rules.core import RuleViolation, Unknown, require
from tablelog.rules.fate import NPMods, TargetPlan, count, listing, parse_mods, shots_mp
from tablelog.text import Term, msg

__all__ = ["UseAbility", "ABILITIES"]

ABILITIES = ("shoot", "charge")
"""The abilities used on their own: their numbers are the NP's ``shot-*`` and ``charge-*``."""


@attrs.frozen
class UseAbility:
    """Use ``ability`` of ``owner``'s NP ``np_id``: ``times`` shots, or a charge at a target."""

    owner: str
    np_id: str
    ability: str
    times: int = 1
    targets: tuple[str, ...] = ()


@decider(UseAbility)
def decide_use_ability(state: State, c: UseAbility) -> list[Event]:
    """Check the NP has the ability and the owner may use it now; pay and apply it."""
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
    require(
        c.ability in ABILITIES,
        "FATE-NP-13",
        msg(
            "fate.ability.unknown",
            "unknown ability {ability}: {abilities}",
            ability=c.ability,
            abilities=listing((Term("fate.ability", a) for a in ABILITIES), "or"),
        ),
        Unknown("np ability", c.ability),
    )
    require_no_np_turn(state, c.owner, owner, ability_judgment(c.np_id, c.ability))
    mods = parse_mods(np["mods"])
    pending = Pending(state, action=True)
    if c.ability == "shoot":
        _shoot(pending, c, owner, mods)
    else:
        _charge(pending, c, owner, np, mods)
    return pending.events


def _pay(owner: Character, c: UseAbility, mp: int) -> None:
    require(
        owner["mp"] >= mp,
        "FATE-NP-13",
        msg(
            "fate.ability.short_mp",
            "{owner} has {has} MP; {use} costs {mp}",
            owner=c.owner,
            has=owner["mp"],
            use=ability_judgment(c.np_id, c.ability),
            mp=mp,
        ),
    )


def _shoot(pending: Pending, c: UseAbility, owner: Character, mods: NPMods) -> None:
    """Pay for ``times`` shots: a judgment becomes critical:attack (the table plays it).

    Source: 노블 판타즘 5.④, 5-2.① ([사격] 보구를 1회용 탄환으로 … 5점의 마력을 소모해 해당 판정을
        <치명:공격> 판정으로 바꿉니다); the stored NPs are at hand while the field is up ([창고]).
    """
    require(
        mods.shot_mp is not None,
        "FATE-NP-13",
        msg(
            "fate.shoot.none",
            "{np_id} has no shoot ability (modifier shot-mp)",
            np_id=c.np_id,
        ),
    )
    require(
        up_np(owner["field"]) == c.np_id,
        "FATE-NP-13",
        msg(
            "fate.shoot.needs_field",
            "{np_id}'s shoot needs {np_id} up ({owner} holds no such field)",
            np_id=c.np_id,
            owner=c.owner,
        ),
    )
    require(
        not c.targets,
        "FATE-NP-13",
        msg("fate.shoot.no_target", "a shot names no --target: the table plays the judgment"),
    )
    mp, text = shots_mp(mods, c.times)
    _pay(owner, c, mp)
    breakdown = {"mp": text, "judgment": f"{count(c.times, 'judgment')} made critical:attack"}
    pending.add(
        AbilityUsed(c.owner, c.np_id, "shoot", mp, c.times, (), breakdown, rules=("FATE-NP-13",))
    )


def _charge(pending: Pending, c: UseAbility, owner: Character, np: Phantasm, mods: NPMods) -> None:
    """Pay for a charge and deal its NP tiles to the target, once per release of the NP.

    Source: 노블 판타즘 5-2.④ ([선회] 20점의 마력을 소모하여 해당 '연속 공격'의 피해점을 '3판정
        분량의 보구 판정 피해'로 바꿀 수 있습니다. 이는 보구 사용 횟수 1회 당 1회씩만).
    """
    require(
        mods.charge_mp is not None,
        "FATE-NP-13",
        msg(
            "fate.charge.none",
            "{np_id} has no charge ability (modifier charge-mp)",
            np_id=c.np_id,
        ),
    )
    require(
        owner["_released"].get(c.np_id),
        "FATE-NP-13",
        msg(
            "fate.charge.needs_release",
            "{np_id}'s charge needs a release of {np_id} it was not used for",
            np_id=c.np_id,
        ),
    )
    require(
        len(c.targets) == 1 and c.times == 1,
        "FATE-NP-13",
        msg("fate.charge.one_target", "a charge is one --target, once"),
    )
    target = who(pending.state, c.targets[0])
    mp = int(mods.charge_mp or 0)
    _pay(owner, c, mp)
    breakdown = {"mp": f"{mp}", "tiles": f"{count(mods.charge_tiles, 'NP tile')} of {c.np_id}"}
    pending.add(
        AbilityUsed(c.owner, c.np_id, "charge", mp, 1, c.targets, breakdown, rules=("FATE-NP-13",))
    )
    strike(
        pending, c.owner, c.np_id, np, [TargetPlan(c.targets[0], target["row"])], mods.charge_tiles
    )
