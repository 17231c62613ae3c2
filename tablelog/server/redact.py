"""Redaction: every view a seat receives, as that seat may see it (SERVER.md §3).

A :class:`Viewer` is a seat's role and characters on one table's state. It redacts the JSON state
(``state --json``), one character's or item's record, a log line (``log --json``), changes
(``history --json`` items, the ``changes`` of a command's answer), and says which secrets of a
sentence it may read (:meth:`Viewer.sees`). The GM sees everything; a player sees the public
state plus the hidden fields of the seat's own characters and of the items they own; an observer
sees the public state. What is hidden is declared by each system (its declaration's ``hidden``:
:class:`tablelog.systems.declaration.Hidden`).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import attrs

from tablelog import systems
from tablelog.events.core import MARKERS, READERS, SEAT_SECRETS, SEAT_TYPES
from tablelog.systems.declaration import Hidden

__all__ = ["Viewer", "unseen_draws", "enemy_named"]

HIDDEN = "?"


@attrs.frozen
class Viewer:
    """Who looks: ``role`` (gm, player, observer), the characters the seat plays, and the
    table's system and current characters/items (to find owners and enemies); ``seat`` the
    seat's name (the records it reads only as their actor or recipient: its own secret rolls
    and the whispers it sends or receives)."""

    role: str
    characters: frozenset[str]
    system: str
    items_owner: dict[str, str | None] = attrs.Factory(dict)
    enemies: frozenset[str] = frozenset()
    seat: str = ""
    unread: frozenset[int] = frozenset()

    @classmethod
    def of(
        cls,
        role: str,
        characters: tuple[str, ...] | list[str],
        state: Any,
        enemies: frozenset[str] = frozenset(),
        seat: str = "",
        unread: frozenset[int] = frozenset(),
    ) -> Viewer:
        """Return the viewer of a seat on ``state`` (a
        :class:`~tablelog.projections.core.State`).

        Args:
            role: The seat's role.
            characters: The characters it plays.
            state: The table's state (the owners of its items).
            enemies: Every name a record of the table's log added as an enemy, retired and
                undone ones included (:func:`enemies_of`): a retired enemy's HP stays hidden.
            seat: The seat's name.
            unread: The seqs of the records the seat does not read (another's whisper or
                secret roll): their undo and redo markers are withheld too.
        """
        owners = {name: rec.get("owner") for name, rec in state.items.items()}
        now = frozenset(n for n, rec in state.characters.items() if rec.get("side") == "enemy")
        return cls(role, frozenset(characters), state.system, owners, now | enemies, seat, unread)

    @property
    def hidden(self) -> Hidden:
        """What the table's system hides from seats other than the GM's."""
        return systems.get(self.system).hidden

    @property
    def sees_all(self) -> bool:
        return self.role == "gm"

    def owns(self, name: str | None) -> bool:
        """Whether ``name`` (a character, or an item by its owner) is one of the seat's."""
        if name is None:
            return False
        return name in self.characters or self.items_owner.get(name) in self.characters

    def state(self, data: dict[str, Any]) -> dict[str, Any]:
        """Return the JSON state (``state --json``) as this seat may see it."""
        if self.sees_all:
            return data
        out = copy.deepcopy(data)
        for name, record in out.get("characters", {}).items():
            self._entity(name, record)
        for name, record in out.get("items", {}).items():
            self._entity(name, record)
        out.pop("seed", None)
        return out

    def entity(self, name: str, record: dict[str, Any]) -> dict[str, Any]:
        """Return one character's or item's record as this seat may see it."""
        if self.sees_all:
            return record
        out = copy.deepcopy(record)
        self._entity(name, out)
        return out

    def _entity(self, name: str, record: dict[str, Any]) -> None:
        hidden = self.hidden
        if not self.owns(name):
            for field in hidden.owner_fields:
                if isinstance(record.get(field), list):
                    record[field] = [HIDDEN] * len(record[field])
        if name in self.enemies:
            for field in hidden.enemy_fields:
                if field in record:
                    record[field] = None

    def sees(self, seen_by: str | None) -> bool:
        """Whether this seat may read a :class:`~tablelog.text.Secret` seen by ``seen_by``'s
        seats (None: the GM's alone): where a hidden card is, an enemy's HP."""
        return self.sees_all or self.owns(seen_by)

    def reads(self, line: dict[str, Any]) -> bool:
        """Whether this seat reads the record ``line`` at all: every record but another's
        secret roll and a whisper it neither sent nor received (:data:`READERS`), and the undo
        and redo markers of those (:attr:`unread`: who undid one would tell whose it was); the
        GM reads every one (CORE-DICE, CORE-SAY)."""
        if self.sees_all:
            return True
        kind, data = line.get("type"), line.get("data")
        if kind in MARKERS and isinstance(data, dict):  # an undo or redo of one it reads not
            return data.get("target") not in self.unread
        readers = READERS.get(kind) if isinstance(kind, str) else None
        if readers is None or not isinstance(data, dict):
            return True
        named = readers(data)
        return named is None or line.get("actor") == self.seat or self.seat in named

    def record(self, line: dict[str, Any]) -> dict[str, Any] | None:  # noqa: C901 - one branch per kind of hidden record (SERVER.md §4)
        """Return one ``log --json`` line (``seq, type, v, at, actor, data, undone``) as this
        seat may see it: hidden cards as ``"?"``, token hashes left out; None for a record it
        does not read at all (:meth:`reads`: nothing of it is shown)."""
        if self.sees_all:
            return line
        if not self.reads(line):
            return None
        kind = line.get("type")
        sheet = self.hidden.enemy_sheets.get(kind) if isinstance(kind, str) else None
        if (
            sheet is not None
            and isinstance(line.get("data"), dict)
            and isinstance(line["data"].get("sheet"), dict)
            and line["data"]["sheet"].get("side") == "enemy"
        ):
            line = copy.deepcopy(line)  # an enemy's sheet: its HP and LP are the GM's
            for field in sheet[0]:
                line["data"]["sheet"][field] = None
            for field in sheet[1]:
                line["data"][field] = None
            return line
        line = self._enemy_event(line)
        hidden = self.hidden.owner_events.get(kind) if isinstance(kind, str) else None
        if kind in SEAT_TYPES or hidden is not None:
            line = copy.deepcopy(line)
            data = line["data"]
            if kind in SEAT_TYPES:  # a credential's hash is the GM's alone
                for field in SEAT_SECRETS:
                    data.pop(field, None)
            elif hidden is not None and not self.owns(data.get(hidden[0])):
                for field in hidden[2]:
                    if isinstance(data.get(field), list):
                        data[field] = [HIDDEN] * len(data[field])
        return line

    def _enemy_event(self, line: dict[str, Any]) -> dict[str, Any]:
        """Return ``line`` with the fields :attr:`Hidden.enemy_events` names nulled when its
        unit is an enemy (a copy then), else ``line`` itself."""
        kind, data = line.get("type"), line.get("data")
        named = self.hidden.enemy_events.get(kind) if isinstance(kind, str) else None
        unit = data.get(named[0]) if named is not None and isinstance(data, dict) else None
        if not isinstance(unit, str) or unit not in self.enemies:
            return line
        assert named is not None
        line = copy.deepcopy(line)
        for field in named[1]:
            if field in line["data"]:
                line["data"][field] = None
        return line

    def changes(
        self,
        changes: list[dict[str, Any]],
        entity: str | None = None,
    ) -> list[dict[str, Any]]:
        """Return changes (``{field, old, new}``; paths from the state's root, or relative to
        ``entity``) as this seat may see them."""
        if self.sees_all:
            return changes
        return [self._change(c, entity) for c in changes]

    def _change(self, change: dict[str, Any], entity: str | None) -> dict[str, Any]:
        path = change["field"]
        hidden = self.hidden
        for name, field in _splits(path) if entity is None else [(entity, path)]:
            base = field.split("[", 1)[0].split(".", 1)[0]
            hide_cards = base in hidden.owner_fields and not self.owns(name)
            hide_enemy = name in self.enemies and base in hidden.enemy_fields
            if hide_cards:
                return {**change, "old": _hidden(change["old"]), "new": _hidden(change["new"])}
            if hide_enemy:
                return {**change, "old": None, "new": None}
        return change


def enemy_named(hidden: Hidden, kind: str, data: Any) -> str | None:
    """Return the name a log record adds as an enemy (its ``data.sheet.side`` is ``"enemy"``,
    in a record type of :attr:`Hidden.enemy_sheets`), or None: decided from the record, never
    from the current state, which no longer holds a retired or undone enemy."""
    if kind not in hidden.enemy_sheets or not isinstance(data, dict):
        return None
    sheet, name = data.get("sheet"), data.get("name")
    if isinstance(sheet, dict) and sheet.get("side") == "enemy" and isinstance(name, str):
        return name
    return None


def _splits(path: str) -> list[tuple[str, str]]:
    """Return every way to read ``characters.NAME.FIELD`` (or ``items.…``) from a change's
    path: ``characters.Lt. Vex.hp`` is ``[("Lt", " Vex.hp"), ("Lt. Vex", "hp")]``, as a name
    may hold dots; ``[]`` for other paths. A change is hidden when any reading hides it, so a
    dot in a name never shows its hidden fields (a player's attack once showed the HP of an
    enemy named ``Lt. Vex``)."""
    section, _, rest = path.partition(".")
    if section not in ("characters", "items") or not rest:
        return []
    parts = rest.split(".")
    return [(".".join(parts[:i]), ".".join(parts[i:])) for i in range(1, len(parts) + 1)]


def _hidden(value: Any) -> Any:
    if isinstance(value, list):
        return [HIDDEN] * len(value)
    return None if value is None else HIDDEN


def unseen_draws(
    hidden: Hidden, lines: list[dict[str, Any]], changes: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return a preview's log lines and changes (before a seat's redaction) with the cards it
    draws from the draw pile as ``"?"``: nobody sees the pile's order before a draw, the GM
    included (SERVER.md §3). A hand's or an item's other cards stay as they are.

    Args:
        hidden: The system's declaration of what is hidden (its ``drawn`` fields).
        lines: The preview's events as ``log --json`` lines.
        changes: Their changes, ``{field, old, new}`` with paths from the state's root.

    Returns:
        The lines and the changes, copied where a drawn card is hidden.
    """
    drawn: Counter[Any] = Counter()
    shown_lines = []
    for line in lines:
        fields = hidden.drawn.get(line.get("type", ""), ())
        if fields and isinstance(line.get("data"), dict):
            line = copy.deepcopy(line)
            for field in fields:
                cards = line["data"].get(field)
                if isinstance(cards, list):
                    drawn.update(cards)
                    line["data"][field] = [HIDDEN] * len(cards)
        shown_lines.append(line)
    if not drawn:
        return shown_lines, changes
    return shown_lines, [_unseen_change(c, hidden, drawn) for c in changes]


def _unseen_change(change: dict[str, Any], hidden: Hidden, drawn: Counter[Any]) -> dict[str, Any]:
    """Return ``change`` with the cards its new list gains from ``drawn`` as ``"?"`` (counted
    off ``drawn``, so a card drawn once is hidden once; the cards the list held stay)."""
    field = change["field"].rsplit(".", 1)[-1]
    new = change["new"]
    if field not in hidden.owner_fields or not isinstance(new, list):
        return change
    held = Counter(change["old"] if isinstance(change["old"], list) else [])
    cards = []
    for card in new:
        if held[card] > 0:
            held[card] -= 1
            cards.append(card)
        elif drawn[card] > 0:
            drawn[card] -= 1
            cards.append(HIDDEN)
        else:
            cards.append(card)
    return {**change, "new": cards}
