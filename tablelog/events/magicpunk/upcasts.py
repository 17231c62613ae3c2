"""Upcasters of Magic Punk events: older schema versions brought to the current shape.

v1 -> v2 (issue 12: evolvers apply recorded facts): the outcomes an evolver used to compute
from today's rules are recorded in the event.

- ``magicpunk.DamageTaken`` and ``magicpunk.Healed`` gain ``hp_before`` and ``hp_after``. A v1
  record names neither (they depend on the state): both are None, and the evolver takes its
  legacy path (docs/magicpunk.md, "Legacy records").
- ``magicpunk.CoverTaken`` gains ``stays_acted``: in v1 it was ``was_acted`` by definition (the
  event's documented meaning under MP-COVER-1), so the upcaster fills it without a rule.
- ``magicpunk.BriefingStarted`` gains ``limit_each`` (preparations each, 0 for any number): a
  v1 record cannot give it without the package table, so it is None (legacy path).

v1 -> v2 (issue 15, the seed's 「…山札から引いて手札にする」 for items):
``magicpunk.CardsCirculated`` gains ``drawn_to``, the hand the drawn cards go to. A v1 record
drew them back into the holder, which ``drawn_to = None`` means: old logs keep their state.
``magicpunk.LeisureEventTaken`` gains ``shared_event``, the shared event its result reads; a v1
record counted the result itself as the event, which it is upcast with.

v1 -> v2 (issue 30, a procurement's audit by name): ``magicpunk.ProcurementAssessed`` gains
``rows``, the ids of the material, quality and design rows chosen. A v1 record kept only what
each row added, so it is upcast with none (``{}``): its audit shows ``material = 2`` as before.
"""

from __future__ import annotations

from typing import Any

from tablelog.events.codec import upcaster

__all__: list[str] = []


def _hp_v1(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("hp_before", None)
    data.setdefault("hp_after", None)
    return data


upcaster("magicpunk.DamageTaken", 1)(_hp_v1)
upcaster("magicpunk.Healed", 1)(_hp_v1)


@upcaster("magicpunk.CoverTaken", 1)
def _cover_v1(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("stays_acted", data.get("was_acted") is True)
    return data


@upcaster("magicpunk.BriefingStarted", 1)
def _briefing_v1(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("limit_each", None)
    return data


@upcaster("magicpunk.CardsCirculated", 1)
def _circulated_v1(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("drawn_to", None)
    return data


@upcaster("magicpunk.LeisureEventTaken", 1)
def _leisure_v1(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("shared_event", data.get("result") if data.get("shared") is True else None)
    return data


@upcaster("magicpunk.ProcurementAssessed", 1)
def _procurement_v1(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("rows", {})
    return data
