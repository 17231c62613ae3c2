"""ccfolia (ココフォリア): a character in one paste, and a session as its room log.

- :func:`clipboard`: a character or unit as ccfolia's clipboard JSON, ``{"kind": "character",
  "data": {...}}`` — ``status`` its gauges with their maximums, ``params`` its figures (strings),
  ``memo`` what a player reads of it, ``commands`` its chat palette (BCDice commands where BCDice
  has the system, ``tablelog`` lines otherwise), all in the reader's language, from its
  system's sheet (:mod:`tablelog.texts.sheet`). Source: ccfolia's developer documentation,
  "Clipboard API" (docs.ccfolia.com, beta since 1.19.0): the fields and their types.
- :func:`room_log`: the session as a ccfolia room log ("ログ出力"): one HTML file titled
  ``ccfolia - logs``, one ``<p style="color:#RRGGBB;">`` per action with three ``<span>``\\ s —
  ``[tab]``, the speaker (the seat that acted), the action's line — written as it is read
  (memory flat in the log's length). Source: the layout the public log tools read (docs/INTEROP.md
  cites them).

The record given is already as the exporting seat may see it (the server redacts it first);
nothing here reads hidden state.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from tablelog import systems
from tablelog.lang import Words
from tablelog.text import Listed, Term, msg
from tablelog.texts.sheet import Sheet, View, entries, label

__all__ = [
    "clipboard",
    "clipboard_line",
    "room_log",
    "actions",
    "message",
    "color_of",
    "sheet_of",
    "as_number",
    "shown_value",
    "memo_lines",
    "COLORS",
    "HEAD",
    "FOOT",
]

COLORS = (
    "#e53935",
    "#8e24aa",
    "#3949ab",
    "#039be5",
    "#00897b",
    "#43a047",
    "#c0ca33",
    "#fb8c00",
    "#6d4c41",
    "#546e7a",
    "#d81b60",
    "#5e35b1",
)
"""The speakers' colours (ccfolia's chat palette of twelve, each readable on white)."""


def color_of(speaker: str) -> str:
    """Return ``speaker``'s colour: the same for the same name in every export."""
    digest = hashlib.sha256(speaker.encode("utf-8")).digest()
    return COLORS[digest[0] % len(COLORS)]


def sheet_of(system: str) -> Sheet | None:
    declared = systems.get(system).sheet
    return None if declared is None else declared()


def as_number(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def shown_value(value: Any, words: Words) -> str:
    if isinstance(value, bool):
        return words(msg("core.value.yes", "yes") if value else msg("core.value.no", "no"))
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    if isinstance(value, dict):  # saga's weapons: {type: [power, …]} as ``type=power`` each
        return " ".join(
            f"{key}={one}"
            for key, held in value.items()
            for one in (held if isinstance(held, list) else [held])
        )
    return "" if value is None else str(value)


def clipboard(system: str, name: str, record: dict[str, Any], words: Words) -> dict[str, Any]:
    """Return ``{"kind": "character", "data": {...}}`` for the character or unit ``name``.

    Args:
        system: The log's system.
        name: Its name.
        record: Its record in the JSON state, as the exporting seat may see it.
        words: The reader's words (labels, memo, palette in its language).
    """
    sheet = sheet_of(system)
    view = sheet.characters if sheet is not None else View()
    status = []
    for gauge in view.gauges:
        value, most = as_number(record.get(gauge.value)), as_number(record.get(gauge.maximum))
        if value is not None and most is not None:
            status.append({"label": words(label(system, gauge.value)), "value": value, "max": most})
    params = [
        {"label": words(term), "value": shown_value(value, words)}
        for term, value in entries(system, view, record)
    ]
    data: dict[str, Any] = {
        "name": name,
        "memo": "\n".join(memo_lines(system, view, record, words)),
        "status": status,
        "params": params,
        "color": color_of(name),
        "secret": False,
        "invisible": False,
        "hideStatus": False,
    }
    if sheet is not None and sheet.palette is not None:
        data["commands"] = "\n".join(sheet.palette(name, record, words.lang))
    return {"kind": "character", "data": data}


def memo_lines(system: str, view: View, record: dict[str, Any], words: Words) -> list[str]:
    """The lines of what a player reads beyond the figures: what it is, its word lists (runes,
    formulas, attributes), how many cards it holds (their faces only where it may see them)."""
    lines = []
    if view.badge is not None and record.get(view.badge[0]) is not None:
        lines.append(words(Term(view.badge[1], str(record[view.badge[0]]))))
    spelled = dict(view.spelled)
    for field in view.words:
        values = record.get(field)
        if values and field in spelled:
            values = [spelled[field](value) for value in values]
        if values:
            lines.append(f"{words(label(system, field))}: {shown_value(values, words)}")
    for field in view.cards:
        cards = record.get(field)
        if isinstance(cards, list):
            seen = [c for c in cards if c != "?"]
            held = words(
                msg(
                    "core.ccfolia.cards",
                    "{label}: {n} ({cards})",
                    label=label(system, field),
                    n=len(cards),
                    cards=Listed(tuple(seen), "space") if seen else "-",
                )
            )
            lines.append(held)
    return lines


def clipboard_line(system: str, name: str, record: dict[str, Any], words: Words) -> str:
    """The clipboard JSON of one character as one line of text (what the browser's clipboard
    or ``tablelog export --format ccfolia`` gives)."""
    return json.dumps(
        clipboard(system, name, record, words), ensure_ascii=False, separators=(",", ":")
    )


HEAD = (
    "<!DOCTYPE html>\n"
    '<html lang="{lang}">\n'
    "  <head>\n"
    '    <meta charset="UTF-8" />\n'
    '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />\n'
    '    <meta http-equiv="X-UA-Compatible" content="ie=edge" />\n'
    "    <title>ccfolia - logs</title>\n"
    "  </head>\n"
    "  <body>\n"
    "    \n\n\n"
)
"""The head of a ccfolia room log, as ccfolia writes it (the tools check its seventh line)."""
FOOT = "  </body>\n</html>\n"


def message(tab: str, speaker: str, text: str) -> str:
    """One message of a room log: ``<p style="color:…;">`` and its three spans."""
    shown = html.escape(text).replace("\n", "<br>")
    return (
        f'<p style="color:{color_of(speaker)};">\n'
        f"  <span> [{html.escape(tab)}]</span>\n"
        f"  <span>{html.escape(speaker)}</span> :\n"
        f"  <span>\n    {shown}\n  </span>\n</p>\n\n"
    )


Action = tuple[str, str, list[str]]
"""One action of a log: (tab, speaker, its lines)."""


def room_log(actions: Iterable[Action], out: TextIO, lang: str) -> int:
    """Write a ccfolia room log of ``actions`` to ``out`` as they come; return how many."""
    out.write(HEAD.format(lang=lang))
    count = 0
    for tab, speaker, lines in actions:
        out.write(message(tab, speaker, "\n".join(lines)))
        count += 1
    out.write(FOOT)
    return count


NOTES = frozenset({"core.Noted", "core.NotedAbout"})


def actions(
    pairs: Iterable[tuple[Any, Any]],
    undone: set[int],
    describe: Callable[[Any, Any], str | None],
    show_all: bool = False,
    words: Words | None = None,
) -> Iterable[Action]:
    """Group a log's ``(record, event)`` pairs into actions (one per command id), in order.

    Args:
        pairs: As :meth:`tablelog.session.Session.events` yields them.
        undone: The seqs undone.
        describe: ``(record, event) -> line`` as the exporting seat reads it, or None for a
            record it may not see at all (a whisper to others).
        show_all: Keep undone actions (their lines marked) and the undo/redo markers.
        words: The reader's words (the mark of an undone action).
    """
    from tablelog.events.core import MARKERS

    said = words or Words()
    current: tuple[object, str, str] | None = None
    lines: list[str] = []
    for rec, event in pairs:
        key = rec.cmd if rec.cmd is not None else (rec.at, rec.actor)
        if current is not None and key != current[0]:
            if lines:
                yield current[1], current[2], lines
            current, lines = None, []
        if not show_all and (rec.seq in undone or rec.type in MARKERS):
            continue
        line = describe(rec, event)
        if line is None:
            continue
        if rec.seq in undone:
            line = said(msg("core.ccfolia.undone", "[undone] {line}", line=line))
        if current is None:
            current = (key, "other" if rec.type in NOTES else "main", rec.actor)
        lines.append(line)
    if current is not None and lines:
        yield current[1], current[2], lines
