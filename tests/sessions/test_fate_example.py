"""The real session examples/fate-fourth-war.txt, run through the CLI, ends in its stated state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import ok

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fate-fourth-war.txt"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The log and JSON state after `tablelog run examples/fate-fourth-war.txt` on a new log."""
    log = tmp_path_factory.mktemp("fate") / "war.tlog"
    ok(log, "run", str(EXAMPLE))
    return log, json.loads(ok(log, "state", "--json"))


def values(final: dict, name: str, *fields: str) -> tuple:
    return tuple(final["characters"][name][f] for f in fields)


def np_numbers(final: dict, name: str, np_id: str) -> tuple:
    np = final["characters"][name]["phantasms"][np_id]
    return tuple(np[f] for f in ("mp_cost", "hp_per_tile", "mp_per_tile", "targets"))


@pytest.mark.rule("FATE-CAST-5")
@pytest.mark.rule("FATE-CC-9")
def test_kiritsugu(run):
    """Kiritsugu: hp 20 (40 - 22 + 2), mp 26, tiles 4, no active defense effects."""
    _, final = run
    assert values(final, "Kiritsugu", "hp", "mp", "tiles") == (20, 26, 4)
    assert [e for e in final["characters"]["Kiritsugu"]["effects"] if e["kind"] == "defense"] == []


@pytest.mark.rule("FATE-CHANT-1")
def test_tokiomi(run):
    """Tokiomi: hp 40, mp 36 (4 MP for 2 pool tiles chanted to 4), tiles 6, chants 0."""
    _, final = run
    assert values(final, "Tokiomi", "hp", "mp", "tiles", "chants") == (40, 36, 6, 0)


@pytest.mark.rule("FATE-NP-13")
def test_saber(run):
    """Saber: mp 30; excalibur {50, 10, 11, 3}, invisible-air {15, 4, 0, 1}."""
    _, final = run
    assert values(final, "Saber", "mp") == (30,)
    assert np_numbers(final, "Saber", "excalibur") == (50, 10, 11, 3)
    assert np_numbers(final, "Saber", "invisible-air") == (15, 4, 0, 1)


@pytest.mark.rule("FATE-NP-7")
def test_rider(run):
    """Rider: hp 20, mp 35; gordius-wheel {35, 10, 3, 2}."""
    _, final = run
    assert values(final, "Rider", "hp", "mp") == (20, 35)
    assert np_numbers(final, "Rider", "gordius-wheel") == (35, 10, 3, 2)


@pytest.mark.rule("FATE-NP-6")
def test_lancer(run):
    """Lancer: hp 10, mp 5 (5 tiles of 10 HP and 11 MP from Excalibur)."""
    _, final = run
    assert values(final, "Lancer", "hp", "mp") == (10, 5)


def test_clock_after_battle_end(run):
    """After `fate battle end` the clock shows no battle."""
    _, final = run
    assert final["clock"] == {"battle": False, "round": 0, "turn": 0}


@pytest.mark.rule("FATE-CAST-4")
def test_history_shows_per_tile_arithmetic(run):
    """`history Kiritsugu` names the cast and each tile: 3 HP twice through defense, 8 twice."""
    log, _ = run
    out = ok(log, "history", "Kiritsugu")
    assert "Kiritsugu takes 22 HP, 0 MP (Tokiomi attack)" in out
    assert "tile 1 = 8 HP 0 MP - defense #1 grade 5 (5 HP 10 MP) = 3 HP 0 MP" in out
    assert "tile 4 = 8 HP 0 MP" in out
    assert "total = 22 HP, 0 MP" in out
    damage = out.split("fate.DamageTaken Kiritsugu takes 22 HP", 1)[1].split("\n#", 1)[0]
    assert "· rule FATE-CAST-4, FATE-CAST-5\n" in damage


# --- the longer campaign (tests/data/campaigns/fate.txt): every fate event type -------------

CAMPAIGN = Path(__file__).resolve().parents[1] / "data" / "campaigns" / "fate.txt"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """The log of the campaign script run on a new log, and its records (``log --all --json``)."""
    log = tmp_path_factory.mktemp("fate-campaign") / "campaign.tlog"
    ok(log, "run", str(CAMPAIGN))
    return log, [json.loads(line) for line in ok(log, "log", "--all", "--json").splitlines()]


def test_the_campaign_has_every_fate_event_type_and_undo_redo(campaign):
    """Each of the registered fate.* event types appears at least once, and so do core.Undone
    and core.Redone."""
    from tablelog import systems
    from tablelog.events.core import registered_types

    systems.get("fate")
    _, records = campaign
    fate_types = {tag for tag in registered_types() if tag.startswith("fate.")}
    seen = {record["type"] for record in records}
    assert set() == fate_types - seen
    assert {"core.Undone", "core.Redone"} <= seen
    assert len(fate_types) >= 24


@pytest.mark.rule("FATE-NP-11")
@pytest.mark.rule("FATE-NP-10")
@pytest.mark.rule("FATE-NP-12")
@pytest.mark.rule("FATE-NP-13")
def test_the_campaign_ends_as_played(campaign):
    """After the night: no battle; Archer paid 25 x 2 for UBW over Bloodfort and 5 for a shot
    (90 -> 35); Rider 25 + 35 + 5 upkeep + 20 for the charge (120 -> 35); Lancer took Avalon's
    75 counter, 8 drain and a 30 HP charge (150 -> 37); Gilles keeps Buidhe's wound; Shirou's
    injury cured; the masters' pools full."""
    log, _ = campaign
    final = json.loads(ok(log, "state", "--json"))
    assert final["clock"] == {"battle": False, "round": 0, "turn": 0}
    assert values(final, "Archer", "mp") == (35,)
    assert values(final, "Rider", "mp") == (35,)
    assert values(final, "Lancer", "hp") == (37,)
    assert values(final, "Gilles", "injury") == (1,)
    assert values(final, "Shirou", "injury", "tiles", "tiles_max") == (0, 6, 6)
    assert values(final, "Rin", "tiles") + values(final, "Kirei", "tiles") == (10, 8)
