"""One typed decode per event class: its msgspec mirror, made once from its attrs fields.

An event class's *mirror* is a msgspec ``Struct`` with the class's fields, of the same types
(a nested attrs class becomes its own mirror, a ``Fraction`` is read from its ``"n/d"`` text),
each defaulted field with its default, no other key allowed. msgspec decodes a record's data
into it in one C pass, from the still-packed bytes (the fold) or from an unpacked map (every
other read), checking each value's exact type: stored data is never converted (``"999"`` is no
int, a string no tuple of its characters), save an int where a float is declared. The event
is then built from the mirror's values by code generated for its class: a plain slotted class
has its slots set (what its attrs ``__init__`` would do, at half the cost), any other (a
validator, a converter, an init hook) runs its ``__init__``. Unstructuring for the store is the
reverse: the fields as plain data (tuples as lists, a Fraction as ``"n/d"``).
"""

from __future__ import annotations

import functools
import inspect
import operator
import re
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import msgspec

__all__ = ["Typed", "typed", "plain", "fraction_of", "FRACTION"]

FRACTION = re.compile(r"(-?[0-9]{1,30})/([0-9]{1,30})")
"""A stored Fraction: at most 30 digits a part (``"1e999999999"`` would take minutes)."""

_SETTERS_UNSAFE = ("__attrs_pre_init__", "__attrs_post_init__")
_FACTORY: Any = type(attrs.Factory(list))  # attrs.Factory's class (its stub: a function)
_TYPED: dict[type, Typed] = {}


def fraction_of(value: Any) -> Fraction:
    """Return the Fraction a stored ``"n/d"`` holds.

    Raises:
        TypeError: not such a string; ZeroDivisionError: ``n/0``.
    """
    found = FRACTION.fullmatch(value) if type(value) is str else None
    if found is None:
        raise TypeError(f"{value!r} is not a fraction n/d")
    return Fraction(int(found[1]), int(found[2]))


def _hook(tp: Any, value: Any) -> Any:
    """msgspec's decoding hook: the one custom type a mirror holds is ``Fraction``."""
    if tp is Fraction:
        return fraction_of(value)
    raise TypeError(f"{value!r} is not a {tp}")


@attrs.frozen
class Typed:
    """The typed decode of one attrs class.

    Attributes:
        cls: The class.
        names: Its field names, in order (the keys of its data).
        mirror: The msgspec Struct its data decodes into.
        packed: ``packed(bytes) -> mirror``, from msgpack bytes (raises msgspec's errors).
        from_map: ``from_map(dict) -> mirror``, from unpacked data (raises msgspec's errors).
        build: ``build(mirror) -> instance`` (raises what a validator raises).
    """

    cls: type
    names: tuple[str, ...]
    mirror: type
    packed: Callable[[Any], Any]
    from_map: Callable[[Any], Any]
    build: Callable[[Any], Any]

    def decode(self, data: Any) -> Any:
        """Return the instance of packed (bytes, a buffer) or unpacked (a dict) data.

        Raises:
            msgspec.ValidationError: data that does not fit; msgspec.DecodeError: packed bytes
                that are not msgpack; TypeError, ValueError, ZeroDivisionError: a validator's
                refusal, a fraction over zero.
        """
        if type(data) is dict:
            return self.build(self.from_map(data))
        return self.build(self.packed(data))

    def data(self, value: Any) -> dict[str, Any]:
        """Return an instance's fields as plain data (see :func:`plain`)."""
        return {name: plain(getattr(value, name)) for name in self.names}


def typed(cls: type) -> Typed:
    """Return the typed decode of the attrs class ``cls`` (made on first use, then kept).

    Raises:
        TypeError: a field that is not in ``__init__`` (its data could not be read back), or a
            default that needs the instance (``Factory(takes_self=True)``).
    """
    found = _TYPED.get(cls)
    if found is not None:
        return found
    attrs.resolve_types(cls)
    fields = attrs.fields(cls)
    for f in fields:
        if not f.init or (isinstance(f.default, _FACTORY) and f.default.takes_self):
            raise TypeError(f"{cls.__qualname__}.{f.name}: an event field must be an init field")
    mirror = msgspec.defstruct(
        f"{cls.__name__}Mirror",
        [_mirror_field(i, f) for i, f in enumerate(fields)],
        forbid_unknown_fields=True,
        rename={f"f{i}": f.name for i, f in enumerate(fields)},
        gc=False,
    )
    decoder = msgspec.msgpack.Decoder(mirror, dec_hook=_hook)
    from_map = functools.partial(msgspec.convert, type=mirror, dec_hook=_hook)
    names = tuple(f.name for f in fields)
    made = Typed(cls, names, mirror, decoder.decode, from_map, _builder(cls, fields))
    _TYPED[cls] = made
    return made


def _mirror_field(i: int, field: Any) -> tuple[Any, ...]:
    """Return the mirror's ``(name, type[, default])`` of field ``i``."""
    kind = _mirror_type(field.type)
    if field.default is attrs.NOTHING:
        return (f"f{i}", kind)
    if isinstance(field.default, _FACTORY):
        return (f"f{i}", kind, msgspec.field(default_factory=field.default.factory))
    return (f"f{i}", kind, field.default)


def _mirror_type(tp: Any) -> Any:
    """Return the type a mirror declares for ``tp``: an attrs class's mirror in its place."""
    if isinstance(tp, type) and attrs.has(tp):
        return typed(tp).mirror
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, [_mirror_type(a) for a in args])
    if origin in (tuple, list, dict, set, frozenset) and args:
        return origin[tuple(a if a is Ellipsis else _mirror_type(a) for a in args)]
    return tp


def _part(tp: Any) -> Callable[[Any], Any] | None:
    """Return what turns a mirror's value of declared type ``tp`` into the class's value (a
    nested mirror into its attrs instance), or None where they are the same.

    Raises:
        TypeError: an attrs class inside a type other than ``X | None``, ``tuple[X, ...]``,
            ``list[X]`` and ``dict[K, X]``.
    """
    if isinstance(tp, type) and attrs.has(tp):
        return typed(tp).build
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    parts = [None if a is Ellipsis or a is type(None) else _part(a) for a in args]
    if not any(parts):
        return None
    one = next(p for p in parts if p is not None)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        return lambda v: None if v is None else one(v)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return lambda v: tuple([one(x) for x in v])
    if origin is list:
        return lambda v: [one(x) for x in v]
    if origin is dict and parts[0] is None:
        return lambda v: {k: one(x) for k, x in v.items()}
    raise TypeError(f"no typed decode of {tp!r}: an attrs class inside it")


def _builder(cls: type, fields: Any) -> Callable[[Any], Any]:
    """Generate ``build(mirror)``: the instance of ``cls`` from its mirror's values."""
    namespace: dict[str, Any] = {"cls": cls, "new": object.__new__}
    values = []
    for i, f in enumerate(fields):
        part = _part(f.type)
        if part is not None:
            namespace[f"part{i}"] = part
        values.append(f"part{i}(m.f{i})" if part is not None else f"m.f{i}")
    setters = _slot_setters(cls, fields)
    if setters is None:  # attrs ``__init__`` runs: validators, converters, init hooks
        given = ", ".join(f"{f.alias}={v}" for f, v in zip(fields, values, strict=True))
        lines = [f"    return cls({given})"]
    else:
        namespace.update({f"set{i}": setter for i, setter in enumerate(setters)})
        lines = ["    o = new(cls)", *(f"    set{i}(o, {v})" for i, v in enumerate(values))]
        lines.append("    return o")
    exec("def build(m):\n" + "\n".join(lines) + "\n", namespace)  # noqa: S102 - from field names
    return namespace["build"]  # type: ignore[no-any-return]


def _slot_setters(cls: type, fields: Any) -> list[Any] | None:
    """Return the slot setters of a class whose attrs ``__init__`` only assigns, else None."""
    if (
        any(f.validator or f.converter or f.on_setattr for f in fields)
        or any(hasattr(cls, hook) for hook in _SETTERS_UNSAFE)
        or "_attrs_cached_hash" in getattr(cls, "__slots__", ("_attrs_cached_hash",))
    ):
        return None
    slots = [inspect.getattr_static(cls, f.name, None) for f in fields]
    if not all(type(slot) is types.MemberDescriptorType for slot in slots):
        return None
    return [slot.__set__ for slot in slots]


def plain(value: Any) -> Any:
    """Return a field's value as stored data: tuples and lists as lists, dicts as dicts of
    plain values, a Fraction as ``"n/d"``, an attrs instance as the map of its fields."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    if kind is tuple or kind is list:
        return [plain(item) for item in value]
    if kind is dict:
        return {key: plain(item) for key, item in value.items()}
    if kind is Fraction:
        return f"{value.numerator}/{value.denominator}"
    if attrs.has(kind):
        return typed(kind).data(value)
    return value
