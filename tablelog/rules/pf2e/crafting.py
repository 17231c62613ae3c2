"""Crafting figures: DCs by level, formula prices, income per day, transfer cost/DC/days.

Money is integer copper pieces (cp); 1 gp = 10 sp = 100 cp.
"""

from __future__ import annotations

import attrs

from tablelog.rules.core import RuleViolation, require
from tablelog.text import Listed, Msg, msg

__all__ = [
    "DC_BY_LEVEL",
    "FORMULA_PRICE_CP",
    "INCOME_CP",
    "RANKS",
    "DEGREES",
    "RANKED_FAMILIES",
    "MAGICAL_CRAFTING_RANK",
    "crafting_rank_needed",
    "rank_at_least",
    "dc_for_level",
    "formula_price_cp",
    "income_per_day_cp",
    "unknown_rank_text",
    "transfer_days_text",
    "TransferTerms",
    "transfer_terms",
]

DC_BY_LEVEL = (
    14,
    15,
    16,
    18,
    19,
    20,
    22,
    23,
    24,
    26,
    27,
    28,
    30,
    31,
    32,
    34,
    35,
    36,
    38,
    39,
    40,
    42,
    44,
    46,
    48,
    50,
)
"""Level 0..25 -> DC. Source: GM Core Table 10-5 DCs by Level (as in foundryvtt/pf2e dc.ts)."""

FORMULA_PRICE_CP = (
    50,
    100,
    200,
    300,
    500,
    800,
    1300,
    1800,
    2500,
    3500,
    5000,
    7000,
    10000,
    15000,
    22500,
    32500,
    50000,
    75000,
    120000,
    200000,
    350000,
)
"""Item level 0..20 -> formula price in cp. Source: Player Core formula price table."""

RANKS = ("trained", "expert", "master", "legendary")

_GP = 100
_SP = 10
INCOME_CP: tuple[tuple[int, int, int, int], ...] = (
    (5, 5, 5, 5),
    (2 * _SP,) * 4,
    (3 * _SP,) * 4,
    (5 * _SP,) * 4,
    (7 * _SP, 8 * _SP, 8 * _SP, 8 * _SP),
    (9 * _SP, _GP, _GP, _GP),
    (150, 200, 200, 200),
    (200, 250, 250, 250),
    (250, 300, 300, 300),
    (300, 400, 400, 400),
    (400, 500, 600, 600),
    (500, 600, 800, 800),
    (600, 800, 1000, 1000),
    (700, 1000, 1500, 1500),
    (800, 1500, 2000, 2000),
    (1000, 2000, 2800, 2800),
    (1300, 2500, 3600, 4000),
    (1500, 3000, 4500, 5500),
    (2000, 4500, 7000, 9000),
    (3000, 6000, 10000, 13000),
    (4000, 7500, 15000, 20000),
    (5000, 9000, 17500, 30000),
)
"""Level 0..20, then "20 critical success" (index 21) -> cp per day for (trained, expert,
master, legendary). Source: Player Core Table 7-2 Income Earned (CRB Table 4-2)."""

DEGREES = ("critical-success", "success", "failure", "critical-failure")


MAGICAL_CRAFTING_RANK = "expert"
"""The Crafting rank Magical Crafting needs (issue 15 item 20)."""


RANKED_FAMILIES = ("weapon-potency", "armor-potency", "striking", "resilient")
"""Fundamental runes whose tiers need a higher Crafting rank to etch (PF2E-ETCH-1)."""


def crafting_rank_needed(family: str, tier: int) -> str:
    """Return the Crafting rank a crafter needs to etch a rune of ``family`` and ``tier``.

    Weapon and armor potency, striking and resilient: expert for the first tier, master for the
    second, legendary for the third (issue 15 item 20); any other rune: expert, the rank that
    Magical Crafting (the ability to craft magic items) needs.

    >>> crafting_rank_needed("weapon-potency", 3), crafting_rank_needed("flaming", 2)
    ('legendary', 'expert')

    Source: pf2e-runes.ja.txt, 彫刻の方法 (ルーンが持つ作成要件を満たしていなければならない);
    PF2E-ETCH-1.
    """
    if family in RANKED_FAMILIES:
        return RANKS[max(1, min(tier, len(RANKS) - 1))]
    return MAGICAL_CRAFTING_RANK


def rank_at_least(rank: str, needed: str) -> bool:
    """True if Crafting ``rank`` is ``needed`` or better (False for an unknown rank).

    >>> rank_at_least("master", "expert"), rank_at_least("trained", "expert")
    (True, False)
    """
    return rank in RANKS and needed in RANKS and RANKS.index(rank) >= RANKS.index(needed)


def dc_for_level(level: int) -> int:
    """Return the DC for a task of ``level`` (0..25).

    Source: pf2e-runes.ja.txt, ルーンの転送 (DCはアイテム・レベルによって決定); PF2E-XFER-6.
    """
    return DC_BY_LEVEL[max(0, min(level, len(DC_BY_LEVEL) - 1))]


def formula_price_cp(level: int) -> int:
    """Return the price in cp of a rune's formula: that of an item of the rune's level.

    Source: pf2e-runes.ja.txt, ルーンの処方; PF2E-FORMULA-1.
    """
    return FORMULA_PRICE_CP[max(0, min(level, 20))]


def unknown_rank_text(rank: str) -> Msg:
    """Return the refusal of a Crafting rank that is none of :data:`RANKS` (naming them)."""
    return msg(
        "pf2e.rank.unknown",
        "unknown Crafting rank {rank!r} ({ranks})",
        rank=rank,
        ranks=Listed(RANKS, "comma"),
    )


def transfer_days_text(days: int) -> Msg:
    """Return the refusal of a transfer of fewer than 1 day."""
    return msg("pf2e.transfer.min_days", "a transfer takes at least 1 day, not {days}", days=days)


def income_per_day_cp(level: int, rank: str, critical: bool = False) -> int:
    """Return what one extra day of Craft saves, in cp: Income Earned for level and rank.

    Args:
        level: The crafter's level (1..20).
        rank: Crafting proficiency: trained, expert, master or legendary.
        critical: A critical success uses the row for level + 1.

    Raises:
        RuleViolation: PF2E-XFER-8 for an unknown rank.
    """
    require(rank in RANKS, "PF2E-XFER-8", unknown_rank_text(rank))
    row = min(level + (1 if critical else 0), len(INCOME_CP) - 1)
    return INCOME_CP[max(row, 0)][RANKS.index(rank)]


@attrs.frozen
class TransferTerms:
    """What a rune transfer or swap costs.

    Attributes:
        level: The level used for the DC (the higher of two swapped runes).
        dc: Crafting DC.
        base_cost_cp: 10% of the (higher) rune price; 0 from a runestone.
        saved_cp: Saved by days beyond the first.
        cost_cp: What the crafter pays (``base_cost_cp - saved_cp``).
        days: Days spent (1 minimum).
    """

    level: int
    dc: int
    base_cost_cp: int
    saved_cp: int
    cost_cp: int
    days: int


def transfer_terms(
    levels: tuple[int, ...],
    prices_cp: tuple[int, ...],
    from_runestone: bool,
    days: int = 1,
    crafter_level: int = 1,
    rank: str = "expert",
    critical: bool = False,
) -> TransferTerms:
    """Return the DC, cost and days of moving (or swapping) runes.

    Args:
        levels: Level of the moved rune, or of both swapped runes.
        prices_cp: Price in cp of the moved rune, or of both swapped runes.
        from_runestone: The rune comes off a runestone (free, PF2E-STONE-1).
        days: Days spent; the first is the transfer itself, each further day saves the
            crafter's Income Earned, down to half the cost (Craft's raw-material floor).
        crafter_level: The crafter's level (for the per-day saving).
        rank: The crafter's Crafting rank.
        critical: The Crafting check was a critical success (saving uses level + 1).

    Raises:
        RuleViolation: PF2E-XFER-8 if ``days`` < 1.

    Source: pf2e-runes.ja.txt, ルーンの転送; PF2E-XFER-6, PF2E-XFER-7, PF2E-XFER-8.
    """
    if days < 1:
        raise RuleViolation("PF2E-XFER-8", transfer_days_text(days))
    level = max(levels)
    base = 0 if from_runestone else max(prices_cp) // 10
    per_day = income_per_day_cp(crafter_level, rank, critical)
    saved = min((days - 1) * per_day, base - (base + 1) // 2)
    return TransferTerms(
        level=level,
        dc=dc_for_level(level),
        base_cost_cp=base,
        saved_cp=saved,
        cost_cp=base - saved,
        days=days,
    )
