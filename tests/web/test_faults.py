"""The page's answers to what goes wrong (issue 18): a double click, a revoked seat, a server out
of reach, a phone with long unbroken text, names that do not fit in an address, and the chart's
figures. Each test failed before its fix, in headless Chromium against a real `tablelog serve`."""

from __future__ import annotations

import json
from typing import Any

from tests.support.browser import open_seat
from tests.support.server import api

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
    assert 1 == len(sent) and 1 == notes(server, seats["id"], "twice?")

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
    assert 2 == len(tried) and tried[0] == tried[1] and tried[0].startswith("web-")
    assert 1 == notes(server, seats["id"], "retried")
