"""The import: a new log rebuilt from a jsonl export (:mod:`tablelog.exports.jsonl`), byte for
byte, and verified before it takes its name; an export that does not rebuild a sound log is
refused naming the line, and nothing is created.
"""

from __future__ import annotations

import json
import os
import secrets
import struct
import zlib
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

import attrs

from tablelog.exports.jsonl import PREV_KEY, UNDONE_KEY, envelope_of, pack
from tablelog.lang import say
from tablelog.projections.core import undone_after
from tablelog.store.format import (
    BATCH_KEY,
    MAX_RECORD_BYTES,
    RECORD_PREFIX,
    FormatError,
    Header,
    chain_hash,
    check_envelope,
    pack_header,
    parse_header,
)
from tablelog.store.log import LogError, LogFile, create_file, fsync_dir, remove_quietly
from tablelog.text import Msg, english, msg

__all__ = ["ImportRefused", "Imported", "bounded", "import_jsonl", "MAX_LINE_BYTES"]

MAX_LINE_BYTES = 8 * MAX_RECORD_BYTES  # a record's JSON line: at most 7 bytes a payload byte


class ImportRefused(Exception):
    """An export that does not rebuild a sound log: ``line`` (1 = the header) says where.

    Attributes:
        line: The export's line.
        reason: What is wrong with it (a sentence as data, or a store's words).
        message: ``line N: reason`` as data (``str(exc)`` is its English).
    """

    def __init__(self, line: int, reason: Msg | str) -> None:
        self.message = msg("core.import.at_line", "line {line}: {reason}", line=line, reason=reason)
        super().__init__(english(self.message))
        self.line = line
        self.reason = reason


@attrs.frozen
class Imported:
    """What an import wrote: the number of records, the log's system and session id."""

    records: int
    system: str
    session_id: str


def bounded(source: BinaryIO) -> Iterator[str]:
    """Yield the lines of ``source`` decoded as UTF-8, one by one, refusing one longer than any
    record's line can be (a hostile export cannot make the import hold gigabytes) and one that
    is not UTF-8 text (an export is UTF-8; the line and byte are named).

    Raises:
        ImportRefused: a line over :data:`MAX_LINE_BYTES` or with bytes that are not UTF-8,
            naming it.
    """
    number = 0
    while True:
        line = source.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES:
            raise ImportRefused(
                number,
                msg(
                    "core.import.too_long",
                    "longer than {n} bytes: no record is that long",
                    n=MAX_LINE_BYTES,
                ),
            )
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ImportRefused(
                number,
                msg(
                    "core.import.not_utf8",
                    "not UTF-8 text (byte {byte} of the line is 0x{value})",
                    byte=exc.start + 1,
                    value=f"{line[exc.start]:02x}",
                ),
            ) from None


def import_jsonl(lines: Iterable[str], target: str) -> Imported:
    """Rebuild the log that an export came from as a new file ``target``, and verify it.

    The records are rebuilt into a temporary file beside ``target``; it becomes ``target``
    only when every line rebuilt its record's exact bytes, the count and the final chain hash
    match the header, and the log verifies (hash chain, replay, preconditions, undone marks).

    Raises:
        ImportRefused: the export is edited, truncated or does not fold (naming the line);
            nothing is created.
        LogError: ``target`` exists or cannot be written.
    """
    if os.path.lexists(target):
        raise LogError(_exists(target))
    folder = os.path.dirname(os.path.abspath(target))
    temp = os.path.join(folder, f".{os.path.basename(target)}.import-{secrets.token_hex(4)}")
    try:
        fd = create_file(temp)  # never through a link planted at its name
    except OSError as exc:
        raise LogError(_cannot_create(target, exc.strerror)) from None
    try:
        try:
            with os.fdopen(fd, "wb", buffering=1 << 20) as f:
                header, flagged = _rebuild(iter(lines), f)
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:  # a full disk, an I/O error: one line, exit 3
            raise LogError(
                say(
                    msg(
                        "core.import.cannot_write",
                        "cannot write {log}: {reason}; nothing created",
                        log=target,
                        reason=str(exc.strerror or exc),
                    )
                )
            ) from None
        _verify(temp, flagged)
        try:
            os.link(temp, target)  # never replaces a file that appeared meanwhile
        except FileExistsError:
            raise LogError(_exists(target)) from None
        except OSError as exc:
            raise LogError(_cannot_create(target, exc.strerror or exc)) from None
        fsync_dir(target)
    finally:
        remove_quietly(temp)  # never raises over the error that brought us here
    return Imported(flagged[0], header.system, header.session_id)


def _exists(target: str) -> str:
    return say(
        msg(
            "core.import.exists",
            "{log} already exists; refusing to overwrite it",
            log=target,
        )
    )


def _cannot_create(target: str, reason: object) -> str:
    return say(
        msg(
            "core.import.cannot_create",
            "cannot create {log}: {reason}",
            log=target,
            reason=str(reason),
        )
    )


def _rebuild(lines: Iterator[str], f: Any) -> tuple[Header, tuple[int, set[int]]]:
    """Write the header and every record of an export to ``f``; return the header and
    ``(records, seqs marked undone)``.

    Raises:
        ImportRefused: a line that does not rebuild its record, naming it.
    """
    first = next(lines, None)
    if first is None:
        raise ImportRefused(1, msg("core.import.empty", "empty file: not a tablelog export"))
    header, head_bytes, records, last_chain = _header(first)
    f.write(head_bytes)
    chain, seq, env, flagged = chain_hash(head_bytes), 0, None, set()
    for number, text in enumerate(lines, start=2):
        env = _envelope(number, text)
        seq += 1
        if env["seq"] != seq:
            raise ImportRefused(
                number,
                msg(
                    "core.import.misplaced",
                    "record #{found} where #{seq} belongs (a line was removed, added or moved)",
                    found=env["seq"],
                    seq=seq,
                ),
            )
        if env[PREV_KEY] != chain:
            raise ImportRefused(
                number - 1,
                msg(
                    "core.import.edited",
                    "edited: it does not hash to the chain hash (prev) that line {line} holds",
                    line=number,
                ),
            )
        payload = _payload(number, env)
        f.write(RECORD_PREFIX.pack(len(payload), zlib.crc32(payload)) + payload)
        chain = chain_hash(payload)
        if env[UNDONE_KEY]:
            flagged.add(seq)
    _check_end(seq, records, chain, last_chain, env)
    return header, (seq, flagged)


def _header(text: str) -> tuple[Header, bytes, int, bytes]:
    """Parse the header line: the log header, its bytes, the record count and final chain.

    Raises:
        ImportRefused: line 1 is not an export header.
    """
    try:
        fields = dict(json.loads(text)["header"])
        version, records = fields.pop("format"), fields.pop("records")
        last = bytes.fromhex(fields.pop("chain"))
        header = Header(**fields)
        head_bytes = pack_header(header, version)
        parse_header(head_bytes)
    except (
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        OverflowError,
        FormatError,
        struct.error,
    ) as exc:
        raise ImportRefused(
            1,
            msg(
                "core.import.bad_header",
                "not a tablelog export header ({problem})",
                problem=str(exc),
            ),
        ) from None
    if type(records) is not int or records < 0 or len(last) != 16:
        raise ImportRefused(
            1, msg("core.import.bad_counts", "not a tablelog export header (records or chain)")
        )
    return header, head_bytes, records, last


def _envelope(number: int, text: str) -> dict[str, Any]:
    """Return the envelope of record line ``number``, with its ``undone`` flag kept aside.

    Raises:
        ImportRefused: an empty line, not JSON, or not a record line of docs/FORMAT.md's
            envelope.
    """
    if not text.strip():
        raise ImportRefused(
            number, msg("core.import.empty_line", "an empty line where a record belongs")
        )
    try:
        line = json.loads(text)
        env = envelope_of(line)
    except ValueError as exc:  # json's errors are ValueErrors too
        raise ImportRefused(
            number,
            msg("core.import.not_a_record", "not a record line ({problem})", problem=str(exc)),
        ) from None
    reason = check_envelope(env)
    if reason:
        raise ImportRefused(number, reason)
    env[UNDONE_KEY] = line[UNDONE_KEY]
    return env


def _payload(number: int, env: dict[str, Any]) -> bytes:
    """Return the payload of ``env`` (without its ``undone`` flag).

    Raises:
        ImportRefused: a value msgpack cannot hold, or a record over the size limit.
    """
    stored = {k: v for k, v in env.items() if k != UNDONE_KEY}
    try:
        payload = pack(stored)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ImportRefused(
            number,
            msg(
                "core.import.unstorable",
                "a value that cannot be stored ({problem})",
                problem=str(exc),
            ),
        ) from None
    if len(payload) > MAX_RECORD_BYTES:
        raise ImportRefused(
            number,
            msg(
                "core.import.too_big",
                "a record of {size} bytes; at most {most}",
                size=len(payload),
                most=MAX_RECORD_BYTES,
            ),
        )
    return payload


def _check_end(
    seq: int, records: int, chain: bytes, last: bytes, env: dict[str, Any] | None
) -> None:
    """Check that the export ended where its header says, with the header's chain hash.

    Raises:
        ImportRefused: a truncated export (the line where the next record should be), extra
            records, a last line that was edited, or a command cut short.
    """
    if seq < records:
        raise ImportRefused(
            seq + 2,
            msg(
                "core.import.truncated",
                "missing: the export ends after record #{seq} but its header says {records} "
                "records (a truncated export)",
                seq=seq,
                records=records,
            ),
        )
    if seq > records:
        raise ImportRefused(
            records + 2,
            msg(
                "core.import.extra",
                "record #{seq} is past the {records} records the header says",
                seq=records + 1,
                records=records,
            ),
        )
    if chain != last:
        raise ImportRefused(
            seq + 1,
            msg(
                "core.import.edited_last",
                "edited: it does not hash to the chain hash that the header holds",
            ),
        )
    if env is not None and BATCH_KEY in env:
        raise ImportRefused(
            seq + 1,
            msg(
                "core.import.cut_short",
                "the last record says more of its command follow (a command cut short)",
            ),
        )


def _at_line(path: str, exc: LogError) -> ImportRefused:
    """Return the refusal of the export line that holds the record ``exc`` names."""
    return ImportRefused(exc.seq + 1 if exc.seq else 1, str(exc).replace(f"{path}: ", ""))


def _verify(path: str, flagged: tuple[int, set[int]]) -> None:
    """Verify a rebuilt log as ``verify`` does (hash chain, replay, preconditions, names and
    actors that entry refuses, a signed log's signatures), and the ``undone`` marks of its lines.

    Raises:
        ImportRefused: naming the line of the first record that fails.
    """
    from tablelog.crafted import actor_fault, name_fault
    from tablelog.session import Session
    from tablelog.store.keys import check_signatures
    from tablelog.systems import SystemUnavailable

    session = Session(path, snapshots=False, chain=True)
    try:
        state = session.state()
        unheld = session.unheld()
    except LogError as exc:
        raise _at_line(path, exc) from None
    except SystemUnavailable as exc:
        raise ImportRefused(1, str(exc)) from None
    if unheld:
        seq, event, why = unheld[0]
        raise ImportRefused(
            seq + 1,
            msg(
                "core.import.unheld",
                "event #{seq} {type} does not hold where it stands: {why}",
                seq=seq,
                type=event.TYPE,
                why=msg(
                    "core.rule_message", "{rule}: {message}", rule=why.rule_id, message=why.msg
                ),
            ),
        )
    named = name_fault(state)
    if named is not None:
        seq = next((r.seq for r, e in session.events() if named[0] in e.entities()), 0)
        raise ImportRefused(
            seq + 1,
            msg("core.import.bad_name", "record #{seq}: {problem}", seq=seq, problem=named[1]),
        )
    log = session.log
    assert isinstance(log, LogFile)  # an import always writes a log file
    try:
        check_signatures(log, actor_fault)  # a crafted actor; a forged record, chain recomputed
    except LogError as exc:
        raise _at_line(path, exc) from None
    undone = undone_after(session.markers())
    wrong = sorted(undone ^ flagged[1])
    if wrong:
        seq = wrong[0]
        now = "undone" if seq in undone else "active"
        raise ImportRefused(
            seq + 1,
            msg(
                "core.import.undone_mark",
                "marked undone {marked}, but the log's undo and redo markers leave record "
                "#{seq} {now}",
                marked=str(seq in flagged[1]).lower(),
                seq=seq,
                now=now,
            ),
        )
