"""The codec: one cattrs converter between event records and plain data, plus upcasters.

Serialization is kept apart from the domain: events never know msgpack. ``to_record`` gives the
``(type, v, data)`` triple the store packs; ``from_record`` upcasts old schema versions (a chain of
one-step upcasters applied to the raw data) and structures the data back into the registered class.

Structuring is the hot path of a replay, so each class also gets a fast path when every field is
plain (``str, int, bool, float, bytes``, optional, or lists/tuples/string-keyed dicts of those): the
class is built straight from the data and its field types are checked exactly; anything the check
does not accept goes through the cattrs hook, so results and errors are the converter's.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import cattrs

from tablelog.events.core import Event, event_class

__all__ = ["CodecError", "converter", "to_record", "from_record", "upcaster", "decoder",
           "fast_path"]

converter = cattrs.Converter()
converter.register_unstructure_hook(Fraction, lambda f: f"{f.numerator}/{f.denominator}")
converter.register_structure_hook(Fraction, lambda v, _: Fraction(v))

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
Decoder = Callable[[Any], Event]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}
_DECODERS: dict[tuple[str, int], tuple[type, Decoder]] = {}
_PLAIN = (str, int, bool, float, bytes)
_STRUCTURE_ERRORS = (cattrs.BaseValidationError, TypeError, ValueError, KeyError, AttributeError)


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
        _DECODERS.clear()
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
        try:
            data = step(dict(data))
        except Exception as exc:  # an old record the upcaster cannot read: a clear error
            raise CodecError(f"{type_tag} v{version}: upcaster failed: {exc!r}") from None
        if not isinstance(data, dict):
            raise CodecError(f"{type_tag} v{version}: upcaster returned no map")
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
    return decoder(type_tag, version)(data)


def decoder(type_tag: str, version: int) -> Decoder:
    """Return the function that turns the ``data`` of a ``(type_tag, version)`` record into an
    event (cached per pair; see :func:`from_record`).

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
    fn = _make_decoder(cls, type_tag, version)
    _DECODERS[(type_tag, version)] = (cls, fn)
    return fn


def fast_path(type_tag: str, version: int) -> tuple[type[Event], Callable[[Any], bool]] | None:
    """Return ``(class, exact field check)`` when ``(type_tag, version)`` records can be built
    as ``cls(**data)`` and accepted when the check passes (else use :func:`decoder`)."""
    cls = event_class(type_tag)
    if cls is None or version != cls.VERSION:
        return None
    check = _FAST.get(cls)
    if check is None:
        check = _FAST[cls] = _fast_check(cls) or _NO_FAST
    return None if check is _NO_FAST else (cls, check)


def _NO_FAST(_: Any) -> bool:
    return False


_FAST: dict[type, Callable[[Any], bool]] = {}


def _make_decoder(cls: type[Event], type_tag: str, version: int) -> Decoder:
    hook = converter.get_structure_hook(cls)
    fast = _fast_check(cls)
    target = cls.VERSION

    def decode(data: Any) -> Event:
        if type(data) is not dict:
            raise CodecError(f"{type_tag}: data is not a map")
        if version < target:
            data = _upcast(type_tag, version, target, data)
        if fast is not None:
            try:
                made = cls(**data)
            except (TypeError, ValueError):
                made = None
            if made is not None and fast(made):
                return made
        try:
            return hook(data, cls)  # type: ignore[no-any-return]
        except _STRUCTURE_ERRORS as exc:
            raise CodecError(f"{type_tag}: data does not fit the event: {exc}") from None

    return decode


def _fast_check(cls: type) -> Callable[[Any], bool] | None:
    """Return an exact type check of a built event's fields, or None when a field is not plain."""
    try:
        attrs.resolve_types(cls)
        fields = attrs.fields(cls)
    except Exception:  # unresolvable annotations: use cattrs only  # noqa: BLE001
        return None
    exprs = []
    for field in fields:
        expr = _field_check(f"o.{field.name}", field.type)
        if expr is None or not field.init or field.alias != field.name:
            return None
        exprs.append(expr)
    source = "def check(o):\n    return " + (" and ".join(exprs) or "True") + "\n"
    namespace: dict[str, Any] = {t.__name__: t for t in _PLAIN}
    exec(source, namespace)  # noqa: S102 - generated from the class's own field types
    return namespace["check"]  # type: ignore[no-any-return]


def _field_check(ref: str, tp: Any) -> str | None:
    if tp in _PLAIN:
        return f"type({ref}) is {tp.__name__}"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args and len(args) == 2:
        inner = _field_check(ref, next(a for a in args if a is not type(None)))
        return None if inner is None else f"({ref} is None or {inner})"
    if origin is list and len(args) == 1 and args[0] in _PLAIN:
        return f"(type({ref}) is list and all(type(x) is {args[0].__name__} for x in {ref}))"
    if origin is dict and len(args) == 2 and args[0] is str and args[1] in _PLAIN:
        return (f"(type({ref}) is dict and all(type(k) is str and type(x) is "
                f"{args[1].__name__} for k, x in {ref}.items()))")
    return None
