"""The page's answers to what goes wrong (issue 18): a double click, a revoked seat, a server out
of reach, a phone with long unbroken text, names that do not fit in an address, and the chart's
figures. Each test failed before its fix, in headless Chromium against a real `tablelog serve`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.browser import open_seat, shot
from tests.support.server import ADD, TOKEN, api, free_port, spawn

COMMANDS = "**/api/tables/*/commands"


def notes(server: str, tid: str, text: str) -> int:
    """Count the log's note events whose line holds ``text``."""
    events = api(server).get(f"/tables/{tid}/log", params={"all": "true"}).json()["events"]
    return sum(1 for e in events if e["type"] == "core.Noted" and text in e["text"])


def test_a_double_click_appends_once_and_a_retry_reuses_its_request_id(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """Do it double-clicked sends one request (its buttons are disabled while it is in flight);
    a submission that got no answer, sent again, carries the same request id."""
    page = open_seat(browser, seats["ann"])
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: (
            sent.append(json.loads(r.post_data or "{}")) if r.url.endswith("/commands") else None
        ),
    )
    page.fill("#command", "note 'twice?'")
    page.dblclick("#doit")
    page.wait_for_selector("#result.ok")
    assert len(sent) == 1 and notes(server, seats["id"], "twice?") == 1

    tried: list[str] = []

    def drop_first(route: Any) -> None:
        tried.append(json.loads(route.request.post_data)["request_id"])
        route.abort() if len(tried) == 1 else route.continue_()

    page.route(COMMANDS, drop_first)
    page.fill("#command", "note 'retried'")
    page.click("#doit")
    page.wait_for_selector("#result.error")
    assert "cannot reach the server" in page.inner_text("#result")
    assert page.input_value("#command") == "note 'retried'"
    page.click("#doit")
    page.wait_for_selector("#result.ok")
    assert len(tried) == 2 and tried[0] == tried[1] and tried[0].startswith("web-")
    assert notes(server, seats["id"], "retried") == 1


def test_a_revoked_seat_says_its_link_no_longer_works_and_stops(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """bo's seat is revoked while his page is open: the page's next read is answered 401 (the
    revocation is a new event its stream brings), and the page says in a banner that the link no
    longer works, disables the command box and stops following the table (no new stream)."""
    page = open_seat(browser, seats["bo"])
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
    assert api(server).delete(f"/tables/{seats['id']}/seats/bo").status_code == 204
    page.wait_for_selector("#banner.revoked")
    assert "link no longer works" in page.inner_text("#banner")
    assert page.is_disabled("#command") and page.is_disabled("#doit")
    assert page.is_disabled("#preview")
    opened = len(streams)
    page.wait_for_timeout(4000)  # an EventSource would have reconnected by now
    assert opened == len(streams)
    shot(page, "11-revoked-seat")


def test_the_server_out_of_reach_then_back(browser: Any, tmp_path: Path) -> None:
    """The server stops: Do it says "cannot reach the server" and a banner says the page is
    reconnecting; the server starts again on the same port: the banner goes and the page catches
    up. A seat revoked meanwhile sees, without typing anything, that its link no longer works."""
    port = free_port()
    proc = spawn(f"file:{tmp_path}", port)
    try:
        url = f"http://127.0.0.1:{port}"
        gm = api(url)
        tid = gm.post("/tables", json={"system": "magicpunk"}).json()["table_id"]
        links = [
            gm.post(f"/tables/{tid}/seats", json={"name": n, "role": "gm"}).json()["url"]
            for n in ("g1", "g2")
        ]
        page, other = open_seat(browser, links[0]), open_seat(browser, links[1])
        proc.terminate(), proc.wait(timeout=10)
        page.fill("#command", "note 'in the dark'")
        page.click("#doit")
        page.wait_for_selector("#result.error")
        assert "cannot reach the server" in page.inner_text("#result")
        page.wait_for_selector("#banner.offline")
        assert "reconnecting" in page.inner_text("#banner")
        shot(page, "12-server-out-of-reach")
        proc = spawn(f"file:{tmp_path}", port)
        assert gm.delete(f"/tables/{tid}/seats/g2").status_code == 204
        assert gm.post(f"/tables/{tid}/commands", json={"command": "note back"}).status_code == 201
        page.wait_for_selector("#banner", state="hidden")
        page.wait_for_function("document.querySelector('#log').textContent.includes('back')")
        other.wait_for_selector("#banner.revoked")
        assert other.is_disabled("#command")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_nothing_scrolls_sideways_at_360_px_whatever_the_data(browser: Any, server: str) -> None:
    """A 5,000-character title without spaces, a 64-character name and a note holding a long
    URL: the server page and the table page (its cards, log, audit trail and chart) stay within
    a 360 px viewport."""
    gm = api(server)
    title = "T" * 5000
    tid = gm.post("/tables", json={"system": "magicpunk", "title": title}).json()["table_id"]
    name = "Wanderer" * 8
    url = "https://example.org/" + "a-very-long-path-segment/" * 12
    for line in (ADD.format(name), f"note '{url}'", f"magicpunk damage {name} 2"):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    link = gm.post(
        f"/tables/{tid}/seats", json={"name": "n" * 40, "role": "player", "characters": [name]}
    ).json()["url"]
    page = open_seat(browser, link, width=360)
    page.wait_for_selector("#chart .uplot")
    page.click(f'article[data-name="{name}"] h3 button')
    page.wait_for_selector("#audit li .changes")
    shot(page, "13-phone-long-data")
    assert width(page) <= 360
    index = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
    index.goto(f"{server}/?token={TOKEN}")
    index.wait_for_selector("#create")
    index.select_option("#seat-table", tid)
    index.fill("#seat-name", "m" * 64)
    index.click("#seat button")
    index.wait_for_function("document.querySelector('#out').textContent.includes('link')")
    shot(index, "14-phone-server-page")
    assert width(index) <= 360


def saga_table(server: str, names: list[str]) -> str:
    """A saga table: Hero (HP 300, LP 10) and each of ``names`` (HP 30); returns a GM's link."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga"}).json()["table_id"]
    lines = ["saga unit add Hero --max-hp 300 --lp 10"]
    lines += [f"saga unit add {json.dumps(n)} --max-hp 30" for n in names]
    for line in lines:
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201, line
    return str(gm.post(f"/tables/{tid}/seats", json={"name": "g", "role": "gm"}).json()["url"])


def test_names_that_do_not_fit_in_an_address(browser: Any, server: str) -> None:
    """Characters named "a/b" and "<b>x</b>" (a "/" in both): the chart draws each (the server
    routes any name, encoded whole), each audit trail shows its changes, the page never throws;
    ".." (no address can carry it, RFC 3986 §5.2.4) is refused as a name (CORE-NAME)."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "saga"}).json()["table_id"]
    refused = gm.post(f"/tables/{tid}/commands", json={"command": 'saga unit add ".." --max-hp 3'})
    assert (refused.status_code, refused.json()["error"]["rule"]) == (422, "CORE-NAME")
    page = browser.new_context(viewport={"width": 1100, "height": 1300}).new_page()
    thrown: list[str] = []
    page.on("pageerror", lambda e: thrown.append(str(e)))
    page.goto(saga_table(server, ["a/b", "<b>x</b>"]))
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    page.wait_for_selector("#chart .uplot")
    drawn = page.evaluate(
        "window.tablelog.charts.filter((u) => u.root.parentElement.dataset.figure == 'hp')"
        ".map((u) => u.series.slice(1).map((s) => s.label))"
    )
    assert drawn == [["Hero"], ["a/b", "<b>x</b>"]], drawn  # 300 HP and 30: charts apart
    assert page.locator(".chart-error").all_inner_texts() == []
    for name in ("Hero", "a/b", "<b>x</b>"):
        page.locator("article.entity h3 button", has_text=name).first.click()
        page.wait_for_function(  # the name shows at once, the trail once its answer is in
            f"document.querySelector('#audit-name').textContent == {json.dumps('of ' + name)}"
            " && document.querySelector('#audit .changes li')"
        )
        said = page.inner_text("#audit")
        assert "\nHP – → 30" in said, (name, said)  # 30, or Hero's 300
        assert "Guard rate – → 0" not in said, said  # a default set at the start: not news
    assert thrown == []
    shot(page, "15-names-in-addresses")


def test_the_chart_steps_and_gives_each_figure_its_own_scale(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """Kai's HP holds at 26 from his arrival until the damage to 21 (a step, not a slope through
    23.5 halfway);
    Hero's LP (10) is drawn on a chart of its own, not flat under his HP (300)."""
    page = open_seat(browser, seats["gm2"])
    page.wait_for_function("window.tablelog.charts && window.tablelog.charts.length")
    added, damaged = (
        int(
            page.locator(f'#log > li[data-type="{kind}"]', has_text="Kai").get_attribute("data-seq")
            or 0
        )
        for kind in ("magicpunk.CharacterAdded", "magicpunk.DamageTaken")
    )
    found = page.evaluate(PIXELS, (added + damaged) / 2)
    assert found == {"held": True, "slope": False}, found
    saga = browser.new_context(viewport={"width": 1100, "height": 1300}).new_page()
    saga.goto(saga_table(server, []))
    saga.wait_for_function("window.tablelog && (window.tablelog.charts || []).length == 2")
    scales = saga.evaluate(
        "window.tablelog.charts.map((u) => [u.root.parentElement.dataset.figure, u.scales.y.max])"
    )
    assert [fig for fig, _ in scales] == ["hp", "lp"]
    assert scales[0][1] >= 300 and 10 <= scales[1][1] <= 30, scales
    shot(saga, "16-chart-per-figure")


# Kai is the second series of the HP chart (red, #d1242f): is any of its pixels at HP 26 halfway
# between his arrival and the damage (held), or on the straight line from 26 to 21 there (slope)?
PIXELS = """(mid) => {
  const u = window.tablelog.charts[0];
  const red = (x, y) => {
    const d = u.ctx.getImageData(Math.round(x) - 2, Math.round(y) - 2, 5, 5).data;
    const is = (i) => d[i] > 150 && d[i + 1] < 90 && d[i + 2] < 90;
    return [...Array(d.length / 4).keys()].some((p) => is(4 * p));
  };
  const x = u.valToPos(mid, "x", true);
  return { held: red(x, u.valToPos(26, "y", true)), slope: red(x, u.valToPos(23.5, "y", true)) };
}"""


def test_suggestions_are_the_seats_own_commands_with_the_tables_names(
    browser: Any, server: str
) -> None:
    """A pf2e table: ann (Valeros, who holds longsword-1 and knows the flaming formula) is offered
    her own lines with that item and rune, nothing of Ezren's and no GM line; the GM is offered
    both characters'; an observer is offered nothing and told observers append nothing."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "pf2e"}).json()["table_id"]
    for line in (
        "pf2e character add Valeros --level 8",
        "pf2e character add Ezren --level 5",
        "pf2e item add longsword-1 --base longsword --owner Valeros",
        "pf2e formula add Valeros flaming",
    ):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201

    def offered(name: str, role: str, chars: list[str]) -> tuple[Any, list[str]]:
        body = {"name": name, "role": role, "characters": chars}
        page = open_seat(browser, gm.post(f"/tables/{tid}/seats", json=body).json()["url"])
        return page, page.eval_on_selector_all("#suggestions option", "os => os.map(o => o.value)")

    _, ann = offered("ann", "player", ["Valeros"])
    assert "pf2e etch longsword-1 flaming --by Valeros" in ann
    assert "pf2e invest longsword-1 --by Valeros" in ann
    assert [s for s in ann if "Ezren" in s or "ITEM" in s or s.startswith("pf2e item add")] == []
    _, gm_offered = offered("g", "gm", [])
    assert "pf2e item add ID --base longsword --owner Ezren" in gm_offered
    assert "pf2e formula add Ezren " in gm_offered
    watcher, nothing = offered("w", "observer", [])
    assert nothing == [] and watcher.is_disabled("#command")
    assert watcher.get_attribute("#command", "placeholder") == "Observers append nothing"
    assert "observers append nothing" in watcher.inner_text("#observer")


def test_a_wrong_link_keeps_the_seat_the_browser_had(
    browser: Any, server: str, seats: dict[str, str]
) -> None:
    """ann's browser holds her seat; opening the table with a wrong token answers 401 saying the
    link is not valid, and the bare address still opens ann's seat."""
    page = open_seat(browser, seats["ann"])
    address = f"{server}/t/{seats['id']}"
    answer = page.goto(f"{address}?token=not-a-seat-token")
    assert answer is not None and answer.status == 401
    assert "This link is not valid" in page.inner_text("[role=alert]")
    page.click("[role=alert] a")
    page.wait_for_function("window.tablelog && window.tablelog.ready")
    assert page.inner_text("#me") == "ann (player)"


def gm_page(browser: Any, server: str, system: str, lines: list[str]) -> Any:
    """A GM's page of a new ``system`` table after ``lines``."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": system, "seed": 5}).json()["table_id"]
    for line in lines:
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201, line
    link = gm.post(f"/tables/{tid}/seats", json={"name": "g", "role": "gm"}).json()["url"]
    return open_seat(browser, link)


def card(page: Any, name: str) -> str:
    return str(page.inner_text(f'article[data-name="{name}"]'))


def figure(page: Any, name: str, label: str) -> list[str]:
    """A figure of ``name``'s sheet: its label and its value."""
    found = page.eval_on_selector_all(
        f'article[data-name="{name}"] .figures dt',
        "(ds, label) => ds.filter(d => d.textContent == label)"
        ".map(d => [d.textContent, d.nextElementSibling.textContent])",
        label,
    )
    return list(found[0]) if found else []


def test_cards_show_each_systems_figures(browser: Any, server: str) -> None:
    """A pf2e character shows its level; a magicpunk table its draw pile's count and public
    discard pile; a saga enemy without LP shows the GM no "LP ?"; a fate servant no empty
    tiles bar, and the clock out of battle says "no battle"."""
    pf2e = gm_page(browser, server, "pf2e", ["pf2e character add Valeros --level 8"])
    assert figure(pf2e, "Valeros", "Level") == ["Level", "8"]
    magic = gm_page(browser, server, "magicpunk", [ADD.format("Aria"), "magicpunk draw Aria 3"])
    assert "Draw pile: 51 of 54 cards" in magic.inner_text("#deck")
    assert "Discard pile (0)" in magic.inner_text("#deck")
    saga = gm_page(browser, server, "saga", ["saga unit add Wolf --max-hp 120 --enemy"])
    gauges = saga.locator('article[data-name="Wolf"] .bar-label').all_inner_texts()
    assert gauges == ["HP"] and "120/120" in card(saga, "Wolf")  # no LP ? bar
    fate = gm_page(browser, server, "fate", ["fate servant add Saber --hp 60 --mp 80"])
    gauges = fate.locator('article[data-name="Saber"] .bar-label').all_inner_texts()
    assert gauges == ["HP", "MP"] and "60/60" in card(fate, "Saber")  # no empty tiles bar
    assert fate.inner_text("#table-clock").strip() == "no battle"


def test_the_log_has_one_button_per_action_named_and_the_audit_trail_closes(
    browser: Any, server: str
) -> None:
    """An 8 h rest appends two events (the rest, Aria's cards circulating): one undo button
    for the action, labelled with its seqs; each line shows its number once; the audit trail
    closes; the server page's seat form lists tables by title and system."""
    page = gm_page(
        browser,
        server,
        "magicpunk",
        [ADD.format("Aria"), "magicpunk draw Aria 3", "magicpunk rest 8h"],
    )
    rest = page.locator('#log > li[data-type="magicpunk.RestTaken"]')
    seq = int(rest.get_attribute("data-seq") or 0)
    assert str(seq + 1) == rest.get_attribute("data-last")  # one row, the circulation inside
    inside = rest.locator(f'.hits li[data-seq="{seq + 1}"]')
    assert inside.count() == 1
    assert inside.locator("button").count() == 0
    assert rest.locator("button").count() == 1
    label = rest.locator("button").get_attribute("aria-label") or ""
    assert label.startswith(f"undo #{seq}–#{seq + 1}: 8h rest"), label
    assert page.evaluate("getComputedStyle(document.querySelector('#log')).listStyleType") == "none"
    page.click('article[data-name="Aria"] h3 button')
    page.wait_for_selector("#audit li .changes")
    page.click("#audit-close")
    assert page.locator("#audit li .changes").count() == 0 and page.is_hidden("#audit-close")
    index = browser.new_context().new_page()
    index.goto(f"{server}/?token={TOKEN}")
    index.wait_for_selector("#create")
    labels = index.locator("#seat-table option").all_inner_texts()
    assert any(t.startswith("(untitled) · magicpunk · ") for t in labels), labels
