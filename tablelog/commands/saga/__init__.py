"""SaGa Emerald Beyond commands and their deciders (importing this registers them)."""

from tablelog.commands.saga.battle import EndTurn, StartBattle, WipeParty
from tablelog.commands.saga.cast import CastTech
from tablelog.commands.saga.status import ApplyBuff, PoisonUnit, ReleaseUnit
from tablelog.commands.saga.units import AddUnit, DefineTech

__all__ = [
    "AddUnit",
    "ApplyBuff",
    "CastTech",
    "DefineTech",
    "EndTurn",
    "PoisonUnit",
    "ReleaseUnit",
    "StartBattle",
    "WipeParty",
]
