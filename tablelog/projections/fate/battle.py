"""Evolvers and preconditions of fate battle time: clock, effect durations, upkeep, rest, morning.

Evolvers apply what the events record and never raise; the preconditions hold the checks (a
battle is on, the turn follows, the owner can pay).
"""

from __future__ import annotations

from tablelog.events.fate import (
    BattleEnded,
    BattleStarted,
    CrestHealed,
    RoundStarted,
    TilesRefilled,
    TurnStarted,
    UpkeepPaid,
)
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.fate.entities import Effect, characters, find
from tablelog.projections.fate.records import adjust, character
from tablelog.rules.fate import count
from tablelog.text import msg

__all__ = ["tick_effects"]


def tick_effects(state: State) -> None:
    """Start a turn for every effect: turns left −1; an effect at 0 ends (RULES.md turns).

    Effects keep their order (oldest first) and only ``turns_left`` changes, so a turn's diff is
    one line per effect; the tiles a per-turn effect gave this turn are private (``_turn_use``).
    """
    for who in characters(state).values():
        who["_turn_use"] = {}
        if not who["effects"]:  # most characters of a long campaign: nothing to count down
            continue
        kept: list[Effect] = []
        for effect in who["effects"]:
            left = effect["turns_left"]
            if left is not None:
                left = effect["turns_left"] = left - 1
            if left is None or left > 0:
                kept.append(effect)
        who["effects"] = kept


@precondition(BattleStarted)
def _no_battle_on(state: State, e: BattleStarted) -> None:
    require(
        not state.clock.get("battle"), "FATE-CC-6", msg("fate.battle.on", "a battle is already on")
    )


@evolver(BattleStarted)
def _battle_started(state: State, e: BattleStarted) -> None:
    state.clock.update(battle=True, round=1, turn=1)
    for who in characters(state).values():
        who["tiles"] = who["tiles_max"]
        who["_always_uses"] = {}
        who["_battle_uses"] = []
        who["_np_turn"] = None
        who["_acted"] = None


@precondition(TurnStarted)
def _turn_follows(state: State, e: TurnStarted) -> None:
    require(state.clock.get("battle"), "FATE-CAST-5", msg("fate.battle.not_on", "no battle is on"))
    require(
        e.turn == state.clock["turn"] + 1,
        "FATE-CAST-5",
        msg(
            "fate.turn.out_of_order",
            "turn {turn} does not follow turn {last}",
            turn=e.turn,
            last=state.clock["turn"],
        ),
    )


@evolver(TurnStarted)
def _turn_started(state: State, e: TurnStarted) -> None:
    state.clock["turn"] = e.turn
    tick_effects(state)


@precondition(RoundStarted)
def _round_follows(state: State, e: RoundStarted) -> None:
    require(state.clock.get("battle"), "FATE-NP-10", msg("fate.battle.not_on", "no battle is on"))
    require(
        e.round == state.clock["round"] + 1,
        "FATE-NP-10",
        msg(
            "fate.round.out_of_order",
            "round {round} does not follow round {last}",
            round=e.round,
            last=state.clock["round"],
        ),
    )


@evolver(RoundStarted)
def _round_started(state: State, e: RoundStarted) -> None:
    state.clock.update(round=e.round, turn=1)
    tick_effects(state)
    for who in characters(state).values():
        who["_always_uses"] = {}


@precondition(BattleEnded)
def _battle_on(state: State, e: BattleEnded) -> None:
    require(state.clock.get("battle"), "FATE-CAST-5", msg("fate.battle.not_on", "no battle is on"))


@evolver(BattleEnded)
def _battle_ended(state: State, e: BattleEnded) -> None:
    state.clock.update(battle=False, round=0, turn=0)
    for who in characters(state).values():
        who["effects"] = []
        who["chants"] = 0
        who["field"] = who["army"] = who["_np_turn"] = who["_acted"] = None
        who["_always_uses"] = {}
        who["_battle_uses"] = []
        who["_turn_use"] = {}


@precondition(UpkeepPaid)
def _upkeep_payable(state: State, e: UpkeepPaid) -> None:
    owner = character(state, e.owner, "FATE-NP-10")
    require(
        owner["mp"] >= e.mp,
        "FATE-NP-10",
        msg(
            "fate.upkeep.short",
            "{owner} has {has} MP; the upkeep is {mp} MP",
            owner=e.owner,
            has=owner["mp"],
            mp=e.mp,
        ),
    )


@evolver(UpkeepPaid)
def _upkeep_paid(state: State, e: UpkeepPaid) -> None:
    adjust(state, e.owner, "mp", -e.mp)


@precondition(CrestHealed)
def _crest_owner(state: State, e: CrestHealed) -> None:
    character(state, e.name, "FATE-CC-9")


@evolver(CrestHealed)
def _crest_healed(state: State, e: CrestHealed) -> None:
    adjust(state, e.name, "hp", e.hp, "hp_max")


@precondition(TilesRefilled)
def _tiles_fit(state: State, e: TilesRefilled) -> None:
    who = character(state, e.name, "FATE-CC-6")
    require(
        0 <= e.tiles <= who["tiles_max"],
        "FATE-CC-6",
        msg(
            "fate.tiles.over_max",
            "{name} holds at most {most}, not {tiles}",
            name=e.name,
            most=count(who["tiles_max"], "tile"),
            tiles=e.tiles,
        ),
    )


@evolver(TilesRefilled)
def _tiles_refilled(state: State, e: TilesRefilled) -> None:
    who = find(state, e.name)
    if who is not None:
        who["tiles"] = e.tiles
