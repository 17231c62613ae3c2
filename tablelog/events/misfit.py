"""Why a record's data does not fit its event class, field by field (the decode's refusal).

Run only when the typed decode (:mod:`tablelog.events.mirror`) refused the data, it names every
field that does not fit, in the words the codec has always used (those of cattrs'
``transform_error``, which made them until issue 31): ``required field missing @ $.count``,
``invalid value for type, expected int @ $.count``, ``extra fields found (gold) @ $``, a nested
class's fields by their path (``@ $.sheet.level``), a container as a whole
(``expected tuple @ $.cards``), joined by ``; `` in field order, the extra keys last.
"""

from __future__ import annotations

import types
import typing
from fractions import Fraction
from typing import Any

import attrs

from tablelog.events.mirror import fraction_of

__all__ = ["misfits"]


def misfits(cls: type, data: dict[str, Any], path: str = "$") -> list[str]:
    """Return what does not fit in ``data`` (a map) as the data of the attrs class ``cls``.

    Args:
        cls: The event class, or a nested attrs class.
        data: The unpacked data.
        path: Where ``data`` is, for the messages (``$`` the record's data).

    Returns:
        One message per field that does not fit, then one for the extra keys; none when every
        field fits (a validator may still refuse the whole).
    """
    found: list[str] = []
    fields = attrs.fields(cls)
    for f in fields:
        if f.name not in data:
            if f.default is attrs.NOTHING:
                found.append(f"required field missing @ {path}.{f.name}")
            continue
        found += _value(f.type, data[f.name], f"{path}.{f.name}")
    names = {f.name for f in fields}
    extra = [str(key) for key in data if key not in names]
    if extra:
        found.append(f"extra fields found ({', '.join(extra)}) @ {path}")
    return found


def _value(tp: Any, value: Any, path: str) -> list[str]:
    """Return what does not fit in one value of declared type ``tp`` at ``path``."""
    wrong = [f"invalid value for type, expected {_name(tp)} @ {path}"]
    if isinstance(tp, type) and attrs.has(tp):
        return misfits(tp, value, path) if type(value) is dict else wrong
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        if value is None:
            return []
        inner = next(a for a in args if a is not type(None))
        if isinstance(inner, type) and attrs.has(inner) and type(value) is dict:
            return misfits(inner, value, path)
        return wrong if _value(inner, value, path) else []
    if origin in (tuple, list) and args and (origin is list or args[-1] is Ellipsis):
        if type(value) is not list and type(value) is not tuple:
            return wrong
        nested = isinstance(args[0], type) and attrs.has(args[0])
        if nested and all(type(item) is dict for item in value):
            return [m for item in value for m in misfits(args[0], item, path)]
        return wrong if any(_value(args[0], item, path) for item in value) else []
    if origin is dict and len(args) == 2:
        fits = type(value) is dict and not any(
            _value(args[0], k, path) or _value(args[1], v, path) for k, v in value.items()
        )
        return [] if fits else wrong
    return _scalar(tp, value, path, wrong)


def _scalar(tp: Any, value: Any, path: str, wrong: list[str]) -> list[str]:
    """Return what does not fit in a value of a type that holds no other (``int``, ``str``,
    ``Fraction`` …; a type beyond these is taken as it is)."""
    if tp is Fraction:
        try:
            fraction_of(value)
        except ZeroDivisionError as exc:  # as cattrs said it
            return [f"unknown error ({exc}) @ {path}"]
        except TypeError:
            return wrong
        return []
    if tp is float:
        return [] if type(value) in (float, int) else wrong
    if tp in (str, int, bool, bytes):
        return [] if type(value) is tp else wrong
    return []


def _name(tp: Any) -> str:
    """Return a type as the messages name it: a class by its name, any other by its repr
    (``int | None``; ``tuple[str, ...]`` is ``tuple``)."""
    name = getattr(tp, "__name__", None)
    return name if isinstance(name, str) else repr(tp)
