"""Babel extractors for what a person reads beyond the code's ``msg()`` templates (``babel.cfg``).

- :func:`help_texts`: the help of every command of the click tree (a command's help, short help
  and epilog, each option's help), context ``cli.help``; msgid the English text exactly as the
  command holds it (what :func:`tablelog.lang.help.translate` looks up).
- :func:`rule_texts`: the rule reference (``tablelog/rules/data/rules.toml``): each entry's
  title, text and decision, context ``rule.<ID>.<field>``.

Both are named by the ``[extractors]`` section of ``babel.cfg`` and run by ``pybabel extract``
(``make catalogues``); they import the package, so they run in its virtual environment.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import click

from tablelog.cli.help import HELP_CONTEXT

__all__ = ["help_texts", "rule_texts", "walk", "HELP_CONTEXT"]


_Extracted = tuple[int, str, tuple[str, str], list[str]]


def walk(command: click.Command, path: str = "tablelog") -> Iterator[tuple[str, click.Command]]:
    """Yield ``(command path, command)`` for ``command`` and every command below it (the CLI's
    lazy commands and every system's group imported)."""
    yield path, command
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=path.rpartition(" ")[2])
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from walk(sub, f"{path} {name}")


def help_strings(command: click.Command) -> Iterator[str]:
    """Yield every help text of one command: its help, short help and epilog, each option's."""
    for text in (command.help, command.short_help, command.epilog):
        if text:
            yield text
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            yield text


def help_texts(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[_Extracted]:
    """Babel extractor: the help texts of the whole click tree, once each (the file it is
    mapped to, ``tablelog/cli/main.py``, is only where the tree starts)."""
    from tablelog.cli.main import cli

    seen: set[str] = set()
    for path, command in walk(cli):
        for text in help_strings(command):
            if text not in seen:
                seen.add(text)
                yield 0, "pgettext", (HELP_CONTEXT, text), [path]


def rule_texts(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[_Extracted]:
    """Babel extractor: each rule entry's title, text and decision (the mapped file is
    ``tablelog/rules/data/rules.toml``)."""
    import tomllib

    entries = tomllib.loads(fileobj.read().decode("utf-8"))
    for rule_id, fields in entries.items():
        for field in ("title", "text", "decision"):
            text = fields.get(field)
            if text:
                yield 0, "pgettext", (f"rule.{rule_id}.{field}", text), [rule_id]
