"""Pathfinder 2e events (immutable facts, past tense): characters and items, runes.

Money fields are integer copper pieces (``*_cp``); descriptions show gp. Every event records the
outcomes it stands for — an item's runes and the facts derived from them travel in an
:class:`ItemSheet` — so the evolvers only assign them (docs/pf2e.md, "What each event records").
Importing this package registers every ``pf2e.*`` event type and its upcasters.
"""

from tablelog.events.pf2e import upcasts as _upcasts  # noqa: F401 - registers the upcasters
from tablelog.events.pf2e.items import (
    CharacterAdded,
    FormulaLearned,
    ItemAdded,
    ItemGiven,
    ItemInvested,
    ItemSheet,
    RuneActivated,
)
from tablelog.events.pf2e.runes import (
    HIGHEST,
    RuneEtched,
    RuneEtchingBegun,
    RunestoneCracked,
    RuneTransferFailed,
    RuneTransferred,
)

__all__ = [
    "HIGHEST",
    "ItemSheet",
    "CharacterAdded",
    "FormulaLearned",
    "ItemAdded",
    "ItemGiven",
    "RuneEtchingBegun",
    "RuneEtched",
    "RuneTransferred",
    "RuneTransferFailed",
    "RunestoneCracked",
    "ItemInvested",
    "RuneActivated",
]
