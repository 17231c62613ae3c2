"""``tablelog status`` for magicpunk: HP, hand, money; items' cards; the clock, round, briefing
and piles."""

from __future__ import annotations

from typing import Any

from tablelog.cli.status import hhmm, of
from tablelog.systems.declaration import StatusView

__all__ = ["STATUS"]

Record = dict[str, Any]


def _cards(cards: list[str]) -> str:
    return f"{len(cards)} ({' '.join(cards)})" if cards else "0"


def _magicpunk(name: str, c: Record) -> list[str]:
    if "owner" in c:  # an item
        parts = [f"item of {c['owner']}", f"cards {_cards(c.get('cards') or [])}"]
        return parts + (["readied"] if c.get("readied") else [])
    parts = [
        f"HP {of(c.get('hp'), c.get('hp_max'))}",
        f"hand {_cards(c.get('hand') or [])}",
        f"{c.get('money', 0)} Mj",
    ]
    return parts + (["acted"] if c.get("acted") else [])


def _magicpunk_clock(data: Record) -> str:
    clock, deck = data.get("clock") or {}, data.get("deck") or {}
    table = data.get("table") or {}
    line = f"day {clock.get('day')} {hhmm(clock.get('minutes', 0))}"
    line += f", round {table['round']}" if "round" in table else ""
    briefing = table.get("briefing")
    if briefing:
        line += f", briefing {briefing.get('package')} ({_briefed(briefing)})"
    return line + (
        f"; draw pile {deck.get('draw_count')}, discard {len(deck.get('discard') or [])}"
        if deck
        else ""
    )


def _briefed(briefing: Record) -> str:
    taken = briefing.get("by_actor") or {}
    return ", ".join(f"{who.partition(':')[2] or who} {n}" for who, n in taken.items()) or "none"


STATUS = StatusView(line=_magicpunk, clock=_magicpunk_clock)
