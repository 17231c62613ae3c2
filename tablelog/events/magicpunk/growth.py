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

    def describe(self) -> str:
        kind = " spell-only" if self.spell_only else ""
        return f"{self.name} gains {self.amount}{kind} Mj"


@event("magicpunk.SpellLearned", entities=("name",), rules=("MP-REBUILD-10", "MP-REBUILD-11"))
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

    def describe(self) -> str:
        paid = "free" if self.free else (f"{self.from_spell_money} spell-only + "
                                         f"{self.from_money} Mj")
        return f"{self.name} learns {self.spell} ({self.gate} tier {self.tier}, {paid})"


@event("magicpunk.Rebuilt", entities=("name", "items_removed"),
       rules=("MP-REBUILD-1", "MP-REBUILD-2", "MP-REBUILD-3", "MP-REBUILD-4", "MP-REBUILD-5",
              "MP-REBUILD-6", "MP-REBUILD-7", "MP-REBUILD-8", "MP-REBUILD-9", "MP-REBUILD-10",
              "MP-REBUILD-12"))
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

    def describe(self) -> str:
        abilities = " ".join(f"{k} {v}" for k, v in self.abilities_after.items())
        skills = ", ".join(f"{k} {v}" for k, v in self.skills_after.items()) or "no skills"
        return (f"{self.name} rebuilt: {abilities}; {skills}; money {self.money_before} -> "
                f"{self.money_after} Mj")


@event("magicpunk.ProcurementAssessed", entities=("who",), rules=("MP-PROC-1", "MP-PROC-2"))
@attrs.frozen
class ProcurementAssessed(Event):
    """The rarity of an item ``who`` wants, whether a check is needed and its challenge value."""

    who: str
    rarity: int
    check_needed: bool
    challenge: int
    time_dice: int
    breakdown: dict[str, int]
    item: str = ""

    def describe(self) -> str:
        what = f"{self.item}: " if self.item else ""
        if not self.check_needed:
            return f"{self.who} procures {what}rarity {self.rarity}, no check"
        return (f"{self.who} procures {what}rarity {self.rarity}: Intellect check, challenge "
                f"+{self.challenge}, +{self.time_dice} dice for time")


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

    def describe(self) -> str:
        outcome = ("bad beat" if self.bad_beat else "jackpot" if self.jackpot
                   else f"success ({self.achieved})" if self.success else "failure")
        who = f"{self.by}: " if self.by else ""
        return f"{who}{self.notation} [{', '.join(map(str, self.dice))}] {outcome}"


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

    def describe(self) -> str:
        shares = ", ".join(f"{n} {s}" for n, s in zip(self.names, self.split, strict=True))
        return f"{' & '.join(self.names)} share {self.residence} in {self.region} ({shares})"


@event("magicpunk.LeisureStarted", rules=("MP-COHAB-2",))
@attrs.frozen
class LeisureStarted(Event):
    """A leisure (余暇) began: shared events may occur once each again."""

    def describe(self) -> str:
        return "leisure begins"


@event("magicpunk.LeisureEventTaken", entities=("name",), rules=("MP-COHAB-2",))
@attrs.frozen
class LeisureEventTaken(Event):
    """``name`` rolled ``roll`` on the leisure table; ``result`` applies (``shared``: all)."""

    name: str
    roll: int
    safety: int
    result: int
    shared: bool
    table: str = "town"

    def describe(self) -> str:
        moved = f" -> {self.result}" if self.result != self.roll else ""
        scope = " (every cohabitant)" if self.shared else ""
        return f"{self.name} leisure roll {self.roll}{moved}{scope}"
