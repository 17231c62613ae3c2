"""Deciders of pf2e runes: etching (at once or long), finishing, transferring and swapping
(pure: state, command -> events or RuleViolation). Each event records the items it changes as
:class:`ItemSheet` values computed here from today's catalogues."""

from __future__ import annotations

from tablelog.commands.core import decider
from tablelog.commands.pf2e import EtchRune, FinishEtching, TransferRune
from tablelog.events.core import Event
from tablelog.events.pf2e import (
    HIGHEST,
    ItemSheet,
    RuneEtched,
    RuneEtchingBegun,
    RunestoneCracked,
    RuneTransferFailed,
    RuneTransferred,
)
from tablelog.projections.core import State
from tablelog.projections.pf2e.checks import (
    character,
    check_etch,
    check_no_etching,
    check_transfer,
    item,
)
from tablelog.projections.pf2e.sheets import sheet_of
from tablelog.rules import pf2e as rules
from tablelog.rules.core import RuleViolation, gp_text, require
from tablelog.text import Listed, msg

__all__: list[str] = []


@decider(EtchRune)
def decide_etch_rune(state: State, c: EtchRune) -> list[Event]:
    """Etch a rune now, or begin a long etch (PF2E-ETCH-1, PF2E-ETCH-2)."""
    item(state, c.item)
    check_no_etching(state, c.item)
    rune, plan = check_etch(state, c.item, c.rune, c.by)
    if c.begin:
        return [
            RuneEtchingBegun(
                item=c.item,
                rune=rune.id,
                by=c.by,
                level=rune.level,
                crafting=rules.crafting_rank_needed(rune.family, rune.tier),
            )
        ]
    return [_etched(state, c.item, rune, c.by, plan)]


def _etched(
    state: State, item_id: str, rune: rules.Rune, by: str, plan: rules.EtchPlan
) -> RuneEtched:
    """Return the etch event, with the item as the etch leaves it (its sheet)."""
    breakdown = {"rune price": gp_text(rune.price_cp), "paid": gp_text(plan.cost_cp)}
    if plan.replaced:
        old = rules.runes()[plan.replaced]
        breakdown["upgrade"] = (
            f"{gp_text(rune.price_cp)} - {gp_text(old.price_cp)} ({plan.replaced})"
        )
    sheet = _sheet(state, item_id, plan.runes)
    _note_highest(breakdown, [(sheet, rune.id)])
    return RuneEtched(
        item=item_id,
        rune=rune.id,
        by=by,
        level=rune.level,
        price_cp=plan.cost_cp,
        replaces=plan.replaced,
        breakdown=breakdown,
        sheet=sheet,
        crafting=rules.crafting_rank_needed(rune.family, rune.tier),
    )


def _note_highest(breakdown: dict[str, str], arrivals: list[tuple[ItemSheet, str]]) -> None:
    """Say in the breakdown which arriving rune has no effect beside a higher one of its kind.

    Source: pf2e-runes.ja.txt, 性質ルーン (最も高レベルのものが1つだけ適用される); PF2E-PROP-1.
    """
    notes = []
    for sheet, rune_id in arrivals:
        family = rules.runes()[rune_id].family
        top = next((p for p in sheet.property if rules.runes()[p].family == family), None)
        if rune_id in sheet.dormant and top is not None:
            notes.append(f"{top} applies, {rune_id} has no effect")
    if notes:
        breakdown[HIGHEST] = "; ".join(notes)


@decider(FinishEtching)
def decide_finish_etching(state: State, c: FinishEtching) -> list[Event]:
    """Complete the etch in progress on an item; the rune takes effect now."""
    etching = item(state, c.item)["etching"]
    if etching is None:
        raise RuleViolation(
            "PF2E-ETCH-2",
            msg("pf2e.finish.nothing", "{item} has no etch in progress", item=c.item),
        )
    rune, plan = check_etch(state, c.item, etching["rune"], etching["by"])
    return [_etched(state, c.item, rune, etching["by"], plan)]


@decider(TransferRune)
def decide_transfer_rune(state: State, c: TransferRune) -> list[Event]:
    """Move or swap runes; an unfitting target is a logged automatic critical failure."""
    require(
        c.outcome in rules.DEGREES,
        "PF2E-XFER-6",
        msg(
            "pf2e.transfer.unknown_outcome",
            "unknown outcome {outcome!r} ({degrees})",
            outcome=c.outcome,
            degrees=Listed(rules.DEGREES, "comma"),
        ),
    )
    try:
        moved, swapped, plan = check_transfer(state, c.rune, c.source, c.target, c.by, c.swap)
    except rules.RuneDoesNotFit as exc:
        return [_failed(state, c, "critical-failure", True, exc.cause.message)]
    terms = _terms(state, c, plan)
    if c.outcome in ("failure", "critical-failure"):
        return [_failed(state, c, c.outcome, False, "the Crafting check rolled at the table")]
    source_sheet = _sheet(state, c.source, plan.source_runes)
    target_sheet = _sheet(state, c.target, plan.target_runes)
    breakdown = _breakdown(terms, plan)
    arrivals = [(target_sheet, moved.id)]
    if swapped is not None:
        arrivals.append((source_sheet, swapped.id))
    _note_highest(breakdown, arrivals)
    events: list[Event] = [
        RuneTransferred(
            rune=moved.id,
            source=c.source,
            target=c.target,
            by=c.by,
            dc=terms.dc,
            cost_cp=terms.cost_cp,
            days=terms.days,
            swap=swapped.id if swapped else None,
            outcome=c.outcome,
            breakdown=breakdown,
            source_sheet=source_sheet,
            target_sheet=target_sheet,
        )
    ]
    if item(state, c.source)["category"] == "runestone" and not plan.source_runes:
        events.append(RunestoneCracked(item=c.source))
    return events


def _sheet(state: State, item_id: str, runes: tuple[str, ...]) -> ItemSheet:
    return sheet_of(rules.base_item(item(state, item_id)["base"]), runes)


def _terms(state: State, c: TransferRune, plan: rules.TransferPlan) -> rules.TransferTerms:
    who = character(state, c.by)
    stone = item(state, c.source)["category"] == "runestone"
    return rules.transfer_terms(
        plan.levels,
        plan.prices_cp,
        stone,
        c.days,
        who["level"],
        who["crafting"],
        c.outcome == "critical-success",
    )


def _breakdown(terms: rules.TransferTerms, plan: rules.TransferPlan) -> dict[str, str]:
    free = not terms.base_cost_cp and max(plan.prices_cp) > 0
    return {
        "rune level (higher of a swap)": str(terms.level),
        "DC": str(terms.dc),
        "rune price (higher of a swap)": gp_text(max(plan.prices_cp)),
        "cost": "free from a runestone" if free else f"10% = {gp_text(terms.base_cost_cp)}",
        "saved by extra days": gp_text(terms.saved_cp),
        "days": str(terms.days),
    }


def _failed(
    state: State, c: TransferRune, outcome: str, automatic: bool, reason: str
) -> RuneTransferFailed:
    """Return the failure event; a critical failure ruins 10% of the transfer's materials."""
    source = item(state, c.source)
    moved = rules.rune(c.rune)
    prices = [moved.price_cp] + ([rules.rune(c.swap).price_cp] if c.swap else [])
    levels = [moved.level] + ([rules.rune(c.swap).level] if c.swap else [])
    stone = source["category"] == "runestone"
    cost = 0 if stone else max(prices) // 10
    loss = cost // 10 if outcome == "critical-failure" else 0
    require(c.days >= 1, "PF2E-XFER-8", rules.transfer_days_text(c.days))
    return RuneTransferFailed(
        rune=moved.id,
        source=c.source,
        target=c.target,
        by=c.by,
        outcome=outcome,
        automatic=automatic,
        reason=reason,
        dc=rules.dc_for_level(max(levels)),
        loss_cp=loss,
        days=c.days,
        swap=rules.rune(c.swap).id if c.swap else None,
    )
