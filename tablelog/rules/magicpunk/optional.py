"""Which optional rules a table adopts (「採用するかどうかを自由に決定してよい」).

The seed's introduction leaves every optional rule to the GM: 「ＧＭはそれぞれの追加ルールについて、
採用するかどうかを自由に決定してよい」. ``init --rules`` names the rules the table uses; all are
adopted by default.
"""

from __future__ import annotations

from tablelog.rules.core import require
from tablelog.rules.magicpunk.text import listing
from tablelog.text import Listed, Msg, msg

__all__ = ["ADOPT_RULE", "OPTIONAL_RULES", "parse_adopted", "check_adopted"]

ADOPT_RULE = "MP-ADOPT"
"""Refusal ID of a command of a rule the table did not adopt, or an unknown rule name."""

OPTIONAL_RULES: dict[str, tuple[Msg, str]] = {
    "sleep-circulation": (msg("magicpunk.optional.sleep", "circulation on sleep"), "MP-CIRC-1"),
    "dawn-circulation": (msg("magicpunk.optional.dawn", "circulation at dawn"), "MP-CIRC-2"),
    "gm-circulation": (msg("magicpunk.optional.gm", "GM circulation"), "MP-CIRC-3"),
    "rests": (msg("magicpunk.optional.rests", "rest packages"), "MP-REST-1"),
    "briefing": (msg("magicpunk.optional.briefing", "briefing packages"), "MP-BRIEF-1"),
    "cover": (msg("magicpunk.optional.cover", "cover"), "MP-COVER-1"),
    "pulling-punches": (msg("magicpunk.optional.pulling", "pulling punches"), "MP-PULL-1"),
    "ma-gear": (msg("magicpunk.optional.ma_gear", "Ma-GEAR without its magic slots"), "MP-GEAR-1"),
    "procurement": (msg("magicpunk.optional.procurement", "procurement checks"), "MP-PROC-1..2"),
    "cohabitation": (msg("magicpunk.optional.cohabitation", "cohabitation"), "MP-COHAB-1..2"),
    "rebuild": (msg("magicpunk.optional.rebuild", "rebuild"), "MP-REBUILD-1..12"),
}
"""Rule name (as ``init --rules`` takes it) -> (what it is, its RULES.md clauses)."""


def parse_adopted(text: str | None) -> tuple[str, ...]:
    """Return the adopted rules, in :data:`OPTIONAL_RULES` order, from ``init --rules``.

    Args:
        text: None or ``all`` (every rule), ``none``, a comma list of rule names, or
            ``no-NAME`` entries (every rule but those; with names or ``all``: those but these).

    Raises:
        RuleViolation: MP-ADOPT for an unknown rule name, a name given twice or an empty list.

    Source: magicpunk-optional-rules.ja.txt, はじめに.
    """
    if text is None:
        return tuple(OPTIONAL_RULES)
    entries = [part.strip() for part in text.split(",")]
    require(
        all(entries),
        ADOPT_RULE,
        msg(
            "magicpunk.adopt.blank",
            "--rules {text!r} has a blank entry (names: {names}; all; none; no-NAME)",
            text=text,
            names=Listed(tuple(OPTIONAL_RULES), "comma"),
        ),
    )
    names = [e.removeprefix("no-") for e in entries if e not in ("all", "none")]
    unknown = [n for n in names if n not in OPTIONAL_RULES]
    require(
        not unknown,
        ADOPT_RULE,
        msg(
            "magicpunk.adopt.unknown",
            "{rules}: not an optional rule (one of {names}; all; none; no-NAME)",
            rules=listing(unknown),
            names=Listed(tuple(OPTIONAL_RULES), "comma"),
        ),
    )
    twice = [e for e in dict.fromkeys(names) if names.count(e) > 1]
    require(
        not twice,
        ADOPT_RULE,
        msg(
            "magicpunk.adopt.twice",
            "{rules} named twice in --rules: name each once",
            rules=listing(twice),
        ),
    )
    positive = [e for e in entries if not e.startswith("no-")]
    start = set(OPTIONAL_RULES) if "all" in positive or not positive else set(positive)
    adopted = start - {"none"} - {e.removeprefix("no-") for e in entries if e.startswith("no-")}
    return tuple(name for name in OPTIONAL_RULES if name in adopted)


def check_adopted(adopted: tuple[str, ...] | list[str] | None, name: str) -> None:
    """Refuse a command of the optional rule ``name`` when the table did not adopt it.

    Args:
        adopted: The adopted rules (None: a session from before ``--rules``: every rule).

    Raises:
        RuleViolation: MP-ADOPT naming the rule and its clauses.

    Source: magicpunk-optional-rules.ja.txt, はじめに.
    """
    what, clauses = OPTIONAL_RULES[name]
    require(
        adopted is None or name in adopted,
        ADOPT_RULE,
        msg(
            "magicpunk.adopt.not_adopted",
            "this table does not use the optional rule {name} ({what}, {clauses}): "
            "init --rules left it out",
            name=name,
            what=what,
            clauses=clauses,
        ),
    )
