"""Procurement (調達判定): the rarity table, the check it calls for, and Ma-GEAR readiness.

Prices are in Mj (integer); rarity and challenge values are integers.
"""

from __future__ import annotations

import attrs

from tablelog.rules import glossary
from tablelog.rules.core import Unknown, require
from tablelog.text import Listed, Term, msg

__all__ = [
    "MATERIALS",
    "QUALITIES",
    "DESIGNS",
    "NAMES_JA",
    "TABLES",
    "Rarity",
    "rarity",
    "procurement_time_dice",
    "gear_active",
    "resolve_row",
    "row_value",
    "row_words",
]

MATERIALS: dict[str, int] = {
    "steel": 0,
    "hardwood": 0,
    "synthetic-fibre": 0,
    "beast-hide": 0,
    "alloy": 1,
    "heavy-black-iron": 1,
    "magic-wood": 1,
    "magic-beast-hide": 1,
    "synthetic-resin": 1,
    "reinforced-crystal": 1,
    "magic-silver-thread": 2,
    "magic-shell": 2,
    "mana-silver": 3,
}
"""Material part -> rarity (MP-PROC-2). Names are the seed's, in English, hyphenated."""

QUALITIES: dict[str, int] = {"poor": -1, "standard": 0, "fine": 1, "masterwork": 3, "legendary": 5}
DESIGNS: dict[str, int] = {"none": 0, "signed": 1, "beautiful": 1, "gorgeous": 2}
NAMES_JA: dict[str, str] = {
    "steel": "鋼",
    "hardwood": "堅木",
    "synthetic-fibre": "合成繊維",
    "beast-hide": "獣革",
    "alloy": "合金",
    "heavy-black-iron": "重黒鉄",
    "magic-wood": "魔樹木",
    "magic-beast-hide": "魔獣革",
    "synthetic-resin": "合成樹脂",
    "reinforced-crystal": "強化結晶",
    "magic-silver-thread": "魔銀糸",
    "magic-shell": "魔殻",
    "mana-silver": "魔煌銀",
    "poor": "粗悪",
    "standard": "標準",
    "fine": "上質",
    "masterwork": "傑作",
    "legendary": "伝説",
    "signed": "銘",
    "beautiful": "美麗",
    "gorgeous": "絢爛",
}
"""Row id -> the seed's Japanese name (希少度決定表); design ``none`` has none in the seed."""
GEAR_PRICE_PER_RARITY = 500
VEHICLE_PRICE_PER_RARITY = 2000


@attrs.frozen
class Rarity:
    """A procurement assessment: ``total`` rarity, per-row ``breakdown``, the check, and the
    ``rows`` chosen in the material, quality and design tables (their ids)."""

    total: int
    breakdown: dict[str, int]
    rows: dict[str, str] = attrs.Factory(dict)

    @property
    def check_needed(self) -> bool:
        """A check happens when the rarity is 1 or more (MP-PROC-2)."""
        return self.total >= 1

    @property
    def challenge(self) -> int:
        """The challenge value the check gains: the rarity, or 0 when there is no check."""
        return self.total if self.check_needed else 0


TABLES: dict[str, dict[str, int]] = {"material": MATERIALS, "quality": QUALITIES, "design": DESIGNS}
"""What each table of the rarity table is -> its rows (the glossary's ``magicpunk.<what>``)."""


def resolve_row(table: dict[str, int], key: str, what: str | None = None) -> str:
    """Return the row id that ``key`` names in ``table``: the id itself or its name in any
    language (the seed's Japanese, the glossary's Korean and English; compared in NFKC and
    without case, so ``ＳＴＥＥＬ`` is ``steel``).

    ``resolve_row(MATERIALS, "魔殻")`` and ``resolve_row(MATERIALS, "마각")`` ->
    ``"magic-shell"``; an unknown key comes back as given.

    Args:
        what: Which table (``material``, ``quality``, ``design``); None: the one ``table`` is.

    Source: magicpunk-optional-rules.ja.txt, 希少度決定表; the glossary
    (tablelog/rules/data/glossary/magicpunk.toml) for the Korean names.
    """
    if key in table:
        return key
    kinds = [what] if what is not None else [w for w, rows in TABLES.items() if rows is table]
    for kind in kinds:
        found = glossary.key_of(f"magicpunk.{kind}", key)
        if found is not None and found in table:
            return found
    by_ja = {NAMES_JA[row]: row for row in table if row in NAMES_JA}
    return by_ja.get(key.strip(), key)


def row_words(what: str) -> list[str]:
    """Return every word a row of table ``what`` goes by (its ids, then its names in every
    language): the words "did you mean" suggests from (the declaration's ``vocabulary``)."""
    return list(dict.fromkeys([*TABLES[what], *glossary.words_of(f"magicpunk.{what}")]))


_ROWS = {
    "material": msg("magicpunk.proc.material", "material"),
    "quality": msg("magicpunk.proc.quality", "quality"),
    "design": msg("magicpunk.proc.design", "design"),
}
"""What a row of each table is, for the message (the table's word: ``material``, …)."""


def row_value(table: dict[str, int], key: str, what: str) -> int:
    """Return the rarity a row of ``table`` adds (``key``: its id or its name in any language).

    Args:
        what: Which table: ``material``, ``quality`` or ``design`` (its rows are the terms
            ``magicpunk.<what>``).

    Raises:
        RuleViolation: MP-PROC-2 naming ``what`` and the rows for a key the table lacks (its
            ``unknown`` is the word given, of kind ``what``: "did you mean" suggests rows).

    Source: magicpunk-optional-rules.ja.txt, 希少度決定表; MP-PROC-2.
    """
    key = resolve_row(table, key, what if what in TABLES else None)
    require(
        key in table,
        "MP-PROC-2",
        msg(
            "magicpunk.proc.unknown_row",
            "unknown {what} {key!r} (one of {rows})",
            what=_ROWS.get(what, what),
            key=key,
            rows=Listed(tuple(Term(f"magicpunk.{what}", row) for row in table), "comma"),
        ),
        Unknown(what, key),
    )
    return table[key]


def rarity(
    material: str,
    quality: str,
    design: str = "none",
    gear_price: int = 0,
    vehicle_price: int = 0,
    gm: int = 0,
) -> Rarity:
    """Return the rarity of an item from the rarity table.

    Args:
        material: Material part (a key of :data:`MATERIALS`, or its name in any language; so
            are quality and design).
        quality: poor, standard, fine, masterwork or legendary.
        design: none, signed, beautiful or gorgeous.
        gear_price: Total price of the Ma-GEAR parts in Mj (0 if none).
        vehicle_price: Price of the vehicle in Mj (0 if not a vehicle).
        gm: The GM's situational modifier (±n).

    Returns:
        The sum of every row that applies; divisions round down.

    Raises:
        RuleViolation: MP-PROC-2 for an unknown row or a negative price.

    Source: magicpunk-optional-rules.ja.txt, 希少度決定表; MP-PROC-2.
    """
    require(
        gear_price >= 0 and vehicle_price >= 0,
        "MP-PROC-2",
        msg(
            "magicpunk.proc.negative_price",
            "prices are 0 Mj or more, got Ma-GEAR parts {gear} Mj and vehicle {vehicle} Mj",
            gear=gear_price,
            vehicle=vehicle_price,
        ),
    )
    values = {
        "material": row_value(MATERIALS, material, "material"),
        "quality": row_value(QUALITIES, quality, "quality"),
        "design": row_value(DESIGNS, design, "design"),
        "ma-gear": gear_price // GEAR_PRICE_PER_RARITY,
        "vehicle": vehicle_price // VEHICLE_PRICE_PER_RARITY,
        "gm": gm,
    }
    chosen = {
        what: resolve_row(TABLES[what], key, what)
        for what, key in (("material", material), ("quality", quality), ("design", design))
    }
    return Rarity(sum(values.values()), values, chosen)


def procurement_time_dice(extra_time: bool) -> int:
    """Return the dice a procurement check gains from time: 1 automatically, 2 at most.

    Args:
        extra_time: The PC takes more time than the minimum minute.

    Source: magicpunk-optional-rules.ja.txt, 調達判定; MP-PROC-1.
    """
    return 2 if extra_time else 1


def gear_active(slots_needed: int, slots_free: int) -> bool:
    """Return whether a readied Ma-GEAR item has its Ma-GEAR effect.

    The item may always be readied; without enough free magic slots it has only the base
    item's effect.

    Raises:
        RuleViolation: MP-GEAR-1 if a slot count is negative.

    Source: magicpunk-optional-rules.ja.txt, Ma-GEAR; MP-GEAR-1.
    """
    require(
        slots_needed >= 0 and slots_free >= 0,
        "MP-GEAR-1",
        msg(
            "magicpunk.gear.negative_slots",
            "magic slots are 0 or more, got {needed} needed and {free} free",
            needed=slots_needed,
            free=slots_free,
        ),
    )
    return slots_free >= slots_needed
