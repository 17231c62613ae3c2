"""``saga`` commands that append to the log: units, techs, battles, casts, buffs, poison,
release, turns and wipes. Thin: parse options -> build a command -> execute -> print."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import click

from tablelog.cli.core import appending, parsed
from tablelog.cli.names import GlossaryChoice
from tablelog.cli.saga.calc_inputs import not_a_number
from tablelog.cli.saga.sheets import BOUNDS, build_sheet, pairs, read_sheet
from tablelog.commands.saga import (
    AddUnit,
    ApplyBuff,
    CastTech,
    DefineTech,
    EndTurn,
    PoisonUnit,
    ReleaseUnit,
    StartBattle,
    WipeParty,
)
from tablelog.commands.saga.situation import parse_situation
from tablelog.events.saga import TechDefined
from tablelog.lang import say
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga.figures import parse_number
from tablelog.rules.saga.vitals import poison_random
from tablelog.text import msg

__all__ = ["COMMANDS"]

MAX_STAT = 10**4
"""The highest tech power, LP cost or performance value a command takes (the game's are < 1000)."""
MAX_PROCESSES = 100
"""The most attack processes a session tech may have (the game's have at most a dozen)."""
_EFFECT = click.IntRange(-MAX_STAT, MAX_STAT)


def _bounded(key: str) -> click.IntRange:
    """Return the option type of a sheet key: a whole number within :data:`BOUNDS`."""
    low, high = BOUNDS[key]
    return click.IntRange(low, high)


_TARGETS = ("single", "all", "random-multi", "area-back", "self", "ally", "ally-other", "ally-all")


def _fraction(text: str | None, option: str) -> Fraction | None:
    if text is None:
        return None
    try:
        return parse_number(text)
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(not_a_number(text), param_hint=option) from None


@click.group("unit")
def unit() -> None:
    """Units: add allies and enemies (options or a JSON/TOML sheet)."""


@unit.command("add")
@click.argument("name")
@click.option("--max-hp", type=_bounded("max_hp"), help="Max HP (or max_hp in the sheet).")
@click.option("--hp", type=_bounded("hp"), help="Current HP (default: max HP).")
@click.option("--lp", type=_bounded("lp"), help="LP (allies; max LP = this).")
@click.option("--enemy", is_flag=True, help="An enemy unit.")
@click.option("--hp-floor-rate", help="Enemy HP floor as a percentage of max HP (e.g. 50).")
@click.option("--intrinsic-hp", type=_bounded("intrinsic_hp"), help="Enemy intrinsic HP (poison).")
@click.option("--battle-rank", type=_bounded("battle_rank"), help="Enemy battle rank 1-250.")
@click.option("--race", help="Race, for race slayer techs (e.g. beast).")
@click.option("--stat", multiple=True, metavar="ABILITY=N", help="str tec agi vit int con.")
@click.option("--slv", multiple=True, metavar="TYPE=N", help="Skill level by weapon type.")
@click.option("--weapon", multiple=True, metavar="TYPE=POWER", help="A weapon (twice: dual).")
@click.option("--resist", multiple=True, metavar="N|ATTR=N", help="Attribute resistance.")
@click.option("--five", multiple=True, metavar="ELEMENT=N", help="Five-element level.")
@click.option("--trait", multiple=True, metavar="KIND[/ON]=N", help="A trait, e.g. attack/slash=5.")
@click.option("--guard-rate", type=_bounded("guard_rate"), help="Weapon (enemy: own) guard rate.")
@click.option(
    "--formation-attack", type=_bounded("formation_attack"), help="Formation attack rate (%)."
)
@click.option(
    "--formation-defense", type=_bounded("formation_defense"), help="Formation defense rate (%)."
)
@click.option("--sheet", type=click.Path(dir_okay=False), help="JSON or TOML unit sheet.")
@appending
def unit_add(ctx: click.Context, name: str, sheet: str | None, **options: Any) -> object:
    """Add a unit from options and/or a sheet file (options win).

    Example: tablelog saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=12
    --weapon 1h-sword=30 --resist 20
    """
    data = read_sheet(sheet) if sheet else {}
    return AddUnit(name=name, sheet=build_sheet(data, options))


@click.group("tech")
def tech() -> None:
    """Techs the catalogue lacks (enemy-only techs) or table overrides: add."""


@tech.command("add")
@click.argument("tech_id", metavar="ID")
@click.option("--power", type=click.IntRange(0, MAX_STAT), required=True)
@click.option(
    "--attack-count",
    type=click.IntRange(0, MAX_PROCESSES),
    required=True,
    help=f"Attack processes (0 counts as 1; at most {MAX_PROCESSES}).",
)
@click.option("--random-width", type=click.IntRange(0, 100), required=True, help="% (0 means 5)")
@click.option(
    "--weapon-type", type=GlossaryChoice("saga.weapon_type", cat.WEAPON_TYPES), required=True
)
@click.option("--attribute", type=GlossaryChoice("saga.attribute", cat.ATTRIBUTES), multiple=True)
@click.option("--element", type=GlossaryChoice("saga.element", cat.ELEMENTS))
@click.option(
    "--dependent",
    type=GlossaryChoice("saga.ability", cat.ABILITIES),
    help="The actor's stat (self).",
)
@click.option(
    "--target-ability",
    type=GlossaryChoice("saga.ability", cat.ABILITIES),
    help="The target's resisting stat (default: con for int techs, else vit).",
)
@click.option("--lp-cost", type=click.IntRange(0, MAX_STAT), default=0, help="Blood tech LP cost.")
@click.option("--target-kind", type=GlossaryChoice("saga.target", _TARGETS), default="single")
@click.option("--weapon-sub", type=click.Choice(["dual-wield", "two-guns", "sword-gun"]))
@click.option(
    "--flag", multiple=True, help="ignore-defense, treated-as-spell, unguardable, slayer-RACE…"
)
@appending
def tech_add(
    ctx: click.Context, tech_id: str, dependent: str | None, target_ability: str | None, **o: Any
) -> object:
    """Define a tech for this session (an enemy-only tech, say).

    Example: tablelog saga tech add claw --power 30 --attack-count 1 --random-width 5
    --weapon-type enemy --attribute slash --dependent str
    """
    if dependent and target_ability is None:
        target_ability = "con" if dependent == "int" else "vit"
    return DefineTech(
        TechDefined(
            id=tech_id,
            power=o["power"],
            attack_count=o["attack_count"],
            random_width=o["random_width"],
            weapon_type=o["weapon_type"],
            attributes=tuple(o["attribute"]),
            element=o["element"],
            self_ability=dependent,
            target_ability=target_ability,
            weapon_sub=o["weapon_sub"],
            target=o["target_kind"],
            lp_cost=o["lp_cost"],
            flags=tuple(o["flag"]),
        )
    )


@click.group("battle")
def battle() -> None:
    """Battles: start one on a terrain element, with seasons, or neither."""


@battle.command("start")
@click.option(
    "--terrain",
    type=GlossaryChoice("saga.element", cat.ELEMENTS),
    help="The battle's element (地相).",
)
@click.option("--seasons", is_flag=True, help="The five-sided hall: seasons turn each turn.")
@appending
def battle_start(ctx: click.Context, terrain: str | None, seasons: bool) -> object:
    """Start a battle at turn 1. Example: tablelog saga battle start --seasons"""
    if terrain and seasons:
        raise click.UsageError(
            say(msg("saga.usage.terrain_or_seasons", "--terrain and --seasons exclude each other"))
        )
    return StartBattle(terrain=terrain, seasons=seasons)


@click.command("cast")
@click.argument("actor")
@click.argument("tech_id", metavar="TECH")
@click.option("--target", "targets", multiple=True, required=True, help="Target (repeatable).")
@click.option("--roll", help="Report the random factor (e.g. 0.97) instead of drawing it.")
@click.option("--rank", type=click.IntRange(1, 5), default=1, help="Catalogue tech rank.")
@click.option(
    "--situation",
    multiple=True,
    metavar="KEY=VALUE",
    help="defending guard protect=N angry combo=N outcome=evaded … (docs/saga.md)",
)
@appending
def cast(
    ctx: click.Context,
    actor: str,
    tech_id: str,
    targets: tuple[str, ...],
    roll: str | None,
    rank: int,
    situation: tuple[str, ...],
) -> object:
    """ACTOR uses TECH on its targets; every hit is logged with its breakdown.

    Example: tablelog saga cast Gustave kiri-harai --target Wolf --situation defending=yes
    """
    table = tuple(pairs(situation, "--situation", number=False))
    # an unknown key or value is a usage error (exit 2), as every system's (issue 15)
    parsed(parse_situation, table, "--situation")
    return CastTech(
        actor=actor,
        tech=tech_id,
        targets=targets,
        rank=rank,
        roll=_fraction(roll, "--roll"),
        situation=table,
    )


@click.command("poison")
@click.argument("name")
@click.option("--roll", help="Report the poison random factor (0.95..1.05).")
@click.option("--waiting", is_flag=True, help="Defending, stunned, ambushed or reserve released.")
@appending
def poison(ctx: click.Context, name: str, roll: str | None, waiting: bool) -> object:
    """NAME takes poison damage at its timeline position. Example: tablelog saga poison Wolf"""
    value = _fraction(roll, "--roll")
    if value is not None:  # outside 0.95..1.05 is a number out of range: a usage error
        parsed(lambda v: poison_random(roll=v), value, "--roll")
    return PoisonUnit(name=name, roll=value, waiting=waiting)


@click.command("release")
@click.argument("name")
@click.option("--overdrive", is_flag=True, help="In an overdrive: no release damage.")
@appending
def release(ctx: click.Context, name: str, overdrive: bool) -> object:
    """NAME uses 解き放つ and takes release damage. Example: tablelog saga release Fyodor"""
    return ReleaseUnit(name=name, overdrive=overdrive)


@click.command("buff")
@click.argument("target")
@click.option(
    "--tech-power", type=click.IntRange(0, MAX_STAT), help="Tech-power-up performance value."
)
@click.option("--attack", type=_EFFECT, help="Attack buff (+) or debuff (-).")
@click.option("--defense", type=_EFFECT, help="Defense buff or debuff.")
@click.option("--spell", type=_EFFECT, help="Spell-power buff or debuff.")
@click.option("--by", required=True, help="Who gives it.")
@click.option("--tech", "tech_id", help="The tech that gives it (decides if a debuff lands).")
@appending
def buff(
    ctx: click.Context, target: str, by: str, tech_id: str | None, **values: int | None
) -> object:
    """Give TARGET buffs/debuffs. Example: tablelog saga buff Gustave --attack 10 --by Amy"""
    return ApplyBuff(target=target, by=by, tech=tech_id, **values)


@click.command("turn")
@appending
def turn(ctx: click.Context) -> object:
    """End the battle turn (tech-power decays, seasons turn). Example: tablelog saga turn"""
    return EndTurn()


@click.command("wipe")
@appending
def wipe(ctx: click.Context) -> object:
    """The party is wiped out: LP loss and recovery, retry. Example: tablelog saga wipe"""
    return WipeParty()


COMMANDS = [unit, tech, battle, cast, poison, release, buff, turn, wipe]
