"""The running sums behind the session report, kept from the changes each event made.

Nothing here reads an event's fields: a *figure* is any number directly on a character or item
(``hp``, ``mp``, ``money``, ``price_gp`` …), a *gauge* a figure ``F`` beside an ``F_max`` (HP, MP,
LP, tiles), and every total is a sum over the diffs of the visible state that ``replay`` and
``history`` show (:class:`tablelog.projections.history.Entry`), grouped by character, figure and
event type tag. The only per-system knowledge is each system's ``headlines`` (its declaration,
:class:`tablelog.systems.declaration.Headline`) and, for a reader who may not see a target's HP,
the event fields its ``hidden.rolled`` names: the damage rolled against a hidden enemy, public
where the HP it took is not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from tablelog import actions
from tablelog.events.core import MARKERS, Event
from tablelog.exports.changes import ENTITY_SECTIONS, entity_field

if TYPE_CHECKING:
    from tablelog.systems.declaration import Headline

__all__ = ["Line", "Tally", "DAMAGE_FIGURE", "MAX_SUFFIX"]

MAX_SUFFIX = "_max"
DAMAGE_FIGURE = "hp"  # SPEC's JSON state: every character with HP has ``hp``


@attrs.define
class Line:
    """One action of the timeline: its seqs, when and who, what it was, whether undone."""

    first: int
    last: int
    at: str
    actor: str
    text: str
    events: int = 1
    undone: bool = False


def _number(value: Any) -> bool:
    return type(value) in (int, float)


class Tally:
    """Sums kept while a session is read: :meth:`record` sees every record, :meth:`applied`
    each event that counts with the changes it made (in log order, each after its record).
    ``describe(record, event)`` gives a timeline line's text (default: type and description in
    ``words``, the reader's);
    ``hidden(entity, field)`` is true for a field the reader may not see (a served seat: an
    enemy's HP), whose changes then count nowhere: no figure, series, gain, damage or total;
    ``rolled`` (a system's ``hidden.rolled``) the events whose damage rolled against such a
    target is counted instead, by dealer (:attr:`rolled`, :attr:`rolled_unattributed`)."""

    def __init__(
        self,
        undone: set[int],
        describe: Callable[[Any, Event], str | None] | None = None,
        hidden: Callable[[str, str], bool] | None = None,
        words: Any = None,
        rolled: Mapping[str, tuple[str, str, str]] | None = None,
    ) -> None:
        self.undone = undone
        self.rolled_by_type = rolled or {}
        if describe is None:
            if words is None:
                from tablelog.lang import reader

                words = reader()
            said = words
            describe = lambda rec, event: f"{rec.type} {said.event(event)}"  # noqa: E731
        self.describe = describe
        self.hidden = hidden
        self.timeline: list[Line] = []
        self.notes: list[tuple[int, str, str, str, bool]] = []
        self.actors: Counter[str] = Counter()
        self.figures: dict[str, dict[str, Any]] = {}  # entity -> figure -> value now
        self.kinds: dict[str, str] = {}  # entity -> "character" | "item"
        self.start: dict[str, dict[str, Any]] = {}  # entity -> figures after its first action
        self.series: dict[str, dict[str, list[tuple[int, Any]]]] = {}  # gauge -> char -> points
        self.moves: Counter[tuple[str, str, str]] = Counter()  # (entity, figure, up|down)
        self.lists: Counter[tuple[str, str, str]] = Counter()  # (type, field, added|removed)
        self.events: Counter[str] = Counter()
        self.actions: Counter[str] = Counter()
        self.dealt: Counter[str] = Counter()
        self.taken: Counter[str] = Counter()
        self.unattributed = 0
        self.rolled: Counter[str] = Counter()  # dealer -> damage rolled against hidden HP
        self.rolled_unattributed = 0
        self._key: object = None
        self._doer: str | None = None
        self._types: set[str] = set()
        self._new: list[str] = []  # entities created by the current action
        self.first_at = self.last_at = ""
        self.last_seq = 0

    # -- every record ----------------------------------------------------------------------

    def record(self, rec: Any, event: Event) -> None:
        """Take one record (in log order): timeline, notes, who logged, times. A record the
        reader does not read (``describe`` gives None: another's whisper or secret roll)
        counts nowhere."""
        key = actions.summary(rec.seq, rec.cmd, rec.at, rec.actor, rec.type)[1]
        undone = rec.seq in self.undone
        if key != self._key or not self.timeline:
            text = self.describe(rec, event)  # an action's first record: its line
            if text is None:
                self.last_seq = rec.seq
                return
            self._close()
            self._key, self._types = key, set()
            names = event.entities()
            self._doer = names[0] if names else None
            self.actors[rec.actor] += 1
            self.timeline.append(Line(rec.seq, rec.seq, rec.at, rec.actor, text, 1, undone))
        else:
            line = self.timeline[-1]
            line.last, line.events = rec.seq, line.events + 1
            line.undone = line.undone and undone
        if rec.type == "core.Noted":
            self.notes.append((rec.seq, rec.at, rec.actor, getattr(event, "text", ""), undone))
        if rec.type not in MARKERS and not undone:
            self.events[rec.type] += 1
            if rec.type not in self._types:
                self._types.add(rec.type)
                self.actions[rec.type] += 1
        self.first_at = self.first_at or rec.at
        self.last_at, self.last_seq = rec.at, rec.seq

    def _close(self) -> None:
        """End the current action: entities it created get their start figures."""
        for name in self._new:
            self.start[name] = dict(self.figures.get(name, {}))
        self._new = []

    def finish(self) -> None:
        """End the last action (call once every record is in)."""
        self._close()

    # -- every event that counts -----------------------------------------------------------

    def applied(self, entry: Any) -> None:
        """Take the changes of one event that counts (an entry of ``narrate``)."""
        self._rolled(entry.event)
        touched: dict[tuple[str, str], None] = {}
        for path, old, new in entry.changes:
            section = path.partition(".")[0]
            if section not in ENTITY_SECTIONS:
                self._list(entry.event.TYPE, path, old, new)
                continue
            name, field = entity_field(path, entry.event.entities())
            if name not in self.kinds:
                self.kinds[name] = section[:-1]
                self._new.append(name)
            if "." in field or "[" in field or (self.hidden and self.hidden(name, field)):
                continue
            self._list(entry.event.TYPE, field, old, new)
            if _number(new) or _number(old):
                self._figure(entry.event, name, field, old, new)
                touched[(name, field)] = None
        for name, field in touched:  # after the whole diff: ``hp_max`` may follow ``hp``
            figures = self.figures.get(name, {})
            if (
                field in figures
                and f"{field}{MAX_SUFFIX}" in figures
                and self.kinds[name] == "character"
            ):
                self.point(field, name, entry.seq, figures[field])

    def _rolled(self, event: Event) -> None:
        """Count the damage ``event`` rolled against a target whose HP the reader may not see
        (the system's ``hidden.rolled``), for the character that dealt it."""
        fields = self.rolled_by_type.get(event.TYPE)
        if fields is None or self.hidden is None:
            return
        target_field, dealer_field, damage_field = fields
        target, damage = getattr(event, target_field), getattr(event, damage_field)
        if not (isinstance(target, str) and _number(damage) and self.hidden(target, DAMAGE_FIGURE)):
            return
        dealer = getattr(event, dealer_field) if dealer_field else None
        if isinstance(dealer, str) and dealer != target:
            self.rolled[dealer] += damage
        else:
            self.rolled_unattributed += damage

    def _figure(self, event: Event, name: str, field: str, old: Any, new: Any) -> None:
        """Keep a figure's value, its rises and falls, and the damage it shows."""
        figures = self.figures.setdefault(name, {})
        if _number(new):
            figures[field] = new
        else:
            figures.pop(field, None)
        if not (_number(old) and _number(new)):
            return
        self.moves[(name, field, "up" if new > old else "down")] += abs(new - old)
        if field == DAMAGE_FIGURE and new < old:
            self._damage(event, name, old - new)

    def point(self, gauge: str, name: str, seq: int, value: Any) -> None:
        """Add a point to the series of ``gauge`` for character ``name``."""
        self.series.setdefault(gauge, {}).setdefault(name, []).append((seq, value))

    def _damage(self, event: Event, victim: str, amount: Any) -> None:
        """Count HP lost as damage taken, and as dealt by the one who did it: another
        character the event names, else the first name of the action's first event."""
        self.taken[victim] += amount
        others = [n for n in event.entities() if n != victim and self.kinds.get(n) == "character"]
        if (
            not others
            and self._doer not in (None, victim)
            and self.kinds.get(self._doer or "") == "character"
        ):
            others = [self._doer]
        if others:
            self.dealt[others[0]] += amount
        else:
            self.unattributed += amount

    def _list(self, kind: str, field: str, old: Any, new: Any) -> None:
        """Count the elements a list change added and removed, by event type and field."""
        if not (isinstance(old, list) or isinstance(new, list)):
            return
        before = Counter(_hashable(x) for x in old or [])
        after = Counter(_hashable(x) for x in new or [])
        added, removed = sum((after - before).values()), sum((before - after).values())
        if added:
            self.lists[(kind, field, "added")] += added
        if removed:
            self.lists[(kind, field, "removed")] += removed

    # -- results ---------------------------------------------------------------------------

    def headline(self, h: Headline) -> Any:
        """Return the value of one headline total."""
        if h.measure in ("events", "actions"):
            counts = self.events if h.measure == "events" else self.actions
            return sum(counts[t] for t in h.types)
        if h.measure in ("added", "removed"):
            return sum(
                n
                for (kind, field, way), n in self.lists.items()
                if way == h.measure and field == h.field and (not h.types or kind in h.types)
            )
        way = "up" if h.measure == "gained" else "down"
        return sum(n for (_, field, w), n in self.moves.items() if w == way and field == h.field)

    def gauges(self) -> list[str]:
        """Return the gauges of the session's characters (figures with an ``_max``), in the
        order they first appear."""
        found: dict[str, None] = {}
        for name, figures in self.figures.items():
            if self.kinds.get(name) == "character":
                for field in figures:
                    if f"{field}{MAX_SUFFIX}" in figures:
                        found[field] = None
        return list(found)


def _hashable(value: Any) -> Any:
    return value if isinstance(value, str | int | float | bool | None) else repr(value)
