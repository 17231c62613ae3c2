"""Snapshots: a disposable cache of folded states beside the log (``<log>.snap``).

A snapshot file holds a few *checkpoints*, each the state folded up to some seq, keyed to the
log's session id, the checkpoint's position (seq, byte offset, chain hash of its last record) and a
digest of the projection code. Anything that does not match, does not decode or fails its checksum
is ignored: the caller folds from the log instead. The file is written atomically (temp file,
fsync, rename, directory fsync). The layout is in docs/FORMAT.md.

State values are plain data: ``None, bool, int, float, str, bytes``, lists, dicts, and, as msgpack
extension types, tuples (1), ``Fraction`` (2), sets (3), frozensets (4) and integers beyond
64 bits (5). Anything else (a class
instance, a ``defaultdict``) cannot be snapshotted: :func:`encode_state` raises ``TypeError`` and
the caller simply takes no snapshot. Never pickle.
"""

from __future__ import annotations

import os
import stat
import struct
import sys
import zlib
from typing import Any

import attrs
import msgpack

from tablelog.store.format import Position
from tablelog.store.log import fsync_dir

__all__ = ["SNAPSHOT_MAGIC", "Checkpoint", "encode_state", "decode_state", "read_snapshot",
           "write_snapshot", "snapshot_path", "MAX_SNAPSHOT_BYTES", "pack_snapshot",
           "parse_snapshot"]

SNAPSHOT_MAGIC = b"\x89TBSNAP\n"
SNAPSHOT_VERSION = 2  # 2: each checkpoint carries the CRC-32 of the log bytes before it
MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024
_FIXED = struct.Struct(">8sHII")
_TUPLE, _FRACTION, _SET, _FROZENSET, _BIGINT = 1, 2, 3, 4, 5


@attrs.frozen
class Checkpoint:
    """A state folded up to ``end.seq``, encoded, with what it excludes and the markers seen.

    Attributes:
        end: The log position right after the checkpoint's last record.
        undone: The seqs (all <= end.seq) that the state skipped as undone.
        markers: ``(seq, kind, target)`` of every undo/redo marker up to ``end.seq``.
        state: The encoded state fields (see :func:`encode_state`).
        prefix_crc: CRC-32 of the log's bytes from offset 0 to ``end.offset``: a checkpoint is
            used only while the log's prefix still has it, so damage before a checkpoint is
            never hidden by it.
    """

    end: Position
    undone: frozenset[int]
    markers: tuple[tuple[int, str, int], ...]
    state: bytes
    prefix_crc: int

    def valid_for(self, undone: set[int] | frozenset[int]) -> bool:
        """Return whether this state is the fold of its prefix under the undone set ``undone``."""
        seq = self.end.seq
        return {t for t in undone if t <= seq} == self.undone


def _default(value: Any) -> msgpack.ExtType:
    kind = type(value)
    if kind is tuple:
        return msgpack.ExtType(_TUPLE, _pack(list(value)))
    fractions = sys.modules.get("fractions")  # not imported: no value can be a Fraction
    if fractions is not None and kind is fractions.Fraction:
        return msgpack.ExtType(_FRACTION, _pack([value.numerator, value.denominator]))
    if kind is set:
        return msgpack.ExtType(_SET, _pack(list(value)))
    if kind is frozenset:
        return msgpack.ExtType(_FROZENSET, _pack(list(value)))
    if kind is int:  # beyond 64 bits
        return msgpack.ExtType(_BIGINT, str(value).encode())
    raise TypeError(f"cannot snapshot a {kind.__name__}")


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, default=_default, strict_types=True, use_bin_type=True)


def _ext_hook(code: int, data: bytes) -> Any:
    if code == _BIGINT:
        return int(data.decode())
    items = _unpack(data)
    if code == _TUPLE:
        return tuple(items)
    if code == _FRACTION:
        from fractions import Fraction  # imported only by states that hold fractions

        return Fraction(*items)
    if code == _SET:
        return set(items)
    if code == _FROZENSET:
        return frozenset(items)
    raise ValueError(f"unknown snapshot extension type {code}")


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False,
                           use_list=True)


def encode_state(fields: dict[str, Any]) -> bytes:
    """Return the bytes of a state's fields; check that they decode to an equal value.

    Raises:
        TypeError: a value that has no exact plain-data form (the caller takes no snapshot).
    """
    data = _pack(fields)
    if _unpack(data) != fields:
        raise TypeError("state does not survive a round trip through plain data")
    return data


def decode_state(data: bytes) -> dict[str, Any]:
    """Return the state fields encoded by :func:`encode_state` (a fresh, mutable copy)."""
    fields = _unpack(data)
    if not isinstance(fields, dict):
        raise ValueError("snapshot state is not a map")
    return fields


def snapshot_path(log_path: str) -> str:
    """Return where the snapshot of ``log_path`` lives."""
    return log_path + ".snap"


def write_snapshot(log_path: str, session_id: str, code: str,
                   checkpoints: list[Checkpoint]) -> None:
    """Write the snapshot file atomically: temp file, fsync, rename, directory fsync.

    Raises:
        OSError: the file could not be written (callers ignore it: a snapshot is a cache).
    """
    data = pack_snapshot(session_id, code, checkpoints)
    path = snapshot_path(log_path)
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    fsync_dir(path)


def pack_snapshot(session_id: str, code: str, checkpoints: list[Checkpoint]) -> bytes:
    """Return the bytes of a snapshot (the layout of docs/FORMAT.md; a PostgreSQL store keeps
    the same bytes in a row)."""
    body = msgpack.packb({
        "session": session_id, "code": code,
        "checkpoints": [_checkpoint_map(cp) for cp in checkpoints],
    }, use_bin_type=True)
    return _FIXED.pack(SNAPSHOT_MAGIC, SNAPSHOT_VERSION, len(body), zlib.crc32(body)) + body


def parse_snapshot(data: bytes, session_id: str, code: str) -> list[Checkpoint]:
    """Return the checkpoints of snapshot bytes, or ``[]`` when they are foreign, stale (another
    session or projection code) or damaged in any way."""
    if len(data) < _FIXED.size:
        return []
    magic, version, size, crc = _FIXED.unpack_from(data)
    if magic != SNAPSHOT_MAGIC or version != SNAPSHOT_VERSION or size > MAX_SNAPSHOT_BYTES:
        return []
    return _parse_body(data[_FIXED.size:_FIXED.size + size], size, crc, session_id, code)


def _checkpoint_map(cp: Checkpoint) -> dict[str, Any]:
    return {"seq": cp.end.seq, "offset": cp.end.offset, "prev": cp.end.prev, "last": cp.end.last,
            "undone": sorted(cp.undone), "markers": [list(m) for m in cp.markers],
            "state": cp.state, "crc": cp.prefix_crc}


def read_snapshot(log_path: str, session_id: str, code: str) -> list[Checkpoint]:
    """Return the checkpoints of the snapshot file, or ``[]`` when it is missing, foreign, stale
    (another session or projection code) or damaged in any way."""
    try:  # non-blocking open: a FIFO at the path must not hang the command
        with os.fdopen(os.open(snapshot_path(log_path), os.O_RDONLY | os.O_NONBLOCK), "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return []
            head = f.read(_FIXED.size)
            if len(head) < _FIXED.size:
                return []
            magic, version, size, crc = _FIXED.unpack(head)
            if magic != SNAPSHOT_MAGIC or version != SNAPSHOT_VERSION or size > MAX_SNAPSHOT_BYTES:
                return []
            body = f.read(size)
    except OSError:
        return []
    return _parse_body(body, size, crc, session_id, code)


def _parse_body(body: bytes, size: int, crc: int, session_id: str, code: str,
                ) -> list[Checkpoint]:
    if len(body) != size or zlib.crc32(body) != crc:
        return []
    try:
        data = msgpack.unpackb(body, raw=False, strict_map_key=False)
        if data["session"] != session_id or data["code"] != code:
            return []
        return sorted((_checkpoint(m) for m in data["checkpoints"]), key=lambda c: c.end.seq)
    except Exception:  # a damaged cache is no cache  # noqa: BLE001
        return []


def _checkpoint(m: dict[str, Any]) -> Checkpoint:
    end = Position(int(m["seq"]), int(m["offset"]), bytes(m["prev"]), int(m["last"]))
    markers = tuple((int(s), str(k), int(t)) for s, k, t in m["markers"])
    if not isinstance(m["state"], bytes):
        raise TypeError("state is not bytes")
    return Checkpoint(end, frozenset(int(t) for t in m["undone"]), markers, m["state"],
                      int(m["crc"]))


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
