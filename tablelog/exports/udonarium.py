"""Udonarium (ユドナリウム): a character as the zip its character sheet saves and loads.

The zip holds ``data.xml``: a ``<character>`` whose ``<data name="character">`` has ``image``,
``common`` (``name``, ``size``) and ``detail`` sections — the gauges as ``numberResource``
(the maximum as the element's text, the current value as ``currentValue``), the figures as plain
values, the memo as a ``note`` — and a ``<chat-palette dicebot="…">`` of the character's own
checks, ``dicebot`` BCDice's id of the system where it has one (else ``DiceBot``). Labels and
section names are in the reader's language, from the system's sheet
(:mod:`tablelog.texts.sheet`), the same as the ccfolia export's.

Source: Udonarium's own source (TK11235/udonarium, v1.17.3): src/app/class/game-character.ts
(the structure), data-element.ts (the types), chat-palette.ts (``dicebot``), the object
serializer (attributes, 2-space indentation, the XML declaration) and save-data.service.ts
(``data.xml`` in the zip). docs/INTEROP.md cites them.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from tablelog.exports.ccfolia import as_number, memo_lines, sheet_of, shown_value
from tablelog.lang import Words
from tablelog.text import msg
from tablelog.texts.sheet import View, entries, label

__all__ = ["character_xml", "character_zip"]

_ENTITIES = {'"': "&quot;", "'": "&apos;"}


def _text(value: Any) -> str:
    return escape(str(value), _ENTITIES)


def _attr(value: Any) -> str:
    return quoteattr(str(value), _ENTITIES)


def character_xml(system: str, name: str, record: dict[str, Any], words: Words) -> str:
    """Return the ``data.xml`` of the character or unit ``name`` (its record as the exporting
    seat may see it), in Udonarium's own layout."""
    sheet = sheet_of(system)
    view = sheet.characters if sheet is not None else View()
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<character rotate="0" roll="0" location.name="table" location.x="0" location.y="0" '
        'posZ="0">',
        '  <data name="character">',
        '    <data name="image">',
        '      <data type="image" name="imageIdentifier"></data>',
        "    </data>",
        '    <data name="common">',
        f'      <data name="name">{_text(name)}</data>',
        '      <data name="size">1</data>',
        "    </data>",
        '    <data name="detail">',
    ]
    lines += _section(
        words(msg("core.udonarium.resources", "Resources")), _gauges(system, view, record, words)
    )
    figures = [
        f"<data name={_attr(words(term))}>{_text(shown_value(value, words))}</data>"
        for term, value in entries(system, view, record)
    ]
    lines += _section(words(msg("core.udonarium.figures", "Figures")), figures)
    memo = "\n".join(memo_lines(system, view, record, words))
    memo_name = _attr(words(msg("core.udonarium.memo", "Memo")))
    note = f'<data type="note" name={memo_name}>{_text(memo)}</data>'
    lines += _section(words(msg("core.udonarium.information", "Information")), [note])
    palette = "\n".join(sheet.palette(name, record, words.lang)) if sheet and sheet.palette else ""
    bot = (sheet.dicebot.get(words.lang) if sheet is not None else None) or "DiceBot"
    lines += [
        "    </data>",
        "  </data>",
        f"  <chat-palette dicebot={_attr(bot)}>{_text(palette)}</chat-palette>",
        "</character>",
    ]
    return "\n".join(lines) + "\n"


def _gauges(system: str, view: View, record: dict[str, Any], words: Words) -> list[str]:
    out = []
    for gauge in view.gauges:
        value, most = as_number(record.get(gauge.value)), as_number(record.get(gauge.maximum))
        if value is not None and most is not None:
            name = _attr(words(label(system, gauge.value)))
            out.append(
                f'<data type="numberResource" currentValue="{value}" name={name}>{most}</data>'
            )
    return out


def _section(title: str, children: list[str]) -> list[str]:
    if not children:
        return []
    return (
        [f"      <data name={_attr(title)}>"]
        + [f"        {child}" for child in children]
        + ["      </data>"]
    )


def character_zip(system: str, name: str, record: dict[str, Any], words: Words) -> bytes:
    """Return the zip Udonarium loads by drag and drop: ``data.xml`` (no image: tablelog
    keeps none)."""
    made = io.BytesIO()
    with zipfile.ZipFile(made, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.xml", character_xml(system, name, record, words).encode("utf-8"))
    return made.getvalue()
