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


FONTS = [
    "Hiragino Sans",
    "Hiragino Kaku Gothic ProN",
    "Noto Sans CJK JP",
    "Noto Sans CJK KR",
    "Yu Gothic",
    "Meiryo",
    "Malgun Gothic",
    "Apple SD Gothic Neo",
    "DejaVu Sans",
]
"""The charts' fonts, named in each text's ``font-family`` (then ``sans-serif``): the browser
draws the text (``svg.fonttype`` none) in the first it has, so Japanese and Korean names show;
matplotlib measures it with the first it finds (DejaVu Sans, its own, at the least)."""


def gauge_svg(
    gauge: str, series: dict[str, list[tuple[int, Any]]], title: str, x_label: str = "event #"
) -> str:
    """Return one chart as an ``<svg>`` element (no XML prolog: ready to inline in HTML).

    Args:
        gauge: The figure charted (``hp``): used in the series ids.
        series: Character name -> ``[(seq, value)]`` in seq order (a step each change).
        title: The chart's title.
        x_label: The x axis's label (the reader's words for "event #").

    Returns:
        SVG text; text stays text (``svg.fonttype`` none: the browser renders it, in a CJK font
        where it has one, :data:`FONTS`) and ids are stable across runs.
    """
    import warnings

    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    with (
        matplotlib.rc_context(
            {
                "svg.fonttype": "none",
                "svg.hashsalt": f"tablelog-{gauge}",
                "font.size": 9,
                "font.family": ["sans-serif"],
                "font.sans-serif": FONTS,
            }
        ),
        warnings.catch_warnings(),
    ):
        # Without a CJK font installed matplotlib measures such a name with DejaVu Sans and
        # says so; the browser draws it with the reader's fonts all the same.
        warnings.filterwarnings("ignore", r"Glyph \d+ .*missing from", UserWarning)
        fig = Figure(figsize=(_WIDTH_IN, _HEIGHT_IN), layout="constrained")
        ax = fig.add_subplot()
        for i, (name, points) in enumerate(series.items()):
            xs = [float(seq) for seq, _ in points]
            ys = [float(value) for _, value in points]
            (line,) = ax.step(xs, ys, where="post", label=_label(name), linewidth=1.6)
            line.set_gid(series_id(gauge, i))
        ax.set_title(title)
        ax.set_xlabel(x_label)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, linewidth=0.4, alpha=0.5)
        ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg") :]
