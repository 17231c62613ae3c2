"""``fate master|servant|phantasm|ability add``, ``fate row``, ``fate servant rage``, grades."""

from __future__ import annotations

from functools import partial

import click

from tablelog.cli.core import appending, parsed
from tablelog.cli.fate.groups import (
    WholeNumber,
    Worded,
    ability_group,
    group,
    master_group,
    pairs,
    phantasm_group,
    servant_group,
    worded,
)
from tablelog.commands.fate import (
    AddMaster,
    AddPhantasm,
    AddServant,
    AddUniqueAbility,
    MoveRow,
    SetCharacterGrade,
    ToggleMadness,
)
from tablelog.rules.fate import (
    STORED_KIND,
    check_kind,
    check_np_words,
    grade_number,
    kind_term,
    normalize_attribute,
    parse_grade,
    parse_madness,
    typed_key,
    typed_mods,
)
from tablelog.rules.fate.phantasm import parse_np_grade
from tablelog.text import msg

__all__: list[str] = []

ROW = Worded(["front", "back"], "row")
"""front or back, or the glossary's word for one (前列, 후열 …)."""
_ANTI_MAGIC = partial(
    grade_number, rule_id="FATE-CAST-4", what=msg("fate.what.anti_magic", "anti-magic")
)
"""Anti-magic as a number or a letter; text that is neither is a usage error (issue 15 item 23).

Every word or number the game has no such thing as (a grade ``Q``, an attribute, a kind, a type,
a form, a modifier, a negative HP) is a usage error (exit 2) naming the option and the rule;
what the build or the table does not allow (a budget overspent, a grade above the type's) is
the decider's refusal (exit 1)."""


@master_group.command("add")
@click.argument("name")
@click.option("--quality", required=True, help="Circuit quality (E..EX, C+/B+/A+; or 1..5).")
@click.option("--quantity", required=True, help="Circuit quantity (E..EX, C+/B+/A+; or 1..5).")
@click.option("--crest", required=True, help="Magic crest grade (F..A; or 0..5).")
@click.option(
    "--attribute",
    "attributes",
    multiple=True,
    required=True,
    help="earth water fire wind ether hollow none (or 지 수 화 풍 공 허 무); repeat.",
)
@click.option(
    "--hp",
    type=click.IntRange(1, 10**9),
    required=True,
    help="Max HP (from the core rulebook).",
)
@click.option(
    "--mp",
    type=click.IntRange(0, 10**9),
    required=True,
    help="Max MP (from the core rulebook).",
)
@click.option(
    "--cc-budget",
    type=click.IntRange(0, 10_000),
    required=True,
    help="CC setting points: the core rulebook's base plus any bought with FP (the seed gives"
    " no number).",
)
@click.option("--none-kind", default=None, help="The one kind a 'none' master casts.")
@click.option(
    "--anti-magic",
    default="0",
    show_default=True,
    help="Anti-magic grade: a number or a letter E..A (E 1 .. A 5).",
)
@click.option("--row", type=ROW, default="front", show_default=True)
@click.option(
    "--stored",
    multiple=True,
    metavar="KIND=GRADE",
    help="A spell stored in the crest, GRADE a number or a letter E..A (repeat; total <= crest"
    " x 2).",
)
@click.option(
    "--character-grade",
    type=click.IntRange(0, 10**9),
    default=0,
    show_default=True,
    help="Character grade (earns unique-ability points).",
)
@appending
def master_add(
    ctx: click.Context,
    name: str,
    quality: str,
    quantity: str,
    crest: str,
    attributes: tuple[str, ...],
    hp: int,
    mp: int,
    cc_budget: int,
    none_kind: str | None,
    anti_magic: str,
    row: str,
    stored: tuple[str, ...],
    character_grade: int,
) -> object:
    """Add a master with a CC build.

    Example: tablelog fate master add Kiritsugu --quality B --quantity C --crest D
    --attribute fire --attribute earth --hp 40 --mp 30 --cc-budget 20
    """
    for option, text in (("--quality", quality), ("--quantity", quantity), ("--crest", crest)):
        parsed(parse_grade, text, option)
    attributes = tuple(worded(normalize_attribute, a, "--attribute") for a in attributes)
    none_kind = typed_key("kind", none_kind) if none_kind is not None else None
    kinds = [
        (
            worded(
                partial(check_kind, rule_id="FATE-CC-10", what=STORED_KIND),
                typed_key("kind", kind),
                "--stored",
            ),
            grade,
        )
        for kind, grade in pairs(stored, "--stored")
    ]
    spells = tuple(
        (
            kind,
            parsed(
                partial(
                    grade_number,
                    rule_id="FATE-CC-10",
                    what=msg(
                        "fate.what.stored_grade", "stored {kind} spell grade", kind=kind_term(kind)
                    ),
                ),
                grade,
                "--stored",
            ),
        )
        for kind, grade in kinds
    )
    return AddMaster(
        name,
        quality,
        quantity,
        crest,
        attributes,
        hp,
        mp,
        cc_budget,
        none_kind,
        parsed(_ANTI_MAGIC, anti_magic, "--anti-magic"),
        row,
        spells,
        character_grade,
    )


@master_group.command("grade", context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.argument("grade", type=WholeNumber(0))
@appending
def master_grade(ctx: click.Context, name: str, grade: int) -> object:
    """Set a master's character grade (0 or more). Example: tablelog fate master grade Rin 12"""
    return SetCharacterGrade(name, grade)


@servant_group.command("add")
@click.argument("name")
@click.option("--hp", type=click.IntRange(1, 10**9), required=True, help="Max HP.")
@click.option("--mp", type=click.IntRange(0, 10**9), required=True, help="Max MP.")
@click.option("--madness", default=None, help="Madness enhancement grade (E..A, EX).")
@click.option(
    "--np-budget",
    type=click.IntRange(0, 10_000),
    default=10,
    show_default=True,
    help="NP setting points.",
)
@click.option(
    "--anti-magic",
    default="0",
    show_default=True,
    help="Anti-magic grade: a number or a letter E..A (E 1 .. A 5).",
)
@click.option("--row", type=ROW, default="front", show_default=True)
@appending
def servant_add(
    ctx: click.Context,
    name: str,
    hp: int,
    mp: int,
    madness: str | None,
    np_budget: int,
    anti_magic: str,
    row: str,
) -> object:
    """Add a servant. Example: tablelog fate servant add Saber --hp 60 --mp 80 --np-budget 15"""
    if madness is not None:
        parsed(parse_madness, madness, "--madness")
    anti = parsed(_ANTI_MAGIC, anti_magic, "--anti-magic")
    return AddServant(name, hp, mp, np_budget, madness, anti, row)


@servant_group.command("rage")
@click.argument("name")
@click.option("--end", is_flag=True, help="Stop raging.")
@appending
def servant_rage(ctx: click.Context, name: str, end: bool) -> object:
    """Start (or --end) madness enhancement. Example: tablelog fate servant rage Berserker"""
    return ToggleMadness(name, not end)


@phantasm_group.command("add")
@click.argument("servant")
@click.argument("np_id", metavar="ID")
@click.option("--grade", required=True, help="E D C C+ B B+ B++ A A+ A++ A+++ EX.")
@click.option(
    "--type",
    "np_type",
    required=True,
    help="anti-unit anti-army anti-fortress anti-country anti-world army field.",
)
@click.option("--form", default="attack", show_default=True, help="attack or defense.")
@click.option("--release", default="true-name", show_default=True, help="true-name or always.")
@click.option(
    "--mod",
    "mods",
    multiple=True,
    metavar="KEY=VALUE",
    help="Special ability changing a number (concealment=true, piercing=true, "
    "hp-per-tile=-2, damage=none, targets=N, mp-cost=N, ignores-defense=true, "
    "reality-marble=true, upkeep-per-unit=N).",
)
@appending
def phantasm_add(
    ctx: click.Context,
    servant: str,
    np_id: str,
    grade: str,
    np_type: str,
    form: str,
    release: str,
    mods: tuple[str, ...],
) -> object:
    """Give SERVANT a Noble Phantasm.

    Example: tablelog fate phantasm add Saber excalibur --grade A++ --type anti-fortress
    """
    parsed(parse_np_grade, grade, "--grade")
    np_type = typed_key("np_type", np_type)
    form = typed_key("form", form)
    release = typed_key("release", release)
    worded(check_np_words, np_type, "--type")
    worded(partial(check_np_words, "anti-unit"), form, "--form")
    worded(partial(check_np_words, "anti-unit", "attack"), release, "--release")
    modifiers = pairs(mods, "--mod")
    parsed(typed_mods, dict(modifiers), "--mod")
    return AddPhantasm(servant, np_id, grade, np_type, form, release, modifiers)


@ability_group.command("add")
@click.argument("master")
@click.argument("ua_id", metavar="ID")
@click.option("--grade", required=True, help="Grade (no EX); a starting ability is C.")
@click.option("--type", "ua_type", required=True, help="anti-unit anti-army army field.")
@click.option("--starting", is_flag=True, help="Usable from the start: grade C, MP one grade up.")
@click.option("--mod", "mods", multiple=True, metavar="KEY=VALUE", help="As for NPs.")
@appending
def ability_add(
    ctx: click.Context,
    master: str,
    ua_id: str,
    grade: str,
    ua_type: str,
    starting: bool,
    mods: tuple[str, ...],
) -> object:
    """Give MASTER a unique ability. Example: tablelog fate ability add Rin gem --grade C
    --type anti-unit --starting"""
    parsed(parse_np_grade, grade, "--grade")
    ua_type = typed_key("np_type", ua_type)
    worded(check_np_words, ua_type, "--type")  # a type, but not a UA's (anti-world): FATE-UA-1
    modifiers = pairs(mods, "--mod")
    parsed(typed_mods, dict(modifiers), "--mod")
    return AddUniqueAbility(master, ua_id, grade, ua_type, starting, modifiers)


@group.command("row")
@click.argument("name")
@click.argument("row", type=ROW)
@appending
def row(ctx: click.Context, name: str, row: str) -> object:
    """Move NAME to the front or back row. Example: tablelog fate row Kiritsugu back"""
    return MoveRow(name, row)
