"""Evolvers and preconditions of HP (damage, healing) and briefing events.

An HP event records the HP before and after (v2). The evolver applies that change, so a damage
stands on its own when an earlier one is undone. A change that a bound shaped (pulled punches
stop at 0 HP, MP-PULL-1; healing stops at max HP) depends on the HP it was decided on: its
precondition asks for that HP when the bound cut it, and for room under the bound when it did
not. A v1 record (no HP recorded) takes the legacy path: today's rule computes the HP.
"""

from __future__ import annotations

from tablelog.events.magicpunk import (
    BriefingEnded,
    BriefingStarted,
    DamageTaken,
    Healed,
    PreparationTaken,
)
from tablelog.projections.core import RuleViolation, State, evolver, precondition, require
from tablelog.projections.magicpunk.entities import Briefing, Character, characters, table_of
from tablelog.projections.magicpunk.table import character
from tablelog.rules.magicpunk import combat
from tablelog.text import msg

HP_RULE = "MP-HP"
"""Refusal ID of a heal that no longer fits under max HP (docs/magicpunk.md; no seed clause)."""
NO_BRIEFING = msg("magicpunk.briefing.none", "no briefing is under way")
BRIEFING_UNDER_WAY = msg("magicpunk.briefing.under_way", "a briefing is under way")


def _check_bound(ch: Character, name: str, e: DamageTaken | Healed, rule: str) -> None:
    """Refuse a bounded HP change on HP it no longer fits (see the module docstring)."""
    if e.hp_before is None or e.hp_after is None:  # legacy v1 record: nothing recorded
        return
    heal = isinstance(e, Healed)
    change, hp = e.hp_after - e.hp_before, ch["hp"]
    what = (
        msg("magicpunk.hp.the_heal", "heal")
        if heal
        else msg("magicpunk.hp.the_pulled_punch", "pulled punch")
    )
    if change != (e.amount if heal else -e.amount):
        require(
            hp == e.hp_before,
            rule,
            msg(
                "magicpunk.hp.bound_moved",
                "{name} has {hp} HP: the {what} of {amount} stopped at {after} HP when {name} "
                "had {before}",
                name=name,
                hp=hp,
                what=what,
                amount=e.amount,
                after=e.hp_after,
                before=e.hp_before,
            ),
        )
    elif heal:
        require(
            hp + change <= ch["hp_max"],
            rule,
            msg(
                "magicpunk.hp.heal_above_max",
                "{name} has {hp} of {hp_max} HP: the heal of {amount} decided at {before} HP "
                "would take it above its max",
                name=name,
                hp=hp,
                hp_max=ch["hp_max"],
                amount=e.amount,
                before=e.hp_before,
            ),
        )
    else:
        require(
            hp + change >= 0,
            rule,
            msg(
                "magicpunk.hp.pull_below_0",
                "{name} has {hp} HP: the pulled punch of {amount} decided at {before} HP would "
                "take it below 0",
                name=name,
                hp=hp,
                amount=e.amount,
                before=e.hp_before,
            ),
        )


@precondition(DamageTaken)
def _check_damage_taken(state: State, e: DamageTaken) -> None:
    ch = character(state, e.target)
    if e.covering is not None:
        character(state, e.covering)
        require(
            ch["acted"],
            "MP-COVER-1",
            msg(
                "magicpunk.cover.not_declared",
                "{target} takes the hit for {covering} only after declaring cover (which "
                "leaves it acted)",
                target=e.target,
                covering=e.covering,
            ),
        )
    if e.pull_punches:
        _check_bound(ch, e.target, e, "MP-PULL-1")


def _apply_change(
    state: State, name: str, before: int | None, after: int | None
) -> Character | None:
    """Apply the recorded HP change (after - before) to ``name``; return its record instead when
    the event is a legacy v1 record (no HP recorded), for the caller's legacy path."""
    ch = characters(state).get(name)
    if ch is not None and before is not None and after is not None:
        ch["hp"] += after - before
        return None
    return ch


@evolver(DamageTaken)
def _damage_taken(state: State, e: DamageTaken) -> None:
    legacy = _apply_change(state, e.target, e.hp_before, e.hp_after)
    if legacy is not None:  # a v1 record: today's rule
        legacy["hp"] = combat.hp_after_damage(legacy["hp"], max(e.amount, 0), e.pull_punches)


@precondition(Healed)
def _check_healed(state: State, e: Healed) -> None:
    _check_bound(character(state, e.target), e.target, e, HP_RULE)


@evolver(Healed)
def _healed(state: State, e: Healed) -> None:
    legacy = _apply_change(state, e.target, e.hp_before, e.hp_after)
    if legacy is not None:  # a v1 record: today's rule
        legacy["hp"] = combat.hp_after_heal(legacy["hp"], legacy["hp_max"], max(e.amount, 0))


def _check_briefing(state: State) -> Briefing:
    briefing = table_of(state).get("briefing")
    if briefing is None:
        raise RuleViolation("MP-BRIEF-1", NO_BRIEFING)
    return briefing


@precondition(BriefingStarted)
def _check_briefing_started(state: State, e: BriefingStarted) -> None:
    require(table_of(state).get("briefing") is None, "MP-BRIEF-1", BRIEFING_UNDER_WAY)


@evolver(BriefingStarted)
def _briefing_started(state: State, e: BriefingStarted) -> None:
    table = table_of(state)
    table["briefing"] = {"package": e.package, "by_actor": {}, "by_side": {}}
    if e.limit_each is None:  # legacy v1 record: today's table
        table["briefing_limit"] = combat.BRIEFING_LIMITS.get(e.package) or 0
    else:
        table["briefing_limit"] = e.limit_each


@precondition(PreparationTaken)
def _check_preparation_taken(state: State, e: PreparationTaken) -> None:
    briefing = _check_briefing(state)
    combat.check_preparation(
        briefing["package"],
        table_of(state).get("briefing_limit", 0),
        briefing["by_actor"].get(f"{e.side}:{e.who}", 0),
    )


@evolver(PreparationTaken)
def _preparation_taken(state: State, e: PreparationTaken) -> None:
    briefing = table_of(state).get("briefing")
    if briefing is None:
        return
    key = f"{e.side}:{e.who}"
    briefing["by_actor"][key] = briefing["by_actor"].get(key, 0) + 1
    briefing["by_side"][e.side] = briefing["by_side"].get(e.side, 0) + 1


@precondition(BriefingEnded)
def _check_briefing_ended(state: State, e: BriefingEnded) -> None:
    _check_briefing(state)


@evolver(BriefingEnded)
def _briefing_ended(state: State, e: BriefingEnded) -> None:
    table_of(state)["briefing"] = None
