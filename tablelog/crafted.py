"""What only a crafted record puts in a log: an actor, or a character, item or seat name, that
entry refuses (CORE-NAME: ``--actor`` and every command check them). ``verify`` and ``import``
both refuse a log that holds one (exit 1), naming the record.
"""

from __future__ import annotations

from typing import Any

__all__ = ["actor_fault", "name_fault"]


def actor_fault(actor: str) -> str:
    """Return why ``--actor`` would refuse ``actor`` (CORE-NAME) and what it shows as (an
    invisible character makes ``Ann\\u200b`` look like ``Ann``), or ``""``."""
    import unicodedata

    from tablelog.rules.core import RuleViolation, check_name

    try:
        check_name(actor, "the actor")
    except RuleViolation as exc:
        shown = "".join(ch for ch in actor if unicodedata.category(ch) not in ("Cc", "Cf"))
        looks = f"; it shows as {shown!r}" if shown and shown != actor else ""
        return f"{exc.rule_id}: {exc.message}{looks}"
    return ""


def name_fault(state: Any) -> tuple[str, str] | None:
    """Return ``(name, why)`` for the first character, item or seat name of a folded state
    that entry refuses (``why``: ``"CORE-NAME: …, which tablelog refuses at entry: a crafted
    record"``), or None."""
    from tablelog.projections.core import seats
    from tablelog.rules.core import RuleViolation, check_name

    for what, names in (
        ("a character's name", state.characters),
        ("an item's name", state.items),
        ("a seat's name", seats(state)),
    ):
        for entity in names:
            try:
                check_name(entity, what)
            except RuleViolation as exc:
                return entity, (
                    f"{exc.rule_id}: {exc.message}, which tablelog refuses at entry: a crafted "
                    "record"
                )
    return None
