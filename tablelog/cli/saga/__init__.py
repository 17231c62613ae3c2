"""The ``saga`` click group: the damage calculator and SaGa battles in the log."""

from __future__ import annotations

import click

from tablelog.cli.saga.battle import COMMANDS
from tablelog.cli.saga.calc import calc

__all__ = ["group"]

group = click.Group("saga", help="SaGa Emerald Beyond battle damage: calc, units, techs, battles.")
group.add_command(calc)
for _command in COMMANDS:
    group.add_command(_command)

from tablelog.cli.extend import extend  # noqa: E402 - catalogues and --force join the group

extend("saga", group)
