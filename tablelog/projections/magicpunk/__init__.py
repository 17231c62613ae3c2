"""Magic Punk projection: the initial state, the JSON rendering, and every evolver.

Importing this package registers the evolvers of every ``magicpunk.*`` event.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.core import State, entity_view
from tablelog.projections.magicpunk import cards as _cards  # noqa: F401 - registers evolvers
from tablelog.projections.magicpunk import combat as _combat  # noqa: F401 - registers evolvers
from tablelog.projections.magicpunk import growth as _growth  # noqa: F401 - registers evolvers
from tablelog.projections.magicpunk.entities import Table, set_deck, table_of
from tablelog.projections.magicpunk.zones import new_deck
from tablelog.rules.magicpunk.cards import parse_deck
from tablelog.rules.magicpunk.clock import parse_clock
from tablelog.rules.magicpunk.optional import parse_adopted

__all__ = ["init_state", "to_json"]


def init_state(state: State, options: dict[str, Any]) -> None:
    """Set up a new session: the clock, the shared deck and the table counters.

    Args:
        state: The blank state (mutated).
        options: ``init`` options: ``clock`` ("DAY HH:MM", default day 1 12:00), ``deck``
            ("C,C,…" or None for the 54-card deck) and ``rules`` (the optional rules adopted,
            :func:`tablelog.rules.magicpunk.optional.parse_adopted`; None: all).

    Raises:
        RuleViolation: MP-CLOCK for a malformed clock; MP-CARDS for a bad deck list; MP-ADOPT
            for an unknown optional rule.

    Source: RULES.md, magicpunk preamble (Decisions: cards, clock).
    """
    day, minutes = parse_clock(options.get("clock"))
    state.clock = {"day": day, "minutes": minutes}
    set_deck(state, new_deck(parse_deck(options.get("deck"))))
    state.extra["magicpunk"] = Table(
        round=1,
        briefing=None,
        rolls=0,
        leisure={},
        rules=list(parse_adopted(options.get("rules"))),
    )


def to_json(state: State) -> dict[str, Any]:
    """Return the JSON state of SPEC, plus ``table``: the combat round and the briefing."""
    table = table_of(state)
    return {
        "system": state.system,
        "title": state.title,
        "seq": state.seq,
        **entity_view(state),
        "table": {"round": table.get("round", 1), "briefing": table.get("briefing")},
    }
