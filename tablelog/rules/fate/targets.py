"""Who a Noble Phantasm's release may hit: target limits, front and back row.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.④ (보구의 형태에 따른 특성); FATE-NP-7.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tablelog.rules.core import require
from tablelog.rules.fate.phantasm import type_term
from tablelog.rules.fate.text import article, count, listing
from tablelog.text import msg

__all__ = ["TargetPlan", "plan_targets", "back_row_hp", "ANTI_WORLD_BACK_MP"]

ANTI_WORLD_BACK_MP = 5
"""MP damage per tile an anti-world NP deals to the back row (FATE-NP-7)."""


@attrs.frozen
class TargetPlan:
    """How one target of a release is hit.

    Attributes:
        name: The target.
        row: ``"front"`` or ``"back"``.
        share: ``"full"`` (per-tile numbers), ``"half-of-front"`` (anti-country back row: half the
            HP the front-row target ``behind_of`` took) or ``"half"`` (anti-world back row: half
            the per-tile HP and 5 MP per tile, not reduced by the front row).
        behind_of: The front-row target an anti-country back-row target stands behind.
    """

    name: str
    row: str
    share: str = "full"
    behind_of: str | None = None


def plan_targets(
    np_type: str, limit: int | None, targets: Sequence[tuple[str, str]]
) -> list[TargetPlan]:
    """Check a release's targets and say how each is hit.

    Args:
        np_type: The NP's type.
        limit: Front-row targets allowed (None: no limit).
        targets: ``(name, row)`` in the order given; an anti-country back-row target stands
            behind the front-row target named just before it (decision).

    Returns:
        One plan per target, in order.

    Raises:
        RuleViolation: FATE-NP-7 for no target, a repeat, too many front-row targets, a back-row
            target of an anti-army or anti-fortress NP, or an anti-country back-row target with no
            front-row target named before it.

    Source: 노블 판타즘 2.④; FATE-NP-7 (anti-unit: any row — decision).
    """
    names = [name for name, _ in targets]
    a_type = article(type_term(np_type))
    require(
        names,
        "FATE-NP-7",
        msg("fate.release.needs_target", "{a_type} release needs a --target", a_type=a_type),
    )
    twice = [name for i, name in enumerate(names) if name in names[:i]]
    require(
        not twice,
        "FATE-NP-7",
        msg(
            "fate.target.twice",
            "{names} named twice as a target",
            names=listing(dict.fromkeys(twice)),
        ),
    )
    front = [name for name, row in targets if row == "front" or np_type == "anti-unit"]
    require(
        limit is None or len(front) <= limit,
        "FATE-NP-7",
        msg(
            "fate.release.too_many_targets",
            "{a_type} NP hits at most {most}, {n} named ({names})",
            a_type=a_type,
            most=count(limit or 0, "front-row target"),
            n=len(front),
            names=listing(front),
        ),
    )
    plans: list[TargetPlan] = []
    last_front: str | None = None
    for name, row in targets:
        if row == "front" or np_type == "anti-unit":
            plans.append(TargetPlan(name, row))
            last_front = name
        elif np_type == "anti-country":
            require(
                last_front is not None,
                "FATE-NP-7",
                msg(
                    "fate.release.back_row_first",
                    "back-row {name} must follow the front-row target it stands behind",
                    name=name,
                ),
            )
            plans.append(TargetPlan(name, row, "half-of-front", last_front))
        else:
            require(
                np_type == "anti-world",
                "FATE-NP-7",
                msg(
                    "fate.release.front_row_only",
                    "{a_type} NP hits only the front row; {name} is in the back row",
                    a_type=a_type,
                    name=name,
                ),
            )
            plans.append(TargetPlan(name, row, "half"))
    return plans


def back_row_hp(hp: int) -> int:
    """Return the half a back-row target takes (rounded down — decision).

    Source: 노블 판타즘 2.④ (절반의 피해); FATE-NP-7.
    """
    return hp // 2
