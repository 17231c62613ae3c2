"""Pathfinder 2e commands and their deciders (pure: state, command -> events or RuleViolation).

Importing this package registers every pf2e decider.
"""

from tablelog.commands.pf2e import party as _party  # noqa: F401 - registers the deciders
from tablelog.commands.pf2e import runes as _runes  # noqa: F401 - registers the deciders
from tablelog.commands.pf2e.records import (
    ActivateRune,
    AddCharacter,
    AddItem,
    EtchRune,
    FinishEtching,
    GiveItem,
    InvestItem,
    LearnFormula,
    TransferRune,
)

__all__ = [
    "AddCharacter", "LearnFormula", "AddItem", "GiveItem", "EtchRune", "FinishEtching",
    "TransferRune", "InvestItem", "ActivateRune",
]
