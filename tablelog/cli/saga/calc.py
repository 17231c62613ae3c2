"""``tablelog saga calc``: the attack damage calculator, usable without a session.

It only parses options, calls the pure rules (:mod:`tablelog.rules.saga`) and prints.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from tablelog.cli.columns import display_width
from tablelog.cli.core import echo, error_line
from tablelog.cli.names import GlossaryChoice
from tablelog.cli.saga.calc_inputs import MAX_STAT, compute, parse_resistances
from tablelog.lang import say
from tablelog.rules.core import RuleViolation
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga import damage as dmg
from tablelog.rules.saga.text import processes, tech, term
from tablelog.text import Msg, msg

__all__ = ["calc", "parse_resistances", "render_lines", "render_text"]

_TYPES = GlossaryChoice("saga.weapon_type", [t for t in cat.WEAPON_TYPES if t != "support-mech"])


def render_lines(result: dict[str, Any]) -> list[Msg | str]:
    """Return the calculator's text output as sentences: the tech and its processes, each
    factor of the breakdown (its name a ``saga.breakdown`` term, padded to the widest name as
    the terminal shows it: a Japanese or Korean character takes two columns), the
    displayed power, the split and the damage per process."""
    lines: list[Msg | str] = [
        msg(
            "saga.calc.tech",
            "tech {tech}: {processes}",
            tech=tech(result["tech"]),
            processes=processes(result["processes"]),
        )
    ]
    if result["damage"] is None:
        reason = term("no_damage", result["no_damage"])
        return [
            *lines,
            msg("saga.calc.no_damage", "no attack damage: {reason} (SAGA-ATK-1)", reason=reason),
        ]
    names = {k: say(_factor(k)) for k in result["breakdown"]}
    width = max(display_width(name) for name in names.values())  # 基礎威力 takes 8 columns
    lines += [
        f"  {names[k]}{' ' * (width - display_width(names[k]))}  {v}"
        for k, v in result["breakdown"].items()
    ]
    lines.append(
        msg("saga.calc.displayed", "displayed power: {power}", power=result["displayed_power"])
    )
    if len(result["split"]) > 1:
        parts = " + ".join(map(str, result["split"]))
        lines.append(msg("saga.calc.split", "shown split: {parts}", parts=parts))
    lines.append(
        msg(
            "saga.calc.damage",
            "damage per process: {damage} at roll {roll} (min {min}, max {max})",
            damage=result["damage"],
            roll=result["roll"],
            min=result["min"],
            max=result["max"],
        )
    )
    return lines


def _factor(key: str) -> Msg:
    """A breakdown row's name (a ``saga.breakdown`` term), rendered before the rows are padded
    to the longest name as the reader reads it."""
    return msg("saga.calc.factor", "{factor}", factor=term("breakdown", key))


def render_text(result: dict[str, Any]) -> str:
    """Return the calculator's text output in the reader's words: the breakdown, then the
    damage per process."""
    return "\n".join(say(line) for line in render_lines(result))


_SIGNED = click.IntRange(-MAX_STAT, MAX_STAT)
_STAT = click.IntRange(0, MAX_STAT)
_INT = {"type": _SIGNED, "default": 0, "show_default": True}


#: The calculator's options, in --help order: (name, click.option keyword arguments).
_SPECS: list[tuple[str, dict[str, Any]]] = [
    (
        "--rank",
        {
            "type": click.IntRange(1, 5),
            "default": 1,
            "help": "catalogue rank 1-5 (picks its power)",
        },
    ),
    ("--power", {"type": _STAT, "help": "tech power (overrides the catalogue)"}),
    (
        "--attack-count",
        {"type": click.IntRange(0, 100), "help": "attack processes (0 counts as 1)"},
    ),
    (
        "--random-width",
        {"type": click.IntRange(0, 100), "help": "random width in % (0 means 5)"},
    ),
    ("--weapon-type", {"type": _TYPES}),
    ("--attribute", {"type": GlossaryChoice("saga.attribute", cat.ATTRIBUTES), "multiple": True}),
    ("--element", {"type": GlossaryChoice("saga.element", cat.ELEMENTS)}),
    ("--ignore-defense", {"is_flag": True}),
    ("--as-spell", {"is_flag": True, "help": "treated as spell"}),
    (
        "--weapon-power",
        {"multiple": True, "help": "weapon power; twice = dual weapons (floored average)"},
    ),
    ("--slv", {"multiple": True, "help": "skill level; twice = sword×gun (average)"}),
    ("--enemy", {"is_flag": True, "help": "the actor is an enemy"}),
    (
        "--battle-rank",
        {"type": click.IntRange(1, 250), "help": "enemy battle rank: weapon power and SLv"},
    ),
    ("--self-stat", {"type": _STAT, "help": "actor's dependent stat"}),
    ("--resist", {"multiple": True, "help": "target resistance: N (all) or ATTR=N"}),
    ("--target-stat", {"type": _STAT, "help": "target's dependent stat (vit or con)"}),
    ("--five-self", _INT),
    ("--five-battle", _INT),
    ("--five-target", _INT),
    ("--tech-power-effect", _INT),
    ("--attack-effect", _INT),
    ("--defense-effect", _INT),
    ("--spell-effect", _INT),
    ("--target-tech-power-up", {"is_flag": True}),
    ("--tech-power-trait", _INT),
    ("--anger", {"is_flag": True}),
    ("--anger-trait", _INT),
    ("--defending", {"is_flag": True}),
    ("--defense-resist-trait", _INT),
    ("--guard-rate", {"type": _SIGNED, "help": "a guard triggers with this rate"}),
    ("--protect", {"type": _STAT, "help": "a protect tech with this power guards"}),
    ("--earth-shield", {"is_flag": True}),
    ("--slayer", {"is_flag": True}),
    ("--formation-attack", _INT),
    ("--formation-defense", _INT),
    ("--attack-trait", _INT),
    ("--defense-trait", _INT),
    ("--instant-death-class", {"is_flag": True}),
    ("--combo-rate", {"type": _STAT, "help": "combo rate just before the tech"}),
    (
        "--outcome",
        {"type": GlossaryChoice("saga.no_damage", dmg.NO_DAMAGE_REASONS), "multiple": True},
    ),
    ("--roll", {"help": "the random correction, e.g. 0.97 (within the tech's width)"}),
    ("--json", {"is_flag": True, "help": "print JSON"}),
]


def _options(fn: Callable[..., None]) -> Callable[..., None]:
    for name, kwargs in reversed(_SPECS):
        fn = click.option(name, **kwargs)(fn)
    return fn


@click.command("calc")
@click.argument("tech_id", metavar="[TECH]", required=False)
@_options
def calc(tech_id: str | None, **options: object) -> None:
    """Compute a tech's attack damage per process, with every factor (no session needed).

    TECH is a catalogue id; without it give --power and --weapon-type. Without --roll the
    damage at roll 1 is printed with the minimum and the maximum.

    Example: tablelog saga calc kiri-harai --weapon-power 30 --slv 10 --self-stat 40
    --resist 20 --target-stat 30
    """
    if options["guard_rate"] is not None and options["protect"] is not None:
        raise click.UsageError(
            say(msg("saga.calc.guard_or_protect", "--guard-rate and --protect exclude each other"))
        )
    try:
        result = compute(tech_id, options)
    except RuleViolation as exc:
        echo(error_line(f"{exc.rule_id}: {say(exc.msg)}"), err=True)
        sys.exit(1)
    if options["json"]:
        click.echo(json.dumps(result, ensure_ascii=False, sort_keys=False))
    else:
        click.echo(render_text(result))
