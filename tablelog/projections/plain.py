"""Evolvers over plain data: the replay's hot path folds checked data dicts, not attrs events.

Every evolver is written, typed and checked by mypy as ``evolve(state, event)`` over an attrs
event. Building that event costs a replay more than the evolver itself (an object and a slot per
field, ≈40 % of the fold beside decoding), so the fold uses a second form of the same function:
the evolver's own source, recompiled with each ``event.field`` read as ``event["field"]``, given
the record's data once the codec has checked that it holds exactly the event's fields, each of
exactly its type (:func:`tablelog.events.codec.fast_check`). Tracebacks keep the source's file
and line numbers.

The rewrite is made only when it cannot change a result: the event parameter must be used for
nothing but reading its fields (no method, no passing it on, no assignment, no nested parameter
of the same name) and the function must have no closure. Any other evolver keeps the typed
path; ``tests/unit/projections/test_plain.py`` folds every example session both ways and
compares, and ``tests/property/test_core.py`` random histories.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["plain_evolver"]

_PLAIN: dict[tuple[type, Callable[..., None]], Callable[..., None] | None] = {}


def plain_evolver(cls: type, fn: Callable[..., None]) -> Callable[..., None] | None:
    """Return ``fn`` (an evolver of ``cls`` events) recompiled to take the event's data dict,
    or None when it cannot be (then the fold builds the typed event). Cached per pair.

    Args:
        cls: The attrs event class ``fn`` is registered for.
        fn: ``fn(state, event) -> None``.

    Returns:
        ``g(state, data) -> None`` doing what ``fn(state, cls(**data))`` does, or None.
    """
    key = (cls, fn)
    if key not in _PLAIN:
        _PLAIN[key] = _compile(cls, fn)
    return _PLAIN[key]


def _compile(cls: type, fn: Callable[..., None]) -> Callable[..., None] | None:
    tree = _definition(fn)
    if tree is None or fn.__closure__ or not attrs.has(cls):
        return None
    params = tree.args.posonlyargs + tree.args.args
    if len(params) < 2:
        return None
    name = params[1].arg
    if not _rewrite(tree, name, {f.name for f in attrs.fields(cls)}):
        return None
    tree.decorator_list = []
    module = ast.fix_missing_locations(ast.Module(body=[tree], type_ignores=[]))
    ast.increment_lineno(module, fn.__code__.co_firstlineno - 1)
    code = compile(module, fn.__code__.co_filename, "exec")
    body = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    made = types.FunctionType(body, fn.__globals__, fn.__name__, fn.__defaults__)
    made.__kwdefaults__ = fn.__kwdefaults__
    made.__qualname__ = f"{fn.__qualname__}[plain]"
    return made


def _definition(fn: Callable[..., None]) -> ast.FunctionDef | None:
    """Return the parsed ``def`` of ``fn`` (lines numbered from 1), or None (no source, a
    lambda, a wrapped function)."""
    if hasattr(fn, "__wrapped__") or not isinstance(fn, types.FunctionType):
        return None
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return None
    found = tree.body[0] if len(tree.body) == 1 else None
    return found if isinstance(found, ast.FunctionDef) and found.name == fn.__name__ else None


def _rewrite(tree: ast.FunctionDef, name: str, fields: set[str]) -> bool:
    """Turn every ``name.field`` read in ``tree`` into ``name["field"]``; False (and ``tree``
    unusable) when ``name`` is used any other way or rebound by a nested parameter."""
    reads = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute)
             and isinstance(node.value, ast.Name) and node.value.id == name]
    if not all(node.attr in fields and isinstance(node.ctx, ast.Load) for node in reads):
        return False
    inner = {id(node.value) for node in reads}
    uses = [node for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == name]
    nested = [a for a in ast.walk(tree) if isinstance(a, ast.arg) and a.arg == name]
    if any(id(node) not in inner for node in uses) or len(nested) != 1:
        return False
    _Reads(name).visit(tree)
    return True


class _Reads(ast.NodeTransformer):
    """Replace ``name.field`` (a read) with ``name["field"]``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def visit_Attribute(self, node: ast.Attribute) -> Any:  # noqa: N802 - ast's visitor name
        if isinstance(node.value, ast.Name) and node.value.id == self.name:
            return ast.copy_location(
                ast.Subscript(value=node.value, slice=ast.Constant(node.attr), ctx=ast.Load()),
                node)
        return self.generic_visit(node)
