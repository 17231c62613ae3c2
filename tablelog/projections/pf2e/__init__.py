"""How pf2e events change the session state (evolvers), and the pf2e state records.

The evolvers are total and assign what each event records (an item's :class:`ItemSheet`, the
price paid …); they never re-check a rule or read a catalogue, except on the documented legacy
path for v1 records (:func:`sheets.legacy_refresh`). What an event depends on is its
precondition (:mod:`tablelog.projections.pf2e.preconditions`).

The records are typed in :mod:`tablelog.projections.pf2e.entities` (:class:`Character`,
:class:`Item`); the evolvers reach them through its accessors.
"""

from __future__ import annotations

from typing import Any

from tablelog.events.pf2e import (
    CharacterAdded,
    FormulaLearned,
    ItemAdded,
    ItemGiven,
    ItemInvested,
    RuneActivated,
    RuneEtched,
    RuneEtchingBegun,
    RunestoneCracked,
    RuneTransferFailed,
    RuneTransferred,
)
from tablelog.projections.core import State, evolver
from tablelog.projections.pf2e import preconditions as _preconditions  # noqa: F401 - registers them
from tablelog.projections.pf2e.entities import Character, Item, characters, items
from tablelog.projections.pf2e.sheets import (
    assign,
    etched_runes,
    legacy_item,
    legacy_refresh,
    moved_runes,
)
from tablelog.rules.pf2e.catalogue import gp_from_cp

__all__ = ["init_state", "spend"]


def init_state(state: State, options: dict[str, Any]) -> None:
    """Start a pf2e session: no deck, no clock."""
    state.deck = None


def spend(who: Character | None, cp: int) -> None:
    """Add ``cp`` copper pieces to what a character has spent (nothing for no character)."""
    if who is not None:
        who["_spent_cp"] += cp
        who["spent_gp"] = gp_from_cp(who["_spent_cp"])


@evolver(CharacterAdded)
def _character_added(state: State, e: CharacterAdded) -> None:
    characters(state)[e.name] = {
        "level": e.level,
        "crafting": e.crafting,
        "magical_crafting": e.magical_crafting,
        "formulas": [],
        "spent_gp": 0,
        "_spent_cp": 0,
    }


@evolver(FormulaLearned)
def _formula_learned(state: State, e: FormulaLearned) -> None:
    who = characters(state).get(e.character)
    if who is not None and e.rune not in who["formulas"]:
        who["formulas"] = [*who["formulas"], e.rune]
        if e.bought:
            spend(who, e.price_cp)


@evolver(ItemAdded)
def _item_added(state: State, e: ItemAdded) -> None:
    record: Item = {
        "base": e.base,
        "category": e.category,
        "owner": e.owner,
        "name": None,
        "level": None,
        "price_gp": None,
        "potency": None,
        "striking": None,
        "resilient": None,
        "reinforcing": None,
        "property": None,
        "dormant": None,
        "rarity": None,
        "invested_trait": None,
        "runes": [],
        "invested": False,
        "etching": None,
    }
    if e.sheet is not None:
        assign(record, e.sheet)
    else:
        legacy_item(record)
    items(state)[e.item] = record


@evolver(ItemGiven)
def _item_given(state: State, e: ItemGiven) -> None:
    record = items(state).get(e.item)
    if record is not None:
        record["owner"] = e.to
        record["invested"] = False


@evolver(RuneEtchingBegun)
def _etching_begun(state: State, e: RuneEtchingBegun) -> None:
    record = items(state).get(e.item)
    if record is not None:
        record["etching"] = {"rune": e.rune, "by": e.by}


@evolver(RuneEtched)
def _rune_etched(state: State, e: RuneEtched) -> None:
    record = items(state).get(e.item)
    if record is not None:
        record["etching"] = None
        if e.sheet is not None:
            assign(record, e.sheet)
        else:
            legacy_refresh(record, etched_runes(record["runes"], e.rune, e.replaces))
    spend(characters(state).get(e.by), e.price_cp)


@evolver(RuneTransferred)
def _rune_transferred(state: State, e: RuneTransferred) -> None:
    source, target = items(state).get(e.source), items(state).get(e.target)
    if source is not None and target is not None:
        if e.source_sheet is not None and e.target_sheet is not None:
            assign(source, e.source_sheet)
            assign(target, e.target_sheet)
        else:
            after = moved_runes(source["runes"], target["runes"], e.rune, e.swap)
            legacy_refresh(source, after[0])
            legacy_refresh(target, after[1])
    spend(characters(state).get(e.by), e.cost_cp)


@evolver(RuneTransferFailed)
def _transfer_failed(state: State, e: RuneTransferFailed) -> None:
    spend(characters(state).get(e.by), e.loss_cp)


@evolver(RunestoneCracked)
def _runestone_cracked(state: State, e: RunestoneCracked) -> None:
    items(state).pop(e.item, None)


@evolver(ItemInvested)
def _item_invested(state: State, e: ItemInvested) -> None:
    record = items(state).get(e.item)
    if record is not None:
        record["invested"] = True


@evolver(RuneActivated)
def _rune_activated(state: State, e: RuneActivated) -> None:
    """An activation is logged; its effect is the GM's (nothing in the state changes)."""
