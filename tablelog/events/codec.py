"""The codec: one cattrs converter between event records and plain data, plus upcasters.

Serialization is kept apart from the domain: events never know msgpack. ``to_record`` gives the
``(type, v, data)`` triple the store packs; ``from_record`` upcasts old schema versions (a chain of
one-step upcasters applied to the raw data) and structures the data back into the registered class.

Structuring is the hot path of a replay, and importing cattrs is a fifth of a command's start-up,
so each class whose fields are all *plain* (``str, int, bool, float, bytes``, a ``Fraction``
stored as ``"n/d"``, a nested attrs class of plain fields, optional, or lists, ``tuple[X, ...]``
and string-keyed dicts of the first five) gets a fast path both ways: data with exactly the
class's fields, each of exactly its type, is built straight into the class; anything else goes
through the cattrs hook, so results and errors are the converter's. cattrs is imported on first
use only.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import msgspec

from tablelog.events.core import Event, event_class

__all__ = [
    "CodecError",
    "to_record",
    "from_record",
    "upcaster",
    "decoder",
    "fast_path",
    "packed_decoder",
]

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
Decoder = Callable[[Any], Event]
Fast = tuple[Callable[[dict[str, Any]], "Event | None"], tuple[str, ...]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}
_DECODERS: dict[tuple[str, int], tuple[type, Decoder]] = {}
_FAST: dict[type, Fast | None] = {}
_NESTED: dict[str, Callable[[dict[str, Any]], Any]] = {}  # nested classes' builds, by name
_PLAIN = (str, int, bool, float, bytes)
_CONVERTER: Any = None


class CodecError(Exception):
    """A record that cannot be turned into an event (unknown type, bad shape, future version)."""


def _converter() -> Any:
    """Return the one cattrs converter (created, and cattrs imported, on first use)."""
    global _CONVERTER
    if _CONVERTER is None:
        from fractions import Fraction

        import cattrs

        made = cattrs.Converter(forbid_extra_keys=True)  # a field the event lacks: refused
        made.register_unstructure_hook(Fraction, lambda f: f"{f.numerator}/{f.denominator}")
        made.register_structure_hook(Fraction, _fraction)
        for kind in (int, str, bool):  # stored data is never converted: "999" is no int
            made.register_structure_hook(kind, _exactly(kind))
        made.register_structure_hook_factory(attrs.has, lambda cls: _from_map(cls, made))
        made.register_structure_hook_factory(_is_container, lambda tp: _container(tp, made))
        _CONVERTER = made
    return _CONVERTER


def _from_map(cls: type, converter: Any) -> Callable[[Any, Any], Any]:
    """Return cattrs' structure hook for the attrs class ``cls``, taking only a map (a nested
    list is "expected Sheet @ $.sheet", not an attribute error's text)."""
    from cattrs.gen import make_dict_structure_fn

    made: Callable[[Any, Any], Any] = make_dict_structure_fn(
        cls, converter, _cattrs_forbid_extra_keys=True
    )

    def structure(value: Any, kind: Any) -> Any:
        if type(value) is not dict:
            raise TypeError(f"{value!r} is not a map")
        return made(value, kind)

    return structure


def _is_container(tp: Any) -> bool:
    """Whether ``tp`` is ``list[X]``, ``tuple[X, ...]`` or ``dict[K, V]``."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        return len(args) == 2 and args[1] is Ellipsis
    return origin in (list, dict) and bool(args)


def _container(tp: Any, converter: Any) -> Callable[[Any, Any], Any]:
    """Return cattrs' structure hook for a list, a tuple of one type or a dict, taking only
    that kind of value: stored data is never converted (a string is no tuple of its
    characters, a map no tuple of its keys: QA, issue 14)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    hooks: list[Callable[[Any, Any], Any]] = []

    def inner() -> list[Callable[[Any, Any], Any]]:
        if not hooks:
            hooks.extend(converter.get_structure_hook(a) for a in args if a is not Ellipsis)
        return hooks

    if origin is dict:

        def structure_map(value: Any, _: Any) -> Any:
            if type(value) is not dict:
                raise TypeError(f"{value!r} is not a map")
            key, item = inner()
            return {key(k, args[0]): item(v, args[1]) for k, v in value.items()}

        return structure_map

    def structure(value: Any, _: Any) -> Any:
        if type(value) is not list and type(value) is not tuple:
            raise TypeError(f"{value!r} is not a list")
        item = inner()[0]
        made = [item(v, args[0]) for v in value]
        return made if origin is list else tuple(made)

    return structure


def _why(exc: Exception) -> str:
    """Return what cattrs found wrong, field by field ("… @ $.count"), or the error's text."""
    import cattrs

    try:
        return "; ".join(cattrs.transform_error(exc))
    except Exception:  # not one of cattrs' error groups  # noqa: BLE001
        return str(exc)


_FRACTION = re.compile(r"(-?[0-9]{1,30})/([0-9]{1,30})")


def _fast_fraction(value: Any) -> Fraction | None:
    """Return the Fraction a ``"n/d"`` string holds (as :func:`_fraction` reads it), or None
    for anything else (the fast path then leaves the record to cattrs, and its error)."""
    found = _FRACTION.fullmatch(value) if type(value) is str else None
    if found is None or not int(found[2]):
        return None
    return Fraction(int(found[1]), int(found[2]))


def _fraction(value: Any, _: Any) -> Any:
    """Structure a Fraction from exactly what unstructuring writes: ``"n/d"``, at most 30 digits
    a part (no float, no exponent: ``"1e999999999"`` would take minutes to build)."""
    found = _FRACTION.fullmatch(value) if type(value) is str else None
    if found is None:
        raise TypeError(f"{value!r} is not a fraction n/d")
    return Fraction(int(found[1]), int(found[2]))  # ZeroDivisionError for n/0


def _exactly(kind: type) -> Callable[[Any, Any], Any]:
    """Return a cattrs structure hook that takes only values of exactly ``kind``."""

    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"{value!r} is not {kind.__name__}")
        return value

    return structure


def __getattr__(name: str) -> Any:
    if name == "converter":  # ``from tablelog.events.codec import converter`` still works
        return _converter()
    raise AttributeError(name)


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
    fast = _fast(type(event))
    if fast is None:
        return event.TYPE, event.VERSION, _converter().unstructure(event)
    return event.TYPE, event.VERSION, _data(event, fast[1])


def _data(value: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """Return the converter's data for ``value``, of a class with a fast path (its ``names``):
    tuples as lists, a Fraction as ``"n/d"``, a nested class's value as its own data."""
    data = {}
    for name in names:
        field = getattr(value, name)
        kind = type(field)
        if kind is tuple or kind is list:
            field = list(field)
        elif kind is dict:
            field = dict(field)
        elif kind is Fraction:
            field = f"{field.numerator}/{field.denominator}"
        elif _FAST.get(kind) is not None:
            field = _data(field, _FAST[kind][1])  # type: ignore[index]
        data[name] = field
    return data


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


def fast_path(type_tag: str, version: int) -> Callable[[dict[str, Any]], Event | None] | None:
    """Return ``build(data)`` for ``(type_tag, version)`` records when the class has a fast path:
    it returns the event when the data has exactly the class's fields with exactly their types,
    else None (then use :func:`decoder`, whose result or error is the converter's)."""
    fast = _current_fast(type_tag, version)
    return None if fast is None else fast[0]


def packed_decoder(type_tag: str, version: int) -> Callable[[Any], Event | None] | None:
    """Return ``build(data)`` for ``(type_tag, version)`` records when the class has a fast
    path: ``data`` is still packed (msgpack bytes, a buffer) or, for a record the reader
    checked in full, a dict. It returns the event when the data is exactly what
    :func:`fast_path` takes (the class's fields, each with exactly its type), else None (then
    use :func:`decoder` on the unpacked data, whose result or error decides).

    msgspec decodes packed bytes in one pass (docs/RELIABILITY.md, Long campaigns:
    performance), at a third of the cost of unpacking the map and building the event from it.
    It decodes into a mirror of the class, a Struct that requires every field and forbids
    other keys (a nested attrs class becomes its own mirror: :func:`_mirror`), so it takes
    exactly what the fast path takes; the event is then built from the mirror's values
    (:func:`_assembler`), a class with validators by its attrs ``__init__``.
    """
    cls = event_class(type_tag)
    if cls is None or version != cls.VERSION:
        return None
    fast = _fast(cls)
    if fast is None:
        return None
    found = _PACKED.get(cls)
    if found is None:
        found = _PACKED[cls] = _make_packed(cls, fast[0])
    return found


_PACKED: dict[type, Callable[[Any], Any]] = {}


def _make_packed(cls: type, from_dict: Callable[[dict[str, Any]], Any]) -> Callable[[Any], Any]:
    decode: Callable[[Any], Any] = msgspec.msgpack.Decoder(
        _mirror(cls), dec_hook=_packed_fraction
    ).decode
    assemble = _assembler(cls)

    def build(packed: Any) -> Any:
        if type(packed) is dict:
            return from_dict(packed)
        try:
            return assemble(decode(packed))
        except Exception:  # a key missing or unknown, a value of another type, a refusal
            return None

    return build


def _mirror(cls: type) -> type:
    """Return a msgspec Struct with ``cls``'s fields (attrs, with a fast path), every one
    required, no other key allowed; a nested attrs class becomes its own mirror."""
    return msgspec.defstruct(
        f"{cls.__name__}Packed",
        [(f.name, _mirror_type(f.type)) for f in attrs.fields(cls)],
        forbid_unknown_fields=True,
        gc=False,
    )


def _mirror_type(tp: Any) -> Any:
    if isinstance(tp, type) and attrs.has(tp):
        return _mirror(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):  # X | None: the fast path's
        inner = next(a for a in typing.get_args(tp) if a is not type(None))
        return _mirror_type(inner) | None
    return tp


def _assembler(cls: type) -> Callable[[Any], Any]:
    """Return ``assemble(mirror)``: the value of ``cls`` (attrs) from its mirror's values,
    each nested mirror assembled too. A plain slotted class is built by setting its slots,
    as :func:`_make_fast` builds it; any other runs its attrs ``__init__``."""
    fields = attrs.fields(cls)
    namespace: dict[str, Any] = {"cls": cls, "new": object.__new__}
    lines = ["def assemble(m):"]
    for i, f in enumerate(fields):
        lines.append(f"    v{i} = m.{f.name}")
        kinds = typing.get_args(f.type) or (f.type,)
        inner = next((k for k in kinds if isinstance(k, type) and attrs.has(k)), None)
        if inner is not None:
            namespace[f"part{i}"] = _assembler(inner)
            lines += [f"    if v{i} is not None:", f"        v{i} = part{i}(v{i})"]
    setters = _slot_setters(cls, fields)
    if setters is None:
        given = ", ".join(f"{f.name}=v{i}" for i, f in enumerate(fields))
        lines.append(f"    return cls({given})")
    else:
        namespace.update({f"set{i}": setter for i, setter in enumerate(setters)})
        lines += ["    o = new(cls)", *(f"    set{i}(o, v{i})" for i in range(len(fields)))]
        lines.append("    return o")
    exec("\n".join(lines) + "\n", namespace)  # noqa: S102 - generated from the field names
    return namespace["assemble"]  # type: ignore[no-any-return]


def _packed_fraction(tp: Any, value: Any) -> Any:
    """msgspec's hook for a Fraction field: ``"n/d"``, as :func:`_fast_fraction` reads it."""
    if tp is Fraction:
        made = _fast_fraction(value)
        if made is not None:
            return made
    raise TypeError(f"{value!r} is not a {tp}")


def _current_fast(type_tag: str, version: int) -> Fast | None:
    """Return the fast path of ``type_tag``'s class for records of its current version."""
    cls = event_class(type_tag)
    return None if cls is None or version != cls.VERSION else _fast(cls)


def _make_decoder(cls: type[Event], type_tag: str, version: int) -> Decoder:
    fast = _fast(cls)
    target = cls.VERSION
    hooks: list[Any] = []

    def decode(data: Any) -> Event:
        if type(data) is not dict:
            raise CodecError(f"{type_tag}: data is not a map")
        if version < target:
            data = _upcast(type_tag, version, target, data)
        if fast is not None:
            made = fast[0](data)
            if made is not None:
                return made
        if not hooks:
            hooks.append(_converter().get_structure_hook(cls))
        try:
            return hooks[0](data, cls)  # type: ignore[no-any-return]
        except Exception as exc:  # cattrs' validation errors, TypeError, ValueError, …
            raise CodecError(f"{type_tag}: data does not fit the event: {_why(exc)}") from None

    return decode


def _fast(cls: type) -> Fast | None:
    """Return ``(build, field names)`` for a class of plain fields, else None (cached)."""
    if cls in _FAST:
        return _FAST[cls]
    _FAST[cls] = None  # while it is made: a class that holds itself has none
    found = _FAST[cls] = _make_fast(cls)
    return found


def _make_fast(cls: type) -> Fast | None:
    """Generate ``build(d)``: check that ``d`` has exactly the fields, each of exactly its type,
    then build the event (tuple fields from msgpack's lists); None when anything differs.

    A plain slotted class (no validators, converters or init hooks) is built by setting its
    slots directly, which is what its attrs ``__init__`` would do, at half the cost."""
    try:
        attrs.resolve_types(cls)
        fields = attrs.fields(cls)
    except Exception:  # unresolvable annotations: use cattrs only  # noqa: BLE001
        return None
    checks: list[str] = []
    values = []
    for i, field in enumerate(fields):
        lines = _field_check(f"v{i}", field.type)
        if lines is None or not field.init or field.alias != field.name:
            return None
        checks += lines
        values.append(f"tuple(v{i})" if typing.get_origin(field.type) is tuple else f"v{i}")
    names = tuple(f.name for f in fields)
    namespace: dict[str, Any] = {t.__name__: t for t in _PLAIN}
    namespace.update(fraction=_fast_fraction, nested=_NESTED)
    namespace.update(cls=cls, new=object.__new__)
    setters = _slot_setters(cls, fields)
    build = _build_lines(names, values, setters, namespace)
    reads = (
        [
            "    try:",
            *(f"        v{i} = d[{name!r}]" for i, name in enumerate(names)),
            "    except KeyError:",
            "        return None",
        ]
        if names
        else []
    )
    head = [
        f"    if len(d) != {len(names)}:",
        "        return None",
        *reads,
        *(f"    {line}" for line in checks),
    ]
    source = ["def build(d):", *head, *build]
    exec("\n".join(source) + "\n", namespace)  # noqa: S102 - generated from the field types
    return namespace["build"], names


def _build_lines(
    names: tuple[str, ...], values: list[str], setters: list[Any] | None, namespace: dict[str, Any]
) -> list[str]:
    """Return the lines that build the event from the checked values ``v0``, ``v1`` …"""
    if setters is None:  # attrs ``__init__`` runs: a validator's refusal leaves it to cattrs
        given = ", ".join(f"{name}={v}" for name, v in zip(names, values, strict=True))
        return [
            "    try:",
            f"        return cls({given})",
            "    except Exception:",
            "        return None",
        ]
    namespace.update({f"set{i}": setter for i, setter in enumerate(setters)})
    return [
        "    o = new(cls)",
        *(f"    set{i}(o, {v})" for i, v in enumerate(values)),
        "    return o",
    ]


def _slot_setters(cls: type, fields: Any) -> list[Any] | None:
    """Return the slot setters of a class that attrs ``__init__`` only assigns, else None."""
    plain = (
        not any(f.validator or f.converter or f.on_setattr for f in fields)
        and not hasattr(cls, "__attrs_pre_init__")
        and not hasattr(cls, "__attrs_post_init__")
        and "_attrs_cached_hash" not in getattr(cls, "__slots__", ("_attrs_cached_hash",))
    )
    if not plain:
        return None
    slots = [inspect.getattr_static(cls, f.name, None) for f in fields]
    if not all(type(slot) is types.MemberDescriptorType for slot in slots):
        return None
    return [slot.__set__ for slot in slots]


def _field_check(ref: str, tp: Any) -> list[str] | None:
    """Return the lines that ``return None`` unless ``ref`` has exactly type ``tp``."""
    if tp in _PLAIN:
        return [f"if type({ref}) is not {tp.__name__}:", "    return None"]
    if tp is Fraction:  # stored as "n/d" (the converter's hook)
        return [f"{ref} = fraction({ref})", f"if {ref} is None:", "    return None"]
    if isinstance(tp, type) and attrs.has(tp):  # a nested class of plain fields: its own build
        made = _fast(tp)
        if made is None:
            return None
        key = f"{tp.__module__}.{tp.__qualname__}"
        _NESTED[key] = made[0]
        return [
            f"if type({ref}) is not dict:",
            "    return None",
            f"{ref} = nested[{key!r}]({ref})",
            f"if {ref} is None:",
            "    return None",
        ]
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args and len(args) == 2:
        inner = _field_check(ref, next(a for a in args if a is not type(None)))
        return None if inner is None else [f"if {ref} is not None:", *(f"    {x}" for x in inner)]
    if origin is list and len(args) == 1 and args[0] in _PLAIN:
        kinds = f"type({ref}) is not list"
    elif origin is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] in _PLAIN:
        kinds = f"type({ref}) is not list and type({ref}) is not tuple"
    elif origin is dict and len(args) == 2 and args[0] is str and args[1] in _PLAIN:
        return [
            f"if type({ref}) is not dict:",
            "    return None",
            f"for k, x in {ref}.items():",
            f"    if type(k) is not str or type(x) is not {args[1].__name__}:",
            "        return None",
        ]
    else:
        return None
    return [
        f"if {kinds}:",
        "    return None",
        f"for x in {ref}:",
        f"    if type(x) is not {args[0].__name__}:",
        "        return None",
    ]


@upcaster("core.SeatAdded", 1)
def _seat_added_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A seat added before page links: no link (its token opened the page)."""
    data.setdefault("link_sha256", "")
    return data
