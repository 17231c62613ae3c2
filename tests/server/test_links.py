"""Cookies and links (issue 32, item 5) against a real `tablelog serve` process over HTTP: a
write made with the page's cookie is JSON from the server's own Origin; a seat's link is used
once, for a browser session; a link of another seat never silently replaces the seat a browser
has; the GM rotates a seat's link."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.server import ADD, TOKEN, api

NAVIGATE = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}


@pytest.fixture
def table(server: str) -> dict[str, Any]:
    """A magicpunk table with Aria and Kai; ann plays Aria, bo Kai: their tokens and links."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "seed": 3}).json()["table_id"]
    for line in (ADD.format("Aria"), ADD.format("Kai")):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    made: dict[str, Any] = {"id": tid}
    for name, chars in (("ann", ["Aria"]), ("bo", ["Kai"])):
        body = {"name": name, "role": "player", "characters": chars}
        made[name] = gm.post(f"/tables/{tid}/seats", json=body).json()
    return made


def opened(url: str, cookies: dict[str, str] | None = None) -> httpx.Response:
    """A person's browser opening ``url`` (a navigation), redirects not followed."""
    return httpx.get(url, headers=NAVIGATE, cookies=cookies, follow_redirects=False, timeout=10)


def session_of(server: str, table: dict[str, Any], seat: str) -> dict[str, str]:
    """The cookies a browser holds once it opened ``seat``'s link."""
    answer = opened(table[seat]["url"])
    assert answer.is_redirect, answer.text
    return dict(answer.cookies)


def log_length(server: str, table: dict[str, Any]) -> int:
    return len(api(server).get(f"/tables/{table['id']}/log?all=true").json()["events"])


def test_a_cookie_write_is_json_from_the_servers_own_origin(
    server: str, table: dict[str, Any]
) -> None:
    """With ann's page cookie, a command sent as text/plain, form-encoded or with no content
    type (what any page may send without asking), or as JSON from another origin (another port
    of the host, a sibling subdomain) or none, is refused and appends nothing; the page's own
    JSON from its own Origin is appended."""
    cookies = session_of(server, table, "ann")
    url = f"{server}/api/tables/{table['id']}/commands"
    body = '{"command": "note hello"}'
    before = log_length(server, table)
    foreign = [
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({}, 415),
        ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"}, 403),
        ({"Content-Type": "application/json", "Origin": "http://evil.127.0.0.1.nip.io"}, 403),
        ({"Content-Type": "application/json"}, 403),
    ]
    for headers, status in foreign:
        answer = httpx.post(url, content=body, headers=headers, cookies=cookies, timeout=10)
        assert status == answer.status_code, (headers, answer.text)
    assert before == log_length(server, table)
    own = {"Content-Type": "application/json; charset=utf-8", "Origin": server}
    answer = httpx.post(url, content=body, headers=own, cookies=cookies, timeout=10)
    assert answer.status_code == 201, answer.text
    assert answer.json()["events"][0]["actor"] == "ann"


def test_the_server_pages_cookie_is_a_session_and_writes_only_from_its_own_page(
    server: str,
) -> None:
    """/?token=SERVER sets a session cookie that is not the server token; with it, creating a
    table from another origin or as text/plain is refused and creates nothing; from the page
    itself it creates one."""
    answer = opened(f"{server}/?token={TOKEN}")
    assert answer.is_redirect
    cookies = dict(answer.cookies)
    assert TOKEN not in cookies.values()
    url = f"{server}/api/tables"
    count = len(api(server).get("/tables").json()["tables"])
    for headers in (
        {"Content-Type": "text/plain", "Origin": server},
        {"Content-Type": "application/json", "Origin": "http://localhost:9"},
    ):
        refused = httpx.post(
            url, content='{"system": "fate"}', headers=headers, cookies=cookies, timeout=10
        )
        assert refused.status_code in (403, 415), refused.text
    assert count == len(api(server).get("/tables").json()["tables"])
    made = httpx.post(
        url,
        content='{"system": "fate"}',
        headers={"Content-Type": "application/json", "Origin": server},
        cookies=cookies,
        timeout=10,
    )
    assert made.status_code == 201, made.text


def test_a_seats_link_opens_the_table_once_for_a_session(
    server: str, table: dict[str, Any]
) -> None:
    """ann's link is not her token; opening it sets an HttpOnly, SameSite=Strict cookie holding
    a session secret (neither the link nor the token) and sends the browser to the bare
    address; the link then opens nothing (401), nor does it work as a token; a link preview
    (a fetch that is no navigation) gets a page with a button and leaves the link unused."""
    ann = table["ann"]
    link = ann["url"].partition("?token=")[2]
    assert link and link != ann["token"]
    preview = httpx.get(ann["url"], follow_redirects=False, timeout=10)
    assert preview.status_code == 200 and "Open as ann" in preview.text
    assert not preview.cookies
    answer = opened(ann["url"])
    assert answer.status_code == 303
    assert answer.headers["location"].endswith(f"/t/{table['id']}")
    set_cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in set_cookie and "samesite=strict" in set_cookie
    secret = answer.cookies[f"tl_{table['id']}"]
    assert secret not in (link, ann["token"])
    me = httpx.get(f"{server}/api/tables/{table['id']}", cookies=dict(answer.cookies))
    assert me.json()["me"]["name"] == "ann"
    assert opened(ann["url"]).status_code == 401  # used up
    assert api(server, link).get(f"/tables/{table['id']}").status_code == 401


def test_a_link_of_another_seat_never_silently_replaces_the_browsers_seat(
    server: str, table: dict[str, Any]
) -> None:
    """ann's browser opens bo's link: a page says which seat it is and which the link is, sets
    no cookie and leaves the link unused; ann stays ann. A click on "Open as bo" (a form post
    from the page) makes it bo; the same post from another origin is refused."""
    cookies = session_of(server, table, "ann")
    asked = opened(table["bo"]["url"], cookies)
    assert asked.status_code == 200
    assert "This browser is" in asked.text and ">ann<" in asked.text and ">bo<" in asked.text
    assert not asked.cookies
    me = httpx.get(f"{server}/api/tables/{table['id']}", cookies=cookies).json()["me"]
    assert me["name"] == "ann"
    link = table["bo"]["url"].partition("?token=")[2]
    post = f"{server}/t/{table['id']}/link"
    forged = httpx.post(
        post, data={"token": link}, headers={"Origin": "http://127.0.0.1:1"}, cookies=cookies
    )
    assert forged.status_code == 403
    switched = httpx.post(post, data={"token": link}, headers={"Origin": server}, cookies=cookies)
    assert switched.status_code == 303, switched.text
    now = httpx.get(f"{server}/api/tables/{table['id']}", cookies=dict(switched.cookies))
    assert now.json()["me"]["name"] == "bo"


def test_the_gm_rotates_a_seats_link(server: str, table: dict[str, Any]) -> None:
    """The GM rotates ann's link: a new token and link; her old token, her old browser
    session and her old unused link stop working at once, the new ones work, and her earlier
    actions stay hers (she undoes her note with the new token). A player may not rotate (403);
    an unknown seat is 404."""
    tid = table["id"]
    cookies = session_of(server, table, "ann")
    old_url = api(server, table["ann"]["token"]).get(f"/tables/{tid}")
    assert old_url.status_code == 200
    noted = api(server, table["ann"]["token"]).post(
        f"/tables/{tid}/commands", json={"command": "note mine"}
    )
    assert noted.status_code == 201
    refused = api(server, table["bo"]["token"]).post(f"/tables/{tid}/seats/ann")
    assert refused.status_code == 403
    assert api(server).post(f"/tables/{tid}/seats/nobody").status_code == 404
    unused = api(server).post(f"/tables/{tid}/seats", json={"name": "cy", "role": "observer"})
    rotated = api(server).post(f"/tables/{tid}/seats/ann")
    assert rotated.status_code == 201, rotated.text
    new = rotated.json()
    assert (new["name"], new["role"], new["characters"]) == ("ann", "player", ["Aria"])
    assert new["token"] != table["ann"]["token"] and new["url"] != table["ann"]["url"]
    assert api(server, table["ann"]["token"]).get(f"/tables/{tid}").status_code == 401
    assert httpx.get(f"{server}/api/tables/{tid}", cookies=cookies).status_code == 401
    cy = api(server).post(f"/tables/{tid}/seats/cy")
    assert opened(unused.json()["url"]).status_code == 401  # cy's first link: replaced
    assert opened(cy.json()["url"]).status_code == 303
    undone = api(server, new["token"]).post(f"/tables/{tid}/commands", json={"command": "undo"})
    assert undone.status_code == 201, undone.text
    assert noted.json()["seqs"][0] == undone.json()["events"][0]["data"]["target"]
