"""What the page reads beside the state: each system's sheet with its labels in the request's
language, and the ccfolia exports as the seat may see them (SERVER.md §4, docs/SERVER.md).

- :func:`sheet` — ``GET /api/tables/{id}/sheet``: the system's sheet declaration
  (:mod:`tablelog.texts.sheet`): which fields are gauges, figures, tables, word and card lists,
  the badge, which are internal; every label in the reader's words (``labels``: every field's,
  for the changes a page shows), each table's keys as its glossary's words, and the techs a
  character may use (``techs``: the catalogue's, by group).
- :func:`clipboard` — ``GET /api/tables/{id}/ccfolia/{name}``: one character as ccfolia's
  clipboard JSON (:func:`tablelog.exports.ccfolia.clipboard`), made from its redacted record (a
  hand the seat may not see stays ``"?"``).
- :func:`room_log` — ``GET /api/tables/{id}/ccfolia-log``: the session as a ccfolia room log,
  each line as the seat reads it (a record the seat may not see is left out).
"""

from __future__ import annotations

import io
from typing import Any

from tablelog import systems
from tablelog.lang import Words, reader
from tablelog.rules import glossary
from tablelog.server import views
from tablelog.server.tables import Seat, Table
from tablelog.texts.sheet import View, field_label

__all__ = ["sheet", "clipboard", "room_log", "field_label"]


def _terms(words: Words, kind: str) -> dict[str, str]:
    return {key: words.term(kind, key) for key in glossary.entries(kind)}


def _view(words: Words, system: str, view: View) -> dict[str, Any]:
    def named(field: str) -> dict[str, str]:
        return {"field": field, "label": field_label(words, system, field)}

    badge = None
    if view.badge is not None:
        field, kind = view.badge
        badge = {**named(field), "kind": kind, "terms": _terms(words, kind)}
    return {
        "gauges": [
            {"value": g.value, "maximum": g.maximum, "label": field_label(words, system, g.value)}
            for g in view.gauges
        ],
        "figures": [named(f) for f in view.figures],
        "tables": [
            {**named(field), "kind": kind, "terms": _terms(words, kind)}
            for field, kind in view.tables
        ],
        "words": [named(f) for f in view.words],
        "cards": [named(f) for f in view.cards],
        "badge": badge,
        "internal": list(view.internal),
    }


def sheet(table: Table, seat: Seat) -> dict[str, Any]:
    """``GET …/sheet``: how the table's characters and items read, in the reader's words."""
    system = table.state().system
    words = reader()
    declared = systems.get(system).sheet
    made = declared() if declared is not None else None
    if made is None:
        return {
            "system": system,
            "labels": {},
            "characters": None,
            "items": None,
            "techs": {},
            "dicebot": None,
            "levels": {},
        }
    techs = made.techs(words.lang) if made.techs is not None else {}
    fields = [*glossary.entries(f"{system}.field"), *made.characters.shown(), *made.items.shown()]
    return {
        "system": system,
        "labels": {field: field_label(words, system, field) for field in dict.fromkeys(fields)},
        "characters": _view(words, system, made.characters),
        "items": _view(words, system, made.items),
        "techs": {
            group: [{"id": i, "label": t} for i, t in found] for group, found in techs.items()
        },
        "dicebot": made.dicebot.get(words.lang),
        "levels": _terms(words, f"{system}.element"),  # the clock's levels (saga's five)
    }


def clipboard(table: Table, seat: Seat, name: str) -> dict[str, Any]:
    """``GET …/ccfolia/{name}``: the character ``name`` as ccfolia's clipboard JSON, from its
    record as the seat sees it; 404 when the table has no character of that name."""
    from tablelog.exports.ccfolia import clipboard as made

    data = views.state(table, seat, None)
    record = data["characters"].get(name)
    if record is None:
        raise views.no_name(name)
    words = reader()
    return made(data["system"], name, record, words)


def room_log(table: Table, seat: Seat) -> str:
    """``GET …/ccfolia-log``: the session as a ccfolia room log (HTML), every line as the
    seat reads it; made once per seq, kind of seat and language."""
    table.state()
    return views.whole(table, seat, ("ccfolia-log",), lambda: _room_log(table, seat))


def _room_log(table: Table, seat: Seat) -> str:
    from tablelog.exports.ccfolia import actions
    from tablelog.exports.ccfolia import room_log as write
    from tablelog.projections.core import undone_after

    words = reader()
    viewer = views.viewer_of(table, seat, table.current())
    out = io.StringIO()
    with table.reader() as session:
        session.state()
        undone = undone_after(session.markers())

        def describe(rec: Any, event: Any) -> str | None:
            line = viewer.record(views.record_line(rec, rec.seq in undone))
            if line is None:  # a record the seat may not see at all (another's whisper)
                return None
            if line["data"] is rec.data:
                return words.event(event)
            return views.described(line, event)[0] or None

        write(actions(session.events(), undone, describe, False, words), out, words.lang)
    return out.getvalue()
