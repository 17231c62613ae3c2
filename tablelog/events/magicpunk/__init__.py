"""Magic Punk events (immutable facts, past tense), by domain area.

Importing this package registers every ``magicpunk.*`` event type.
"""

from tablelog.events.magicpunk import upcasts as _upcasts  # noqa: F401 - registers the upcasters
from tablelog.events.magicpunk.cards import (
    CardsCharged,
    CardsCirculated,
    CardsDrawn,
    CardsPlayed,
)
from tablelog.events.magicpunk.growth import (
    CheckRolled,
    LeisureEventTaken,
    LeisureStarted,
    MoneyGained,
    ProcurementAssessed,
    Rebuilt,
    ResidenceShared,
    SpellLearned,
)
from tablelog.events.magicpunk.table import (
    BriefingEnded,
    BriefingStarted,
    CharacterAdded,
    CoverTaken,
    DamageTaken,
    DawnReached,
    Healed,
    ItemAdded,
    ItemReadied,
    PreparationTaken,
    RestTaken,
    RoundStarted,
    TurnTaken,
)

__all__ = [
    "BriefingEnded",
    "BriefingStarted",
    "CardsCharged",
    "CardsCirculated",
    "CardsDrawn",
    "CardsPlayed",
    "CharacterAdded",
    "CheckRolled",
    "CoverTaken",
    "DamageTaken",
    "DawnReached",
    "Healed",
    "ItemAdded",
    "ItemReadied",
    "LeisureEventTaken",
    "LeisureStarted",
    "MoneyGained",
    "PreparationTaken",
    "ProcurementAssessed",
    "Rebuilt",
    "ResidenceShared",
    "RestTaken",
    "RoundStarted",
    "SpellLearned",
    "TurnTaken",
]
