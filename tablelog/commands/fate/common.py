"""Shared decider machinery for fate: a trial state that events are applied to as they are
decided, character lookups, and incoming hits meeting defense tiles.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 2.③; FATE-CAST-5, FATE-CHANT-2.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs

from tablelog.events.core import Event
from tablelog.events.fate import DamageTaken
from tablelog.events.fate.base import with_rules
from tablelog.projections.core import State, check, evolve
from tablelog.projections.fate.records import next_action_id
from tablelog.rules.core import RuleViolation
from tablelog.rules.fate import article, count, defense_tile_lost, meet_defense

__all__ = ["Pending", "who", "Tile", "hits_on", "DEFENSE_KINDS"]

DEFENSE_KINDS = ("defense", "np-defense")


class Pending:
    """Events decided so far, applied to a private copy of the state (decide stays pure).

    With ``action=True`` (a cast or a release) the cast or release event carries an action id,
    the seq it gets in the log (``action``), and every outcome event after it the same id as
    ``cause``: an outcome does not apply without its cast or release, and a refusal names the
    cast or release by its seq. Nothing here assumes how ``undo`` groups events.
    """

    def __init__(self, state: State, action: bool = False) -> None:
        self.state = copy.deepcopy(state)
        self.events: list[Event] = []
        self.tracked = action
        self.action = 0

    def add(self, event: Event) -> None:
        """Check ``event``'s precondition on the trial state, apply it, and keep it.

        Raises:
            RuleViolation: the rule of the event's precondition when it does not hold there.
        """
        if self.tracked:
            names = {field.name for field in attrs.fields(type(event))}  # type: ignore[misc, arg-type]
            if "action" in names:
                self.action = next_action_id(self.state, len(self.events))
                event = attrs.evolve(event, action=self.action)  # type: ignore[misc]
            elif "cause" in names and self.action:
                event = attrs.evolve(event, cause=self.action)  # type: ignore[misc]
        check(self.state, event)
        evolve(self.state, event)
        self.events.append(event)


def who(
    state: State, name: str, role: str | None = None, rule_id: str = "UNKNOWN-NAME"
) -> dict[str, Any]:
    """Return character ``name`` (of ``role`` if given).

    Raises:
        RuleViolation: UNKNOWN-NAME for no such character; ``rule_id`` for the wrong role.
    """
    record = state.characters.get(name)
    if record is None:
        raise RuleViolation("UNKNOWN-NAME", f"no character named {name}")
    if role is not None and record["role"] != role:
        raise RuleViolation(rule_id, f"{name} is {article(record['role'])}, not {article(role)}")
    return record


@attrs.frozen
class Tile:
    """One incoming judgment tile: HP and MP damage and injury grades."""

    hp: int
    mp: int = 0
    injury: int = 0


def _slots(target: dict[str, Any], kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """Return one entry per defense tile the target holds, oldest effect first."""
    slots = []
    for effect in target["effects"]:
        if effect["kind"] in kinds:
            tiles = effect["tiles"]
            if effect["per_turn"] is not None:
                used = target.get("_turn_use", {}).get(str(effect["id"]), 0)
                tiles = min(tiles, effect["per_turn"] - used)
            slots.extend([effect] * tiles)
    return slots


def hits_on(
    state: State,
    name: str,
    tiles: list[Tile],
    source: str,
    kinds: tuple[str, ...] = DEFENSE_KINDS,
    header: dict[str, str] | None = None,
    rules: tuple[str, ...] = (),
) -> DamageTaken:
    """Meet each incoming tile with one of the target's defense tiles, oldest first.

    Each defense tile meets at most one incoming tile of the hit; a code-cast one is lost only
    when that tile exceeds its block (FATE-CAST-5), a defensive NP's is used up either way.

    Args:
        state: The state the hits land on.
        name: The target.
        tiles: The incoming tiles, in order.
        source: What hits (a cast, an NP, "external").
        kinds: Effect kinds that may meet the tiles (none: the hit ignores defenses).
        header: Breakdown lines to put first (the per-tile formula).
        rules: The rule IDs of what hits; the defense tiles met add FATE-CAST-5 (code-cast
            defense) or FATE-NP-9 (defensive NP), broken chants FATE-CHANT-2.

    Returns:
        The DamageTaken event: totals, defense tiles spent, chants cancelled, per-tile breakdown,
        the rules behind it.

    Source: 코드 캐스트 2.③ and RULES.md decision FATE-CAST-5; FATE-CHANT-2.
    """
    target = state.characters[name]
    slots = _slots(target, kinds)
    breakdown = dict(header or {})
    spent: dict[str, int] = {}
    met: set[str] = set()
    total_hp = total_mp = total_injury = 0
    for i, tile in enumerate(tiles, start=1):
        line = f"{tile.hp} HP {tile.mp} MP" + (f" {tile.injury} injury" if tile.injury else "")
        hp, mp, injury = tile.hp, tile.mp, tile.injury
        if slots:
            effect = slots.pop(0)
            hit = meet_defense(hp, mp, effect["block_hp"], effect["block_mp"], effect["kind"])
            lost = defense_tile_lost(effect["kind"], hp, mp, injury, effect["block_hp"],
                                     effect["block_mp"])  # fmt: skip
            injury = max(0, injury - effect["block_hp"])
            hp, mp = hit.hp, hit.mp
            if lost:
                spent[str(effect["id"])] = spent.get(str(effect["id"]), 0) + 1
            met.add(effect["kind"])
            line += (
                f" - {effect['kind']} #{effect['id']} grade {effect['grade']}"
                f" ({effect['block_hp']} HP {effect['block_mp']} MP) = {hp} HP {mp} MP"
            ) + ("" if lost else " (the tile holds)")
        breakdown[f"tile {i}"] = line
        total_hp, total_mp, total_injury = total_hp + hp, total_mp + mp, total_injury + injury
    breakdown["total"] = f"{total_hp} HP, {total_mp} MP" + (
        f", {total_injury} injury" if total_injury else ""
    )
    cancelled = target["chants"] if (total_hp or total_mp or total_injury) else 0
    if cancelled:
        breakdown["chant"] = f"damage cancels {count(cancelled, 'pending chant')} (FATE-CHANT-2)"
    ids = with_rules(
        *rules,
        "defense" in met and "FATE-CAST-5",
        "np-defense" in met and "FATE-NP-9",
        bool(cancelled) and "FATE-CHANT-2",
    )
    return DamageTaken(name, total_hp, total_mp, source, total_injury, spent, cancelled, breakdown,
                       rules=ids)  # fmt: skip
