"""Upcasters of fate events: older schema versions brought to the current shape.

v1 -> v2 (casts, releases and their outcomes): the ``action`` of a cast or release and the
``cause`` of its outcomes were a counter (1, 2, 3 …); from v2 on they are the seq of the cast or
release event in the log, so that a refusal can name it (``the release #11``). A v1 id names no
seq: it is upcast to its negative, which keeps outcomes tied to their cast or release and can
never meet a v2 id. An EffectRaised gets ``chanted``: a v1 buff of more than one tile on its
target can only have come from a chanted cast (FATE-CAST-7).

New facts (EffectRaised v2 -> v3: an EX defensive NP's ``counter``, None before; DamageTaken
v2 -> v3: ``wound``, empty before; ArmySummoned v2 -> v3: ``familiars``, false before) hold
nothing for older records.

Recorded outcomes (MasterAdded v1 -> v2, PhantasmAdded v1 -> v2, PhantasmReleased v2 -> v3,
FieldRaised v2 -> v3): the events now record what the rules made of them (a master's powers and
tiles, an NP's numbers, the uses an always-active NP had, the HP an EX field gives allies), so a
replay never re-runs today's rules. An old record cannot give them without those rules: its new
fields are None, and the evolver (or precondition) takes its documented legacy path
(:mod:`tablelog.projections.fate.legacy`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events.codec import upcaster

__all__: list[str] = []

_IDS = {
    "fate.CodeCast": "action",
    "fate.PhantasmReleased": "action",
    "fate.EffectRaised": "cause",
    "fate.DamageTaken": "cause",
    "fate.Healed": "cause",
    "fate.InjuryHealed": "cause",
    "fate.FieldRaised": "cause",
    "fate.FieldEnded": "cause",
    "fate.ArmySummoned": "cause",
}


def _legacy_id(field: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def up(data: dict[str, Any]) -> dict[str, Any]:
        value = data.get(field) or 0
        data[field] = -abs(int(value))
        return data

    return up


for _tag, _field in _IDS.items():
    if _tag != "fate.EffectRaised":
        upcaster(_tag, 1)(_legacy_id(_field))


@upcaster("fate.EffectRaised", 1)
def _effect_v1(data: dict[str, Any]) -> dict[str, Any]:
    data = _legacy_id("cause")(data)
    data.setdefault("chanted", data.get("kind") == "buff" and int(data.get("tiles", 0)) > 1)
    return data


def _absent(*fields: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Return an upcaster that adds ``fields`` as None (the evolver's legacy path)."""

    def up(data: dict[str, Any]) -> dict[str, Any]:
        for field in fields:
            data.setdefault(field, None)
        return data

    return up


upcaster("fate.MasterAdded", 1)(_absent("power", "powers", "tiles"))
upcaster("fate.PhantasmReleased", 2)(_absent("uses_allowed"))
upcaster("fate.FieldRaised", 2)(_absent("ally_hp"))
upcaster("fate.EffectRaised", 2)(_absent("counter"))


@upcaster("fate.DamageTaken", 2)
def _damage_v2(data: dict[str, Any]) -> dict[str, Any]:
    """No wound before v3: the injury of a v2 damage is no NP's wound."""
    data.setdefault("wound", "")
    return data


@upcaster("fate.ArmySummoned", 2)
def _army_v2(data: dict[str, Any]) -> dict[str, Any]:
    """No familiars before v3: a v2 army is an ordinary summon."""
    data.setdefault("familiars", False)
    return data


@upcaster("fate.PhantasmAdded", 1)
def _phantasm_v1(data: dict[str, Any]) -> dict[str, Any]:
    """No numbers recorded: ``points`` None marks the legacy path; the others take defaults."""
    data = _absent("points", "targets", "max_held")(data)
    for field in (
        "mp_cost",
        "hp_per_tile",
        "mp_per_tile",
        "tiles",
        "block_per_tile",
        "hp_max_bonus",
    ):
        data.setdefault(field, 0)
    return data
