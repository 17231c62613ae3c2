"""Pathfinder 2e runes, declared: the one value the core reads (docs/pf2e.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelog.commands import pf2e as commands
from tablelog.projections import pf2e as projection
from tablelog.projections.pf2e.entities import Character, Item
from tablelog.systems.declaration import Headline, System, handlers, lazy, lazy_group
from tablelog.text import msg

__all__ = ["SYSTEM"]

SYSTEM = System(
    name="pf2e",
    title="Pathfinder 2e",
    description="Pathfinder 2e runes: etch, transfer, invest",
    handlers=handlers(
        "tablelog.events.pf2e", "tablelog.projections.pf2e", "tablelog.commands.pf2e"
    ),
    init_state=projection.init_state,
    group=lazy_group("tablelog.cli.pf2e"),
    status=lazy("tablelog.cli.pf2e", "STATUS"),
    data_files=("pf2e_base_items.csv", "pf2e_runes.csv"),
    code=("tablelog.events.pf2e", "tablelog.projections.pf2e", "tablelog.rules.pf2e"),
    acts_for={
        commands.EtchRune: "by",
        commands.TransferRune: "by",
        commands.InvestItem: "by",
        commands.LearnFormula: "character",
        commands.ActivateRune: "by",
    },
    headlines=(
        Headline(msg("pf2e.headline.runes_etched", "runes etched"), "events", ("pf2e.RuneEtched",)),
        Headline(
            msg("pf2e.headline.runes_moved", "runes moved"), "events", ("pf2e.RuneTransferred",)
        ),
        Headline(msg("pf2e.headline.gp_spent", "gp spent"), "gained", (), "spent_gp"),
    ),
    records=(Character, Item),
    texts="tablelog.texts.pf2e",
    sheet=lazy("tablelog.texts.pf2e", "SHEET"),
    adds={commands.AddCharacter: "name", commands.AddItem: "item"},
    vocabulary={"rune": lambda state: _rune_words(), "base item": lambda state: _base_words()},
    shown={"name": lambda value, record: _name(value, record)},
)


def _rune_words() -> list[str]:
    """Every rune id, legacy alias and glossary word (English, Japanese, Korean)."""
    from tablelog.rules import glossary
    from tablelog.rules.pf2e import catalogue

    ids = [name for r in catalogue.runes().values() for name in (r.id, *r.aliases)]
    return list(dict.fromkeys([*ids, *glossary.words_of("pf2e.rune")]))


def _base_words() -> list[str]:
    """Every base item id, English name and glossary word (English, Japanese, Korean)."""
    from tablelog.rules import glossary
    from tablelog.rules.pf2e import catalogue

    words = [*glossary.words_of("pf2e.base_item"), *glossary.words_of("pf2e.base_item_name")]
    return list(dict.fromkeys([*catalogue.base_items(), *words]))


def _name(value: Any, record: Mapping[str, Any] | None) -> Any:
    """An item's name as the text views show it: each language's own (PF2E-RUNE-3), from the
    record's runes and base item when the view has the record, else read back from the name
    (a change's old and new value)."""
    from tablelog.rules.pf2e import names

    if record is None:
        return names.text_name(value)
    return names.record_name({**record, "name": value})
