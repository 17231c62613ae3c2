"""The table page's faults from a second fresh tester (issue 18): the focus after "Back to live",
the chart at a new window width, the saga HP chart's scales and its legend. Each test failed
before its fix, in headless Chromium against a real `tablelog serve`."""

from __future__ import annotations

from typing import Any

from tests.support.browser import open_seat, shot
from tests.support.server import TOKEN
from tests.web.test_faults import gm_page


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
    assert page.evaluate("document.activeElement.id") == "slider"


def right_edges(page: Any) -> list[float]:
    return list(
        page.evaluate("window.tablelog.charts.map((u) => u.root.getBoundingClientRect().right)")
    )


def test_the_chart_follows_the_window_from_1280_to_360_px(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """Drawn at 1280 px, then the window narrowed to 360 px: every chart fits in 360 px."""
    page = open_seat(browser, seats["gm2"], width=1280)
    page.wait_for_function("window.tablelog.charts && window.tablelog.charts.length")
    assert max(right_edges(page)) > 360
    page.set_viewport_size({"width": 360, "height": 800})
    page.wait_for_function(
        "window.tablelog.charts.every((u) => u.root.getBoundingClientRect().right <= 360)"
    )
    shot(page, "17-chart-after-resize-360")
    assert all(right <= 360 for right in right_edges(page))


def test_the_saga_hp_chart_draws_a_side_each_and_its_legend_has_values(
    browser: Any, server: str
) -> None:
    """Allies of 320 and 210 HP and an enemy of 1200 HP: the allies' HP chart (its scale up to
    about 320, not 1200) and the enemy's apart; the legend shows the latest HP (320, 210,
    1200), never "--"."""
    lines = [
        "saga unit add Gustave --max-hp 320",
        "saga unit add Amy --max-hp 210",
        "saga unit add Dragon --max-hp 1200 --enemy",
    ]
    page = gm_page(browser, server, "saga", lines)
    page.wait_for_function("(window.tablelog.charts || []).length >= 2")
    hp = page.evaluate(
        """window.tablelog.charts.filter((u) => u.root.parentElement.dataset.figure == "hp")
          .map((u) => [u.series.slice(1).map((s) => s.label), u.scales.y.max])"""
    )
    assert [labels for labels, _ in hp] == [["Gustave", "Amy"], ["Dragon"]], hp
    assert 320 <= hp[0][1] < 600 and hp[1][1] >= 1200, hp
    legend = page.locator(".u-legend").first.inner_text()
    assert "--" not in legend and "320" in legend and "210" in legend, legend
    assert "1200" in page.locator(".u-legend").nth(1).inner_text()
    shot(page, "18-saga-hp-per-side")


def test_the_server_page_asks_for_the_server_token_and_shows_the_gms_link(
    browser: Any, server: str
) -> None:
    """/?token=wrong says the server token is needed (not a seat's link); Create table shows the
    GM's seat link, which opens the new table as its GM, and the message stays when a seat is
    added (the seat's link is shown apart)."""
    page = browser.new_context().new_page()
    answer = page.goto(f"{server}/?token=wrong")
    assert answer is not None and answer.status == 401
    said = page.inner_text("[role=alert]")
    assert "needs the server token" in said and "seat" not in said, said
    page.goto(f"{server}/?token={TOKEN}")
    page.wait_for_selector("#create")
    page.fill("#title", "Night one")
    page.click("#create button")
    page.wait_for_function("document.querySelector('#created').textContent.includes('/t/')")
    created = page.inner_text("#created")
    page.fill("#seat-name", "ann")
    page.click("#seat button")
    page.wait_for_function("document.querySelector('#out').textContent.includes('ann')")
    assert created == page.inner_text("#created")
    link = created.split(": ")[-1].strip()
    gm = open_seat(browser, link)
    assert gm.inner_text("#me") == "gm (GM)" and gm.inner_text("h1") == "Night one"
