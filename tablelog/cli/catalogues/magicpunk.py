"""``magicpunk material list``, ``quality list``, ``design list``: the rarity table's rows.

Each row with its id, the seed's Japanese name and the glossary's Korean one: any of the three
is accepted wherever a row is (``procure --material``).

Source: magicpunk-optional-rules.ja.txt, 希少度決定表; MP-PROC-2; the Korean names:
tablelog/rules/data/glossary/magicpunk.toml.
"""

from __future__ import annotations

import click

from tablelog.cli.catalogues import echo_rows
from tablelog.rules import glossary
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
            {
                "id": key,
                "name_ja": proc.NAMES_JA.get(key) or _name(kind, key, "ja"),
                "name_ko": _name(kind, key, "ko"),
                "rarity": value,
            }
            for key, value in table.items()
        ]
        echo_rows(
            rows, {"id": "id", "name_ja": "名前", "name_ko": "이름", "rarity": "rarity"}, as_json
        )

    list_rows.help = (
        f"{what} The id or the Japanese name is accepted.\n\n"
        f"Example: tablelog magicpunk {kind} list"
    )
    return list_rows


def _name(kind: str, key: str, lang: str) -> str:
    """The row's name in ``lang`` (the glossary's), or "" without one."""
    found = glossary.entries(f"magicpunk.{kind}").get(key, {}).get(lang)
    return found if isinstance(found, str) else ""


def attach(group: click.Group) -> None:
    """Add ``material``, ``quality`` and ``design`` groups (each with ``list``)."""
    for kind, (_, what) in _TABLES.items():
        sub = click.Group(kind, help=f"{what} Example: tablelog magicpunk {kind} list")
        sub.add_command(_list_command(kind))
        group.add_command(sub)
