"""Pathfinder 2e events about runes: etching (long or at once), transfers and swaps, runestones.

An etch or a transfer records each item it changed as an :class:`ItemSheet` (runes, name, level,
price, tiers, active and dormant property runes …), as the decider computed it.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event
from tablelog.events.pf2e.items import ItemSheet
from tablelog.rules.core import gp_text
from tablelog.rules.pf2e.catalogue import POTENCY_FAMILIES, runes

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


def _highest_text(breakdown: dict[str, str]) -> str:
    note = breakdown.get(HIGHEST)
    return f"; {note}" if note else ""


def _audit(rule_ids: list[str], breakdown: dict[str, str]) -> list[str]:
    """Return the audit lines of an event: the rule IDs that applied, then its breakdown."""
    lines = [f"rule {', '.join(rule_ids)}"] if rule_ids else []
    return lines + [f"{key} = {value}" for key, value in breakdown.items()]


def _outcome_text(outcome: str) -> str:
    return outcome.replace("-", " ")


def _is_fundamental(rune_id: str) -> bool:
    found = runes().get(rune_id)
    return found is not None and found.is_fundamental


def _may_change_dormancy(rune_id: str) -> bool:
    """True for runes whose move can make property runes dormant or active (PF2E-XFER-5)."""
    found = runes().get(rune_id)
    return found is not None and (not found.is_fundamental or found.family in POTENCY_FAMILIES)


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

    def describe(self) -> str:
        return f"{self.rune} -> {self.item} begun by {self.by} (no effect until finished)"


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

    def describe(self) -> str:
        upgrade = f", upgrades {self.replaces}" if self.replaces else ""
        return (
            f"{self.rune} -> {self.item} (level {self.level}, {gp_text(self.price_cp)}"
            f"{upgrade}{_highest_text(self.breakdown)})"
        )

    def explain(self) -> list[str]:
        """Etching, name, level and price; an upgrade adds PF2E-FUND-1 or PF2E-PROP-1, a rune
        outranked by a higher one of its kind PF2E-PROP-1."""
        ids = ["PF2E-ETCH-1", "PF2E-RUNE-3", "PF2E-RUNE-5", "PF2E-PRICE-1"]
        if self.replaces:
            ids.append("PF2E-FUND-1" if _is_fundamental(self.rune) else "PF2E-PROP-1")
        elif HIGHEST in self.breakdown:
            ids.append("PF2E-PROP-1")
        return _audit(ids, self.breakdown)


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

    def describe(self) -> str:
        back = f", {self.swap} back" if self.swap else ""
        day = "day" if self.days == 1 else "days"
        cost = gp_text(self.cost_cp) if self.cost_cp else "free"
        return (
            f"{self.rune}: {self.source} -> {self.target}{back} (DC {self.dc}, {cost}, "
            f"{self.days} {day}, {_outcome_text(self.outcome)}"
            f"{_highest_text(self.breakdown)})"
        )

    def explain(self) -> list[str]:
        """The transfer's rules; a swap, a dormancy change, a runestone or a rune outranked by
        a higher one of its kind (PF2E-PROP-1) add theirs."""
        ids = ["PF2E-XFER-1"]
        if self.swap:
            ids += ["PF2E-XFER-2"] + ([] if _is_fundamental(self.rune) else ["PF2E-XFER-3"])
        if any(_may_change_dormancy(r) for r in (self.rune, self.swap) if r):
            ids.append("PF2E-XFER-5")
        ids += ["PF2E-XFER-6"] + (["PF2E-XFER-7"] if self.swap else []) + ["PF2E-XFER-8"]
        if self.breakdown.get("cost", "").startswith("free from a runestone"):
            ids.append("PF2E-STONE-1")
        if HIGHEST in self.breakdown:
            ids.append("PF2E-PROP-1")
        return _audit(ids, self.breakdown)


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

    def describe(self) -> str:
        how = "automatic " if self.automatic else ""
        lost = f"{gp_text(self.loss_cp)} of materials lost" if self.loss_cp else "nothing lost"
        return (
            f"{self.rune}: {self.source} -> {self.target}: {how}{_outcome_text(self.outcome)} "
            f"(DC {self.dc}, {lost}; {self.reason}); the rune stays"
        )

    def explain(self) -> list[str]:
        """PF2E-XFER-6 (DC, cost); an automatic critical failure adds PF2E-XFER-4."""
        return _audit(["PF2E-XFER-4", "PF2E-XFER-6"] if self.automatic else ["PF2E-XFER-6"], {})


@event("pf2e.RunestoneCracked", entities=("item",), rules=("PF2E-STONE-1",))
@attrs.frozen
class RunestoneCracked(Event):
    """A runestone whose rune was transferred off cracked and is gone."""

    item: str

    def describe(self) -> str:
        return f"{self.item} cracked and is gone"
