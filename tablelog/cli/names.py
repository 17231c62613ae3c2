"""Option values given by name in any of the three languages (issue 27, item 2).

A :class:`GlossaryChoice` is a :class:`click.Choice` of ids (what the log records) that also
takes the glossary's word for one of them in English, Japanese or Korean
(:func:`tablelog.rules.glossary.key_of`): ``--weapon-type 両手剣`` and ``--weapon-type 양손검``
are ``--weapon-type 2h-sword``. The value the command receives is always the id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from tablelog.rules import glossary

__all__ = ["GlossaryChoice"]


class GlossaryChoice(click.Choice):  # type: ignore[type-arg]
    """A choice of ids that also takes each id's glossary word in any language.

    Args:
        kind: The glossary's kind of term, ``"<system>.<table>"`` (``"saga.weapon_type"``).
        choices: The ids the option takes.
    """

    def __init__(self, kind: str, choices: Sequence[str]) -> None:
        super().__init__(list(choices))
        self.kind = kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Return the id ``value`` names (an id, or a glossary word of one); else click's
        usage error for a value that is not one of the choices."""
        if isinstance(value, str) and value not in self.choices:
            key = glossary.key_of(self.kind, value)
            if key is not None and key in self.choices:
                value = key
        return super().convert(value, param, ctx)
