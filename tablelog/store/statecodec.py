"""A folded state's fields as bytes and back, for snapshot checkpoints (docs/FORMAT.md, the
snapshot cache: ``state``).

State values are plain data: ``None, bool, int, float, str, bytes``, lists, dicts, and, as msgpack
extension types, tuples (1), ``Fraction`` (2), sets (3), frozensets (4) and integers beyond
64 bits (5). Anything else (a class instance, a ``defaultdict``) cannot be snapshotted:
:func:`encode_state` raises ``TypeError`` and the caller simply takes no snapshot. Decoding is
bounded: a snapshot is data from a cache, and a damaged or hostile one must cost nothing but a
fold from the log. Never pickle.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import msgpack

__all__ = ["encode_state", "decode_state", "MAX_EXT_DEPTH", "MAX_BIGINT_DIGITS"]

MAX_EXT_DEPTH = 32  # tuples, sets, fractions inside each other: deeper is no state of ours
MAX_BIGINT_DIGITS = 1000
_TUPLE, _FRACTION, _SET, _FROZENSET, _BIGINT = 1, 2, 3, 4, 5
_DIGITS = re.compile(rb"-?[0-9]{1,%d}" % MAX_BIGINT_DIGITS)


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
    packed: bytes = msgpack.packb(value, default=_default, strict_types=True, use_bin_type=True)
    return packed


class _Decoder:
    """Decodes encoded state fields within bounds: extension values nested at most
    :data:`MAX_EXT_DEPTH` deep, only the five known codes, fractions of two integers with a
    positive denominator, big integers of at most :data:`MAX_BIGINT_DIGITS` digits.

    Raises ValueError (or another exception of msgpack's) on anything else.
    """

    def __init__(self) -> None:
        self.depth = 0

    def unpack(self, data: bytes) -> Any:
        return msgpack.unpackb(
            data, ext_hook=self.ext, raw=False, strict_map_key=False, use_list=True
        )

    def ext(self, code: int, data: bytes) -> Any:
        if code == _BIGINT:
            if not _DIGITS.fullmatch(data):
                raise ValueError("a big integer that is not decimal digits")
            return int(data)
        if code not in (_TUPLE, _FRACTION, _SET, _FROZENSET):
            raise ValueError(f"unknown snapshot extension type {code}")
        if self.depth >= MAX_EXT_DEPTH:
            raise ValueError("snapshot values nested too deep")
        self.depth += 1
        try:
            items = self.unpack(data)
        finally:
            self.depth -= 1
        if type(items) is not list:
            raise ValueError("an extension value that is not a list")
        if code == _TUPLE:
            return tuple(items)
        if code == _FRACTION:
            return _fraction(items)
        return set(items) if code == _SET else frozenset(items)


def _fraction(items: list[Any]) -> Any:
    """Return ``Fraction(n, d)`` for ``[n, d]``: two integers, ``d`` positive."""
    if len(items) != 2 or type(items[0]) is not int or type(items[1]) is not int or items[1] <= 0:
        raise ValueError("a fraction that is not two integers over a positive denominator")
    from fractions import Fraction  # imported only by states that hold fractions

    return Fraction(items[0], items[1])


def encode_state(fields: dict[str, Any]) -> bytes:
    """Return the bytes of a state's fields (they decode to an equal value, of the same types).

    Not decoded back here (that tripled a checkpoint's cost): plain data packed with exact
    types decodes to itself, and what lies beyond the decoder's bounds (extension values nested
    deeper than :data:`MAX_EXT_DEPTH`, a big integer of more than :data:`MAX_BIGINT_DIGITS`
    digits: no state of ours) makes :func:`decode_state` raise, so the replay folds without
    that checkpoint.

    Raises:
        TypeError: a value that has no exact plain-data form (the caller takes no snapshot).
    """
    return _pack(fields)


def decode_state(data: bytes, template: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return the state fields encoded by :func:`encode_state` (a fresh, mutable copy): a map,
    and when ``template`` (the fields of this session's initial state) is given, the same field
    names,
    the same identity (``system``, ``title``, ``session_id``, ``seed``), each field of its
    template's type (any dict or None where the template has None), entity records as maps.

    Raises:
        ValueError: anything else, or data that does not decode within bounds.
    """
    try:
        fields = _Decoder().unpack(data)
    except Exception as exc:  # noqa: BLE001 - any failure: no snapshot (RecursionError too)
        raise ValueError(f"snapshot state does not decode ({type(exc).__name__})") from None
    if type(fields) is not dict:
        raise ValueError("snapshot state is not a map")
    if template is not None:
        _check_fields(fields, template)
    return fields


def _check_fields(fields: dict[str, Any], template: dict[str, Any]) -> None:
    """Raise ValueError unless ``fields`` has the shape and identity of ``template``."""
    if set(fields) != set(template):
        raise ValueError("snapshot state fields do not match")
    for name, expected in template.items():
        value = fields[name]
        if name in ("system", "title", "session_id", "seed") and value != expected:
            raise ValueError(f"snapshot state of another session ({name})")
        if expected is None:
            if value is not None and type(value) is not dict:
                raise ValueError(f"snapshot state field {name} of the wrong type")
        elif type(value) is not type(expected):
            raise ValueError(f"snapshot state field {name} of the wrong type")
    for name in ("characters", "items"):
        if not all(type(k) is str and type(v) is dict for k, v in fields[name].items()):
            raise ValueError(f"snapshot state {name} are not records")
