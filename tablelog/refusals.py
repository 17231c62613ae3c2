"""A rule's refusal as every face shows it: the rule ID, the message as data, suggestions.

:meth:`Refused.of` takes a :class:`~tablelog.rules.core.RuleViolation` and the state it was
decided on and adds what a reader can do next: "did you mean" names for an UNKNOWN-NAME (the
table's characters and items, the rule IDs, and each system's own catalogues: its
declaration's ``vocabulary``), or what the system's ``suggest`` adds (magicpunk: the cards the
holder has, MP-CARDS). The CLI renders it as one line (``RULE-ID: message; did you mean X?``),
the API as ``{"code": "rule", "rule", "message", "params", "suggestions"}``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

import attrs

from tablelog import systems
from tablelog.projections.core import seats
from tablelog.rules.core import RuleViolation
from tablelog.text import Listed, Msg, Secret, msg

__all__ = ["Refused", "closest", "candidates"]


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


def candidates(kind: str, state: Any) -> list[str]:
    """Return the words an unknown word of ``kind`` may have meant.

    Args:
        kind: What was not found (:class:`~tablelog.rules.core.Unknown`'s ``kind``).
        state: The state the command was decided on, or None (no log open).

    Returns:
        The rule IDs for ``"rule id"``; the table's seats for ``"seat"``; a system's catalogue
        for a kind its declaration's ``vocabulary`` names (its own or, with no log, every
        system's); else the table's characters and items.
    """
    if kind == "rule id":
        from tablelog.rules import reference

        return list(reference.entries())
    if kind == "seat":
        return [] if state is None else list(seats(state))
    names = [state.system] if state is not None else systems.names()
    for name in names:
        try:
            vocabulary = systems.get(name).vocabulary
        except systems.SystemUnavailable:
            continue
        if kind in vocabulary:
            return list(vocabulary[kind](state))
    if kind in ("field", "actor") or state is None:
        return []
    return [*state.characters, *state.items]


@attrs.frozen
class Refused:
    """A refusal with what it suggests.

    Attributes:
        rule_id: The rule ID.
        message: The message as data.
        suggestions: "Did you mean" candidates, or what the refusal points to (a holder's
            cards, each a :class:`~tablelog.text.Secret` seen by the holder's seats).
        hint: The words that follow the message (``; did you mean Ezren?``), or None.
    """

    rule_id: str
    message: Msg
    suggestions: tuple[Any, ...] = ()
    hint: Msg | None = None

    @classmethod
    def of(cls, exc: RuleViolation, state: Any) -> Refused:
        """Return ``exc`` with its suggestions on ``state`` (None: no log open)."""
        if exc.unknown is not None:
            found = closest(exc.unknown.name, candidates(exc.unknown.kind, state))
            if not found:
                return cls(exc.rule_id, exc.msg)
            hint = msg(
                "core.hint.did_you_mean",
                "; did you mean {names}?",
                names=Listed(tuple(found), "or"),
            )
            return cls(exc.rule_id, exc.msg, tuple(found), hint)
        if state is not None:
            try:
                suggest = systems.get(state.system).suggest
            except systems.SystemUnavailable:
                suggest = None
            made = suggest(exc, state) if suggest is not None else None
            if made is not None:
                return cls(exc.rule_id, exc.msg, made[0], made[1])
        return cls(exc.rule_id, exc.msg)

    def sentence(self, where: Msg | str = "") -> Msg:
        """Return ``RULE-ID: message`` (with ``WHERE: `` before the message when given, and the
        hint after it) as one sentence."""
        return msg(
            "core.refusal",
            "{rule}: {where}{message}{hint}",
            rule=self.rule_id,
            where=msg("core.refusal.where", "{where}: ", where=where) if where else "",
            message=self.message,
            hint=self.hint or "",
        )

    def shown_suggestions(self, sees: Any = None) -> list[Any]:
        """Return the suggestions as a reader may read them: a secret one left out unless
        ``sees(its seen_by)`` (None: all)."""
        out = []
        for item in self.suggestions:
            if isinstance(item, Secret):
                if sees is None or sees(item.seen_by):
                    out.append(item.value)
                continue
            out.append(item)
        return out
