"""Fate events about who is at the table: masters, servants, their NPs, rows and grades.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 1.1, 노블 판타즘 1., 고유 능력.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import event
from tablelog.events.fate.base import FateEvent, with_rules

__all__ = [
    "MasterAdded",
    "ServantAdded",
    "PhantasmAdded",
    "RowChanged",
    "MadnessToggled",
    "CharacterGradeSet",
]


@event(
    "fate.MasterAdded",
    version=2,
    entities=("name",),
    rules=(
        "FATE-CC-1",
        "FATE-CC-3",
        "FATE-CC-4",
        "FATE-CC-5",
        "FATE-CC-6",
        "FATE-CC-7",
        "FATE-CC-8",
        "FATE-CC-10",
    ),
)
@attrs.frozen
class MasterAdded(FateEvent):
    """A master joined with a CC build, and what the rules made of it (FATE-CC-*).

    ``hp`` and ``mp`` are the maxima from the core rulebook (input); ``stored`` maps a magic kind to
    the grade of the spell stored in the crest; ``breakdown`` holds the CC cost of each stat.
    Recorded outcomes (v2): ``power`` (the power grade of the circuit quality, FATE-CC-5),
    ``powers`` (``{kind: power}`` of the kinds the attributes enable, FATE-CC-7/8) and ``tiles``
    (the judgment-tile pool, FATE-CC-6). None in a v1 record (the evolver's legacy path).
    """

    name: str
    quality: str
    quantity: str
    crest: str
    attributes: tuple[str, ...]
    hp: int
    mp: int
    cc_budget: int
    none_kind: str | None = None
    anti_magic: int = 0
    row: str = "front"
    stored: dict[str, int] = attrs.Factory(dict)
    character_grade: int = 0
    breakdown: dict[str, str] = attrs.Factory(dict)
    power: int | None = None
    powers: dict[str, int] | None = None
    tiles: int | None = None

    def rule_ids(self) -> tuple[str, ...]:
        """The CC build rules; attributes by kind (elements, hollow or none); crest storage."""
        names = set(self.attributes)
        return with_rules(
            "FATE-CC-1",
            "FATE-CC-2",
            "FATE-CC-3",
            "FATE-CC-4",
            "FATE-CC-5",
            "FATE-CC-6",
            bool(names - {"hollow", "none"}) and "FATE-CC-7",
            bool(names & {"hollow", "none"}) and "FATE-CC-8",
            bool(self.stored) and "FATE-CC-10",
        )


@event("fate.ServantAdded", entities=("name",), rules=("FATE-NP-1", "FATE-NP-4"))
@attrs.frozen
class ServantAdded(FateEvent):
    """A servant joined with its HP and MP maxima, NP budget, madness and anti-magic grades."""

    name: str
    hp: int
    mp: int
    np_budget: int = 10
    madness: str | None = None
    anti_magic: int = 0
    row: str = "front"

    def rule_ids(self) -> tuple[str, ...]:
        """NP points (FATE-NP-1); madness enhancement when the servant has it (FATE-NP-4)."""
        return with_rules("FATE-NP-1", bool(self.madness) and "FATE-NP-4")


@event(
    "fate.PhantasmAdded",
    version=2,
    entities=("owner",),
    rules=(
        "FATE-NP-1",
        "FATE-NP-2",
        "FATE-NP-3",
        "FATE-NP-5",
        "FATE-NP-6",
        "FATE-NP-7",
        "FATE-NP-8",
        "FATE-NP-9",
        "FATE-NP-10",
        "FATE-NP-11",
        "FATE-NP-12",
        "FATE-NP-13",
        "FATE-UA-1",
        "FATE-UA-3",
    ),
)
@attrs.frozen
class PhantasmAdded(FateEvent):
    """A servant's Noble Phantasm, or a master's unique ability (``unique``), was set up.

    ``starting``: a master's starting unique ability (FATE-UA-3); ``breakdown``: how the numbers
    were reached. The numbers the rules gave (v2): ``points`` (FATE-NP-2), ``mp_cost`` (FATE-NP-5,
    with modifiers), ``hp_per_tile`` and ``mp_per_tile`` (FATE-NP-6/8/12/13), ``targets`` (None:
    the whole front row, FATE-NP-7), ``tiles`` per release, ``block_per_tile`` and ``hp_max_bonus``
    (defensive NPs, FATE-NP-9), and ``max_held``, the NPs a servant may hold (FATE-NP-1). A v1
    record has ``points`` None: the evolver's legacy path computes them.
    """

    owner: str
    np_id: str
    grade: str
    np_type: str
    form: str = "attack"
    release: str = "true-name"
    mods: dict[str, str] = attrs.Factory(dict)
    unique: bool = False
    starting: bool = False
    breakdown: dict[str, str] = attrs.Factory(dict)
    points: int | None = None
    mp_cost: int = 0
    hp_per_tile: int = 0
    mp_per_tile: int = 0
    targets: int | None = None
    tiles: int = 0
    block_per_tile: int = 0
    hp_max_bonus: int = 0
    max_held: int | None = None

    def rule_ids(self) -> tuple[str, ...]:
        """Points, type and cost rules, and those of this NP's form, type, grade and modifiers."""
        attack = self.form == "attack" and self.np_type not in ("army", "field")
        true_name = self.release == "true-name"
        return with_rules(
            "FATE-UA-1" if self.unique else "FATE-NP-1",
            "FATE-NP-2",
            "FATE-NP-3",
            true_name and "FATE-NP-5",
            attack and true_name and "FATE-NP-6",
            attack and true_name and "FATE-NP-7",
            attack and not true_name and "FATE-NP-8",
            self.form == "defense" and "FATE-NP-9",
            self.np_type == "field" and "FATE-NP-10",
            self.np_type == "army" and "FATE-NP-11",
            self.grade.upper() == "EX" and "FATE-NP-12",
            bool(self.mods) and "FATE-NP-13",
            self.starting and "FATE-UA-3",
        )


@event("fate.RowChanged", entities=("name",), rules=("FATE-CHANT-3", "FATE-NP-7"))
@attrs.frozen
class RowChanged(FateEvent):
    """A character moved to the front or back row."""

    name: str
    row: str


@event("fate.MadnessToggled", entities=("name",), rules=("FATE-NP-4",))
@attrs.frozen
class MadnessToggled(FateEvent):
    """A servant started (``raging``) or stopped using madness enhancement."""

    name: str
    raging: bool


@event("fate.CharacterGradeSet", entities=("name",), rules=("FATE-UA-2",))
@attrs.frozen
class CharacterGradeSet(FateEvent):
    """A master's character grade changed (it earns unique-ability points)."""

    name: str
    grade: int
