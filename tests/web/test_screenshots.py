"""The screenshots of docs/img are made by `make screenshots` (tools/screenshots.py): each
system's example session, its GM's desktop page and a player's phone page."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from tools.screenshots import EXAMPLES, main

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def size(png: Path) -> tuple[int, int]:
    """A PNG's width and height (its IHDR chunk)."""
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", png
    return struct.unpack(">II", head[16:24])  # type: ignore[return-value]


@pytest.mark.slow
def test_the_screenshots_are_made_for_every_system(browser: Any, tmp_path: Path) -> None:
    """Eight screenshots: 1280×900 for each GM's desktop, 390×844 for each player's phone."""
    made = main(tmp_path, browser)
    expected = {
        f"{system}-{kind}.png": dims
        for system in EXAMPLES
        for kind, dims in (("gm-desktop", (1280, 900)), ("player-phone", (390, 844)))
    }
    assert expected == {path.name: size(path) for path in made}


def test_docs_img_holds_them_and_the_readme_shows_them() -> None:
    """docs/img has each system's two screenshots; the README shows a GM's desktop page and a
    player's phone page, docs/SERVER.md all of them."""
    readme = (DOCS_IMG.parents[1] / "README.md").read_text(encoding="utf-8")
    server = (DOCS_IMG.parent / "SERVER.md").read_text(encoding="utf-8")
    for system in EXAMPLES:
        for kind in ("gm-desktop", "player-phone"):
            name = f"{system}-{kind}.png"
            assert (DOCS_IMG / name).is_file(), name
            assert f"img/{name}" in server, name
    assert "docs/img/magicpunk-gm-desktop.png" in readme
    assert "docs/img/magicpunk-player-phone.png" in readme
