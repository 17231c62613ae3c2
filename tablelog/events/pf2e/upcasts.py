"""Upcasters of pf2e events: older schema versions brought to the current shape.

v1 -> v2 (the events record their outcomes): ``pf2e.ItemAdded`` gains ``category`` and ``sheet``,
``pf2e.RuneEtched`` gains ``sheet``, ``pf2e.RuneTransferred`` ``source_sheet`` and
``target_sheet``, ``pf2e.RuneEtchingBegun`` the rune's ``level``. v2 -> v3 (craft requirements):
``pf2e.RuneEtchingBegun`` and ``pf2e.RuneEtched`` gain ``crafting``, the Crafting rank the rune
needs. An older record names only ids, and these facts come from the catalogues and rules, so the
upcasters fill them with None: the evolvers take their documented legacy path for a missing sheet
(docs/pf2e.md), and the preconditions skip what they cannot know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events.codec import upcaster

__all__: list[str] = []

_NEW_FIELDS = {
    ("pf2e.ItemAdded", 1): ("category", "sheet"),
    ("pf2e.RuneEtched", 1): ("sheet",),
    ("pf2e.RuneTransferred", 1): ("source_sheet", "target_sheet"),
    ("pf2e.RuneEtchingBegun", 1): ("level",),
    ("pf2e.RuneEtched", 2): ("crafting",),
    ("pf2e.RuneEtchingBegun", 2): ("crafting",),
}


def _unknown(fields: tuple[str, ...]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Return the step to the next version that records ``fields`` as not known (None)."""

    def up(data: dict[str, Any]) -> dict[str, Any]:
        for field in fields:
            data[field] = None
        return data

    return up


for (_tag, _version), _fields in _NEW_FIELDS.items():
    upcaster(_tag, _version)(_unknown(_fields))
