"""Combat helpers: damage with pulling punches (手加減), healing, cover (かばう) and briefing.

HP are plain integers; a character's HP may go below 0 (the core rule's negative HP).
"""

from __future__ import annotations

from tablelog.rules.core import require
from tablelog.text import Msg, Term, msg, msgn

__all__ = [
    "BRIEFING_PACKAGES",
    "BRIEFING_LIMITS",
    "hp_after_damage",
    "hp_after_heal",
    "cover_outcome",
    "briefing_limit",
    "check_preparation",
]

BRIEFING_PACKAGES: dict[str, Msg] = {
    "10s": msg("magicpunk.briefing.10s", "about 10 seconds: each PC takes one preparation"),
    "1m": msg("magicpunk.briefing.1m", "about 1 minute: up to 6 preparations each, in total"),
    "ample": msg("magicpunk.briefing.ample", "ample time: any number of preparations"),
}
BRIEFING_LIMITS: dict[str, int | None] = {"10s": 1, "1m": 6, "ample": None}
"""Preparations each PC (or aware enemy) may take, per briefing package (None: any number)."""


def hp_after_damage(hp: int, amount: int, pull_punches: bool) -> int:
    """Return the target's HP after ``amount`` damage.

    Args:
        hp: Current HP (may be negative).
        amount: Damage dealt (>= 0).
        pull_punches: The attacker declared pulling punches before the attack roll.

    Returns:
        ``hp - amount``; with pulling punches never below 0 (a target already below 0 stays
        where it is).

    Raises:
        RuleViolation: MP-PULL-1 if ``amount`` is negative.

    Source: magicpunk-optional-rules.ja.txt, 手加減; MP-PULL-1.
    """
    require(
        amount >= 0,
        "MP-PULL-1",
        msg("magicpunk.hp.damage_negative", "damage is 0 or more, got {amount}", amount=amount),
    )
    after = hp - amount
    return max(after, min(hp, 0)) if pull_punches else after


def hp_after_heal(hp: int, hp_max: int, amount: int) -> int:
    """Return HP after healing ``amount``, never above ``hp_max`` (a higher HP stays).

    Raises:
        RuleViolation: MP-PULL-1 if ``amount`` is negative.
    """
    require(
        amount >= 0,
        "MP-PULL-1",
        msg("magicpunk.hp.heal_negative", "healing is 0 or more, got {amount}", amount=amount),
    )
    return max(hp, min(hp_max, hp + amount))


def cover_outcome(acted: bool) -> tuple[bool, bool]:
    """Return ``(acted, keep_acted_next_round)`` for a coverer.

    A coverer who has not acted this round becomes acted; one who already acted stays acted at
    the next round's start.

    Source: magicpunk-optional-rules.ja.txt, かばう; MP-COVER-1.
    """
    return (True, acted)


def briefing_limit(package: str) -> int:
    """Return the preparations each PC (or aware enemy) may take in ``package`` (0: any number).

    The seed gives each PC one preparation in a 10-second briefing and "up to 6 in total" in a
    1-minute one (ＰＣはそれぞれ…合計で6回まで: per PC, over all kinds of preparation).

    Raises:
        RuleViolation: MP-BRIEF-1 for an unknown package.

    Source: magicpunk-optional-rules.ja.txt, ブリーフィングパッケージ; MP-BRIEF-1.
    """
    require(
        package in BRIEFING_PACKAGES,
        "MP-BRIEF-1",
        msg(
            "magicpunk.briefing.unknown_package",
            "unknown briefing package {package!r} (10s, 1m or ample)",
            package=package,
        ),
    )
    return BRIEFING_LIMITS[package] or 0


def check_preparation(package: str, limit_each: int, taken_by_actor: int) -> None:
    """Check that one more preparation by one PC (or aware enemy) fits the briefing's limit.

    Args:
        package: The package's name (for the message).
        limit_each: Its limit, as :func:`briefing_limit` gave it when the briefing began (0: any
            number).
        taken_by_actor: Preparations this PC (or enemy) has already taken.

    Raises:
        RuleViolation: MP-BRIEF-1 for a preparation over the limit.

    Source: MP-BRIEF-1.
    """
    require(
        not limit_each or taken_by_actor < limit_each,
        "MP-BRIEF-1",
        msgn(
            "magicpunk.briefing.over_limit",
            "{package} briefing: each takes at most {n} preparation, and this one has already "
            "taken {taken}",
            "{package} briefing: each takes at most {n} preparations, and this one has already "
            "taken {taken}",
            limit_each,
            package=Term("magicpunk.briefing", package),
            taken=taken_by_actor,
        ),
    )
