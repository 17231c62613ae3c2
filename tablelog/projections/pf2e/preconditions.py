"""What each pf2e event depends on in the state it applies to (preconditions).

They read only the State and the event's recorded fields, never a catalogue: the undo decider runs
them to find the later actions that depend on an undone one, the session on every decided event,
``verify`` on the whole log. They raise :class:`RuleViolation` with the rule IDs and messages the
deciders use. An etch or a transfer also depends on the runes of the items it changed being the
ones it was decided on (its sheets record them): an earlier etch on the same item cannot be undone
under it, since its recorded name, level and price include that etch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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
from tablelog.projections.core import State, precondition
from tablelog.projections.pf2e.checks import (
    character,
    check_activation,
    check_etcher,
    check_invest,
    check_mover,
    check_new_name,
    check_no_etching,
    etching_text,
    item,
    nobody,
)
from tablelog.projections.pf2e.entities import Item
from tablelog.rules.core import RuleViolation, require
from tablelog.rules.pf2e.runesets import holds_no_rune_text, no_slot_text, without_one
from tablelog.text import Listed, Msg, Term, msg

__all__: list[str] = []


@precondition(CharacterAdded)
def _character_added(state: State, e: CharacterAdded) -> None:
    check_new_name(state, e.name)


@precondition(FormulaLearned)
def _formula_learned(state: State, e: FormulaLearned) -> None:
    who = character(state, e.character)
    require(
        e.rune not in who["formulas"],
        "PF2E-FORMULA-1",
        msg(
            "pf2e.formula.known",
            "{character} already has the formula for {rune}",
            character=e.character,
            rune=Term("pf2e.rune", e.rune),
        ),
    )


@precondition(ItemAdded)
def _item_added(state: State, e: ItemAdded) -> None:
    check_new_name(state, e.item)
    if e.owner is not None:
        character(state, e.owner)


@precondition(ItemGiven)
def _item_given(state: State, e: ItemGiven) -> None:
    record = item(state, e.item)
    character(state, e.to)
    require(
        record["owner"] == e.giver,
        "PF2E-ETCH-1",
        msg(
            "pf2e.give.held_by_other",
            "{item} is held by {owner}, not {giver}",
            item=e.item,
            owner=nobody(record["owner"]),
            giver=nobody(e.giver),
        ),
    )
    require(
        record["etching"] is None,
        "PF2E-ETCH-1",
        msg(
            "pf2e.give.etching",
            "{item} has an etch in progress: the crafter must hold it throughout",
            item=e.item,
        ),
    )


@precondition(RuneEtchingBegun)
def _etching_begun(state: State, e: RuneEtchingBegun) -> None:
    check_no_etching(state, e.item)
    check_etcher(state, e.item, e.rune, e.level, e.by, e.crafting)


@precondition(RuneEtched)
def _rune_etched(state: State, e: RuneEtched) -> None:
    etching = item(state, e.item)["etching"]
    if etching is not None and etching != {"rune": e.rune, "by": e.by}:
        raise RuleViolation(
            "PF2E-ETCH-2",
            msg(
                "pf2e.etch.another_in_progress",
                "{item} has another etch in progress ({etching})",
                item=e.item,
                etching=etching_text(etching),
            ),
        )
    check_etcher(state, e.item, e.rune, e.level, e.by, e.crafting)
    if e.sheet is not None:
        _check_etched_item(item(state, e.item), e)


def _check_etched_item(record: Item, e: RuneEtched) -> None:
    """Refuse an etch whose item no longer holds the runes it was decided on."""
    assert e.sheet is not None
    held = record["runes"]
    is_property = e.rune in e.sheet.property or e.rune in e.sheet.dormant
    if e.replaces is not None and e.replaces not in held:
        raise RuleViolation(
            "PF2E-PROP-1" if is_property else "PF2E-FUND-1",
            msg(
                "pf2e.etch.replaced_gone",
                "{item} no longer holds {replaces}, which {rune} upgrades",
                item=e.item,
                replaces=Term("pf2e.rune", e.replaces),
                rune=Term("pf2e.rune", e.rune),
            ),
        )
    if is_property and e.replaces is None:
        _require_slot(record, e.item, e.rune)
    _require_runes(
        e.item,
        held,
        _before(e.sheet, [e.rune], [e.replaces]),
        e.sheet,
        "PF2E-ETCH-1",
        msg("pf2e.dep.etched", "{rune} was etched", rune=Term("pf2e.rune", e.rune)),
    )


@precondition(RuneTransferred)
def _rune_transferred(state: State, e: RuneTransferred) -> None:
    check_mover(state, e.source, e.target, e.by)
    _require_held(state, e.source, e.rune, "PF2E-XFER-1")
    if e.swap is not None:
        _require_held(state, e.target, e.swap, "PF2E-XFER-3")
    if e.source_sheet is None or e.target_sheet is None:
        return
    target = item(state, e.target)
    if e.swap is None and (e.rune in e.target_sheet.property or e.rune in e.target_sheet.dormant):
        _require_slot(target, e.target, e.rune)
    what = msg(
        "pf2e.dep.moved",
        "{rune} was moved from {source} to {target}",
        rune=Term("pf2e.rune", e.rune),
        source=e.source,
        target=e.target,
    )
    _require_runes(
        e.source,
        item(state, e.source)["runes"],
        _before(e.source_sheet, [e.swap], [e.rune]),
        e.source_sheet,
        "PF2E-XFER-1",
        what,
    )
    _require_runes(
        e.target,
        target["runes"],
        _before(e.target_sheet, [e.rune], [e.swap]),
        e.target_sheet,
        "PF2E-XFER-1",
        what,
    )


@precondition(RuneTransferFailed)
def _transfer_failed(state: State, e: RuneTransferFailed) -> None:
    item(state, e.target)
    _require_held(state, e.source, e.rune, "PF2E-XFER-1")
    character(state, e.by)


@precondition(RunestoneCracked)
def _runestone_cracked(state: State, e: RunestoneCracked) -> None:
    record = item(state, e.item)
    require(
        record["category"] == "runestone",
        "PF2E-STONE-1",
        msg("pf2e.stone.not_a_runestone", "{item} is not a runestone", item=e.item),
    )
    require(
        not record["runes"],
        "PF2E-STONE-1",
        msg(
            "pf2e.stone.not_empty",
            "{item} still holds {runes}: only an empty runestone cracks",
            item=e.item,
            runes=_runes_listed(record["runes"]),
        ),
    )


@precondition(ItemInvested)
def _item_invested(state: State, e: ItemInvested) -> None:
    check_invest(state, e.item, e.by)


@precondition(RuneActivated)
def _rune_activated(state: State, e: RuneActivated) -> None:
    check_activation(state, e.item, e.rune, e.by)


def _require_held(state: State, item_id: str, rune: str, rule: str) -> None:
    held = item(state, item_id)["runes"]
    require(rune in held, rule, holds_no_rune_text(item_id, rune, held))


def _require_slot(record: Item, item_id: str, rune: str) -> None:
    """Refuse a property rune arriving where no property slot is free now (PF2E-RUNE-2).

    Nothing to check on a runestone, or on a record that does not know its potency (a v1 item
    whose base item the catalogue no longer knows: docs/pf2e.md, the legacy path).
    """
    potency = record["potency"]
    if record["category"] == "runestone" or potency is None:
        return
    props = [*(record["property"] or []), *(record["dormant"] or [])]
    require(len(props) < potency, "PF2E-RUNE-2", no_slot_text(item_id, potency, props, rune))


def _before(
    sheet: ItemSheet, arrived: Sequence[str | None], left: Sequence[str | None]
) -> list[str]:
    """Return the runes an item held before an event: its sheet's, less what arrived, plus what
    left (compared as a multiset: etch order is the rules' business, not the dependency's)."""
    runes = sheet.runes
    for rune in arrived:
        runes = without_one(runes, rune)
    return [*runes, *(r for r in left if r is not None)]


def _require_runes(
    item_id: str, held: Sequence[str], before: Sequence[str], sheet: ItemSheet, rule: str, what: Msg
) -> None:
    """Refuse when the item no longer holds the runes the event was decided on."""
    if Counter(held) != Counter(before):
        raise RuleViolation(
            rule,
            msg(
                "pf2e.dep.runes_changed",
                "{what} when {item} held {before}, making it {name}; it holds {held} now",
                what=what,
                item=item_id,
                before=_runes_text(before),
                name=sheet.name,
                held=_runes_text(held),
            ),
        )


def _runes_listed(ids: Sequence[str]) -> Listed:
    return Listed(tuple(Term("pf2e.rune", i) for i in ids), "comma")


def _runes_text(ids: Sequence[str]) -> Listed | Msg:
    return _runes_listed(ids) if ids else msg("pf2e.runes.none", "no runes")
