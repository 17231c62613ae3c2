"""The values each event changed, as rows: the csv export (SPEC: one row per changed value).

The changes are the ones ``replay`` and ``history`` show (:func:`tablelog.projections.history.
narrate`: the diff of the visible state around each event), so nothing here knows an event's
fields: a system that changes its events changes these rows with them.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from tablelog.events.core import MARKERS, Event
from tablelog.projections.core import undone_after
from tablelog.projections.history import Entry, narrate
from tablelog.rules.core import escape_text

__all__ = ["CSV_COLUMNS", "active", "entity_field", "cell", "session_changes", "export_csv"]

CSV_COLUMNS = ("seq", "at", "actor", "type", "entity", "field", "old", "new", "rules")
ENTITY_SECTIONS = ("characters", "items")


def active(pairs: Iterable[tuple[Any, Event]], undone: set[int]) -> Iterator[tuple[Any, Event]]:
    """Yield the ``(record, event)`` pairs that count: no undo/redo marker, nothing undone."""
    for rec, event in pairs:
        if rec.type not in MARKERS and rec.seq not in undone:
            yield rec, event


def session_changes(
    session: Any,
    show_all: bool = False,
    until: int | None = None,
    observe: Callable[[Any, Event], None] | None = None,
) -> Iterator[Entry]:
    """Yield the entries of a session (up to seq ``until``) with the values each changed.

    Args:
        session: An open :class:`~tablelog.session.Session`.
        show_all: Every record as it was appended, undone ones marked, and undo/redo markers
            with what they took back or restored (``replay``); else only the events that count,
            each with what it changes in the final fold (``undone`` is never true then).
        until: The last seq (a position inside a command is rounded up to its end).
        observe: Called with every ``(record, event)`` read, before the entry it leads to.

    Raises:
        LogError: the log cannot be read or does not fold.
    """
    if until is not None:
        until = session.command_end(until)
    session.state(until)  # a log (or prefix) that does not fold: exit 3 before any output
    undone = undone_after(session.markers(until))
    pairs = session.events(until)
    if observe is not None:
        pairs = _observed(pairs, observe)
    if show_all:
        return narrate(session.blank_state(), pairs, undone, session.state)
    return narrate(session.blank_state(), active(pairs, undone), set(), session.state)


def _observed(
    pairs: Iterable[tuple[Any, Event]], observe: Callable[[Any, Event], None]
) -> Iterator[tuple[Any, Event]]:
    for rec, event in pairs:
        observe(rec, event)
        yield rec, event


def entity_field(path: str, names: Iterable[str] = ()) -> tuple[str, str]:
    """Split a change's path into the entity and the field: ``characters.Aria.hand`` is
    ``("Aria", "hand")``; a path outside characters and items has no entity (``("",
    "clock.turn")``). A name may hold dots: the longest of ``names`` (the entities the event
    names) that the path holds is the entity (``characters.Lt.Vex.hp`` is ``("Lt.Vex",
    "hp")``), else the path splits at its first dot."""
    section, _, rest = path.partition(".")
    if section not in ENTITY_SECTIONS or not rest:
        return "", path
    for name in sorted(names, key=len, reverse=True):
        if rest == name or rest.startswith(f"{name}."):
            return name, rest[len(name) + 1 :]
    name, _, field = rest.partition(".")
    return name, field


_FORMULA_STARTS = ("=", "+", "-", "@")  # a spreadsheet reads such a cell as a formula


def cell(value: Any) -> str:
    """Return a value as a spreadsheet cell: text as is, numbers and lists as JSON, None empty.

    Text is data from the log: its control characters are escaped (:func:`escape_text`), and
    text that a spreadsheet would run as a formula (``=HYPERLINK(…)``, ``+cmd|…``, ``-2+3``,
    ``@SUM(…)``) is written after a ``'``, which spreadsheets show as text (OWASP's advice for
    CSV injection). Numbers are never quoted: ``-3`` stays a number.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        text = escape_text(value)
        return f"'{text}" if text.startswith(_FORMULA_STARTS) else text
    return escape_text(json.dumps(value, ensure_ascii=False))


def export_csv(session: Any, out: TextIO, show_all: bool = False) -> int:
    """Write one CSV row per changed value (RFC 4180: CRLF, quotes doubled; UTF-8).

    Columns: :data:`CSV_COLUMNS`, and ``undone`` (true/false) with ``show_all``.

    Returns:
        The number of rows written (without the column names).

    Raises:
        LogError: the log cannot be read or does not fold.
    """
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*CSV_COLUMNS, "undone"] if show_all else CSV_COLUMNS)
    rows = 0
    for entry in session_changes(session, show_all):
        rules = " ".join(entry.event.RULES)
        marks = [cell(entry.undone)] if show_all else []
        for path, old, new in entry.changes:
            name, field = entity_field(path, entry.event.entities())
            writer.writerow(
                [
                    entry.seq,
                    cell(entry.at),
                    cell(entry.actor),
                    entry.event.TYPE,
                    cell(name),
                    cell(field),
                    cell(old),
                    cell(new),
                    rules,
                    *marks,
                ]
            )
            rows += 1
    return rows
