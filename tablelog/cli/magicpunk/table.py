"""Table commands: characters, items, damage and healing, cover and rounds, briefing."""

from __future__ import annotations

import click

from tablelog.cli.core import appending
from tablelog.cli.magicpunk.options import HP, MONEY, STAT, NumericArgs, skill_ranks
from tablelog.commands.magicpunk import (
    Act,
    AddCharacter,
    AddItem,
    Damage,
    EndBriefing,
    Heal,
    NewRound,
    Prepare,
    ReadyItem,
    StartBriefing,
)
from tablelog.rules.magicpunk.combat import BRIEFING_PACKAGES

__all__ = ["COMMANDS"]

character_group = click.Group("character", help="Add characters.")
item_group = click.Group("item", help="Add and ready items (A-batteries, Ma-GEAR).")
briefing_group = click.Group("briefing", help="Briefing packages (MP-BRIEF-1).")


@character_group.command("add")
@click.argument("name")
@click.option("--body", type=STAT, required=True)
@click.option("--sense", type=STAT, required=True)
@click.option("--intellect", type=STAT, required=True)
@click.option("--magic", type=STAT, required=True)
@click.option("--hp", type=HP, required=True, help="Max HP (from the core rules).")
@click.option(
    "--skill",
    "skills",
    multiple=True,
    metavar="NAME=RANK",
    help="A skill and its rank: novice, expert or master (repeatable).",
)
@click.option("--money", type=MONEY, default=0, help="Money at creation, in Mj.")
@appending
def character_add(
    ctx: click.Context,
    name: str,
    body: int,
    sense: int,
    intellect: int,
    magic: int,
    hp: int,
    skills: tuple[str, ...],
    money: int,
) -> object:
    """Add a character with abilities, max HP, skills and money at creation.

    Example: tablelog magicpunk character add Bram --body 14 --sense 10 --intellect 8 --magic 8
    --hp 34 --money 2500 --skill swordplay=expert
    """
    return AddCharacter(
        name=name,
        body=body,
        sense=sense,
        intellect=intellect,
        magic=magic,
        hp=hp,
        skills=skill_ranks(skills),
        money=money,
    )


@item_group.command("add")
@click.argument("item_id")
@click.option("--owner", required=True, metavar="NAME")
@click.option("--price", type=MONEY, default=0, help="Mj paid from the owner's money.")
@click.option("--gear-slots", type=STAT, default=None, help="Ma-GEAR magic-slot occupancy.")
@appending
def item_add(
    ctx: click.Context, item_id: str, owner: str, price: int, gear_slots: int | None
) -> object:
    """Add an item held by OWNER (it can hold cards, e.g. an A-battery).

    Example: tablelog magicpunk item add a-battery --owner Aria
    """
    return AddItem(item=item_id, owner=owner, price=price, gear_slots=gear_slots)


@item_group.command("ready")
@click.argument("item_id")
@click.option("--free-slots", type=STAT, default=0, help="Magic slots free for it.")
@appending
def item_ready(ctx: click.Context, item_id: str, free_slots: int) -> object:
    """Ready an item; without enough magic slots it has no Ma-GEAR effect (MP-GEAR-1).

    Example: tablelog magicpunk item ready arc-pistol --free-slots 1
    """
    return ReadyItem(item=item_id, slots_free=free_slots)


@click.command("damage", cls=NumericArgs)
@click.argument("name")
@click.argument("amount", type=HP)
@click.option("--pull-punches", is_flag=True, help="HP does not go below 0 (MP-PULL-1).")
@click.option("--cover-by", metavar="NAME", help="NAME covers and takes it (MP-COVER-1).")
@appending
def damage(
    ctx: click.Context, name: str, amount: int, pull_punches: bool, cover_by: str | None
) -> object:
    """NAME takes AMOUNT damage; HP may go below 0 unless punches are pulled.

    Example: tablelog magicpunk damage Bram 40 --pull-punches
    """
    return Damage(target=name, amount=amount, pull_punches=pull_punches, cover_by=cover_by)


@click.command("heal", cls=NumericArgs)
@click.argument("name")
@click.argument("amount", type=HP)
@appending
def heal(ctx: click.Context, name: str, amount: int) -> object:
    """NAME heals AMOUNT HP (never above max HP).

    Example: tablelog magicpunk heal Bram 12
    """
    return Heal(target=name, amount=amount)


@click.command("act")
@click.argument("name")
@appending
def act(ctx: click.Context, name: str) -> object:
    """NAME starts its turn this round (becomes acted).

    Example: tablelog magicpunk act Aria
    """
    return Act(name=name)


@click.command("round")
@appending
def round_(ctx: click.Context) -> object:
    """Start the next round: everyone not-acted, except coverers who had already acted.

    Example: tablelog magicpunk round
    """
    return NewRound()


@briefing_group.command("start")
@click.argument("package", type=click.Choice(list(BRIEFING_PACKAGES)))
@appending
def briefing_start(ctx: click.Context, package: str) -> object:
    """Start a briefing: 10s (one preparation each), 1m (6 each), ample (any number).

    Example: tablelog magicpunk briefing start 1m
    """
    return StartBriefing(package=package)


@briefing_group.command("prepare")
@click.argument("name")
@click.option("--enemy", is_flag=True, help="An aware enemy prepares (same limits, own count).")
@click.option("--note", default="", help="What the preparation is.")
@appending
def briefing_prepare(ctx: click.Context, name: str, enemy: bool, note: str) -> object:
    """NAME takes one preparation; one over the package's limit is refused.

    Example: tablelog magicpunk briefing prepare Aria --note "charge the A-battery"
    """
    return Prepare(who=name, enemy=enemy, note=note)


@briefing_group.command("end")
@appending
def briefing_end(ctx: click.Context) -> object:
    """End the briefing.

    Example: tablelog magicpunk briefing end
    """
    return EndBriefing()


COMMANDS = (character_group, item_group, damage, heal, act, round_, briefing_group)
