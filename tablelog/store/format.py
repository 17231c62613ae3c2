"""The byte layout of a tablelog file (documented in docs/FORMAT.md).

File = header, then records. Header: 8 magic bytes, format version (u16 BE), header length (u32 BE),
the msgpack header map, CRC-32 of that map (u32 BE). Record: payload length (u32 BE), CRC-32 of the
payload (u32 BE), payload (a msgpack map, the envelope). All integers are big-endian.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from typing import Any

import attrs
import msgpack

__all__ = [
    "MAGIC", "FORMAT_VERSION", "MAX_RECORD_BYTES", "MAX_HEADER_BYTES", "RECORD_PREFIX",
    "Header", "Position", "FormatError", "pack_header", "parse_header", "pack_record",
    "chain_hash", "unpack_payload",
]

MAGIC = b"\x89TBLOG\r\n"
FORMAT_VERSION = 1
MAX_HEADER_BYTES = 64 * 1024
MAX_RECORD_BYTES = 4 * 1024 * 1024  # a bound on one envelope: a hostile length cannot exhaust memory
RECORD_PREFIX = struct.Struct(">II")
_HEADER_FIXED = struct.Struct(">8sHI")
ENVELOPE_KEYS = frozenset({"seq", "type", "v", "at", "actor", "data", "prev"})


class FormatError(Exception):
    """Bytes that are not a valid tablelog header or record.

    Attributes:
        offset: Byte offset in the file where the problem starts.
        seq: The record's sequence number when known, else None.
    """

    def __init__(self, message: str, offset: int, seq: int | None = None) -> None:
        where = f"at byte {offset}" + (f" (record #{seq})" if seq is not None else "")
        super().__init__(f"{message} {where}")
        self.offset = offset
        self.seq = seq


@attrs.frozen
class Header:
    """The log header: who the session is, which system, when it began, its random seed."""

    session_id: str
    system: str
    created: str
    seed: int
    title: str = ""
    options: dict[str, Any] = attrs.Factory(dict)


@attrs.frozen
class Position:
    """Where a log ends: last seq, byte offset of the end, and the chain hash of the last record."""

    seq: int
    offset: int
    prev: bytes


def chain_hash(data: bytes) -> bytes:
    """Return the 16-byte BLAKE2b hash that the next record stores as ``prev``."""
    return hashlib.blake2b(data, digest_size=16).digest()


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)


def pack_header(header: Header) -> bytes:
    """Return the header bytes (magic through CRC) for ``header``."""
    body = msgpack.packb(attrs.asdict(header), use_bin_type=True)
    fixed = _HEADER_FIXED.pack(MAGIC, FORMAT_VERSION, len(body))
    return fixed + body + struct.pack(">I", zlib.crc32(body))


def parse_header(head: bytes) -> tuple[Header, int]:
    """Parse the header at the start of ``head``.

    Returns:
        The header and its length in bytes (the offset of the first record).

    Raises:
        FormatError: wrong magic, unknown format version, short or corrupt header.
    """
    if len(head) < _HEADER_FIXED.size or head[:8] != MAGIC:
        raise FormatError("not a tablelog file (wrong magic bytes)", 0)
    _, version, size = _HEADER_FIXED.unpack_from(head)
    if version != FORMAT_VERSION:
        raise FormatError(f"unsupported format version {version}", 8)
    if size > MAX_HEADER_BYTES:
        raise FormatError(f"header length {size} is over the limit", 10)
    end = _HEADER_FIXED.size + size
    if len(head) < end + 4:
        raise FormatError("truncated header", len(head))
    body = head[_HEADER_FIXED.size:end]
    if struct.unpack_from(">I", head, end)[0] != zlib.crc32(body):
        raise FormatError("header checksum mismatch", _HEADER_FIXED.size)
    try:
        fields = _unpack(body)
        header = Header(**fields)
    except Exception as exc:  # any malformed msgpack or field set: one clear error
        raise FormatError(f"malformed header ({exc})", _HEADER_FIXED.size) from None
    return header, end + 4


def pack_record(envelope: dict[str, Any]) -> bytes:
    """Return one framed record (length, CRC-32, payload) for an envelope map."""
    payload = msgpack.packb(envelope, use_bin_type=True)
    return RECORD_PREFIX.pack(len(payload), zlib.crc32(payload)) + payload


def unpack_payload(payload: bytes, offset: int) -> dict[str, Any]:
    """Decode and shape-check an envelope payload.

    Raises:
        FormatError: not a msgpack map with exactly the envelope keys of the right types.
    """
    try:
        env = _unpack(payload)
    except Exception as exc:  # msgpack raises several types; all mean the same to the reader
        raise FormatError(f"malformed record payload ({type(exc).__name__})", offset) from None
    if not isinstance(env, dict) or set(env) != ENVELOPE_KEYS:
        raise FormatError("record is not a tablelog envelope", offset)
    if not (isinstance(env["seq"], int) and isinstance(env["type"], str)
            and isinstance(env["v"], int) and isinstance(env["data"], dict)
            and isinstance(env["prev"], bytes) and isinstance(env["actor"], str)):
        raise FormatError("record envelope has fields of the wrong type", offset, env.get("seq"))
    return env
