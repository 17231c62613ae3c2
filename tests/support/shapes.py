"""Whether plain state data has the shape a TypedDict declares (the contract test of typed state).

mypy checks the code that reads and writes entity records against their TypedDicts; this checks
the records themselves, as folded from real logs, against the same declarations, so a
declaration cannot drift from what the evolvers build.
"""

from __future__ import annotations

import types
import typing
from typing import Any

__all__ = ["problems"]


def problems(value: Any, hint: Any, path: str = "") -> list[str]:  # noqa: C901 - one branch per JSON shape the contract names
    """Return what in ``value`` does not match the type ``hint`` (empty: it matches).

    Understands TypedDicts (required and optional keys, no other keys), ``Literal``, unions,
    ``list``/``tuple``/``dict``/``set`` with their element types, ``Any`` and plain classes (an
    ``int`` is no ``bool``; a ``float`` takes an ``int``).
    """
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return []
    if typing.is_typeddict(hint):
        return _typeddict(value, hint, path)
    if origin is typing.Literal:
        return (
            []
            if any(value == a and type(value) is type(a) for a in args)
            else [f"{path or 'value'}: {value!r} is none of {args}"]
        )
    if origin in (typing.Union, types.UnionType):
        found = [problems(value, a, path) for a in args]
        return [] if any(not f for f in found) else min(found, key=len)
    if hint is None or hint is type(None):
        return [] if value is None else [f"{path or 'value'}: {value!r} is not None"]
    if origin in (list, tuple, dict, set):
        if not isinstance(value, origin):
            return [f"{path or 'value'}: {type(value).__name__} is not {origin.__name__}"]
        if origin is dict:
            key, item = args or (Any, Any)
            return [
                p
                for k, v in value.items()
                for p in problems(k, key, f"{path}[{k!r}]:key")
                + problems(v, item, f"{path}[{k!r}]")
            ]
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(value):
                return [f"{path or 'value'}: {len(value)} elements, not {len(args)}"]
            return [
                p
                for i, (v, a) in enumerate(zip(value, args, strict=True))
                for p in problems(v, a, f"{path}[{i}]")
            ]
        item = args[0] if args else Any
        ordered = sorted(value, key=repr) if origin is set else value
        return [p for i, v in enumerate(ordered) for p in problems(v, item, f"{path}[{i}]")]
    if hint is float:
        ok = type(value) in (int, float)
    elif hint is int:
        ok = type(value) is int
    else:
        ok = isinstance(value, origin or hint)
    return [] if ok else [f"{path or 'value'}: {value!r} is not {getattr(hint, '__name__', hint)}"]


def _typeddict(value: Any, hint: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path or 'value'}: {type(value).__name__} is not a {hint.__name__} record"]
    fields = typing.get_type_hints(hint)
    out = [f"{path}.{k}: not a key of {hint.__name__}" for k in value if k not in fields]
    out += [
        f"{path}.{k}: missing ({hint.__name__} requires it)"
        for k in sorted(hint.__required_keys__)
        if k not in value
    ]
    for key, sub in fields.items():
        if key in value:
            out.extend(problems(value[key], sub, f"{path}.{key}"))
    return out
