"""pf2e state records have the shapes their TypedDicts declare (projections/pf2e/entities.py)."""

from __future__ import annotations

import attrs
import pytest

from tablelog.commands.pf2e import ActivateRune, AddCharacter, AddItem, EtchRune, LearnFormula
from tablelog.events.codec import from_record
from tablelog.events.pf2e import CharacterAdded, FormulaLearned, RuneEtched
from tablelog.projections import pf2e as projection
from tablelog.projections.core import State, check, evolve
from tablelog.projections.pf2e.entities import Character, Item
from tablelog.rules.core import RuleViolation
from tablelog.systems import pf2e as declaration
from tests.support.decider import refused, then
from tests.support.shapes import problems
from tests.unit.projections.test_pf2e import SHEET

rule = pytest.mark.rule

SHEET_KEYS = (
    "name",
    "level",
    "price_gp",
    "potency",
    "striking",
    "resilient",
    "reinforcing",
    "property",
    "dormant",
    "rarity",
    "invested_trait",
)


def played(*commands: object) -> tuple[State, list[object]]:
    """Decide and apply each command from a fresh pf2e state; return the state and the events."""
    state, events = State(system="pf2e"), []
    projection.init_state(state, {})
    for command in commands:
        state, new = then(state, command)
        events += new
    return state, events


def legacy_item() -> State:
    """A crafter holding ``relic``: a v1 ItemAdded whose base item no catalogue knows."""
    state = State(system="pf2e")
    projection.init_state(state, {})
    evolve(state, CharacterAdded(name="Valeros", level=14))
    evolve(state, FormulaLearned(character="Valeros", rune="flaming", level=8, price_cp=0))
    record = {"item": "relic", "base": "sword-of-old", "owner": "Valeros"}
    evolve(state, from_record("pf2e.ItemAdded", 1, record))
    return state


def test_the_system_declares_its_two_kinds_of_record():
    assert (Character, Item) == declaration.SYSTEM.records


def test_each_kind_of_record_its_evolvers_build_is_its_typeddict():
    """A character who bought a formula, a shield with a reinforcing rune (its NotRequired keys),
    a sword with a long etch in progress, a runestone: each record matches its TypedDict."""
    state, events = played(
        AddCharacter(name="Valeros", level=14, crafting="master"),
        LearnFormula(character="Valeros", rune="minor-reinforcing", buy=True),
        LearnFormula(character="Valeros", rune="weapon-potency-1"),
        AddItem(item="shield", base="steel-shield", owner="Valeros"),
        AddItem(item="sword", base="longsword", owner="Valeros"),
        AddItem(item="stone", base="runestone"),
        EtchRune(item="shield", rune="minor-reinforcing", by="Valeros"),
        EtchRune(item="sword", rune="weapon-potency-1", by="Valeros", begin=True),
    )
    valeros, shield, sword = (
        state.characters["Valeros"],
        state.items["shield"],
        state.items["sword"],
    )
    assert problems(valeros, Character, "Valeros") == []
    assert [p for name, i in state.items.items() for p in problems(i, Item, name)] == []
    bought = [e.price_cp for e in events if isinstance(e, FormulaLearned) and e.bought]
    etched = [e for e in events if isinstance(e, RuneEtched)]
    assert sum(bought) + sum(e.price_cp for e in etched) == valeros["_spent_cp"]
    assert valeros["_spent_cp"] / 100 == valeros["spent_gp"]
    assert etched[0].sheet is not None
    sheet = etched[0].sheet
    assert (sheet.hardness, sheet.hp_max, sheet.bt) == (
        shield.get("hardness"),
        shield.get("hp_max"),
        shield.get("bt"),
    )
    assert not {"hardness", "hp_max", "bt"} & (sword.keys() | state.items["stone"].keys())
    assert sword["etching"] == {"rune": "weapon-potency-1", "by": "Valeros"}


def test_a_v1_item_of_a_base_no_catalogue_knows_is_an_item_with_no_sheet():
    """The legacy path leaves the sheet's fields and the category None (docs/pf2e.md)."""
    relic = legacy_item().items["relic"]
    assert problems(relic, Item, "relic") == []
    assert {None} == {relic[k] for k in (*SHEET_KEYS, "category")}


def test_the_shape_check_finds_a_wrong_value_and_a_stray_key():
    state, _ = played(AddCharacter(name="Kyra", level=8), AddItem(item="mace", base="mace"))
    mace = {**state.items["mace"], "potency": "1", "hp": 3}
    found = problems(mace, Item, "mace")
    assert sorted(found) == ["mace.hp: not a key of Item", "mace.potency: '1' is not int"]
    assert problems(
        {k: v for k, v in state.characters["Kyra"].items() if k != "formulas"}, Character, "Kyra"
    ) == ["Kyra.formulas: missing (Character requires it)"]


@rule("PF2E-ACT-1")
def test_activating_a_rune_on_an_item_with_no_sheet_is_refused_not_a_crash():
    """Before typed records, the refusal's text joined the item's dormant runes (None): a
    TypeError in the decider and in the precondition."""
    state = legacy_item()
    message = "relic has no active flaming rune (active: none; dormant: none)"
    assert message == refused(
        state, ActivateRune(item="relic", rune="flaming", by="Valeros"), "PF2E-ACT-1"
    )
    event = from_record(
        "pf2e.RuneActivated", 1, {"item": "relic", "rune": "flaming", "by": "Valeros"}
    )
    with pytest.raises(RuleViolation) as err:
        check(state, event)
    assert ("PF2E-ACT-1", message) == (err.value.rule_id, err.value.message)


@rule("PF2E-RUNE-2")
def test_an_etch_recorded_on_an_item_with_no_sheet_holds_without_a_slot_check():
    """The record does not know its potency, so the precondition has no slot count to hold the
    property rune to (as it skips a level it does not know); the etch then assigns its sheet."""
    state = legacy_item()
    sheet = attrs.evolve(
        SHEET, runes=("flaming",), potency=0, property=(), dormant=("flaming",), name="old sword"
    )
    event = RuneEtched(item="relic", rune="flaming", by="Valeros", level=8, price_cp=0, sheet=sheet)
    check(state, event)
    evolve(state, event)
    relic = state.items["relic"]
    assert problems(relic, Item, "relic") == []
    assert (sheet.name, ["flaming"], ["flaming"]) == (
        relic["name"],
        relic["dormant"],
        relic["runes"],
    )
