"""Events at the table: characters and items, time and rests, combat, briefing."""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event
from tablelog.events.magicpunk.audit import audit_lines
from tablelog.rules.magicpunk.clock import at_text as _when
from tablelog.rules.magicpunk.combat import BRIEFING_PACKAGES
from tablelog.rules.magicpunk.text import listing


@event("magicpunk.CharacterAdded", entities=("name",))
@attrs.frozen
class CharacterAdded(Event):
    """A character joined with abilities, max HP (from the core rules), skills and money (Mj)."""

    name: str
    body: int
    sense: int
    intellect: int
    magic: int
    hp_max: int
    skills: dict[str, str] = attrs.Factory(dict)
    money: int = 0

    def describe(self) -> str:
        return (
            f"{self.name}: body {self.body} sense {self.sense} intellect {self.intellect} "
            f"magic {self.magic}, HP {self.hp_max}, {self.money} Mj"
        )


@event("magicpunk.ItemAdded", entities=("item", "owner"))
@attrs.frozen
class ItemAdded(Event):
    """``owner`` got ``item``; ``price`` Mj paid (0: not bought); ``gear_slots`` for Ma-GEAR."""

    item: str
    owner: str
    price: int = 0
    gear_slots: int | None = None

    def describe(self) -> str:
        paid = f" for {self.price} Mj" if self.price else ""
        gear = f", Ma-GEAR occupying {self.gear_slots} magic slots" if self.gear_slots else ""
        return f"{self.item} -> {self.owner}{paid}{gear}"


@event("magicpunk.ItemReadied", entities=("item",), rules=("MP-GEAR-1",))
@attrs.frozen
class ItemReadied(Event):
    """``item`` was readied; ``gear_active`` false when its magic slots were not filled."""

    item: str
    slots_needed: int
    slots_free: int
    gear_active: bool

    def describe(self) -> str:
        effect = "Ma-GEAR effect active" if self.gear_active else "base item effect only"
        return (
            f"{self.item} readied ({self.slots_free} of {self.slots_needed} magic slots "
            f"free: {effect})"
        )


@event("magicpunk.RestTaken", entities=("who",), rules=("MP-REST-1",))
@attrs.frozen
class RestTaken(Event):
    """A rest package of ``minutes`` from clock ``start`` to ``end`` (absolute minutes)."""

    package: str
    who: tuple[str, ...]
    sleep: bool
    start: int
    end: int

    def describe(self) -> str:
        slept = "with sleep" if self.sleep else "no sleep"
        return (
            f"{self.package} rest ({slept}) for {listing(self.who, empty='nobody')}, "
            f"{_when(self.start)} to {_when(self.end)}"
        )


@event("magicpunk.DawnReached")
@attrs.frozen
class DawnReached(Event):
    """The clock advanced from ``start`` to the next 06:00, ``end`` (absolute minutes).

    The clock's advance is a RULES.md decision without an ID; the items' dawn circulations that
    follow are their own events (MP-CIRC-2).
    """

    start: int
    end: int

    def describe(self) -> str:
        hours, minutes = divmod(self.end - self.start, 60)
        return f"dawn: {_when(self.end)} ({hours} h {minutes:02d} min later)"


@event("magicpunk.DamageTaken", version=2, entities=("target",), rules=("MP-PULL-1", "MP-COVER-1"))
@attrs.frozen
class DamageTaken(Event):
    """``target`` took ``amount`` damage (``pull_punches``: not below 0 HP).

    ``hp_before`` and ``hp_after`` are the target's HP when the damage was decided and after it
    (v2); the evolver applies the change ``hp_after - hp_before``. None in a v1 record (upcast):
    the evolver's legacy path computes the HP with today's rule.
    """

    target: str
    amount: int
    pull_punches: bool = False
    covering: str | None = None
    hp_before: int | None = None
    hp_after: int | None = None

    def describe(self) -> str:
        """Say what happened: the HP lost, and the damage dealt when pulled punches cut it."""
        cover = f" covering {self.covering}" if self.covering else ""
        lost = (
            self.amount
            if self.hp_before is None or self.hp_after is None
            else self.hp_before - self.hp_after
        )
        if lost == self.amount:
            extra = " (pulled punches)" if self.pull_punches else ""
            return f"{self.target} takes {self.amount} damage{extra}{cover}"
        if lost == 0:
            return (
                f"{self.target} takes no damage{cover}: pulled punches, already at "
                f"{self.hp_before} HP ({self.amount} dealt)"
            )
        return (
            f"{self.target} takes {lost} damage{cover} ({self.amount} dealt, pulled punches "
            f"stop at {self.hp_after} HP)"
        )

    def explain(self) -> list[str]:
        """MP-PULL-1 with pulled punches, MP-COVER-1 for a coverer; plain damage names none."""
        return audit_lines(
            (["MP-PULL-1"] if self.pull_punches else []) + (["MP-COVER-1"] if self.covering else [])
        )


@event("magicpunk.Healed", version=2, entities=("target",))
@attrs.frozen
class Healed(Event):
    """``target`` healed ``amount`` HP (never above max HP).

    ``hp_before`` and ``hp_after`` as for :class:`DamageTaken` (v2; None in a v1 record).
    """

    target: str
    amount: int
    hp_before: int | None = None
    hp_after: int | None = None

    def describe(self) -> str:
        """Say what happened: the HP healed, and what was asked when max HP capped it."""
        if self.hp_before is None or self.hp_after is None:
            return f"{self.target} heals {self.amount} HP"
        healed = self.hp_after - self.hp_before
        capped = f" ({self.amount} asked, capped at max)" if healed != self.amount else ""
        return f"{self.target} heals {healed} HP{capped}"


@event("magicpunk.CoverTaken", version=2, entities=("coverer", "covered"), rules=("MP-COVER-1",))
@attrs.frozen
class CoverTaken(Event):
    """``coverer`` covered ``covered`` and is now acted; ``was_acted``: already acted this round.

    ``stays_acted``: the coverer stays acted at the next round's start (v2; a v1 record is
    upcast with ``was_acted``, what MP-COVER-1 gave then).
    """

    coverer: str
    covered: str
    was_acted: bool
    stays_acted: bool = False

    def describe(self) -> str:
        after = "stays acted next round" if self.was_acted else "is now acted"
        return f"{self.coverer} covers {self.covered} ({after})"


@event("magicpunk.TurnTaken", entities=("name",))
@attrs.frozen
class TurnTaken(Event):
    """``name`` started its turn this round (now acted)."""

    name: str

    def describe(self) -> str:
        return f"{self.name} acts"


@event("magicpunk.RoundStarted", rules=("MP-COVER-1",))
@attrs.frozen
class RoundStarted(Event):
    """A new round ``number`` began: everyone is not-acted except those who covered while acted."""

    number: int

    def describe(self) -> str:
        return f"round {self.number} begins"


@event("magicpunk.BriefingStarted", version=2, rules=("MP-BRIEF-1",))
@attrs.frozen
class BriefingStarted(Event):
    """A briefing package began (``10s``, ``1m`` or ``ample``).

    ``limit_each``: the preparations each PC (or aware enemy) may take in it, 0 for any number
    (v2); None in a v1 record (the evolver's legacy path looks the package up in today's table).
    """

    package: str
    limit_each: int | None = None

    def describe(self) -> str:
        return f"briefing begins: {BRIEFING_PACKAGES.get(self.package, self.package)}"


@event("magicpunk.PreparationTaken", entities=("who",), rules=("MP-BRIEF-1",))
@attrs.frozen
class PreparationTaken(Event):
    """``who`` (side ``pc`` or ``enemy``) took a preparation during the briefing."""

    who: str
    side: str
    note: str = ""

    def describe(self) -> str:
        side = "an aware enemy" if self.side == "enemy" else "a PC"
        return f"{self.who} ({side}) prepares" + (f": {self.note}" if self.note else "")


@event("magicpunk.BriefingEnded", rules=("MP-BRIEF-1",))
@attrs.frozen
class BriefingEnded(Event):
    """The briefing ended."""

    def describe(self) -> str:
        return "briefing over"
