"""Fate events of Noble Phantasm releases: the release itself, fields and armies.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.–4.; FATE-NP-5 … FATE-NP-12, FATE-UA-2.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import event
from tablelog.events.fate.base import FateEvent, with_rules
from tablelog.rules.fate.upkeep import EX_ARMY_POINTS

__all__ = [
    "PhantasmReleased",
    "FieldRaised",
    "FieldEnded",
    "ArmySummoned",
    "ArmyDismissed",
    "AbilityUsed",
]


@event(
    "fate.PhantasmReleased",
    version=3,
    entities=("owner", "targets"),
    rules=(
        "FATE-NP-4",
        "FATE-NP-5",
        "FATE-NP-6",
        "FATE-NP-7",
        "FATE-NP-8",
        "FATE-NP-9",
        "FATE-NP-10",
        "FATE-NP-11",
        "FATE-NP-13",
        "FATE-UA-2",
        "FATE-UA-3",
    ),
)
@attrs.frozen
class PhantasmReleased(FateEvent):
    """``owner`` released NP ``np_id`` at ``targets`` and paid ``mp`` (0 when always-active).

    ``rules``: the release rules of this NP's form and type (e.g. FATE-NP-5, -6, -7 for a
    true-name attack NP; FATE-NP-8 always-active; FATE-NP-9 defensive; FATE-NP-10 field; FATE-NP-11
    army), the madness and unique-ability checks it passed, and FATE-NP-13 for a cost modifier.
    ``uses_allowed`` (v3): how many uses a round an always-active attack NP had when it was
    released (FATE-NP-8: 1, or 2 with madness B+); None for any other release, and in a v2 record.
    """

    owner: str
    np_id: str
    mp: int
    targets: tuple[str, ...] = ()
    always: bool = False
    breakdown: dict[str, str] = attrs.Factory(dict)
    action: int = 0
    rules: tuple[str, ...] = ()
    uses_allowed: int | None = None


@event("fate.FieldRaised", version=3, entities=("owner",), rules=("FATE-NP-10", "FATE-NP-12"))
@attrs.frozen
class FieldRaised(FateEvent):
    """A bounded field went up (its effect starts with the next judgment).

    ``hp_bonus``: extra HP the owner gets from an EX field; ``ally_hp`` (v3): the HP each ally in
    ``allies`` gets (10, FATE-NP-12); None in a v2 record (the evolver's legacy path).
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
    ally_hp: int | None = None

    def rule_ids(self) -> tuple[str, ...]:
        """Bounded fields (FATE-NP-10); an EX field's extra HP (FATE-NP-12)."""
        return with_rules("FATE-NP-10", (self.hp_bonus > 0 or self.grade == "EX") and "FATE-NP-12")


@event("fate.FieldEnded", version=2, entities=("owner",), rules=("FATE-NP-10", "FATE-NP-7"))
@attrs.frozen
class FieldEnded(FateEvent):
    """A bounded field ended: overwritten, cancelled, removed, dismissed or unpaid.

    ``rules``: FATE-NP-10 (clash of fields, upkeep, dismissal) or FATE-NP-7 (an anti-world NP
    removes it).
    """

    owner: str
    np_id: str
    reason: str
    cause: int = 0
    rules: tuple[str, ...] = ()


@event("fate.ArmySummoned", version=3, entities=("owner",), rules=("FATE-NP-11", "FATE-NP-12"))
@attrs.frozen
class ArmySummoned(FateEvent):
    """An army-type NP summoned its units (they arrive next turn).

    ``familiars`` (v3): the units are familiars an NP summons at so much MP each, with no limit
    and no upkeep (프렐라티즈 스펠북's [소환]); they join that NP's familiars already out.
    """

    owner: str
    np_id: str
    units: int
    free_units: int
    stat_points: int
    upkeep_per_round: int
    round: int
    plus_used: bool = False
    cause: int = 0
    familiars: bool = False

    def rule_ids(self) -> tuple[str, ...]:
        """Armies (FATE-NP-11); an EX army's 7 stat points and extra free units (FATE-NP-12)."""
        return with_rules("FATE-NP-11", self.stat_points == EX_ARMY_POINTS and "FATE-NP-12")


@event("fate.ArmyDismissed", entities=("owner",), rules=("FATE-NP-11",))
@attrs.frozen
class ArmyDismissed(FateEvent):
    """An army left the battlefield (dismissed, unpaid, or the battle ended)."""

    owner: str
    np_id: str
    reason: str


@event("fate.AbilityUsed", entities=("owner", "targets"), rules=("FATE-NP-13", "FATE-NP-14"))
@attrs.frozen
class AbilityUsed(FateEvent):
    """``owner`` used ``ability`` of NP ``np_id`` ``times`` times and paid ``mp``.

    ``shoot`` ([사격]): a judgment turned critical:attack while the NP's field is up; ``charge``
    ([선회]): NP damage on ``targets`` once per release (the damage is a DamageTaken with this
    event's ``action`` as its ``cause``).
    """

    owner: str
    np_id: str
    ability: str
    mp: int
    times: int = 1
    targets: tuple[str, ...] = ()
    breakdown: dict[str, str] = attrs.Factory(dict)
    action: int = 0
    rules: tuple[str, ...] = ()
