"""The jsonl export and the import that rebuilds a log from it, byte for byte.

An export is a header line ``{"header": {…}}`` (the log header's fields, its ``format`` version,
the number of ``records`` and the ``chain`` hash after the last one), then one line per record
as ``log --json --all`` prints it: every envelope key in the order the record stores them
(``prev``, the chain hash, as 32 hex digits), plus ``undone``. Nothing about the envelope is
assumed beyond docs/FORMAT.md: keys a later format adds travel as they are.

Because each line carries ``prev``, the chain hash of the record before it, an import knows
line by line whether what it rebuilt is byte for byte what was exported; the header's ``chain``
covers the last line and its ``records`` a truncation. The export itself checks that every line
rebuilds its record's exact bytes, so whatever it writes imports.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, TextIO

import attrs
import msgpack

from tablelog.lang import say
from tablelog.projections.core import undone_after
from tablelog.rules.core import escape_text
from tablelog.store.log import record_error
from tablelog.text import msg

__all__ = [
    "PREV_KEY",
    "UNDONE_KEY",
    "dump",
    "record_line",
    "envelope_of",
    "pack",
    "decoded",
    "export_jsonl",
]

PREV_KEY = "prev"  # an envelope value that is bytes (bin 16, docs/FORMAT.md)
SIG_KEY = "sig"  # the other one: a signed record's signature (bin 64), hex like prev
UNDONE_KEY = "undone"  # added by a line: not part of the envelope
_FLUSH_LINES = 2048


def dump(data: Any) -> str:
    """Return ``data`` as one JSON line (UTF-8 text kept as it is, keys in their order). What
    json leaves raw among the characters that steer a terminal or that some readers take for a
    line break (C1 controls such as CSI and NEL, DEL, bidi marks, LS, PS) is written as
    ``\\uXXXX`` (:func:`escape_text`), so a record is one line by any reader's count and shows
    as text on a terminal; the strings it holds are unchanged."""
    return escape_text(json.dumps(data, ensure_ascii=False))


def record_line(env: dict[str, Any], undone: bool) -> dict[str, Any]:
    """Return a record's ``log --json`` line: its envelope keys in stored order, ``prev`` as
    hex, and ``undone``.

    Args:
        env: A decoded envelope (docs/FORMAT.md), with any optional keys it holds.
        undone: Whether the final undo/redo markers leave the record undone.
    """
    line = {
        key: (value.hex() if key in (PREV_KEY, SIG_KEY) and type(value) is bytes else value)
        for key, value in env.items()
    }
    line[UNDONE_KEY] = undone
    return line


def envelope_of(line: Any) -> dict[str, Any]:
    """Return the envelope a ``log --json`` line holds (the inverse of :func:`record_line`).

    Raises:
        ValueError: not an object, no boolean ``undone``, or a ``prev`` that is not 32 hex digits.
    """
    if type(line) is not dict:
        raise ValueError(say(msg("core.jsonl.not_an_object", "not a JSON object")))
    env = dict(line)
    if type(env.pop(UNDONE_KEY, None)) is not bool:
        raise ValueError(say(msg("core.jsonl.no_undone", "no true/false {key!r}", key=UNDONE_KEY)))
    prev = env.get(PREV_KEY)
    if type(prev) is not str or len(prev) != 32:
        raise ValueError(_not_hex(PREV_KEY, 32))
    try:
        env[PREV_KEY] = bytes.fromhex(prev)
    except ValueError:
        raise ValueError(_not_hex(PREV_KEY, 32)) from None
    if SIG_KEY in env:
        sig = env[SIG_KEY]
        try:
            if type(sig) is not str or len(sig) != 128:
                raise ValueError
            env[SIG_KEY] = bytes.fromhex(sig)
        except ValueError:
            raise ValueError(_not_hex(SIG_KEY, 128)) from None
    return env


def _not_hex(key: str, digits: int) -> str:
    return say(msg("core.jsonl.not_hex", "{key!r} is not {n} hex digits", key=key, n=digits))


def pack(env: dict[str, Any]) -> bytes:
    """Return the payload bytes of an envelope, as the store packs them."""
    return msgpack.packb(env, use_bin_type=True)  # type: ignore[no-any-return]


def decoded(session: Any) -> Iterator[tuple[dict[str, Any], Any]]:
    """Yield ``(envelope, event)`` for every complete record of a session's log, decoded.

    Raises:
        LogError: a corrupt record or one that does not decode (offset and seq named).
    """
    from tablelog import systems
    from tablelog.events.codec import CodecError, from_record

    systems.get(session.header.system)
    for seq, env, offset, _, _ in session.log.records(chain=session.chain):
        try:
            yield env, from_record(env["type"], env["v"], env["data"])
        except CodecError as exc:
            raise record_error(session.path, seq, offset, exc) from None


# -- export -------------------------------------------------------------------------------


def export_jsonl(session: Any, out: TextIO) -> int:
    """Write the jsonl export of a log to ``out``, streaming (memory flat in the records).

    Args:
        session: An open :class:`~tablelog.session.Session`.
        out: A text stream.

    Returns:
        The number of records written.

    Raises:
        LogError: the log does not fold, its chain is broken, or a record cannot be written as
            a line that rebuilds its bytes (a map key that is not a string, bytes in ``data``),
            naming the record.
    """
    folded = session.replayer().fold(None)
    end, undone = folded.end, undone_after(folded.markers)
    header = session.header
    head = {
        "format": session.log.version,
        **attrs.asdict(header),
        "records": end.seq,
        "chain": end.prev.hex(),
    }
    out.write(dump({"header": head}) + "\n")
    chunk: list[str] = []
    records = session.log.records(chain=True)
    try:
        for seq, env, offset, _, payload in records:
            if seq > end.seq:
                break
            text = dump(record_line(env, seq in undone))
            if pack(envelope_of(json.loads(text))) != payload:
                raise record_error(
                    session.path,
                    seq,
                    offset,
                    say(
                        msg(
                            "core.jsonl.unexportable",
                            "cannot be exported as a line that rebuilds its bytes (a value "
                            "JSON cannot hold)",
                        )
                    ),
                )
            chunk.append(text)
            if len(chunk) >= _FLUSH_LINES:
                out.write("\n".join(chunk) + "\n")
                chunk = []
    finally:
        records.close()  # stopped at the folded end: let go of the file now
    if chunk:
        out.write("\n".join(chunk) + "\n")
    return int(end.seq)
