"""Changing the runes on items: etching (with upgrades) and transferring or swapping runes.

Pure functions on (base item, rune ids in etch order); they return the new rune lists and the
price, or raise :class:`RuleViolation` naming the rule and the values.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tablelog.rules.core import RuleViolation
from tablelog.rules.pf2e.catalogue import BaseItem, Rune, runes
from tablelog.rules.pf2e.items import potency
from tablelog.rules.pf2e.usage import check_fits
from tablelog.text import Listed, Msg, Term, msg, msgn

__all__ = [
    "EtchPlan",
    "plan_etch",
    "TransferPlan",
    "plan_transfer",
    "RuneDoesNotFit",
    "no_slot_text",
    "holds_no_rune_text",
    "stone_holds_one_text",
    "without_one",
]


class RuneDoesNotFit(RuleViolation):
    """A transfer onto an item that cannot take the rune: an automatic critical failure.

    Attributes:
        cause: The PF2E-RUNE-2 / PF2E-RUNE-6 refusal that makes the target unsuitable.
    """

    def __init__(self, cause: RuleViolation) -> None:
        super().__init__(
            "PF2E-XFER-4",
            msg(
                "pf2e.transfer.automatic_critical_failure",
                "automatic critical failure: {cause}",
                cause=cause.msg,
            ),
        )
        self.cause = cause


@attrs.frozen
class EtchPlan:
    """The outcome of etching one rune.

    Attributes:
        runes: The item's rune ids afterwards, etch order.
        replaced: The lower tier of the same rune that the etch upgrades, or None.
        cost_cp: Price paid: the rune's price, or the difference for an upgrade (PF2E-PRICE-1).
    """

    runes: tuple[str, ...]
    replaced: str | None
    cost_cp: int


def _held(ids: Sequence[str]) -> list[Rune]:
    return [runes()[i] for i in ids]


def _same_family(ids: Sequence[str], new: Rune) -> Rune | None:
    return next((r for r in _held(ids) if r.family == new.family), None)


def without_one(ids: Sequence[str], rune: str | None) -> tuple[str, ...]:
    """Return ``ids`` less the most recently etched ``rune`` (all of them if None is given).

    >>> without_one(["flaming", "frost", "flaming"], "flaming")
    ('flaming', 'frost')
    """
    if rune is None or rune not in ids:
        return tuple(ids)
    last = len(ids) - 1 - list(ids)[::-1].index(rune)
    return tuple(ids[:last]) + tuple(ids[last + 1 :])


def plan_etch(base: BaseItem, ids: Sequence[str], new: Rune, label: str = "the item") -> EtchPlan:
    """Return the runes and price after etching ``new`` onto an item.

    A stronger tier of a rune already on the item upgrades it (replaces the weaker one) and
    costs the price difference; the upgraded rune counts as the most recently etched. A
    fundamental rune of the same or a lower tier is refused (one of each kind). A property rune
    of the same or a lower tier than one already there is etched beside it, into a free slot:
    only the highest applies (PF2E-PROP-1).

    Args:
        base: The item's base item.
        ids: Rune ids on it now, etch order.
        new: The rune to etch.
        label: The item's name for messages.

    Raises:
        RuleViolation: PF2E-STONE-1 (runestone already holds a rune), PF2E-RUNE-2 / PF2E-RUNE-6
            (does not fit, no free property slot), PF2E-FUND-1 (same or lower fundamental tier
            already etched).

    Source: pf2e-runes.ja.txt, 基本ルーン, 性質ルーン, 彫刻の方法; PF2E-FUND-1, PF2E-PROP-1.
    """
    if base.category == "runestone" and ids:
        raise RuleViolation("PF2E-STONE-1", stone_holds_one_text(label, ids[0]))
    check_fits(new, base, _held(ids))
    old = _upgradable(ids, new)
    if old is not None:
        return EtchPlan(
            runes=without_one(ids, old.id) + (new.id,),
            replaced=old.id,
            cost_cp=new.price_cp - old.price_cp,
        )
    kept = _same_family(ids, new)
    if kept is not None and new.is_fundamental:
        raise RuleViolation(
            "PF2E-FUND-1",
            msg(
                "pf2e.etch.not_an_upgrade",
                "{item} already has {kept} (tier {kept_tier}); {new} (tier {new_tier}) would "
                "not be an upgrade",
                item=label,
                kept=_rune(kept.id),
                kept_tier=kept.tier,
                new=_rune(new.id),
                new_tier=new.tier,
            ),
        )
    if not new.is_fundamental and base.category != "runestone":
        _require_slot(ids, new, label)
    return EtchPlan(runes=tuple(ids) + (new.id,), replaced=None, cost_cp=new.price_cp)


def _upgradable(ids: Sequence[str], new: Rune) -> Rune | None:
    """Return the most recently etched rune that ``new`` upgrades: of its kind, a lower tier."""
    lower = [r for r in _held(ids) if r.family == new.family and r.tier < new.tier]
    return lower[-1] if lower else None


def _require_slot(ids: Sequence[str], new: Rune, label: str) -> None:
    props = [r.id for r in _held(ids) if not r.is_fundamental]
    slots = potency(ids)
    if len(props) >= slots:
        raise RuleViolation("PF2E-RUNE-2", no_slot_text(label, slots, props, new.id))


def _rune(rune_id: str) -> Term:
    return Term("pf2e.rune", rune_id)


def _runes(ids: Sequence[str]) -> Listed:
    return Listed(tuple(_rune(i) for i in ids), "comma")


def stone_holds_one_text(label: str, held: str) -> Msg:
    """Return the refusal of a second rune onto runestone ``label``, which holds ``held``."""
    return msg(
        "pf2e.stone.holds_one",
        "runestone {item} already holds {rune}; a runestone holds one rune",
        item=label,
        rune=_rune(held),
    )


def no_slot_text(label: str, slots: int, props: Sequence[str], new: str) -> Msg:
    """Return why ``new`` finds no property slot, naming the potency and the runes held.

    >>> from tablelog.text import english
    >>> english(no_slot_text("bow-1", 1, ["frost"], "flaming"))
    'bow-1 has potency +1 and its one property slot holds frost: no slot for flaming'
    """
    dormant: Msg | str = (
        msg("pf2e.slot.dormant", " ({runes} dormant)", runes=_runes(props[slots:]))
        if props[slots:]
        else ""
    )
    if not slots:
        return msg(
            "pf2e.slot.no_potency",
            "{item} has no potency rune, so no property slot for {new}{dormant}; etch a "
            "potency rune first",
            item=label,
            new=_rune(new),
            dormant=dormant,
        )
    return msgn(
        "pf2e.slot.full",
        "{item} has potency +{n} and its one property slot holds {runes}{dormant}: no slot "
        "for {new}",
        "{item} has potency +{n} and its {n} property slots hold {runes}{dormant}: no slot "
        "for {new}",
        slots,
        item=label,
        runes=_runes(props[:slots]),
        dormant=dormant,
        new=_rune(new),
    )


def holds_no_rune_text(label: str, rune: str, ids: Sequence[str]) -> Msg:
    """Return the refusal of moving ``rune`` off item ``label``, which holds ``ids``."""
    return msg(
        "pf2e.transfer.holds_no_rune",
        "{item} holds no {rune} rune ({holds})",
        item=label,
        rune=_rune(rune),
        holds=_holds_text(ids),
    )


@attrs.frozen
class TransferPlan:
    """The outcome of moving ``rune`` from a source item to a target item (maybe swapping).

    Attributes:
        source_runes, target_runes: Rune ids of both items afterwards, etch order.
        levels, prices_cp: Level and price of each moved rune (one, or two for a swap).
    """

    source_runes: tuple[str, ...]
    target_runes: tuple[str, ...]
    levels: tuple[int, ...]
    prices_cp: tuple[int, ...]


@attrs.frozen
class Holder:
    """An item taking part in a transfer: its name, base item and rune ids (etch order)."""

    label: str
    base: BaseItem
    runes: tuple[str, ...]


def plan_transfer(
    source: Holder, target: Holder, moved: Rune, swap: Rune | None = None
) -> TransferPlan:
    """Return both items' runes after moving ``moved`` (and swapping ``swap`` back).

    The moved rune counts as the most recently etched on its new item, so it is the first to
    go dormant there (PF2E-XFER-5). Property runes left over the potency limit stay dormant.

    Raises:
        RuneDoesNotFit: PF2E-XFER-4 when either item cannot take its incoming rune.
        RuleViolation: PF2E-XFER-1 (source lacks the rune), PF2E-XFER-3 (target lacks the swap
            rune), PF2E-XFER-2 (swap of different forms), PF2E-STONE-1 (runestone limits),
            PF2E-FUND-1 (same fundamental kind already there: swap instead), PF2E-XFER-2 (a
            swap that would leave either item with two fundamental runes of one kind),
            PF2E-RUNE-2 (no free property slot).

    Source: pf2e-runes.ja.txt, ルーンの転送; PF2E-XFER-1..5, PF2E-STONE-1.
    """
    _check_parties(source, target, moved, swap)
    rest_source = without_one(source.runes, moved.id)
    rest_target = without_one(target.runes, swap.id if swap is not None else None)
    _check_arrival(source, target, moved, swap, target, rest_target)
    if swap is not None:
        _check_arrival(source, target, moved, swap, source, rest_source)
    target_after = rest_target + (moved.id,)
    if swap is None and not moved.is_fundamental and target.base.category != "runestone":
        props = [r.id for r in _held(rest_target) if not r.is_fundamental]
        if len(props) >= potency(target_after):
            reason = no_slot_text(target.label, potency(target_after), props, moved.id)
            if props:
                reason = msg(
                    "pf2e.slot.full_swap_hint",
                    "{reason}; name the rune that comes back with --swap",
                    reason=reason,
                )
            raise RuleViolation("PF2E-RUNE-2", reason)
    source_after = rest_source + ((swap.id,) if swap is not None else ())
    moved_runes = (moved,) if swap is None else (moved, swap)
    return TransferPlan(
        source_runes=source_after,
        target_runes=target_after,
        levels=tuple(r.level for r in moved_runes),
        prices_cp=tuple(r.price_cp for r in moved_runes),
    )


def _check_parties(source: Holder, target: Holder, moved: Rune, swap: Rune | None) -> None:
    if source.label == target.label:
        raise RuleViolation(
            "PF2E-XFER-1",
            msg(
                "pf2e.transfer.to_itself",
                "cannot move {rune} from {item} to itself: name two different items",
                rune=_rune(moved.id),
                item=source.label,
            ),
        )
    if moved.id not in source.runes:
        raise RuleViolation("PF2E-XFER-1", holds_no_rune_text(source.label, moved.id, source.runes))
    if swap is None:
        if target.base.category == "runestone" and target.runes:
            raise RuleViolation("PF2E-STONE-1", stone_holds_one_text(target.label, target.runes[0]))
        return
    if swap.id not in target.runes:
        raise RuleViolation(
            "PF2E-XFER-3",
            msg(
                "pf2e.transfer.holds_no_swap_rune",
                "{item} holds no {rune} rune to swap ({holds})",
                item=target.label,
                rune=_rune(swap.id),
                holds=_holds_text(target.runes),
            ),
        )
    if swap.form != moved.form:
        raise RuleViolation(
            "PF2E-XFER-2",
            msg(
                "pf2e.swap.forms_differ",
                "cannot swap {moved} ({moved_form}) with {swap} ({swap_form}): a swap needs "
                "runes of the same form",
                moved=_rune(moved.id),
                moved_form=Term("pf2e.form", moved.form),
                swap=_rune(swap.id),
                swap_form=Term("pf2e.form", swap.form),
            ),
        )
    if "runestone" in (source.base.category, target.base.category):
        raise RuleViolation(
            "PF2E-STONE-1",
            msg(
                "pf2e.swap.runestone",
                "cannot swap {moved} and {swap}: a runestone cracks when its rune leaves, so "
                "it cannot take one back",
                moved=_rune(moved.id),
                swap=_rune(swap.id),
            ),
        )


def _holds_text(ids: Sequence[str]) -> Msg:
    if ids:
        return msg("pf2e.holds.runes", "it holds {runes}", runes=_runes(ids))
    return msg("pf2e.holds.none", "it holds no runes")


def _check_arrival(
    source: Holder,
    target: Holder,
    moved: Rune,
    swap: Rune | None,
    where: Holder,
    rest: tuple[str, ...],
) -> None:
    """Refuse a rune arriving on ``where`` (the target, or the source for a swap's return).

    A property rune may arrive beside a rune of its own kind (only the highest applies,
    PF2E-PROP-1); a fundamental rune may not (one of each kind, PF2E-FUND-1).

    Raises:
        RuneDoesNotFit: PF2E-XFER-4, the item cannot take the rune.
        RuleViolation: PF2E-FUND-1 (no swap: the target has that kind of fundamental rune
            already; hint: swap them), PF2E-XFER-2 (the swap would leave an item with two
            fundamental runes of one kind; the message says which and what to do instead).
    """
    incoming = moved if where is target else swap
    assert incoming is not None
    try:
        check_fits(incoming, where.base, _held(rest))
    except RuleViolation as cause:
        raise RuneDoesNotFit(cause) from None
    kept = _same_family(rest, incoming)
    if kept is None or not incoming.is_fundamental:
        return
    if swap is None:
        raise RuleViolation(
            "PF2E-FUND-1",
            msg(
                "pf2e.transfer.second_fundamental",
                "{item} already has {kept} and cannot hold a second {family} rune ({incoming}); "
                "swap them instead (--swap {kept_id})",
                item=where.label,
                kept=_rune(kept.id),
                family=Term("pf2e.family", kept.family),
                incoming=_rune(incoming.id),
                kept_id=kept.id,
            ),
        )
    giver = source if where is target else target
    alt = _same_family(target.runes, moved)
    hint = (
        msg(
            "pf2e.swap.hint_swap_for",
            "swap it for {item}'s {rune} instead (--swap {rune_id})",
            item=target.label,
            rune=_rune(alt.id),
            rune_id=alt.id,
        )
        if alt
        else msg("pf2e.swap.hint_move", "move {rune} without --swap", rune=_rune(moved.id))
    )
    raise RuleViolation(
        "PF2E-XFER-2",
        msg(
            "pf2e.swap.second_fundamental",
            "cannot swap {moved} (on {source}) for {swap} (on {target}): {where} keeps its own "
            "{kept}, so it cannot also take {incoming} from {giver} (an item holds one {family} "
            "rune, PF2E-FUND-1); {hint}",
            moved=_rune(moved.id),
            source=source.label,
            swap=_rune(swap.id),
            target=target.label,
            where=where.label,
            kept=_rune(kept.id),
            incoming=_rune(incoming.id),
            giver=giver.label,
            family=Term("pf2e.family", kept.family),
            hint=hint,
        ),
    )
