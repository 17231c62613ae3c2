"""Events of growth and downtime: money, spells, rebuild, procurement, checks, lifestyle."""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event
from tablelog.events.magicpunk.audit import audit_lines
from tablelog.rules.magicpunk.rebuild import BASE_POOL, acquisitions
from tablelog.rules.magicpunk.text import article, listing


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

    def explain(self) -> list[str]:
        """Scenario money is B of the rebuild refund (MP-REBUILD-8); spell-only money is not."""
        return audit_lines([] if self.spell_only else ["MP-REBUILD-8"])


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

    def describe(self) -> str:
        parts = [f"{self.from_spell_money} spell-only Mj"] if self.from_spell_money else []
        parts += [f"{self.from_money} Mj"] if self.from_money or not parts else []
        paid = f"free (price {self.price} Mj)" if self.free else " + ".join(parts)
        return f"{self.name} learns {self.spell} ({self.gate} gate, tier {self.tier}, {paid})"


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

    def describe(self) -> str:
        abilities = " ".join(f"{k} {v}" for k, v in self.abilities_after.items())
        skills = listing((f"{k} {v}" for k, v in self.skills_after.items()), empty="no skills")
        return (
            f"{self.name} rebuilt: {abilities}; {skills}; money {self.money_before} -> "
            f"{self.money_after} Mj"
        )

    def explain(self) -> list[str]:
        """Name the rebuild clauses of the parts rebuilt: abilities, conversions, skills,
        items, spells (MP-REBUILD-12, the lifestyle, is never touched and changes nothing)."""
        return audit_lines(self._rule_ids(), self.breakdown)

    def _rule_ids(self) -> list[str]:
        pool0, acq0 = sum(self.abilities_before.values()), acquisitions(self.skills_before)
        d_pool = self.breakdown.get("ability_pool", pool0) - pool0
        d_acq = self.breakdown.get("acquisitions", acq0) - acq0
        ids = []
        if self.abilities_after != self.abilities_before or d_pool:
            ids += ["MP-REBUILD-1", "MP-REBUILD-3"]
            ids += ["MP-REBUILD-4"] if self.breakdown.get("ability_pool", 0) > BASE_POOL else []
        ids += ["MP-REBUILD-2"] if d_pool < 0 or d_acq > 0 else []
        ids += ["MP-REBUILD-5", "MP-REBUILD-7"] if self.skills_after != self.skills_before else []
        ids += ["MP-REBUILD-6"] if d_acq < 0 or d_pool > 0 else []
        ids += ["MP-REBUILD-8", "MP-REBUILD-9"] if "A_creation" in self.breakdown else []
        ids += ["MP-REBUILD-10"] if self.spells_unlearned else []
        return ids


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
        dice = "die" if self.time_dice == 1 else "dice"
        return (
            f"{self.who} procures {what}rarity {self.rarity}: Intellect check, challenge "
            f"+{self.challenge}, +{self.time_dice} {dice} for time"
        )

    def explain(self) -> list[str]:
        """The rarity table (MP-PROC-2); the procurement check (MP-PROC-1) only if needed."""
        ids = ["MP-PROC-1", "MP-PROC-2"] if self.check_needed else ["MP-PROC-2"]
        return audit_lines(ids, self.breakdown)


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
        outcome = (
            "bad beat"
            if self.bad_beat
            else "jackpot"
            if self.jackpot
            else f"success ({self.achieved})"
            if self.success
            else "failure"
        )
        who = f"{self.by}: " if self.by else ""
        return f"{who}{self.notation} rolled {', '.join(map(str, self.dice))}: {outcome}"


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
        return (
            f"{listing(self.names)} share {article(self.residence)} in {self.region} "
            f"(residence points: {shares})"
        )


@event("magicpunk.LeisureStarted", rules=("MP-COHAB-2",))
@attrs.frozen
class LeisureStarted(Event):
    """A leisure (余暇) began: shared events may occur once each again."""

    def describe(self) -> str:
        return "leisure begins"


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

    def describe(self) -> str:
        moved = f", moved to {self.result}" if self.result != self.roll else ""
        same = (
            f"; the same event as {self.shared_event}"
            if self.shared_event not in (None, self.result)
            else ""
        )
        scope = f" (every cohabitant{same})" if self.shared else ""
        return f"{self.name} rolls {self.roll} on the {self.table} leisure table{moved}{scope}"

    def explain(self) -> list[str]:
        """MP-COHAB-2 when the roll is a shared event or was moved off a taken one."""
        return audit_lines(["MP-COHAB-2"] if self.shared or self.result != self.roll else [])
