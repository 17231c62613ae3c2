"""A log's header as the session uses it: a new one, checked before its log is created; the
system's check of an opened one's options; the state before any event (docs/FORMAT.md).

The store writes and reads headers (:mod:`tablelog.store.format`); what a header must hold
beyond its fields is the system's to say, so it is checked here, above the store. A new
header's session id and seed are drawn here (the seed: only when ``init`` gives none).
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from tablelog import systems
from tablelog.projections.core import State
from tablelog.rules.core import RuleViolation, check_text
from tablelog.store.format import MAX_HEADER_BYTES, Header, pack_header
from tablelog.store.log import LogError
from tablelog.store.stamp import now_utc
from tablelog.text import msg

__all__ = ["new_header", "initial_state", "check_header"]


def new_header(system: str, title: str, seed: int | None, options: dict[str, Any]) -> Header:
    """Return the header of a new log, checked as ``init`` must refuse before creating it.

    Args:
        system: The system's name (:func:`tablelog.systems.names`).
        title: Shown to every player by ``state``.
        seed: The session's random seed; None draws one (63 bits).
        options: The system's ``init`` options, as strings.

    Raises:
        systems.SystemUnavailable: unknown system.
        RuleViolation: CORE-TEXT for a title with control characters (whoever creates the log:
            the CLI or the table server); CORE-SIZE for a header over the limit; the system's
            refusal of an option (a malformed clock …).
    """
    check_text(title, "the title")  # shown to every player by `state`
    systems.get(system)
    header = Header(
        session_id=uuid.uuid4().hex,
        system=system,
        created=now_utc(),
        seed=secrets.randbits(63) if seed is None else seed,
        title=title,
        options=dict(options),
    )
    _ = initial_state(header)  # a bad option (e.g. a malformed clock) refuses before creating
    size = len(pack_header(header))
    if size > MAX_HEADER_BYTES:
        raise RuleViolation(
            "CORE-SIZE",
            msg(
                "core.size.header",
                "the title and options take {size} bytes; a header holds at most {most}",
                size=size,
                most=MAX_HEADER_BYTES,
            ),
        )
    return header


def initial_state(header: Header) -> State:
    """Return the state before any event of the log with ``header``.

    Raises:
        systems.SystemUnavailable: unknown system.
        RuleViolation, ValueError: the system refuses an option.
    """
    return systems.initial_state(
        header.system, header.title, header.session_id, header.seed, header.options
    )


def check_header(path: str, header: Header) -> None:
    """Check an opened log's header options with its system (:func:`systems.check_options`).

    Raises:
        LogError: ``"{path}: header options refused: …"`` (the log is unusable).
    """
    try:
        systems.check_options(header.system, header.options)
    except ValueError as exc:
        raise LogError(f"{path}: header options refused: {exc}") from None
