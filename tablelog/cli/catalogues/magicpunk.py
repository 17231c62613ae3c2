"""``magicpunk material list``, ``quality list``, ``design list``: the rarity table's rows.

Source: magicpunk-optional-rules.ja.txt, 希少度決定表; MP-PROC-2.
"""

from __future__ import annotations

import click

from tablelog.cli.catalogues import echo_rows
from tablelog.rules.magicpunk import procurement as proc

__all__ = ["attach"]

_TABLES = {
    "material": (proc.MATERIALS, "Material parts and their rarity (`procure --material`)."),
    "quality": (proc.QUALITIES, "Qualities and their rarity (`procure --quality`)."),
    "design": (proc.DESIGNS, "Designs and their rarity (`procure --design`)."),
}


def _list_command(kind: str) -> click.Command:
    table, what = _TABLES[kind]

    @click.command("list")
    @click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
    def list_rows(as_json: bool) -> None:
        rows = [
            {"id": key, "name_ja": proc.NAMES_JA.get(key, ""), "rarity": value}
            for key, value in table.items()
        ]
        echo_rows(rows, {"id": "id", "name_ja": "名前", "rarity": "rarity"}, as_json)

    list_rows.help = (
        f"{what} The id or the Japanese name is accepted.\n\n"
        f"Example: tablelog magicpunk {kind} list"
    )
    return list_rows


def attach(group: click.Group) -> None:
    """Add ``material``, ``quality`` and ``design`` groups (each with ``list``)."""
    for kind, (_, what) in _TABLES.items():
        sub = click.Group(kind, help=f"{what} Example: tablelog magicpunk {kind} list")
        sub.add_command(_list_command(kind))
        group.add_command(sub)
