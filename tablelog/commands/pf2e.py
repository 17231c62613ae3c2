"""Pathfinder 2e commands and their deciders (pure: state, command -> events or RuleViolation)."""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.events.core import Event
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
from tablelog.projections.core import State
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
from tablelog.projections.pf2e.sheets import sheet_of
from tablelog.rules import pf2e as rules
from tablelog.rules.core import RuleViolation, gp_text, require

__all__ = [
    "AddCharacter", "LearnFormula", "AddItem", "GiveItem", "EtchRune", "FinishEtching",
    "TransferRune", "InvestItem", "ActivateRune",
]


@attrs.frozen
class AddCharacter:
    """Add a character (``crafting``: Crafting rank; ``magical_crafting``: can craft magic)."""

    name: str
    level: int = 1
    crafting: str = "expert"
    magical_crafting: bool = True


@attrs.frozen
class LearnFormula:
    """Record that ``character`` has ``rune``'s formula (``buy``: pay its price)."""

    character: str
    rune: str
    buy: bool = False


@attrs.frozen
class AddItem:
    """Bring an item of a catalogue base into play, held by ``owner`` (or nobody)."""

    item: str
    base: str
    owner: str | None = None


@attrs.frozen
class GiveItem:
    """Hand ``item`` to ``to``."""

    item: str
    to: str


@attrs.frozen
class EtchRune:
    """Etch ``rune`` onto ``item`` (``begin``: start a long Craft, finished by FinishEtching)."""

    item: str
    rune: str
    by: str
    begin: bool = False


@attrs.frozen
class FinishEtching:
    """Complete the etch in progress on ``item``."""

    item: str


@attrs.frozen
class TransferRune:
    """Move ``rune`` from ``source`` to ``target`` (``swap``: and that rune back).

    ``outcome`` is the Crafting check's degree of success as rolled at the table.
    """

    rune: str
    source: str
    target: str
    by: str
    swap: str | None = None
    days: int = 1
    outcome: str = "success"


@attrs.frozen
class InvestItem:
    """``by`` invests ``item`` (armor with runes)."""

    item: str
    by: str


@attrs.frozen
class ActivateRune:
    """``by`` activates ``rune`` on ``item`` (logged; the effect is the GM's)."""

    item: str
    rune: str
    by: str
    note: str = ""


@decider(AddCharacter)
def decide_add_character(state: State, c: AddCharacter) -> list[Event]:
    """Add a character with a new name, level 1..20 and a Crafting rank."""
    check_new_name(state, c.name)
    require(1 <= c.level <= 20, "PF2E-ETCH-1", f"level must be 1..20, not {c.level}")
    require(c.crafting in rules.RANKS, "PF2E-XFER-8",
            f"unknown Crafting rank {c.crafting!r} ({', '.join(rules.RANKS)})")
    return [CharacterAdded(name=c.name, level=c.level, crafting=c.crafting,
                           magical_crafting=c.magical_crafting)]


@decider(LearnFormula)
def decide_learn_formula(state: State, c: LearnFormula) -> list[Event]:
    """Record a formula, priced as an item formula of the rune's level (PF2E-FORMULA-1)."""
    who = character(state, c.character)
    rune = rules.rune(c.rune)
    require(rune.id not in who["formulas"], "PF2E-FORMULA-1",
            f"{c.character} already has the formula for {rune.id}")
    return [FormulaLearned(character=c.character, rune=rune.id, level=rune.level,
                           price_cp=rules.formula_price_cp(rune.level), bought=c.buy)]


@decider(AddItem)
def decide_add_item(state: State, c: AddItem) -> list[Event]:
    """Add an item whose base is in the catalogue, held by a known character or nobody."""
    check_new_name(state, c.item)
    base = rules.base_item(c.base)
    if c.owner is not None:
        character(state, c.owner)
    return [ItemAdded(item=c.item, base=base.id, owner=c.owner, category=base.category,
                      sheet=sheet_of(base, ()))]


@decider(GiveItem)
def decide_give_item(state: State, c: GiveItem) -> list[Event]:
    """Hand an item over; refused while an etch is in progress (held throughout, PF2E-ETCH-1)."""
    record = item(state, c.item)
    character(state, c.to)
    require(record["owner"] != c.to, "PF2E-ETCH-1", f"{c.to} already holds {c.item}")
    if record["etching"] is not None:
        raise RuleViolation("PF2E-ETCH-1", f"{c.item} has an etch in progress "
                            f"({etching_text(record['etching'])}): the crafter must hold it "
                            f"throughout; finish it first: pf2e finish {c.item}")
    return [ItemGiven(item=c.item, giver=record["owner"], to=c.to)]


@decider(EtchRune)
def decide_etch_rune(state: State, c: EtchRune) -> list[Event]:
    """Etch a rune now, or begin a long etch (PF2E-ETCH-1, PF2E-ETCH-2)."""
    item(state, c.item)
    check_no_etching(state, c.item)
    rune, plan = check_etch(state, c.item, c.rune, c.by)
    if c.begin:
        return [RuneEtchingBegun(item=c.item, rune=rune.id, by=c.by, level=rune.level)]
    return [_etched(state, c.item, rune, c.by, plan)]


def _etched(state: State, item_id: str, rune: rules.Rune, by: str,
            plan: rules.EtchPlan) -> RuneEtched:
    """Return the etch event, with the item as the etch leaves it (its sheet)."""
    breakdown = {"rune price": gp_text(rune.price_cp), "paid": gp_text(plan.cost_cp)}
    if plan.replaced:
        old = rules.runes()[plan.replaced]
        breakdown["upgrade"] = (f"{gp_text(rune.price_cp)} - {gp_text(old.price_cp)} "
                                f"({plan.replaced})")
    base = rules.base_item(state.items[item_id]["base"])
    return RuneEtched(item=item_id, rune=rune.id, by=by, level=rune.level,
                      price_cp=plan.cost_cp, replaces=plan.replaced, breakdown=breakdown,
                      sheet=sheet_of(base, plan.runes))


@decider(FinishEtching)
def decide_finish_etching(state: State, c: FinishEtching) -> list[Event]:
    """Complete the etch in progress on an item; the rune takes effect now."""
    etching = item(state, c.item)["etching"]
    require(etching is not None, "PF2E-ETCH-2", f"{c.item} has no etch in progress")
    rune, plan = check_etch(state, c.item, etching["rune"], etching["by"])
    return [_etched(state, c.item, rune, etching["by"], plan)]


@decider(InvestItem)
def decide_invest_item(state: State, c: InvestItem) -> list[Event]:
    """Invest armor with runes; the investing character must hold it (PF2E-INVEST-1)."""
    record = item(state, c.item)
    character(state, c.by)
    require(record["invested_trait"], "PF2E-INVEST-1",
            f"{c.item} ({record['name']}) has no invested trait: only armor with runes is invested")
    check_holds(state, c.by, c.item, "PF2E-INVEST-1")
    require(not record["invested"], "PF2E-INVEST-1", f"{c.by} has already invested {c.item}")
    return [ItemInvested(item=c.item, by=c.by)]


@decider(ActivateRune)
def decide_activate_rune(state: State, c: ActivateRune) -> list[Event]:
    """Log the activation of an active rune by the character holding (and investing) the item."""
    rune = rules.rune(c.rune)
    check_activation(state, c.item, rune.id, c.by)
    return [RuneActivated(item=c.item, rune=rune.id, by=c.by, note=c.note)]


@decider(TransferRune)
def decide_transfer_rune(state: State, c: TransferRune) -> list[Event]:
    """Move or swap runes; an unfitting target is a logged automatic critical failure."""
    require(c.outcome in rules.DEGREES, "PF2E-XFER-6",
            f"unknown outcome {c.outcome!r} ({', '.join(rules.DEGREES)})")
    try:
        moved, swapped, plan = check_transfer(state, c.rune, c.source, c.target, c.by, c.swap)
    except rules.RuneDoesNotFit as exc:
        return [_failed(state, c, "critical-failure", True, exc.cause.message)]
    terms = _terms(state, c, plan)
    if c.outcome in ("failure", "critical-failure"):
        return [_failed(state, c, c.outcome, False, "the Crafting check rolled at the table")]
    events: list[Event] = [RuneTransferred(
        rune=moved.id, source=c.source, target=c.target, by=c.by, dc=terms.dc,
        cost_cp=terms.cost_cp, days=terms.days, swap=swapped.id if swapped else None,
        outcome=c.outcome, breakdown=_breakdown(terms, plan),
        source_sheet=_sheet(state, c.source, plan.source_runes),
        target_sheet=_sheet(state, c.target, plan.target_runes))]
    if state.items[c.source]["category"] == "runestone" and not plan.source_runes:
        events.append(RunestoneCracked(item=c.source))
    return events


def _sheet(state: State, item_id: str, runes: tuple[str, ...]) -> ItemSheet:
    return sheet_of(rules.base_item(state.items[item_id]["base"]), runes)


def _terms(state: State, c: TransferRune, plan: rules.TransferPlan) -> rules.TransferTerms:
    who = state.characters[c.by]
    stone = state.items[c.source]["category"] == "runestone"
    return rules.transfer_terms(plan.levels, plan.prices_cp, stone, c.days, who["level"],
                                who["crafting"], c.outcome == "critical-success")


def _breakdown(terms: rules.TransferTerms, plan: rules.TransferPlan) -> dict[str, str]:
    free = not terms.base_cost_cp and max(plan.prices_cp) > 0
    return {"rune level (higher of a swap)": str(terms.level), "DC": str(terms.dc),
            "rune price (higher of a swap)": gp_text(max(plan.prices_cp)),
            "cost": "free from a runestone" if free else f"10% = {gp_text(terms.base_cost_cp)}",
            "saved by extra days": gp_text(terms.saved_cp), "days": str(terms.days)}


def _failed(state: State, c: TransferRune, outcome: str, automatic: bool,
            reason: str) -> RuneTransferFailed:
    """Return the failure event; a critical failure ruins 10% of the transfer's materials."""
    source = item(state, c.source)
    moved = rules.rune(c.rune)
    prices = [moved.price_cp] + ([rules.rune(c.swap).price_cp] if c.swap else [])
    levels = [moved.level] + ([rules.rune(c.swap).level] if c.swap else [])
    stone = source["category"] == "runestone"
    cost = 0 if stone else max(prices) // 10
    loss = cost // 10 if outcome == "critical-failure" else 0
    require(c.days >= 1, "PF2E-XFER-8", f"a transfer takes at least 1 day, not {c.days}")
    return RuneTransferFailed(rune=moved.id, source=c.source, target=c.target, by=c.by,
                              outcome=outcome, automatic=automatic, reason=reason,
                              dc=rules.dc_for_level(max(levels)), loss_cp=loss, days=c.days,
                              swap=rules.rune(c.swap).id if c.swap else None)
