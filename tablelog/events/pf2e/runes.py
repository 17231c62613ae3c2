"""Pathfinder 2e events about runes: etching (long or at once), transfers and swaps, runestones.

An etch or a transfer records each item it changed as an :class:`ItemSheet` (runes, name, level,
price, tiers, active and dormant property runes …), as the decider computed it.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event
from tablelog.events.pf2e.items import ItemSheet

__all__ = [
    "HIGHEST",
    "RuneEtchingBegun",
    "RuneEtched",
    "RuneTransferred",
    "RuneTransferFailed",
    "RunestoneCracked",
]


HIGHEST = "only the highest applies"
"""Breakdown key naming an arriving property rune that has no effect beside a higher one of its
kind (PF2E-PROP-1); the event line repeats it."""


@event(
    "pf2e.RuneEtchingBegun",
    version=3,
    entities=("item", "by"),
    rules=("PF2E-ETCH-1", "PF2E-ETCH-2"),
)
@attrs.frozen
class RuneEtchingBegun(Event):
    """A long Craft started: the rune has no effect until it is finished.

    v2 records the rune's ``level``, v3 the Crafting rank it needs (``crafting``): the crafter
    must reach both (PF2E-ETCH-1); None in older records.
    """

    item: str
    rune: str
    by: str
    level: int | None = None
    crafting: str | None = None


@event(
    "pf2e.RuneEtched",
    version=3,
    entities=("item", "by"),
    rules=(
        "PF2E-ETCH-1",
        "PF2E-RUNE-3",
        "PF2E-RUNE-5",
        "PF2E-PRICE-1",
        "PF2E-FUND-1",
        "PF2E-PROP-1",
    ),
)
@attrs.frozen
class RuneEtched(Event):
    """A rune (of ``level``) was etched (``replaces``: the lower tier it upgrades); ``by`` paid
    ``price_cp``.

    v2 records the item as the etch left it (``sheet``); None in a v1 record (the evolver's
    legacy path derives it from today's catalogue). v3 records the Crafting rank the rune needs
    (``crafting``, PF2E-ETCH-1); None in older records.
    """

    item: str
    rune: str
    by: str
    level: int
    price_cp: int
    replaces: str | None = None
    breakdown: dict[str, str] = attrs.Factory(dict)
    sheet: ItemSheet | None = None
    crafting: str | None = None


@event(
    "pf2e.RuneTransferred",
    version=2,
    entities=("source", "target", "by"),
    rules=(
        "PF2E-XFER-1",
        "PF2E-XFER-2",
        "PF2E-XFER-3",
        "PF2E-XFER-5",
        "PF2E-XFER-6",
        "PF2E-XFER-7",
        "PF2E-XFER-8",
        "PF2E-STONE-1",
        "PF2E-PROP-1",
    ),
)
@attrs.frozen
class RuneTransferred(Event):
    """A rune moved from ``source`` to ``target`` (and ``swap`` back), with Craft.

    v2 records both items as the transfer left them (``source_sheet``, ``target_sheet``); None
    in a v1 record (the evolver's legacy path derives them from today's catalogue).
    """

    rune: str
    source: str
    target: str
    by: str
    dc: int
    cost_cp: int
    days: int = 1
    swap: str | None = None
    outcome: str = "success"
    breakdown: dict[str, str] = attrs.Factory(dict)
    source_sheet: ItemSheet | None = None
    target_sheet: ItemSheet | None = None


@event(
    "pf2e.RuneTransferFailed",
    entities=("source", "target", "by"),
    rules=("PF2E-XFER-4", "PF2E-XFER-6"),
)
@attrs.frozen
class RuneTransferFailed(Event):
    """A transfer failed: the runes stay; a critical failure ruins ``loss_cp`` of materials."""

    rune: str
    source: str
    target: str
    by: str
    outcome: str
    automatic: bool
    reason: str
    dc: int
    loss_cp: int
    days: int = 1
    swap: str | None = None


@event("pf2e.RunestoneCracked", entities=("item",), rules=("PF2E-STONE-1",))
@attrs.frozen
class RunestoneCracked(Event):
    """A runestone whose rune was transferred off cracked and is gone."""

    item: str
