"""Plain-text tables for terminal output, aligned by display width (Japanese text is wide)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["display_width", "table_lines"]


def display_width(text: str) -> int:
    """Return the terminal columns ``text`` takes: 2 for wide and full-width characters."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table_lines(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """Return a header line and one line per row, columns padded to their widest cell.

    Args:
        headers: Column titles.
        rows: Cells (any value; shown with ``str``, ``None`` as ``-``).

    Returns:
        The lines, without trailing spaces.
    """
    cells = [[_cell(v) for v in row] for row in [list(headers), *rows]]
    widths = [max(display_width(row[i]) for row in cells) for i in range(len(headers))]
    return [
        "  ".join(_pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]


def _pad(cell: str, width: int) -> str:
    return cell + " " * (width - display_width(cell))


def _cell(value: object) -> str:
    return "-" if value is None or value == "" else str(value)
