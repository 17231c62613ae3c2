"""Modifiers of a Noble Phantasm: the special abilities that change one of its numbers.

The seed lets each NP carry special abilities agreed with the GM; the ones that change a number
the tool computes are recorded as ``--mod KEY=VALUE`` (FATE-NP-13). Keys:

=====================  =====================================================================
``concealment=true``   −2 HP per tile (인비지블 에어's [은폐]: one grade less damage)
``hp-per-tile=N``      add N (may be negative) to the HP damage per tile
``mp-per-tile=N``      add N to the MP damage per tile
``piercing=true``      each ``+`` adds 5 HP per tile instead of 3 MP (게 불그's [관통])
``damage=none``        the NP deals no damage (룰 브레이커)
``targets=N``          targets per release instead of the type's number
``mp-cost=N``          add N to the release MP cost
``ignores-defense=true``  defense tiles cannot reduce it; anti-magic does (자바니야's [영체타격])
``reality-marble=true``   the field or army is a reality marble (고유결계)
``upkeep-per-unit=N``  add N to an army's upkeep per unit per round (왕의 군세's [보급]: −1)
=====================  =====================================================================

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.③ and 5. (examples); FATE-NP-13.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from tablelog.rules.core import RuleViolation, require

__all__ = ["NPMods", "parse_mods", "typed_mods", "mod_texts", "MOD_KEYS"]

_INT_KEYS = {
    "hp-per-tile": "hp_per_tile",
    "mp-per-tile": "mp_per_tile",
    "targets": "targets",
    "mp-cost": "mp_cost",
    "upkeep-per-unit": "upkeep_per_unit",
}
_FLAG_KEYS = {
    "concealment": "concealment",
    "piercing": "piercing",
    "ignores-defense": "ignores_defense",
    "reality-marble": "reality_marble",
}
MOD_KEYS = (*_INT_KEYS, *_FLAG_KEYS, "damage")
_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


@attrs.frozen
class NPMods:
    """Parsed NP modifiers (see the module docstring for the keys)."""

    hp_per_tile: int = 0
    mp_per_tile: int = 0
    piercing: bool = False
    no_damage: bool = False
    targets: int | None = None
    mp_cost: int = 0
    ignores_defense: bool = False
    reality_marble: bool = False
    upkeep_per_unit: int = 0


ModValue = int | bool | str
"""A modifier's value as the state holds it: a number, true/false, or ``none``/``normal``."""


MOD_LIMIT = 1000
"""The largest size of a numeric modifier: far past any NP of the seed (its examples move a number
by 1 to 5), small enough that every figure computed from it can be stored."""


def _as_int(key: str, value: ModValue) -> int:
    text = str(value).strip()
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif len(text) > 12:  # not converted: a 5,000-digit text is refused as it stands
        number = MOD_LIMIT + 1
    else:
        try:
            number = int(text)
        except ValueError:
            raise RuleViolation(
                "FATE-NP-13", f"modifier {key}={value} needs a whole number (e.g. {key}=-2)"
            ) from None
    require(-MOD_LIMIT <= number <= MOD_LIMIT, "FATE-NP-13",
            f"modifier {key}={text[:20]}: a number from -{MOD_LIMIT} to {MOD_LIMIT}")
    return number


def _as_flag(key: str, value: ModValue) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    require(text in _TRUE | _FALSE, "FATE-NP-13", f"modifier {key}={value} needs true or false")
    return text in _TRUE


def _as_damage(value: ModValue) -> str:
    text = str(value).strip().lower()
    require(text in ("none", "normal"), "FATE-NP-13",
            f"modifier damage={value}: use none or normal")  # fmt: skip
    return text


def typed_mods(mods: Mapping[str, ModValue]) -> dict[str, ModValue]:
    """Return the modifiers with typed values: numbers as ints, flags as bools, ``damage`` as
    ``none``/``normal`` (what the state and its JSON hold).

    Raises:
        RuleViolation: FATE-NP-13 for an unknown key or a value of the wrong shape.

    Source: FATE-NP-13 (modifiers recorded on the NP).
    """
    out: dict[str, ModValue] = {}
    for key, value in mods.items():
        if key in _INT_KEYS:
            out[key] = _as_int(key, value)
        elif key in _FLAG_KEYS:
            out[key] = _as_flag(key, value)
        elif key == "damage":
            out[key] = _as_damage(value)
        else:
            raise RuleViolation(
                "FATE-NP-13", f"unknown modifier {key} (known: {', '.join(MOD_KEYS)})"
            )
    return out


def mod_texts(mods: Mapping[str, ModValue]) -> dict[str, str]:
    """Return the modifiers as canonical text (``-2``, ``true``, ``none``), as events record them.

    Raises:
        RuleViolation: FATE-NP-13 as :func:`typed_mods`.
    """
    return {
        key: (str(value).lower() if isinstance(value, bool) else str(value))
        for key, value in typed_mods(mods).items()
    }


def parse_mods(mods: Mapping[str, ModValue]) -> NPMods:
    """Parse ``{key: value}`` modifiers (text as typed, or typed values) into :class:`NPMods`.

    Raises:
        RuleViolation: FATE-NP-13 for an unknown key or a value of the wrong shape.

    Source: 노블 판타즘 5. (e.g. 피해점이 2점 낮아지는 대신 [은폐]); FATE-NP-13.
    """
    fields: dict[str, object] = {}
    hp_extra = 0
    for key, value in typed_mods(mods).items():
        if key == "damage":
            fields["no_damage"] = value == "none"
        else:
            fields[_INT_KEYS.get(key) or _FLAG_KEYS[key]] = value
    if fields.pop("concealment", False):
        hp_extra = -2
    targets = fields.get("targets")
    require(targets is None or int(targets) >= 1, "FATE-NP-13",  # type: ignore[call-overload]
            f"modifier targets={targets} is below 1: an NP hits at least one target")  # fmt: skip
    result = NPMods(**fields)  # type: ignore[arg-type]
    return attrs.evolve(result, hp_per_tile=result.hp_per_tile + hp_extra)
