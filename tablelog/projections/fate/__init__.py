"""Fate projection: the initial state and every evolver of ``fate.*`` events.

State (SPEC): each character has ``role``, ``hp``/``hp_max``, ``mp``/``mp_max``,
``tiles``/``tiles_max``, ``chants``, ``row``, ``effects`` (``{id, kind, grade, tiles, turns_left,
target, source, …}``), ``phantasms`` (by id), plus ``field``/``army`` when one is up; the clock is
``{battle, round, turn}``.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.core import State
from tablelog.projections.fate import battle as _battle  # noqa: F401 - registers evolvers
from tablelog.projections.fate import casting as _casting  # noqa: F401 - registers evolvers
from tablelog.projections.fate import characters as _characters  # noqa: F401 - registers evolvers
from tablelog.projections.fate import phantasm as _phantasm  # noqa: F401 - registers evolvers
from tablelog.projections.fate.records import fate_extra

__all__ = ["init_state"]


def init_state(state: State, options: dict[str, Any]) -> None:
    """Set up a new fate session: no battle (round 0, turn 0), effect ids from 1.

    Args:
        state: The blank state (mutated).
        options: ``init`` options (fate uses none).
    """
    state.clock = {"battle": False, "round": 0, "turn": 0}
    fate_extra(state)
