"""Code cast setup of a master: CC point-buy, power per magic kind, tile pool, magic crest.

Source: fate-codecast-phantasm.ko.txt, 1. 코드 캐스트 1.1 (설정) 1)–4); FATE-CC-1 … FATE-CC-10.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tablelog.rules.core import Unknown, require
from tablelog.rules.fate.casting import check_kind, kind_term, kinds_listing
from tablelog.rules.fate.grades import KINDS, Grade
from tablelog.rules.fate.text import count, listing, shown
from tablelog.rules.fate.words import typed_key
from tablelog.text import Msg, Term, msg

__all__ = [
    "ELEMENTS",
    "ATTRIBUTE_ALIASES",
    "normalize_attribute",
    "circuit_cost",
    "crest_cost",
    "attribute_cost",
    "cc_cost_breakdown",
    "power_grade",
    "tile_pool",
    "kind_powers",
    "crest_heal_hp",
    "check_stored_spells",
    "CREST_CAST_HP",
    "EX_POWER",
    "attribute_term",
    "STORED_KIND",
    "crest_stores_none",
]

ELEMENTS: dict[str, tuple[tuple[str, int], tuple[str, int]]] = {
    "earth": (("defense", +1), ("heal", -1)),
    "water": (("heal", +1), ("curse", -1)),
    "fire": (("buff", +1), ("attack", -1)),
    "wind": (("attack", +1), ("defense", -1)),
    "ether": (("curse", +1), ("buff", -1)),
}
"""The five elements: the two kinds each enables, with the power shift of each (FATE-CC-7)."""

SPECIAL = ("hollow", "none")
ATTRIBUTE_ALIASES = {
    "지": "earth",
    "수": "water",
    "화": "fire",
    "풍": "wind",
    "공": "ether",
    "허": "hollow",
    "무": "none",
}
_PLUS_COST = {"C": 1, "B": 2, "A": 3}
EX_POWER = 7
"""The power grade of an EX circuit quality (FATE-CC-5); a cast grade given as EX means 7."""
CREST_CAST_HP = 1
"""HP a crest-stored spell costs on top of its MP (FATE-CC-10)."""


def normalize_attribute(name: str) -> str:
    """Return the English attribute name for ``name`` (its Japanese and Korean words accepted:
    地 火, 지 화, 화 속성 …).

    Raises:
        RuleViolation: FATE-CC-7 if the name is no attribute.

    Source: 코드 캐스트 1.1 3)①; FATE-CC-7, FATE-CC-8.
    """
    key = typed_key("attribute", ATTRIBUTE_ALIASES.get(name, name))
    require(
        key in ELEMENTS or key in SPECIAL,
        "FATE-CC-7",
        msg(
            "fate.attribute.unknown",
            "unknown attribute {name} (earth, water, fire, wind, ether, hollow or none;"
            " or 지 수 화 풍 공 허 무)",
            name=name,
        ),
        Unknown("magic attribute", name),
    )
    return key


def attribute_term(name: str) -> Term:
    """Return an attribute (``fire``, ``hollow`` …) as a game term."""
    return Term("fate.attribute", name)


def circuit_cost(stat: str, grade: Grade) -> int:
    """Return the CC points a circuit quality or quantity grade costs.

    Args:
        stat: ``"quality"`` or ``"quantity"`` (for the message).
        grade: E … EX; a single ``+`` only on C, B or A.

    Returns:
        E 1, D 2, C 3, B 4, A 5, EX 10; C+ 4, B+ 6, A+ 8.

    Raises:
        RuleViolation: FATE-CC-2 for F; FATE-CC-3 for ``++``/``+++`` or a ``+`` on E, D or EX.

    Source: 코드 캐스트 1.1 (* 기본적으로 E 등급은 1점 …); FATE-CC-2, FATE-CC-3.
    """
    term = Term("fate.stat", stat)
    require(
        grade.letter != "F",
        "FATE-CC-2",
        msg(
            "fate.circuit.below_e", "circuit {stat} {grade} is below E", stat=term, grade=str(grade)
        ),
    )
    require(
        grade.plusses <= 1,
        "FATE-CC-3",
        msg(
            "fate.circuit.one_plus",
            "circuit {stat} {grade}: only a single + is allowed",
            stat=term,
            grade=str(grade),
        ),
    )
    if grade.plusses:
        require(
            grade.letter in _PLUS_COST,
            "FATE-CC-3",
            msg(
                "fate.circuit.plus_letters",
                "circuit {stat} {grade}: only C, B and A take a +",
                stat=term,
                grade=str(grade),
            ),
        )
        return grade.value + _PLUS_COST[grade.letter]
    return 10 if grade.is_ex else grade.value


def crest_cost(grade: Grade) -> int:
    """Return the CC points a magic crest grade costs: F 0, E 1 … A 5; C+ 4, B+ 6, A+ 8.

    A crest takes a single ``+`` at C, B and A like every graded stat (the cost paragraph covers
    them all); as for the circuits, the ``+`` changes only the cost (RULES.md FATE-CC-3, revised).

    Raises:
        RuleViolation: FATE-CC-2 for EX; FATE-CC-3 for ``++``/``+++`` or a ``+`` on F, E or D.

    Source: 코드 캐스트 1.1 (마술 각인은 F 등급에서 A 등급까지; C, B, A 등급은 +등급이 붙을 수
        있으며, 각각 1점, 2점, 3점의 추가 점수); FATE-CC-2, FATE-CC-3.
    """
    require(
        not grade.is_ex,
        "FATE-CC-2",
        msg("fate.crest.above_a", "magic crest {grade} is above A", grade=str(grade)),
    )
    require(
        grade.plusses <= 1,
        "FATE-CC-3",
        msg(
            "fate.crest.one_plus",
            "magic crest {grade}: only a single + is allowed",
            grade=str(grade),
        ),
    )
    if grade.plusses:
        require(
            grade.letter in _PLUS_COST,
            "FATE-CC-3",
            msg(
                "fate.crest.plus_letters",
                "magic crest {grade}: only C, B and A take a +",
                grade=str(grade),
            ),
        )
        return grade.value + _PLUS_COST[grade.letter]
    return grade.value


def attribute_cost(attributes: Iterable[str]) -> int:
    """Return the CC points a set of attributes costs.

    Args:
        attributes: Normalized attribute names, at least one, no repeats.

    Returns:
        Elements: the first is free, then 1, 2, 3, 4 more (n·(n−1)/2); hollow or none: 10.

    Raises:
        RuleViolation: FATE-CC-2 for no attribute or a repeat; FATE-CC-8 if hollow or none is
            combined with any other attribute (decision).

    Source: 코드 캐스트 1.1 (마술 속성 … 1 + 2 + 3 + 4점; 허/무 10점); FATE-CC-4, FATE-CC-8.
    """
    names = list(attributes)
    require(
        names,
        "FATE-CC-2",
        msg("fate.attribute.none_given", "a master starts with one attribute; none given"),
    )
    twice = [name for i, name in enumerate(names) if name in names[:i]]
    require(
        not twice,
        "FATE-CC-2",
        msg(
            "fate.attribute.twice",
            "{names} given twice as an attribute",
            names=listing(attribute_term(n) for n in dict.fromkeys(twice)),
        ),
    )
    special = [a for a in names if a in SPECIAL]
    if special:
        require(
            len(names) == 1,
            "FATE-CC-8",
            msg(
                "fate.attribute.stands_alone",
                "{special} stands alone: it cannot be combined with {others}",
                special=attribute_term(special[0]),
                others=listing(attribute_term(n) for n in names if n != special[0]),
            ),
        )
        return 10
    n = len(names)
    return n * (n - 1) // 2


def cc_cost_breakdown(
    quality: Grade, quantity: Grade, crest: Grade, attributes: Iterable[str], budget: int
) -> dict[str, int]:
    """Return the CC cost of each stat and the total, refusing a build over budget.

    Returns:
        ``{"quality": …, "quantity": …, "crest": …, "attributes": …, "total": …, "budget": …}``.

    Raises:
        RuleViolation: FATE-CC-1 when the total exceeds ``budget``; the stat rules' IDs otherwise.

    Source: 코드 캐스트 1.1 (* 마스터는 … CC 설정 점수를 이용해 … 배분); FATE-CC-1.
    """
    costs = {
        "quality": circuit_cost("quality", quality),
        "quantity": circuit_cost("quantity", quantity),
        "crest": crest_cost(crest),
        "attributes": attribute_cost(attributes),
    }
    total = sum(costs.values())
    require(
        total <= budget,
        "FATE-CC-1",
        msg(
            "fate.cc.over_budget",
            "the build costs {cost} ({costs}); the budget is {budget}",
            cost=count(total, "CC point"),
            costs=shown(costs, kind="fate.stat"),
            budget=budget,
        ),
    )
    return {**costs, "total": total, "budget": budget}


def power_grade(quality: Grade) -> int:
    """Return the power grade a circuit quality gives: E 1 … A 5, EX 7 (``+`` adds nothing).

    Source: 코드 캐스트 1.1 1); FATE-CC-5.
    """
    return EX_POWER if quality.is_ex else quality.value


def tile_pool(quantity: Grade) -> int:
    """Return the judgment tiles a circuit quantity gives: quantity × 2 (E 2 … A 10), EX 15.

    Source: 코드 캐스트 1.1 2); FATE-CC-6.
    """
    return 15 if quantity.is_ex else quantity.value * 2


def kind_powers(power: int, attributes: Iterable[str], none_kind: str | None) -> dict[str, int]:
    """Return the power grade of each magic kind the master may use.

    Args:
        power: The power grade from circuit quality.
        attributes: Normalized attribute names.
        none_kind: The one kind a 무 (none) master chose; must be None otherwise.

    Returns:
        ``{kind: power}`` for the enabled kinds only (never below 0), in FATE-CAST-1 order.

    Raises:
        RuleViolation: FATE-CC-8 if ``none`` lacks a valid chosen kind or another attribute has one.

    Source: 코드 캐스트 1.1 3)②③; FATE-CC-7, FATE-CC-8.
    """
    names = list(attributes)
    if "none" in names:
        require(
            none_kind in KINDS,
            "FATE-CC-8",
            msg(
                "fate.attribute.none_needs_kind",
                "attribute none needs --none-kind, one of {kinds}{given}",
                kinds=kinds_listing(KINDS, "or"),
                given=msg("fate.attribute.not_kind", ", not {kind}", kind=none_kind)
                if none_kind
                else "",
            ),
        )
        return {str(none_kind): power + 3}
    require(
        none_kind is None,
        "FATE-CC-8",
        msg(
            "fate.attribute.kind_needs_none",
            "--none-kind {kind} needs the attribute none",
            kind=none_kind,
        ),
    )
    if "hollow" in names:
        return dict.fromkeys(KINDS, power)
    shifts: dict[str, int] = {}
    for name in names:
        for kind, shift in ELEMENTS[name]:
            shifts[kind] = shifts.get(kind, 0) + shift
    return {kind: max(0, power + shifts[kind]) for kind in KINDS if kind in shifts}


def crest_heal_hp(crest: Grade) -> int:
    """Return the HP a magic crest heals each morning: its grade (F 0, E 1 … A 5).

    Source: 코드 캐스트 1.1 4); FATE-CC-9.
    """
    return crest.value


def check_stored_spells(crest: Grade, stored: Mapping[str, int]) -> None:
    """Check the spells stored in a magic crest.

    Args:
        crest: The crest grade.
        stored: ``{kind: grade}`` of the stored spells (any kind, attributes ignored).

    Raises:
        RuleViolation: FATE-CC-10 if a spell is above the crest grade, the total above crest × 2,
            or a kind is unknown.

    Source: 코드 캐스트 1.1 4) ([마술각인의 등급×2] …); FATE-CC-10 (decision on the two figures).
    """
    for kind, grade in stored.items():
        check_kind(kind, "FATE-CC-10", STORED_KIND)
        require(crest.value >= 1, "FATE-CC-10", crest_stores_none(str(crest)))
        require(
            1 <= grade <= crest.value,
            "FATE-CC-10",
            msg(
                "fate.crest.stored_grade_range",
                "stored {kind} grade {grade} is outside {low}..{high} (crest {crest})",
                kind=kind_term(kind),
                grade=grade,
                low=1,
                high=crest.value,
                crest=str(crest),
            ),
        )
    total = sum(stored.values())
    require(
        total <= 2 * crest.value,
        "FATE-CC-10",
        msg(
            "fate.crest.stored_total",
            "stored spells total {total}; crest {crest} holds {most}",
            total=count(total, "grade"),
            crest=str(crest),
            most=2 * crest.value,
        ),
    )


STORED_KIND = msg("fate.what.stored_kind", "stored spell kind")
"""What a crest's stored spell kind is, in a refusal of it (FATE-CC-10)."""


def crest_stores_none(crest: object) -> Msg:
    """Return ``crest F stores no spells`` (FATE-CC-10)."""
    return msg("fate.crest.stores_none", "crest {crest} stores no spells", crest=crest)
