"""SaGa commands of the battle flow: start a battle, end a turn, wipe and retry.

Each decides the outcomes its event records: the five-element levels and season of the turn
that begins, the tech-power decay, the LP after a wipe.

Source: saga-eb-damage.ja.txt, バトルの五行レベル, 効果値, 現在LPの変動; SAGA-EFF-1, SAGA-FIVE-1,
SAGA-FIVE-2, SAGA-LP-3, SAGA-LP-4.
"""

from __future__ import annotations

from typing import Any

import attrs

from tablelog.commands.core import decider
from tablelog.events.core import Event
from tablelog.events.saga import BattleStarted, PartyWiped, TurnEnded
from tablelog.projections.core import State
from tablelog.projections.saga.entities import units
from tablelog.rules.core import RuleViolation, require
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import five
from tablelog.rules.saga.effects import tech_power_effect_after_turn
from tablelog.rules.saga.vitals import lp_after_wipe
from tablelog.text import msg

__all__ = ["EndTurn", "StartBattle", "WipeParty"]


@attrs.frozen
class StartBattle:
    """Start a battle on a terrain element, with seasons, or neither."""

    terrain: str | None = None
    seasons: bool = False


@attrs.frozen
class EndTurn:
    """End the current battle turn."""


@attrs.frozen
class WipeParty:
    """The party was wiped out: retry the battle."""


def _turn_clock(battle: dict[str, Any], turn: int) -> tuple[dict[str, int], str | None]:
    """Return the five-element levels and the season (None without seasons) of a battle turn.

    Source: SAGA-FIVE-1, SAGA-FIVE-2.
    """
    terrain, seasons = battle["terrain"], battle["seasons"]
    levels = five.battle_levels(terrain, seasons=seasons, turn=turn).value
    return levels, five.season_for_turn(turn) if seasons else None


@decider(StartBattle)
def decide_start_battle(state: State, c: StartBattle) -> list[Event]:
    """Start a battle (turn 1) with the levels and season of its first turn.

    Raises:
        RuleViolation: SAGA-FIVE-1 for an unknown terrain or both terrain and seasons.
    """
    if c.seasons and c.terrain is not None:
        raise RuleViolation("SAGA-FIVE-1", five.TERRAIN_OR_SEASONS)
    require(
        c.terrain is None or c.terrain in cat.ELEMENTS,
        "SAGA-FIVE-1",
        five.unknown_terrain(c.terrain),
    )
    levels, season = _turn_clock({"terrain": c.terrain, "seasons": c.seasons}, 1)
    return [BattleStarted(terrain=c.terrain, seasons=c.seasons, levels=levels, season=season)]


@decider(EndTurn)
def decide_end_turn(state: State, c: EndTurn) -> list[Event]:
    """End the turn: the next displayed turn (at most 99), its levels and season, each
    tech-power effect's decay.

    Raises:
        RuleViolation: SAGA-FIVE-2 outside a battle.
    """
    battle = state.extra.get("battle")
    if battle is None:
        raise RuleViolation("SAGA-FIVE-2", msg("saga.battle.none", "no battle has started"))
    turn = state.clock["turn"]
    after = five.next_displayed_turn(turn)
    levels, season = _turn_clock(battle, after)
    values = {name: unit["effects"]["tech_power"] for name, unit in units(state).items()}
    lost = {name: v - tech_power_effect_after_turn(v) for name, v in values.items()}
    return [
        TurnEnded(
            turn=turn,
            next_turn=after,
            levels=levels,
            season=season,
            tech_power_lost={name: n for name, n in lost.items() if n},
        )
    ]


@decider(WipeParty)
def decide_wipe(state: State, c: WipeParty) -> list[Event]:
    """Wipe and retry: each LP-tracked ally's LP after the loss and the recovery.

    Raises:
        RuleViolation: SAGA-LP-3 when there is no ally.
    """
    allies = {n: u for n, u in units(state).items() if u["side"] == "ally"}
    require(allies, "SAGA-LP-3", msg("saga.wipe.no_ally", "there is no ally to wipe"))
    tracked = {
        n: (lp, most, u)
        for n, u in allies.items()
        if (lp := u["lp"]) is not None and (most := u["lp_max"]) is not None
    }
    lp_after = {
        name: lp_after_wipe(
            lp, u["lp_damage_effect"], incapacitated=u["incapacitated"], lp_max=most
        ).value
        for name, (lp, most, u) in tracked.items()
    }
    battle = state.extra.get("battle")
    levels, season = _turn_clock(battle, 1) if battle else (None, None)
    return [
        PartyWiped(
            lp_before={name: lp for name, (lp, _, _) in tracked.items()},
            lp_damage_effect={name: u["lp_damage_effect"] for name, (_, _, u) in tracked.items()},
            lp_after=lp_after,
            out=tuple(name for name, lp in lp_after.items() if lp == 0),
            levels=levels,
            season=season,
        )
    ]
