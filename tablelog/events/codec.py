"""The codec: one cattrs converter between event records and plain data, plus upcasters.

Serialization is kept apart from the domain: events never know msgpack. ``to_record`` gives the
``(type, v, data)`` triple the store packs; ``from_record`` upcasts old schema versions and
structures the data back into the registered class.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import cattrs

from tablelog.events.core import Event, event_class

__all__ = ["CodecError", "converter", "to_record", "from_record", "upcaster"]

converter = cattrs.Converter()
converter.register_unstructure_hook(Fraction, lambda f: f"{f.numerator}/{f.denominator}")
converter.register_structure_hook(Fraction, lambda v, _: Fraction(v))

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}
_HOOKS: dict[type, Callable[[Any, type], Any]] = {}


class CodecError(Exception):
    """A record that cannot be turned into an event (unknown type, bad shape, future version)."""


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
        return fn

    return register


def to_record(event: Event) -> tuple[str, int, dict[str, Any]]:
    """Return ``(type tag, schema version, data dict)`` for an event."""
    return event.TYPE, event.VERSION, converter.unstructure(event)


def _upcast(type_tag: str, version: int, target: int, data: dict[str, Any]) -> dict[str, Any]:
    while version < target:
        step = _UPCASTERS.get((type_tag, version))
        if step is None:
            raise CodecError(f"no upcaster for {type_tag} v{version}")
        data = step(dict(data))
        version += 1
    return data


def from_record(type_tag: str, version: int, data: Any) -> Event:
    """Return the event for a stored record.

    Args:
        type_tag: The record's ``type``.
        version: The record's ``v`` (upcasters bring it to the class's current version).
        data: The record's ``data`` (a mapping of plain values).

    Raises:
        CodecError: unknown type, a version newer than this program knows, or data that does not
            fit the class.
    """
    cls = event_class(type_tag)
    if cls is None:
        raise CodecError(f"unknown event type {type_tag!r}")
    if not isinstance(version, int) or version > cls.VERSION or version < 1:
        raise CodecError(f"{type_tag}: unsupported schema version {version!r}")
    if not isinstance(data, dict):
        raise CodecError(f"{type_tag}: data is not a map")
    if version < cls.VERSION:
        data = _upcast(type_tag, version, cls.VERSION, data)
    hook = _HOOKS.get(cls)
    if hook is None:
        hook = _HOOKS[cls] = converter.get_structure_hook(cls)
    try:
        return hook(data, cls)  # type: ignore[no-any-return]
    except (cattrs.BaseValidationError, TypeError, ValueError, KeyError, AttributeError) as exc:
        raise CodecError(f"{type_tag}: data does not fit the event: {exc}") from None
