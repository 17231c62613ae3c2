"""``tablelog status`` for fate: HP, MP, tiles, chants, effects with turns left; the battle's
round."""

from __future__ import annotations

from typing import Any

from tablelog.cli.status import of
from tablelog.systems.declaration import StatusView

__all__ = ["STATUS"]

Record = dict[str, Any]


def _fate_effect(e: Record) -> str:
    turns = e.get("turns_left")
    left = f", {turns} turn{'' if turns == 1 else 's'}" if turns is not None else ""
    return f"{e.get('kind')} {e.get('grade')}x{e.get('tiles')}{left}"


def _fate(name: str, c: Record) -> list[str]:
    parts = [
        c.get("role", ""),
        f"HP {of(c.get('hp'), c.get('hp_max'))}",
        f"MP {of(c.get('mp'), c.get('mp_max'))}",
    ]
    if c.get("role") == "master":
        parts.append(f"tiles {of(c.get('tiles'), c.get('tiles_max'))}")
    parts += [f"chants {c['chants']}"] if c.get("chants") else []
    parts += [f"injury {c['injury']}"] if c.get("injury") else []
    parts += ["back row"] if c.get("row") == "back" else []
    parts += ["raging"] if c.get("raging") else []
    parts += [f"{key} up" for key in ("field", "army") if c.get(key)]
    effects = c.get("effects") or []
    parts += [f"effects: {'; '.join(_fate_effect(e) for e in effects)}"] if effects else []
    return parts


def _fate_clock(data: Record) -> str:
    clock = data.get("clock") or {}
    if not clock.get("battle"):
        return "no battle"
    return f"battle: round {clock.get('round')}, turn {clock.get('turn')}"


STATUS = StatusView(line=_fate, clock=_fate_clock)
