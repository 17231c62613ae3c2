"""A state value as a person reads it in their language: the text views' values (``state``,
``status``, ``history``'s and ``log``'s changes, an audit line's formula inputs).

English shows a value as its JSON writes it (:func:`tablelog.cli.core.fmt_value`: ``true``,
``{"wood": 5}``), the JSON keys being English words. Japanese and Korean read it through the
system's glossary, never as JSON: ``true``/``false`` as はい/いいえ (예/아니요), a list joined as
the language joins, a table as ``KEY VALUE`` pairs (``木 5、火 0``) and a nested table in
brackets, each key and each word by the first of these that has it:

1. the glossary table the system's sheet declares for the field (``Sheet.terms``, its tables'
   and badge's kinds: saga's ``levels`` are ``saga.element``);
2. the system's (then core's) field labels (``levels`` is 五行レベル);
3. the one word every table of the system's glossary that has the key gives it (``anti-army``
   is fate's 対軍 wherever it stands);

else as it is: names, ids, card codes and words a table made up (a skill, a race) are data.
"""

from __future__ import annotations

import functools
from typing import Any

from tablelog.rules import glossary
from tablelog.text import Listed, Msg, Secret, Shown, Term, msg
from tablelog.texts.sheet import Sheet, sheet_of

__all__ = ["readable", "terms_of"]

_NOT_WORDS = ("field", "breakdown")  # glossary tables of labels and audit lines, not values
_UNITS = frozenset({"gp", "HP", "MP", "LP", "Mj"})  # a formula's units: the same in every language


def readable(system: str | None, field: str, value: Any) -> Msg | Term | str:
    """Return ``value`` of field ``field`` as a sentence a language renders (see the module).

    Args:
        system: The log's system (its glossary and sheet), None: core's words only.
        field: The field's JSON key (the last part of its path: ``levels``, ``incapacitated``),
            or a breakdown's key.
        value: The value as the state JSON (or the event's breakdown) holds it.
    """
    if value is None:
        return "-"
    if isinstance(value, Msg | Term):  # a value a language renders already
        return value
    if isinstance(value, Listed | Shown | Secret):  # a secret stays one: its reader's to read
        return msg("core.value.list", "{items}", items=value)
    if isinstance(value, bool):
        return msg("core.value.yes", "yes") if value else msg("core.value.no", "no")
    if isinstance(value, str):
        return _word(system, field, value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        if not value:
            return msg("core.value.none", "none")
        return msg(
            "core.value.list",
            "{items}",
            items=Listed(tuple(readable(system, field, v) for v in value), "comma"),
        )
    if isinstance(value, dict):
        return _table(system, field, value)
    return str(value)


def _table(system: str | None, field: str, value: dict[Any, Any]) -> Msg:
    if not value:
        return msg("core.value.none", "none")
    pairs = []
    for key, item in value.items():
        label = _word(system, field, str(key), keys=True)
        inner = field if _declared(system, field) else str(key)
        shown = readable(system, inner, item)
        if isinstance(item, dict) and item:
            pairs.append(msg("core.value.group", "{key} ({value})", key=label, value=shown))
        else:
            pairs.append(msg("core.value.pair", "{key} {value}", key=label, value=shown))
    return msg("core.value.table", "{pairs}", pairs=Listed(tuple(pairs), "comma"))


def _word(system: str | None, field: str, key: str, keys: bool = False) -> Msg | Term | str:
    """The term ``key`` is at ``field`` (a value, or with ``keys`` a table's key), or ``key``."""
    declared = _declared(system, field)
    if declared is not None and key in glossary.entries(declared):
        return Term(declared, key)
    if keys:
        for kind in (f"{system}.field", "core.field") if system else ("core.field",):
            for spelled in (key, key.replace("-", "_")):  # fate's mods: hp-per-tile
                if spelled in glossary.entries(kind):
                    return Term(kind, spelled)
    found = _anywhere(system or "core").get(key)
    if found is not None or keys or " " not in key:
        return found if found is not None else key
    return _formula(system or "core", key)


def _formula(system: str, text: str) -> Msg | str:
    """A formula the rules wrote (fate's ``7 x 5 (anti-army A+) = 35``) in the reader's words
    where the glossary has every word of it (a grade's letter and the numbers and signs as they
    are), else as recorded: a formula half in one language reads in neither."""
    import re

    parts = re.split(r"([A-Za-z][A-Za-z0-9-]*[A-Za-z0-9])", text)
    terms = _anywhere(system)
    if not all(p in terms or p in _UNITS for p in parts[1::2]):  # prose: as recorded
        return text
    return msg(
        "core.value.formula",  # a unit (gp, HP) as it is
        "{parts}",
        parts=Listed(tuple(terms.get(p, p) for p in parts), "joined"),
    )


def _declared(system: str | None, field: str) -> str | None:
    return terms_of(system).get(field) if system else None


def terms_of(system: str) -> dict[str, str]:
    """Return the glossary table of each field's words by the system's sheet: its ``terms``,
    its views' ``tables`` and ``badge`` (``{"side": "saga.side", "levels": "saga.element"}``);
    {} before the system's texts are loaded."""
    found = _TERMS.get(system)
    if found is None:
        sheet = sheet_of(system)
        if sheet is None:
            return {}
        found = _TERMS[system] = _terms(sheet)
    return found


_TERMS: dict[str, dict[str, str]] = {}


def _terms(sheet: Sheet) -> dict[str, str]:
    found: dict[str, str] = {}
    for view in (sheet.characters, sheet.items):
        found.update(dict(view.tables))
        if view.badge is not None:
            found[view.badge[0]] = view.badge[1]
    found.update(dict(sheet.terms))
    return found


@functools.cache
def _anywhere(system: str) -> dict[str, Term]:
    """Each key that the system's glossary tables of words (core's too) give one word in
    every language, whichever tables have it."""
    seen: dict[str, list[Term]] = {}
    for kind in [*glossary.kinds(system), *glossary.kinds("core")]:
        if kind.partition(".")[2] in _NOT_WORDS or kind.startswith("core.field"):
            continue
        for key in glossary.entries(kind):
            seen.setdefault(key, []).append(Term(kind, key))
    return {
        key: terms[0]
        for key, terms in seen.items()
        if len({tuple(glossary.word(t.kind, t.key, lang) for lang in ("ja", "ko")) for t in terms})
        == 1
    }
