"""Evolvers and preconditions of NP releases, bounded fields and armies.

Evolvers apply what the events record and never raise. The preconditions hold the checks: the
owner holds the NP and can pay, the release is within its count (FATE-NP-6, -8, -9), the release
behind a field or an army is in effect, the field or army is up.
"""

from __future__ import annotations

from tablelog.events.fate import (
    AbilityUsed,
    ArmyDismissed,
    ArmySummoned,
    FieldEnded,
    FieldRaised,
    PhantasmReleased,
)
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.fate import legacy
from tablelog.projections.fate.entities import Character, find, madness, up_np
from tablelog.projections.fate.records import (
    ABILITY_USE,
    RELEASE,
    character,
    register_action,
    require_action_free,
    require_cause,
)
from tablelog.projections.fate.turns import (
    AN_ALWAYS_ACTIVE_NP,
    ability_judgment,
    mark_judgment,
    require_no_np_turn,
    require_no_other_judgment,
)
from tablelog.rules.fate import count
from tablelog.text import Term, msg

__all__: list[str] = []


@precondition(PhantasmReleased)
def _may_release(state: State, e: PhantasmReleased) -> None:
    owner = character(state, e.owner, "FATE-NP-5")
    require(
        e.np_id in owner["phantasms"],
        "FATE-NP-5",
        msg("fate.np.not_held", "{owner} has no NP called {np_id}", owner=e.owner, np_id=e.np_id),
    )
    require(
        owner["mp"] >= e.mp,
        "FATE-NP-5",
        msg(
            "fate.release.short_mp",
            "{owner} has {has} MP, {np_id} costs {mp}",
            owner=e.owner,
            has=owner["mp"],
            np_id=e.np_id,
            mp=e.mp,
        ),
    )
    _check_release_count(state, owner, e)
    require_action_free(state, e.action, RELEASE, "FATE-NP-5")


def _check_release_count(state: State, owner: Character, e: PhantasmReleased) -> None:
    """Refuse a release past its count, however the events got here (undo, redo): one true-name
    release a turn (FATE-NP-6), an always-active attack NP as often a round as it had when
    released (FATE-NP-8), an always-active defensive NP once a battle (FATE-NP-9)."""
    if not state.clock.get("battle"):
        return
    now = [state.clock["round"], state.clock["turn"]]
    form = owner["phantasms"][e.np_id]["form"]
    if not e.always:
        require(
            owner["_np_turn"] != now,
            "FATE-NP-6",
            msg(
                "fate.release.once_a_turn",
                "{owner} already released an NP in round {round}, turn {turn}",
                owner=e.owner,
                round=now[0],
                turn=now[1],
            ),
        )
        require_no_other_judgment(state, e.owner, owner)
    elif form == "defense":
        require(
            e.np_id not in owner["_battle_uses"],
            "FATE-NP-9",
            msg(
                "fate.release.tiles_given",
                "{owner}'s always-active {np_id} already gave its tiles this battle",
                owner=e.owner,
                np_id=e.np_id,
            ),
        )
    else:
        require_no_np_turn(state, e.owner, owner, AN_ALWAYS_ACTIVE_NP)
        allowed = e.uses_allowed
        if allowed is None:
            allowed = legacy.uses_allowed(madness(owner))
        used = owner["_always_uses"].get(e.np_id, 0)
        require(
            used < allowed,
            "FATE-NP-8",
            msg(
                "fate.release.uses_spent",
                "{owner} has used {np_id} {times} this round; {uses} allowed",
                owner=e.owner,
                np_id=e.np_id,
                times=count(used, "time"),
                uses=count(allowed, "use"),
            ),
        )


@evolver(PhantasmReleased)
def _released(state: State, e: PhantasmReleased) -> None:
    register_action(state, e.action)
    owner = find(state, e.owner)
    if owner is None:
        return
    owner["mp"] = max(0, owner["mp"] - e.mp)
    _mark_release(owner, e.np_id, e.always)
    if not state.clock.get("battle"):
        return
    np = owner["phantasms"].get(e.np_id)
    if e.always and np is not None and np["form"] == "defense":
        owner["_battle_uses"] = [*owner["_battle_uses"], e.np_id]
    elif e.always:
        uses = owner["_always_uses"]
        uses[e.np_id] = uses.get(e.np_id, 0) + 1
        mark_judgment(state, owner, AN_ALWAYS_ACTIVE_NP)
    else:
        owner["_np_turn"] = [state.clock["round"], state.clock["turn"]]


def _mark_release(owner: Character, np_id: str, always: bool) -> None:
    """Note a true-name release of ``np_id``: its once-per-release ability is ready ([선회])."""
    if not always:
        owner["_released"][np_id] = True


@precondition(FieldRaised)
def _field_free(state: State, e: FieldRaised) -> None:
    owner = character(state, e.owner, "FATE-NP-10")
    require(
        owner["field"] is None,
        "FATE-NP-10",
        msg("fate.field.already_up", "{owner} already holds a field up", owner=e.owner),
    )
    require_cause(
        state,
        e.cause,
        "FATE-NP-10",
        msg("fate.cause.field", "{owner}'s field {np_id}", owner=e.owner, np_id=e.np_id),
        RELEASE,
        Term("fate.np_type", "field"),
    )


@evolver(FieldRaised)
def _field_raised(state: State, e: FieldRaised) -> None:
    owner = find(state, e.owner)
    if owner is None:
        return
    owner["field"] = {
        "np": e.np_id,
        "grade": e.grade,
        "reality_marble": e.reality_marble,
        "plus_used": e.plus_used,
        "round": e.round,
    }
    owner["hp"] += e.hp_bonus
    ally_hp = legacy.ALLY_HP if e.ally_hp is None else e.ally_hp
    for name in e.allies:
        ally = find(state, name)
        if ally is not None:
            ally["hp"] += ally_hp


@precondition(FieldEnded)
def _field_up(state: State, e: FieldEnded) -> None:
    owner = character(state, e.owner, "FATE-NP-10")
    require_cause(
        state,
        e.cause,
        "FATE-NP-10",
        msg(
            "fate.cause.field_end",
            "the end of {owner}'s field {np_id}",
            owner=e.owner,
            np_id=e.np_id,
        ),
        RELEASE,
        msg("fate.noun.field_end", "end of the field"),
    )
    require(
        up_np(owner["field"]) == e.np_id,
        "FATE-NP-10",
        msg(
            "fate.field.not_up",
            "{owner} holds no field called {np_id} up",
            owner=e.owner,
            np_id=e.np_id,
        ),
    )


@evolver(FieldEnded)
def _field_ended(state: State, e: FieldEnded) -> None:
    owner = find(state, e.owner)
    if owner is not None and up_np(owner["field"]) == e.np_id:
        owner["field"] = None


@precondition(ArmySummoned)
def _army_free(state: State, e: ArmySummoned) -> None:
    owner = character(state, e.owner, "FATE-NP-11")
    require(
        owner["army"] is None or (e.familiars and _familiars_of(owner, e.np_id)),
        "FATE-NP-11",
        msg("fate.army.already_out", "{owner} already has an army out", owner=e.owner),
    )
    require_cause(
        state,
        e.cause,
        "FATE-NP-11",
        msg("fate.cause.army", "{owner}'s army {np_id}", owner=e.owner, np_id=e.np_id),
        RELEASE,
        Term("fate.np_type", "army"),
    )


def _familiars_of(owner: Character, np_id: str) -> bool:
    """True when the owner's army out is familiars of ``np_id`` (more may join them)."""
    army = owner["army"]
    return army is not None and army["familiars"] and army["np"] == np_id


@evolver(ArmySummoned)
def _army_summoned(state: State, e: ArmySummoned) -> None:
    owner = find(state, e.owner)
    if owner is None:
        return
    army = owner["army"]
    if e.familiars and army is not None and _familiars_of(owner, e.np_id):
        army["units"] += e.units
        return
    owner["army"] = {
        "np": e.np_id,
        "units": e.units,
        "free_units": e.free_units,
        "stat_points": e.stat_points,
        "upkeep_per_round": e.upkeep_per_round,
        "round": e.round,
        "plus_used": e.plus_used,
        "familiars": e.familiars,
    }


@precondition(ArmyDismissed)
def _army_out(state: State, e: ArmyDismissed) -> None:
    owner = character(state, e.owner, "FATE-NP-11")
    require(
        up_np(owner["army"]) == e.np_id,
        "FATE-NP-11",
        msg(
            "fate.army.not_out",
            "{owner} has no army called {np_id} out",
            owner=e.owner,
            np_id=e.np_id,
        ),
    )


@evolver(ArmyDismissed)
def _army_dismissed(state: State, e: ArmyDismissed) -> None:
    owner = find(state, e.owner)
    if owner is not None and up_np(owner["army"]) == e.np_id:
        owner["army"] = None


@precondition(AbilityUsed)
def _may_use(state: State, e: AbilityUsed) -> None:
    """The owner holds the NP and can pay, and makes no other judgment in the turn of an NP; a
    charge needs a release it was not used for, a shot the NP's field up (FATE-NP-13, -14)."""
    owner = character(state, e.owner, "FATE-NP-13")
    require(
        e.np_id in owner["phantasms"],
        "FATE-NP-13",
        msg("fate.np.not_held", "{owner} has no NP called {np_id}", owner=e.owner, np_id=e.np_id),
    )
    used = ability_judgment(e.np_id, e.ability)
    require(
        owner["mp"] >= e.mp,
        "FATE-NP-13",
        msg(
            "fate.ability.short_mp",
            "{owner} has {has} MP; {use} costs {mp}",
            owner=e.owner,
            has=owner["mp"],
            use=used,
            mp=e.mp,
        ),
    )
    require_action_free(state, e.action, ABILITY_USE, "FATE-NP-13")
    require_no_np_turn(state, e.owner, owner, used)
    if e.ability == "charge":
        require(
            owner["_released"].get(e.np_id),
            "FATE-NP-13",
            msg(
                "fate.charge.needs_release",
                "{np_id}'s charge needs a release of {np_id} it was not used for",
                np_id=e.np_id,
            ),
        )
    if e.ability == "shoot":
        require(
            up_np(owner["field"]) == e.np_id,
            "FATE-NP-13",
            msg(
                "fate.shoot.needs_field",
                "{np_id}'s shoot needs {np_id} up ({owner} holds no such field)",
                np_id=e.np_id,
                owner=e.owner,
            ),
        )


@evolver(AbilityUsed)
def _ability_used(state: State, e: AbilityUsed) -> None:
    register_action(state, e.action)
    owner = find(state, e.owner)
    if owner is None:
        return
    owner["mp"] = max(0, owner["mp"] - e.mp)
    mark_judgment(state, owner, ability_judgment(e.np_id, e.ability))
    if e.ability == "charge":
        owner["_released"][e.np_id] = False
