"""Noble Phantasm setup and release numbers: points, type limits, MP cost, per-tile damage, targets.

Source: fate-codecast-phantasm.ko.txt, 2. 노블 판타즘 1.–4.; FATE-NP-1 … FATE-NP-9, FATE-NP-12.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from tablelog.rules.core import RuleViolation, Unknown, require
from tablelog.rules.fate.grades import Grade, parse_grade
from tablelog.rules.fate.mods import NPMods, parse_mods
from tablelog.rules.fate.text import article, count, listing
from tablelog.text import Term, msg

__all__ = [
    "NP_TYPES",
    "ATTACK_TYPES",
    "MAX_PHANTASMS",
    "NP_BUDGET",
    "NP_TILES",
    "np_setting_points",
    "check_np_type",
    "check_np_words",
    "parse_madness",
    "np_grade_number",
    "effective_plusses",
    "release_mp_cost",
    "release_mp_formula",
    "NPProfile",
    "np_profile",
    "check_ignores_attacks",
    "PLUS_MP",
    "type_targets",
    "IGNORE_CAP",
    "type_term",
]

ATTACK_TYPES = ("anti-unit", "anti-army", "anti-fortress", "anti-country", "anti-world")
NP_TYPES = (*ATTACK_TYPES, "army", "field")
MAX_PHANTASMS = 3
NP_BUDGET = 10
NP_TILES = 5
"""A true-name NP always puts out 5 tiles (FATE-NP-6, FATE-NP-9)."""
PLUS_MP = 3
"""MP damage per tile each ``+`` of an attack NP adds (FATE-NP-6)."""

_POINTS = {"E": (1,), "D": (2,), "C": (3, 4), "B": (4, 6, 8), "A": (5, 8, 11, 14), "EX": (15,)}
_MINIMUM = {
    "anti-unit": "E",
    "anti-army": "C",
    "anti-fortress": "A+",
    "anti-country": "A++",
    "anti-world": "EX",
    "army": "B",
    "field": "B",
}
_PER_GRADE_MP = {"anti-unit": 5, "anti-army": 7, "army": 5, "field": 5}
_FLAT_MP = {"anti-fortress": 50, "anti-country": 60, "anti-world": 75}
_TYPE_MP_PER_TILE = {"anti-fortress": 5, "anti-country": 5, "anti-world": 10}
_TARGETS = {"anti-unit": 1, "anti-army": 2, "anti-fortress": 3, "anti-country": 5}


def np_setting_points(grade: Grade) -> int:
    """Return the NP points a grade costs (E 1 … A+++ 14, EX 15).

    Raises:
        RuleViolation: FATE-NP-2 for a grade the table does not have (E+, D+, C++, B+++, EX+, F).

    Source: 노블 판타즘 1.①; FATE-NP-2.
    """
    costs = _POINTS.get(grade.letter, ())
    require(
        grade.plusses < len(costs),
        "FATE-NP-2",
        msg(
            "fate.np.no_such_grade",
            "NP grade {grade} does not exist (E, D, C, C+, B, B+, B++, A, A+, A++, A+++ or EX)",
            grade=str(grade),
        ),
    )
    return costs[grade.plusses]


def check_np_words(np_type: str, form: str = "attack", release: str = "true-name") -> None:
    """Refuse a type, form or release kind that is none of the seed's words.

    Raises:
        RuleViolation: FATE-NP-3 for an unknown type, form or release kind.

    Source: 노블 판타즘 1.② (the types), 1.① (true-name and always-active); FATE-NP-3.
    """
    require(
        np_type in NP_TYPES,
        "FATE-NP-3",
        msg(
            "fate.np.unknown_type",
            "unknown NP type {np_type} ({types})",
            np_type=np_type,
            types=listing((type_term(t) for t in NP_TYPES), "or"),
        ),
        Unknown("np type", np_type),
    )
    require(
        form in ("attack", "defense"),
        "FATE-NP-3",
        msg("fate.np.unknown_form", "unknown form {form} (attack or defense)", form=form),
        Unknown("np form", form),
    )
    require(
        release in ("true-name", "always"),
        "FATE-NP-3",
        msg(
            "fate.np.unknown_release",
            "unknown release kind {release} (true-name or always)",
            release=release,
        ),
        Unknown("np release", release),
    )


def type_term(np_type: str) -> Term:
    """Return an NP type (``anti-army``, ``field`` …) as a game term."""
    return Term("fate.np_type", np_type)


def check_np_type(np_type: str, grade: Grade, form: str, release: str) -> None:
    """Refuse a type, form and release that the grade does not allow.

    Raises:
        RuleViolation: FATE-NP-3 for an unknown type, a grade below the type's minimum, an
            always-active NP that is not anti-unit, or a defense-form army or field.

    Source: 노블 판타즘 1.② and 1.① (상시 해방형 보구는 '대인 보구'로 분류); FATE-NP-3.
    """
    check_np_words(np_type, form, release)
    minimum = parse_grade(_MINIMUM[np_type])
    term = type_term(np_type)
    require(
        grade.at_least(minimum),
        "FATE-NP-3",
        msg(
            "fate.np.below_minimum",
            "{a_type} NP must be grade {minimum} or higher, not {grade}",
            a_type=article(term),
            minimum=str(minimum),
            grade=str(grade),
        ),
    )
    require(
        release == "true-name" or np_type == "anti-unit",
        "FATE-NP-3",
        msg(
            "fate.np.always_anti_unit",
            "an always-active NP is anti-unit, not {np_type}",
            np_type=term,
        ),
    )
    require(
        form == "attack" or np_type in ATTACK_TYPES,
        "FATE-NP-3",
        msg("fate.np.no_defense_form", "{a_type} NP has no defense form", a_type=article(term)),
    )


def np_grade_number(np_type: str, form: str, grade: Grade) -> int:
    """Return the grade number an NP's costs count: E 1 … A 5; EX 7, or 5 for army and field.

    Source: 노블 판타즘 2.① ((EX 등급은 7등급으로 계산합니다)); FATE-NP-5.
    """
    if not grade.is_ex:
        return grade.value
    return 5 if np_type in ("army", "field") else 7


def effective_plusses(grade: Grade) -> int:
    """Return the plusses an NP's numbers count: its own, or 2 for EX ("2개의 1등급 특성(+)").

    Source: 노블 판타즘 4.①; FATE-NP-12.
    """
    return 2 if grade.is_ex else grade.plusses


def release_mp_cost(
    np_type: str, form: str, release: str, grade: Grade, extra_grades: int = 0
) -> int:
    """Return the MP a release costs (upkeep is separate).

    Args:
        np_type: One of :data:`NP_TYPES`.
        form: ``"attack"`` or ``"defense"``.
        release: ``"true-name"`` or ``"always"`` (always-active NPs cost no MP).
        grade: The NP's grade; plusses never change the number.
        extra_grades: Grades added to the cost (a master's starting unique ability: 1).

    Returns:
        anti-unit 5/grade, anti-army 7/grade, anti-fortress 50, anti-country 60, anti-world 75,
        defense 3/grade, army and field 5/grade (EX: 7 grades, 5 for army and field).

    Source: 노블 판타즘 2.①; FATE-NP-5, FATE-NP-8, FATE-UA-3.
    """
    if release == "always":
        return 0
    number = np_grade_number(np_type, form, grade) + extra_grades
    if form == "defense":
        return 3 * number
    if np_type in _FLAT_MP:
        return _FLAT_MP[np_type]
    return _PER_GRADE_MP[np_type] * number


def release_mp_formula(
    np_type: str, form: str, release: str, grade: Grade, extra_grades: int = 0, extra_mp: int = 0
) -> str:
    """Return how the release MP cost is reached, e.g. ``"7 x 5 (anti-army A+) = 35"``.

    Source: 노블 판타즘 2.①; FATE-NP-5.
    """
    total = release_mp_cost(np_type, form, release, grade, extra_grades) + extra_mp
    mod = f" {extra_mp:+d} (mod)" if extra_mp else ""
    if release == "always":
        return f"always-active: 0{mod}" + (f" = {total}" if mod else "")
    if form != "defense" and np_type in _FLAT_MP:
        return f"{np_type}: {_FLAT_MP[np_type]}{mod}" + (f" = {total}" if mod else "")
    per = 3 if form == "defense" else _PER_GRADE_MP[np_type]
    number = np_grade_number(np_type, form, grade)
    grades = f"({number} + {extra_grades} starting)" if extra_grades else str(number)
    what = f"{np_type} {form}" if form == "defense" else np_type
    return f"{per} x {grades} ({what} {grade}){mod} = {total}"


@attrs.frozen
class NPProfile:
    """The numbers of one NP, as the state shows them.

    Attributes:
        points: Setting points (FATE-NP-2).
        mp_cost: MP per release (FATE-NP-5).
        hp_per_tile: HP damage per tile (attack NPs; 0 otherwise).
        mp_per_tile: MP damage per tile (attack NPs; 0 otherwise).
        targets: Front-row targets per release (None: all of the front row).
        tiles: Tiles per release (5 true-name; 1 per target for always-active attack).
        block_per_tile: HP and MP a defensive NP's tile takes off a critical attack.
        hp_max_bonus: Max HP a defensive NP adds to its servant (FATE-NP-9).
        formula: How each number came about, for the audit trail.
    """

    points: int
    mp_cost: int
    hp_per_tile: int
    mp_per_tile: int
    targets: int | None
    tiles: int
    block_per_tile: int = 0
    hp_max_bonus: int = 0
    formula: Mapping[str, str] = attrs.field(factory=dict)

    def numbers(self) -> dict[str, int | None]:
        """Return the numbers a PhantasmAdded records, by field name (no formula)."""
        return {
            "points": self.points,
            "mp_cost": self.mp_cost,
            "hp_per_tile": self.hp_per_tile,
            "mp_per_tile": self.mp_per_tile,
            "targets": self.targets,
            "tiles": self.tiles,
            "block_per_tile": self.block_per_tile,
            "hp_max_bonus": self.hp_max_bonus,
        }


def _attack_damage(np_type: str, release: str, grade: Grade, mods: NPMods) -> tuple[int, int, str]:
    """Return (HP per tile, MP per tile, formula text) of an attack NP."""
    if mods.no_damage:
        return 0, 0, "no damage (mod damage=none)"
    plusses = effective_plusses(grade)
    if release == "always":
        hp, text = grade.value + (5 if grade.is_ex else 0), f"grade {grade.value}"
    else:
        hp, text = (15, "EX 10 + 5") if grade.is_ex else (2 * grade.value, f"2 x {grade.value}")
    if mods.piercing:
        hp_plus, mp_plus = 5 * plusses, 0
        text += f" + piercing 5 x {count(plusses, 'plus')}"
    else:
        hp_plus, mp_plus = 0, PLUS_MP * plusses
    type_mp = _TYPE_MP_PER_TILE.get(np_type, 0)
    hp = max(0, hp + hp_plus + mods.hp_per_tile)
    mp = max(0, mp_plus + type_mp + mods.mp_per_tile)
    text += f" {mods.hp_per_tile:+d} (mod)" if mods.hp_per_tile else ""
    text += f" HP; MP 3 x {count(plusses, 'plus')}" if not mods.piercing else " HP; MP 0"
    text += f" + {np_type} {type_mp}" if type_mp else ""
    text += f" {mods.mp_per_tile:+d} (mod)" if mods.mp_per_tile else ""
    return hp, mp, text


def type_targets(np_type: str) -> int | None:
    """Return the front-row targets an attack NP of ``np_type`` hits (None: all of them).

    Source: 노블 판타즘 2.④; FATE-NP-7.
    """
    return _TARGETS.get(np_type)


def _targets(np_type: str, form: str, mods: NPMods) -> int | None:
    """Return the targets per release (None: the whole front row / the battlefield)."""
    if mods.targets is not None:
        return mods.targets
    if form == "defense":
        return 1
    return _TARGETS.get(np_type)


def np_profile(
    grade: Grade,
    np_type: str,
    form: str,
    release: str,
    mods: Mapping[str, str] | NPMods,
    extra_grades: int = 0,
) -> NPProfile:
    """Return the numbers of an NP from its grade, type, form, release kind and modifiers.

    Raises:
        RuleViolation: FATE-NP-2, FATE-NP-3 (see the checks), FATE-NP-13 for a bad modifier.

    Source: 노블 판타즘 1.–4.; FATE-NP-2 … FATE-NP-9, FATE-NP-12, FATE-NP-13.
    """
    parsed = mods if isinstance(mods, NPMods) else parse_mods(mods)
    points = np_setting_points(grade)
    check_np_type(np_type, grade, form, release)
    mp_cost = release_mp_cost(np_type, form, release, grade, extra_grades) + parsed.mp_cost
    require(
        mp_cost >= 0,
        "FATE-NP-13",
        msg(
            "fate.np.cost_below_zero",
            "mp-cost={mod} would make a release cost {mp} MP: a release never gives MP",
            mod=parsed.mp_cost,
            mp=mp_cost,
        ),
    )
    formula = {
        "points": f"{grade} = {points}",
        "mp_cost": release_mp_formula(np_type, form, release, grade, extra_grades, parsed.mp_cost),
    }
    tiles = NP_TILES if release == "true-name" else 1
    if form == "defense":
        n = np_grade_number(np_type, form, grade)
        bonus = 20 if grade.is_ex else 10 * grade.plusses
        if release == "true-name":
            block = 20 if grade.is_ex else 3 * n
        elif parsed.ignores_attacks:
            check_ignores_attacks(grade)
            block, tiles = 0, 0
        else:
            block, tiles = 2 * n, 2 * n
        formula["block_per_tile"] = f"{block}"
        return NPProfile(points, mp_cost, 0, 0, 1, tiles, block, bonus, formula)
    if np_type in ("army", "field"):
        return NPProfile(points, mp_cost, 0, 0, _targets(np_type, form, parsed), 0, formula=formula)
    hp, mp, text = _attack_damage(np_type, release, grade, parsed)
    formula["per_tile"] = text
    return NPProfile(
        points, mp_cost, hp, mp, _targets(np_type, form, parsed), tiles, formula=formula
    )


IGNORE_CAP = parse_grade("B")
"""The highest grade of an always-active NP that ignores attacks instead of raising tiles."""


def check_ignores_attacks(grade: Grade) -> None:
    """Refuse an always-active NP that ignores attacks above grade B (letters; plusses aside).

    Raises:
        RuleViolation: FATE-NP-15 naming the grade.

    Source: 노블 판타즘 3.② (등급에 따른 특정 판정 무시 효과 … 보구의 최대 등급은 B 등급으로
        제한); FATE-NP-15.
    """
    require(
        not grade.is_ex and grade.value <= IGNORE_CAP.value,
        "FATE-NP-15",
        msg(
            "fate.np.ignores_above_b",
            "an always-active NP that ignores attacks is at most grade B, not {grade}",
            grade=str(grade),
        ),
    )


def parse_madness(text: str) -> Grade:
    """Parse a madness enhancement grade (FATE-NP-4)."""
    try:
        return parse_grade(text)
    except RuleViolation as exc:
        raise RuleViolation(
            "FATE-NP-4", msg("fate.madness.not_a_grade", "madness {message}", message=exc.msg)
        ) from None


def parse_np_grade(text: str) -> Grade:
    """Parse an NP grade, refusing one the NP table does not have (FATE-NP-2)."""
    try:
        grade = parse_grade(text)
    except RuleViolation as exc:
        raise RuleViolation("FATE-NP-2", exc.msg) from None
    np_setting_points(grade)
    return grade
