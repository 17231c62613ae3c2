"""Masters' unique abilities and servants' madness enhancement limits.

Source: fate-codecast-phantasm.ko.txt, 3. 고유 능력 and 노블 판타즘 1.③, 3.①; FATE-UA-1 … FATE-UA-3,
FATE-NP-4, FATE-NP-8.
"""

from __future__ import annotations

from tablelog.rules.core import require
from tablelog.rules.fate.grades import Grade, parse_grade
from tablelog.rules.fate.phantasm import NP_TYPES, np_setting_points, type_term
from tablelog.rules.fate.text import count, listing
from tablelog.text import msg

__all__ = [
    "UA_TYPES",
    "check_unique_ability",
    "ua_points_earned",
    "check_ua_usable",
    "STARTING_UA_GRADE",
    "check_true_name_allowed",
    "always_uses_per_round",
]

UA_TYPES = ("anti-unit", "anti-army", "army", "field")
STARTING_UA_GRADE = "C"
_MADNESS_LIMIT = parse_grade("B")


def check_unique_ability(grade: Grade, ua_type: str, release: str, starting: bool) -> None:
    """Refuse a unique ability the seed does not allow.

    Raises:
        RuleViolation: FATE-UA-1 for a type above anti-army (other than army/field), an
            always-active or an EX ability; FATE-UA-3 for a starting ability not of grade C.

    Source: 고유 능력 1. and 3.; FATE-UA-1, FATE-UA-3.
    """
    require(
        ua_type in UA_TYPES,
        "FATE-UA-1",
        msg(
            "fate.ua.type",
            "a unique ability is {types}, not {ua_type}",
            types=listing((type_term(t) for t in UA_TYPES), "or"),
            ua_type=type_term(ua_type) if ua_type in NP_TYPES else ua_type,
        ),
    )
    require(
        release == "true-name",
        "FATE-UA-1",
        msg("fate.ua.always", "a unique ability cannot be always-active"),
    )
    require(not grade.is_ex, "FATE-UA-1", msg("fate.ua.ex", "a unique ability cannot be EX"))
    if starting:
        require(
            grade == parse_grade(STARTING_UA_GRADE),
            "FATE-UA-3",
            msg(
                "fate.ua.starting_grade",
                "a starting unique ability is fixed at C, not {grade}",
                grade=str(grade),
            ),
        )


def ua_points_earned(character_grade: int) -> int:
    """Return the setting points a master has earned: 1 per 2 character grades.

    Source: 고유 능력 2. (인물 등급 2등급 당, 1점의 설정 점수); FATE-UA-2.
    """
    return max(0, character_grade) // 2


def check_ua_usable(grade: Grade, character_grade: int, starting: bool) -> None:
    """Refuse the use of a unique ability that costs more points than the master has earned.

    Raises:
        RuleViolation: FATE-UA-2 naming the cost and the grade it needs (B+: 6 points, grade 12).

    Source: 고유 능력 2. (B+ 등급 … 인물 등급이 12등급이 되어야); FATE-UA-2, FATE-UA-3.
    """
    if starting:
        return
    points = np_setting_points(grade)
    earned = ua_points_earned(character_grade)
    require(
        points <= earned,
        "FATE-UA-2",
        msg(
            "fate.ua.points",
            "grade {grade} costs {points}; character grade {character_grade} earns {earned} (it"
            " needs character grade {needs})",
            grade=str(grade),
            points=count(points, "point"),
            character_grade=character_grade,
            earned=earned,
            needs=2 * points,
        ),
    )


def check_true_name_allowed(madness: Grade | None, raging: bool) -> None:
    """Refuse a true-name release by a servant whose madness forbids it.

    Raises:
        RuleViolation: FATE-NP-4 for madness B or higher, or any madness while raging.

    Source: 노블 판타즘 1.③; FATE-NP-4.
    """
    if madness is None:
        return
    require(
        not madness.at_least(_MADNESS_LIMIT),
        "FATE-NP-4",
        msg(
            "fate.madness.forbids",
            "madness {madness} (B or higher) forbids true-name NPs",
            madness=str(madness),
        ),
    )
    require(
        not raging,
        "FATE-NP-4",
        msg(
            "fate.madness.raging",
            "a raging servant (madness {madness}) cannot release a true-name NP",
            madness=str(madness),
        ),
    )


def always_uses_per_round(madness: Grade | None) -> int:
    """Return how often an always-active attack NP may be used per round: 1, or 2 with madness B+.

    Source: 노블 판타즘 3.① (B등급 이상의 '광화' … 회기마다 2번씩); FATE-NP-8.
    """
    return 2 if madness is not None and madness.at_least(_MADNESS_LIMIT) else 1
