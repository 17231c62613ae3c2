"""The rule reference: every rule ID the product names, in its own words, with the seed section
it implements and the decision taken where the seed is silent (``tablelog rules``).

Read once from the packaged ``tablelog/rules/data/rules.toml``.
Source: the seeds (``seeds/*.txt``) through the team's rule digest; each entry names its section.
"""

from __future__ import annotations

import functools
from importlib import resources

import attrs

from tablelog.rules.core import RuleViolation, Unknown
from tablelog.text import msg

__all__ = ["RuleEntry", "systems", "entries", "lookup"]


@attrs.frozen
class RuleEntry:
    """One rule ID as ``tablelog rules ID`` explains it.

    Attributes:
        id: The rule ID (``"PF2E-XFER-6"``).
        title: A few words naming the rule.
        system: ``core`` or a system id.
        seed: The seed file and section it implements, or what it rests on instead.
        text: What the tool enforces or records.
        decision: What the project chose where the seed is silent ("" if nothing).
    """

    id: str
    title: str
    system: str
    seed: str
    text: str
    decision: str = ""

    def to_json(self) -> dict[str, str]:
        """Return the entry as ``rules --json`` prints it."""
        return attrs.asdict(self)


def systems() -> tuple[str, ...]:
    """Return the systems ``tablelog rules`` lists, in the order ``rules.toml`` keeps them
    (``core`` first, then each system's block)."""
    return tuple(dict.fromkeys(entry.system for entry in entries().values()))


@functools.cache
def entries() -> dict[str, RuleEntry]:
    """Return every entry by rule ID, in the file's order (core, then each system)."""
    import tomllib

    text = resources.files("tablelog.rules").joinpath("data", "rules.toml").read_text("utf-8")
    return {
        rule_id: RuleEntry(id=rule_id, **fields) for rule_id, fields in tomllib.loads(text).items()
    }


def lookup(rule_id: str) -> list[RuleEntry]:
    """Return the entry for ``rule_id``, or every entry of a family (``SAGA-ATK``, ``MP``).

    Matching ignores case; a family is a prefix that ends where an ID's part ends.

    Raises:
        RuleViolation: UNKNOWN-NAME when no ID or family matches.
    """
    key = rule_id.strip().upper()
    found = entries().get(key)
    if found is not None:
        return [found]
    family = [e for e in entries().values() if e.id.startswith(f"{key}-")]
    if not family:
        raise RuleViolation(
            "UNKNOWN-NAME",
            msg(
                "core.rules.unknown",
                "no rule ID {rule_id!r} (tablelog rules lists them)",
                rule_id=rule_id,
            ),
            Unknown("rule id", rule_id),
        )
    return family
