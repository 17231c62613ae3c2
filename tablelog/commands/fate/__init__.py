"""Fate commands (imperative records) and their deciders, by domain area.

Importing this package registers every fate decider.
"""

from tablelog.commands.fate.abilities import UseAbility
from tablelog.commands.fate.battle import (
    Dismiss,
    EndBattle,
    Morning,
    Rest,
    StartBattle,
    StartRound,
    StartTurn,
)
from tablelog.commands.fate.casting import Cast, Chant, TakeDamage
from tablelog.commands.fate.release import Release
from tablelog.commands.fate.setup import (
    AddMaster,
    AddPhantasm,
    AddServant,
    AddUniqueAbility,
    MoveRow,
    SetCharacterGrade,
    ToggleMadness,
)

__all__ = [
    "AddMaster",
    "AddPhantasm",
    "AddServant",
    "AddUniqueAbility",
    "Cast",
    "Chant",
    "Dismiss",
    "EndBattle",
    "Morning",
    "MoveRow",
    "Release",
    "Rest",
    "SetCharacterGrade",
    "StartBattle",
    "StartRound",
    "StartTurn",
    "TakeDamage",
    "ToggleMadness",
    "UseAbility",
]
