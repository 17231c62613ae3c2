"""``tablelog status`` for saga: side, HP, LP, effects; the turn, season and five elements."""

from __future__ import annotations

from typing import Any

from tablelog.cli.status import of
from tablelog.systems.declaration import StatusView

__all__ = ["STATUS"]

Record = dict[str, Any]


def _saga(name: str, c: Record) -> list[str]:
    parts = [c.get("side", ""), f"HP {of(c.get('hp'), c.get('hp_max'))}"]
    parts += [f"LP {of(c['lp'], c.get('lp_max'))}"] if c.get("lp") is not None else []
    effects = c.get("effects") or {}
    parts += [f"{k.replace('_', '-')} {v:+d}" for k, v in effects.items() if v]
    return parts + (["down"] if c.get("incapacitated") else [])


def _saga_clock(data: Record) -> str:
    clock = data.get("clock") or {}
    if not clock.get("turn"):
        return "no battle"
    levels = " ".join(f"{k} {v:+d}" for k, v in (clock.get("levels") or {}).items() if v)
    season = f", {clock['season']}" if clock.get("season") else ""
    return f"battle: turn {clock['turn']}{season}" + (f"; five elements {levels}" if levels else "")


STATUS = StatusView(line=_saga, clock=_saga_clock)
