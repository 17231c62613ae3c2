"""``tablelog status``: the table at a glance, one line per character, unit or item with the
figures that matter in its system, read from the JSON state (SPEC, ``state --json``).

What a system shows is its declaration's ``status``
(:class:`tablelog.systems.declaration.StatusView`, in its CLI package:
``tablelog/cli/<system>/status.py``); a system without one shows HP."""

from __future__ import annotations

from typing import Any

import click

from tablelog.cli.core import domain_errors, echo, reader, session_of, warn_torn
from tablelog.text import Msg, Term, msg

__all__ = ["COMMANDS", "status_lines", "of", "hhmm", "figure", "term", "hp"]

Record = dict[str, Any]


def of(current: Any, most: Any) -> str:
    """Return ``3/5`` (current of most), or ``3`` when there is no most."""
    return f"{current}/{most}" if most is not None else str(current)


def hhmm(minutes: int) -> str:
    """Return minutes since midnight as ``HH:MM``."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def term(kind: str, key: Any) -> Any:
    """Return ``key`` as the game term ``Term(kind, key)`` (a value that is no string, a
    missing one, shows as it is)."""
    return Term(kind, key) if isinstance(key, str) else key


def figure(system: str, field: str, value: Any) -> Msg:
    """Return ``FIELD VALUE`` (``tiles 4/6``): a state field's name (its JSON key in English,
    the system's glossary label in another language) and its value."""
    return msg(
        "core.status.figure", "{field} {value}", field=Term(f"{system}.field", field), value=value
    )


def hp(c: Record) -> Msg:
    """Return ``HP 20/40``: a record's hit points of its most."""
    return msg("core.status.hp", "HP {value}", value=of(c.get("hp"), c.get("hp_max")))


# -- all systems ---------------------------------------------------------------------------


def _generic(name: str, c: Record) -> list[Msg | str]:
    return [hp(c)] if "hp" in c else []


def status_lines(data: Record) -> list[str]:
    """Return the status board of a JSON state: a title line, the clock line (where the system
    has one), then one aligned line per character and item (print them with ``echo``, which
    escapes control characters).

    Args:
        data: The state as ``state --json`` prints it (SPEC: system, title, seq, clock,
            characters, items, deck, and a system's own keys).
    """
    from tablelog import systems
    from tablelog.cli.columns import table_lines
    from tablelog.cli.queries import session_line

    words = reader()
    system = data["system"]
    lines = [session_line(data)]
    view = systems.get(system).status
    shown = view() if view is not None else None
    lines += [words(shown.clock(data))] if shown is not None and shown.clock is not None else []
    line_of = shown.line if shown is not None else _generic
    rows = [
        [name, "  ".join(said for said in (_said(words, p) for p in line_of(name, record)) if said)]
        for section in ("characters", "items")
        for name, record in (data.get(section) or {}).items()
    ]
    return lines + ([line.rstrip() for line in table_lines(["", ""], rows)[1:]] if rows else [])


def _said(words: Any, part: Any) -> str:
    """A part of a status line as the reader reads it ("" for a part it leaves out)."""
    if not part:
        return ""
    return str(words(part if isinstance(part, Msg | Term | str) else str(part)))


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
    for line in status_lines(state_json(folded, systems.get(folded.system).to_json)):
        echo(line)  # names and titles are data from the log: control characters escaped


COMMANDS = [status]
