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

    Everything the log's first open will check is checked here, before anything is created:
    a header the store or the system would refuse on opening makes no log (a table the server
    created with an unknown option once answered 503 for ever).

    Raises:
        systems.SystemUnavailable: unknown system.
        RuleViolation: CORE-TEXT for a title with control characters (whoever creates the log:
            the CLI or the table server); CORE-SIZE for a header over the limit; the system's
            refusal of an option (a malformed clock …).
        ValueError: a seed that is no whole number from 0 to 2**63 - 1, or an option the
            system does not take (:func:`systems.check_options`), naming it.
    """
    check_text(title, "the title")  # shown to every player by `state`
    systems.get(system)
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
        raise ValueError(f"seed {seed!r} is not a whole number from 0 to {2**63 - 1:,}")
    options = dict(options)
    declared = systems.get(system)
    if declared.check_options is not None:
        declared.check_options(options)
    else:  # every option one the system takes, as a string (what a log's open checks)
        from tablelog.systems.declaration import string_options

        string_options(system, declared.option_names, options)
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
        raise LogError(
            msg(
                "core.header.options_refused",
                "{path}: header options refused: {why}",
                path=path,
                why=str(exc),
            )
        ) from None
