"""How a person reads a character, a unit or an item: its system's sheet, as data.

Each system's texts module declares one :class:`Sheet` (``SHEET``) — which state fields are
gauges with a maximum (HP, MP, LP, judgment tiles), which are figures (abilities, level, money),
which are tables of figures (skills, stats), word lists (formulas, runes, attributes), card
lists (a hand), which are internal bookkeeping no one reads, and the chat palette of a
character's own checks. The faces build on it: the web page's character sheet, the ccfolia and
Udonarium exports (tablelog/exports/ccfolia.py, udonarium.py), the field labels of ``state``.
A field's label is its glossary word, ``Term("<system>.field", key)`` (the key in English).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs

from tablelog.text import Msg, Term, msg

__all__ = [
    "Gauge",
    "View",
    "Sheet",
    "Adds",
    "Techs",
    "label",
    "field_label",
    "entries",
    "entry_label",
    "sheet_of",
]


@attrs.frozen
class Gauge:
    """A bar: the field ``value`` out of the field ``maximum``."""

    value: str
    maximum: str


@attrs.frozen
class View:
    """The sheet of one kind of record (characters and units, or items).

    Attributes:
        gauges: Bars, in the order a sheet shows them.
        figures: Single values shown large (numbers and short words), in order.
        tables: ``(field, kind)``: fields holding ``{key: value}`` (skills, stats, powers), one
            figure per entry, its key a term of the glossary table ``kind``.
        words: Fields holding lists of ids or words (formulas, runes, attributes).
        cards: Fields holding card codes (a hand, an item's cards).
        badge: ``(field, kind)``: the field naming what the record is (fate's ``role``, saga's
            ``side``) and the glossary table of its values, or None.
        internal: Fields of the record no person needs (bookkeeping the rules keep).
        spelled: ``(field, fn)``: how one entry of a word list reads where it is not a plain
            word (saga's trait ``{kind, value, on}`` as ``attack/slash=5``, as ``--trait``
            takes it).
    """

    gauges: tuple[Gauge, ...] = ()
    figures: tuple[str, ...] = ()
    tables: tuple[tuple[str, str], ...] = ()
    words: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    badge: tuple[str, str] | None = None
    internal: tuple[str, ...] = ()
    spelled: tuple[tuple[str, Callable[[Any], str]], ...] = ()

    def shown(self) -> tuple[str, ...]:
        """Every field the view shows, in its order."""
        bars = tuple(f for g in self.gauges for f in (g.value, g.maximum))
        badge = (self.badge[0],) if self.badge else ()
        tables = tuple(field for field, _ in self.tables)
        return badge + bars + self.figures + tables + self.words + self.cards


@attrs.frozen
class Adds:
    """How a character read from another tool becomes the system's ``… add`` command line
    (``tablelog import-ccfolia``): the command's words, and which option each field gives.

    Attributes:
        words: The command (``"magicpunk character add"``).
        options: ``(field, option, required)``: the option a field's value goes to; a gauge's
            maximum is the field of its ``maximum`` (``hp_max``).
        tables: ``(field, option, kind)``: a table's entries as ``option KEY=VALUE`` each, the
            key read as a term of ``kind`` (``--skill swordplay=expert``).
        lists: ``(field, option, kind, required)``: a word list's words as ``option WORD``
            each, read as terms of ``kind`` (``--attribute fire --attribute earth``).
        switches: ``(field, value, option)``: the flag ``option`` when the field reads as
            ``value`` (a yes or no reads as ``"true"`` or ``"false"``: ``--magical-crafting``;
            saga's side ``"enemy"``: ``--enemy``).
        free: ``(kind, value kind)``: a table whose keys are free words (magicpunk's skills,
            named as the player writes them): a param of any other label is one of its entries
            when its value is a term of ``value kind`` (a rank).
        when: ``(field, value)``: this command is for records whose ``field`` is ``value`` (fate's
            masters and servants), or None.
    """

    words: str
    options: tuple[tuple[str, str, bool], ...] = ()
    tables: tuple[tuple[str, str, str], ...] = ()
    lists: tuple[tuple[str, str, str, bool], ...] = ()
    switches: tuple[tuple[str, str, str], ...] = ()
    free: tuple[tuple[str, str], ...] = ()
    when: tuple[str, str] | None = None


Palette = Callable[[str, dict[str, Any], str], list[str]]
"""``fn(name, record, lang) -> lines``: a character's chat palette (its own checks)."""

Techs = Callable[[str], dict[str, list[tuple[str, str]]]]
"""``fn(lang) -> {group: [(id, label)]}``: the techs a character may use, by the group a
record's table names (saga: by weapon type, the keys of a unit's ``slv``)."""


@attrs.frozen
class Sheet:
    """A system's sheets: how its characters (and units) and its items read.

    Attributes:
        system: The system id (the glossary of its labels).
        characters: The view of ``state.characters`` records.
        items: The view of ``state.items`` records.
        palette: The chat palette of a character (BCDice commands where BCDice has the system,
            else ``tablelog`` command lines), or None.
        dicebot: BCDice's id of the system by language (``{"ja": "MagicPunk", "ko":
            "MagicPunk:Korean"}``; ``"en"`` too where it has one), or {} (BCDice lacks it).
        adds: How a character from another tool is added (:class:`Adds`, one per kind).
        techs: The catalogue's techs by group (:data:`Techs`: the page's cast buttons), or
            None (the system's records list their own: fate's powers and NPs).
        terms: ``(field, kind)``: the glossary table of the words a field holds (its value,
            a list's items, a table's keys: saga's ``levels`` are ``saga.element``) where the
            views do not say it (:mod:`tablelog.cli.values`: how ``state`` reads them).
    """

    system: str
    characters: View = View()
    items: View = View()
    palette: Palette | None = None
    dicebot: dict[str, str] = attrs.Factory(dict)
    adds: tuple[Adds, ...] = ()
    techs: Techs | None = None
    terms: tuple[tuple[str, str], ...] = ()

    def __attrs_post_init__(self) -> None:
        _SHEETS[self.system] = self  # the system's texts module made it: the one to read


_SHEETS: dict[str, Sheet] = {}


def sheet_of(system: str) -> Sheet | None:
    """Return the sheet the system's texts module declared (loaded with the system), or None."""
    return _SHEETS.get(system)

    def view(self, section: str) -> View:
        """The view of ``"characters"`` or ``"items"``."""
        return self.items if section == "items" else self.characters


def label(system: str, field: str) -> Term:
    """The label of a state field: its glossary word (the key itself in English)."""
    return Term(f"{system}.field", field)


_CAPITALS = frozenset({"hp", "mp", "lp", "gp", "cc", "np", "slv", "bt", "sp", "xp", "pc", "gm"})


def field_label(words: Any, system: str, field: str) -> str:
    """A field's label as a sheet or a report heads it: its glossary word (in English the
    entry's ``en``: ``LP damage effect``), or, where the glossary has none, the key as words
    (``level`` -> ``Level``, ``hp`` -> ``HP``).

    Args:
        words: The reader (a :class:`tablelog.lang.Words`).
        system: The system whose glossary labels the field.
        field: The field's JSON key.
    """
    said = str(words(label(system, field)))
    if said != field:
        return said
    parts = [p for p in field.split("_") if p]
    shown = [p.upper() if p in _CAPITALS else p for p in parts]
    if shown and shown[0] == parts[0]:
        shown[0] = shown[0][:1].upper() + shown[0][1:]
    return " ".join(shown) or field


def entries(system: str, view: View, record: dict[str, Any]) -> Iterator[tuple[Term | Msg, Any]]:
    """Yield ``(label, value)`` of the figures and of the tables' entries a record has, in the
    view's order (a table's entry labelled by its key's term; by ``TABLE: term`` where an
    earlier table has the same kind of term, as fate's stored spells after its powers, so each
    label names one value)."""
    for field in view.figures:
        if record.get(field) is not None:
            yield label(system, field), record[field]
    kinds: set[str] = set()
    for field, kind in view.tables:
        shared = kind in kinds
        kinds.add(kind)
        table = record.get(field)
        if isinstance(table, dict):
            for key, value in table.items():
                term = Term(kind, str(key))
                yield (entry_label(system, field, term) if shared else term), value


def entry_label(system: str, field: str, term: Term) -> Msg:
    """The label of an entry of a table whose kind an earlier table has: ``stored: attack``."""
    return msg("core.sheet.entry_of", "{table}: {entry}", table=label(system, field), entry=term)
