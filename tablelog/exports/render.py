"""The session report as Markdown (pastes into a chat or a wiki: figures in tables, no charts)
or as one self-contained HTML file (inline CSS, charts inline as SVG, readable offline and
printable). Everything from the log is data: escaped, control characters (and the marks that
reorder a line) shown as ``\\u001b`` by :func:`tablelog.rules.core.escape_text`, in the text, the
tables and the charts' labels.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterator
from typing import Any

from tablelog.exports.report import Report, gauge_label
from tablelog.rules.core import escape_text
from tablelog.text import Msg, Term, msg, msgn

__all__ = ["markdown", "html_page", "FONTS"]

FONTS = (
    'system-ui, "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans CJK JP", '
    '"Noto Sans CJK KR", "Yu Gothic", "Meiryo", "Malgun Gothic", "Apple SD Gothic Neo", '
    "sans-serif"
)
"""The report's font stack: the system's font, then fonts that hold Japanese and Korean (a
name in 天雷 or 마술회로 shows in a CJK font, not as boxes), then any sans-serif."""

_NUMBER = re.compile(r"[+−-]?[0-9][0-9.e+-]*|–")
_MD_SPECIAL = re.compile(r"([\\`*\[\]<|~]|(?<!\w)_|_(?!\w))")  # an inner _ is no emphasis


def _value(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _change(start: Any, end: Any) -> str:
    if type(start) in (int, float) and type(end) in (int, float) and start != end:
        return f"{'+' if end > start else '−'}{_value(abs(end - start))}"
    return ""


def _words(report: Report) -> Any:
    """The reader the report is written for (its builder's ``words``, else the process's)."""
    if report.words is not None:
        return report.words
    from tablelog.lang import reader

    return reader()


def _say(report: Report, message: Msg | str) -> str:
    return str(_words(report)(message))


def _at(report: Report, at: str) -> str:
    """A recorded time in the report's time zone (as recorded without one)."""
    if report.zone is None or not at:
        return at
    from tablelog.lang.times import local

    return local(at, report.zone) or at


def _field(report: Report, key: str) -> str:
    """A figure's name: the system's glossary label (in English its ``en`` word, ``LP damage
    effect``, else the key as words: ``Level``), as the page's sheet heads it."""
    from tablelog.texts.sheet import field_label

    return field_label(_words(report), report.system, key)


def _title(report: Report) -> str:
    return report.title or _say(report, msg("core.report.untitled", "(untitled session)"))


def _facts(report: Report) -> list[tuple[str, str]]:
    say = functools.partial(_say, report)
    who = ", ".join(
        say(
            msgn(
                "core.report.actor_actions",
                "{actor} ({n} action)",
                "{actor} ({n} actions)",
                n,
                actor=actor,
            )
        )
        for actor, n in report.actors
    )
    events = (
        say(msg("core.report.events_range", "#1 to #{seq}", seq=report.seq))
        if report.seq
        else say(msg("core.list.none", "none"))
    )
    return [
        (say(msg("core.report.fact_system", "system")), report.system),
        (say(msg("core.report.fact_session", "session")), report.session_id),
        (say(msg("core.report.fact_events", "events")), events),
        (say(msg("core.report.fact_first", "first")), _at(report, report.first_at) or "–"),
        (say(msg("core.report.fact_last", "last")), _at(report, report.last_at) or "–"),
        (say(msg("core.report.fact_logged_by", "logged by")), who or "–"),
    ]


Table = tuple[str, list[str], list[list[str]]]  # heading, column names, rows of plain text


def _columns(report: Report, *columns: Msg) -> list[str]:
    return [_say(report, c) for c in columns]


def _entity_tables(report: Report) -> Iterator[Table]:
    """Yield the figures of each character and item at the start and at the end."""
    columns = _columns(
        report,
        msg("core.report.col_figure", "figure"),
        msg("core.report.col_start", "start"),
        msg("core.report.col_end", "end"),
        msg("core.report.col_change", "change"),
    )
    for f in report.figures:
        rows = [
            [_field(report, name), _value(a), _value(b), _change(a, b)] for name, a, b in f.rows()
        ]
        if rows:
            kind = Term("core.kind", f.kind)
            heading = (
                msg(
                    "core.report.entity_gone",
                    "{name} ({kind}, gone at the end)",
                    name=f.name,
                    kind=kind,
                )
                if f.gone
                else msg("core.report.entity", "{name} ({kind})", name=f.name, kind=kind)
            )
            yield _say(report, heading), columns, rows


def _total_tables(report: Report) -> Iterator[Table]:
    """Yield the tables of totals."""
    say = functools.partial(_say, report)
    yield (
        say(msg("core.report.totals_table", "The table's totals")),
        _columns(
            report, msg("core.report.col_total", "total"), msg("core.report.col_value", "value")
        ),
        [[say(label), _value(v)] for label, v in report.totals],
    )
    if report.moves:
        yield (
            say(msg("core.report.moves_table", "Gains and losses")),
            _columns(
                report,
                msg("core.report.col_entity", "character or item"),
                msg("core.report.col_figure", "figure"),
                msg("core.report.col_gained", "gained"),
                msg("core.report.col_lost", "lost"),
            ),
            [[n, _field(report, f), _value(up), _value(down)] for n, f, up, down in report.moves],
        )
    if report.damage or report.unattributed:
        rows = [[n, _value(dealt), _value(taken)] for n, dealt, taken in report.damage]
        if report.unattributed:
            rows.append(
                [
                    say(msg("core.report.no_source", "(no character named as the source)")),
                    _value(report.unattributed),
                    "",
                ]
            )
        yield (
            say(msg("core.report.damage_table", "Damage (HP lost)")),
            _columns(
                report,
                msg("core.report.col_character", "character"),
                msg("core.report.col_dealt", "dealt"),
                msg("core.report.col_taken", "taken"),
            ),
            rows,
        )
    if report.rolled or report.rolled_unattributed:
        rolled = [[n, _value(amount)] for n, amount in report.rolled]
        if report.rolled_unattributed:
            no_source = msg("core.report.no_source", "(no character named as the source)")
            rolled.append([say(no_source), _value(report.rolled_unattributed)])
        yield (
            say(msg("core.report.rolled_table", "Damage rolled against hidden enemies")),
            _columns(
                report,
                msg("core.report.col_character", "character"),
                msg("core.report.col_rolled", "damage rolled"),
            ),
            rolled,
        )
    yield (
        say(msg("core.report.events_table", "Events by type")),
        _columns(
            report,
            msg("core.report.col_type", "type"),
            msg("core.report.col_events", "events"),
            msg("core.report.col_actions", "actions"),
        ),
        [[t, str(n), str(a)] for t, n, a in report.events],
    )


def _timeline(report: Report) -> Iterator[tuple[str, str, bool]]:
    """Yield ``(seqs, text, undone)`` per action."""
    words = _words(report)
    for line in report.timeline:
        seqs = f"#{line.first}" + (f"–#{line.last}" if line.last != line.first else "")
        more = (
            msg("core.report.more_events", " (+{n} more)", n=line.events - 1)
            if line.events > 1
            else ""
        )
        said = msg(
            "core.report.timeline_line",
            "{at} {actor}: {text}{more}",
            at=_at(report, line.at),
            actor=line.actor,
            text=line.text,
            more=more,
        )
        yield seqs, words(said), line.undone


# -- Markdown ---------------------------------------------------------------------------


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", escape_text(text))


def _md_table(columns: list[str], rows: list[list[str]]) -> list[str]:
    out = [
        "| " + " | ".join(_md(c) for c in columns) + " |",
        "|" + "|".join("---" for _ in columns) + "|",
    ]
    out += ["| " + " | ".join(_md(c) for c in row) + " |" for row in rows]
    return out


def markdown(report: Report) -> str:
    """Return the report as Markdown (figures and totals in tables; no charts), in the words
    and time zone it was built for."""
    say = functools.partial(_say, report)
    undone_mark = say(msg("core.report.undone", "(undone)"))
    out = [f"# {_md(_title(report))}", ""]
    out += [f"- **{k}**: {_md(v)}" for k, v in _facts(report)]
    out += ["", f"## {say(FIGURES_HEADING)}", ""]
    entities = list(_entity_tables(report))
    for heading, columns, rows in entities:
        out += [f"### {_md(heading)}", ""] + _md_table(columns, rows) + [""]
    if not entities:
        out += [say(msg("core.report.no_entities", "No character or item.")), ""]
    out += [f"## {say(TOTALS_HEADING)}", ""]
    for heading, columns, rows in _total_tables(report):
        out += [f"### {_md(heading)}", ""] + _md_table(columns, rows) + [""]
    out += [f"## {say(TIMELINE_HEADING)}", ""]
    for seqs, text, undone in _timeline(report):
        line = f"{seqs} {_md(text)}"
        out.append(f"- ~~{line}~~ {undone_mark}" if undone else f"- {line}")
    out += ["", f"## {say(NOTES_HEADING)}", ""]
    out += [
        f"- #{seq} {_md(_at(report, at))} {_md(actor)}: {_md(text)}"
        + (f" {undone_mark}" if undone else "")
        for seq, at, actor, text, undone in report.notes
    ] or [f"- {say(msg('core.list.none', 'none'))}"]
    return "\n".join(out) + "\n"


FIGURES_HEADING = msg("core.report.figures", "Figures at the start and at the end")
TOTALS_HEADING = msg("core.report.totals", "Totals")
TIMELINE_HEADING = msg("core.report.timeline", "Timeline")
NOTES_HEADING = msg("core.report.notes", "GM notes")


# -- HTML -------------------------------------------------------------------------------

_CSS = """
:root { color-scheme: light; font-family: FONTS; color: #1d1d1f; }
body { max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 1px solid #ccc; margin-top: 2rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-size: .92rem; }
th, td { border: 1px solid #ccc; padding: .15rem .5rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.entities { display: flex; flex-wrap: wrap; gap: 0 1.5rem; }
figure.chart { margin: .5rem 0; } figure.chart svg { max-width: 100%; height: auto; }
ol.timeline { list-style: none; padding: 0; font-size: .9rem; }
ol.timeline li { padding: .1rem 0; border-bottom: 1px dotted #ddd; }
.undone { text-decoration: line-through; color: #888; }
.seq { font-variant-numeric: tabular-nums; color: #555; margin-right: .4rem; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  h2 { break-after: avoid; } table, figure.chart, li { break-inside: avoid; }
}
@page { margin: 1.5cm; }
"""
_CSS = _CSS.replace("FONTS", FONTS, 1)


def _h(text: str) -> str:
    return html.escape(escape_text(text), quote=True)


def _html_table(heading: str, columns: list[str], rows: list[list[str]], level: int) -> str:
    head = "".join(f"<th>{_h(c)}</th>" for c in columns)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{_h(c)}</td>' if _NUMBER.fullmatch(c) else f"<td>{_h(c)}</td>"
            for c in row
        )
        + "</tr>"
        for row in rows
    )
    return (
        f"<section><h{level}>{_h(heading)}</h{level}><table><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table></section>"
    )


def _charts(report: Report) -> list[str]:
    from tablelog.exports.charts import gauge_svg

    say = functools.partial(_say, report)
    words = _words(report)
    out = []
    for gauge, series in report.series.items():
        label = gauge_label(gauge, report.system, words)
        svg = gauge_svg(
            gauge,
            series,
            say(msg("core.report.chart_title", "{gauge} over the session", gauge=label)),
            say(msg("core.report.chart_x", "event #")),
        )
        caption = msg(
            "core.report.chart_caption", "{gauge} of every character, event by event", gauge=label
        )
        out.append(
            f'<figure class="chart" id="chart-{_h(gauge)}">{svg}'
            f"<figcaption>{_h(say(caption))}</figcaption>"
            "</figure>"
        )
    return out


def html_page(report: Report) -> str:
    """Return the report as one self-contained HTML page (no external resource), in the words
    and time zone it was built for."""
    say = functools.partial(_say, report)
    undone_mark = f" <em>{_h(say(msg('core.report.undone', '(undone)')))}</em>"
    title = _title(report)
    facts = "".join(f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in _facts(report))
    entities = "".join(_html_table(*t, level=3) for t in _entity_tables(report))
    totals = "".join(_html_table(*t, level=3) for t in _total_tables(report))
    lines = "".join(
        f'<li{" class=undone" if undone else ""}><span class="seq">{_h(seqs)}</span>{_h(text)}'
        + (undone_mark if undone else "")
        + "</li>"
        for seqs, text, undone in _timeline(report)
    )
    notes = (
        "".join(
            f"<li><span class=seq>#{seq}</span>{_h(_at(report, at))} {_h(actor)}: {_h(text)}"
            + (undone_mark if undone else "")
            + "</li>"
            for seq, at, actor, text, undone in report.notes
        )
        or f"<li>{_h(say(msg('core.list.none', 'none')))}</li>"
    )
    charts = "".join(_charts(report)) or (
        f"<p>{_h(say(msg('core.report.no_charts', 'No character has HP, MP or LP.')))}</p>"
    )
    page_title = say(msg("core.report.page_title", "{title} — tablelog report", title=title))
    return (
        f'<!DOCTYPE html>\n<html lang="{_words(report).lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_h(page_title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{_h(title)}</h1><dl class=facts>{facts}</dl></header>"
        f'<section id="figures"><h2>{_h(say(FIGURES_HEADING))}</h2>'
        f'<div class="entities">{entities}</div></section>'
        f'<section id="charts"><h2>{_h(say(CHARTS_HEADING))}</h2>{charts}</section>'
        f'<section id="totals"><h2>{_h(say(TOTALS_HEADING))}</h2>{totals}</section>'
        f'<section id="timeline"><h2>{_h(say(TIMELINE_HEADING))}</h2>'
        f'<ol class="timeline">{lines}</ol></section>'
        f'<section id="notes"><h2>{_h(say(NOTES_HEADING))}</h2><ul>{notes}</ul></section>'
        "</body></html>\n"
    )


CHARTS_HEADING = msg("core.report.over_session", "Over the session")
