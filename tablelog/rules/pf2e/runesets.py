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

__all__ = ["EtchPlan", "plan_etch", "TransferPlan", "plan_transfer", "RuneDoesNotFit"]


class RuneDoesNotFit(RuleViolation):
    """A transfer onto an item that cannot take the rune: an automatic critical failure.

    Attributes:
        cause: The PF2E-RUNE-2 / PF2E-RUNE-6 refusal that makes the target unsuitable.
    """

    def __init__(self, cause: RuleViolation) -> None:
        super().__init__("PF2E-XFER-4", f"automatic critical failure: {cause.message}")
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


def plan_etch(base: BaseItem, ids: Sequence[str], new: Rune, label: str = "the item") -> EtchPlan:
    """Return the runes and price after etching ``new`` onto an item.

    A stronger tier of a rune already on the item replaces it and costs the price difference;
    the same or a lower tier is refused. An upgraded rune counts as the most recently etched.

    Args:
        base: The item's base item.
        ids: Rune ids on it now, etch order.
        new: The rune to etch.
        label: The item's name for messages.

    Raises:
        RuleViolation: PF2E-STONE-1 (runestone already holds a rune), PF2E-RUNE-2 / PF2E-RUNE-6
            (does not fit, no free property slot), PF2E-FUND-1 / PF2E-PROP-1 (same or lower
            tier already etched).

    Source: pf2e-runes.ja.txt, 基本ルーン, 性質ルーン, 彫刻の方法; PF2E-FUND-1, PF2E-PROP-1.
    """
    if base.category == "runestone" and ids:
        raise RuleViolation("PF2E-STONE-1", f"runestone {label} already holds {ids[0]}; "
                            "a runestone holds one rune")
    check_fits(new, base, _held(ids))
    old = _same_family(ids, new)
    if old is not None:
        rule = "PF2E-FUND-1" if new.is_fundamental else "PF2E-PROP-1"
        if old.tier >= new.tier:
            raise RuleViolation(rule, f"{label} already has {old.id} (tier {old.tier}); "
                                f"{new.id} (tier {new.tier}) would not be an upgrade")
        after = tuple(i for i in ids if i != old.id) + (new.id,)
        return EtchPlan(runes=after, replaced=old.id, cost_cp=new.price_cp - old.price_cp)
    if not new.is_fundamental and base.category != "runestone":
        _require_slot(ids, new, label)
    return EtchPlan(runes=tuple(ids) + (new.id,), replaced=None, cost_cp=new.price_cp)


def _require_slot(ids: Sequence[str], new: Rune, label: str) -> None:
    props = [r.id for r in _held(ids) if not r.is_fundamental]
    slots = potency(ids)
    if len(props) >= slots:
        held = ", ".join(props) or "none"
        raise RuleViolation("PF2E-RUNE-2", f"{label} has potency +{slots} and holds "
                            f"{len(props)} property rune(s) ({held}): no slot for {new.id}")


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


def plan_transfer(source: Holder, target: Holder, moved: Rune,
                  swap: Rune | None = None) -> TransferPlan:
    """Return both items' runes after moving ``moved`` (and swapping ``swap`` back).

    The moved rune counts as the most recently etched on its new item, so it is the first to
    go dormant there (PF2E-XFER-5). Property runes left over the potency limit stay dormant.

    Raises:
        RuneDoesNotFit: PF2E-XFER-4 when either item cannot take its incoming rune.
        RuleViolation: PF2E-XFER-1 (source lacks the rune), PF2E-XFER-3 (target lacks the swap
            rune), PF2E-XFER-2 (swap of different forms), PF2E-STONE-1 (runestone limits),
            PF2E-FUND-1 / PF2E-PROP-1 (same rune kind already there: swap instead),
            PF2E-RUNE-2 (no free property slot).

    Source: pf2e-runes.ja.txt, ルーンの転送; PF2E-XFER-1..5, PF2E-STONE-1.
    """
    _check_parties(source, target, moved, swap)
    rest_source = tuple(i for i in source.runes if i != moved.id)
    rest_target = tuple(i for i in target.runes if swap is None or i != swap.id)
    _check_arrival(target, rest_target, moved)
    if swap is not None:
        _check_arrival(source, rest_source, swap)
    target_after = rest_target + (moved.id,)
    if swap is None and not moved.is_fundamental and target.base.category != "runestone":
        props = [r.id for r in _held(rest_target) if not r.is_fundamental]
        if len(props) >= potency(target_after):
            raise RuleViolation("PF2E-RUNE-2", f"{target.label} has potency "
                                f"+{potency(target_after)} and holds {len(props)} property "
                                f"rune(s) ({', '.join(props) or 'none'}): no slot for "
                                f"{moved.id}; name one to swap with --swap")
    source_after = rest_source + ((swap.id,) if swap is not None else ())
    moved_runes = (moved,) if swap is None else (moved, swap)
    return TransferPlan(source_runes=source_after, target_runes=target_after,
                        levels=tuple(r.level for r in moved_runes),
                        prices_cp=tuple(r.price_cp for r in moved_runes))


def _check_parties(source: Holder, target: Holder, moved: Rune, swap: Rune | None) -> None:
    if source.label == target.label:
        raise RuleViolation("PF2E-XFER-1", f"{moved.id}: source and target are both "
                            f"{source.label}")
    if moved.id not in source.runes:
        raise RuleViolation("PF2E-XFER-1", f"{source.label} holds no {moved.id} rune "
                            f"(it holds: {', '.join(source.runes) or 'none'})")
    if swap is None:
        if target.base.category == "runestone" and target.runes:
            raise RuleViolation("PF2E-STONE-1", f"runestone {target.label} already holds "
                                f"{target.runes[0]}; a runestone holds one rune")
        return
    if swap.id not in target.runes:
        raise RuleViolation("PF2E-XFER-3", f"{target.label} holds no {swap.id} rune to swap "
                            f"(it holds: {', '.join(target.runes) or 'none'})")
    if swap.form != moved.form:
        raise RuleViolation("PF2E-XFER-2", f"cannot swap {moved.id} ({moved.form}) with "
                            f"{swap.id} ({swap.form}): a swap needs runes of the same form")
    if "runestone" in (source.base.category, target.base.category):
        raise RuleViolation("PF2E-STONE-1", f"cannot swap {moved.id} and {swap.id}: a "
                            "runestone cracks when its rune leaves, so it cannot take one back")


def _check_arrival(holder: Holder, rest: tuple[str, ...], incoming: Rune) -> None:
    try:
        check_fits(incoming, holder.base, _held(rest))
    except RuleViolation as cause:
        raise RuneDoesNotFit(cause) from None
    same = _same_family(rest, incoming)
    if same is not None:
        rule = "PF2E-FUND-1" if incoming.is_fundamental else "PF2E-PROP-1"
        raise RuleViolation(rule, f"{holder.label} already has {same.id}: it cannot hold a "
                            f"second {incoming.family} rune ({incoming.id}); swap them instead "
                            f"(--swap {same.id})")
