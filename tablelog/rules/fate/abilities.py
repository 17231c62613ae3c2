"""What the NP abilities declared as modifiers do, in numbers (FATE-NP-12, -13, -15).

:mod:`.mods` declares the abilities (data); this module computes what each does when it comes
into play: a used ``+`` of an attack NP, an attack an NP ignores, an EX defensive NP's counter,
a field's drain and what its owner absorbs, familiars, shots and charges.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 3.①②, 4.②, 5. and 5-2. (examples); FATE-NP-12,
FATE-NP-13, FATE-NP-15.
"""

from __future__ import annotations

import attrs

from tablelog.rules.core import require
from tablelog.rules.fate.grades import Grade
from tablelog.rules.fate.mods import NPMods
from tablelog.rules.fate.phantasm import PLUS_MP, effective_plusses, type_targets
from tablelog.rules.fate.text import count
from tablelog.text import msg

__all__ = [
    "PlusUse",
    "attack_plus_use",
    "ignores_rank",
    "attack_rank",
    "EX_COUNTER_HP",
    "EX_COUNTER_NP_HP",
    "DRAIN_OFFSET_HP",
    "drain_hp",
    "absorbed_mp",
    "familiar_mp",
    "shots_mp",
]

EX_COUNTER_HP = 5
"""Fixed HP an EX defensive NP deals the attacker for each judgment it wins (FATE-NP-12)."""
EX_COUNTER_NP_HP = 10
"""Fixed HP more for each true-name attack NP judgment it blocks without damage (FATE-NP-12)."""
DRAIN_OFFSET_HP = 2
"""HP of a drain each anti-magic grade cancels ([상쇄]: one grade, 2 HP, as for attacks)."""


@attrs.frozen
class PlusUse:
    """What using an attack NP's ``+`` (``--use-plus``) changes, by its + abilities.

    Attributes:
        hp: HP added per tile ([위력Ⅰ], ``plus-hp``).
        mp: MP added per tile ([위력Ⅱ], ``plus-mp``: each ``+`` gives that instead of 3).
        targets: Front-row targets allowed ([확장], ``widen``), or None (unchanged).
        text: How, for the breakdown.
    """

    hp: int
    mp: int
    targets: int | None
    text: str


def attack_plus_use(grade: Grade, mods: NPMods) -> PlusUse:
    """Return what using an attack NP's ``+`` changes: its + abilities, nothing else (the seed
    says a used ``+`` does not raise the MP damage of the ``+`` itself, 3.①).

    Raises:
        RuleViolation: FATE-NP-13 when the NP has no ``+`` or no + ability (the flag would do
            nothing).

    Source: 노블 판타즘 3.① (+능력치를 사용하더라도 이 추가점은 증가하지 않습니다), 5.① ([위력Ⅰ]
        생명력 피해 +2점; [위력Ⅱ] + 능력치 하나 발동 시 마다 = 마력 피해 +6점), 5.⑤ ([확장] 공격
        대상이 '대군 보구' 만큼으로 증가, 마력 소모는 증가하지 않습니다); FATE-NP-13.
    """
    plusses = effective_plusses(grade)
    require(
        plusses > 0,
        "FATE-NP-13",
        msg("fate.plus.none", "an NP of grade {grade} has no + to use", grade=str(grade)),
    )
    require(
        mods.plus_abilities,
        "FATE-NP-13",
        msg(
            "fate.plus.no_ability",
            "--use-plus does nothing for this NP: an attack NP uses its + only through a +"
            " ability (widen, plus-hp or plus-mp)",
        ),
    )
    mp = 0 if mods.plus_mp is None or mods.piercing else (mods.plus_mp - PLUS_MP) * plusses
    targets = type_targets(mods.widen) if mods.widen else None
    parts = [
        f"+{mods.plus_hp} HP" if mods.plus_hp else "",
        f"{plusses} x ({mods.plus_mp} - {PLUS_MP}) = +{mp} MP" if mp else "",
        f"targets {targets} ({mods.widen})" if targets else "",
    ]
    return PlusUse(mods.plus_hp, mp, targets, "; ".join(p for p in parts if p))


def ignores_rank(np_grade: Grade, rank: int | None) -> bool:
    """Return whether an NP that ignores attacks (of its grade or lower) ignores one of
    ``rank`` (a grade number: E 1 … A 5, EX 7; None: no rank, never ignored).

    Source: 노블 판타즘 5.⑨ (B랭크 이하의 공격을 무시할 수 있습니다); FATE-NP-15.
    """
    return rank is not None and rank <= np_grade.value


def attack_rank(grade: Grade) -> int:
    """Return an NP's rank as an attack: its letter value (E 1 … A 5), EX 7; plusses aside.

    Source: 노블 판타즘 2.① (EX 등급은 7등급으로 계산합니다); FATE-NP-15 (decision: letters).
    """
    return 7 if grade.is_ex else grade.value


def drain_hp(drain: int, anti_magic: int, offset: bool) -> int:
    """Return the HP a field's drain takes from one character in a round: ``drain``, less 2 a
    grade of anti-magic when the drain may be offset, never below 0.

    Source: 노블 판타즘 5.⑦ ([고갈Ⅰ] 생명력을 전투 회기 당 8점 … 감소; [상쇄] 상대의 대마력 등급에
        의해 상쇄); FATE-NP-13.
    """
    return max(0, drain - (DRAIN_OFFSET_HP * anti_magic if offset else 0))


def absorbed_mp(drained_hp: int, mp: int, mp_max: int) -> int:
    """Return the MP a field's owner absorbs: half the HP drained (rounded down), up to max MP.

    Source: 노블 판타즘 5.⑦ ([흡수] 감소한 모든 인원의 생명력을 절반 수준의 마력으로 전환);
        FATE-NP-13 (decision: rounded down, capped at max MP).
    """
    return max(0, min(drained_hp // 2, mp_max - mp))


def familiar_mp(mods: NPMods, units: int) -> tuple[int, str]:
    """Return the MP ``units`` familiars cost and how: (summon MP − discount) each, never below 0.

    Raises:
        RuleViolation: FATE-NP-11 for fewer than 1 familiar.

    Source: 노블 판타즘 5-2.⑨ ([소환] 5점의 마력을 소모해 사역마를 소환 … 숫자 제한 없이 …
        유지마력을 소모하지 않지만; [지원] 소환에 필요한 마력이 2점 감소); FATE-NP-11, FATE-NP-13.
    """
    require(
        units >= 1,
        "FATE-NP-11",
        msg("fate.familiar.none", "--units {units}: summon at least 1 familiar", units=units),
    )
    base = mods.familiar_mp or 0
    each = max(0, base - mods.familiar_discount)
    return each * units, (
        f"({base} - {mods.familiar_discount} support) x {count(units, 'familiar')} = {each * units}"
    )


def shots_mp(mods: NPMods, times: int) -> tuple[int, str]:
    """Return the MP ``times`` shots cost in one judgment, and how.

    Raises:
        RuleViolation: FATE-NP-13 for fewer than 1 shot or more than the NP's ``shots``.

    Source: 노블 판타즘 5.④, 5-2.① ([사격] 5점의 마력을 소모해 해당 판정을 <치명:공격> 판정으로;
        중복 사용이 가능합니다 = 2개의 보구를 1회의 판정으로); FATE-NP-13.
    """
    require(
        1 <= times <= mods.shots,
        "FATE-NP-13",
        msg(
            "fate.shot.too_many",
            "{shots} asked; this NP fires 1 to {most} in one judgment",
            shots=count(times, "shot"),
            most=mods.shots,
        ),
    )
    per = mods.shot_mp or 0
    return per * times, f"{per} x {count(times, 'shot')} = {per * times}"
