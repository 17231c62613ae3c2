"""Names that look alike: "did you mean" for an unknown name, and the ``--force`` guard against
adding a name that differs from an existing one only by case.

Both work where refusals are rendered and commands are executed (:mod:`tablelog.cli.core`), so
every system's commands get them without their deciders knowing.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable
from typing import Any

import click

from tablelog.rules.core import RuleViolation

__all__ = ["hint", "closest", "add_force_options", "refuse_case_twin"]

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_BARE = re.compile(r"\bnamed (\S+?)[.,;:)]*(?:\s|$)")
_NOT_HELD = re.compile(r"^(\S+) is not held by (.+?) \(it is ")
_ADDERS = {"character", "item", "unit", "master", "servant"}  # groups whose `add` makes a name
_NAME_FIELDS = ("name", "item")


def closest(word: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """Return up to ``limit`` candidates that look like ``word``, the likeliest first.

    Case-insensitive: same letters first, then names ``word`` begins, then close spellings
    (:func:`difflib.get_close_matches`, ratio 0.6 or more).
    """
    by_fold: dict[str, list[str]] = {}
    for candidate in dict.fromkeys(candidates):
        by_fold.setdefault(candidate.casefold(), []).append(candidate)
    key = word.casefold()
    folds = [key] if key in by_fold else []
    if len(key) >= 2:
        folds += sorted(f for f in by_fold if f.startswith(key) and f != key)
    folds += difflib.get_close_matches(key, list(by_fold), limit, 0.6)
    found = [c for f in dict.fromkeys(folds) for c in by_fold[f]]
    return list(dict.fromkeys(c for c in found if c != word))[:limit]


def hint(exc: RuleViolation) -> str:
    """Return what to append to a refusal's message: ``"; did you mean Ezren?"``, or ``""``.

    Only UNKNOWN-NAME refusals and cards not held (MP-CARDS) get one. The candidates are the
    open session's characters and items (never opened for this), the catalogues' runes, base
    items and techs (ids and Japanese names), and the rule IDs.
    """
    if exc.rule_id == "MP-CARDS":
        return _held_hint(exc.message)
    if exc.rule_id != "UNKNOWN-NAME":
        return ""
    word, before = _unknown_word(exc.message)
    if word is None:
        return ""
    found = closest(word, _candidates(before.lower()))
    if not found:
        return ""
    shown = found[0] if len(found) == 1 else f"{', '.join(found[:-1])} or {found[-1]}"
    return f"; did you mean {shown}?"


def _unknown_word(message: str) -> tuple[str | None, str]:
    """Return the unknown value a message names (quoted, or after ``named``) and the text
    before it (which says what kind of thing it is)."""
    quoted = _QUOTED.search(message)
    if quoted is not None:
        try:
            return str(ast.literal_eval(quoted.group())), message[: quoted.start()]
        except (ValueError, SyntaxError):
            return None, ""
    bare = _BARE.search(message)
    return (bare.group(1), message[: bare.start(1)]) if bare else (None, "")


def _candidates(kind: str) -> list[str]:
    if "field" in kind or "actor" in kind:  # the message lists them itself
        return []
    if "rule id" in kind:
        from tablelog.rules import reference

        return list(reference.entries())
    if "base item" in kind:
        from tablelog.rules.pf2e import catalogue

        return list(catalogue.base_items())
    if "rune" in kind:
        from tablelog.rules.pf2e import catalogue

        return [name for r in catalogue.runes().values() for name in (r.id, *r.aliases)]
    if "tech" in kind:
        return _techs()
    state = _open_state()
    return [] if state is None else [*state.characters, *state.items]


def _techs() -> list[str]:
    from tablelog.rules.saga import catalogue

    state = _open_state()
    session_techs = list(state.extra.get("techs", {})) if state is not None else []
    ids = catalogue.tech_ids()
    return [*session_techs, *ids, *(catalogue.tech(i).name_ja for i in ids)]


def _held_hint(message: str) -> str:
    match = _NOT_HELD.match(message)
    state = _open_state()
    if match is None or state is None:
        return ""
    holder = match.group(2)
    record = state.entity(holder) or {}
    cards = record.get("hand", record.get("cards"))
    if cards is None:
        return ""
    return f"; {holder} holds {' '.join(cards)}" if cards else f"; {holder} holds no cards"


def _open_state() -> Any:
    """Return the state of the session this command already opened, or None (never opens one:
    a catalogue command has no log)."""
    from tablelog.cli.core import Env

    ctx = click.get_current_context(silent=True)
    env = ctx.find_object(Env) if ctx is not None else None
    session = getattr(env, "_session", None)
    if session is None:
        return None
    try:
        return session.state()
    except Exception:  # noqa: BLE001 - a hint never hides the refusal it decorates
        return None


def add_force_options(group: click.Group) -> None:
    """Give every ``… add`` command that creates a name (character, item, unit, master,
    servant) a ``--force`` flag that lets a case twin of an existing name through."""
    for name, sub in group.commands.items():
        add = sub.commands.get("add") if isinstance(sub, click.Group) else None
        if name in _ADDERS and add is not None and "force" not in {p.name for p in add.params}:
            add.params.append(
                click.Option(
                    ["--force"],
                    is_flag=True,
                    expose_value=False,
                    callback=_remember_force,
                    help="Add the name even though one differing only by case exists.",
                )
            )


def _remember_force(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta["tablelog.force"] = value
    return value


def refuse_case_twin(ctx: click.Context, session: Any, command: object) -> None:
    """Refuse an ``Add…`` command whose new name differs from a taken one only by case.

    Raises:
        RuleViolation: CORE-NAME naming both, unless the command line gave ``--force``.
    """
    if ctx.meta.get("tablelog.force") or not type(command).__name__.startswith("Add"):
        return
    new = next((getattr(command, f) for f in _NAME_FIELDS if hasattr(command, f)), None)
    if not isinstance(new, str):
        return
    from tablelog.projections.retirement import retired

    state = session.state()
    for taken in (*state.characters, *state.items, *retired(state)):
        if taken != new and taken.casefold() == new.casefold():
            raise RuleViolation(
                "CORE-NAME",
                f"{new!r} differs from {taken!r} only by case: "
                f"use {taken!r}, or give --force to add {new!r} as well",
            )
