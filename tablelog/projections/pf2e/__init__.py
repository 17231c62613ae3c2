"""How pf2e events change the session state (evolvers), and the pf2e state records.

Character record: ``level``, ``crafting`` (rank), ``magical_crafting``, ``formulas`` (rune ids),
``spent_gp`` (JSON number; exact cp kept privately in ``_spent_cp``).
Item record: ``base``, ``category``, ``owner``, ``name``, ``level``, ``price_gp``, ``potency``,
``striking``, ``resilient``, ``reinforcing``, ``property`` (active), ``dormant``, ``runes`` (all
etched, etch order), ``rarity``, ``invested_trait``, ``invested``, ``etching`` (None or
``{rune, by}``); shields also ``hardness``, ``hp_max``, ``bt``.
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
from tablelog.projections.pf2e.checks import (
    character,
    check_activation,
    check_etch,
    check_holds,
    check_new_name,
    check_no_etching,
    check_transfer,
    etching_text,
    item,
)
from tablelog.rules import pf2e as rules
from tablelog.rules.core import RuleViolation, require

__all__ = ["init_state", "refresh", "spend"]


_DERIVED = ("name", "level", "price_gp", "potency", "striking", "resilient", "reinforcing",
            "property", "dormant", "rarity", "invested_trait")


def init_state(state: State, options: dict[str, Any]) -> None:
    """Start a pf2e session: no deck, no clock."""
    state.deck = None


def refresh(record: dict[str, Any]) -> None:
    """Recompute an item's derived fields (name, level, price, slots …) from its runes.

    An item that loses the invested trait is no longer invested.
    """
    base = rules.base_item(record["base"])
    facts = rules.item_facts(base, record["runes"])
    record.update(
        name=facts.name, level=facts.level, price_gp=rules.gp_from_cp(facts.price_cp),
        potency=facts.potency, striking=facts.striking, resilient=facts.resilient,
        reinforcing=facts.reinforcing, property=list(facts.property),
        dormant=list(facts.dormant), rarity=facts.rarity, invested_trait=facts.invested_trait,
    )
    if not facts.invested_trait:
        record["invested"] = False
    if base.category == "shield":
        record.update(hardness=facts.hardness, hp_max=facts.hp_max, bt=facts.bt)


def spend(who: dict[str, Any], cp: int) -> None:
    """Add ``cp`` copper pieces to what a character has spent."""
    who["_spent_cp"] += cp
    who["spent_gp"] = rules.gp_from_cp(who["_spent_cp"])


@evolver(CharacterAdded)
def _character_added(state: State, e: CharacterAdded) -> None:
    check_new_name(state, e.name)
    require(e.crafting in rules.RANKS, "PF2E-XFER-8", f"unknown Crafting rank {e.crafting!r}")
    state.characters[e.name] = {
        "level": e.level, "crafting": e.crafting, "magical_crafting": e.magical_crafting,
        "formulas": [], "spent_gp": 0, "_spent_cp": 0,
    }


@evolver(FormulaLearned)
def _formula_learned(state: State, e: FormulaLearned) -> None:
    who = character(state, e.character)
    require(e.rune not in who["formulas"], "PF2E-FORMULA-1",
            f"{e.character} already has the formula for {e.rune}")
    who["formulas"] = [*who["formulas"], e.rune]
    if e.bought:
        spend(who, e.price_cp)


@evolver(ItemAdded)
def _item_added(state: State, e: ItemAdded) -> None:
    check_new_name(state, e.item)
    base = rules.base_item(e.base)
    if e.owner is not None:
        character(state, e.owner)
    record: dict[str, Any] = {"base": base.id, "category": base.category, "owner": e.owner}
    record.update(dict.fromkeys(_DERIVED), runes=[], invested=False, etching=None)
    refresh(record)
    state.items[e.item] = record


@evolver(ItemGiven)
def _item_given(state: State, e: ItemGiven) -> None:
    record = item(state, e.item)
    character(state, e.to)
    require(record["owner"] == e.giver, "PF2E-ETCH-1",
            f"{e.item} is held by {record['owner'] or 'nobody'}, not {e.giver or 'nobody'}")
    require(record["etching"] is None, "PF2E-ETCH-1",
            f"{e.item} has an etch in progress: the crafter must hold it throughout")
    record["owner"] = e.to
    record["invested"] = False


@evolver(RuneEtchingBegun)
def _etching_begun(state: State, e: RuneEtchingBegun) -> None:
    check_no_etching(state, e.item)
    check_etch(state, e.item, e.rune, e.by)
    item(state, e.item)["etching"] = {"rune": e.rune, "by": e.by}


@evolver(RuneEtched)
def _rune_etched(state: State, e: RuneEtched) -> None:
    record = item(state, e.item)
    etching = record["etching"]
    if etching is not None and etching != {"rune": e.rune, "by": e.by}:
        raise RuleViolation("PF2E-ETCH-2", f"{e.item} has another etch in progress "
                            f"({etching_text(etching)})")
    rune, plan = check_etch(state, e.item, e.rune, e.by)
    require(plan.cost_cp == e.price_cp, "PF2E-PRICE-1",
            f"{e.rune} on {e.item} costs {rules.gp_from_cp(plan.cost_cp)} gp now, "
            f"not {rules.gp_from_cp(e.price_cp)} gp")
    record["runes"] = list(plan.runes)
    record["etching"] = None
    refresh(record)
    spend(state.characters[e.by], plan.cost_cp)


@evolver(RuneTransferred)
def _rune_transferred(state: State, e: RuneTransferred) -> None:
    _, _, plan = check_transfer(state, e.rune, e.source, e.target, e.by, e.swap)
    source, target = state.items[e.source], state.items[e.target]
    source["runes"], target["runes"] = list(plan.source_runes), list(plan.target_runes)
    refresh(source)
    refresh(target)
    spend(character(state, e.by), e.cost_cp)


@evolver(RuneTransferFailed)
def _transfer_failed(state: State, e: RuneTransferFailed) -> None:
    item(state, e.source)
    item(state, e.target)
    require(e.rune in state.items[e.source]["runes"], "PF2E-XFER-1",
            f"{e.source} holds no {e.rune} rune")
    spend(character(state, e.by), e.loss_cp)


@evolver(RunestoneCracked)
def _runestone_cracked(state: State, e: RunestoneCracked) -> None:
    record = item(state, e.item)
    require(record["category"] == "runestone", "PF2E-STONE-1", f"{e.item} is not a runestone")
    require(not record["runes"], "PF2E-STONE-1",
            f"{e.item} still holds {', '.join(record['runes'])}: only an empty runestone cracks")
    del state.items[e.item]


@evolver(ItemInvested)
def _item_invested(state: State, e: ItemInvested) -> None:
    record = item(state, e.item)
    character(state, e.by)
    require(record["invested_trait"], "PF2E-INVEST-1",
            f"{e.item} ({record['name']}) has no invested trait: only armor with runes is invested")
    check_holds(state, e.by, e.item, "PF2E-INVEST-1")
    require(not record["invested"], "PF2E-INVEST-1", f"{e.by} has already invested {e.item}")
    record["invested"] = True


@evolver(RuneActivated)
def _rune_activated(state: State, e: RuneActivated) -> None:
    check_activation(state, e.item, e.rune, e.by)
