"""The outcomes a saga decision records: the HP each event changes, and who falls to 0 HP.

Source: saga-eb-damage.ja.txt, 現在HPの変動; SAGA-HP-1, SAGA-HP-2, SAGA-HP-5, SAGA-LP-1.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import Event
from tablelog.events.saga import (
    AttackDamageDealt,
    HPHealed,
    PoisonDamageTaken,
    UnitIncapacitated,
)
from tablelog.projections.core import State, evolve
from tablelog.projections.saga.entities import units
from tablelog.rules.saga.vitals import hp_after_attack, hp_after_heal, hp_after_poison

__all__ = ["incapacitations", "settle"]


def _outcome(trial: State, e: Event) -> Event:
    """Return ``e`` with the HP change it makes on ``trial`` recorded (SAGA-HP-1, -2, -5)."""
    if isinstance(e, AttackDamageDealt):
        target = units(trial)[e.target]
        after = hp_after_attack(target["hp"], e.damage, target["hp_floor"], support=e.support)
        return attrs.evolve(e, hp_lost=target["hp"] - after)
    if isinstance(e, PoisonDamageTaken):
        unit = units(trial)[e.unit]
        return attrs.evolve(e, hp_lost=unit["hp"] - hp_after_poison(unit["hp"], e.damage))
    if isinstance(e, HPHealed):
        unit = units(trial)[e.unit]
        healed = hp_after_heal(unit["hp"], e.amount, unit["hp_max"]) - unit["hp"]
        return attrs.evolve(e, healed=healed)
    return e


def settle(state: State, events: list[Event]) -> tuple[list[Event], State]:
    """Record the HP changes of ``events``, each on the state the ones before it leave.

    Returns:
        The events with ``hp_lost`` / ``healed`` filled, and a copy of ``state`` after them
        (``State.copy``: ``state`` is left as it was).
    """
    trial = state.copy()
    settled = []
    for e in events:
        e = _outcome(trial, e)
        evolve(trial, e)
        settled.append(e)
    return settled, trial


def incapacitations(trial: State, names: list[str]) -> list[Event]:
    """Return the UnitIncapacitated events for units at 0 HP in ``trial`` (not yet out).

    An ally with tracked LP loses 1 LP (SAGA-LP-1); enemies and untracked LP lose none.
    """
    out: list[Event] = []
    for name in dict.fromkeys(names):
        unit = units(trial)[name]
        if unit["hp"] == 0 and not unit["incapacitated"]:
            lost = 1 if unit["side"] == "ally" and unit["lp"] else 0
            out.append(UnitIncapacitated(unit=name, lp_lost=lost))
    return out
