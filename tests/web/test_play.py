"""The page as a play surface (issue 30): in headless Chromium against a real `tablelog serve`.

A player rolls its own check and the other seats see the roll; a whisper reaches its recipient
and the GM and no one else (page, stream, log, report); a five-hit cast is one row of the log; on
a phone the command bar is on screen without scrolling; the time slider moves the cards, the log
and the charts; the sheets keep internal fields out of sight and show cards with suits (a click
on one's own cards fills the command line); the actions at hand fill and preview their lines;
the GM runs the seats; ccfolia's clipboard JSON of one's own character; a Japanese and a Korean
seat; light and dark themes; axe-core finds no serious violation.

A command of the contract the server does not take from the seat (core ``roll`` and ``say``, a
player's own check) fails the test by name; nothing skips, and nothing is an expected failure.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest

from tests.support.browser import axe, on_screen, open_seat, shot
from tests.support.server import ADD, TOKEN, api, sse_records
from tests.web.test_faults import gm_page


def taken(server: str, tid: str, token: str, line: str) -> None:
    """Fail unless the server takes ``line`` from the seat ``token`` (a dry run): every seat's
    command of the contract (SERVER.md §3-4)."""
    said = httpx.post(
        f"{server}/api/tables/{tid}/commands",
        json={"command": line, "dry_run": True},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    if said.status_code in (400, 403):
        pytest.fail(f"the server does not take {line!r} from this seat: {said.text[:160]}")


@pytest.fixture
def table(server: str) -> dict[str, Any]:
    """A magicpunk table: Aria (ann, who holds a-battery), Kai (bo), a GM seat and cy, a player
    without characters; each seat's link and token."""
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
    found: dict[str, Any] = {"id": tid}
    for name, chars in (("gm2", None), ("ann", ["Aria"]), ("bo", ["Kai"]), ("cy", [])):
        body = {
            "name": name,
            "role": "gm" if chars is None else "player",
            "characters": chars or [],
        }
        made = gm.post(f"/tables/{tid}/seats", json=body).json()
        found[name], found[f"{name}-token"] = made["url"], made["token"]
    return found


def rows(page: Any) -> list[str]:
    return list(page.locator("#log > li.action").all_inner_texts())


@pytest.mark.rule("CORE-GIVEN")
def test_a_player_rolls_her_own_check_and_every_seat_sees_the_roll(
    browser: Any, server: str, table: dict[str, Any]
) -> None:
    """ann picks Aria's Sense (12) and Roll the check: the command line holds
    `magicpunk roll 1MP12 --by Aria` and its preview; Do it appends it, and bo's and the GM's
    pages show the roll (a dice row, the dice bot's line) without a reload."""
    taken(server, table["id"], table["ann-token"], "magicpunk roll 1MP12 --by Aria")
    ann, bo, gm = (open_seat(browser, table[k]) for k in ("ann", "bo", "gm2"))
    ann.select_option("#act-ability-Aria", "12")
    ann.click("#act-check")
    ann.wait_for_function("document.querySelector('#result').textContent.startsWith('Preview')")
    assert ann.input_value("#command") == "magicpunk roll 1MP12 --by Aria"
    ann.click("#doit")
    ann.wait_for_selector("#result.ok >> text=Done")
    for page in (bo, gm):
        page.wait_for_selector('#log > li.roll[data-type="magicpunk.CheckRolled"]')
        row = page.locator('#log > li.roll[data-type="magicpunk.CheckRolled"]').first
        assert "ann" in row.inner_text() and "1MP12" in row.inner_text()
    shot(bo, "play-1-other-seat-sees-the-roll")


def test_plain_dice_from_the_page(browser: Any, server: str, table: dict[str, Any]) -> None:
    """bo rolls 2D6+1 from the dice field: `roll 2D6+1`, and a secret roll `roll S2D6` that ann
    never sees."""
    taken(server, table["id"], table["bo-token"], "roll 2D6+1")
    bo, ann = open_seat(browser, table["bo"]), open_seat(browser, table["ann"])
    bo.fill("#act-notation", "2D6+1")
    bo.click("#act-roll")
    bo.wait_for_function("document.querySelector('#command').value == 'roll 2D6+1'")
    bo.click("#doit")
    ann.wait_for_selector('#log > li.roll[data-type="core.DiceRolled"]')
    assert "2D6+1" in ann.locator("#log > li.roll").first.inner_text()
    bo.fill("#act-notation", "2D6")
    bo.check("#act-secret")
    bo.click("#act-roll")
    bo.wait_for_function("document.querySelector('#command').value == 'roll S2D6'")
    bo.click("#doit")
    bo.wait_for_function("document.querySelectorAll('#log > li.roll').length == 2")
    ann.wait_for_timeout(1500)
    assert ann.locator("#log > li.roll").count() == 1


def test_a_whisper_reaches_its_reader_and_the_gm_and_no_one_else(
    browser: Any, server: str, table: dict[str, Any]
) -> None:
    """ann whispers to bo from the talk box: bo's page and the GM's show it as a whisper; cy's
    page, cy's event stream, cy's log and cy's report hold nothing of it."""
    taken(server, table["id"], table["ann-token"], "say psst --to bo")
    tid = table["id"]
    cy_api = api(server, table["cy-token"])
    seen: list[Any] = []
    start = int(cy_api.get(f"/tables/{tid}").json()["seq"])

    def listen() -> None:  # a client of its own: the stream waits while the test goes on
        headers = {"Authorization": f"Bearer {table['cy-token']}"}
        with (
            httpx.Client(base_url=f"{server}/api", headers=headers, timeout=30) as own,
            own.stream("GET", f"/tables/{tid}/events", params={"after": start}) as stream,
        ):
            seen.extend(sse_records(stream, 1))

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    ann, bo, gm, cy = (open_seat(browser, table[k]) for k in ("ann", "bo", "gm2", "cy"))
    ann.fill("#say", "psst, the wolf is near")
    ann.select_option("#say-to", "bo")
    ann.click("#say-send")
    ann.wait_for_selector("#result.ok")
    for page in (bo, gm, ann):
        page.locator("#log > li.whisper", has_text="psst, the wolf is near").first.wait_for()
    shot(bo, "play-2-whisper-received")
    api(server).post(f"/tables/{tid}/commands", json={"command": "note 'after the whisper'"})
    cy.wait_for_function("document.querySelector('#log').textContent.includes('after the whisper')")
    assert "psst" not in cy.inner_text("#log")
    listener.join(20)
    assert seen and all("psst" not in json.dumps(data) for _, data in seen), seen
    events = cy_api.get(f"/tables/{tid}/log", params={"all": "true"}).json()["events"]
    assert [e for e in events if "psst" in json.dumps(e)] == []
    for fmt in ("md", "html"):
        assert "psst" not in cy_api.get(f"/tables/{tid}/report", params={"format": fmt}).text
    assert "psst" in api(server).get(f"/tables/{tid}/report", params={"format": "md"}).text


SAGA = [
    "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --stat vit=30 --slv 1h-sword=10 "
    "--weapon 1h-sword=30 --resist 20",
    "saga unit add Amy --max-hp 210 --lp 9 --stat int=40 --stat con=25 --stat vit=20 "
    "--slv spell=20 --five wood=10 --resist 15",
    "saga unit add Wolf --enemy --max-hp 1200 --battle-rank 20 --intrinsic-hp 150 --race beast",
    "saga battle start --terrain wood",
]


def test_a_five_hit_cast_is_one_row_with_its_hits_inside(browser: Any, server: str) -> None:
    """The GM picks Amy, tenrai and the Wolf in the actions and uses the tech: the command line
    and its preview, then one row of the log for the five hits (expandable); its undo is one row
    naming what it took back."""
    page = gm_page(browser, server, "saga", SAGA)
    before = len(rows(page))
    page.select_option("#act-who", "Amy")
    page.select_option("#act-tech-Amy", "tenrai")
    page.select_option("#act-target-Amy", "Wolf")
    page.click("#act-cast")
    page.wait_for_function("document.querySelector('#command').value.startsWith('saga cast Amy')")
    assert page.input_value("#command") == "saga cast Amy tenrai --target Wolf"
    page.click("#doit")
    page.wait_for_function(f"document.querySelectorAll('#log > li.action').length == {before + 1}")
    row = page.locator("#log > li.action").first
    hits = row.locator(".hits li")
    # the cast's first event, its hits inside (the row may show before its last records arrive)
    page.wait_for_function(
        "document.querySelectorAll('#log > li.action')[0].querySelectorAll('.hits li').length >= 4"
    )
    assert hits.count() >= 4, row.inner_text()
    row.locator(".hits summary").click()
    assert hits.first.is_visible()
    shot(page, "play-3-five-hit-cast-one-row")
    row.locator("button", has_text="undo").click()
    page.wait_for_function(f"document.querySelectorAll('#log > li.action').length == {before + 2}")
    assert page.locator("#log > li.action").nth(1).get_attribute("class") == "action undone"
    assert page.locator("#log > li.marker").count() == 1
    undo_row = page.locator("#log > li.marker").first.inner_text()
    assert "undo #" in undo_row and "tenrai" in undo_row, undo_row  # names what it took back


@pytest.mark.rule("SAGA-TARGET-1")
def test_the_target_picker_leaves_out_a_downed_unit(browser: Any, server: str) -> None:
    """Gustave fells a Rat of 10 HP; Amy's target picker offers the Wolf and her allies, not
    the Rat (an attack on a downed unit is refused: SAGA-TARGET-1)."""
    rat = "saga unit add Rat --enemy --max-hp 10 --battle-rank 1 --intrinsic-hp 1 --race beast"
    page = gm_page(
        browser, server, "saga", [*SAGA, rat, "saga cast Gustave kiri-harai --target Rat --roll 1"]
    )
    page.select_option("#act-who", "Amy")
    offered = page.eval_on_selector_all("#act-target-Amy option", "os => os.map(o => o.value)")
    assert "Wolf" in offered and "Rat" not in offered, offered


def test_on_a_phone_the_command_bar_is_on_screen_without_scrolling(
    browser: Any, server: str, table: dict[str, Any]
) -> None:
    """At 390 × 844 the command bar (its box and both buttons) is inside the first screen, and
    stays there scrolled to the end; an action button fills it."""
    page = open_seat(browser, table["ann"], width=390)
    page.set_viewport_size({"width": 390, "height": 844})
    for part in ("#command-bar", "#command", "#preview", "#doit"):
        assert on_screen(page, part), part
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#act-draw")
    page.wait_for_function("document.querySelector('#command').value == 'magicpunk draw Aria 1'")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = page.evaluate("document.querySelector('#command-bar').getBoundingClientRect().bottom")
    assert box <= 844
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "play-4-phone")


def test_the_slider_moves_the_cards_the_log_and_the_charts(
    browser: Any, server: str, table: dict[str, Any]
) -> None:
    """After Kai's damage and a note, the slider just before the damage: Kai's HP is 26, the
    log's newest row is before it, and the chart ends there; back to live, all three are the
    present."""
    page = open_seat(browser, table["gm2"])
    api(server).post(f"/tables/{table['id']}/commands", json={"command": "note 'later on'"})
    page.wait_for_function("document.querySelector('#log').textContent.includes('later on')")
    page.wait_for_function("window.tablelog.charts && window.tablelog.charts.length")
    live_rows = rows(page)
    hurt = page.locator('#log > li[data-type="magicpunk.DamageTaken"]').get_attribute("data-seq")
    before = int(hurt or 0) - 1
    page.locator("#slider").fill(str(before))
    page.wait_for_selector("#past:not([hidden])")
    page.wait_for_function(f"window.tablelog.chartAt == {before}")
    assert page.locator('article[data-name="Kai"] .bar-num').first.inner_text() == "26/26"
    newest = int(page.locator("#log > li.action").first.get_attribute("data-seq") or 0)
    assert newest <= before and "later on" not in page.inner_text("#log")
    assert len(rows(page)) < len(live_rows)
    assert page.locator('#log > li[data-type="magicpunk.DamageTaken"]').count() == 0
    assert page.evaluate("Math.max(...window.tablelog.charts[0].data[0])") <= before
    shot(page, "play-5-slider-in-the-past")
    page.click("#live")
    page.wait_for_function("document.querySelector('#log').textContent.includes('later on')")
    assert page.locator('article[data-name="Kai"] .bar-num').first.inner_text() == "21/26"
    assert page.locator('#log > li[data-type="magicpunk.DamageTaken"]').count() == 1


def test_sheets_cards_and_the_actions_at_hand(
    browser: Any, server: str, table: dict[str, Any]
) -> None:
    """Aria's sheet: HP large, her figures by their labels, no internal field (money at
    creation, acted); after a draw her cards are faces with suits and Kai's are backs to her; a
    click on two of her cards and Play fills `magicpunk play Aria C C` and previews it; Charge
    fills `magicpunk charge a-battery C --from Aria`."""
    gm = api(server)
    tid = table["id"]
    gm.post(f"/tables/{tid}/commands", json={"command": "magicpunk draw Aria 3"})
    gm.post(f"/tables/{tid}/commands", json={"command": "magicpunk draw Kai 2"})
    page = open_seat(browser, table["ann"])
    sheet = page.inner_text('article[data-name="Aria"]')
    assert "Sense" in sheet and "Money at creation" not in sheet and "Acted" not in sheet
    assert "money_at_creation" not in sheet and "stays_acted" not in sheet
    faces = page.locator('article[data-name="Aria"] .hand button.card')
    assert faces.count() == 3
    assert all(
        s in "♠♥♦♣★" for s in page.locator('article[data-name="Aria"] .suit').all_inner_texts()
    )
    assert page.locator('article[data-name="Kai"] .hand .card.back').count() == 2
    codes = [faces.nth(i).get_attribute("data-card") for i in range(2)]
    faces.nth(0).click()
    page.locator('article[data-name="Aria"] .hand button.card').nth(1).click()
    page.click("#play-cards")
    page.wait_for_function("document.querySelector('#result').textContent.startsWith('Preview')")
    assert f"magicpunk play Aria {codes[0]} {codes[1]}" == page.input_value("#command")
    page.click("#charge-cards")
    page.wait_for_function(
        "document.querySelector('#command').value.startsWith('magicpunk charge')"
    )
    assert f"magicpunk charge a-battery {codes[0]} {codes[1]} --from Aria" == page.input_value(
        "#command"
    )
    shot(page, "play-6-cards-picked")
    page.click("#act-draw")
    page.wait_for_function("document.querySelector('#command').value == 'magicpunk draw Aria 1'")
    page.wait_for_function("document.querySelector('#result').textContent.includes('Aria draws')")
    said = page.inner_text("#result")
    assert said.startswith("Preview — nothing appended:") and "Aria draws" in said, said
    assert "magicpunk." not in said and "characters." not in said


def test_the_gm_runs_the_seats_from_the_page(
    browser: Any, server: str, table: dict[str, Any]
) -> None:
    """The GM's seats: each seat with its role and characters; New link gives a new one-time
    link and bo's page says its link no longer works; a seat for a character the table lacks
    is warned about and added only when confirmed; Revoke asks twice."""
    page = open_seat(browser, table["gm2"])
    bo = open_seat(browser, table["bo"])
    page.click("#seats-details summary")
    page.wait_for_selector('#seats tr[data-seat="ann"]')
    assert "Aria" in page.inner_text('#seats tr[data-seat="ann"]')
    page.locator('#seats tr[data-seat="bo"] button', has_text="New link").click()
    page.wait_for_selector("#seat-out.ok")
    assert "/t/" in page.inner_text("#seat-out")
    bo.wait_for_selector("#banner.revoked")
    page.fill("#new-seat-name", "dee")
    page.fill("#new-seat-chars", "Nobody")
    page.click("#seat-form button[type=submit]")
    page.wait_for_selector("#seat-out.warn")  # 409 confirm: Nobody is no character of the table
    assert "Nobody is no character of this table" in page.inner_text("#seat-out")
    page.click("#seat-confirm")
    page.wait_for_selector("#seat-out.ok")
    assert "dee's link" in page.inner_text("#seat-out")
    page.wait_for_selector('#seats tr[data-seat="dee"]')
    shot(page, "play-7-gm-seats")
    revoke = page.locator('#seats tr[data-seat="dee"] button', has_text="Revoke")
    revoke.click()
    assert "sure?" in page.locator('#seats tr[data-seat="dee"] .danger').inner_text()
    page.locator('#seats tr[data-seat="dee"] .danger').click()
    page.wait_for_selector('#seats tr[data-seat="dee"]', state="detached")


def test_copy_for_ccfolia_and_the_exports(browser: Any, server: str, table: dict[str, Any]) -> None:
    """ann's "Copy for ccfolia" puts Aria's clipboard JSON on the clipboard (Kai has no such
    button for her); bo's hand stays "?" in his clipboard JSON as ann would get it from the API
    (403-free: it is public), and the report and room log links answer."""
    gm = api(server)
    tid = table["id"]
    gm.post(f"/tables/{tid}/commands", json={"command": "magicpunk draw Kai 2"})
    context = browser.new_context(viewport={"width": 1100, "height": 1300})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(table["ann"])
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    assert page.locator('article[data-name="Kai"] .copy').count() == 0
    page.click('article[data-name="Aria"] .copy')
    page.wait_for_function("window.tablelog.ccfolia")
    pasted = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert pasted["kind"] == "character" and pasted["data"]["name"] == "Aria"
    assert [(bar["value"], bar["max"]) for bar in pasted["data"]["status"]] == [(26, 26)]
    ann = api(server, table["ann-token"])
    kai = ann.get(f"/tables/{tid}/ccfolia/Kai").json()
    assert "?" in kai["data"]["memo"] or "(-)" in kai["data"]["memo"], kai["data"]["memo"]
    for link in ("#report-html", "#report-md", "#ccfolia-log"):
        href = page.get_attribute(link, "href") or ""
        answer = page.request.get(f"{server}{href}")
        assert answer.status == 200, (link, answer.text()[:200])
    assert (
        "ccfolia - logs"
        in page.request.get(f"{server}{page.get_attribute('#ccfolia-log', 'href')}").text()
    )


# A sentence the dice bot or the seed wrote in each language (the log's and an error's).
SAID = {
    "ja": ("Ariaは5ダメージを受けた", "カードではない"),
    "ko": ("대미지를 받음", "카드가 아닙니다"),
}


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_a_japanese_and_a_korean_seat(
    browser: Any, server: str, table: dict[str, Any], lang: str
) -> None:
    """A browser whose language is Japanese (Korean) opens ann's seat in that language: the
    page's own words as the catalogue has them (GET /i18n/LANG: each heading its entry, the
    English where the entry is not translated yet), the log's sentences and an error from the
    API in that language; the switch to English is kept for the seat in this browser (a reload
    stays English). Screenshots of each."""
    gm = api(server)
    gm.post(f"/tables/{table['id']}/commands", json={"command": "magicpunk damage Aria 5"})
    context = browser.new_context(viewport={"width": 1100, "height": 1300}, locale=lang)
    page = context.new_page()
    page.set_default_timeout(90_000)
    page.goto(table["ann"])
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    assert lang == page.evaluate("document.documentElement.lang")
    assert lang == page.input_value("#lang")
    words = httpx.get(f"{server}/i18n/{lang}", timeout=10).json()
    assert lang == words["lang"]
    for part, key, english in (
        ("#actions-h", "web.actions.heading", "Actions"),
        ("#log-h", "web.log.heading", "Log"),
        ("#talk-h", "web.talk.heading", "Talk"),
        ("#doit", "web.command.doit", "Do it"),
    ):
        assert words["messages"].get(f"{key}\u0004{english}", english) == page.inner_text(part)
    hurt, refused = SAID[lang]
    page.wait_for_selector(f"#log > li.action >> text={hurt}")
    page.fill("#command", "magicpunk play Aria ZZ")
    page.click("#doit")
    page.wait_for_selector("#result.error")
    assert refused in page.inner_text("#result")
    shot(page, f"play-8-{lang}-seat")
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang == 'en'")
    page.wait_for_function("document.querySelector('#log-h').textContent == 'Log'")
    page.wait_for_selector("#log > li.action >> text=Aria takes 5 damage")
    page.reload()
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "Aria takes 5 damage" in page.inner_text("#log")


def test_light_and_dark_themes_and_no_serious_accessibility_violation(
    browser: Any, server: str, table: dict[str, Any]
) -> None:
    """axe-core (vendored, injected by the test) finds no serious or critical violation on the
    GM's page, a player's phone page, the server page, and in the dark theme; the theme follows
    prefers-color-scheme and the toggle, which is kept."""
    gm = open_seat(browser, table["gm2"])
    api(server).post(f"/tables/{table['id']}/commands", json={"command": "magicpunk draw Aria 2"})
    gm.wait_for_selector('article[data-name="Aria"] .hand .card')
    gm.click("#seats-details summary")
    gm.wait_for_selector('#seats tr[data-seat="ann"]')
    assert axe(gm) == []
    phone = open_seat(browser, table["ann"], width=390)
    assert axe(phone) == []
    dark = browser.new_context(viewport={"width": 1100, "height": 1300}, color_scheme="dark")
    page = dark.new_page()
    page.goto(table["bo"])
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 17, 23)", background
    assert axe(page) == []
    shot(page, "play-9-dark-theme")
    page.click("#theme")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    page.reload()
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    index = browser.new_context().new_page()
    index.goto(f"{server}/?token={TOKEN}")
    index.wait_for_selector("#create")
    assert axe(index) == []
