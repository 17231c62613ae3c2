"""``tablelog status``: the table at a glance, one line per character, unit or item with the
figures that matter in its system, read from the JSON state (SPEC, ``state --json``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from tablelog.cli.core import domain_errors, echo, session_of, warn_torn

__all__ = ["COMMANDS", "status_lines"]

Record = dict[str, Any]


def _of(current: Any, most: Any) -> str:
    return f"{current}/{most}" if most is not None else str(current)


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# -- fate ----------------------------------------------------------------------------------

def _fate_effect(e: Record) -> str:
    turns = e.get("turns_left")
    left = f", {turns} turn{'' if turns == 1 else 's'}" if turns is not None else ""
    return f"{e.get('kind')} {e.get('grade')}x{e.get('tiles')}{left}"


def _fate(name: str, c: Record) -> list[str]:
    parts = [c.get("role", ""), f"HP {_of(c.get('hp'), c.get('hp_max'))}",
             f"MP {_of(c.get('mp'), c.get('mp_max'))}"]
    if c.get("role") == "master":
        parts.append(f"tiles {_of(c.get('tiles'), c.get('tiles_max'))}")
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


# -- magicpunk -----------------------------------------------------------------------------

def _cards(cards: list[str]) -> str:
    return f"{len(cards)} ({' '.join(cards)})" if cards else "0"


def _magicpunk(name: str, c: Record) -> list[str]:
    if "owner" in c:  # an item
        parts = [f"item of {c['owner']}", f"cards {_cards(c.get('cards') or [])}"]
        return parts + (["readied"] if c.get("readied") else [])
    parts = [f"HP {_of(c.get('hp'), c.get('hp_max'))}", f"hand {_cards(c.get('hand') or [])}",
             f"{c.get('money', 0)} Mj"]
    return parts + (["acted"] if c.get("acted") else [])


def _magicpunk_clock(data: Record) -> str:
    clock, deck = data.get("clock") or {}, data.get("deck") or {}
    table = data.get("table") or {}
    line = f"day {clock.get('day')} {_hhmm(clock.get('minutes', 0))}"
    line += f", round {table['round']}" if "round" in table else ""
    briefing = table.get("briefing")
    if briefing:
        line += f", briefing {briefing.get('package')} ({_briefed(briefing)})"
    return line + (f"; draw pile {deck.get('draw_count')}, discard "
                   f"{len(deck.get('discard') or [])}" if deck else "")


def _briefed(briefing: Record) -> str:
    taken = briefing.get("by_actor") or {}
    return ", ".join(f"{who.partition(':')[2] or who} {n}" for who, n in taken.items()) or "none"


# -- pf2e ----------------------------------------------------------------------------------

def _pf2e(name: str, c: Record) -> list[str]:
    if "base" not in c:  # a character
        return [f"level {c.get('level')}", f"{len(c.get('formulas') or [])} formulas",
                f"spent {c.get('spent_gp')} gp"]
    parts = [c.get("name", ""), f"held by {c.get('owner') or 'nobody'}",
             f"level {c.get('level')}", f"{c.get('price_gp')} gp"]
    parts += [f"dormant {' '.join(c['dormant'])}"] if c.get("dormant") else []
    etching = c.get("etching")
    parts += [f"etching {etching.get('rune')} by {etching.get('by')}"] if etching else []
    return parts + (["invested"] if c.get("invested") else [])


# -- saga ----------------------------------------------------------------------------------

def _saga(name: str, c: Record) -> list[str]:
    parts = [c.get("side", ""), f"HP {_of(c.get('hp'), c.get('hp_max'))}"]
    parts += [f"LP {_of(c['lp'], c.get('lp_max'))}"] if c.get("lp") is not None else []
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


# -- all systems ---------------------------------------------------------------------------

def _generic(name: str, c: Record) -> list[str]:
    return [f"HP {_of(c['hp'], c.get('hp_max'))}"] if "hp" in c else []


_LINES: dict[str, Callable[[str, Record], list[str]]] = {
    "fate": _fate, "magicpunk": _magicpunk, "pf2e": _pf2e, "saga": _saga}
_CLOCKS: dict[str, Callable[[Record], str]] = {
    "fate": _fate_clock, "magicpunk": _magicpunk_clock, "saga": _saga_clock}


def status_lines(data: Record) -> list[str]:
    """Return the status board of a JSON state: a title line, the clock line (where the system
    has one), then one aligned line per character and item (print them with ``echo``, which
    escapes control characters).

    Args:
        data: The state as ``state --json`` prints it (SPEC: system, title, seq, clock,
            characters, items, deck, and a system's own keys).
    """
    from tablelog.cli.columns import table_lines

    system = data["system"]
    lines = [f"{system} session {data.get('title') or '(untitled)'!r}, at #{data['seq']}"]
    clock = _CLOCKS.get(system)
    lines += [clock(data)] if clock is not None else []
    line_of = _LINES.get(system, _generic)
    rows = [[name, "  ".join(str(p) for p in line_of(name, record) if p)]
            for section in ("characters", "items")
            for name, record in (data.get(section) or {}).items()]
    return lines + ([line.rstrip() for line in table_lines(["", ""], rows)[1:]] if rows else [])


@click.command("status")
@click.pass_context
@domain_errors
def status(ctx: click.Context) -> None:
    """Show the table at a glance: one line per character, unit or item (HP, MP, LP, tiles,
    hand, effects with turns left, runes …) and the clock or round.

    `state` shows everything; this shows what a table glances at. Example: tablelog status
    """
    from tablelog import systems
    from tablelog.projections.history import state_json

    session = session_of(ctx)
    folded = session.state()
    warn_torn(session)
    for line in status_lines(state_json(folded, systems.load(folded.system))):
        echo(line)  # names and titles are data from the log: control characters escaped


COMMANDS = [status]
