"""The long campaign tests/data/campaigns/magicpunk.txt: every magicpunk event type, undo and redo.

The lead freezes logs written from this script (tests/data/frozen/); this module checks that the
script still runs on a fresh log, covers every event type the system registers, and folds to the
same state with or without a snapshot.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import tablelog.events.magicpunk  # noqa: F401 - registers the magicpunk event types
from tablelog.events.core import registered_types
from tablelog.rules.magicpunk.cards import STANDARD_DECK
from tests.support.cli import invoke, ok

CAMPAIGN = Path(__file__).resolve().parents[1] / "data" / "campaigns" / "magicpunk.txt"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run the campaign on a fresh log through `tablelog run`; return the log's path."""
    log = tmp_path_factory.mktemp("campaign") / "campaign.tlog"
    result = invoke(log, "run", str(CAMPAIGN))
    assert result.exit_code == 0, result.output
    return log


def _records(log: Path) -> list[dict]:
    return [json.loads(line) for line in ok(log, "log", "--all", "--json").splitlines()]


def test_every_magicpunk_event_type_appears(played: Path):
    """Each of the 25 magicpunk event types is in the log at least once, active."""
    active = Counter(r["type"] for r in _records(played) if not r["undone"])
    expected = {tag for tag in registered_types() if tag.startswith("magicpunk.")}
    assert len(expected) == 25
    assert set() == expected - set(active)


def test_undo_and_redo_lines_are_in_the_log(played: Path):
    """The campaign undoes a draw and redoes it, and undoes a leisure roll for good."""
    records = _records(played)
    kinds = Counter(r["type"] for r in records)
    assert (kinds["core.Undone"], kinds["core.Redone"]) == (2, 1)
    assert [r["seq"] for r in records if r["undone"]] == [82]


def test_it_verifies_and_folds_without_a_snapshot(played: Path):
    """verify passes; `state --json` is the same from a snapshot and from the whole log."""
    assert ok(played, "verify").startswith(f"ok: {played}: 86 records")
    with_snapshot = json.loads(ok(played, "state", "--json"))
    Path(str(played) + ".snap").unlink(missing_ok=True)
    assert with_snapshot == json.loads(ok(played, "state", "--json"))


def test_final_state(played: Path):
    """Day 3 06:00; Bram rebuilt and sharing Aria's apartment; every card in exactly one place."""
    data = json.loads(ok(played, "state", "--json"))
    assert data["clock"] == {"day": 3, "minutes": 360}
    bram, cole = data["characters"]["Bram"], data["characters"]["Cole"]
    assert (bram["body"], bram["sense"], bram["intellect"], bram["magic"]) == (12, 12, 10, 6)
    assert bram["lifestyle"]["cohabitants"] == ["Aria"]
    assert (bram["hp"], cole["hp"]) == (12, 28)
    assert cole["items"] == ["arc-rifle"]
    seen = Counter(data["deck"]["discard"])
    for holder in (*data["characters"].values(), *data["items"].values()):
        seen += Counter(holder.get("hand", holder.get("cards", [])))
    assert all(n == 1 for n in seen.values())
    assert len(STANDARD_DECK) == data["deck"]["draw_count"] + sum(seen.values())
