"""``tablelog status`` for fate: HP, MP, tiles, chants, effects with turns left; the battle's
round."""

from __future__ import annotations

from typing import Any

from tablelog.cli.status import figure, hp, of, term
from tablelog.systems.declaration import StatusView
from tablelog.text import Listed, Msg, Term, msg, msgn

__all__ = ["STATUS"]

Record = dict[str, Any]


def _fate_effect(e: Record) -> Msg:
    turns = e.get("turns_left")
    left = (
        msgn("fate.status.turns_left", ", {n} turn", ", {n} turns", turns)
        if turns is not None
        else ""
    )
    return msg(
        "fate.status.effect",
        "{kind} {grade}x{tiles}{left}",
        kind=term("fate.kind", e.get("kind")),
        grade=e.get("grade"),
        tiles=e.get("tiles"),
        left=left,
    )


def _fate(name: str, c: Record) -> list[Msg | str]:
    parts: list[Msg | str] = [
        term("fate.role", c.get("role", "")),
        hp(c),
        msg("core.status.mp", "MP {value}", value=of(c.get("mp"), c.get("mp_max"))),
    ]
    if c.get("role") == "master":
        parts.append(figure("fate", "tiles", of(c.get("tiles"), c.get("tiles_max"))))
    parts += [figure("fate", "chants", c["chants"])] if c.get("chants") else []
    parts += [figure("fate", "injury", c["injury"])] if c.get("injury") else []
    parts += [msg("fate.status.back_row", "back row")] if c.get("row") == "back" else []
    parts += [msg("fate.status.raging", "raging")] if c.get("raging") else []
    parts += [
        msg("fate.status.up", "{field} up", field=Term("fate.field", key))
        for key in ("field", "army")
        if c.get(key)
    ]
    effects = c.get("effects") or []
    if effects:
        parts.append(
            msg(
                "fate.status.effects",
                "effects: {effects}",
                effects=Listed(tuple(_fate_effect(e) for e in effects), "semicolon"),
            )
        )
    return parts


def _fate_clock(data: Record) -> Msg:
    clock = data.get("clock") or {}
    if not clock.get("battle"):
        return msg("fate.status.no_battle", "no battle")
    return msg(
        "fate.status.battle",
        "battle: round {round}, turn {turn}",
        round=clock.get("round"),
        turn=clock.get("turn"),
    )


STATUS = StatusView(line=_fate, clock=_fate_clock)
