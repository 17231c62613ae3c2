"""SaGa Emerald Beyond projections: how ``saga.*`` events change the session state.

Unit records (``state.characters[name]``) are :class:`~tablelog.projections.saga.entities.Unit`
(side, HP, LP, effect values, incapacitation and the sheet the formulas read); the clock is
``{turn, season, levels: {wood, fire, earth, metal, water}}`` (turn 0: no battle).
Session-defined techs live in ``state.extra["techs"]``; ``extra["draws"]`` counts the
activations and poison ticks that drew a random number (the key of the next draw);
``extra["last_hits"]["ACTOR>TARGET"][TECH]`` the damage of the actor's latest hit of that tech on
that target in this battle (0 for a miss).
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.core import State
from tablelog.projections.saga import (  # noqa: F401 - registers evolvers and preconditions
    battle,
    preconditions,
    units,
)
from tablelog.projections.saga.units import clock_for
from tablelog.rules.saga.catalogue import ELEMENTS

__all__ = ["init_state"]


def init_state(state: State, options: dict[str, Any]) -> None:
    """Set up a SaGa session: no battle yet (turn 0, no season, all levels 0), no techs."""
    state.clock = clock_for(dict.fromkeys(ELEMENTS, 0), None, 0)
    state.extra = {"techs": {}, "battle": None, "last_hits": {}, "draws": 0}
    state.deck = None
