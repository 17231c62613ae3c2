"""A state value as the reader reads it in a text view (``state``, ``status``, a change's old
and new value): as JSON writes it in English, through the glossary in Japanese and Korean
(:mod:`tablelog.texts.values`)."""

from __future__ import annotations

from typing import Any

from tablelog.lang import Words

__all__ = ["value_text", "fmt_value"]


def fmt_value(value: Any) -> str:
    """Format a state value for text output (JSON-like, compact)."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if type(value) is int:  # as JSON writes it, without importing json for the commonest value
        return str(value)
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def value_text(system: str | None, field: str, value: Any, words: Words) -> str:
    """Return ``value`` of the state field ``field`` as ``words``' reader reads it.

    Args:
        system: The log's system (its glossary and sheet), None: core's words only.
        field: The field's JSON key (the last part of its path: ``levels``, ``incapacitated``).
        value: The value as the state JSON holds it.
        words: The reader.
    """
    if words.lang == "en":
        return fmt_value(value)
    from tablelog.texts.values import readable

    return words(readable(system, field, value))
