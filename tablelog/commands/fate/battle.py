"""Fate battle-time commands: battle start/end, turn, round, morning, rest, dismiss.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 1.1 2) 4); RULES.md decision on turns;
FATE-CC-6, FATE-CC-9, FATE-NP-10, FATE-NP-11.
"""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.commands.fate.common import Pending, who
from tablelog.commands.fate.summons import army_upkeep, field_drain, field_upkeep
from tablelog.events.core import Event
from tablelog.events.fate import (
    ArmyDismissed,
    BattleEnded,
    BattleStarted,
    CrestHealed,
    FieldEnded,
    RoundStarted,
    TilesRefilled,
    TurnStarted,
)
from tablelog.projections.core import State
from tablelog.projections.fate.entities import characters
from tablelog.rules.core import RuleViolation, require
from tablelog.rules.fate import crest_heal_hp, listing, parse_grade
from tablelog.text import msg

__all__ = ["StartBattle", "StartTurn", "StartRound", "EndBattle", "Morning", "Rest", "Dismiss"]


@attrs.frozen
class StartBattle:
    """Start a battle (round 1, turn 1; tile pools refill)."""


@attrs.frozen
class StartTurn:
    """Start the next turn of the round (effects tick; fields pay upkeep)."""


@attrs.frozen
class StartRound:
    """Close the round and start the next one at turn 1 (fields and armies pay upkeep)."""


@attrs.frozen
class EndBattle:
    """End the battle."""


@attrs.frozen
class Morning:
    """Morning: every master's crest heals its grade in HP."""


@attrs.frozen
class Rest:
    """Rest outside battle: every master's tile pool refills."""


@attrs.frozen
class Dismiss:
    """End an owner's bounded field or send its army away."""

    owner: str
    np_id: str


def _in_battle(state: State, rule_id: str) -> None:
    require(
        state.clock.get("battle"),
        rule_id,
        msg("fate.battle.off_start", "no battle is on (start one: fate battle start)"),
    )


@decider(StartBattle)
def decide_start_battle(state: State, c: StartBattle) -> list[Event]:
    """Start a battle unless one is on."""
    require(
        not state.clock.get("battle"), "FATE-CC-6", msg("fate.battle.on", "a battle is already on")
    )
    return [BattleStarted()]


@decider(StartTurn)
def decide_start_turn(state: State, c: StartTurn) -> list[Event]:
    """Start the next turn and charge field upkeep."""
    _in_battle(state, "FATE-CAST-5")
    pending = Pending(state)
    pending.add(TurnStarted(state.clock["turn"] + 1))
    field_upkeep(pending)
    return pending.events


@decider(StartRound)
def decide_start_round(state: State, c: StartRound) -> list[Event]:
    """Start the next round (turn 1), charge field and army upkeep, drain for fields that do."""
    _in_battle(state, "FATE-NP-10")
    pending = Pending(state)
    pending.add(RoundStarted(state.clock["round"] + 1))
    field_upkeep(pending)
    field_drain(pending)
    army_upkeep(pending)
    return pending.events


@decider(EndBattle)
def decide_end_battle(state: State, c: EndBattle) -> list[Event]:
    """End the battle; effects, chants, fields and armies end with it (decision)."""
    _in_battle(state, "FATE-CAST-5")
    return [BattleEnded()]


@decider(Morning)
def decide_morning(state: State, c: Morning) -> list[Event]:
    """Heal each master by the crest grade, capped at max HP (FATE-CC-9)."""
    require(
        not state.clock.get("battle"),
        "FATE-CC-9",
        msg("fate.morning.in_battle", "morning comes outside battle"),
    )
    events: list[Event] = []
    for name, record in characters(state).items():
        if record["role"] != "master":
            continue
        grade = crest_heal_hp(parse_grade(record["crest"]))
        hp = min(grade, record["hp_max"] - record["hp"])
        if hp > 0:
            events.append(
                CrestHealed(
                    name,
                    hp,
                    {
                        "crest": f"{record['crest']} = {grade} HP",
                        "healed": f"min({grade}, {record['hp_max']} - {record['hp']}) = {hp}",
                    },
                )
            )
    return events


@decider(Rest)
def decide_rest(state: State, c: Rest) -> list[Event]:
    """Refill every master's tile pool outside battle (FATE-CC-6)."""
    require(
        not state.clock.get("battle"),
        "FATE-CC-6",
        msg("fate.rest.in_battle", "no rest during a battle"),
    )
    return [
        TilesRefilled(name, record["tiles_max"])
        for name, record in characters(state).items()
        if record["role"] == "master" and record["tiles"] < record["tiles_max"]
    ]


@decider(Dismiss)
def decide_dismiss(state: State, c: Dismiss) -> list[Event]:
    """End a field or an army of ``owner``."""
    record = who(state, c.owner)
    if record["field"] is not None and record["field"]["np"] == c.np_id:
        return [FieldEnded(c.owner, c.np_id, "dismissed", rules=("FATE-NP-10",))]
    if record["army"] is not None and record["army"]["np"] == c.np_id:
        return [ArmyDismissed(c.owner, c.np_id, "dismissed")]
    up = [x["np"] for x in (record["field"], record["army"]) if x is not None]
    raise RuleViolation(
        "UNKNOWN-NAME",
        msg(
            "fate.dismiss.none",
            "{owner} has no field or army called {np_id} up{up}",
            owner=c.owner,
            np_id=c.np_id,
            up=msg("fate.dismiss.up", " ({names} is up)", names=listing(up))
            if up
            else msg("fate.dismiss.none_up", " (none is up)"),
        ),
    )
