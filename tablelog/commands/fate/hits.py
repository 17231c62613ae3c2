"""Incoming hits: tiles meeting defense tiles, attacks an NP ignores, wounds, an EX defensive NP's
counter damage.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 2.③; 노블 판타즘 3.②, 4.②, 5.③ ⑨, 5-2.③;
FATE-CAST-5, FATE-CHANT-2, FATE-NP-12, FATE-NP-13, FATE-NP-15.
"""

from __future__ import annotations

import attrs

from tablelog.commands.fate.common import Pending
from tablelog.events.fate import DamageTaken
from tablelog.events.fate.base import with_rules
from tablelog.projections.core import State
from tablelog.projections.fate.entities import Character, Effect, characters
from tablelog.rules.fate import count, defense_tile_lost, ignores_rank, meet_defense, parse_grade

__all__ = ["Tile", "Attack", "hits_on", "land_hits", "DEFENSE_KINDS"]

DEFENSE_KINDS = ("defense", "np-defense")


@attrs.frozen
class Tile:
    """One incoming judgment tile: HP and MP damage and injury grades."""

    hp: int
    mp: int = 0
    injury: int = 0


@attrs.frozen
class Attack:
    """Who hits and with what, where a rule needs to know.

    Attributes:
        attacker: The character who hits (None: from outside the tool); an EX defensive NP's
            counter hits it (FATE-NP-12).
        rank: The attack's grade number (E 1 … A 5, EX 7; None: unknown), for an NP that
            ignores attacks of its grade or lower (FATE-NP-15).
        true_name_np: The damage of a true-name attack NP (the counter's 10 more).
        wound: ``(key "OWNER NP", grades, most)`` of an NP's wound ability (FATE-NP-13).
    """

    attacker: str | None = None
    rank: int | None = None
    true_name_np: bool = False
    wound: tuple[str, int, int] | None = None


def _slots(target: Character, kinds: tuple[str, ...]) -> list[Effect]:
    """Return one entry per defense tile the target holds, oldest effect first."""
    slots: list[Effect] = []
    for effect in target["effects"]:
        if effect["kind"] in kinds:
            tiles = effect["tiles"]
            if effect["per_turn"] is not None:
                used = target["_turn_use"].get(str(effect["id"]), 0)
                tiles = min(tiles, effect["per_turn"] - used)
            slots.extend([effect] * tiles)
    return slots


def _win(effect: Effect, attack: Attack, now: int) -> int:
    """Return the counter HP a fully blocked tile deals (0: no counter this round)."""
    counter = effect["counter"]
    if not counter or counter["round"] != now:
        return 0
    return int(counter["hp"]) + (int(counter["np_hp"]) if attack.true_name_np else 0)


def hits_on(
    state: State,
    name: str,
    tiles: list[Tile],
    source: str,
    kinds: tuple[str, ...] = DEFENSE_KINDS,
    header: dict[str, str] | None = None,
    rules: tuple[str, ...] = (),
    attack: Attack = Attack(),
) -> tuple[DamageTaken, list[tuple[str, int]]]:
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
        attack: Who hits (an EX defensive NP's counter needs the attacker).

    Returns:
        The DamageTaken event (totals, defense tiles lost, chants cancelled, per-tile breakdown,
        the rules behind it) and the judgments won by an EX defensive NP's tiles with their
        counter HP (``[(line, hp)]``).

    Source: 코드 캐스트 2.③ and RULES.md decision FATE-CAST-5; FATE-CHANT-2; 노블 판타즘 4.②.
    """
    target = characters(state)[name]
    slots = _slots(target, kinds)
    breakdown = dict(header or {})
    spent: dict[str, int] = {}
    met: set[str] = set()
    wins: list[tuple[str, int]] = []
    total_hp = total_mp = total_injury = 0
    for i, tile in enumerate(tiles, start=1):
        line = f"{tile.hp} HP {tile.mp} MP" + (f" {tile.injury} injury" if tile.injury else "")
        hp, mp, injury = tile.hp, tile.mp, tile.injury
        if slots:
            effect = slots.pop(0)
            hit = meet_defense(hp, mp, effect["block_hp"], effect["block_mp"], effect["kind"])
            lost = defense_tile_lost(
                effect["kind"], hp, mp, injury, effect["block_hp"], effect["block_mp"]
            )
            injury = max(0, injury - effect["block_hp"])
            hp, mp = hit.hp, hit.mp
            if lost:
                spent[str(effect["id"])] = spent.get(str(effect["id"]), 0) + 1
            met.add(effect["kind"])
            line += (
                f" - {effect['kind']} #{effect['id']} grade {effect['grade']}"
                f" ({effect['block_hp']} HP {effect['block_mp']} MP) = {hp} HP {mp} MP"
            ) + ("" if lost else " (the tile holds)")
            counter = 0 if hp or mp or injury else _win(effect, attack, state.clock["round"])
            if counter:
                wins.append((f"tile {i} blocked by {effect['kind']} #{effect['id']}", counter))
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
    damage = DamageTaken(
        name, total_hp, total_mp, source, total_injury, spent, cancelled, breakdown, rules=ids
    )
    return damage, wins


def _ignoring(target: Character, rank: int | None) -> str | None:
    """Return the target's NP that ignores an attack of ``rank`` (``"god-hand B"``), or None."""
    for np_id, np in target["phantasms"].items():
        ignores = np["mods"].get("ignores-attacks") is True and np["release"] == "always"
        if ignores and ignores_rank(parse_grade(np["grade"]), rank):
            return f"{np_id} {np['grade']}"
    return None


def _wounded(target: Character, damage: DamageTaken, attack: Attack) -> DamageTaken:
    """Add an NP's wound to damage that took HP, up to its limit on this target (FATE-NP-13)."""
    if attack.wound is None or damage.hp <= 0:
        return damage
    key, grades, most = attack.wound
    had = target["_wounds"].get(key, 0)
    given = max(0, min(grades, most - had))
    if not given:
        return damage
    line = f"{count(grades, 'injury grade')} ({had} of {most} from {key} so far) = {given}"
    return attrs.evolve(
        damage,
        injury=damage.injury + given,
        wound=key,
        breakdown={**damage.breakdown, "wound": line},
        rules=with_rules(*damage.rules, "FATE-NP-13"),
    )


def _counter(
    state: State, name: str, attacker: str, wins: list[tuple[str, int]], header: dict[str, str]
) -> DamageTaken:
    """Return the fixed HP an EX defensive NP's won judgments deal to the attacker (the
    breakdown names the NP or cast it blocked, first)."""
    total = sum(hp for _, hp in wins)
    breakdown: dict[str, str] = {key: header[key] for key in ("np", "cast") if key in header}
    breakdown.update({f"win {i}": f"{line}: {hp} HP" for i, (line, hp) in enumerate(wins, 1)})
    breakdown["total"] = f"{total} HP (fixed: no defense, no anti-magic)"
    chants = characters(state)[attacker]["chants"]
    if chants:
        breakdown["chant"] = f"damage cancels {count(chants, 'pending chant')} (FATE-CHANT-2)"
    return DamageTaken(
        attacker,
        total,
        0,
        f"{name} counter",
        0,
        {},
        chants,
        breakdown,
        rules=with_rules("FATE-NP-12", bool(chants) and "FATE-CHANT-2"),
    )


def land_hits(
    pending: Pending,
    name: str,
    tiles: list[Tile],
    source: str,
    attack: Attack = Attack(),
    kinds: tuple[str, ...] = DEFENSE_KINDS,
    header: dict[str, str] | None = None,
    rules: tuple[str, ...] = (),
) -> DamageTaken:
    """Land hits on ``name`` (see :func:`hits_on`) and add the events they make to ``pending``:
    nothing but a note of it when an NP of the target ignores the attack (FATE-NP-15); the
    damage, with an NP's wound; the counter damage an EX defensive NP deals (FATE-NP-12).

    Returns:
        The target's DamageTaken.

    Source: 노블 판타즘 4.② (보구를 사용한 회기의 모든 판정에 대해 <승리> 할 때마다 생명력에 5점의
        고정 피해 …; 진명 개방형 공격 보구를 피해 없이 방어해 낼 경우 … 추가로 10점), 5.⑨ (B랭크
        이하의 공격을 무시), 5-2.③ ([부상]); FATE-NP-12, FATE-NP-13, FATE-NP-15.
    """
    target = characters(pending.state)[name]
    ignorer = _ignoring(target, attack.rank)
    if ignorer is not None:
        line = f"rank {attack.rank} is {ignorer} or lower: the attack is ignored"
        damage = DamageTaken(
            name,
            0,
            0,
            source,
            breakdown={**(header or {}), "ignored": line},
            rules=with_rules(*rules, "FATE-NP-15"),
        )
        pending.add(damage)
        return damage
    damage, wins = hits_on(pending.state, name, tiles, source, kinds, header, rules, attack)
    damage = _wounded(target, damage, attack)
    pending.add(damage)
    if wins and attack.attacker in pending.state.characters:
        pending.add(_counter(pending.state, name, str(attack.attacker), wins, header or {}))
    return damage
