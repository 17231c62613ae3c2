"""Fate events (immutable facts, past tense), by domain area.

Importing this package registers every ``fate.*`` event type.
"""

from tablelog.events.fate import upcasts as _upcasts  # noqa: F401 - registers the upcasters
from tablelog.events.fate.battle import (
    BattleEnded,
    BattleStarted,
    CrestHealed,
    RoundStarted,
    TilesRefilled,
    TurnStarted,
    UpkeepPaid,
)
from tablelog.events.fate.casting import (
    Chanted,
    CodeCast,
    DamageTaken,
    EffectRaised,
    Healed,
    InjuryHealed,
    ManaAbsorbed,
)
from tablelog.events.fate.characters import (
    CharacterGradeSet,
    MadnessToggled,
    MasterAdded,
    PhantasmAdded,
    RowChanged,
    ServantAdded,
)
from tablelog.events.fate.phantasm import (
    AbilityUsed,
    ArmyDismissed,
    ArmySummoned,
    FieldEnded,
    FieldRaised,
    PhantasmReleased,
)

__all__ = [
    "AbilityUsed",
    "ArmyDismissed",
    "ArmySummoned",
    "BattleEnded",
    "BattleStarted",
    "CharacterGradeSet",
    "Chanted",
    "CodeCast",
    "CrestHealed",
    "DamageTaken",
    "EffectRaised",
    "FieldEnded",
    "FieldRaised",
    "Healed",
    "InjuryHealed",
    "MadnessToggled",
    "ManaAbsorbed",
    "MasterAdded",
    "PhantasmAdded",
    "PhantasmReleased",
    "RoundStarted",
    "RowChanged",
    "ServantAdded",
    "TilesRefilled",
    "TurnStarted",
    "UpkeepPaid",
]
