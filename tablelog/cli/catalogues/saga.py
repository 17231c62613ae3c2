"""``saga tech list`` and ``saga tech show``: the packaged tech and spell catalogue.

Source: data/saga_techs.csv and data/saga_damage_split.csv (saga-eb-damage.ja.txt, データ).
"""

from __future__ import annotations

from typing import Any

import click

from tablelog.cli.catalogues import echo_rows
from tablelog.cli.core import domain_errors
from tablelog.cli.names import GlossaryChoice
from tablelog.rules.saga import catalogue as cat

__all__ = ["attach", "tech_json"]

_RANKS = range(1, 6)


def tech_json(tech_id: str) -> dict[str, Any]:
    """Return a catalogue tech as ``tech list --json`` shows it (``power``: ranks 1-5)."""
    row = cat.tech_row(tech_id)
    first = cat.tech(row["id"])
    return {
        "id": first.id,
        "name_ja": first.name_ja,
        "category": row["category"],
        "weapon_type": first.weapon_type,
        "attributes": list(first.attributes),
        "element": first.element,
        "target": first.target,
        "power": [cat.tech(first.id, rank).power for rank in _RANKS],
        "attack_count": first.attack_count,
        "random_width": first.random_width,
        "self_ability": first.self_ability,
        "target_ability": first.target_ability,
        "lp_cost": first.lp_cost,
        "flags": list(first.flags),
    }


@click.command("list")
@click.option(
    "--weapon-type",
    type=GlossaryChoice("saga.weapon_type", cat.WEAPON_TYPES),
    help="Only this weapon type.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def tech_list(weapon_type: str | None, as_json: bool) -> None:
    """List the catalogue's techs and spells with their Japanese names (either names one).

    Example: tablelog saga tech list --weapon-type 2h-sword
    """
    rows = [tech_json(i) for i in cat.tech_ids()]
    rows = [r for r in rows if weapon_type is None or r["weapon_type"] == weapon_type]
    for row in rows:
        row["power_r1"] = row["power"][0]
    echo_rows(
        rows,
        {
            "id": "id",
            "name_ja": "名前",
            "weapon_type": "weapon type",
            "power_r1": "power",
            "attack_count": "hits",
            "attributes": "attributes",
            "element": "element",
            "lp_cost": "LP",
        },
        as_json,
    )


@click.command("show")
@click.argument("tech_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@domain_errors
def tech_show(tech_id: str, as_json: bool) -> None:
    """Show one catalogue tech: power by rank, hits, attributes, abilities, display split.

    ID is the catalogue id or the Japanese name. Example: tablelog saga tech show 強撃
    """
    import json

    data = tech_json(tech_id)
    data["split_pct"] = [str(p) for p in cat.damage_split(data["id"])]
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    click.echo(f"{data['id']} {data['name_ja']}")
    for key, value in data.items():
        if key not in ("id", "name_ja"):
            shown = " ".join(map(str, value)) if isinstance(value, list) else value
            click.echo(f"  {key}: {'-' if shown in (None, '') else shown}")


def attach(group: click.Group) -> None:
    """Add ``list`` and ``show`` to the saga group's ``tech`` group."""
    tech = group.commands.get("tech")
    if isinstance(tech, click.Group):
        tech.add_command(tech_list)
        tech.add_command(tech_show)
