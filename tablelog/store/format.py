"""The byte layout of a tablelog file (documented byte by byte in docs/FORMAT.md).

File = header, then records. Header: 8 magic bytes, format version (u16 BE), header length (u32 BE),
the msgpack header map, CRC-32 of that map (u32 BE). Record: payload length (u32 BE), CRC-32 of the
payload (u32 BE), payload (a msgpack map, the envelope). All integers are big-endian.

The records of one append (one command, or one atomic run) form a *batch*: every record but the
last carries ``more`` = how many records of the batch follow it, so a batch cut short by a crash is
recognised as a whole and dropped whole.
"""

from __future__ import annotations

import hashlib
import re
import struct
import zlib
from typing import Any

import attrs
import msgpack

from tablelog.text import Msg, english, msg

__all__ = [
    "MAGIC",
    "FORMAT_VERSION",
    "KNOWN_VERSIONS",
    "header_version",
    "MAX_RECORD_BYTES",
    "MAX_HEADER_BYTES",
    "RECORD_PREFIX",
    "Header",
    "Position",
    "FormatError",
    "pack_header",
    "parse_header",
    "pack_record",
    "chain_hash",
    "header_position",
    "head_text",
    "check_envelope",
    "decode_payload",
    "optional_fault",
    "is_request_id",
    "COMMAND_KEY",
    "REQUEST_KEY",
    "TIME_FORMAT",
    "SIG_KEY",
    "signed_message",
]

MAGIC = b"\x89TBLOG\r\n"
FORMAT_VERSION = 2  # what new logs are written in; 1 (no command ids) is still read
KNOWN_VERSIONS = (1, 2)
MAX_HEADER_BYTES = 64 * 1024
MAX_RECORD_BYTES = 1024 * 1024  # a bound on one envelope: a hostile length cannot exhaust memory
MAX_CONTAINER_LEN = 65536  # a bound on any msgpack array or map inside a record
RECORD_PREFIX = struct.Struct(">II")
_HEADER_FIXED = struct.Struct(">8sHI")
ENVELOPE_KEYS = frozenset({"seq", "type", "v", "at", "actor", "data", "prev"})
BATCH_KEY = "more"
TIME_FORMAT = re.compile(  # a record's ``at``, a header's ``created``: UTC, with microseconds
    r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z", re.ASCII
)
_SESSION_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}", re.ASCII)
_OPTION_TYPES = (str, int, bool, type(None))
_OPTION_ITEM_TYPES = (str, int)
COMMAND_KEY = "cmd"  # the seq of the first record of the command that appended the record
REQUEST_KEY = "req"  # a command's request id, on its first record only (SERVER.md §2)
SIG_KEY = "sig"  # the appender's Ed25519 signature of the rest of the envelope (signed logs)
SIG_BYTES = 64
SIGNED_CONTEXT = b"tablelog record signature v1\0"  # signatures are valid for nothing else
OPTIONAL_KEYS = (BATCH_KEY, COMMAND_KEY, REQUEST_KEY, SIG_KEY)
MAX_REQUEST_ID = 64


class FormatError(Exception):
    """Bytes that are not a valid tablelog header or record.

    Attributes:
        offset: Byte offset in the file where the problem starts.
        seq: The record's sequence number when known, else None.
    """

    def __init__(self, message: Msg | str, offset: int, seq: int | None = None) -> None:
        if seq is None:
            said = msg(
                "store.format.at", "{reason} at byte {offset}", reason=message, offset=offset
            )
        else:
            said = msg(
                "store.format.at_record",
                "{reason} at byte {offset} (record #{seq})",
                reason=message,
                offset=offset,
                seq=seq,
            )
        super().__init__(english(said))
        self.msg = said
        self.reason = message
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
    """Where a log ends: the seq of its last record and that record's chain hash (the
    header's when ``seq`` is 0) — its head, ``SEQ:HASH``. Every store is asked for records by
    positions (after one, up to one, whether it still holds one), never by byte offsets.

    Attributes:
        seq: The last record's seq (0: the log before its first record).
        prev: That record's chain hash (what the next record stores as ``prev``).
        span: Where that record lies in the log's file form, ``(start, end)`` byte offsets
            (the header's end twice for seq 0), or None when not known: what the store that
            made the position keeps of where it found it (a log file reads on from ``end``),
            and what messages name. It is no part of the position: two positions with the
            same seq and hash are equal whatever their spans.
    """

    seq: int
    prev: bytes
    span: tuple[int, int] | None = attrs.field(default=None, eq=False)


def head_text(pos: Position) -> str:
    """Return the head of a log that ends at ``pos``: ``SEQ:HASH``, the last record's seq and
    the hex of its chain hash (of the header when the log holds no record). Whoever knows a
    head can tell, later, whether the log still holds exactly those records."""
    return f"{pos.seq}:{pos.prev.hex()}"


def header_position(header: bytes) -> Position:
    """Return the position before the first record of a log that begins with ``header`` (its
    bytes exactly: magic to CRC)."""
    return Position(0, chain_hash(header), (len(header), len(header)))


def chain_hash(data: bytes) -> bytes:
    """Return the 16-byte BLAKE2b hash that the next record stores as ``prev``."""
    return hashlib.blake2b(data, digest_size=16).digest()


def decode_payload(data: bytes | memoryview) -> Any:
    """Decode one msgpack object with the reader's bounds (raises ValueError and friends)."""
    return msgpack.unpackb(
        data,
        raw=False,
        strict_map_key=False,
        use_list=True,
        max_array_len=MAX_CONTAINER_LEN,
        max_map_len=MAX_CONTAINER_LEN,
    )


def pack_header(header: Header, version: int = FORMAT_VERSION) -> bytes:
    """Return the header bytes (magic through CRC) for ``header`` in format ``version``."""
    body: bytes = msgpack.packb(attrs.asdict(header), use_bin_type=True)
    fixed = _HEADER_FIXED.pack(MAGIC, version, len(body))
    return fixed + body + struct.pack(">I", zlib.crc32(body))


_HEADER_KEYS = frozenset(f.name for f in attrs.fields(Header))


def header_version(head: bytes) -> int:
    """Return the format version of a header that :func:`parse_header` accepted."""
    return int(_HEADER_FIXED.unpack_from(head)[1])


def parse_header(head: bytes) -> tuple[Header, int]:
    """Parse the header at the start of ``head``.

    Returns:
        The header and its length in bytes (the offset of the first record).

    Raises:
        FormatError: wrong magic, unknown format version, short or corrupt header.
    """
    if not head:
        raise FormatError(msg("store.format.empty", "empty file: not a tablelog log"), 0)
    if head[: len(MAGIC)] != MAGIC[: len(head)]:
        raise FormatError(msg("store.format.magic", "not a tablelog file (wrong magic bytes)"), 0)
    if len(head) < _HEADER_FIXED.size:
        raise FormatError(msg("store.format.truncated", "truncated header"), len(head))
    _, version, size = _HEADER_FIXED.unpack_from(head)
    if version not in KNOWN_VERSIONS:
        raise FormatError(
            msg("store.format.version", "unsupported format version {version}", version=version),
            8,
        )
    if size > MAX_HEADER_BYTES:
        raise FormatError(
            msg("store.format.header_size", "header length {size} is over the limit", size=size),
            10,
        )
    end = _HEADER_FIXED.size + size
    if len(head) < end + 4:
        raise FormatError(msg("store.format.truncated", "truncated header"), len(head))
    body = head[_HEADER_FIXED.size : end]
    if struct.unpack_from(">I", head, end)[0] != zlib.crc32(body):
        raise FormatError(
            msg("store.format.header_crc", "header checksum mismatch"), _HEADER_FIXED.size
        )
    try:
        fields = decode_payload(body)
        if set(fields) != _HEADER_KEYS:
            raise ValueError(f"keys {sorted(fields)} where {sorted(_HEADER_KEYS)} belong")
        header = Header(**fields)
        _check_header(header)
    except Exception as exc:  # any malformed msgpack or field set: one clear error
        raise FormatError(
            msg("store.format.header_malformed", "malformed header ({why})", why=str(exc)),
            _HEADER_FIXED.size,
        ) from None
    return header, end + 4


def _check_header(header: Header) -> None:
    """Check every header field's type and shape (the system's own check of its options is
    :func:`tablelog.systems.check_options`, run when a session opens the log).

    Raises:
        TypeError, ValueError: naming the field and the value.
    """
    for name in ("session_id", "system", "created", "title"):
        if type(getattr(header, name)) is not str:
            raise TypeError(f"{name} is not a string")
    if not _SESSION_ID.fullmatch(header.session_id):
        raise ValueError(f"session_id {header.session_id!r} is not 1-64 of A-Z a-z 0-9 . _ : -")
    if not TIME_FORMAT.fullmatch(header.created):
        raise ValueError(f"created {header.created!r} is not YYYY-MM-DDTHH:MM:SS.ffffffZ")
    if type(header.seed) is not int or not 0 <= header.seed < 2**63:
        raise ValueError(f"seed {header.seed!r} is not in 0 .. 2**63 - 1")
    if type(header.options) is not dict:
        raise TypeError("options of the wrong type")
    for key, value in header.options.items():
        if type(key) is not str:
            raise TypeError(f"option name {key!r} is not a string")
        if not (
            type(value) in _OPTION_TYPES
            or (type(value) is list and all(type(item) in _OPTION_ITEM_TYPES for item in value))
        ):
            raise TypeError(
                f"option {key} is a {type(value).__name__}: an option is a string, "
                "a number, true/false, or a list of strings or numbers"
            )


def pack_record(envelope: dict[str, Any]) -> bytes:
    """Return one framed record (length, CRC-32, payload) for an envelope map."""
    payload: bytes = msgpack.packb(envelope, use_bin_type=True)
    return RECORD_PREFIX.pack(len(payload), zlib.crc32(payload)) + payload


def check_envelope(env: Any) -> str:
    """Return why ``env`` is not a valid envelope, or ``""`` when it is."""
    if type(env) is not dict:
        return "record is not a tablelog envelope"
    n = len(env)
    if n - 7 != sum(key in env for key in OPTIONAL_KEYS):
        return "record is not a tablelog envelope"
    try:
        ok = (
            type(env["seq"]) is int
            and type(env["type"]) is str
            and type(env["v"]) is int
            and type(env["data"]) is dict
            and type(env["prev"]) is bytes
            and type(env["actor"]) is str
            and type(env["at"]) is str
        )
    except KeyError:
        return "record is not a tablelog envelope"
    if not ok:
        return "record envelope has fields of the wrong type"
    if BATCH_KEY in env and not (type(env[BATCH_KEY]) is int and env[BATCH_KEY] > 0):
        return "record envelope has a bad batch count"
    fault = optional_fault(env)
    return english(fault) if isinstance(fault, Msg) else fault


def optional_fault(env: dict[str, Any]) -> Msg | str:
    """Return why the optional fields of an envelope are bad, or ``""``.

    ``cmd`` is the seq of the command's first record: at most the record's own seq, at least 1.
    ``req`` is a request id (1-64 characters of ``[A-Za-z0-9._:-]``), only where ``cmd`` is the
    record's own seq (a command's first record). ``sig`` is 64 bytes (checked against the
    roster by ``verify``: :mod:`tablelog.store.keys`).
    """
    cmd = env.get(COMMAND_KEY)
    if cmd is not None and not (type(cmd) is int and 1 <= cmd <= env["seq"]):
        return msg(
            "store.envelope.bad_cmd",
            "record envelope has a bad command id {value}",
            value=repr(cmd),
        )
    req = env.get(REQUEST_KEY)
    if req is not None and not (type(req) is str and is_request_id(req) and cmd == env["seq"]):
        return msg(
            "store.envelope.bad_req",
            "record envelope has a bad request id {value}",
            value=repr(req),
        )
    sig = env.get(SIG_KEY)
    if sig is not None and not (type(sig) is bytes and len(sig) == SIG_BYTES):
        return msg(
            "store.envelope.bad_sig", "record envelope has a bad signature field (not 64 bytes)"
        )
    return ""


def signed_message(envelope: dict[str, Any]) -> bytes:
    """Return the bytes a record's signature covers: a fixed context, then the envelope
    without ``sig`` as msgpack (every other key: seq, prev, type, data, at, actor, ids)."""
    body = {key: value for key, value in envelope.items() if key != SIG_KEY}
    packed: bytes = msgpack.packb(body, use_bin_type=True)
    return SIGNED_CONTEXT + packed


def is_request_id(text: str) -> bool:
    """Return whether ``text`` is a request id: 1-64 characters of ``[A-Za-z0-9._:-]``."""
    return (
        0 < len(text) <= MAX_REQUEST_ID
        and text.isascii()
        and all(c.isalnum() or c in "._:-" for c in text)
    )
