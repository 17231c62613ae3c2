"""The SaGa Emerald Beyond catalogues: techs and spells, battle ranks, display splits.

Read once from the packaged CSV files (``tablelog/rules/data/saga_*.csv``) with
:mod:`importlib.resources`; nothing here touches any other file.

Source: saga-eb-damage.ja.txt (データ ＞ 技・術の基本性能 / バトルランク / 技・術のダメージ分割);
the catalogue columns are described in docs/saga.md. A tech is found by its id or by any of its
names (the catalogue's Japanese one, the glossary's in any language: :func:`resolve_tech`).
"""

from __future__ import annotations

import csv
import functools
import io
import unicodedata
from fractions import Fraction
from importlib import resources

import attrs

from tablelog.rules import glossary
from tablelog.rules.core import RuleViolation, Unknown
from tablelog.text import Listed, msg

__all__ = [
    "ABILITIES",
    "ATTRIBUTES",
    "ELEMENTS",
    "WEAPON_TYPES",
    "BattleRank",
    "Tech",
    "battle_rank",
    "damage_split",
    "resolve_tech",
    "tech",
    "tech_ids",
    "tech_row",
]

#: Weapon types a tech can belong to (``enemy`` = enemy-only techs, ``support-mech`` = 補助メカ).
WEAPON_TYPES = (
    "1h-sword",
    "2h-sword",
    "1h-gun",
    "2h-gun",
    "martial-arts",
    "monster",
    "melee-mech",
    "shooting-mech",
    "support-mech",
    "spell",
    "inherited",
    "enemy",
)
#: Attack attributes; ``none`` (無) is attributeless and voids the target's resistance.
ATTRIBUTES = ("slash", "blunt", "pierce", "heat", "cold", "elec", "none")
#: Dependent abilities: 筋 str, 技 tec, 運 agi, 体 vit, 知 int, 集 con.
ABILITIES = ("str", "tec", "agi", "vit", "int", "con")
#: The five elements, in the seed's column order.
ELEMENTS = ("wood", "fire", "earth", "metal", "water")


@attrs.frozen
class Tech:
    """One tech or spell as the damage formulas see it.

    ``power`` is the tech power (技・術威力) at the chosen rank; ``random_width`` is in percent
    (a stored 0 is already 5); ``attributes`` in source order, empty for non-attacks;
    ``flags`` e.g. ``ignore-defense``, ``treated-as-spell``, ``release``, ``unguardable``,
    ``slayer-beast``; ``lp_cost`` is the Blood tech LP damage value (0 if none).
    """

    id: str
    power: int
    attack_count: int
    random_width: int
    weapon_type: str
    attributes: tuple[str, ...] = ()
    element: str | None = None
    self_ability: str | None = None
    target_ability: str | None = None
    weapon_sub: str | None = None
    target: str = "single"
    lp_cost: int = 0
    flags: tuple[str, ...] = ()
    name_ja: str = ""

    def has(self, flag: str) -> bool:
        """Return whether the tech carries ``flag``."""
        return flag in self.flags


@attrs.frozen
class BattleRank:
    """One enemy battle rank (敵バトルランク): weapon power, SLv, resistance, HP rate, stat."""

    rank: int
    enemy_weapon_power: int
    enemy_slv: int
    base_resistance: int
    hp_correction_rate: int
    base_stat: int


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files("tablelog.rules").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@functools.cache
def _tech_rows() -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in _rows("saga_techs.csv")}


def tech_ids() -> list[str]:
    """Return every catalogue tech id, in catalogue order."""
    return list(_tech_rows())


@functools.cache
def _ids_by_word() -> dict[str, tuple[str, ...]]:
    """Every word a catalogue tech goes by (its Japanese name, its glossary words in any
    language), folded as the glossary folds them, -> the ids it names (several for the five
    Japanese names two techs share, and for their Korean words)."""
    found: dict[str, list[str]] = {}
    rows = _tech_rows()
    words: dict[str, list[object]] = {i: [row["name_ja"]] for i, row in rows.items()}
    for key, entry in glossary.entries("saga.tech").items():
        if key in words:
            words[key] += [entry.get(lang) for lang in glossary.LANGUAGES]
    for tech_id, names in words.items():
        for name in names:
            if isinstance(name, str) and name:
                ids = found.setdefault(_folded(name), [])
                if tech_id not in ids:
                    ids.append(tech_id)
    return {word: tuple(ids) for word, ids in found.items()}


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def resolve_tech(name: str) -> str | None:
    """Return the catalogue id a tech id or name names: its Japanese name (``"強撃"`` ->
    ``"kyou-geki"``) or its glossary word in any language (``"강격"``).

    Returns:
        The id, or None when neither an id nor a name of the catalogue matches.

    Raises:
        RuleViolation: UNKNOWN-NAME when the name belongs to several techs (five Japanese names
            do, e.g. 流し斬り, and so do their Korean words): the message names their ids.

    Source: data/saga_techs.csv (``name_ja`` column); data/glossary/saga.toml (``[tech]``).
    """
    if name in _tech_rows():
        return name
    ids = _ids_by_word().get(_folded(name), ())
    if len(ids) > 1:
        raise RuleViolation(
            "UNKNOWN-NAME",
            msg(
                "saga.tech.ambiguous",
                "{name} names {n} techs ({ids}): give the id",
                name=name,
                n=len(ids),
                ids=Listed(ids, "comma"),
            ),
        )
    return ids[0] if ids else None


def tech_row(tech_id: str) -> dict[str, str]:
    """Return a catalogue tech's row as the CSV holds it (every column, as text).

    Args:
        tech_id: A catalogue id or a tech's name in any language (see :func:`resolve_tech`).

    Raises:
        RuleViolation: UNKNOWN-NAME for a tech the catalogue does not have.
    """
    return dict(_row(tech_id))


def _row(tech_id: str) -> dict[str, str]:
    found = resolve_tech(tech_id)
    if found is None:
        raise RuleViolation(
            "UNKNOWN-NAME",
            msg("saga.tech.unknown", "unknown tech {tech!r} (not in the catalogue)", tech=tech_id),
            Unknown("tech", tech_id),
        )
    return _tech_rows()[found]


def tech(tech_id: str, rank: int = 1) -> Tech:
    """Return a catalogue tech at a rank.

    Args:
        tech_id: The catalogue id (``"kiri-harai"``) or a name (``"斬り払い"``, ``"베어내기"``).
        rank: 1-5; picks ``power_r<rank>``.

    Returns:
        The :class:`Tech`.

    Raises:
        RuleViolation: UNKNOWN-NAME for an unknown id; SAGA-ATK-6 for a rank outside 1-5.

    Source: saga-eb-damage.ja.txt, データ ＞ 技・術の基本性能; SAGA-ATK-6.
    """
    row = _row(tech_id)
    if not 1 <= rank <= 5:
        raise RuleViolation(
            "SAGA-ATK-6",
            msg("saga.tech.rank_range", "tech rank must be 1-5, got {rank}", rank=rank),
        )
    return Tech(
        id=row["id"],
        power=int(row[f"power_r{rank}"]),
        attack_count=int(row["attack_count"]),
        random_width=int(row["random_width"]) or 5,
        weapon_type=row["weapon_type"],
        attributes=tuple(row["attributes"].split()),
        element=row["element"] or None,
        self_ability=row["self_ability"] or None,
        target_ability=row["target_ability"] or None,
        weapon_sub=row["weapon_sub"] or None,
        target=row["target"],
        lp_cost=int(row["lp_cost"]),
        flags=tuple(row["flags"].split()),
        name_ja=row["name_ja"],
    )


@functools.cache
def _ranks() -> dict[int, BattleRank]:
    return {
        int(r["rank"]): BattleRank(
            rank=int(r["rank"]),
            enemy_weapon_power=int(r["enemy_weapon_power"]),
            enemy_slv=int(r["enemy_slv"]),
            base_resistance=int(r["base_resistance"]),
            hp_correction_rate=int(r["hp_correction_rate"]),
            base_stat=int(r["base_stat"]),
        )
        for r in _rows("saga_battle_ranks.csv")
    }


def battle_rank(rank: int) -> BattleRank:
    """Return an enemy battle rank (1-250).

    Raises:
        RuleViolation: SAGA-ATK-5 if the rank is not in the table.

    Source: saga-eb-damage.ja.txt, データ ＞ バトルランク; SAGA-ATK-5.
    """
    found = _ranks().get(rank)
    if found is None:
        raise RuleViolation(
            "SAGA-ATK-5",
            msg("saga.battle_rank.range", "battle rank must be 1-250, got {rank}", rank=rank),
        )
    return found


@functools.cache
def _splits() -> dict[str, tuple[Fraction, ...]]:
    table: dict[str, tuple[Fraction, ...]] = {}
    for r in _rows("saga_damage_split.csv"):
        key = r["tech_id"] or r["name_ja"]
        table[key] = tuple(Fraction(p) for p in r["split_pct"].split())
    return table


def damage_split(tech_id: str) -> tuple[Fraction, ...]:
    """Return a tech's display split ratios in percent (``(100,)`` when it is not split).

    Args:
        tech_id: A catalogue id, or the Japanese name of an enemy-only tech.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージの分割表示; SAGA-DISP-2.
    """
    return _splits().get(tech_id, (Fraction(100),))
