"""The table page in a real browser: Debian's headless Chromium driven by Playwright, a GM and
two players in their own browser contexts, against a real `tablelog serve` process.

Screenshots of each step go to ``tests/artifacts/`` (not tracked). Without Chromium the tests
skip on a user's machine and say how to get it; under ``CI=true`` they fail instead.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tablelog import systems
from tests.support.browser import ARTIFACTS, open_seat, shot
from tests.support.server import ADD, TOKEN, api


def hand(page: Any, name: str) -> list[str]:
    """The cards of ``name``'s hand as the page shows them: each face's code, a back as 🂠."""
    return list(
        page.eval_on_selector_all(
            f'article[data-name="{name}"] .hand .card',
            "cs => cs.map(c => c.dataset.card || c.textContent)",
        )
    )


def action(page: Any, kind: str, text: str) -> Any:
    """The log's row of an action: its first event's type, its sentence holding ``text``."""
    return page.locator(f'#log > li[data-type="{kind}"]', has_text=text)


def test_two_seats_play_live_undo_past_refusal_and_audit(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """ann draws and sees her faces; the GM's page shows them without a reload and bo's page
    shows backs; the GM undoes from the log and every page follows; the time slider shows an
    earlier HP and returns to live; a refused command shows its rule ID; the audit trail of a
    character lists its changes."""
    gm, ann, bo = (open_seat(browser, seats[k]) for k in ("gm2", "ann", "bo"))
    ann.fill("#command", "magicpunk draw Aria 3")
    started = time.perf_counter()
    ann.click("#doit")
    ann.wait_for_function("document.querySelectorAll('article[data-name=Aria] .card').length == 3")
    gm.wait_for_function("document.querySelectorAll('article[data-name=Aria] .card').length == 3")
    delay_s = time.perf_counter() - started
    bo.wait_for_function("document.querySelectorAll('article[data-name=Aria] .card').length == 3")
    faces = hand(ann, "Aria")
    assert "?" not in faces and "🂠" not in faces and faces == hand(gm, "Aria")
    assert hand(bo, "Aria") == ["🂠"] * 3
    shot(ann, "1-player-draws"), shot(gm, "2-gm-sees-faces"), shot(bo, "3-other-player-backs")

    seat_lines = gm.locator('#log > li[data-type="core.SeatAdded"]')
    assert seat_lines.count() >= 3  # seats are revoked, not undone (CORE-SEAT): no button
    assert seat_lines.locator("button").count() == 0
    assert "magicpunk." not in gm.inner_text("#log")  # sentences, no event types
    action(gm, "magicpunk.CardsDrawn", "Aria").locator("button", has_text="undo").click()
    for page in (gm, ann, bo):
        page.wait_for_function(
            "document.querySelectorAll('article[data-name=Aria] .card').length == 0"
        )
    assert gm.locator('#log > li.undone[data-type="magicpunk.CardsDrawn"]').count() == 1
    shot(gm, "4-gm-undid-from-the-log")

    kai_now = gm.locator('article[data-name="Kai"] .bar-num').first.inner_text()
    assert kai_now == "21/26"
    gm.locator("#slider").fill("3")
    gm.wait_for_selector("#past:not([hidden])")
    assert gm.locator('article[data-name="Kai"] .bar-num').first.inner_text() == "26/26"
    shot(gm, "5-time-slider-in-the-past")
    gm.click("#live")
    gm.wait_for_selector("#past", state="hidden")
    assert gm.locator('article[data-name="Kai"] .bar-num').first.inner_text() == "21/26"

    ann.fill("#command", "magicpunk play Aria AS 2S 3S 4S")  # she holds 3 cards: one is not hers
    ann.click("#doit")
    ann.wait_for_selector("#result.error")
    assert ann.inner_text("#result").startswith("error: MP-CARDS: ")
    shot(ann, "6-refused-with-its-rule")

    gm.click('article[data-name="Kai"] h3 button')
    gm.wait_for_selector("#audit li .changes")
    trail = gm.inner_text("#audit")
    assert "Kai takes 5 damage" in trail and "HP 26 → 21" in trail, trail
    assert "Money at creation" not in trail  # internal fields are out of sight
    assert "magicpunk." not in trail and "characters.Kai" not in trail
    # Aria's trail holds the draw the GM undid, struck through, and the undo that took it back
    gm.click('article[data-name="Aria"] h3 button')
    gm.wait_for_selector("#audit li.undone")
    assert "undone" in gm.inner_text("#audit li.undone")
    assert gm.locator("#audit li.marker").count() == 1
    assert "magicpunk." not in gm.inner_text("#audit")
    shot(gm, "7-audit-trail")
    (ARTIFACTS / "web-measure.json").write_text(json.dumps({"update_delay_s": delay_s}))


def test_the_page_works_on_a_phone_and_from_the_keyboard(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """At 360 px nothing runs off the page sideways; a command is typed and sent with the
    keyboard alone (Tab to the box, Enter)."""
    page = open_seat(browser, seats["ann"], width=360)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.focus("#command")
    page.keyboard.type("note 'from a phone'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result.ok")
    shot(page, "8-phone")


def test_the_server_page_creates_a_table_and_a_seat_link(browser: Any, server: str) -> None:
    """/ with the server token lists tables, creates one and adds a seat showing its link (a
    seat for a character the new table does not have yet is confirmed first)."""
    page = browser.new_context().new_page()
    page.set_default_timeout(90_000)
    page.goto(f"{server}/?token={TOKEN}")
    page.wait_for_selector("#create")
    offered = page.eval_on_selector_all("#system option", "os => os.map(o => o.value)")
    assert list(systems.REGISTRY) == offered  # the registry's systems, none named in the page
    page.select_option("#system", "pf2e")
    page.fill("#title", "Downtime")
    page.click("#create button")
    page.wait_for_function(
        "document.querySelector('#created').textContent.includes('Created table')"
    )
    page.fill("#seat-name", "ann")
    page.fill("#seat-chars", "Valeros")
    page.click("#seat button")  # the seat form starts on the table just created
    page.wait_for_selector("#seat-confirm")  # Valeros is no character of the new table yet
    assert "Valeros is no character of this table (yet)" in page.locator("#out").inner_text()
    page.click("#seat-confirm")
    page.wait_for_function("document.querySelector('#out').textContent.includes('link')")
    said = page.locator("#out").inner_text()
    assert "ann's link (hand it to them): " in said and "/t/" in said, said
    assert "GM's seat link" in page.locator("#created").inner_text()  # kept after the seat
    shot(page, "9-server-page")


@pytest.mark.slow
def test_first_render_of_a_table_of_10_characters_and_5000_events(
    browser: Any, server: str, folder: Path, tmp_path: Path
) -> None:
    """A long table (10 characters, 5,000 events appended by a script) renders, its log and
    chart included; the time to first render, the bytes it transferred (the page, its scripts,
    styles and API answers: the Resource Timing API's transferSize) and the live update delay are
    reported in
    tests/artifacts/web-measure.json (figures in docs/SERVER.md, "The web page", are from there)."""
    from tablelog.commands.magicpunk.table import Damage, Heal
    from tablelog.session import Session
    from tests.support.cli import ok

    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "seed": 4}).json()["table_id"]
    names = [f"pc{i}" for i in range(10)]
    script = tmp_path / "cast.txt"
    script.write_text("".join(ADD.format(n) + "\n" for n in names))
    ok(folder / f"{tid}.tlog", "run", str(script))
    session = Session(str(folder / f"{tid}.tlog"))
    with session.atomic():  # 4,988 more events, one write: a long evening of play
        for i in range(2494):
            session.execute(Damage(names[i % 10], 1))
            session.execute(Heal(names[i % 10], 1))
    link = gm.post(f"/tables/{tid}/seats", json={"name": "g", "role": "gm"}).json()["url"]
    page = browser.new_context(viewport={"width": 1100, "height": 1300}).new_page()
    started = time.perf_counter()
    page.goto(link)
    page.wait_for_function("window.tablelog && window.tablelog.ready", timeout=120_000)
    first_render_s = time.perf_counter() - started
    transferred = page.evaluate(
        "() => performance.getEntriesByType('navigation').concat("
        "performance.getEntriesByType('resource')).reduce((n, e) => n + e.transferSize, 0)"
    )
    assert page.locator("article.entity").count() == 10
    assert page.locator("#log > li.action").count() == 200  # the latest; more on request
    page.click("#log li.earlier button")
    assert page.locator("#log > li.action").count() == 400
    # the page read the latest 1,000 records, not the whole log (megabytes at this length)
    last = gm.get(f"/tables/{tid}").json()["seq"]
    assert page.evaluate("window.tablelog.logFrom") == last - 1000
    page.locator("#slider").fill("100")  # back before them: the earlier records are read
    page.wait_for_function("window.tablelog.logFrom <= 100", timeout=30_000)
    page.wait_for_selector('#log > li.action[data-seq="100"]', timeout=30_000)
    assert int(page.locator("#log > li.action").first.get_attribute("data-seq")) == 100
    assert transferred < 1_000_000  # 1.57 MB when the page read the whole log
    shot(page, "10-long-table")
    measured = ARTIFACTS / "web-measure.json"
    figures = json.loads(measured.read_text()) if measured.exists() else {}
    figures["first_render_5000_events_s"] = first_render_s
    figures["first_render_transferred_bytes"] = transferred  # the page, its scripts, the API
    measured.write_text(json.dumps(figures))


# WCAG 2.x contrast ratio of each visible element's own text against the first opaque background
# behind it (text on a patterned background, the card backs, is white on dark blue by design).
COLOURS = """
  const rgb = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(",").map(parseFloat);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== "none") return null;
      const c = rgb(s.backgroundColor);
      if (c && c.a > 0) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
"""
CONTRAST = (
    "() => {"
    + COLOURS
    + """
  const found = []; let checked = 0;
  for (const el of document.querySelectorAll("body *")) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    const bg = behind(el); if (!bg) continue;
    const [hi, lo] = [lum(rgb(getComputedStyle(el).color)), lum(bg)].sort((x, y) => y - x);
    checked += 1;
    const ratio = (hi + 0.05) / (lo + 0.05);
    const text = el.textContent.trim().slice(0, 30);
    if (ratio < 4.5) found.push(`${el.tagName}.${el.className} "${text}": ${ratio.toFixed(2)}`);
  }
  return { checked, found };
}"""
)


# The focused element's focus ring (its outline colour) against the first opaque background
# behind the element's parent (the ring is drawn outside the element, offset from it).
FOCUS_RING = (
    "() => {"
    + COLOURS
    + """
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const s = getComputedStyle(el);
  if (s.outlineStyle === "none" || parseFloat(s.outlineWidth) < 2) return { what: el.id, ratio: 0 };
  const bg = behind(el.parentElement);
  const [hi, lo] = [lum(rgb(s.outlineColor)), lum(bg)].sort((x, y) => y - x);
  return { what: `${el.tagName}#${el.id}`, ratio: (hi + 0.05) / (lo + 0.05) };
}"""
)


def focus_rings(page: Any, tabs: int) -> list[dict[str, Any]]:
    """Tab through ``tabs`` elements of ``page``; return each focus ring's contrast."""
    rings = []
    for _ in range(tabs):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring is not None:
            rings.append(ring)
    return rings


def test_every_text_on_the_page_has_readable_contrast(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """Each visible text of the table page (a GM's, with a refused command and an undone
    action shown) and of the server page is at least 4.5:1 against its background (WCAG AA);
    the focus ring of each element reached with Tab is at least 3:1 against the background it
    sits on (WCAG 1.4.11)."""
    gm = open_seat(browser, seats["gm2"])
    gm.fill("#command", "magicpunk damage Aria 2")
    gm.click("#doit")
    gm.wait_for_selector("#result.ok")
    action(gm, "magicpunk.DamageTaken", "Aria").locator("button", has_text="undo").click()
    gm.wait_for_selector("#log li.undone")
    gm.fill("#command", "magicpunk play Aria ZZ")
    gm.click("#doit")
    gm.wait_for_selector("#result.error")
    index = browser.new_context().new_page()
    index.goto(f"{server}/?token={TOKEN}")
    index.wait_for_selector("#create")
    for page in (gm, index):
        measured = page.evaluate(CONTRAST)
        assert measured["checked"] >= 10 and measured["found"] == []
        rings = focus_rings(page, 12)
        assert len(rings) >= 8 and [r for r in rings if r["ratio"] < 3] == [], rings
