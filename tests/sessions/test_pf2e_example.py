"""The real session examples/pf2e-downtime.txt, run through the CLI, ends in its stated state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import ok

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pf2e-downtime.txt"


@pytest.fixture(scope="module")
def final(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The JSON state after `tablelog run examples/pf2e-downtime.txt` on a new log."""
    log = tmp_path_factory.mktemp("pf2e") / "smithy.tlog"
    ok(log, "run", str(EXAMPLE))
    return json.loads(ok(log, "state", "--json"))


def item(final: dict, name: str, *fields: str) -> tuple:
    return tuple(final["items"][name][f] for f in fields)


@pytest.mark.rule("PF2E-RUNE-5")
@pytest.mark.rule("PF2E-XFER-7")
def test_mace(final):
    """mace-1: Kyra's "+2 striking vitalizing mace", level 10, 1150 gp (disrupting = vitalizing)."""
    assert item(
        final, "mace-1", "owner", "name", "potency", "striking", "property", "level", "price_gp"
    ) == ("Kyra", "+2 striking vitalizing mace", 2, 1, ["vitalizing"], 10, 1150)


@pytest.mark.rule("PF2E-XFER-5")
def test_longsword_keeps_frost_dormant(final):
    """longsword-1: "+1 striking flaming longsword", frost dormant but counted: level 8, 1100 gp."""
    assert item(
        final,
        "longsword-1",
        "owner",
        "name",
        "potency",
        "striking",
        "property",
        "dormant",
        "level",
        "price_gp",
    ) == (
        "Valeros",
        "+1 striking flaming longsword",
        1,
        1,
        ["flaming"],
        ["frost"],
        8,
        1100,
    )


@pytest.mark.rule("PF2E-RUNE-3")
@pytest.mark.rule("PF2E-INVEST-1")
def test_chain_mail(final):
    """chain-1: the seed's naming example, level 14, 4920 gp, invested trait but not invested."""
    assert item(
        final,
        "chain-1",
        "name",
        "potency",
        "resilient",
        "property",
        "level",
        "price_gp",
        "invested_trait",
        "invested",
        "etching",
    ) == (
        "+2 greater resilient fire-resistant chain mail",
        2,
        2,
        ["fire-resistant"],
        14,
        4920,
        True,
        False,
        None,
    )


@pytest.mark.rule("PF2E-RUNE-1")
def test_shield(final):
    """shield-1: "minor reinforcing steel shield", level 4, 77 gp, hardness 8, HP 64, BT 32."""
    assert item(
        final, "shield-1", "name", "reinforcing", "level", "price_gp", "hardness", "hp_max", "bt"
    ) == ("minor reinforcing steel shield", 1, 4, 77, 8, 64, 32)


@pytest.mark.rule("PF2E-RUNE-6")
@pytest.mark.rule("PF2E-INVEST-1")
def test_clothes_invested(final):
    """clothes-1: Kyra's "+1 explorer's clothing", level 5, 160 gp, invested."""
    assert item(
        final,
        "clothes-1",
        "owner",
        "name",
        "potency",
        "level",
        "price_gp",
        "invested_trait",
        "invested",
    ) == ("Kyra", "+1 explorer's clothing", 1, 5, 160, True, True)


@pytest.mark.rule("PF2E-STONE-1")
def test_runestone_is_gone(final):
    """stone-1 cracked when its rune was transferred off: no such item remains."""
    assert "stone-1" not in final["items"]


@pytest.mark.rule("PF2E-PRICE-1")
@pytest.mark.rule("PF2E-XFER-6")
def test_valeros_spent(final):
    """Valeros spent 7498.5 gp (7498 gp 5 sp): etches, upgrades by difference, the 93.5 gp swap."""
    assert (
        final["characters"]["Valeros"]["spent_gp"],
        final["characters"]["Kyra"]["spent_gp"],
    ) == (7498.5, 0)


# --- the longer campaign (tests/data/campaigns/pf2e.txt) ----------------------------------------

CAMPAIGN = Path(__file__).resolve().parents[1] / "data" / "campaigns" / "pf2e.txt"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], dict]:
    """The records (`log --all --json`) and JSON state after running the campaign script."""
    log = tmp_path_factory.mktemp("pf2e-campaign") / "otari.tlog"
    ok(log, "run", str(CAMPAIGN))
    records = [json.loads(line) for line in ok(log, "log", "--all", "--json").splitlines()]
    return records, json.loads(ok(log, "state", "--json"))


def test_campaign_uses_every_pf2e_event_type(campaign):
    """Every registered pf2e event type, and a note, an undo and a redo, appear in the campaign."""
    from tablelog.events.core import registered_types

    wanted = {t for t in registered_types() if t.startswith("pf2e.")}
    wanted |= {"core.Noted", "core.Undone", "core.Redone"}
    assert set() == wanted - {r["type"] for r in campaign[0]}


@pytest.mark.rule("PF2E-XFER-5")
@pytest.mark.rule("PF2E-XFER-7")
def test_campaign_final_items(campaign):
    """The bow ends +2 flaming; the longsword drops to +1, its later shock rune dormant."""
    state = campaign[1]
    assert (
        item(state, "bow-1", "name", "level", "price_gp"),
        item(state, "longsword-1", "name", "property", "dormant", "price_gp"),
    ) == (
        ("+2 flaming longbow", 10, 1435),
        ("+1 striking frost longsword", ["frost"], ["shock"], 1100),
    )
