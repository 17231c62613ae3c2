"""A ccfolia clipboard character back into a log (``tablelog import-ccfolia``): every value it
carries is read (:func:`reading`), carried into the system's ``… add`` command line
(:func:`add_line`), and checked against the record that line makes (:func:`check_carried`):
what the line cannot carry is refused naming its label and value, never dropped.

Labels are read in any of the three languages through the glossary; the record a line makes
is rendered in each language and read the same way, so a Japanese paste checks against the
Japanese rendering. Source: ccfolia's developer documentation, "Clipboard API" (the fields);
docs/INTEROP.md, "Round trip of the numbers".
"""

from __future__ import annotations

import functools
import shlex
import unicodedata
from typing import Any

import attrs

from tablelog.exports.ccfolia import clipboard, sheet_of
from tablelog.lang import LANGUAGES, Words
from tablelog.rules import glossary
from tablelog.rules.core import RuleViolation
from tablelog.text import Listed, Msg, msg
from tablelog.texts.sheet import Adds, Sheet

__all__ = ["Read", "reading", "add_line", "check_carried", "unusable", "ROOM_ONLY"]

ROOM_ONLY = frozenset({"color", "secret", "invisible", "hideStatus", "owner"})
"""The clipboard fields that are the room's, not the character's (how ccfolia shows it)."""

_READ = frozenset({"name", "memo", "status", "params", "commands"})


@attrs.frozen
class Read:
    """One value a clipboard character carries, read back.

    Attributes:
        label: Its label as pasted (a status or param label, ``memo``, ``commands``, a key).
        shown: Its value as pasted (``20/26`` for a bar).
        key: What it is: ``("gauge", field)``, ``("field", field)``, ``("entry", kind, key)``,
            ``("palette", line)``; None: nothing tablelog reads (an unknown label, a free
            memo line, ``initiative``, ``externalUrl``).
        value: The value compared (folded text; a bar's ``(value, max)``).
        raw: The value as the command line takes it.
    """

    label: str
    shown: str
    key: tuple[str, ...] | None
    value: Any = None
    raw: Any = None


def _folded(text: Any) -> str:
    return unicodedata.normalize("NFKC", str(text)).casefold().strip()


@functools.cache
def _yes_no() -> dict[str, str]:
    """The words of yes and no in every language, folded, as ``"true"`` / ``"false"``."""
    found = {}
    for lang in LANGUAGES:
        words = Words(lang)
        found[_folded(words(msg("core.value.yes", "yes")))] = "true"
        found[_folded(words(msg("core.value.no", "no")))] = "false"
    return found


def _value(text: Any) -> str:
    folded = _folded(text)
    return _yes_no().get(folded, folded)


def _field(system: str, sheet: Sheet, given: Any) -> str | None:
    """The field of the sheet a label names: its key itself, or its word in any language (a
    word that names a field the sheet does not show, as saga's ``str``, is a table's entry)."""
    if not isinstance(given, str):
        return None
    shown = sheet.characters.shown()
    key = given if given in shown else glossary.key_of(f"{system}.field", given)
    return key if key in shown else None


def _term(kind: str, given: str) -> str | None:
    """The key a word names in a glossary table: the key itself or its word in any language."""
    return given if given in glossary.entries(kind) else glossary.key_of(kind, given)


def reading(system: str, sheet: Sheet, data: dict[str, Any]) -> list[Read]:
    """Read every value a clipboard character's data carries, in order: its bars, its params,
    its memo's lines, its palette's lines, and any other field that holds a value.

    Args:
        system: The log's system.
        sheet: Its sheet.
        data: The ``data`` of ``{"kind": "character", "data": …}``.

    Returns:
        One :class:`Read` each; ``key`` None for what names nothing tablelog reads.
    """
    found = [_bar(system, sheet, bar) for bar in _listed(data.get("status"))]
    at: list[Any] = [0, set()]  # the table the entries are at, and the keys read in it
    found += [_param(system, sheet, param, at) for param in _listed(data.get("params"))]
    found += [_memo_line(system, sheet, line) for line in _lines(data.get("memo"))]
    found += [
        Read("commands", line, ("palette", line), True) for line in _lines(data.get("commands"))
    ]
    for key, value in data.items():
        if key not in _READ | ROOM_ONLY and value not in (None, "", 0, False, [], {}):
            found.append(Read(key, str(value), None))  # initiative: no system has one
    return found


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [] if value in (None, "") else [value]


def _lines(value: Any) -> list[str]:
    return [line.strip() for line in str(value or "").splitlines() if line.strip()]


def _bar(system: str, sheet: Sheet, bar: Any) -> Read:
    if not isinstance(bar, dict):
        return Read("status", str(bar), None)
    given, value, most = bar.get("label"), bar.get("value"), bar.get("max")
    shown = f"{value}/{most}"
    field = _field(system, sheet, given)
    gauge = next((g for g in sheet.characters.gauges if g.value == field), None)
    if gauge is None:
        return Read(str(given), shown, None)
    return Read(str(given), shown, ("gauge", gauge.value), (_value(value), _value(most)), bar)


def _param(system: str, sheet: Sheet, param: Any, at: list[Any]) -> Read:
    """A param: a figure, a ``TABLE: term`` entry (fate's ``stored: heal``), or an entry of a
    table. The export writes the tables in the sheet's order, so an entry is read in the table
    the entries are at or a later one that has its label, and a label already read there moves
    on (saga's SLv ``spell`` before its effect ``spell``, two kinds with one word)."""
    if not isinstance(param, dict):
        return Read("params", str(param), None)
    given, value = param.get("label"), param.get("value")
    label, shown = str(given), "" if value is None else str(value)
    field = _field(system, sheet, given)
    if field is not None:
        return Read(label, shown, ("field", field), _value(value), shown)
    qualified = _qualified(system, sheet, label)
    if qualified is not None:
        return Read(label, shown, ("entry", *qualified), _value(value), shown)
    tables = sheet.characters.tables
    for index in range(at[0], len(tables)):
        table, kind = tables[index]
        key = _term(kind, label)
        if key is not None and (index > at[0] or key not in at[1]):
            at[:] = [index, at[1] if index == at[0] else set()]
            at[1].add(key)
            return Read(label, shown, ("entry", table, key), _value(value), shown)
    free = dict(pair for adds in sheet.adds for pair in adds.free)
    for table, kind in tables:
        rank = glossary.key_of(free[kind], shown) if kind in free else None
        if rank is not None and label.strip():
            return Read(label, shown, ("entry", table, label.strip()), rank, rank)
    return Read(label, shown, None)


def _qualified(system: str, sheet: Sheet, label: str) -> tuple[str, str] | None:
    """The ``(table, key)`` a ``TABLE: term`` label names (:func:`entry_label`), or None."""
    head, sep, rest = unicodedata.normalize("NFKC", label).partition(":")
    table = _field(system, sheet, head.strip()) if sep else None
    kind = dict(sheet.characters.tables).get(table or "")
    key = _term(kind, rest.strip()) if kind is not None else None
    return None if table is None or key is None else (table, key)


def _memo_line(system: str, sheet: Sheet, line: str) -> Read:
    """A memo line: the badge (fate's role, saga's side) or ``LABEL: words``."""
    badge = sheet.characters.badge
    if badge is not None and (role := _term(badge[1], line)) is not None:
        return Read("memo", line, ("field", badge[0]), role, role)
    head, sep, rest = line.partition(":")
    field = _field(system, sheet, head.strip()) if sep else None
    if field is None:
        return Read("memo", line, None)
    return Read(head.strip(), rest.strip(), ("field", field), _value(rest), rest.strip())


def _fields(found: list[Read], sheet: Sheet) -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    """The fields (by key) and table entries (by table, then key) of what was read."""
    fields: dict[str, Any] = {}
    tables: dict[str, dict[str, str]] = {}
    for read in found:
        if read.key is None:
            continue
        if read.key[0] == "gauge":
            gauge = next(g for g in sheet.characters.gauges if g.value == read.key[1])
            fields[gauge.value], fields[gauge.maximum] = read.raw.get("value"), read.raw.get("max")
        elif read.key[0] == "field":
            fields[read.key[1]] = read.raw
        elif read.key[0] == "entry":
            tables.setdefault(read.key[1], {})[read.key[2]] = str(read.raw)
    return fields, tables


def add_line(system: str, data: dict[str, Any]) -> str:
    """Return the ``… add`` command line that adds a ccfolia clipboard character (``data``) to
    a ``system`` log: the fields its values give, as the system's sheet says the command takes
    them. What the line cannot carry is :func:`check_carried`'s to refuse.

    Raises:
        RuleViolation: CORE-IMPORT naming the character and the field when a field the command
            needs is not there, or cannot be read (never a guessed value).
    """
    sheet = sheet_of(system)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RuleViolation("CORE-IMPORT", msg("core.ccfolia.no_name", "a character has no name"))
    if sheet is None or not sheet.adds:
        raise RuleViolation(
            "CORE-IMPORT",
            msg(
                "core.ccfolia.no_adds",
                "{system} characters cannot be read from ccfolia",
                system=system,
            ),
        )
    fields, tables = _fields(reading(system, sheet, data), sheet)
    adds = _adds_for(sheet, fields, name)
    return shlex.join([*adds.words.split(), name, *_options(adds, fields, tables, name)])


def _options(  # noqa: C901 - one branch per ccfolia field the import carries or refuses
    adds: Adds, fields: dict[str, Any], tables: dict[str, dict[str, str]], name: str
) -> list[str]:
    words: list[str] = []
    for field, option, required in adds.options:
        if fields.get(field) not in (None, ""):
            words += [option, str(fields[field])]
        elif required:
            raise RuleViolation("CORE-IMPORT", _missing(name, field, option, adds.words))
    for table, option, _kind in adds.tables:
        for key, value in tables.get(table, {}).items():
            words += [option, f"{key}={value}"]
    for field, option, kind, required in adds.lists:
        found = [_term(kind, w) or w for w in str(fields.get(field) or "").split()]
        if not found and required:
            raise RuleViolation("CORE-IMPORT", _missing(name, field, option, adds.words))
        for word in found:
            words += [option, word]
    for field, value, option in adds.switches:
        if field in fields and _value(fields[field]) == value:
            words.append(option)
    return words


def check_carried(system: str, data: dict[str, Any], record: dict[str, Any], command: str) -> None:
    """Refuse the first value of a pasted character that the record its add line makes does
    not hold: a label tablelog does not read, or a value the line cannot carry (a current HP
    below the maximum, a hand, a learnt formula).

    Args:
        system: The log's system.
        data: The pasted character's data.
        record: The JSON record the add line makes (on a blank state).
        command: The add line's words (``"magicpunk character add"``), for the message.

    Raises:
        RuleViolation: CORE-IMPORT naming the character, the label and the value.
    """
    sheet = sheet_of(system)
    assert sheet is not None  # add_line refused a system without a sheet
    name = str(data.get("name"))
    made: dict[tuple[str, ...], set[Any]] = {}
    for lang in LANGUAGES:
        for read in reading(system, sheet, clipboard(system, name, record, Words(lang))["data"]):
            if read.key is not None:
                made.setdefault(read.key, set()).add(read.value)
    for read in reading(system, sheet, data):
        if read.key is None:
            raise RuleViolation("CORE-IMPORT", _unread(name, read, system))
        if read.value not in made.get(read.key, set()):
            raise RuleViolation("CORE-IMPORT", _not_carried(name, read, command))


def _unread(name: str, read: Read, system: str) -> Msg:
    return msg(
        "core.ccfolia.unread",
        "{name}: {label} {value!r} is nothing a {system} character has; remove it from the "
        "paste to import the rest",
        name=name,
        label=read.label,
        value=read.shown,
        system=system,
    )


def _not_carried(name: str, read: Read, command: str) -> Msg:
    return msg(
        "core.ccfolia.not_carried",
        "{name}: {label} {value!r} cannot be carried: {command} cannot give it that value",
        name=name,
        label=read.label,
        value=read.shown,
        command=command,
    )


def unusable(data: dict[str, Any], line: str, reason: str) -> Msg:
    """The refusal of an add line whose values its options do not take (``--body eight``)."""
    return msg(
        "core.ccfolia.unusable",
        "{name}: its values make the line {line!r}, which is refused: {reason}",
        name=str(data.get("name")),
        line=line,
        reason=reason,
    )


def _missing(name: str, field: str, option: str, command: str) -> Msg:
    return msg(
        "core.ccfolia.missing",
        "{name}: no {field} in its status or params, which {command} needs ({option})",
        name=name,
        field=field,
        command=command,
        option=option,
    )


def _adds_for(sheet: Sheet, fields: dict[str, Any], name: str) -> Adds:
    for adds in sheet.adds:
        if adds.when is None or fields.get(adds.when[0]) == adds.when[1]:
            return adds
    field = next(a.when[0] for a in sheet.adds if a.when is not None)
    raise RuleViolation(
        "CORE-IMPORT",
        msg(
            "core.ccfolia.which",
            "{name}: no {field} in its params or memo says which command adds it ({choices})",
            name=name,
            field=field,
            choices=Listed(tuple(a.when[1] for a in sheet.adds if a.when), "or"),
        ),
    )
