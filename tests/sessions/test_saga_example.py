"""The real session examples/saga-wolf-road.txt, run through the CLI, ends in its stated state.

Two allies (Gustave, Amy) and an enemy (Wolf, battle rank 20) over three turns on a wood-element
road. Every factor below is worked by hand from the seed's formulas.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import ok

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "saga-wolf-road.txt"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The log and the JSON state after `tablelog run examples/saga-wolf-road.txt`."""
    log = tmp_path_factory.mktemp("saga") / "wolf.tlog"
    ok(log, "run", str(EXAMPLE))
    return log, json.loads(ok(log, "state", "--json"))


def unit(final: dict, name: str, *fields: str) -> tuple:
    return tuple(final["characters"][name][f] for f in fields)


def damages(log: Path, name: str) -> list[tuple[str, int]]:
    """Return (tech, damage) of every hit on ``name``, from `log --json`."""
    lines = ok(log, "log", "--entity", name, "--json").splitlines()
    records = [json.loads(line) for line in lines]
    return [
        (r["data"]["tech"], r["data"]["damage"])
        for r in records
        if r["type"] == "saga.AttackDamageDealt" and r["data"]["target"] == name
    ]


@pytest.mark.rule("SAGA-ATK-2")
@pytest.mark.rule("SAGA-ATK-9")
@pytest.mark.rule("SAGA-ATK-12")
@pytest.mark.rule("SAGA-ATK-15")
def test_hits_on_the_wolf(run):
    """Every hit on the wolf matches the hand-worked damage."""
    log, _ = run
    # kiri-harai: base 20 × (1 + 0.9 + 0.2 + 0.4) = 50; compound 50 × 1.15 × 4/3 = 230/3;
    #   correction 1 − (23 × 0.005 + 15 × 0.0025) = 0.8475 → 64.975 − √69 (8.307) = 56.67 → 56.
    # tenrai: base 20 × (1 + 1.25 + 0.4) = 53; compound 53 × 3.9 × 5/3 = 344.5; five
    #   (10 + 5) × 0.01 − 0 = 0.15 → correction 0.9975 → 343.64 − 8.31 = 335.33 → 335;
    #   ⌊335 / 5⌋ = 67.
    # kiri-harai turn 2: 56 × buff 1.1 × roll 1.05 = 64.68 → 64.
    # Blood tech buraddo-suparutan-1: compound 50 × 2.25 × 4/3 = 150; 150 × 0.8475 = 127.125
    #   − 8.31 = 118.8 → 118; × buff 1.1 × combo 1.5 = 194.7 → 194.
    expected = (
        [("kiri-harai", 56)]
        + [("tenrai", 67)] * 5
        + [("kiri-harai", 64), ("buraddo-suparutan-1", 194)]
        + [("tenrai", 67)] * 5
    )
    assert expected == damages(log, "Wolf")


@pytest.mark.rule("SAGA-ATK-13")
def test_hits_on_the_allies(run):
    """The wolf's fang: 44 on a defending Gustave, 64 on Amy at roll 0.95."""
    log, _ = run
    # fang (enemy, rank 20: weapon power 22, SLv 12, str 15): base 20 × (1 + 0.66 + 0.24 + 0.15)
    #   = 41; compound 41 × 1.5 × 1.4 = 86.1.
    # Gustave (pierce 20, vit 30): 86.1 × 0.825 = 71.03 − √60 (7.746) = 63.29 → 63; × 0.7 → 44.
    # Amy (pierce 15, vit 20): 86.1 × 0.875 = 75.34 − √45 (6.708) = 68.63 → 68; × 0.95 → 64.
    assert damages(log, "Gustave") == [("fang", 44)]
    assert damages(log, "Amy") == [("fang", 64)]


@pytest.mark.rule("SAGA-LP-2")
@pytest.mark.rule("SAGA-LP-4")
@pytest.mark.rule("SAGA-EFF-2")
def test_gustave_final(run):
    """Gustave: 320 − 44 = 276 HP; LP 12 − 2 (Blood) = 10; LP-damage effect 2; attack +10."""
    _, final = run
    assert unit(
        final, "Gustave", "hp", "hp_max", "lp", "lp_max", "lp_damage_effect", "incapacitated"
    ) == (276, 320, 10, 12, 2, False)
    assert final["characters"]["Gustave"]["effects"] == {
        "tech_power": 0,
        "attack": 10,
        "defense": 0,
        "spell": 0,
    }


@pytest.mark.rule("SAGA-REL-1")
@pytest.mark.rule("SAGA-HP-3")
def test_amy_final(run):
    """Amy: 210 − 64 = 146, then release min(⌊210 × 0.2⌋, 145) = 42 → 104 HP; LP 9."""
    _, final = run
    assert unit(final, "Amy", "hp", "hp_max", "lp", "lp_max", "incapacitated") == (
        104,
        210,
        9,
        9,
        False,
    )


@pytest.mark.rule("SAGA-POISON-2")
@pytest.mark.rule("SAGA-HP-1")
@pytest.mark.rule("SAGA-LP-1")
def test_wolf_final(run):
    """Wolf: 1200 − 56 − 335 − 64 − 240 (poison ⌈1200 × 100/150 × 0.3⌉) − 194 = 311; then
    tenrai 67 × 4 = 268 → 43 and the fifth process stops at 0: incapacitated (no LP)."""
    _, final = run
    assert unit(final, "Wolf", "hp", "hp_max", "lp", "incapacitated") == (0, 1200, None, True)


@pytest.mark.rule("SAGA-FIVE-1")
def test_clock(run):
    """Three turns ended (turn 4), wood terrain: wood 5, earth −5, no season."""
    _, final = run
    assert final["clock"] == {
        "turn": 4,
        "season": None,
        "levels": {"wood": 5, "fire": 0, "earth": -5, "metal": 0, "water": 0},
    }


@pytest.mark.rule("SAGA-DISP-2")
def test_history_shows_every_factor(run):
    """history Wolf shows the Blood hit's breakdown and its split display 58 + 17 + 19 + 21 + 77."""
    log, _ = run
    # split 30 9 10 11 40: ⌊58.2⌋ ⌊17.46⌋ ⌊19.4⌋ ⌊21.34⌋ ⌊77.6⌋ = 58 17 19 21 77 (192 of 194)
    out = ok(log, "history", "Wolf")
    assert "shown as 58 + 17 + 19 + 21 + 77" in out
    for factor in (
        "base_power = 50",
        "compound_power = 150",
        "combo_correction = 1.5",
        "buff_correction = 1.1",
        "damage_reduction = √69",
        "damage = 194",
    ):
        assert factor in out


def test_the_example_states_its_final_state(run):
    """The script's closing `Expected final state` comment gives each unit's HP and LP and the turn
    exactly as the session ends (Gustave 276/320 HP, 10/12 LP; Amy 104/210, 9/9; Wolf 0/1200)."""
    import re

    _, final = run
    text = EXAMPLE.read_text("utf-8")
    assert "tablelog --log wolf.tlog run examples/saga-wolf-road.txt" in text.splitlines()[1]
    block = text.split("# Expected final state:\n", 1)[1]
    stated = {
        name: (int(hp), int(hp_max))
        for name, hp, hp_max in re.findall(r"#   (\w+): +HP (\d+)/(\d+)", block)
    }
    assert stated == {"Gustave": (276, 320), "Amy": (104, 210), "Wolf": (0, 1200)}
    assert stated == {n: unit(final, n, "hp", "hp_max") for n in stated}
    found = re.findall(r"#   (\w+): .*LP (\d+)/(\d+)", block)
    lp = {name: (int(a), int(b)) for name, a, b in found}
    assert lp == {"Gustave": (10, 12), "Amy": (9, 9)}
    assert lp == {n: unit(final, n, "lp", "lp_max") for n in lp}
    assert f"turn {final['clock']['turn']}, no season" in block


CAMPAIGN = Path(__file__).resolve().parents[1] / "data" / "campaigns" / "saga.txt"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """The log and all its records (`log --all --json`) after running the campaign script."""
    log = tmp_path_factory.mktemp("campaign") / "bloodroot.tlog"
    ok(log, "run", str(CAMPAIGN))
    return log, [json.loads(line) for line in ok(log, "log", "--all", "--json").splitlines()]


def test_the_campaign_has_every_saga_event_type_and_undo_and_redo(campaign):
    """Every registered saga.* event type appears in the campaign, with notes, undos, redos."""
    from tablelog import systems
    from tablelog.events.core import registered_types

    systems.get("saga")
    _, records = campaign
    saga_types = {t for t in registered_types() if t.startswith("saga.")}
    assert len(saga_types) == 14
    seen = {r["type"] for r in records}
    assert saga_types | {"core.Noted", "core.Undone", "core.Redone"} <= seen


def test_the_campaign_verifies_and_replays_to_the_same_state_with_the_same_seed(
    campaign, tmp_path: Path
):
    """The log verifies; running the script again on a fresh log (same seed) draws the same
    random factors and ends in the same state."""
    log, records = campaign
    assert ok(log, "verify").startswith(f"ok: {log}: {len(records)} records")
    again = tmp_path / "again.tlog"
    ok(again, "run", str(CAMPAIGN))
    assert json.loads(ok(log, "state", "--json")) == json.loads(ok(again, "state", "--json"))


@pytest.mark.rule("SAGA-ATK-16")
def test_the_campaign_keys_each_draw_by_the_draw_counter(campaign):
    """Each drawing activation records the draw number it used; the undone tenrai (#10-#14)
    used draw 1, so the wolf's fang after the undo drew 1 again; the tenrai of the next turn,
    after three more drawing casts, drew 4."""
    _, records = campaign
    draws = [
        (r["seq"], r["data"]["tech"], r["data"]["draw_no"])
        for r in records
        if r["type"] == "saga.AttackDamageDealt" and r["data"]["process"] == 1
    ]
    assert draws[:6] == [
        (9, "kiri-harai", 0),
        (10, "tenrai", 1),
        (22, "fang", 1),
        (23, "harai-sha-ken", 2),
        (25, "kiri-harai", 3),
        (26, "tenrai", 4),
    ]
    undone = {r["data"]["target"] for r in records if r["type"] == "core.Undone"}
    assert {10, 11, 12, 13, 14} <= undone
