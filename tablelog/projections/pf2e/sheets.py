"""Items as the events record them: rune lists after an etch or a transfer, and assigning sheets.

:func:`assign` applies an event's :class:`ItemSheet` to an item record. :func:`legacy_refresh` is
the one place a pf2e evolver reads today's catalogues: the *legacy path* for records written
before the events recorded their sheets (v1, upcast with ``sheet`` None; docs/pf2e.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from tablelog.events.pf2e import ItemSheet
from tablelog.projections.pf2e.entities import Item
from tablelog.rules import pf2e as rules
from tablelog.rules.pf2e.runesets import without_one

__all__ = ["etched_runes", "moved_runes", "assign", "sheet_of", "legacy_refresh", "legacy_item"]


def etched_runes(ids: Sequence[str], rune: str, replaces: str | None) -> list[str]:
    """Return an item's rune ids after etching ``rune`` (replacing ``replaces``), etch order.

    The etched rune (an upgrade too) becomes the most recently etched (PF2E-XFER-5 decision).

    >>> etched_runes(["weapon-potency-1", "striking"], "weapon-potency-2", "weapon-potency-1")
    ['striking', 'weapon-potency-2']
    """
    return [*without_one(ids, replaces), rune]


def moved_runes(
    source: Sequence[str], target: Sequence[str], rune: str, swap: str | None
) -> tuple[list[str], list[str]]:
    """Return (source, target) rune ids after moving ``rune`` across and ``swap`` back.

    Each arriving rune becomes the most recently etched on its new item (PF2E-XFER-5).

    >>> moved_runes(["frost"], ["weapon-potency-1"], "frost", None)
    ([], ['weapon-potency-1', 'frost'])
    """
    back = [swap] if swap is not None else []
    return [*without_one(source, rune), *back], [*without_one(target, swap), rune]


def assign(record: Item, sheet: ItemSheet) -> None:
    """Set an item record's runes and derived fields to what ``sheet`` records.

    An item without the invested trait is not invested; shields also get hardness, HP and BT.
    """
    record.update(
        {
            "runes": list(sheet.runes),
            "name": sheet.name,
            "level": sheet.level,
            "price_gp": rules.gp_from_cp(sheet.price_cp),
            "potency": sheet.potency,
            "striking": sheet.striking,
            "resilient": sheet.resilient,
            "reinforcing": sheet.reinforcing,
            "property": list(sheet.property),
            "dormant": list(sheet.dormant),
            "rarity": sheet.rarity,
            "invested_trait": sheet.invested_trait,
        }
    )
    if not sheet.invested_trait:
        record["invested"] = False
    if sheet.hardness is not None:
        record.update({"hardness": sheet.hardness, "hp_max": sheet.hp_max, "bt": sheet.bt})


def sheet_of(base: rules.BaseItem, ids: Sequence[str]) -> ItemSheet:
    """Return the sheet of an item of ``base`` with runes ``ids`` under today's rules.

    Deciders record it in their events; the legacy path uses it for v1 records.
    """
    facts = rules.item_facts(base, ids)
    return ItemSheet(
        runes=tuple(ids),
        name=facts.name,
        level=facts.level,
        price_cp=facts.price_cp,
        potency=facts.potency,
        striking=facts.striking,
        resilient=facts.resilient,
        reinforcing=facts.reinforcing,
        property=facts.property,
        dormant=facts.dormant,
        rarity=facts.rarity,
        invested_trait=facts.invested_trait,
        hardness=facts.hardness,
        hp_max=facts.hp_max,
        bt=facts.bt,
    )


def legacy_refresh(record: Item, ids: Sequence[str]) -> None:
    """Legacy path (v1 records only): set the item's runes to ``ids`` and derive the rest from
    today's catalogues, as the evolvers did before the events recorded their sheets.

    Total: when today's catalogues no longer know the base item or a rune, only the runes are
    set and the derived fields keep their values.
    """
    base = rules.base_items().get(record["base"])
    if base is None or any(i not in rules.runes() for i in ids):
        record["runes"] = list(ids)
        return
    assign(record, sheet_of(base, ids))


def legacy_item(record: Item) -> None:
    """Legacy path (v1 ItemAdded only): the new item's category and derived fields from today's
    base item catalogue (nothing when it no longer knows the base item)."""
    base = rules.base_items().get(record["base"])
    if base is not None:
        record["category"] = base.category
        assign(record, sheet_of(base, ()))
