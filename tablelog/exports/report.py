"""The session report: what a table posts after the session (SPEC: "Exports, import, the
session report"), as a plain model that :mod:`tablelog.exports.render` writes as Markdown or
HTML and ``report --format json`` prints.

Built in one pass over the log (:func:`build`): every record goes to the timeline, and every
event that counts (not undone, not an undo/redo marker) is applied with the values it changed,
from which :class:`~tablelog.exports.tally.Tally` keeps the figures, the series and the totals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from tablelog import systems
from tablelog.exports.changes import session_changes
from tablelog.exports.tally import Line, Tally
from tablelog.projections.core import undone_after
from tablelog.text import Msg, Term, english, msg

__all__ = ["Report", "Figures", "build"]


@attrs.frozen
class Figures:
    """A character's or item's numbers right after the action that created it, and at the end
    (``None`` for a figure it does not have there); ``gone``: it is no more at the end (a
    cracked runestone)."""

    name: str
    kind: str
    start: dict[str, Any]
    end: dict[str, Any]
    gone: bool = False

    def rows(self) -> list[tuple[str, Any, Any]]:
        """Return ``(figure, start, end)`` for every figure it had at either point."""
        names = list(self.start) + [f for f in self.end if f not in self.start]
        return [(f, self.start.get(f), self.end.get(f)) for f in names]


@attrs.frozen
class Report:
    """Everything the report shows; ``seq`` is the last record it covers.

    ``totals``: ``(label, value)`` (the system's headlines, then each gauge's falls and rises
    over every character; a label is a sentence as data); ``moves``: ``(entity, figure, gained,
    lost)``; ``damage``: ``(character, dealt, taken)``; ``events``: ``(type, events, actions)``;
    ``rolled``: ``(character, damage)`` each character rolled against targets whose HP the
    reader may not see, and ``rolled_unattributed`` the damage rolled with no dealer (poison):
    a players' report, where hidden enemies' HP lost counts nowhere;
    ``notes``: ``(seq, at, actor, text, undone)``; ``series``: gauge -> character -> ``[(seq,
    value)]``. Times are as recorded (UTC). ``words`` and ``zone`` are the reader's language and
    time zone (None: UTC) the report is written in (:mod:`tablelog.exports.render`); they are
    not part of its JSON, which is the same in every language.
    """

    title: str
    system: str
    session_id: str
    seq: int
    first_at: str
    last_at: str
    actors: list[tuple[str, int]]
    figures: list[Figures]
    timeline: list[Line]
    totals: list[tuple[Msg, Any]]
    moves: list[tuple[str, str, Any, Any]]
    damage: list[tuple[str, Any, Any]]
    unattributed: Any
    events: list[tuple[str, int, int]]
    notes: list[tuple[int, str, str, str, bool]]
    series: dict[str, dict[str, list[tuple[int, Any]]]]
    rolled: list[tuple[str, Any]] = attrs.Factory(list)
    rolled_unattributed: Any = 0
    words: Any = attrs.field(default=None, eq=False, repr=False)
    zone: Any = attrs.field(default=None, eq=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """Return the report as JSON-ready data (``report --format json``): the same in every
        language (labels in English, times in UTC)."""
        data = attrs.asdict(
            self, recurse=True, filter=lambda a, _: a.name not in ("words", "zone", "totals")
        )
        data["totals"] = [(english(label), value) for label, value in self.totals]
        data["figures"] = [{**attrs.asdict(f), "rows": f.rows()} for f in self.figures]
        return {key: data[key] for key in _JSON_KEYS}


_JSON_KEYS = [a.name for a in attrs.fields(Report) if a.name not in ("words", "zone")]


def build(
    session: Any,
    until: int | None = None,
    describe: Callable[[Any, Any], str | None] | None = None,
    hidden: Callable[[str, str], bool] | None = None,
    words: Any = None,
    zone: Any = None,
) -> Report:
    """Build the report of a session, at its end or right after seq ``until``.

    Args:
        session: An open :class:`~tablelog.session.Session`.
        until: The last seq to cover (inside a command: rounded up to the command's end);
            undo/redo markers after it are not applied, as for ``state --at``.
        describe: ``(record, event) -> text`` of a timeline line (a server redacts with it), or
            None for a record the reader does not read (it counts nowhere).
        hidden: ``(entity, field) -> bool``, true for a field the reader may not see: its
            changes count in no figure, series, gain, damage or total (a server's seat).
        words: The reader's :class:`~tablelog.lang.Words` (default: the process's reader):
            the timeline's texts, and the words the rendered report is written in.
        zone: The reader's time zone (a ``tzinfo``; None: UTC, times as recorded).

    Raises:
        LogError: the log (or the prefix) cannot be read or does not fold.
    """
    if until is not None:
        until = session.command_end(until)
    if words is None:
        from tablelog.lang import reader

        words = reader()
    final = session.state(until)  # a log (or prefix) that does not fold: exit 3 first
    rolled = systems.get(session.header.system).hidden.rolled
    tally = Tally(undone_after(session.markers(until)), describe, hidden, words, rolled)
    for entry in session_changes(session, until=until, observe=tally.record):
        tally.applied(entry)
    tally.finish()
    header = session.header
    return Report(
        title=header.title,
        system=header.system,
        session_id=header.session_id,
        seq=tally.last_seq,
        first_at=tally.first_at,
        last_at=tally.last_at,
        actors=tally.actors.most_common(),
        figures=_figures(tally, final),
        timeline=tally.timeline,
        totals=_totals(tally, header.system, words),
        moves=_moves(tally),
        damage=[
            (n, tally.dealt[n], tally.taken[n])
            for n in tally.kinds
            if n in tally.dealt or n in tally.taken
        ],
        unattributed=tally.unattributed,
        events=[(t, n, tally.actions[t]) for t, n in sorted(tally.events.items())],
        notes=tally.notes,
        series=_series(tally),
        rolled=list(tally.rolled.items()),
        rolled_unattributed=tally.rolled_unattributed,
        words=words,
        zone=zone,
    )


def _figures(tally: Tally, final: Any) -> list[Figures]:
    return [
        Figures(
            name,
            kind,
            tally.start.get(name, {}),
            tally.figures.get(name, {}),
            final.entity(name) is None,
        )
        for name, kind in tally.kinds.items()
    ]


def gauge_label(gauge: str, system: str, words: Any) -> Any:
    """Return a gauge's name as the reader reads it: in English ``HP`` (a short one in
    capitals), ``tiles``; in another language the system's glossary label of the field
    (``Term("<system>.field", gauge)``)."""
    if words is None or words.lang == "en":
        return gauge.upper() if len(gauge) <= 2 else gauge
    return Term(f"{system}.field", gauge)


def _totals(tally: Tally, system: str, words: Any) -> list[tuple[Msg, Any]]:
    """Return the system's headlines, then every gauge's sums over the characters."""
    rows = [(h.label, tally.headline(h)) for h in systems.get(system).headlines]
    characters = {n for n, k in tally.kinds.items() if k == "character"}
    for gauge in tally.gauges():
        label = gauge_label(gauge, system, words)
        for way, said in (
            ("down", msg("core.report.gauge_down", "{gauge} spent or lost", gauge=label)),
            ("up", msg("core.report.gauge_up", "{gauge} recovered", gauge=label)),
        ):
            rows.append(
                (
                    said,
                    sum(
                        v
                        for (n, f, w), v in tally.moves.items()
                        if f == gauge and w == way and n in characters
                    ),
                )
            )
    return rows


def _moves(tally: Tally) -> list[tuple[str, str, Any, Any]]:
    """Return ``(entity, figure, gained, lost)`` for every figure that moved."""
    keys: dict[tuple[str, str], None] = {}
    for name, field, _ in tally.moves:
        keys[(name, field)] = None
    order = {name: i for i, name in enumerate(tally.kinds)}
    return [
        (n, f, tally.moves[(n, f, "up")], tally.moves[(n, f, "down")])
        for n, f in sorted(keys, key=lambda k: order.get(k[0], 0))
    ]


def _series(tally: Tally) -> dict[str, dict[str, list[tuple[int, Any]]]]:
    """Return each gauge's series, each carried on to the report's last seq."""
    out: dict[str, dict[str, list[tuple[int, Any]]]] = {}
    for gauge, by_name in tally.series.items():
        out[gauge] = {}
        for name, points in by_name.items():
            alive = gauge in tally.figures.get(name, {})
            tail = (
                [(tally.last_seq, points[-1][1])]
                if alive and points[-1][0] < tally.last_seq
                else []
            )
            out[gauge][name] = points + tail
    return out
