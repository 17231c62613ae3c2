"""``pf2e rune list`` and ``pf2e base list``: the packaged rune and base item catalogues.

Source: data/pf2e_runes.csv and data/pf2e_base_items.csv (GM Core rune and item entries).
"""

from __future__ import annotations

from typing import Any

import click

from tablelog.cli.catalogues import echo_rows
from tablelog.cli.names import GlossaryChoice
from tablelog.lang import reader
from tablelog.rules.pf2e import catalogue as cat

__all__ = ["attach", "rune_json", "base_json"]


def rune_json(rune: cat.Rune) -> dict[str, Any]:
    """Return a rune as ``rune list --json`` shows it (price in gp)."""
    return {
        "id": rune.id,
        "name": rune.name,
        "form": rune.form,
        "family": rune.family,
        "tier": rune.tier,
        "item": rune.item,
        "usage": rune.usage,
        "level": rune.level,
        "price_gp": cat.gp_from_cp(rune.price_cp),
        "rarity": rune.rarity,
        "aliases": list(rune.aliases),
    }


def base_json(base: cat.BaseItem) -> dict[str, Any]:
    """Return a base item as ``base list --json`` shows it (price in gp)."""
    return {
        "id": base.id,
        "name": base.name,
        "category": base.category,
        "subtype": base.subtype or base.armor_category,
        "level": base.level,
        "price_gp": cat.gp_from_cp(base.price_cp),
        "traits": list(base.traits),
    }


_USAGES = sorted({r.usage for r in cat.runes().values()})
_CATEGORIES = sorted({b.category for b in cat.base_items().values()})


@click.group("rune")
def rune_group() -> None:
    """The rune catalogue (ids, levels, prices, usage). Example: tablelog pf2e rune list"""


@rune_group.command("list")
@click.option(
    "--usage",
    type=GlossaryChoice("pf2e.usage", _USAGES),
    help="Only runes an item of this usage takes (melee-weapon: weapon runes too).",
)
@click.option("--max-level", type=click.IntRange(0, 30), help="Only runes of this level or lower.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def rune_list(usage: str | None, max_level: int | None, as_json: bool) -> None:
    """List the runes an etch, formula or transfer can name (legacy aliases too).

    Example: tablelog pf2e rune list --usage melee-weapon --max-level 8
    """
    from tablelog.rules.pf2e.usage import usages_taken

    taken = usages_taken(usage) if usage is not None else None
    rows = [
        rune_json(r)
        for r in cat.runes().values()
        if (taken is None or r.usage in taken) and (max_level is None or r.level <= max_level)
    ]
    words = reader()
    if not as_json and words.lang != "en":  # the name a Japanese or Korean table writes
        rows = [{**row, "name": words.term("pf2e.rune", row["id"])} for row in rows]
    echo_rows(
        rows,
        {
            "id": "id",
            "name": "name",
            "level": "level",
            "price_gp": "gp",
            "form": "form",
            "usage": "usage",
            "aliases": "aliases",
        },
        as_json,
    )


@click.group("base")
def base_group() -> None:
    """The base item catalogue (`pf2e item add --base`). Example: tablelog pf2e base list"""


@base_group.command("list")
@click.option(
    "--category", type=GlossaryChoice("pf2e.category", _CATEGORIES), help="Only this category."
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def base_list(category: str | None, as_json: bool) -> None:
    """List the base items an item can be made of.

    Example: tablelog pf2e base list --category shield
    """
    rows = [
        base_json(b)
        for b in cat.base_items().values()
        if category is None or b.category == category
    ]
    echo_rows(
        rows,
        {
            "id": "id",
            "category": "category",
            "subtype": "kind",
            "level": "level",
            "price_gp": "gp",
            "traits": "traits",
        },
        as_json,
    )


def attach(group: click.Group) -> None:
    """Add ``rune`` and ``base`` to the pf2e group."""
    group.add_command(rune_group)
    group.add_command(base_group)
