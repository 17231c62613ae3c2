"""The base of every fate event: the rule IDs behind one event, not every rule its type may use.

``@event(rules=...)`` lists every rule an event *type* may stand on; :meth:`FateEvent.rule_ids`
names the ones behind *this* event (a damage event from a code cast names FATE-CAST-4, from an NP
FATE-NP-6/7 …), and ``history`` prints those. Events whose rules depend on what the decider saw
(defense tiles met, the NP's form) carry them in a ``rules`` field; the others derive them from
their own fields.
"""

from __future__ import annotations

from tablelog.events.core import Event

__all__ = ["FateEvent", "with_rules"]


class FateEvent(Event):
    """An event of the fate system (subclasses are ``@attrs.frozen``)."""

    __slots__ = ()

    def rule_ids(self) -> tuple[str, ...]:
        """Return the rule IDs behind this event: its ``rules`` field when it has one that is
        set (events logged before it existed fall back to the type's list), else the type's."""
        stored = getattr(self, "rules", ())
        return tuple(stored) if stored else self.RULES


def with_rules(*groups: object) -> tuple[str, ...]:
    """Return the rule IDs given (strings, or falsy to skip), in order, without repeats."""
    out: list[str] = []
    for item in groups:
        if isinstance(item, str) and item and item not in out:
            out.append(item)
    return tuple(out)
