"""The codec: event records to plain data and back, upcasters for old schema versions.

Serialization is kept apart from the domain: events never know msgpack. ``to_record`` gives the
``(type, v, data)`` triple the store packs; ``from_record`` (and :func:`decoder`, the same per
``(type, v)``, cached) upcasts old schema versions (a chain of one-step upcasters applied to the
unpacked data) and decodes the data into the registered class. There is one decode: each
class's msgspec mirror (:mod:`tablelog.events.mirror`), made once from its attrs fields, which
takes the data still packed (a fold's records) or unpacked (every other read) with the same
checks; data it refuses is named field by field (:mod:`tablelog.events.misfit`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from tablelog.events.core import Event, event_class
from tablelog.events.mirror import Typed, typed
from tablelog.events.misfit import misfits

__all__ = [
    "CodecError",
    "UnreadableData",
    "to_record",
    "from_record",
    "upcaster",
    "decoder",
]

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
Decoder = Callable[[Any], Event]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}
_DECODERS: dict[tuple[str, int], tuple[type, Decoder]] = {}
_unpack = msgspec.msgpack.Decoder().decode
_PACKED = (bytes, bytearray, memoryview, msgspec.Raw)  # data a fold hands over still packed


class CodecError(Exception):
    """A record that cannot be turned into an event (unknown type, bad shape, future version)."""


class UnreadableData(CodecError):
    """Packed data that is not msgpack at all (the store names its record corrupt)."""


def upcaster(type_tag: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register a function that turns ``type_tag`` data of ``from_version`` into the next version.

    Args:
        type_tag: The event type tag.
        from_version: The schema version the function reads; it returns version + 1 data.

    Returns:
        A decorator that registers and returns the function.
    """

    def register(fn: Upcaster) -> Upcaster:
        _UPCASTERS[(type_tag, from_version)] = fn
        _DECODERS.clear()
        return fn

    return register


def to_record(event: Event) -> tuple[str, int, dict[str, Any]]:
    """Return ``(type tag, schema version, data)`` for an event: its fields as plain data
    (tuples as lists, a ``Fraction`` as ``"n/d"``, a nested attrs value as its own map)."""
    return event.TYPE, event.VERSION, typed(type(event)).data(event)


def from_record(type_tag: str, version: int, data: Any) -> Event:
    """Return the event for a stored record.

    Args:
        type_tag: The record's ``type``.
        version: The record's ``v`` (upcasters bring it to the class's current version).
        data: The record's ``data``: a map of plain values, or its packed msgpack bytes.

    Raises:
        CodecError: unknown type, a version newer than this program knows, or data that does not
            fit the class (:class:`UnreadableData`: packed bytes that are not msgpack).
    """
    return decoder(type_tag, version)(data)


def decoder(type_tag: str, version: int) -> Decoder:
    """Return the function that turns the ``data`` of a ``(type_tag, version)`` record, packed
    or unpacked, into an event (cached per pair; see :func:`from_record`).

    Raises:
        CodecError: unknown type or unsupported version.
    """
    cached = _DECODERS.get((type_tag, version))
    cls = event_class(type_tag)
    if cached is not None and cached[0] is cls:
        return cached[1]
    if cls is None:
        raise CodecError(f"unknown event type {type_tag!r}")
    if not isinstance(version, int) or version > cls.VERSION or version < 1:
        raise CodecError(f"{type_tag}: unsupported schema version {version!r}")
    made = typed(cls)
    fn = _current(made, type_tag) if version == cls.VERSION else _old(made, type_tag, version)
    _DECODERS[(type_tag, version)] = (cls, fn)
    return fn


def _current(made: Typed, type_tag: str) -> Decoder:
    """Return the decoder of records of the class's current version (the fold's hot path)."""
    decode = made.decode

    def current(data: Any) -> Event:
        try:
            return decode(data)  # type: ignore[no-any-return]
        except Exception as exc:  # noqa: BLE001 - every refusal: a CodecError naming why
            raise _refusal(made, type_tag, data, exc) from None

    return current


def _old(made: Typed, type_tag: str, version: int) -> Decoder:
    """Return the decoder of records of an older version: upcast, then decoded as current."""

    def old(data: Any) -> Event:
        fields = _unpacked(type_tag, data)
        fields = _upcast(type_tag, version, made.cls.VERSION, fields)  # type: ignore[attr-defined]
        try:
            return made.decode(fields)  # type: ignore[no-any-return]
        except Exception as exc:  # noqa: BLE001 - as for a current record
            raise _refusal(made, type_tag, fields, exc) from None

    return old


def _unpacked(type_tag: str, data: Any) -> dict[str, Any]:
    """Return a record's data as a map (unpacked here when packed).

    Raises:
        UnreadableData: packed bytes that are not msgpack; CodecError: data that is no map.
    """
    if isinstance(data, _PACKED):
        try:
            data = _unpack(data)
        except (msgspec.MsgspecError, RecursionError):
            raise UnreadableData(f"{type_tag}: data is not msgpack") from None
    if type(data) is not dict:
        raise CodecError(f"{type_tag}: data is not a map")
    return data


def _refusal(made: Typed, type_tag: str, data: Any, exc: Exception) -> CodecError:
    """Return the CodecError for data the typed decode refused with ``exc``."""
    try:
        fields = _unpacked(type_tag, data)
    except CodecError as refused:
        return refused
    found = misfits(made.cls, fields)
    if not found:  # every field fits: the class's own ``__init__`` refused (a validator)
        found = [f"{_cattrs_words(exc)} @ $"]
    return CodecError(f"{type_tag}: data does not fit the event: {'; '.join(found)}")


def _cattrs_words(exc: Exception) -> str:
    """Return a refusal of the whole as the codec has named it (cattrs' words)."""
    if isinstance(exc, msgspec.ValidationError | ValueError):
        return "invalid value"
    if isinstance(exc, TypeError):
        return f"invalid type ({exc})"
    return f"unknown error ({exc})"


def _upcast(type_tag: str, version: int, target: int, data: dict[str, Any]) -> dict[str, Any]:
    """Return ``data`` of ``version`` brought to ``target`` by the registered upcasters.

    Raises:
        CodecError: a missing upcaster, or one that fails or returns no map.
    """
    while version < target:
        step = _UPCASTERS.get((type_tag, version))
        if step is None:
            raise CodecError(f"no upcaster for {type_tag} v{version}")
        try:
            data = step(dict(data))
        except Exception as exc:  # an old record the upcaster cannot read: a clear error
            raise CodecError(f"{type_tag} v{version}: upcaster failed: {exc!r}") from None
        if not isinstance(data, dict):
            raise CodecError(f"{type_tag} v{version}: upcaster returned no map")
        version += 1
    return data


@upcaster("core.SeatAdded", 1)
def _seat_added_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A seat added before page links: no link (its token opened the page)."""
    data.setdefault("link_sha256", "")
    return data
