"""``tablelog pf2e …``: Pathfinder 2e runes (thin: parse options -> command -> execute)."""

from __future__ import annotations

from typing import Any

import click

from tablelog.cli.core import appending
from tablelog.commands.pf2e import (
    ActivateRune,
    AddCharacter,
    AddItem,
    EtchRune,
    FinishEtching,
    GiveItem,
    InvestItem,
    LearnFormula,
    TransferRune,
)
from tablelog.rules.pf2e import DEGREES, RANKS
from tablelog.systems.declaration import StatusView
from tablelog.text import Listed, Msg, Term, msg

__all__ = ["group", "MAX_DAYS", "STATUS"]

MAX_DAYS = 10**4
"""The most days a transfer may take: far beyond any downtime, small enough to log safely."""

group = click.Group("pf2e", help="Pathfinder 2e runes: etch, transfer and swap, invest.")
character_group = click.Group("character", help="Characters (crafters and wearers).")
formula_group = click.Group("formula", help="Rune formulas a character knows.")
item_group = click.Group("item", help="Weapons, armor, shields and runestones.")
for _sub in (character_group, formula_group, item_group):
    group.add_command(_sub)


@character_group.command("add")
@click.argument("name")
@click.option(
    "--level",
    type=click.IntRange(1, 20),
    default=1,
    show_default=True,
    help="Character level (an etcher's level must reach the rune's).",
)
@click.option(
    "--crafting",
    type=click.Choice(RANKS),
    default="expert",
    show_default=True,
    help="Crafting proficiency rank (extra transfer days save Income Earned for it).",
)
@click.option(
    "--magical-crafting/--no-magical-crafting",
    default=None,
    help="Whether the character can craft magic items (needed to etch or transfer; "
    "needs expert Crafting) [default: yes from expert Crafting on].",
)
@appending
def character_add(
    ctx: click.Context, name: str, level: int, crafting: str, magical_crafting: bool | None
) -> object:
    """Add a character. Example: tablelog pf2e character add Valeros --level 14"""
    return AddCharacter(
        name=name, level=level, crafting=crafting, magical_crafting=magical_crafting
    )


@formula_group.command("add")
@click.argument("name")
@click.argument("rune")
@click.option("--buy", is_flag=True, help="Pay the formula's price (else it is only recorded).")
@appending
def formula_add(ctx: click.Context, name: str, rune: str, buy: bool) -> object:
    """NAME knows RUNE's formula (priced as an item formula of the rune's level).

    Example: tablelog pf2e formula add Valeros flaming --buy
    """
    return LearnFormula(character=name, rune=rune, buy=buy)


@item_group.command("add")
@click.argument("item_id", metavar="ID")
@click.option("--base", required=True, help="Base item id from the catalogue (e.g. longsword).")
@click.option("--owner", default=None, help="The character holding it (default: nobody).")
@appending
def item_add(ctx: click.Context, item_id: str, base: str, owner: str | None) -> object:
    """Bring an item into play. Example: tablelog pf2e item add mace-1 --base mace --owner Kyra"""
    return AddItem(item=item_id, base=base, owner=owner)


@group.command("give")
@click.argument("item_id", metavar="ITEM")
@click.option("--to", "to", required=True, help="The character who receives it.")
@appending
def give(ctx: click.Context, item_id: str, to: str) -> object:
    """Hand ITEM over (an etcher must hold the item).

    Example: tablelog pf2e give mace-1 --to Valeros
    """
    return GiveItem(item=item_id, to=to)


@group.command("etch")
@click.argument("item_id", metavar="ITEM")
@click.argument("rune")
@click.option("--by", required=True, help="The crafter (holds ITEM, has RUNE's formula).")
@click.option("--begin", is_flag=True, help="Start a long Craft; `pf2e finish ITEM` completes it.")
@appending
def etch(ctx: click.Context, item_id: str, rune: str, by: str, begin: bool) -> object:
    """Etch RUNE (catalogue id or legacy alias such as disrupting) onto ITEM.

    A stronger tier of a rune already there upgrades it for the price difference.
    Example: tablelog pf2e etch longsword-1 flaming --by Valeros
    """
    return EtchRune(item=item_id, rune=rune, by=by, begin=begin)


@group.command("finish")
@click.argument("item_id", metavar="ITEM")
@appending
def finish(ctx: click.Context, item_id: str) -> object:
    """Complete the etch in progress on ITEM. Example: tablelog pf2e finish chain-1"""
    return FinishEtching(item=item_id)


@group.command("transfer")
@click.argument("rune")
@click.option("--from", "source", required=True, metavar="ITEM", help="Item the rune leaves.")
@click.option("--to", "target", required=True, metavar="ITEM", help="Item the rune goes to.")
@click.option("--by", required=True, help="The crafter (holds both items).")
@click.option("--swap", default=None, metavar="RUNE", help="Rune of the target that comes back.")
@click.option(
    "--days",
    type=click.IntRange(1, MAX_DAYS),
    default=1,
    show_default=True,
    help="Days spent; each day after the first lowers the cost (down to half).",
)
@click.option(
    "--outcome",
    type=click.Choice(DEGREES),
    default="success",
    show_default=True,
    help="Degree of success of the Crafting check rolled at the table.",
)
@appending
def transfer(
    ctx: click.Context,
    rune: str,
    source: str,
    target: str,
    by: str,
    swap: str | None,
    days: int,
    outcome: str,
) -> object:
    """Move RUNE from one item to another, or swap it with --swap (a tenth of the price, 1 day).

    From a runestone it is free and the stone cracks. Onto an item that cannot take the rune it
    is an automatic critical failure, logged; the rune stays.
    Example: tablelog pf2e transfer frost --from stone-1 --to longsword-1 --by Valeros
    """
    return TransferRune(
        rune=rune, source=source, target=target, by=by, swap=swap, days=days, outcome=outcome
    )


@group.command("invest")
@click.argument("item_id", metavar="ITEM")
@click.option("--by", required=True, help="The character wearing it.")
@appending
def invest(ctx: click.Context, item_id: str, by: str) -> object:
    """Invest armor with runes so they work. Example: tablelog pf2e invest clothes-1 --by Kyra"""
    return InvestItem(item=item_id, by=by)


@group.command("activate")
@click.argument("item_id", metavar="ITEM")
@click.argument("rune")
@click.option("--by", required=True, help="The character holding the item.")
@click.option("--note", default="", help="What happened (the effect is the GM's call).")
@appending
def activate(ctx: click.Context, item_id: str, rune: str, by: str, note: str) -> object:
    """Log the activation of an active RUNE on ITEM, as for any magic item.

    Example: tablelog pf2e activate longsword-1 flaming --by Valeros --note "critical burn"
    """
    return ActivateRune(item=item_id, rune=rune, by=by, note=note)


from tablelog.cli.extend import extend  # noqa: E402 - catalogues and --force join the group

extend("pf2e", group)


# -- status (``tablelog status``) ----------------------------------------------------------


def _status_line(name: str, c: dict[str, Any]) -> list[Msg | str]:
    from tablelog.cli.status import figure, term

    if "base" not in c:  # a character
        return [
            figure("pf2e", "level", c.get("level")),
            msg("pf2e.status.formulas", "{n} formulas", n=len(c.get("formulas") or [])),
            msg("pf2e.status.spent", "spent {gp} gp", gp=c.get("spent_gp")),
        ]
    parts: list[Msg | str] = [
        c.get("name", ""),
        msg(
            "pf2e.status.held_by",
            "held by {owner}",
            owner=c.get("owner") or msg("pf2e.status.nobody", "nobody"),
        ),
        figure("pf2e", "level", c.get("level")),
        msg("pf2e.status.price", "{gp} gp", gp=c.get("price_gp")),
    ]
    if c.get("dormant"):
        parts.append(
            msg(
                "pf2e.status.dormant",
                "dormant {runes}",
                runes=Listed(tuple(Term("pf2e.rune", r) for r in c["dormant"]), "space"),
            )
        )
    etching = c.get("etching")
    if etching:
        parts.append(
            msg(
                "pf2e.status.etching",
                "etching {rune} by {by}",
                rune=term("pf2e.rune", etching.get("rune")),
                by=etching.get("by"),
            )
        )
    return parts + ([msg("pf2e.status.invested", "invested")] if c.get("invested") else [])


STATUS = StatusView(line=_status_line)
