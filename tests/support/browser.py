"""Headless Chromium for the web tests: Debian's Chromium driven by Playwright, a magicpunk table
with a GM and two players' seat links, and screenshots to ``tests/artifacts/`` (not tracked).
Without Chromium the tests skip on a user's machine and say how to get it; under ``CI=true`` they
fail instead. The fixtures are re-exported by tests/web/conftest.py."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.needs import missing
from tests.support.server import ADD, api

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


def _browser_or_skip() -> Any:
    """Return a started Playwright and its Chromium, or skip (fail under CI) naming the fix."""
    why = None
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        why = "Playwright for Python is missing: make test installs it (pip install playwright)"
    if why is None and not shutil.which(CHROMIUM):
        why = "Chromium is missing: apt-get install chromium (Debian's package)"
    if why is not None:
        missing(f"browser tests: {why}")
    play = sync_playwright().start()
    return play, play.chromium.launch(executable_path=CHROMIUM, args=ARGS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    play, chromium = _browser_or_skip()
    ARTIFACTS.mkdir(exist_ok=True)
    yield chromium
    chromium.close()
    play.stop()


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture
def seats(server: str) -> dict[str, str]:
    """A magicpunk table (Aria played by ann, Kai by bo), returning its id and seat links."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "title": "Rest stop", "seed": 3}).json()[
        "table_id"
    ]
    for line in (
        ADD.format("Aria"),
        ADD.format("Kai"),
        "magicpunk item add a-battery --owner Aria",
        "magicpunk damage Kai 5",
    ):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    links = {"id": tid}
    for name, chars in (("gm2", None), ("ann", ["Aria"]), ("bo", ["Kai"])):
        body = {
            "name": name,
            "role": "gm" if chars is None else "player",
            "characters": chars or [],
        }
        links[name] = gm.post(f"/tables/{tid}/seats", json=body).json()["url"]
    return links


def open_seat(browser: Any, url: str, width: int = 1100) -> Any:
    page = browser.new_context(viewport={"width": width, "height": 1300}).new_page()
    page.set_default_timeout(90_000)  # a busy CI machine: waits are for events, not for speed
    page.goto(url)
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    return page


AXE = Path(__file__).resolve().parents[2] / "tablelog/web/static/vendor/axe-core-4.14.1/axe.min.js"
"""axe-core, vendored whole for the tests only (the page never loads it): :func:`axe` injects it."""


def axe(page: Any, serious: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """Run axe-core on ``page``; return its violations of impact ``serious`` or ``critical``
    (each with its rule id, help and up to five elements)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
        }"""
    )
    return [v for v in found if v["impact"] in serious]


def on_screen(page: Any, selector: str) -> bool:
    """Whether the element is wholly inside the viewport as the page first shows (no scroll)."""
    return bool(
        page.evaluate(
            """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
              return window.scrollY === 0 && r.top >= 0 && r.left >= 0 && r.height > 0 &&
                r.bottom <= window.innerHeight && r.right <= window.innerWidth; }""",
            selector,
        )
    )
