"""Fate events of code casts: casts, chants, effects raised, damage taken, healing.

Source: fate-codecast-phantasm.ko.txt, 코드 캐스트 2.; FATE-CAST-*, FATE-CHANT-*.
"""

from __future__ import annotations

import attrs

from tablelog.events.core import event
from tablelog.events.fate.base import FateEvent, with_rules
from tablelog.rules.fate.casting import MP_PER_TILE

__all__ = [
    "Chanted",
    "CodeCast",
    "EffectRaised",
    "DamageTaken",
    "Healed",
    "InjuryHealed",
    "ManaAbsorbed",
]


@event("fate.Chanted", entities=("name",), rules=("FATE-CHANT-1", "FATE-CHANT-3"))
@attrs.frozen
class Chanted(FateEvent):
    """A master chanted: the next cast's tiles double once more."""

    name: str


@event(
    "fate.CodeCast",
    version=2,
    entities=("caster", "targets"),
    rules=("FATE-CAST-1", "FATE-CAST-2", "FATE-CAST-3", "FATE-CHANT-1", "FATE-CC-10"),
)
@attrs.frozen
class CodeCast(FateEvent):
    """A master cast: ``pool_tiles`` left the pool, ``tiles`` came out after ``chants`` chants.

    The caster paid ``mp`` (2 per pool tile, hollow 1 less) and ``hp`` (1 for a crest spell).
    """

    caster: str
    kind: str
    grade: int
    pool_tiles: int
    tiles: int
    targets: tuple[str, ...]
    mp: int
    chants: int = 0
    hp: int = 0
    crest: bool = False
    injury: bool = False
    breakdown: dict[str, str] = attrs.Factory(dict)
    action: int = 0

    def rule_ids(self) -> tuple[str, ...]:
        """Kinds, grade and tiles, MP; chant, hollow, crest and injury when they played a part."""
        return with_rules(
            "FATE-CAST-1",
            "FATE-CAST-2",
            "FATE-CAST-3",
            self.chants > 0 and "FATE-CHANT-1",
            self.mp < MP_PER_TILE * self.pool_tiles and "FATE-CC-8",
            self.crest and "FATE-CC-10",
            self.injury and "FATE-CAST-9",
        )


@event(
    "fate.EffectRaised",
    version=3,
    entities=("target", "source"),
    rules=("FATE-CAST-5", "FATE-CAST-7", "FATE-CAST-8", "FATE-NP-9"),
)
@attrs.frozen
class EffectRaised(FateEvent):
    """A timed effect landed on ``target``: defense tiles, a buff, a curse or NP defense tiles.

    ``turns`` None: until the battle ends; ``per_turn``: at most that many of its tiles meet hits
    in one turn (always-active or spread defensive NPs, FATE-NP-9); ``chanted``: a buff from a
    chanted cast (a target holds one un-chanted buff tile at a time, FATE-CAST-7); ``rules``: the
    kind's rule (FATE-CAST-5, -7, -8 or FATE-NP-9) and those that shaped it (chant, injury, EX).
    ``counter`` (v3): an EX defensive NP's counter, ``{"hp": 5, "np_hp": 10, "round": R}`` (each
    judgment it wins in round R deals ``hp`` fixed HP to the attacker, ``np_hp`` more against a
    true-name attack NP, FATE-NP-12); None otherwise.
    """

    target: str
    effect_id: int
    kind: str
    grade: int
    tiles: int
    turns: int | None
    source: str
    block_hp: int = 0
    block_mp: int = 0
    injury: bool = False
    breakdown: dict[str, str] = attrs.Factory(dict)
    cause: int = 0
    per_turn: int | None = None
    chanted: bool = False
    rules: tuple[str, ...] = ()
    counter: dict[str, int] | None = None


@event(
    "fate.DamageTaken",
    version=3,
    entities=("name",),
    rules=("FATE-CAST-4", "FATE-CAST-5", "FATE-CHANT-2", "FATE-NP-6", "FATE-NP-7"),
)
@attrs.frozen
class DamageTaken(FateEvent):
    """``name`` took HP/MP damage (and injury grades) after its defense tiles met the hits.

    ``spent`` maps effect ids to the defense tiles the hits used up; ``chants_cancelled`` is the
    number of pending chants the damage broke (FATE-CHANT-2); ``breakdown`` has the per-tile
    arithmetic; ``rules`` the rules behind this damage: the cast's (FATE-CAST-4) or the NP's
    (FATE-NP-6/7, FATE-NP-8, FATE-NP-12, FATE-NP-13) or outside damage (FATE-CAST-5), and the
    defense tiles met (FATE-CAST-5, FATE-NP-9) and chants broken (FATE-CHANT-2). ``wound`` (v3):
    ``"OWNER NP"`` when the injury is an NP's wound (FATE-NP-13), counted against its limit.
    """

    name: str
    hp: int
    mp: int
    source: str
    injury: int = 0
    spent: dict[str, int] = attrs.Factory(dict)
    chants_cancelled: int = 0
    breakdown: dict[str, str] = attrs.Factory(dict)
    cause: int = 0
    rules: tuple[str, ...] = ()
    wound: str = ""


@event("fate.Healed", version=2, entities=("name",), rules=("FATE-CAST-6",))
@attrs.frozen
class Healed(FateEvent):
    """``name`` regained HP from a heal cast (capped at max HP)."""

    name: str
    hp: int
    source: str
    breakdown: dict[str, str] = attrs.Factory(dict)
    cause: int = 0


@event("fate.InjuryHealed", version=2, entities=("name",), rules=("FATE-CAST-9",))
@attrs.frozen
class InjuryHealed(FateEvent):
    """``name`` had injury grades cured by a heal cast outside battle."""

    name: str
    grades: int
    source: str
    breakdown: dict[str, str] = attrs.Factory(dict)
    cause: int = 0


@event("fate.ManaAbsorbed", entities=("name",), rules=("FATE-NP-13",))
@attrs.frozen
class ManaAbsorbed(FateEvent):
    """``name`` gained MP (capped at max MP) by absorbing HP its field drained ([흡수])."""

    name: str
    mp: int
    source: str
    breakdown: dict[str, str] = attrs.Factory(dict)
    cause: int = 0
