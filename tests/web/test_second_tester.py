"""The table page's faults from a second fresh tester (issue 18): the focus after "Back to live",
the chart at a new window width, the saga HP chart's scales and its legend. Each test failed
before its fix, in headless Chromium against a real `tablelog serve`."""

from __future__ import annotations

from typing import Any

from tests.support.browser import open_seat


def test_back_to_live_puts_the_focus_on_the_time_slider(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """The button hides itself when pressed: the focus goes to the slider, not to <body>."""
    page = open_seat(browser, seats["gm2"])
    page.locator("#slider").fill("3")
    page.wait_for_selector("#live:not([hidden])")
    page.focus("#live")
    page.keyboard.press("Enter")
    page.wait_for_selector("#past", state="hidden")
    assert "slider" == page.evaluate("document.activeElement.id")
