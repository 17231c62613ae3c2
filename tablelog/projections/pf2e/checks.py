"""Checks shared by the pf2e deciders and preconditions: who and what exists, who may etch or move.

Each check raises :class:`RuleViolation` naming the rule and the values; the deciders call them to
refuse a command, the preconditions to find an event that no longer holds (an earlier action it
depended on was undone). The checks the preconditions use read only the State and the values
given; :func:`check_etch` and :func:`check_transfer` also read the catalogues (deciders only).
"""

from __future__ import annotations

from collections import Counter

from tablelog.projections.core import State
from tablelog.projections.pf2e.entities import Character, Etching, Item, characters, items
from tablelog.rules import pf2e as rules
from tablelog.rules.core import RuleViolation, Unknown, require
from tablelog.text import Listed, Msg, Term, msg

__all__ = [
    "character",
    "item",
    "etching_text",
    "nobody",
    "holder",
    "check_new_name",
    "check_crafter",
    "check_holds",
    "check_etcher",
    "check_etch",
    "check_no_etching",
    "check_mover",
    "check_transfer",
    "check_activation",
    "check_crafter_free",
    "check_invest",
]


def character(state: State, name: str) -> Character:
    """Return the character ``name``.

    Raises:
        RuleViolation: UNKNOWN-NAME if the session has no character of that name.
    """
    found = characters(state).get(name)
    if found is None:
        other = msg("pf2e.name.is_item", " (it is an item)") if name in state.items else ""
        raise RuleViolation(
            "UNKNOWN-NAME",
            msg(
                "pf2e.character.unknown",
                "no character named {name!r}{other}",
                name=name,
                other=other,
            ),
            unknown=Unknown("name", name),
        )
    return found


def item(state: State, name: str) -> Item:
    """Return the item ``name``.

    Raises:
        RuleViolation: UNKNOWN-NAME if the session has no item of that name.
    """
    found = items(state).get(name)
    if found is None:
        other = (
            msg("pf2e.name.is_character", " (it is a character)")
            if name in state.characters
            else ""
        )
        raise RuleViolation(
            "UNKNOWN-NAME",
            msg("pf2e.item.unknown", "no item named {name!r}{other}", name=name, other=other),
            unknown=Unknown("name", name),
        )
    return found


def etching_text(etching: Etching) -> Msg:
    """Return an etch in progress as the table says it: ``flaming by Valeros``."""
    return msg(
        "pf2e.etching", "{rune} by {by}", rune=Term("pf2e.rune", etching["rune"]), by=etching["by"]
    )


def nobody(name: str | None) -> Msg | str:
    """Return a holder's name, or ``nobody`` for none."""
    return name if name else msg("pf2e.nobody", "nobody")


def holder(state: State, name: str) -> rules.Holder:
    """Return the item ``name`` as a :class:`rules.Holder` (label, base item, rune ids)."""
    record = item(state, name)
    return rules.Holder(
        label=name, base=rules.base_item(record["base"]), runes=tuple(record["runes"])
    )


def check_new_name(state: State, name: str) -> None:
    """Refuse a character or item name already in use (both share one namespace)."""
    require(
        name.strip(),
        "CORE-NAME",
        msg("core.name.empty", "{what} cannot be empty", what=msg("core.what.name", "a name")),
    )
    require(
        state.entity(name) is None,
        "CORE-NAME",
        msg(
            "pf2e.name.taken", "{name!r} is already a character or item of this session", name=name
        ),
    )


def check_crafter(state: State, by: str) -> Character:
    """Return the crafter ``by`` if they can craft magic items (PF2E-ETCH-1)."""
    who = character(state, by)
    require(
        who["magical_crafting"],
        "PF2E-ETCH-1",
        msg(
            "pf2e.crafter.no_magical_crafting",
            "{by} cannot craft magic items: no Magical Crafting ({rank} in Crafting)",
            by=by,
            rank=Term("pf2e.rank", who["crafting"]),
        ),
    )
    return who


def check_holds(state: State, by: str, item_id: str, rule: str) -> None:
    """Refuse unless ``by`` holds the item (``pf2e give`` hands items over)."""
    owner = item(state, item_id)["owner"]
    require(
        owner == by,
        rule,
        msg(
            "pf2e.holds.not_held",
            "{by} does not hold {item} (held by {owner}); hand it over first: pf2e give {item} "
            "--to {by}",
            by=by,
            item=item_id,
            owner=nobody(owner),
        ),
    )


def check_no_etching(state: State, item_id: str) -> None:
    """Refuse while a long etch is in progress on the item (one rune at a time, PF2E-ETCH-2)."""
    etching = item(state, item_id)["etching"]
    if etching is not None:
        raise RuleViolation(
            "PF2E-ETCH-2",
            msg(
                "pf2e.etch.in_progress",
                "{item} has an etch in progress ({etching}); finish it first: pf2e finish {item}",
                item=item_id,
                etching=etching_text(etching),
            ),
        )


def check_crafter_free(state: State, by: str, skip: str | None = None) -> None:
    """Refuse while ``by`` has a long etch in progress on another item (one rune at a time).

    Source: pf2e-runes.ja.txt, 彫刻の方法 (一度に彫刻できるルーンは1つだけだ); PF2E-ETCH-2.
    """
    for name, record in items(state).items():
        etching = record["etching"]
        if name != skip and etching is not None and etching["by"] == by:
            raise RuleViolation(
                "PF2E-ETCH-2",
                msg(
                    "pf2e.etch.crafter_busy",
                    "{by} is already etching {rune} on {item}; one rune at a time: pf2e finish "
                    "{item}",
                    by=by,
                    rune=Term("pf2e.rune", etching["rune"]),
                    item=name,
                ),
            )


def check_etcher(
    state: State,
    item_id: str,
    rune_id: str,
    level: int | None,
    by: str,
    crafting: str | None = None,
) -> None:
    """Refuse unless ``by`` may etch the rune ``rune_id`` (of ``level``) onto the item now.

    Args:
        level: The rune's level; None skips the level check (a record that does not know it).
        crafting: The Crafting rank the rune needs; None skips the rank check (likewise).

    Raises:
        RuleViolation: UNKNOWN-NAME (character or item); PF2E-ETCH-1 (no magical crafting, not
            holding the item, no formula, level or Crafting rank below the rune's);
            PF2E-ETCH-2 (the crafter is etching another item).
    """
    item(state, item_id)
    who = check_crafter(state, by)
    check_holds(state, by, item_id, "PF2E-ETCH-1")
    check_crafter_free(state, by, item_id)
    require(
        rune_id in who["formulas"],
        "PF2E-ETCH-1",
        msg(
            "pf2e.etch.no_formula",
            "{by} has no formula for {rune}; add it: pf2e formula add {by} {rune_id}",
            by=by,
            rune=Term("pf2e.rune", rune_id),
            rune_id=rune_id,
        ),
    )
    require(
        level is None or who["level"] >= level,
        "PF2E-ETCH-1",
        msg(
            "pf2e.etch.level_too_low",
            "{by} is level {level}, below {rune}'s level {rune_level}",
            by=by,
            level=who["level"],
            rune=Term("pf2e.rune", rune_id),
            rune_level=level,
        ),
    )
    require(
        crafting is None or rules.rank_at_least(who["crafting"], crafting),
        "PF2E-ETCH-1",
        msg(
            "pf2e.etch.rank_too_low",
            "{by} is {rank} in Crafting; etching {rune} needs {needed}",
            by=by,
            rank=Term("pf2e.rank", who["crafting"]),
            rune=Term("pf2e.rune", rune_id),
            needed=Term("pf2e.rank", str(crafting)),
        ),
    )


def check_etch(
    state: State, item_id: str, rune_name: str, by: str
) -> tuple[rules.Rune, rules.EtchPlan]:
    """Return the rune and the etch plan if ``by`` may etch it onto the item now (deciders).

    Raises:
        RuleViolation: UNKNOWN-NAME (character, item or rune); the refusals of
            :func:`check_etcher` (with the rune's level and Crafting rank); or the plan's
            (PF2E-RUNE-2/6, PF2E-FUND-1, PF2E-STONE-1).
    """
    record = item(state, item_id)
    check_crafter(state, by)
    rune = rules.rune(rune_name)
    check_etcher(
        state, item_id, rune.id, rune.level, by, rules.crafting_rank_needed(rune.family, rune.tier)
    )
    plan = rules.plan_etch(rules.base_item(record["base"]), record["runes"], rune, item_id)
    return rune, plan


def check_mover(state: State, source: str, target: str, by: str) -> None:
    """Refuse unless ``by`` may move runes between the two items now.

    A transfer needs the ability to craft magic items and the crafter holding both items, but
    no formula (PF2E-XFER-5 decision).

    Raises:
        RuleViolation: UNKNOWN-NAME (character or item), PF2E-ETCH-1 (no magical crafting),
            PF2E-XFER-1 (not holding), PF2E-ETCH-2 (an etch in progress).
    """
    item(state, source)
    item(state, target)
    check_crafter(state, by)
    check_crafter_free(state, by)
    for item_id in (source, target):
        check_holds(state, by, item_id, "PF2E-XFER-1")
        check_no_etching(state, item_id)


def check_transfer(
    state: State, rune_name: str, source: str, target: str, by: str, swap: str | None
) -> tuple[rules.Rune, rules.Rune | None, rules.TransferPlan]:
    """Return the moved rune, the swap rune and the plan if ``by`` may move runes now (deciders).

    Raises:
        RuneDoesNotFit: PF2E-XFER-4, the target (or the source, for a swap) cannot take it.
        RuleViolation: UNKNOWN-NAME (character, item or rune), the refusals of
            :func:`check_mover`, or the plan's refusals.
    """
    moved = rules.rune(rune_name)
    swapped = rules.rune(swap) if swap is not None else None
    src, dst = holder(state, source), holder(state, target)
    check_mover(state, source, target, by)
    return moved, swapped, rules.plan_transfer(src, dst, moved, swapped)


def check_invest(state: State, item_id: str, by: str) -> None:
    """Refuse unless ``by`` may invest the item now: it has the invested trait, ``by`` holds it
    and has not invested it yet.

    Raises:
        RuleViolation: UNKNOWN-NAME (character or item); PF2E-INVEST-1.
    """
    record = item(state, item_id)
    character(state, by)
    require(
        record["invested_trait"],
        "PF2E-INVEST-1",
        msg(
            "pf2e.invest.no_trait",
            "{item} ({name}) has no invested trait: only armor with runes is invested",
            item=item_id,
            name=record["name"],
        ),
    )
    check_holds(state, by, item_id, "PF2E-INVEST-1")
    require(
        not record["invested"],
        "PF2E-INVEST-1",
        msg("pf2e.invest.already", "{by} has already invested {item}", by=by, item=item_id),
    )


def check_activation(state: State, item_id: str, rune_id: str, by: str) -> None:
    """Refuse activating a rune that is not active on the item, or not held / not invested.

    Raises:
        RuleViolation: UNKNOWN-NAME (character or item); PF2E-ACT-1 (not held, rune absent
            or dormant);
            PF2E-INVEST-1 (armor with runes not invested).
    """
    record = item(state, item_id)
    character(state, by)
    check_holds(state, by, item_id, "PF2E-ACT-1")
    dormant = record["dormant"] or []
    active = _active(record["runes"], dormant)
    require(
        rune_id in active,
        "PF2E-ACT-1",
        msg(
            "pf2e.activate.not_active",
            "{item} has no active {rune} rune (active: {active}; dormant: {dormant})",
            item=item_id,
            rune=Term("pf2e.rune", rune_id),
            active=_runes_or_none(active),
            dormant=_runes_or_none(dormant),
        ),
    )
    require(
        record["invested"] or not record["invested_trait"],
        "PF2E-INVEST-1",
        msg(
            "pf2e.activate.not_invested",
            "{item} must be invested before its runes work: pf2e invest {item} --by {by}",
            item=item_id,
            by=by,
        ),
    )


def _runes_or_none(ids: list[str]) -> Listed | Msg:
    if ids:
        return Listed(tuple(Term("pf2e.rune", i) for i in ids), "comma")
    return msg("pf2e.runes.none_word", "none")


def _active(runes: list[str], dormant: list[str]) -> list[str]:
    """Return the runes that are not dormant, etch order (of two alike, the later is dormant)."""
    left = Counter(dormant)
    active: list[str] = []
    for rune in reversed(runes):
        if left[rune]:
            left[rune] -= 1
        else:
            active.insert(0, rune)
    return active
