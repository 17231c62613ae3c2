"""Events of growth and downtime: money, spells, rebuild, procurement, checks, lifestyle."""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event


@event("magicpunk.MoneyGained", entities=("name",), rules=("MP-REBUILD-8",))
@attrs.frozen
class MoneyGained(Event):
    """``name`` gained ``amount`` Mj in a scenario (``spell_only``: usable only for spells)."""

    name: str
    amount: int
    spell_only: bool = False


@event("magicpunk.SpellLearned", entities=("name",), rules=("MP-REBUILD-11",))
@attrs.frozen
class SpellLearned(Event):
    """``name`` learned ``spell`` (gate, tier) for ``price`` Mj, paid spell-only money first."""

    name: str
    spell: str
    gate: str
    tier: int
    price: int
    from_spell_money: int
    from_money: int
    free: bool = False


@event(
    "magicpunk.Rebuilt",
    entities=("name", "items_removed"),
    rules=(
        "MP-REBUILD-1",
        "MP-REBUILD-2",
        "MP-REBUILD-3",
        "MP-REBUILD-4",
        "MP-REBUILD-5",
        "MP-REBUILD-6",
        "MP-REBUILD-7",
        "MP-REBUILD-8",
        "MP-REBUILD-9",
        "MP-REBUILD-10",
    ),
)
@attrs.frozen
class Rebuilt(Event):
    """``name`` was rebuilt: abilities, skills, items and spells, before and after.

    Money is Mj; ``breakdown`` holds the refund inputs (A, B, C, conversions).
    """

    name: str
    abilities_before: dict[str, int]
    abilities_after: dict[str, int]
    skills_before: dict[str, str]
    skills_after: dict[str, str]
    money_before: int
    money_after: int
    spell_money_after: int
    converted_mj: int = 0
    items_removed: tuple[str, ...] = ()
    spells_unlearned: tuple[str, ...] = ()
    breakdown: dict[str, int] = attrs.Factory(dict)


@event(
    "magicpunk.ProcurementAssessed",
    version=2,
    entities=("who",),
    rules=("MP-PROC-1", "MP-PROC-2"),
)
@attrs.frozen
class ProcurementAssessed(Event):
    """The rarity of an item ``who`` wants, whether a check is needed and its challenge value.

    ``breakdown``: the rarity each row of the table adds (``material``, ``quality``, ``design``,
    ``ma-gear``, ``vehicle``, ``gm``); ``rows``: the ids of the rows chosen in the material,
    quality and design tables (``{"material": "magic-shell", ...}``; version 2; a version 1
    record is upcast with none: its audit shows the rarity each row added, not the row).
    """

    who: str
    rarity: int
    check_needed: bool
    challenge: int
    time_dice: int
    breakdown: dict[str, int]
    item: str = ""
    rows: dict[str, str] = attrs.Factory(dict)


@event("magicpunk.CheckRolled", entities=("by",))
@attrs.frozen
class CheckRolled(Event):
    """A ``nMPm``/``nMPmCx`` check: the dice (rolled or given) and the outcome."""

    notation: str
    dice: tuple[int, ...]
    kept: tuple[int, ...]
    success: bool
    jackpot: bool
    bad_beat: bool
    achieved: int | None
    roll_no: int
    given: bool = False
    by: str | None = None


@event("magicpunk.ResidenceShared", entities=("names",), rules=("MP-COHAB-1",))
@attrs.frozen
class ResidenceShared(Event):
    """``names`` share ``residence`` in ``region``; each pays region points and its ``split``."""

    names: tuple[str, ...]
    region: str
    residence: str
    region_points: int
    residence_points: int
    split: tuple[int, ...]


@event("magicpunk.LeisureStarted", rules=("MP-COHAB-2",))
@attrs.frozen
class LeisureStarted(Event):
    """A leisure (余暇) began: shared events may occur once each again."""


@event("magicpunk.LeisureEventTaken", version=2, entities=("name",), rules=("MP-COHAB-2",))
@attrs.frozen
class LeisureEventTaken(Event):
    """``name`` rolled ``roll`` on the leisure table; ``result`` applies (``shared``: all).

    ``shared_event`` (v2) is the shared event the result reads (the lowest roll that reads it:
    wilds rolls 2, 4 and 6 are all event 2), or None; a v1 record is upcast with its result.
    """

    name: str
    roll: int
    safety: int
    result: int
    shared: bool
    table: str = "town"
    shared_event: int | None = None
