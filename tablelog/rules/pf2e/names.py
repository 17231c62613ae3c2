"""A runed item's name in each language: its parts, and the name as each language writes them.

An item's name is made of parts (PF2E-RUNE-3): its potency value, the runes it names (its other
fundamental rune, then its active property runes in etch order; a runestone: the rune it holds)
and its base item. English joins the catalogue's names with spaces (``+1 striking flaming
longsword``, :func:`~tablelog.rules.pf2e.items.item_name`): that is the name the events record
and ``state --json`` shows. Japanese and Korean are made from the same parts, with the
glossary's words (``tablelog/rules/data/glossary/pf2e.toml``):

- Japanese follows the seed: the potency as ``＋N`` (fullwidth plus) before the first word, the
  words joined with ``・`` (``＋1ロングソード``, ``＋2グレーター・リジリアント・ファイアー・
  レジスタント・チェイン・メイル``, ``＋1ストライキング・メイス``);
- Korean follows the Korean Foundry VTT PF2e translation's generated names (``+{potency}
  {fundamental2} {property1} … {base}``, space-separated, ASCII plus): ``+1 롱소드``,
  ``+2 상급 저항성 내화성 체인 메일``.

A name is shown as a :class:`~tablelog.text.Shown` value (kind ``"pf2e.item_name"``, its
formatter registered by :mod:`tablelog.texts.pf2e`) whose English is the recorded name, so
English stays exactly as recorded. A language shows the recorded name whenever the parts
cannot be made out or a word is missing from its glossary.

Source: pf2e-runes.ja.txt, ルーン (ルーンがあるアイテムは通常、そのポテンシィ・ルーンの値、
他の基本ルーンと性質ルーンの名前の順に書かれ、基本アイテムの名前が最後につく);
MiddleTierBots/FVTT-PF2E-Korean-Translation-Beta ko.json, ``PF2E.Item.Physical.GeneratedName.*``;
docs/pf2e.md (Names in Japanese and Korean).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from tablelog.rules import glossary
from tablelog.rules.pf2e.catalogue import POTENCY_FAMILIES, BaseItem, base_items, runes
from tablelog.rules.pf2e.items import potency, split_property
from tablelog.text import Shown

__all__ = [
    "KIND",
    "NameParts",
    "name_parts",
    "english_name",
    "parse_name",
    "shown_name",
    "record_name",
    "text_name",
    "localized",
]

KIND = "pf2e.item_name"
"""The :class:`~tablelog.text.Shown` kind of an item's generated name."""

_SECONDARY = {"weapon": "striking", "armor": "resilient", "shield": "reinforcing"}


class NameParts(NamedTuple):
    """What an item's name is made of.

    Attributes:
        potency: The potency value (0: none, no ``+N``).
        runes: The rune ids the name lists, in order (the other fundamental rune, then the
            active property runes in etch order; a runestone: the runes it holds).
        base: The base item id.
    """

    potency: int
    runes: tuple[str, ...]
    base: str


def name_parts(base: BaseItem, ids: Sequence[str]) -> NameParts:
    """Return the parts of the name of ``base`` with the runes ``ids`` (etch order).

    Dormant runes are not named; a runestone is named after the rune it holds.

    Source: pf2e-runes.ja.txt, ルーン (名前の順); PF2E-RUNE-3.
    """
    catalogue = runes()
    held = [catalogue[i] for i in ids]
    if base.category == "runestone":
        return NameParts(0, tuple(r.id for r in held), base.id)
    secondary = _SECONDARY.get(base.category)
    named = [r.id for r in held if r.family == secondary]
    active, _ = split_property(ids)
    return NameParts(potency(ids), (*named, *active), base.id)


def english_name(parts: NameParts) -> str:
    """Return the English name of ``parts``: the catalogue's names joined with spaces."""
    catalogue = runes()
    words = [f"+{parts.potency}"] if parts.potency else []
    words += [catalogue[r].name for r in parts.runes]
    return " ".join([*words, base_items()[parts.base].name])


@functools.cache
def _rune_by_name() -> dict[str, str]:
    return {r.name: r.id for r in runes().values() if r.family not in POTENCY_FAMILIES}


@functools.cache
def _bases_by_length() -> tuple[tuple[str, str], ...]:
    """(name, id) of every base item, the longest name first (``clan dagger`` before
    ``dagger``)."""
    named = sorted(base_items().values(), key=lambda b: len(b.name), reverse=True)
    return tuple((b.name, b.id) for b in named)


def parse_name(text: str) -> NameParts | None:
    """Return the parts of an English item name, read back with the catalogue's names, or None
    when it is not one this catalogue makes (a name recorded with other names, a legacy one).

    ``"+2 greater resilient fire-resistant chain mail"`` -> ``NameParts(2, ("greater-resilient",
    "fire-resistant"), "chain-mail")``.
    """
    words = text.split(" ")
    potency = 0
    if words and words[0][:1] == "+" and words[0][1:].isdigit():
        potency, words = int(words[0][1:]), words[1:]
    rest = " ".join(words)
    base = next(
        (
            (name, base_id)
            for name, base_id in _bases_by_length()
            if rest == name or rest.endswith(f" {name}")
        ),
        None,
    )
    if base is None:
        return None
    middle = rest[: len(rest) - len(base[0])].split()
    found: list[str] = []
    by_name = _rune_by_name()
    while middle:  # the longest rune name first: ``greater striking``, not ``greater``
        for size in range(len(middle), 0, -1):
            rune_id = by_name.get(" ".join(middle[:size]))
            if rune_id is not None:
                found.append(rune_id)
                middle = middle[size:]
                break
        else:
            return None
    return NameParts(potency, tuple(found), base[1])


def shown_name(english: str, parts: NameParts | None) -> Shown | str:
    """Return the name ``english`` as a value each language shows its own way (``parts``
    None: the English name as it is, in every language)."""
    if parts is None:
        return english
    return Shown(KIND, (parts.potency, parts.runes, parts.base), english)


def record_name(record: Mapping[str, Any]) -> Any:
    """Return an item record's ``name`` (a ``state`` item, or a sheet with its ``base``) as
    each language shows it: made from its recorded runes and base item, as long as they make
    the recorded name today; else read back from the name; else the name as it is (a
    character's record, a legacy item without a name: its value unchanged)."""
    name = record.get("name")
    if not isinstance(name, str) or "base" not in record:
        return name
    base = base_items().get(str(record["base"]))
    ids = record.get("runes") or ()
    parts = None
    if base is not None and all(i in runes() for i in ids):
        made = name_parts(base, ids)
        parts = made if english_name(made) == name else None
    return shown_name(name, parts if parts is not None else parse_name(name))


def text_name(name: Any) -> Any:
    """Return a recorded item name (a change's old or new value) as each language shows it,
    its parts read back from the name; anything but a string as it is."""
    if not isinstance(name, str):
        return name
    return shown_name(name, parse_name(name))


def localized(value: tuple[Any, ...], lang: str) -> str | None:
    """Return the name of ``value`` (``(potency, rune ids, base id)``) in ``lang``, or None
    (English, or a word the language's glossary lacks: the recorded name).

    Japanese: ``＋N`` then the words joined with ``・``; Korean: ``+N`` and the words joined
    with spaces (see the module's docstring for the sources).
    """
    if lang not in ("ja", "ko"):
        return None
    potency, rune_ids, base = value
    pairs = [*(("pf2e.rune", r) for r in rune_ids), ("pf2e.base_item", base)]
    words = []
    for kind, key in pairs:
        entry = glossary.entries(kind).get(key) or {}
        word = entry.get(lang)
        if not isinstance(word, str) or not word:
            return None
        words.append(word)
    if lang == "ja":
        return (f"＋{potency}" if potency else "") + "・".join(words)
    return " ".join([*([f"+{potency}"] if potency else []), *words])
