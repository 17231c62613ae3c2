"""Pathfinder 2e commands (imperative records) and their deciders (pure: state, command ->
events or RuleViolation).

The command classes live here, so their identity (``tablelog.commands.pf2e.EtchRune``, as the
server's declarations name them) does not depend on how the deciders are split; importing this
package registers every pf2e decider (:mod:`.party`, :mod:`.runes`).
"""

from __future__ import annotations

import attrs

__all__ = [
    "AddCharacter",
    "LearnFormula",
    "AddItem",
    "GiveItem",
    "EtchRune",
    "FinishEtching",
    "TransferRune",
    "InvestItem",
    "ActivateRune",
]


@attrs.frozen
class AddCharacter:
    """Add a character (``crafting``: Crafting rank; ``magical_crafting``: can craft magic items,
    None: yes from expert in Crafting on)."""

    name: str
    level: int = 1
    crafting: str = "expert"
    magical_crafting: bool | None = None
    force: bool = False  # add it though a taken name differs only by case (CORE-NAME)


@attrs.frozen
class LearnFormula:
    """Record that ``character`` has ``rune``'s formula (``buy``: pay its price)."""

    character: str
    rune: str
    buy: bool = False


@attrs.frozen
class AddItem:
    """Bring an item of a catalogue base into play, held by ``owner`` (or nobody)."""

    item: str
    base: str
    owner: str | None = None
    force: bool = False  # add it though a taken name differs only by case (CORE-NAME)


@attrs.frozen
class GiveItem:
    """Hand ``item`` to ``to``."""

    item: str
    to: str


@attrs.frozen
class EtchRune:
    """Etch ``rune`` onto ``item`` (``begin``: start a long Craft, finished by FinishEtching)."""

    item: str
    rune: str
    by: str
    begin: bool = False


@attrs.frozen
class FinishEtching:
    """Complete the etch in progress on ``item``."""

    item: str


@attrs.frozen
class TransferRune:
    """Move ``rune`` from ``source`` to ``target`` (``swap``: and that rune back).

    ``outcome`` is the Crafting check's degree of success as rolled at the table.
    """

    rune: str
    source: str
    target: str
    by: str
    swap: str | None = None
    days: int = 1
    outcome: str = "success"


@attrs.frozen
class InvestItem:
    """``by`` invests ``item`` (armor with runes)."""

    item: str
    by: str


@attrs.frozen
class ActivateRune:
    """``by`` activates ``rune`` on ``item`` (logged; the effect is the GM's)."""

    item: str
    rune: str
    by: str
    note: str = ""


# The deciders import the command classes above, so they are registered last.
from tablelog.commands.pf2e import party as _party  # noqa: E402, F401 - registers the deciders
from tablelog.commands.pf2e import runes as _runes  # noqa: E402, F401 - registers the deciders
