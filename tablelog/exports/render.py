"""The session report as Markdown (pastes into a chat or a wiki: figures in tables, no charts)
or as one self-contained HTML file (inline CSS, charts inline as SVG, readable offline and
printable). Everything from the log is data: escaped, control characters (and the marks that
reorder a line) shown as ``\\u001b`` by :func:`tablelog.rules.core.escape_text`, in the text, the
tables and the charts' labels.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

from tablelog.exports.report import Report
from tablelog.rules.core import escape_text

__all__ = ["markdown", "html_page"]

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


def _title(report: Report) -> str:
    return report.title or "(untitled session)"


def _facts(report: Report) -> list[tuple[str, str]]:
    who = ", ".join(f"{actor} ({n} action{'s' * (n != 1)})" for actor, n in report.actors)
    return [
        ("system", report.system),
        ("session", report.session_id),
        ("events", f"#1 to #{report.seq}" if report.seq else "none"),
        ("first", report.first_at or "–"),
        ("last", report.last_at or "–"),
        ("logged by", who or "–"),
    ]


Table = tuple[str, list[str], list[list[str]]]  # heading, column names, rows of plain text


def _entity_tables(report: Report) -> Iterator[Table]:
    """Yield the figures of each character and item at the start and at the end."""
    for f in report.figures:
        rows = [[name, _value(a), _value(b), _change(a, b)] for name, a, b in f.rows()]
        if rows:
            gone = ", gone at the end" if f.gone else ""
            yield f"{f.name} ({f.kind}{gone})", ["figure", "start", "end", "change"], rows


def _total_tables(report: Report) -> Iterator[Table]:
    """Yield the tables of totals."""
    yield (
        "The table's totals",
        ["total", "value"],
        [[label, _value(v)] for label, v in report.totals],
    )
    if report.moves:
        yield (
            "Gains and losses",
            ["character or item", "figure", "gained", "lost"],
            [[n, f, _value(up), _value(down)] for n, f, up, down in report.moves],
        )
    if report.damage or report.unattributed:
        rows = [[n, _value(dealt), _value(taken)] for n, dealt, taken in report.damage]
        if report.unattributed:
            rows.append(["(no character named as the source)", _value(report.unattributed), ""])
        yield "Damage (HP lost)", ["character", "dealt", "taken"], rows
    yield (
        "Events by type",
        ["type", "events", "actions"],
        [[t, str(n), str(a)] for t, n, a in report.events],
    )


def _timeline(report: Report) -> Iterator[tuple[str, str, bool]]:
    """Yield ``(seqs, text, undone)`` per action."""
    for line in report.timeline:
        seqs = f"#{line.first}" + (f"–#{line.last}" if line.last != line.first else "")
        more = f" (+{line.events - 1} more)" if line.events > 1 else ""
        yield seqs, f"{line.at} {line.actor}: {line.text}{more}", line.undone


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
    """Return the report as Markdown (figures and totals in tables; no charts)."""
    out = [f"# {_md(_title(report))}", ""]
    out += [f"- **{k}**: {_md(v)}" for k, v in _facts(report)]
    out += ["", "## Figures at the start and at the end", ""]
    entities = list(_entity_tables(report))
    for heading, columns, rows in entities:
        out += [f"### {_md(heading)}", ""] + _md_table(columns, rows) + [""]
    if not entities:
        out += ["No character or item.", ""]
    out += ["## Totals", ""]
    for heading, columns, rows in _total_tables(report):
        out += [f"### {_md(heading)}", ""] + _md_table(columns, rows) + [""]
    out += ["## Timeline", ""]
    for seqs, text, undone in _timeline(report):
        line = f"{seqs} {_md(text)}"
        out.append(f"- ~~{line}~~ (undone)" if undone else f"- {line}")
    out += ["", "## GM notes", ""]
    out += [
        f"- #{seq} {_md(at)} {_md(actor)}: {_md(text)}" + (" (undone)" if undone else "")
        for seq, at, actor, text, undone in report.notes
    ] or ["- none"]
    return "\n".join(out) + "\n"


# -- HTML -------------------------------------------------------------------------------

_CSS = """
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #1d1d1f; }
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

    out = []
    for gauge, series in report.series.items():
        label = gauge.upper() if len(gauge) <= 2 else gauge
        svg = gauge_svg(gauge, series, f"{label} over the session")
        out.append(
            f'<figure class="chart" id="chart-{_h(gauge)}">{svg}'
            f"<figcaption>{_h(label)} of every character, event by event</figcaption>"
            "</figure>"
        )
    return out


def html_page(report: Report) -> str:
    """Return the report as one self-contained HTML page (no external resource)."""
    title = _title(report)
    facts = "".join(f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in _facts(report))
    entities = "".join(_html_table(*t, level=3) for t in _entity_tables(report))
    totals = "".join(_html_table(*t, level=3) for t in _total_tables(report))
    lines = "".join(
        f'<li{" class=undone" if undone else ""}><span class="seq">{_h(seqs)}</span>{_h(text)}'
        + (" <em>(undone)</em>" if undone else "")
        + "</li>"
        for seqs, text, undone in _timeline(report)
    )
    notes = (
        "".join(
            f"<li><span class=seq>#{seq}</span>{_h(at)} {_h(actor)}: {_h(text)}"
            + (" <em>(undone)</em>" if undone else "")
            + "</li>"
            for seq, at, actor, text, undone in report.notes
        )
        or "<li>none</li>"
    )
    charts = "".join(_charts(report)) or "<p>No character has HP, MP or LP.</p>"
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_h(title)} — tablelog report</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{_h(title)}</h1><dl class=facts>{facts}</dl></header>"
        f'<section id="figures"><h2>Figures at the start and at the end</h2>'
        f'<div class="entities">{entities}</div></section>'
        f'<section id="charts"><h2>Over the session</h2>{charts}</section>'
        f'<section id="totals"><h2>Totals</h2>{totals}</section>'
        f'<section id="timeline"><h2>Timeline</h2><ol class="timeline">{lines}</ol></section>'
        f'<section id="notes"><h2>GM notes</h2><ul>{notes}</ul></section>'
        "</body></html>\n"
    )
