"""The ``tablelog magicpunk`` command group (thin: options -> command -> session -> output)."""

from __future__ import annotations

import click

from tablelog.cli.magicpunk import cards, growth, table

__all__ = ["group"]

group = click.Group(
    "magicpunk",
    help="Magic Punk TRPG optional rules: mana cards, rests with sleep and dawn circulation, "
    "cover, pulling punches, rebuild, procurement, briefing, cohabitation, nMPm checks.",
)

for _module in (table, cards, growth):
    for _command in _module.COMMANDS:
        group.add_command(_command)

from tablelog.cli.extend import extend  # noqa: E402 - catalogues and --force join the group

extend("magicpunk", group)
