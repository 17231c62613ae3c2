"""Growth and downtime commands: reward, spells, rebuild, procure, roll, cohabit, leisure."""

from __future__ import annotations

from functools import partial

import click

from tablelog.cli.core import appending, parsed
from tablelog.cli.magicpunk.options import (
    COUNT,
    MONEY,
    SIGNED,
    STAT,
    NumericArgs,
    key_values,
    names,
    numbers,
    skill_ranks,
    suggesting,
)
from tablelog.commands.magicpunk import (
    GainMoney,
    LearnSpell,
    Procure,
    Rebuild,
    RollCheck,
    ShareResidence,
    StartLeisure,
    TakeLeisureEvent,
)
from tablelog.lang import say
from tablelog.rules.magicpunk.checks import parse_notation
from tablelog.rules.magicpunk.procurement import DESIGNS, MATERIALS, QUALITIES, row_value
from tablelog.rules.magicpunk.rebuild import ability_key
from tablelog.text import msg

__all__ = ["COMMANDS"]

spell_group = click.Group("spell", help="Spells learned with money (refunded by a rebuild).")
leisure_group = click.Group("leisure", help="Leisure rolls for cohabitants (MP-COHAB-2).")


@click.command("reward", cls=NumericArgs)
@click.argument("name")
@click.argument("amount", type=MONEY)
@click.option("--spell-only", is_flag=True, help="Money usable only to learn spells.")
@appending
def reward(ctx: click.Context, name: str, amount: int, spell_only: bool) -> object:
    """NAME gains AMOUNT Mj in a scenario (B of the rebuild refund).

    Example: tablelog magicpunk reward Aria 1500
    """
    return GainMoney(name=name, amount=amount, spell_only=spell_only)


@spell_group.command("learn")
@click.argument("name")
@click.argument("spell")
@click.option("--gate", required=True)
@click.option("--tier", type=COUNT, required=True)
@click.option("--price", type=MONEY, required=True, help="Mj; spell-only money pays first.")
@click.option("--free", is_flag=True, help="Learned free (still refunded by a rebuild).")
@appending
def spell_learn(
    ctx: click.Context, name: str, spell: str, gate: str, tier: int, price: int, free: bool
) -> object:
    """NAME learns SPELL; each gate from tier 1 upwards (MP-REBUILD-11).

    Example: tablelog magicpunk spell learn Aria spark --gate fire --tier 1 --price 500
    """
    return LearnSpell(name=name, spell=spell, gate=gate, tier=tier, price=price, free=free)


@click.command("rebuild")
@click.argument("name")
@click.option("--body", type=STAT)
@click.option("--sense", type=STAT)
@click.option("--intellect", type=STAT)
@click.option("--magic", type=STAT)
@click.option(
    "--skill",
    "skills",
    multiple=True,
    metavar="NAME=RANK",
    help="Re-learned skills, exactly the acquisitions available (repeatable).",
)
@click.option("--to-money", type=STAT, default=0, help="Ability points above 40 -> 1,000 Mj each.")
@click.option("--to-skills", type=STAT, default=0, help="Ability points above 40 -> acquisitions.")
@click.option(
    "--to-abilities", type=STAT, default=0, help="Acquisitions above 5 -> ability points."
)
@click.option(
    "--skills-to-money", type=STAT, default=0, help="Acquisitions above 5 -> 1,000 Mj each."
)
@click.option("--items", is_flag=True, help="Remove every item; refund A + B - C.")
@click.option("--spells", is_flag=True, help="Unlearn every spell; refund what was spent.")
@click.option(
    "--immature",
    "immature",
    multiple=True,
    metavar="ABILITY=MIN",
    help="The immature-ability option: a lower minimum (repeatable).",
)
@appending
def rebuild(
    ctx: click.Context,
    name: str,
    body: int | None,
    sense: int | None,
    intellect: int | None,
    magic: int | None,
    skills: tuple[str, ...],
    to_money: int,
    to_skills: int,
    to_abilities: int,
    skills_to_money: int,
    items: bool,
    spells: bool,
    immature: tuple[str, ...],
) -> object:
    """Rebuild NAME (MP-REBUILD-1..12); conversions are the GM's explicit permission.

    Example: tablelog magicpunk rebuild Bram --body 12 --sense 12 --intellect 10 --magic 6
    --skill swordplay=novice --skill first-aid=novice --skill stealth=novice
    """
    given = {
        k: v
        for k, v in dict(body=body, sense=sense, intellect=intellect, magic=magic).items()
        if v is not None
    }
    return Rebuild(
        name=name,
        abilities=given or None,
        skills=skill_ranks(skills) or None,
        to_skills=to_skills,
        to_money=to_money,
        to_abilities=to_abilities,
        skills_to_money=skills_to_money,
        items=items,
        spells=spells,
        minimums=_minimums(immature),
    )


def _minimums(pairs: tuple[str, ...]) -> dict[str, int]:
    """Parse ``--immature ABILITY=MIN``: the ability by its id or its name in any language
    (``body=2``, ``身体=2``, ``신체=2``); one ability named twice is a usage error."""
    found: dict[str, int] = {}
    for key, value in key_values(pairs, "--immature", as_int=True).items():
        ability = ability_key(key)
        if ability in found:
            raise click.BadParameter(
                say(
                    msg(
                        "magicpunk.option.key_twice",
                        "{key} is given twice: give each once",
                        key=ability,
                    )
                ),
                param_hint="--immature",
            )
        found[ability] = value
    return found


@click.command("procure")
@click.argument("name")
@click.option("--material", required=True, help="e.g. steel, alloy, magic-shell, mana-silver.")
@click.option("--quality", required=True, help="poor, standard, fine, masterwork, legendary.")
@click.option("--design", default="none", help="none, signed, beautiful, gorgeous.")
@click.option("--gear-price", type=MONEY, default=0, help="Total Ma-GEAR parts price (Mj).")
@click.option("--vehicle-price", type=MONEY, default=0, help="Vehicle price (Mj).")
@click.option("--gm", type=SIGNED, default=0, help="The GM's situational modifier (±n).")
@click.option("--extra-time", is_flag=True, help="More time taken: +2 dice instead of +1.")
@click.option("--item", "item", default="", help="What is being procured.")
@appending
def procure(
    ctx: click.Context,
    name: str,
    material: str,
    quality: str,
    design: str,
    gear_price: int,
    vehicle_price: int,
    gm: int,
    extra_time: bool,
    item: str,
) -> object:
    """Assess procuring an item: rarity, whether an Intellect check is needed, its challenge.

    Example: tablelog magicpunk procure Aria --material alloy --quality fine --design signed
    """
    for option, table, text in (
        ("--material", MATERIALS, material),
        ("--quality", QUALITIES, quality),
        ("--design", DESIGNS, design),
    ):  # a row the table lacks is a usage error (exit 2), as every unknown word, with the
        # closest rows in any language (did you mean)
        suggesting(partial(row_value, table, what=option[2:]), text, option)
    return Procure(
        who=name,
        material=material,
        quality=quality,
        design=design,
        gear_price=gear_price,
        vehicle_price=vehicle_price,
        gm=gm,
        extra_time=extra_time,
        item=item,
    )


@click.command("roll")
@click.argument("notation")
@click.option("--dice", "dice_text", metavar="D,D…", help="The d20 results rolled at the table.")
@click.option("--by", metavar="NAME", help="Who rolls.")
@appending
def roll(ctx: click.Context, notation: str, dice_text: str | None, by: str | None) -> object:
    """Roll a check: nMPm or nMPmCx (n d20, success on a die <= m and >= x); as the dice bots
    read it, n may be left out (MP15: one die). With --json, the roll's dice, kept dice,
    success, jackpot, bad beat and achieved value are the event's ``data``.

    Example: tablelog magicpunk roll 3MP10C4 --by Aria
    """
    parsed(parse_notation, notation, "NOTATION")  # malformed: a usage error (exit 2)
    return RollCheck(notation=notation, dice=numbers(dice_text, "--dice"), by=by)


@click.command("cohabit")
@click.argument("names_", metavar="NAME…", nargs=-1, required=True)
@click.option("--region", required=True)
@click.option("--residence", required=True)
@click.option("--residence-points", type=MONEY, required=True, help="Living points of it.")
@click.option("--region-points", type=MONEY, default=0, help="Living points each PC pays.")
@click.option("--split", metavar="N,N…", help="An uneven split all agree to.")
@appending
def cohabit(
    ctx: click.Context,
    names_: tuple[str, ...],
    region: str,
    residence: str,
    residence_points: int,
    region_points: int,
    split: str | None,
) -> object:
    """Two or more PCs share a residence (MP-COHAB-1).

    Example: tablelog magicpunk cohabit Aria Bram --region markt --residence apartment
    --residence-points 5
    """
    return ShareResidence(
        names=tuple(n for arg in names_ for n in names(arg, "NAME…") or ()),
        region=region,
        residence=residence,
        residence_points=residence_points,
        region_points=region_points,
        split=numbers(split, "--split", MONEY),
    )


@leisure_group.command("start")
@appending
def leisure_start(ctx: click.Context) -> object:
    """Start a leisure: each shared event may occur once.

    Example: tablelog magicpunk leisure start
    """
    return StartLeisure()


@leisure_group.command("roll", cls=NumericArgs)
@click.argument("name")
@click.argument("roll_value", metavar="ROLL", type=COUNT)
@click.option("--safety", type=SIGNED, default=0, help="The region's safety value.")
@click.option(
    "--table",
    "table",
    type=click.Choice(["town", "wilds"]),
    default="town",
    show_default=True,
    help="Which shared-event table: in town, or in the wilds.",
)
@appending
def leisure_roll(ctx: click.Context, name: str, roll_value: int, safety: int, table: str) -> object:
    """NAME's leisure roll; a shared event already taken moves (MP-COHAB-2).

    Example: tablelog magicpunk leisure roll Bram 7 --safety 2
    """
    return TakeLeisureEvent(name=name, roll=roll_value, safety=safety, table=table)


COMMANDS = (reward, spell_group, rebuild, procure, roll, cohabit, leisure_group)
