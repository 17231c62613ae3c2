"""Optimistic concurrency: a command lost a race to another writer; decide it again.

A command is folded and decided without the lock and appended only where the log still ended
(docs/RELIABILITY.md). When another writer appended first, the session catches up and decides it
again; after three lost races it holds the lock from the fold to the append, so it cannot
starve on a busy log. A bare ``undo`` or ``redo`` is decided once: when the log moved on before
it was appended, it is refused rather than retargeted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tablelog.commands.core import Redo, Undo
from tablelog.rules.core import RuleViolation
from tablelog.store.log import LogError
from tablelog.text import msg
from tablelog.writer import Writer

__all__ = ["TRIES", "optimistically"]

TRIES = 3  # then the command holds the lock from fold to append
T = TypeVar("T")


def optimistically(attempt: Callable[[], T | None], command: object, writer: Writer) -> T:
    """Run ``attempt`` (fold, decide, append once: None when another writer appended first)
    until it appends, then under the lock.

    Args:
        attempt: One try; it catches up on what others appended before it returns None.
        command: The command it decides (a bare undo or redo is tried once).
        writer: The session's writer (its lock; an atomic run's buffer).

    Returns:
        What the try that appended returned.

    Raises:
        RuleViolation: CORE-UNDO / CORE-REDO when a bare undo or redo lost a race.
        LogError: the log moved on under an atomic run's lock, or under this one's.
    """
    bare = isinstance(command, Undo | Redo) and command.target is None
    for _ in range(TRIES):
        outcome = attempt()
        if outcome is not None:
            return outcome
        if bare and isinstance(command, Undo):
            raise RuleViolation(
                "CORE-UNDO",
                msg(
                    "core.undo.raced",
                    "the log moved on while deciding which action to undo; name the action: "
                    "undo SEQ",
                ),
            )
        if bare:
            raise RuleViolation(
                "CORE-REDO",
                msg(
                    "core.redo.raced",
                    "the log moved on while deciding which action to redo; name the action: "
                    "redo SEQ",
                ),
            )
    path = writer.log.path
    if writer.lock is not None or writer.pending is not None:
        raise LogError(
            msg("core.retry.atomic", "{path}: the log moved on under an atomic run", path=path)
        )
    with writer.locked():  # a busy log: stop racing, hold the lock from the fold to the append
        outcome = attempt()
    if outcome is None:
        raise LogError(
            msg("core.retry.locked", "{path}: the log moved on while it was locked", path=path)
        )
    return outcome
