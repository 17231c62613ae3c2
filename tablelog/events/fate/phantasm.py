"""Fate events of Noble Phantasm releases: the release itself, fields and armies.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.–4.; FATE-NP-5 … FATE-NP-12, FATE-UA-2.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event

__all__ = ["PhantasmReleased", "FieldRaised", "FieldEnded", "ArmySummoned", "ArmyDismissed"]


@event(
    "fate.PhantasmReleased",
    version=2,
    entities=("owner", "targets"),
    rules=("FATE-NP-4", "FATE-NP-5", "FATE-NP-6", "FATE-NP-8", "FATE-UA-2"),
)
@attrs.frozen
class PhantasmReleased(Event):
    """``owner`` released NP ``np_id`` at ``targets`` and paid ``mp`` (0 when always-active)."""

    owner: str
    np_id: str
    mp: int
    targets: tuple[str, ...] = ()
    always: bool = False
    breakdown: dict[str, str] = attrs.Factory(dict)
    action: int = 0

    def describe(self) -> str:
        at = f" at {', '.join(self.targets)}" if self.targets else ""
        return f"{self.owner} releases {self.np_id}{at}; {self.mp} MP"


@event("fate.FieldRaised", version=2, entities=("owner",), rules=("FATE-NP-10", "FATE-NP-12"))
@attrs.frozen
class FieldRaised(Event):
    """A bounded field went up (its effect starts with the next judgment).

    ``hp_bonus``: extra HP the owner gets from an EX field (allies in ``allies`` get 10).
    """

    owner: str
    np_id: str
    grade: str
    reality_marble: bool
    plus_used: bool
    round: int
    hp_bonus: int = 0
    allies: tuple[str, ...] = ()
    cause: int = 0

    def describe(self) -> str:
        kind = "reality marble" if self.reality_marble else "bounded field"
        return f"{self.owner} raises {kind} {self.np_id} ({self.grade}) in round {self.round}"


@event("fate.FieldEnded", version=2, entities=("owner",), rules=("FATE-NP-10", "FATE-NP-7"))
@attrs.frozen
class FieldEnded(Event):
    """A bounded field ended: overwritten, cancelled, removed, dismissed or unpaid."""

    owner: str
    np_id: str
    reason: str
    cause: int = 0

    def describe(self) -> str:
        return f"{self.owner}'s field {self.np_id} ends ({self.reason})"


@event("fate.ArmySummoned", version=2, entities=("owner",), rules=("FATE-NP-11", "FATE-NP-12"))
@attrs.frozen
class ArmySummoned(Event):
    """An army-type NP summoned its units (they arrive next turn)."""

    owner: str
    np_id: str
    units: int
    free_units: int
    stat_points: int
    upkeep_per_round: int
    round: int
    plus_used: bool = False
    cause: int = 0

    def describe(self) -> str:
        return (
            f"{self.owner} summons {self.np_id}: {self.units} units of {self.stat_points}"
            f" points ({self.free_units} free), {self.upkeep_per_round} MP per round"
        )


@event("fate.ArmyDismissed", entities=("owner",), rules=("FATE-NP-11",))
@attrs.frozen
class ArmyDismissed(Event):
    """An army left the battlefield (dismissed, unpaid, or the battle ended)."""

    owner: str
    np_id: str
    reason: str

    def describe(self) -> str:
        return f"{self.owner}'s army {self.np_id} leaves ({self.reason})"
