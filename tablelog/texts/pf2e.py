"""The texts of the pf2e events: their one-line descriptions and audit lines, as data.

An item's generated name (PF2E-RUNE-3) is a :class:`~tablelog.text.Shown` value
(:mod:`tablelog.rules.pf2e.names`): English shows the recorded name, Japanese and Korean the
name each writes from its runes and base item (:func:`_item_name`).

Money reads as gp (:func:`~tablelog.rules.core.gp_text`). A breakdown's values (and a failed
transfer's ``reason``) are the words the event recorded, shown as they are; its keys are terms
of the ``pf2e.breakdown`` glossary (:func:`~tablelog.texts.core.breakdown_lines`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events.pf2e import (
    HIGHEST,
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
from tablelog.rules.core import gp_text
from tablelog.rules.pf2e import names
from tablelog.rules.pf2e.catalogue import POTENCY_FAMILIES, runes
from tablelog.text import Msg, Term, msg, msgn
from tablelog.texts.core import breakdown_lines, describes, explains, rules_line, shows
from tablelog.texts.sheet import Adds, Gauge, Sheet, View

__all__: list[str] = []


@shows(names.KIND)
def _item_name(value: tuple[Any, ...], lang: str, say: Callable[[Any], str]) -> str | None:
    """An item's name as Japanese (``＋1ロングソード``) and Korean (``+1 롱소드``) write it;
    English: None (the recorded name). See :func:`tablelog.rules.pf2e.names.localized`."""
    return names.localized(value, lang)


def _rune(rune_id: str) -> Term:
    return Term("pf2e.rune", rune_id)


def _nobody(name: str | None) -> Msg | str:
    return name if name else msg("pf2e.nobody", "nobody")


_DEGREES = {
    "critical-success": msg("pf2e.degree.critical_success", "critical success"),
    "success": msg("pf2e.degree.success", "success"),
    "failure": msg("pf2e.degree.failure", "failure"),
    "critical-failure": msg("pf2e.degree.critical_failure", "critical failure"),
}
"""A Crafting check's degree of success as an event line says it (``critical success``)."""


def _outcome(outcome: str) -> Msg:
    known = _DEGREES.get(outcome)
    if known is not None:
        return known
    return msg("pf2e.degree.other", "{outcome}", outcome=outcome.replace("-", " "))


def _highest(breakdown: dict[str, str]) -> Msg | str:
    """The recorded note of an arriving rune outranked by a higher one of its kind."""
    note = breakdown.get(HIGHEST)
    return msg("pf2e.highest", "; {note}", note=note) if note else ""


def _is_fundamental(rune_id: str) -> bool:
    found = runes().get(rune_id)
    return found is not None and found.is_fundamental


def _may_change_dormancy(rune_id: str) -> bool:
    """True for runes whose move can make property runes dormant or active (PF2E-XFER-5)."""
    found = runes().get(rune_id)
    return found is not None and (not found.is_fundamental or found.family in POTENCY_FAMILIES)


@describes(CharacterAdded)
def _character_added(e: CharacterAdded) -> Msg:
    craft = (
        msg("pf2e.character.crafts_magic", "crafts magic items")
        if e.magical_crafting
        else msg("pf2e.character.no_magical_crafting", "no magical crafting")
    )
    return msg(
        "pf2e.character.added",
        "{name} (level {level}, {rank} in Crafting, {craft})",
        name=e.name,
        level=e.level,
        rank=Term("pf2e.rank", e.crafting),
        craft=craft,
    )


@describes(FormulaLearned)
def _formula_learned(e: FormulaLearned) -> Msg:
    how = (
        msg("pf2e.formula.bought", "bought")
        if e.bought
        else msg("pf2e.formula.not_charged", "not charged")
    )
    return msg(
        "pf2e.formula.learned",
        "{character} knows {rune} (formula level {level}, {price}, {how})",
        character=e.character,
        rune=_rune(e.rune),
        level=e.level,
        price=gp_text(e.price_cp),
        how=how,
    )


@describes(ItemAdded)
def _item_added(e: ItemAdded) -> Msg:
    held = msg("pf2e.item.held_by", ", held by {owner}", owner=e.owner) if e.owner else ""
    return msg(
        "pf2e.item.added",
        "{item}: {base}{held}",
        item=e.item,
        base=Term("pf2e.base_item", e.base),
        held=held,
    )


@describes(ItemGiven)
def _item_given(e: ItemGiven) -> Msg:
    return msg(
        "pf2e.item.given", "{item}: {giver} -> {to}", item=e.item, giver=_nobody(e.giver), to=e.to
    )


@describes(ItemInvested)
def _item_invested(e: ItemInvested) -> Msg:
    return msg("pf2e.item.invested", "{by} invested {item}", by=e.by, item=e.item)


@describes(RuneActivated)
def _rune_activated(e: RuneActivated) -> Msg:
    note = msg("pf2e.activated.note", ": {note}", note=e.note) if e.note else ""
    return msg(
        "pf2e.activated",
        "{by} activated {rune} on {item}{note}",
        by=e.by,
        rune=_rune(e.rune),
        item=e.item,
        note=note,
    )


@describes(RuneEtchingBegun)
def _etching_begun(e: RuneEtchingBegun) -> Msg:
    return msg(
        "pf2e.etch.begun",
        "{rune} -> {item} begun by {by} (no effect until finished)",
        rune=_rune(e.rune),
        item=e.item,
        by=e.by,
    )


@describes(RuneEtched)
def _rune_etched(e: RuneEtched) -> Msg:
    upgrade = (
        msg("pf2e.etch.upgrades", ", upgrades {replaces}", replaces=_rune(e.replaces))
        if e.replaces
        else ""
    )
    return msg(
        "pf2e.etch.etched",
        "{rune} -> {item} (level {level}, {price}{upgrade}{highest})",
        rune=_rune(e.rune),
        item=e.item,
        level=e.level,
        price=gp_text(e.price_cp),
        upgrade=upgrade,
        highest=_highest(e.breakdown),
    )


@explains(RuneEtched)
def _rune_etched_audit(e: RuneEtched) -> list[Msg]:
    """Etching, name, level and price; an upgrade adds PF2E-FUND-1 or PF2E-PROP-1, a rune
    outranked by a higher one of its kind PF2E-PROP-1."""
    ids = ["PF2E-ETCH-1", "PF2E-RUNE-3", "PF2E-RUNE-5", "PF2E-PRICE-1"]
    if e.replaces:
        ids.append("PF2E-FUND-1" if _is_fundamental(e.rune) else "PF2E-PROP-1")
    elif HIGHEST in e.breakdown:
        ids.append("PF2E-PROP-1")
    return rules_line(ids) + breakdown_lines("pf2e", e.breakdown)


@describes(RuneTransferred)
def _rune_transferred(e: RuneTransferred) -> Msg:
    back = msg("pf2e.transfer.back", ", {swap} back", swap=_rune(e.swap)) if e.swap else ""
    cost = gp_text(e.cost_cp) if e.cost_cp else msg("pf2e.transfer.free", "free")
    return msg(
        "pf2e.transfer.moved",
        "{rune}: {source} -> {target}{back} (DC {dc}, {cost}, {days}, {outcome}{highest})",
        rune=_rune(e.rune),
        source=e.source,
        target=e.target,
        back=back,
        dc=e.dc,
        cost=cost,
        days=msgn("pf2e.days", "{n} day", "{n} days", e.days),
        outcome=_outcome(e.outcome),
        highest=_highest(e.breakdown),
    )


@explains(RuneTransferred)
def _rune_transferred_audit(e: RuneTransferred) -> list[Msg]:
    """The transfer's rules; a swap, a dormancy change, a runestone or a rune outranked by a
    higher one of its kind (PF2E-PROP-1) add theirs."""
    ids = ["PF2E-XFER-1"]
    if e.swap:
        ids += ["PF2E-XFER-2"] + ([] if _is_fundamental(e.rune) else ["PF2E-XFER-3"])
    if any(_may_change_dormancy(r) for r in (e.rune, e.swap) if r):
        ids.append("PF2E-XFER-5")
    ids += ["PF2E-XFER-6"] + (["PF2E-XFER-7"] if e.swap else []) + ["PF2E-XFER-8"]
    if e.breakdown.get("cost", "").startswith("free from a runestone"):
        ids.append("PF2E-STONE-1")
    if HIGHEST in e.breakdown:
        ids.append("PF2E-PROP-1")
    return rules_line(ids) + breakdown_lines("pf2e", e.breakdown)


@describes(RuneTransferFailed)
def _transfer_failed(e: RuneTransferFailed) -> Msg:
    lost = (
        msg("pf2e.failed.lost", "{loss} of materials lost", loss=gp_text(e.loss_cp))
        if e.loss_cp
        else msg("pf2e.failed.nothing_lost", "nothing lost")
    )
    params = {
        "rune": _rune(e.rune),
        "source": e.source,
        "target": e.target,
        "outcome": _outcome(e.outcome),
        "dc": e.dc,
        "lost": lost,
        "reason": e.reason,
    }
    if e.automatic:
        return msg(
            "pf2e.failed.automatic",
            "{rune}: {source} -> {target}: automatic {outcome} (DC {dc}, {lost}; {reason}); "
            "the rune stays",
            **params,
        )
    return msg(
        "pf2e.failed",
        "{rune}: {source} -> {target}: {outcome} (DC {dc}, {lost}; {reason}); the rune stays",
        **params,
    )


@explains(RuneTransferFailed)
def _transfer_failed_audit(e: RuneTransferFailed) -> list[Msg]:
    """PF2E-XFER-6 (DC, cost); an automatic critical failure adds PF2E-XFER-4."""
    return rules_line(["PF2E-XFER-4", "PF2E-XFER-6"] if e.automatic else ["PF2E-XFER-6"])


@describes(RunestoneCracked)
def _runestone_cracked(e: RunestoneCracked) -> Msg:
    return msg("pf2e.stone.cracked", "{item} cracked and is gone", item=e.item)


def _palette(name: str, record: dict[str, Any], lang: str) -> list[str]:
    """A crafter's formulas as tablelog command lines (BCDice's checks are the core game's,
    which this tool does not track): an etch of each known rune onto ITEM."""
    return [f"tablelog pf2e etch ITEM {rune} --by {name}" for rune in record.get("formulas") or []]


SHEET = Sheet(
    system="pf2e",
    characters=View(
        figures=("level", "crafting", "magical_crafting", "spent_gp"),
        words=("formulas",),
    ),
    items=View(
        gauges=(Gauge("hp", "hp_max"),),
        figures=(
            "name",
            "owner",
            "level",
            "price_gp",
            "potency",
            "striking",
            "resilient",
            "reinforcing",
            "invested",
            "hardness",
            "bt",
        ),
        words=("property", "dormant"),
        internal=("runes", "invested_trait", "rarity", "category"),
    ),
    palette=_palette,
    terms=(
        ("crafting", "pf2e.rank"),
        ("formulas", "pf2e.rune"),
        ("property", "pf2e.rune"),
        ("dormant", "pf2e.rune"),
        ("runes", "pf2e.rune"),
        ("base_item", "pf2e.base_item"),
        ("category", "pf2e.category"),
        ("rarity", "pf2e.trait"),
    ),
    adds=(
        Adds(
            "pf2e character add",
            options=(("level", "--level", False), ("crafting", "--crafting", False)),
            switches=(
                ("magical_crafting", "true", "--magical-crafting"),
                ("magical_crafting", "false", "--no-magical-crafting"),
            ),
        ),
    ),
)
"""How a pf2e character and item read (the page, the ccfolia and Udonarium exports)."""
