"""What every system's click group gains beyond its own commands: its catalogue commands
(:mod:`tablelog.cli.catalogues`) and ``--force`` on the commands that add a name. Each
system's CLI module calls :func:`extend` on its group."""

from __future__ import annotations

import click

__all__ = ["extend", "add_force_options"]

_ADDERS = {"character", "item", "unit", "master", "servant"}  # groups whose `add` makes a name


def extend(system: str, group: click.Group) -> click.Group:
    """Add ``system``'s catalogue commands and the ``--force`` options to ``group`` (once)."""
    from tablelog.cli import catalogues

    catalogues.attach(system, group)
    add_force_options(group)
    return group


def add_force_options(group: click.Group) -> None:
    """Give every ``… add`` command that creates a name (character, item, unit, master,
    servant) a ``--force`` flag: the command's ``force``, which lets a name through that
    differs from a taken one only by case (CORE-NAME, decided by
    :func:`tablelog.decision.refuse_case_twin`)."""
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
