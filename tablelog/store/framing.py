"""Records framed for a log's file form, both ways (docs/FORMAT.md, "Records"): a batch of
envelopes framed after a position (every store appends what this makes), and the frames read
back from a log file's bytes, each length within bounds and each CRC-32 checked.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, Protocol

import msgpack

from tablelog.store.errors import record_error
from tablelog.store.format import (
    BATCH_KEY,
    MAX_RECORD_BYTES,
    RECORD_PREFIX,
    SIG_KEY,
    Position,
    signed_message,
)
from tablelog.store.reader import Record
from tablelog.text import msg

__all__ = ["records_of", "frame", "file_frames", "Tear"]

READ_BUFFER = 1 << 20  # a log file is read in chunks of this many bytes


def records_of(
    envelopes: list[dict[str, Any]], pos: Position, sign: Callable[[bytes], bytes] | None = None
) -> tuple[list[Record], Position]:
    """Return the records of one batch appended after ``pos`` and the position after it.

    Each envelope gets its ``seq``, its ``prev`` (the chain hash of the record before) and,
    but for the last, the batch count ``more``; with ``sign``, ``sig``, the signature of the
    rest of it. The records' offsets follow ``pos``'s span (from 0 when it has none).

    Raises:
        TypeError, ValueError, OverflowError: a value msgpack cannot hold.
    """
    seq, prev = pos.seq, pos.prev
    offset = pos.span[1] if pos.span is not None else 0
    records: list[Record] = []
    for i, env in enumerate(envelopes):
        seq += 1
        more = len(envelopes) - 1 - i
        full = {**env, "seq": seq, "prev": prev}
        if more:
            full[BATCH_KEY] = more
        if sign is not None:
            full[SIG_KEY] = sign(signed_message(full))
        payload: bytes = msgpack.packb(full, use_bin_type=True)
        prev = hashlib.blake2b(payload, digest_size=16).digest()
        records.append((seq, full, offset, offset + 8 + len(payload), payload))
        offset += 8 + len(payload)
    last = records[-1] if records else None
    span = (last[2], last[3]) if last is not None else pos.span
    return records, Position(seq, prev, span if pos.span is not None else None)


def frame(
    envelopes: list[dict[str, Any]], pos: Position, sign: Callable[[bytes], bytes] | None = None
) -> tuple[bytes, Position]:
    """Return the file-form bytes of one batch appended after ``pos`` (length, CRC-32,
    payload per record: :func:`records_of`) and the position after it."""
    records, end = records_of(envelopes, pos, sign)
    pack = RECORD_PREFIX.pack
    data = b"".join(pack(len(r[4]), zlib.crc32(r[4])) + r[4] for r in records)
    return data, end


class Tear(Protocol):
    """Where a file's frames note that its bytes end inside a record: ``torn_at``."""

    path: str
    torn_at: int | None


def file_frames(f: BinaryIO, offset: int, seq: int, out: Tear) -> Iterator[tuple[int, bytes]]:
    """Yield ``(offset, payload)`` of each whole frame read from ``f`` (at ``offset``, after
    record ``seq``), its length within bounds and its CRC-32 matching. A frame the file ends
    inside sets ``out.torn_at`` to its offset and ends the read. The file is read in large
    chunks and sliced.

    Raises:
        LogError: a length over the limit, a checksum mismatch, or a record that runs past
            the end of the file but is whole (its length field is damaged).
    """
    read, unpack_from, crc32 = f.read, RECORD_PREFIX.unpack_from, zlib.crc32
    buf, at, size = b"", 0, 0  # unread bytes; the record at ``offset`` starts at buf[at]
    while True:
        if at + 8 > size:
            buf, at = buf[at:] + read(READ_BUFFER), 0
            size = len(buf)
            if size < 8:
                if size:
                    out.torn_at = offset
                return
        length, crc = unpack_from(buf, at)
        seq += 1
        if length > MAX_RECORD_BYTES:
            message = msg(
                "store.record.too_long", "record length {length} is over the limit", length=length
            )
            raise record_error(out.path, seq, offset, message, "corrupt record")
        stop = at + 8 + length
        if stop > size:
            buf, at = buf[at:] + read(max(READ_BUFFER, 8 + length)), 0
            size, stop = len(buf), 8 + length
            if stop > size:
                _check_torn(buf[8:], crc, offset, seq, out.path)
                out.torn_at = offset
                return
        payload = buf[at + 8 : stop]
        if crc32(payload) != crc:
            message = msg("store.record.crc", "record checksum mismatch")
            raise record_error(out.path, seq, offset, message, "corrupt record")
        yield offset, payload
        at = stop
        offset += 8 + length


def _check_torn(partial: bytes, crc: int, offset: int, seq: int, path: str) -> None:
    """Raise if a record that runs past the end of the file is whole but has a bad length."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=MAX_RECORD_BYTES)
    unpacker.feed(partial)
    try:
        unpacker.unpack()
    except Exception:  # incomplete or garbage: a real torn tail  # noqa: BLE001
        return
    if zlib.crc32(partial[: unpacker.tell()]) == crc:
        message = msg(
            "store.record.length_damaged", "record length field damaged (the record is whole)"
        )
        raise record_error(path, seq, offset, message, "corrupt record")
