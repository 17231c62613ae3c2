"""Audit lines of Magic Punk events whose rule IDs depend on what the event records.

``history`` prints :meth:`Event.explain`; an event that applies different RULES.md clauses from
one occurrence to the next (a rebuild of items only, damage with or without pulled punches)
overrides it with :func:`audit_lines` so that the ``rule`` line names exactly those clauses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["audit_lines"]


def audit_lines(
    rule_ids: Iterable[str], breakdown: Mapping[str, object] | None = None
) -> list[str]:
    """Return ``["rule A, B", "key = value", …]`` (no rule line when no rule applied)."""
    ids = list(rule_ids)
    lines = [f"rule {', '.join(ids)}"] if ids else []
    return lines + [f"{key} = {value}" for key, value in (breakdown or {}).items()]
