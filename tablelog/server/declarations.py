"""What each system declares for a shared table: who may issue a command, and what is hidden.

SERVER.md §3. A command that *acts for a character* names the acting character in one field of
its command record; a player seat may issue it for one of the seat's own characters. Every other
system command is the GM's. Core commands: a note is anyone's who may append; undo and redo are
anyone's for the seat's own actions, the GM's for any action.

Hidden information: magicpunk's cards in a hand or an item are seen by their owner's seats and
the GM (each hidden card shows as ``"?"``, the list keeps its length); saga's enemy units' HP and
LP are ``null`` to players and observers; the session seed is the GM's alone. fate and pf2e have
no hidden fields.
"""

from __future__ import annotations

__all__ = ["ACTS_FOR", "GM_ONLY_CORE", "HIDDEN_CARD_EVENTS", "ENEMY_FIELDS"]

ACTS_FOR: dict[str, str] = {
    # command class (module.qualname) -> the field naming the acting character
    "tablelog.commands.magicpunk.cards.Draw": "who",
    "tablelog.commands.magicpunk.cards.Play": "who",
    "tablelog.commands.magicpunk.cards.Circulate": "holder",
    "tablelog.commands.magicpunk.cards.Charge": "by",
    "tablelog.commands.magicpunk.growth.Procure": "who",
    "tablelog.commands.pf2e.EtchRune": "by",
    "tablelog.commands.pf2e.TransferRune": "by",
    "tablelog.commands.pf2e.InvestItem": "by",
    "tablelog.commands.pf2e.LearnFormula": "character",
    "tablelog.commands.fate.casting.Cast": "caster",
    "tablelog.commands.fate.casting.Chant": "name",
    "tablelog.commands.fate.release.Release": "owner",
    "tablelog.commands.saga.cast.CastTech": "actor",
}

GM_ONLY_CORE = frozenset({"tablelog.commands.core.AddSeat", "tablelog.commands.core.RevokeSeat"})

# magicpunk events that move cards a seat may not see: type -> (owner field or item field,
# whether that field names an item, the card fields)
HIDDEN_CARD_EVENTS: dict[str, tuple[str, bool, tuple[str, ...]]] = {
    "magicpunk.CardsDrawn": ("who", False, ("cards",)),
    "magicpunk.CardsCharged": ("by", False, ("cards",)),
    "magicpunk.CardsCirculated": ("holder", False, ("drawn",)),
}

ENEMY_FIELDS = ("hp", "hp_max", "lp", "lp_max")  # saga: of units added with --enemy
