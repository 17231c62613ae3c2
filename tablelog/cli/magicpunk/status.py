"""``tablelog status`` for magicpunk: HP, hand, money; items' cards; the clock, round, briefing
and piles."""

from __future__ import annotations

from typing import Any

from tablelog.cli.status import figure, hhmm, hp
from tablelog.systems.declaration import StatusView
from tablelog.text import Listed, Msg, msg

__all__ = ["STATUS"]

Record = dict[str, Any]


def _cards(cards: list[str]) -> str:
    return f"{len(cards)} ({' '.join(cards)})" if cards else "0"


def _magicpunk(name: str, c: Record) -> list[Msg | str]:
    if "owner" in c:  # an item
        parts: list[Msg | str] = [
            msg("magicpunk.status.item_of", "item of {owner}", owner=c["owner"]),
            figure("magicpunk", "cards", _cards(c.get("cards") or [])),
        ]
        return parts + ([msg("magicpunk.status.readied", "readied")] if c.get("readied") else [])
    parts = [
        hp(c),
        figure("magicpunk", "hand", _cards(c.get("hand") or [])),
        msg("magicpunk.status.money", "{money} Mj", money=c.get("money", 0)),
    ]
    return parts + ([msg("magicpunk.status.acted", "acted")] if c.get("acted") else [])


def _magicpunk_clock(data: Record) -> Msg:
    clock, deck = data.get("clock") or {}, data.get("deck") or {}
    table = data.get("table") or {}
    briefing = table.get("briefing")
    return msg(
        "magicpunk.status.clock",
        "day {day} {time}{round}{briefing}{piles}",
        day=clock.get("day"),
        time=hhmm(clock.get("minutes", 0)),
        round=msg("magicpunk.status.round", ", round {round}", round=table["round"])
        if "round" in table
        else "",
        briefing=msg(
            "magicpunk.status.briefing",
            ", briefing {package} ({taken})",
            package=briefing.get("package"),
            taken=_briefed(briefing),
        )
        if briefing
        else "",
        piles=msg(
            "magicpunk.status.piles",
            "; draw pile {draw}, discard {discard}",
            draw=deck.get("draw_count"),
            discard=len(deck.get("discard") or []),
        )
        if deck
        else "",
    )


def _briefed(briefing: Record) -> Msg | Listed:
    taken = briefing.get("by_actor") or {}
    if not taken:
        return msg("core.list.none", "none")
    return Listed(tuple(f"{who.partition(':')[2] or who} {n}" for who, n in taken.items()), "comma")


STATUS = StatusView(line=_magicpunk, clock=_magicpunk_clock)
