"""SaGa Emerald Beyond events (``saga.*``): units and techs, the battle flow, damage."""

from tablelog.events.saga import upcasts as _upcasts  # noqa: F401 - registers the upcasters
from tablelog.events.saga.battle import (
    BattleStarted,
    BloodPaid,
    EffectApplied,
    PartyWiped,
    PoisonDamageTaken,
    ReleaseDamageTaken,
    TurnEnded,
    UnitIncapacitated,
)
from tablelog.events.saga.damage import (
    AttackAvoided,
    AttackDamageDealt,
    HPHealed,
    InstantDeathInflicted,
)
from tablelog.events.saga.units import TechDefined, Trait, UnitAdded, UnitSheet

__all__ = [
    "AttackAvoided",
    "AttackDamageDealt",
    "BattleStarted",
    "BloodPaid",
    "EffectApplied",
    "HPHealed",
    "InstantDeathInflicted",
    "PartyWiped",
    "PoisonDamageTaken",
    "ReleaseDamageTaken",
    "TechDefined",
    "Trait",
    "TurnEnded",
    "UnitAdded",
    "UnitIncapacitated",
    "UnitSheet",
]
