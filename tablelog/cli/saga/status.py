"""``tablelog status`` for saga: side, HP, LP, effects; the turn, season and five elements."""

from __future__ import annotations

from typing import Any

from tablelog.cli.core import reader
from tablelog.cli.status import hp, of, term
from tablelog.systems.declaration import StatusView
from tablelog.text import Listed, Msg, Term, msg

__all__ = ["STATUS"]

Record = dict[str, Any]


def _effect(key: str) -> Any:
    """An effect's field name: ``tech-power`` in English (the key, its ``_`` as ``-``), the
    glossary's label of the field otherwise."""
    return key.replace("_", "-") if reader().lang == "en" else Term("saga.field", key)


def _saga(name: str, c: Record) -> list[Msg | str]:
    parts: list[Msg | str] = [term("saga.side", c.get("side", "")), hp(c)]
    if c.get("lp") is not None:
        parts.append(msg("saga.status.lp", "LP {value}", value=of(c["lp"], c.get("lp_max"))))
    effects = c.get("effects") or {}
    parts += [
        msg("saga.status.effect", "{effect} {value}", effect=_effect(k), value=f"{v:+d}")
        for k, v in effects.items()
        if v
    ]
    return parts + ([msg("saga.status.down", "down")] if c.get("incapacitated") else [])


def _saga_clock(data: Record) -> Msg:
    clock = data.get("clock") or {}
    if not clock.get("turn"):
        return msg("saga.status.no_battle", "no battle")
    levels = [
        msg(
            "saga.status.level",
            "{element} {value}",
            element=term("saga.element", k),
            value=f"{v:+d}",
        )
        for k, v in (clock.get("levels") or {}).items()
        if v
    ]
    return msg(
        "saga.status.battle",
        "battle: turn {turn}{season}{levels}",
        turn=clock["turn"],
        season=msg("saga.status.season", ", {season}", season=term("saga.season", clock["season"]))
        if clock.get("season")
        else "",
        levels=msg(
            "saga.status.levels", "; five elements {levels}", levels=Listed(tuple(levels), "space")
        )
        if levels
        else "",
    )


STATUS = StatusView(line=_saga, clock=_saga_clock)
