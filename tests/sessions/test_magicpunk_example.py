"""The real session examples/magicpunk-rest-stop.txt ends in the state its comments list."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tablelog.rules.magicpunk.cards import STANDARD_DECK
from tests.support.cli import invoke, ok

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "magicpunk-rest-stop.txt"


@pytest.fixture(scope="module")
def final(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Run the example on a fresh log through `tablelog run`; return `state --json`."""
    log = tmp_path_factory.mktemp("rest") / "rest.tlog"
    result = invoke(log, "run", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    return json.loads(ok(log, "state", "--json"))


def test_comments_list_the_checked_values():
    """The script's closing comments are the expectations this module checks."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for line in (
        "clock: day 2, 06:10 (minutes 370)",
        "Aria: hp 26; hand 4 cards",
        "Bram: hp 12; hand 2 cards",
        "discard pile: 7 cards = KD 7H JK1 3C 10S 2H AS",
        "draw pile: 41 cards",
    ):
        assert line in text


@pytest.mark.rule("MP-REST-1")
def test_clock(final: dict):
    """MP-REST-1: 22:00 + 10 minutes + 8 hours is day 2, 06:10 (370 minutes)."""
    assert final["clock"] == {"day": 2, "minutes": 370}


@pytest.mark.rule("MP-CIRC-1")
@pytest.mark.rule("MP-CIRC-2")
def test_aria_slept_and_circulated(final: dict):
    """MP-CIRC-1/2: Aria holds 3 new cards from her sleep and the A-battery's new card from
    dawn, none of 7H JK1 3C AS; HP 26."""
    aria = final["characters"]["Aria"]
    assert aria["hp"] == 26
    assert len(aria["hand"]) == 4
    assert not {"7H", "JK1", "3C", "AS"} & set(aria["hand"])


@pytest.mark.rule("MP-CIRC-1")
@pytest.mark.rule("MP-PULL-1")
@pytest.mark.rule("MP-REBUILD-1")
@pytest.mark.rule("MP-REBUILD-7")
def test_bram_after_rest_and_rebuild(final: dict):
    """MP-PULL-1/CIRC-1/REBUILD: Bram has 12 HP, 2 new cards, the rebuilt abilities and skills."""
    bram = final["characters"]["Bram"]
    assert bram["hp"] == 12
    assert len(bram["hand"]) == 2
    assert not {"10S", "2H"} & set(bram["hand"])
    assert (bram["body"], bram["sense"], bram["intellect"], bram["magic"]) == (12, 12, 10, 6)
    assert bram["skills"] == {"swordplay": "novice", "first-aid": "novice", "stealth": "novice"}


@pytest.mark.rule("MP-CIRC-2")
def test_battery_circulated_at_dawn(final: dict):
    """MP-CIRC-2: the A-battery ends empty: its AS was discarded, the new card is Aria's."""
    assert final["items"]["a-battery"]["cards"] == []


def test_discard_and_draw_piles(final: dict):
    """The discard pile is KD 7H JK1 3C 10S 2H AS in order; 41 cards remain to draw."""
    assert final["deck"]["discard"] == ["KD", "7H", "JK1", "3C", "10S", "2H", "AS"]
    assert final["deck"]["draw_count"] == 41


def test_every_card_in_exactly_one_place(final: dict):
    """The 54 cards: 41 in the draw pile, the rest seen once each in hands, items, discard."""
    seen = Counter(final["deck"]["discard"])
    for ch in final["characters"].values():
        seen += Counter(ch["hand"])
    for item in final["items"].values():
        seen += Counter(item["cards"])
    assert all(n == 1 for n in seen.values())
    assert set(seen) <= set(STANDARD_DECK)
    assert len(STANDARD_DECK) == final["deck"]["draw_count"] + sum(seen.values())
