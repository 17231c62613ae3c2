"""What every system's click group gains beyond its own commands: its catalogue commands
(:mod:`tablelog.cli.catalogues`) and ``--force`` on the commands that add a name
(:mod:`tablelog.cli.similar`). Each system's CLI module calls :func:`extend` on its group."""

from __future__ import annotations

import click

__all__ = ["extend"]


def extend(system: str, group: click.Group) -> click.Group:
    """Add ``system``'s catalogue commands and the ``--force`` options to ``group`` (once)."""
    from tablelog.cli import catalogues, similar

    catalogues.attach(system, group)
    similar.add_force_options(group)
    return group
