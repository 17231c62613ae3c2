"""Catalogue commands (browse runes, base items, techs, procurement rows), which
:func:`tablelog.cli.extend.extend` adds to each system's group: ``pf2e rune list``, ``saga tech
show``, ``magicpunk material list`` … The catalogues are the packaged ones the rules read;
nothing here needs a log.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import click

__all__ = ["attach", "echo_rows"]

_ATTACHED = "tablelog.catalogues"


def attach(system: str, group: click.Group) -> click.Group:
    """Add ``system``'s catalogue commands to its click group (once) and return the group.

    A system without a catalogue module here is returned unchanged.
    """
    if getattr(group, _ATTACHED, False):
        return group
    setattr(group, _ATTACHED, True)
    try:
        module = importlib.import_module(f"tablelog.cli.catalogues.{system}")
    except ModuleNotFoundError:
        return group
    module.attach(group)
    return group


def echo_rows(rows: list[dict[str, Any]], columns: dict[str, str], as_json: bool) -> None:
    """Print catalogue rows: a JSON list of objects, or an aligned table of ``columns``.

    Args:
        rows: One dict per entry (JSON-ready values).
        columns: Row key -> column title, in display order (text output only).
        as_json: Print ``json.dumps(rows)`` on one line instead.
    """
    from tablelog.cli.columns import table_lines

    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    cells = [[_text(row.get(key)) for key in columns] for row in rows]
    for line in table_lines(list(columns.values()), cells):
        click.echo(line)
    click.echo(f"({len(rows)} {'entry' if len(rows) == 1 else 'entries'})")


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(map(str, value))
    return "" if value is None else str(value)
