"""The report's charts: one gauge (HP, MP, LP …) of every character over the session, drawn by
matplotlib's SVG backend (no pyplot: no global state, no display needed).

Each character's line is an SVG group with the id ``series-<gauge>-<n>`` (n from 0, in the
legend's order), so a reader (or a test) can find one series per character.
"""

from __future__ import annotations

import io
from typing import Any

from tablelog.rules.core import escape_text

__all__ = ["gauge_svg", "series_id"]

_WIDTH_IN, _HEIGHT_IN = 7.5, 2.8


def series_id(gauge: str, index: int) -> str:
    """Return the SVG id of the ``index``-th series of a gauge's chart."""
    return f"series-{gauge}-{index}"


def _label(name: str) -> str:
    """Return a legend label that shows ``name`` as written (no mathtext, never hidden), its
    control characters escaped (a name is data from the log)."""
    text = escape_text(name).replace("$", r"\$")
    return f" {text}" if text.startswith("_") else text  # matplotlib hides labels with "_"


def gauge_svg(gauge: str, series: dict[str, list[tuple[int, Any]]], title: str) -> str:
    """Return one chart as an ``<svg>`` element (no XML prolog: ready to inline in HTML).

    Args:
        gauge: The figure charted (``hp``): used in the series ids.
        series: Character name -> ``[(seq, value)]`` in seq order (a step each change).
        title: The chart's title.

    Returns:
        SVG text; text stays text (``svg.fonttype`` none) and ids are stable across runs.
    """
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    with matplotlib.rc_context(
        {"svg.fonttype": "none", "svg.hashsalt": f"tablelog-{gauge}", "font.size": 9}
    ):
        fig = Figure(figsize=(_WIDTH_IN, _HEIGHT_IN), layout="constrained")
        ax = fig.add_subplot()
        for i, (name, points) in enumerate(series.items()):
            xs = [float(seq) for seq, _ in points]
            ys = [float(value) for _, value in points]
            (line,) = ax.step(xs, ys, where="post", label=_label(name), linewidth=1.6)
            line.set_gid(series_id(gauge, i))
        ax.set_title(title)
        ax.set_xlabel("event #")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, linewidth=0.4, alpha=0.5)
        ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg") :]
