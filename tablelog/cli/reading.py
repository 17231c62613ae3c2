"""Reading the log more narrowly: one field's history (``history NAME --field hp``), and the
log's last events, one actor's, or those after a seq (``log --tail N --actor A --since SEQ``)."""

from __future__ import annotations

import collections
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

import attrs

from tablelog.rules.core import RuleViolation
from tablelog.text import Listed, msg

__all__ = ["only_fields", "log_window", "check_actor"]

NONE = msg("core.list.none", "none")
"""What a list with nothing in it reads as."""
T = TypeVar("T")


def _matches(path: str, field: str) -> bool:
    return path == field or path.startswith((f"{field}.", f"{field}["))


def only_fields(entries: list[Any], fields: tuple[str, ...], name: str) -> list[Any]:
    """Keep the audit entries that changed one of ``fields``, each with only those changes.

    A field is a record key (``hp``) or a path in it (``effects.attack``, ``phantasms``).

    Raises:
        RuleViolation: UNKNOWN-NAME when no entry ever changed a field, naming the fields the
            record has.
    """
    for field in fields:
        if not any(_matches(p, field) for e in entries for p, _, _ in e.changes):
            known = sorted(
                {p.split(".")[0].split("[")[0] for e in entries for p, _, _ in e.changes}
            )
            raise RuleViolation(
                "UNKNOWN-NAME",
                msg(
                    "core.history.no_field",
                    "{name} has no field {field!r} (its fields: {fields})",
                    name=name,
                    field=field,
                    fields=Listed(tuple(known), "comma") if known else NONE,
                ),
            )
    kept = []
    for entry in entries:
        changes = [c for c in entry.changes if any(_matches(c[0], f) for f in fields)]
        if changes:
            kept.append(attrs.evolve(entry, changes=changes))
    return kept


def log_window(
    pairs: Iterable[tuple[Any, T]], actor: str | None, since: int | None, tail: int | None
) -> Iterator[tuple[Any, T]]:
    """Yield the ``(record, event)`` pairs logged by ``actor``, after seq ``since``, and of
    those only the last ``tail`` (None: no limit of that kind)."""
    chosen = (
        (rec, ev)
        for rec, ev in pairs
        if (actor is None or rec.actor == actor) and (since is None or rec.seq > since)
    )
    yield from (collections.deque(chosen, maxlen=tail) if tail is not None else chosen)


def check_actor(actor: str, actors: set[str]) -> None:
    """Refuse an actor no event of the log was logged by.

    Raises:
        RuleViolation: UNKNOWN-NAME naming the log's actors.
    """
    if actor not in actors:
        raise RuleViolation(
            "UNKNOWN-NAME",
            msg(
                "core.log.no_actor",
                "no event was logged by actor {actor!r} (the log's actors: {actors})",
                actor=actor,
                actors=Listed(tuple(sorted(actors)), "comma") if actors else NONE,
            ),
        )
