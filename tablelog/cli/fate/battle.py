"""``fate battle start|end``, ``turn``, ``round``, ``cast``, ``chant``, ``release``, ``use``,
``damage``, ``morning``, ``rest``, ``dismiss``."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import click

from tablelog.cli.core import appending, parsed
from tablelog.cli.fate.groups import Worded, battle_group, group, worded
from tablelog.commands.fate import (
    Cast,
    Chant,
    Dismiss,
    EndBattle,
    Morning,
    Release,
    Rest,
    StartBattle,
    StartRound,
    StartTurn,
    TakeDamage,
    UseAbility,
)
from tablelog.commands.fate.abilities import ABILITIES
from tablelog.rules.fate import EX_POWER, check_kind, grade_number, kind_term, typed_key
from tablelog.text import Msg, msg

__all__: list[str] = []


def _grade(rule_id: str, what: Msg) -> Callable[[str], int]:
    """Return a parser of a grade typed as a number or a letter (EX 7), refusing with rule_id."""
    return partial(grade_number, rule_id=rule_id, what=what, ex=EX_POWER)


@battle_group.command("start")
@appending
def battle_start(ctx: click.Context) -> object:
    """Start a battle: round 1, turn 1, tile pools refill. Example: tablelog fate battle start"""
    return StartBattle()


@battle_group.command("end")
@appending
def battle_end(ctx: click.Context) -> object:
    """End the battle: effects, chants, fields and armies end. Example: tablelog fate battle end"""
    return EndBattle()


@group.command("turn")
@appending
def turn(ctx: click.Context) -> object:
    """Start the next turn (effects tick, fields pay upkeep). Example: tablelog fate turn"""
    return StartTurn()


@group.command("round")
@appending
def round_(ctx: click.Context) -> object:
    """Start the next round at turn 1 (fields, armies pay upkeep). Example: tablelog fate round"""
    return StartRound()


@group.command("cast")
@click.argument("name")
@click.argument("kind")
@click.option(
    "--grade",
    required=True,
    help="Grade: 1..the caster's power for KIND, as a number or a letter (E 1 .. A 5, EX 7).",
)
@click.option(
    "--tiles",
    type=click.IntRange(1, 10_000),
    required=True,
    help="Tiles taken from the pool.",
)
@click.option("--target", "targets", multiple=True, help="Target (repeat; tiles dealt in turn).")
@click.option("--crest", is_flag=True, help="Cast a spell stored in the magic crest (+1 HP).")
@click.option("--injury", is_flag=True, help="Inflict (or cure, or grant) injury instead.")
@appending
def cast(
    ctx: click.Context,
    name: str,
    kind: str,
    grade: str,
    tiles: int,
    targets: tuple[str, ...],
    crest: bool,
    injury: bool,
) -> object:
    """NAME casts KIND (attack defense heal buff curse).

    Example: tablelog fate cast Tokiomi attack --grade 4 --tiles 2 --target Kiritsugu
    """
    kind = worded(check_kind, typed_key("kind", kind), "KIND")
    what = msg("fate.what.kind_grade", "{kind} grade", kind=kind_term(kind))
    number = parsed(_grade("FATE-CAST-2", what), grade, "--grade")
    return Cast(name, kind, number, tiles, targets, crest, injury)


@group.command("chant")
@click.argument("name")
@appending
def chant(ctx: click.Context, name: str) -> object:
    """NAME chants: the next cast's tiles double. Example: tablelog fate chant Tokiomi"""
    return Chant(name)


@group.command("release")
@click.argument("owner", metavar="SERVANT")
@click.argument("np_id", metavar="ID")
@click.option("--target", "targets", multiple=True, help="Target (repeat); allies for an EX field.")
@click.option("--use-plus", is_flag=True, help="Use a + (fields: half growth; armies: x2 units).")
@click.option("--spread", is_flag=True, help="Defensive NP: one tile a turn over 5 turns.")
@click.option(
    "--units",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Familiars to summon (an NP with familiar-mp).",
)
@appending
def release(
    ctx: click.Context,
    owner: str,
    np_id: str,
    targets: tuple[str, ...],
    use_plus: bool,
    spread: bool,
    units: int | None,
) -> object:
    """Release a Noble Phantasm (or a master's unique ability).

    Example: tablelog fate release Saber excalibur --target Rider --target Lancer
    """
    return Release(owner, np_id, targets, use_plus, spread, units)


@group.command("use")
@click.argument("owner")
@click.argument("np_id", metavar="ID")
@click.argument("ability", type=Worded(ABILITIES, "ability"))
@click.option(
    "--times",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Shots in one judgment (up to the NP's shots).",
)
@click.option("--target", "targets", multiple=True, help="The charge's target.")
@appending
def use(
    ctx: click.Context, owner: str, np_id: str, ability: str, times: int, targets: tuple[str, ...]
) -> object:
    """Use an NP's ability on its own: shoot (a judgment made critical:attack, field up) or
    charge (NP tiles at a target, once per release).

    Example: tablelog fate use Archer gob shoot --times 2
    """
    return UseAbility(owner, np_id, ability, times, targets)


@group.command("damage")
@click.argument("name")
@click.option("--hp", type=click.IntRange(0, 10**9), default=0, help="HP damage.")
@click.option("--mp", type=click.IntRange(0, 10**9), default=0, help="MP damage.")
@click.option("--injury", type=click.IntRange(0, 10_000), default=0, help="Magical injury grades.")
@click.option(
    "--rank",
    default=None,
    help="The attack's rank (E..A, EX, or 1..5), for an NP that ignores attacks.",
)
@appending
def damage(
    ctx: click.Context, name: str, hp: int, mp: int, injury: int, rank: str | None
) -> object:
    """Damage from outside the tool, as one hit through NAME's defenses.

    Example: tablelog fate damage Kiritsugu --hp 6
    """
    what = msg("fate.what.rank", "rank")
    number = None if rank is None else parsed(_grade("FATE-NP-15", what), rank, "--rank")
    return TakeDamage(name, hp, mp, injury, number)


@group.command("morning")
@appending
def morning(ctx: click.Context) -> object:
    """Morning: each master's crest heals its grade in HP. Example: tablelog fate morning"""
    return Morning()


@group.command("rest")
@appending
def rest(ctx: click.Context) -> object:
    """Rest outside battle: tile pools refill. Example: tablelog fate rest"""
    return Rest()


@group.command("dismiss")
@click.argument("owner")
@click.argument("np_id", metavar="ID")
@appending
def dismiss(ctx: click.Context, owner: str, np_id: str) -> object:
    """End OWNER's bounded field or army ID. Example: tablelog fate dismiss Archer ubw"""
    return Dismiss(owner, np_id)
