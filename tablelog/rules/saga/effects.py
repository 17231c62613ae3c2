"""Effect values (buffs, debuffs, tech-power-up) and trait values.

Source: saga-eb-damage.ja.txt, 攻撃ダメージ：効果値・特性値; SAGA-EFF-1..4.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tablelog.rules.core import RuleViolation
from tablelog.rules.saga.catalogue import Tech
from tablelog.rules.saga.figures import Figure
from tablelog.text import msg

__all__ = [
    "BUFF_KINDS",
    "TRAIT_KINDS",
    "buff_effect_after",
    "buff_lands",
    "tech_power_effect_after_turn",
    "trait_applies",
    "trait_values",
]

#: Buff/debuff effect values (SAGA-EFF-2).
BUFF_KINDS = ("attack", "defense", "spell")
#: Trait kinds and the trait value each one feeds (SAGA-EFF-4).
TRAIT_KINDS = {
    "tech-power": "tech_power_trait",
    "anger-power": "anger_trait",
    "defense-resist": "defense_resist_trait",
    "guard-rate": "guard_trait",
    "target-guard-rate": "target_guard_trait",
    "attack": "attack_trait",
    "defense": "defense_trait",
}
_ELEMENTAL = ("slash", "blunt", "pierce", "heat", "cold", "elec")


def tech_power_effect_after_turn(value: int) -> int:
    """Return the tech-power effect value after a turn: max(0, value − 1).

    (Applying tech-power-up sets the value to the performance value; removing it sets 0.)

    Source: saga-eb-damage.ja.txt, 技威力効果値 (2.); SAGA-EFF-1.
    """
    return max(0, value - 1)


def buff_effect_after(value: int, performance: int) -> int:
    """Return an attack/defense/spell-power effect value after a buff or debuff lands.

    From > 0: clamp(v + p, 0, 30); from 0: clamp(v + p, −30, 30); from < 0: clamp(v + p, −30, 0)
    — a value never jumps from up to down without passing 0.

    Source: saga-eb-damage.ja.txt, バフ・デバフ系の効果値; SAGA-EFF-2.
    """
    lo, hi = (0, 30) if value > 0 else (-30, 30) if value == 0 else (-30, 0)
    return max(lo, min(value + performance, hi))


def buff_lands(*, same_side: bool, tech_power: int, attack_damage: int | None) -> bool:
    """Return whether a buff/debuff lands: on the actor's side, a power-0 tech, or damage ≠ 0.

    Source: saga-eb-damage.ja.txt, バフ・デバフ系の効果値 (付与の成功条件); SAGA-EFF-3.
    """
    return same_side or tech_power == 0 or bool(attack_damage)


def trait_applies(trait: Mapping[str, object], tech: Tech, effective: str | None) -> bool:
    """Return whether one trait's condition holds for this tech and effective attribute.

    ``tech-power`` traits name a weapon type (sword×gun techs take both 1H sword and 1H gun);
    ``attack``/``defense`` traits may name an attribute (only the effective attribute
    matches), ``all`` (not for attributeless techs), and defense also ``heat-cold-elec``,
    ``spell`` (spells and techs treated as spells), ``all-target`` and ``counter``; a trait
    with no ``on`` always applies (the GM asserts its condition).

    Source: saga-eb-damage.ja.txt, 攻撃ダメージに影響する特性値; SAGA-EFF-4.
    """
    on = trait.get("on")
    if on is None:
        return True
    if trait["kind"] == "tech-power":
        both = ("1h-sword", "1h-gun") if tech.weapon_sub == "sword-gun" else ()
        return on == tech.weapon_type or on in both
    return {
        "all": effective is not None,
        "heat-cold-elec": effective in ("heat", "cold", "elec"),
        "spell": tech.weapon_type == "spell" or tech.has("treated-as-spell"),
        "all-target": tech.target == "all",
        "counter": tech.has("counter"),
    }.get(str(on), on == effective)


def trait_values(
    traits: Iterable[Mapping[str, object]], tech: Tech, effective: str | None
) -> Figure:
    """Return each trait value: the sum of the performance values of traits that apply.

    Args:
        traits: ``{"kind", "value", "on"?}`` records (enemies have none: all values 0).
        tech: The tech being used.
        effective: The effective attribute, or None for an attributeless tech.

    Raises:
        RuleViolation: SAGA-EFF-4 for an unknown trait kind.

    Source: saga-eb-damage.ja.txt, 攻撃ダメージに影響する特性値; SAGA-EFF-4.
    """
    values = dict.fromkeys(TRAIT_KINDS.values(), 0)
    used: list[str] = []
    for trait in traits:
        kind = str(trait["kind"])
        if kind not in TRAIT_KINDS:
            raise RuleViolation(
                "SAGA-EFF-4", msg("saga.trait.unknown", "unknown trait kind {kind!r}", kind=kind)
            )
        if trait_applies(trait, tech, effective):
            values[TRAIT_KINDS[kind]] += int(trait["value"])  # type: ignore[call-overload]
            used.append(
                f"{kind}{'/' + str(trait['on']) if trait.get('on') else ''} {trait['value']}"
            )
    return Figure(values, {"traits": ", ".join(used) or "none"})
