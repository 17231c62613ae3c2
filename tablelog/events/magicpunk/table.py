"""Events at the table: characters and items, time and rests, combat, briefing."""

from __future__ import annotations

import attrs

from tablelog.events.core import Event, event


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


@event("magicpunk.ItemAdded", entities=("item", "owner"))
@attrs.frozen
class ItemAdded(Event):
    """``owner`` got ``item``; ``price`` Mj paid (0: not bought); ``gear_slots`` for Ma-GEAR."""

    item: str
    owner: str
    price: int = 0
    gear_slots: int | None = None


@event("magicpunk.ItemReadied", entities=("item",), rules=("MP-GEAR-1",))
@attrs.frozen
class ItemReadied(Event):
    """``item`` was readied; ``gear_active`` false when its magic slots were not filled."""

    item: str
    slots_needed: int
    slots_free: int
    gear_active: bool


@event("magicpunk.RestTaken", entities=("who",), rules=("MP-REST-1",))
@attrs.frozen
class RestTaken(Event):
    """A rest package of ``minutes`` from clock ``start`` to ``end`` (absolute minutes)."""

    package: str
    who: tuple[str, ...]
    sleep: bool
    start: int
    end: int


@event("magicpunk.DawnReached")
@attrs.frozen
class DawnReached(Event):
    """The clock advanced from ``start`` to the next 06:00, ``end`` (absolute minutes).

    The clock's advance is a RULES.md decision without an ID; the items' dawn circulations that
    follow are their own events (MP-CIRC-2).
    """

    start: int
    end: int


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


@event("magicpunk.TurnTaken", entities=("name",))
@attrs.frozen
class TurnTaken(Event):
    """``name`` started its turn this round (now acted)."""

    name: str


@event("magicpunk.RoundStarted", rules=("MP-COVER-1",))
@attrs.frozen
class RoundStarted(Event):
    """A new round ``number`` began: everyone is not-acted except those who covered while acted."""

    number: int


@event("magicpunk.BriefingStarted", version=2, rules=("MP-BRIEF-1",))
@attrs.frozen
class BriefingStarted(Event):
    """A briefing package began (``10s``, ``1m`` or ``ample``).

    ``limit_each``: the preparations each PC (or aware enemy) may take in it, 0 for any number
    (v2); None in a v1 record (the evolver's legacy path looks the package up in today's table).
    """

    package: str
    limit_each: int | None = None


@event("magicpunk.PreparationTaken", entities=("who",), rules=("MP-BRIEF-1",))
@attrs.frozen
class PreparationTaken(Event):
    """``who`` (side ``pc`` or ``enemy``) took a preparation during the briefing."""

    who: str
    side: str
    note: str = ""


@event("magicpunk.BriefingEnded", rules=("MP-BRIEF-1",))
@attrs.frozen
class BriefingEnded(Event):
    """The briefing ended."""
