"""pf2e evolvers assign recorded facts and are total; preconditions hold what events depend on."""

from __future__ import annotations

import copy

import attrs
import pytest

from tablelog.commands.pf2e import (
    AddCharacter,
    AddItem,
    EtchRune,
    LearnFormula,
    TransferRune,
)
from tablelog.events.codec import from_record, to_record
from tablelog.events.pf2e import (
    CharacterAdded,
    FormulaLearned,
    ItemAdded,
    ItemGiven,
    ItemInvested,
    ItemSheet,
    RuneActivated,
    RuneEtched,
    RuneEtchingBegun,
    RunestoneCracked,
    RuneTransferFailed,
    RuneTransferred,
)
from tablelog.projections import pf2e as projection
from tablelog.projections.core import State, check, evolve
from tablelog.rules.core import RuleViolation
from tests.support.decider import then

rule = pytest.mark.rule

SHEET = ItemSheet(
    runes=("weapon-potency-1", "flaming"),
    name="recorded name",
    level=3,
    price_cp=12345,
    potency=1,
    striking=0,
    resilient=0,
    reinforcing=0,
    property=("flaming",),
    dormant=(),
    rarity="common",
    invested_trait=False,
)


def fresh() -> State:
    state = State(system="pf2e")
    projection.init_state(state, {})
    return state


def played(*commands) -> tuple[State, list]:
    """Decide and apply each command from a fresh state; return the state and every event."""
    state, events = fresh(), []
    for command in commands:
        state, new = then(state, command)
        events += new
    return state, events


SMITHY = [
    CharacterAdded(name="Valeros", level=14),
    *(
        FormulaLearned(character="Valeros", rune=r, level=0, price_cp=0)
        for r in ("weapon-potency-1", "striking", "flaming", "frost")
    ),
]


def smithy() -> State:
    state = fresh()
    for e in SMITHY:
        evolve(state, e)
    return state


def test_an_etch_assigns_the_recorded_sheet_whatever_the_catalogue_says():
    """The item gets the name, level and price the event records (not today's 535 gp, level 8)."""
    state, _ = then(smithy(), AddItem(item="sword", base="longsword", owner="Valeros"))
    evolve(
        state,
        RuneEtched(
            item="sword", rune="flaming", by="Valeros", level=8, price_cp=50000, sheet=SHEET
        ),
    )
    sword = state.items["sword"]
    assert (
        sword["runes"],
        sword["name"],
        sword["level"],
        sword["price_gp"],
        sword["potency"],
        sword["property"],
        state.characters["Valeros"]["spent_gp"],
    ) == (["weapon-potency-1", "flaming"], "recorded name", 3, 123.45, 1, ["flaming"], 500)


def test_a_transfer_assigns_both_recorded_sheets():
    """Source and target take their recorded sheets; the crafter pays the recorded cost."""
    state, _ = played(AddItem(item="a", base="longsword"), AddItem(item="b", base="mace"))
    empty = attrs.evolve(SHEET, runes=(), name="bare", property=(), potency=0)
    evolve(
        state,
        RuneTransferred(
            rune="flaming",
            source="a",
            target="b",
            by="Nobody",
            dc=24,
            cost_cp=5000,
            source_sheet=empty,
            target_sheet=SHEET,
        ),
    )
    assert (
        (state.items["a"]["name"], state.items["a"]["runes"]),
        (state.items["b"]["name"], state.items["b"]["runes"]),
    ) == (("bare", []), ("recorded name", ["weapon-potency-1", "flaming"]))


EVENTS = [
    CharacterAdded(name="Valeros", level=14),
    FormulaLearned(character="Valeros", rune="flaming", level=8, price_cp=2500, bought=True),
    ItemAdded(item="sword", base="longsword", owner="Valeros", category="weapon", sheet=SHEET),
    ItemAdded(item="old", base="longsword"),
    ItemGiven(item="sword", giver="Valeros", to="Kyra"),
    RuneEtchingBegun(item="sword", rune="flaming", by="Valeros", level=8),
    RuneEtched(item="sword", rune="flaming", by="Valeros", level=8, price_cp=50000, sheet=SHEET),
    RuneEtched(item="sword", rune="flaming", by="Valeros", level=8, price_cp=50000),
    RuneTransferred(
        rune="frost",
        source="stone",
        target="sword",
        by="Valeros",
        dc=24,
        cost_cp=0,
        source_sheet=SHEET,
        target_sheet=SHEET,
    ),
    RuneTransferred(rune="frost", source="stone", target="sword", by="Valeros", dc=24, cost_cp=0),
    RuneTransferFailed(
        rune="frost",
        source="stone",
        target="sword",
        by="Valeros",
        outcome="failure",
        automatic=False,
        reason="rolled",
        dc=24,
        loss_cp=5,
    ),
    RunestoneCracked(item="stone"),
    ItemInvested(item="sword", by="Valeros"),
    RuneActivated(item="sword", rune="flaming", by="Valeros"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.TYPE)
@pytest.mark.parametrize("where", ["empty", "smithy"])
def test_every_evolver_is_total(event, where):
    """Every event applies to a state missing what it names without raising; its precondition
    is what refuses it."""
    state = fresh() if where == "empty" else smithy()
    before = copy.deepcopy(state)
    evolve(state, event)
    assert isinstance(state.characters, dict) and isinstance(state.items, dict)
    if event.TYPE not in ("pf2e.CharacterAdded", "pf2e.ItemAdded"):
        with pytest.raises(RuleViolation):
            check(before, event)


@rule("PF2E-PRICE-1")
@rule("PF2E-RUNE-5")
def test_a_v1_record_takes_the_legacy_path():
    """A v1 RuneEtched (no sheet) upcasts with sheet None and is derived from today's catalogue."""
    state = smithy()
    evolve(
        state,
        from_record(
            "pf2e.ItemAdded", 1, {"item": "sword", "base": "longsword", "owner": "Valeros"}
        ),
    )
    for rune, price in (("weapon-potency-1", 3500), ("flaming", 50000)):
        old = from_record(
            "pf2e.RuneEtched",
            1,
            {
                "item": "sword",
                "rune": rune,
                "by": "Valeros",
                "level": 2,
                "price_cp": price,
                "replaces": None,
                "breakdown": {},
            },
        )
        assert old.sheet is None
        evolve(state, old)
    sword = state.items["sword"]
    assert (
        sword["category"],
        sword["name"],
        sword["level"],
        sword["price_gp"],
        sword["property"],
    ) == ("weapon", "+1 flaming longsword", 8, 535, ["flaming"])


def test_older_records_upcast_with_unknown_new_fields():
    """Each v1 pf2e record gains its v2 and v3 fields as None (the legacy path's signal), and a
    v2 etch its v3 ``crafting``."""
    begun = from_record("pf2e.RuneEtchingBegun", 1, {"item": "s", "rune": "frost", "by": "V"})
    moved = from_record(
        "pf2e.RuneTransferred",
        1,
        {
            "rune": "frost",
            "source": "a",
            "target": "b",
            "by": "V",
            "dc": 24,
            "cost_cp": 0,
            "days": 1,
            "swap": None,
            "outcome": "success",
            "breakdown": {},
        },
    )
    added = from_record("pf2e.ItemAdded", 1, {"item": "s", "base": "longsword", "owner": None})
    etched = from_record(
        "pf2e.RuneEtched",
        2,
        {
            "item": "s",
            "rune": "frost",
            "by": "V",
            "level": 8,
            "price_cp": 50000,
            "replaces": None,
            "breakdown": {},
            "sheet": attrs.asdict(SHEET),
        },
    )
    assert (
        begun.level,
        begun.crafting,
        moved.source_sheet,
        moved.target_sheet,
        added.category,
        added.sheet,
        etched.crafting,
        etched.sheet,
    ) == (None, None, None, None, None, None, None, SHEET)


def test_decided_events_round_trip_through_the_codec():
    """Decided events, sheets included, survive to_record / from_record unchanged."""
    _, events = played(
        AddCharacter(name="Valeros", level=14),
        LearnFormula(character="Valeros", rune="frost"),
        LearnFormula(character="Valeros", rune="weapon-potency-1"),
        AddItem(item="sword", base="longsword", owner="Valeros"),
        AddItem(item="stone", base="runestone", owner="Valeros"),
        EtchRune(item="stone", rune="frost", by="Valeros"),
        EtchRune(item="sword", rune="weapon-potency-1", by="Valeros"),
        TransferRune(rune="frost", source="stone", target="sword", by="Valeros"),
    )
    assert len(events) == 9
    assert events == [from_record(*to_record(e)) for e in events]


# --- preconditions: what an event depends on -------------------------------------------------

BASE = [
    AddCharacter(name="Valeros", level=14, crafting="master"),
    AddCharacter(name="Kyra", level=8),
    *(
        LearnFormula(character="Valeros", rune=r)
        for r in (
            "weapon-potency-1",
            "weapon-potency-2",
            "striking",
            "flaming",
            "frost",
            "resilient",
        )
    ),
    AddItem(item="sword", base="longsword", owner="Valeros"),
    AddItem(item="mace", base="mace", owner="Valeros"),
    AddItem(item="stone", base="runestone", owner="Valeros"),
]
N = len(BASE)


def dependency(commands: list, undone: int) -> RuleViolation:
    """Play BASE and ``commands``; fold again without the events of ``commands[undone]`` and
    return what the last command's events' preconditions raise there."""
    state, decided = fresh(), []
    for command in [*BASE, *commands]:
        state, events = then(state, command)
        decided.append(events)
    state = fresh()
    for i, events in enumerate(decided[:-1]):
        for e in events if i != N + undone else ():
            evolve(state, e)
    with pytest.raises(RuleViolation) as err:
        for e in decided[-1]:
            check(state, e)
            evolve(state, e)
    return err.value


@rule("PF2E-ETCH-1")
@rule("PF2E-FUND-1")
@rule("PF2E-RUNE-2")
@rule("PF2E-XFER-1")
@rule("PF2E-XFER-3")
@pytest.mark.parametrize(
    ("commands", "undone", "rule_id", "message"),
    [
        (
            [
                EtchRune(item="sword", rune="weapon-potency-1", by="Valeros"),
                EtchRune(item="sword", rune="striking", by="Valeros"),
                EtchRune(item="sword", rune="flaming", by="Valeros"),
            ],
            1,
            "PF2E-ETCH-1",
            "flaming was etched when sword held weapon-potency-1, striking, making it +1 striking "
            "flaming longsword; it holds weapon-potency-1 now",
        ),
        (
            [
                EtchRune(item="sword", rune="weapon-potency-1", by="Valeros"),
                EtchRune(item="sword", rune="weapon-potency-2", by="Valeros"),
            ],
            0,
            "PF2E-FUND-1",
            "sword no longer holds weapon-potency-1, which weapon-potency-2 upgrades",
        ),
        (
            [
                EtchRune(item="sword", rune="weapon-potency-1", by="Valeros"),
                EtchRune(item="sword", rune="flaming", by="Valeros"),
            ],
            0,
            "PF2E-RUNE-2",
            "sword has no potency rune, so no property slot for flaming; etch a potency rune first",
        ),
        (
            [
                EtchRune(item="stone", rune="frost", by="Valeros"),
                EtchRune(item="sword", rune="weapon-potency-1", by="Valeros"),
                TransferRune(rune="frost", source="stone", target="sword", by="Valeros"),
            ],
            0,
            "PF2E-XFER-1",
            "stone holds no frost rune (it holds no runes)",
        ),
        (
            [
                EtchRune(item="sword", rune="weapon-potency-1", by="Valeros"),
                EtchRune(item="mace", rune="weapon-potency-1", by="Valeros"),
                EtchRune(item="sword", rune="weapon-potency-2", by="Valeros"),
                TransferRune(
                    rune="weapon-potency-2",
                    source="sword",
                    target="mace",
                    swap="weapon-potency-1",
                    by="Valeros",
                ),
            ],
            1,
            "PF2E-XFER-3",
            "mace holds no weapon-potency-1 rune (it holds no runes)",
        ),
        (
            [
                EtchRune(item="sword", rune="weapon-potency-1", by="Valeros"),
                EtchRune(item="stone", rune="striking", by="Valeros"),
                EtchRune(item="sword", rune="frost", by="Valeros"),
                TransferRune(rune="striking", source="stone", target="sword", by="Valeros"),
            ],
            2,
            "PF2E-XFER-1",
            "striking was moved from stone to sword when sword held "
            "weapon-potency-1, frost, making it +1 striking frost longsword; it holds "
            "weapon-potency-1 now",
        ),
    ],
)
def test_an_event_depends_on_the_runes_it_was_decided_on(commands, undone, rule_id, message):
    """A later etch or transfer does not hold once an earlier change to its items is undone."""
    found = dependency(commands, undone)
    assert (rule_id, message) == (found.rule_id, found.message)


@pytest.mark.parametrize(
    ("event", "rule_id", "message"),
    [
        (
            CharacterAdded(name="sword", level=1),
            "CORE-NAME",
            "'sword' is already a character or item of this session",
        ),
        (
            FormulaLearned(character="Valeros", rune="frost", level=8, price_cp=2500),
            "PF2E-FORMULA-1",
            "Valeros already has the formula for frost",
        ),
        (
            ItemGiven(item="mace", giver="Kyra", to="Valeros"),
            "PF2E-ETCH-1",
            "mace is held by Valeros, not Kyra",
        ),
        (
            RuneEtchingBegun(item="sword", rune="frost", by="Valeros", level=8),
            "PF2E-ETCH-2",
            "Valeros is already etching striking on mace; one rune at a time: pf2e finish mace",
        ),
        (
            RuneEtched(item="mace", rune="striking", by="Valeros", level=20, price_cp=6500),
            "PF2E-ETCH-1",
            "Valeros is level 14, below striking's level 20",
        ),
        (
            RuneEtched(item="sword", rune="frost", by="Kyra", level=8, price_cp=50000),
            "PF2E-ETCH-1",
            "Kyra cannot craft magic items: no Magical Crafting (expert in Crafting)",
        ),
        (
            RuneEtched(item="mace", rune="frost", by="Valeros", level=8, price_cp=50000),
            "PF2E-ETCH-2",
            "mace has another etch in progress (striking by Valeros)",
        ),
        (
            RuneEtched(
                item="mace",
                rune="striking",
                by="Valeros",
                level=4,
                price_cp=6500,
                crafting="legendary",
            ),
            "PF2E-ETCH-1",
            "Valeros is master in Crafting; etching striking needs legendary",
        ),
        (RunestoneCracked(item="sword"), "PF2E-STONE-1", "sword is not a runestone"),
        (
            ItemInvested(item="sword", by="Valeros"),
            "PF2E-INVEST-1",
            "sword (longsword) has no invested trait: only armor with runes is invested",
        ),
        (
            RuneActivated(item="sword", rune="flaming", by="Valeros"),
            "PF2E-ACT-1",
            "sword has no active flaming rune (active: none; dormant: none)",
        ),
    ],
    ids=lambda v: v.TYPE if hasattr(v, "TYPE") else None,
)
def test_moved_checks_keep_their_rule_and_message(event, rule_id, message):
    """The checks the evolvers made are preconditions now, with the same rules and messages; a
    recorded rune level is used whatever the catalogue says."""
    state, _ = played(
        BASE[0],
        AddCharacter(name="Kyra", level=8, magical_crafting=False),
        *BASE[2:],
        EtchRune(item="mace", rune="striking", by="Valeros", begin=True),
    )
    with pytest.raises(RuleViolation) as err:
        check(state, event)
    assert (rule_id, message) == (err.value.rule_id, err.value.message)
