"""What the page reads beside the contract's routes, against a real `tablelog serve`: every text
in the request's language (``lang``, else ``Accept-Language`` with its q-values), the system's
sheet with its labels, a character's ccfolia clipboard JSON and the room log as the seat may
see them, the report in the reader's time zone, and the page's own words (GET /i18n/LANG)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tablelog.server.speech import accepted, language_of
from tests.support.server import ADD, CLIENTS, api


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("ja", "ja"),
        ("ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7", "ja"),
        ("ko-KR", "ko"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "en"),
        ("en;q=0.5, ja;q=0.9", "ja"),
        ("en, ko;q=1", "en"),  # a tie: the first listed
        ("ja;q=0, ko;q=0.2", "ko"),  # q=0: not acceptable
        ("ja;q=abc, ko;q=0.1", "ko"),
        ("zh-TW, *", "en"),
    ],
)
def test_accept_language_with_q_values(header: str | None, lang: str) -> None:
    assert lang == accepted(header)


def test_a_lang_parameter_wins_over_the_header() -> None:
    assert language_of(b"after=3&lang=ko", "ja") == "ko"
    assert language_of(b"lang=xx", "ja") == "ja"  # not one of ours: the header decides
    assert language_of("", None) == "en"


@pytest.fixture
def table(server: str) -> dict[str, Any]:
    """A magicpunk table: ann plays Aria (who drew 3 cards), bo plays Kai (who drew 2)."""
    gm = api(server)
    tid = gm.post("/tables", json={"system": "magicpunk", "seed": 3}).json()["table_id"]
    for line in (
        ADD.format("Aria"),
        ADD.format("Kai"),
        "magicpunk draw Aria 3",
        "magicpunk draw Kai 2",
        "magicpunk damage Kai 5",
    ):
        assert gm.post(f"/tables/{tid}/commands", json={"command": line}).status_code == 201
    found: dict[str, Any] = {"id": tid}
    for name, chars in (("ann", ["Aria"]), ("bo", ["Kai"])):
        body = {"name": name, "role": "player", "characters": chars}
        found[name] = gm.post(f"/tables/{tid}/seats", json=body).json()["token"]
    return found


def asked(server: str, token: str, lang: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"}
    if lang:
        headers["Accept-Language"] = lang
    client = httpx.Client(base_url=f"{server}/api", headers=headers, timeout=10)
    CLIENTS.append(client)  # closed when the module's tests end
    return client


JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
KOREAN = re.compile(r"[\uac00-\ud7a3]")


def test_a_refusal_and_the_log_in_the_requests_language(server: str, table: dict[str, Any]) -> None:
    """The same refused play in en, ja (Accept-Language) and ko (?lang=): the same rule and
    params, the message in each language; a usage error of click's own words follows the
    language; the log's lines are described in it, their data the same."""
    tid, line = table["id"], {"command": "magicpunk play Aria ZZ"}
    en = asked(server, table["ann"]).post(f"/tables/{tid}/commands", json=line).json()["error"]
    ja = (
        asked(server, table["ann"], "ja-JP,ja;q=0.9")
        .post(f"/tables/{tid}/commands", json=line)
        .json()["error"]
    )
    ko = (
        asked(server, table["ann"], "ja")
        .post(f"/tables/{tid}/commands", params={"lang": "ko"}, json=line)
        .json()["error"]
    )
    assert en["rule"] == ja["rule"] == ko["rule"] and en["params"] == ja["params"]
    assert JAPANESE.search(ja["message"]) and not JAPANESE.search(en["message"]), ja
    assert KOREAN.search(ko["message"]), ko
    usage = {"command": "magicpunk draw Aria --bogus"}
    said = asked(server, table["ann"], "ja").post(f"/tables/{tid}/commands", json=usage)
    assert said.status_code == 400 and "--bogus" in said.json()["error"]["message"]
    english = asked(server, table["ann"]).get(f"/tables/{tid}/log").json()["events"]
    japanese = asked(server, table["ann"], "ja").get(f"/tables/{tid}/log").json()["events"]
    assert [e["data"] for e in english] == [e["data"] for e in japanese]
    damage = [e for e in japanese if e["type"] == "magicpunk.DamageTaken"][0]
    plain = [e for e in english if e["type"] == "magicpunk.DamageTaken"][0]
    assert damage["text"] != plain["text"] and JAPANESE.search(damage["text"]), damage


def test_the_sheet_in_the_readers_words(server: str, table: dict[str, Any]) -> None:
    """GET …/sheet: magicpunk's gauges, figures, card lists and internal fields, each label in
    the request's language; a saga table's techs by weapon type, named in Japanese in Japanese."""
    tid = table["id"]
    en = asked(server, table["ann"]).get(f"/tables/{tid}/sheet").json()
    assert [(g["value"], g["maximum"], g["label"]) for g in en["characters"]["gauges"]] == [
        ("hp", "hp_max", "HP")
    ]
    assert {"field": "spell_money", "label": "Spell money"} in en["characters"]["figures"]
    assert "money_at_creation" in en["characters"]["internal"]
    assert [c["field"] for c in en["characters"]["cards"]] == ["hand"]
    assert en["labels"]["body"] == "Body"
    ja = asked(server, table["ann"], "ja").get(f"/tables/{tid}/sheet").json()
    assert JAPANESE.search(ja["labels"]["body"]), ja["labels"]["body"]
    gm = api(server)
    saga = gm.post("/tables", json={"system": "saga"}).json()["table_id"]
    saga_sheet = gm.get(f"/tables/{saga}/sheet", headers={"Accept-Language": "ja"}).json()
    techs = saga_sheet["techs"]
    assert {"id": "tenrai", "label": "天雷"} in techs["spell"]
    assert {"id": "kiri-harai", "label": "斬り払い"} in techs["1h-sword"]
    # the clock's five levels in the seed's own words (the page's "木 5 · 火 0 …")
    assert {k: saga_sheet["levels"][k] for k in ("wood", "fire", "earth", "metal", "water")} == {
        "wood": "木",
        "fire": "火",
        "earth": "土",
        "metal": "金",
        "water": "水",
    }
    assert en["levels"] == {}


def test_ccfolia_clipboard_and_room_log_as_the_seat_sees_them(
    server: str, table: dict[str, Any]
) -> None:
    """ann's clipboard JSON of Aria names her cards; of Kai, his hand's size only; the room log
    holds Aria's draw for ann and not Kai's cards; an unknown name is 404 UNKNOWN-NAME."""
    tid = table["id"]
    ann = asked(server, table["ann"])
    state = api(server).get(f"/tables/{tid}/state").json()["characters"]
    aria = ann.get(f"/tables/{tid}/ccfolia/Aria").json()
    assert aria["kind"] == "character" and aria["data"]["name"] == "Aria"
    assert all(card in aria["data"]["memo"] for card in state["Aria"]["hand"])
    kai = ann.get(f"/tables/{tid}/ccfolia/Kai").json()
    assert not any(card in kai["data"]["memo"] for card in state["Kai"]["hand"]), kai
    assert [(bar["value"], bar["max"]) for bar in kai["data"]["status"]] == [(21, 26)]
    missing = ann.get(f"/tables/{tid}/ccfolia/Nobody")
    assert (missing.status_code, missing.json()["error"]["rule"]) == (404, "UNKNOWN-NAME")
    room = ann.get(f"/tables/{tid}/ccfolia-log")
    assert room.status_code == 200 and room.headers["content-type"].startswith("text/html")
    assert "<title>ccfolia - logs</title>" in room.text
    assert all(card in room.text for card in state["Aria"]["hand"])
    assert not any(f" {card}" in room.text for card in state["Kai"]["hand"]), room.text
    japanese = asked(server, table["ann"], "ja").get(f"/tables/{tid}/ccfolia-log")
    assert '<html lang="ja">' in japanese.text


def test_the_report_in_the_readers_zone(server: str, table: dict[str, Any]) -> None:
    """?tz=Asia/Tokyo: the report's times at +09:00; a zone that is no IANA name (a path) is a
    400 usage error naming it, nothing read."""
    tid = table["id"]
    ann = asked(server, table["ann"])
    tokyo = ann.get(f"/tables/{tid}/report", params={"format": "md", "tz": "Asia/Tokyo"})
    assert tokyo.status_code == 200 and "+09:00" in tokyo.text, tokyo.text[:400]
    for bad in ("/etc/passwd", "../../etc/passwd", "Nowhere/Atlantis"):
        refused = ann.get(f"/tables/{tid}/report", params={"format": "md", "tz": bad})
        assert refused.status_code == 400 and "tz=" in refused.json()["error"]["message"], bad


def test_the_pages_own_words(server: str) -> None:
    """GET /i18n/ja: the catalogue's web.* entries, keyed by context and English text; no other
    context; English and an unknown language are the templates' own (empty)."""
    ja = httpx.get(f"{server}/i18n/ja", timeout=10).json()
    assert ja["lang"] == "ja" and ja["messages"]
    assert all(key.startswith("web.") and "\u0004" in key for key in ja["messages"])
    assert httpx.get(f"{server}/i18n/en", timeout=10).json() == {"lang": "en", "messages": {}}
    assert httpx.get(f"{server}/i18n/xx", timeout=10).json() == {"lang": "en", "messages": {}}
    page = httpx.get(f"{server}/t/nothing", headers={"Accept-Language": "ko"}, timeout=10)
    assert '<html lang="ko">' in page.text
