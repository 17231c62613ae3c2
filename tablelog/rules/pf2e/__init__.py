"""Pathfinder 2e runes: pure rule math and the packaged catalogues (no I/O beyond reading them).

Source: seeds/pf2e-runes.ja.txt (GM Core pp. 224-225); rule IDs PF2E-* in RULES.md.
Money is integer copper pieces (1 gp = 100 cp) throughout.
"""

from tablelog.rules.pf2e.catalogue import (
    POTENCY_FAMILIES,
    BaseItem,
    Rune,
    base_item,
    base_items,
    cp_from_gp_text,
    gp_from_cp,
    resolve_rune,
    rune,
    runes,
)
from tablelog.rules.pf2e.crafting import (
    DEGREES,
    MAGICAL_CRAFTING_RANK,
    RANKS,
    TransferTerms,
    crafting_rank_needed,
    dc_for_level,
    formula_price_cp,
    income_per_day_cp,
    rank_at_least,
    transfer_terms,
)
from tablelog.rules.pf2e.items import (
    REINFORCING,
    ItemFacts,
    base_rarity,
    item_facts,
    item_level,
    item_name,
    item_price_cp,
    potency,
    shield_stats,
    split_property,
    tier_of,
)
from tablelog.rules.pf2e.runesets import (
    EtchPlan,
    Holder,
    RuneDoesNotFit,
    TransferPlan,
    plan_etch,
    plan_transfer,
)
from tablelog.rules.pf2e.usage import check_fits, fits, is_thrown

__all__ = [
    "POTENCY_FAMILIES", "BaseItem", "Rune", "base_item", "base_items", "cp_from_gp_text",
    "gp_from_cp", "resolve_rune", "rune", "runes",
    "DEGREES", "MAGICAL_CRAFTING_RANK", "RANKS", "TransferTerms", "crafting_rank_needed",
    "dc_for_level", "formula_price_cp", "income_per_day_cp", "rank_at_least", "transfer_terms",
    "REINFORCING", "ItemFacts", "base_rarity", "item_facts", "item_level", "item_name",
    "item_price_cp", "potency", "shield_stats", "split_property", "tier_of",
    "EtchPlan", "Holder", "RuneDoesNotFit", "TransferPlan", "plan_etch", "plan_transfer",
    "check_fits", "fits", "is_thrown",
]
