"""What each system declares for a shared table, by the names the server used before
(SERVER.md §3): kept for code that still reads them; the declarations themselves are each
system's ``acts_for`` and ``hidden`` (:mod:`tablelog.systems`), which the server reads.

A command that *acts for a character* names the acting character in one field of its command
record; a player seat may issue it for one of the seat's own characters. Every other system
command is the GM's. Core commands: a note is anyone's who may append; undo and redo are anyone's
for the seat's own actions, the GM's for any action.
"""

from __future__ import annotations

from tablelog import systems

__all__ = ["ACTS_FOR", "GM_ONLY_CORE", "HIDDEN_CARD_EVENTS", "ENEMY_FIELDS"]

_REAL = [systems.get(name) for name in systems.REGISTRY]

ACTS_FOR: dict[str, str] = {  # command class (module.qualname) -> the field naming the actor
    f"{kind.__module__}.{kind.__qualname__}": field
    for system in _REAL
    for kind, field in system.acts_for.items()
}

GM_ONLY_CORE = frozenset({"tablelog.commands.core.AddSeat", "tablelog.commands.core.RevokeSeat"})

# events that move cards a seat may not see: type -> (owner field or item field, whether that
# field names an item, the card fields)
HIDDEN_CARD_EVENTS: dict[str, tuple[str, bool, tuple[str, ...]]] = {
    kind: hidden for system in _REAL for kind, hidden in system.hidden.owner_events.items()
}

ENEMY_FIELDS = tuple(  # saga: of units added with --enemy (and their HP floor, not named here)
    field for system in _REAL for field in system.hidden.enemy_fields if field != "hp_floor"
)
