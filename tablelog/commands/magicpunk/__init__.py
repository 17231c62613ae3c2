"""Magic Punk commands and their deciders, by domain area.

Importing this package registers every Magic Punk decider.
"""

from tablelog.commands.magicpunk.cards import Charge, Circulate, Draw, Play
from tablelog.commands.magicpunk.growth import (
    GainMoney,
    LearnSpell,
    Procure,
    RollCheck,
    ShareResidence,
    StartLeisure,
    TakeLeisureEvent,
)
from tablelog.commands.magicpunk.rebuild import Rebuild
from tablelog.commands.magicpunk.rest import Dawn, Rest
from tablelog.commands.magicpunk.table import (
    Act,
    AddCharacter,
    AddItem,
    Damage,
    EndBriefing,
    Heal,
    NewRound,
    Prepare,
    ReadyItem,
    StartBriefing,
)

__all__ = [
    "Act",
    "AddCharacter",
    "AddItem",
    "Charge",
    "Circulate",
    "Damage",
    "Dawn",
    "Draw",
    "EndBriefing",
    "GainMoney",
    "Heal",
    "LearnSpell",
    "NewRound",
    "Play",
    "Prepare",
    "Procure",
    "ReadyItem",
    "Rebuild",
    "Rest",
    "RollCheck",
    "ShareResidence",
    "StartBriefing",
    "StartLeisure",
    "TakeLeisureEvent",
]
