"""Evolvers and preconditions of growth and downtime: money, spells, rebuild, procurement,
checks, lifestyle."""

from __future__ import annotations

from tablelog.events.magicpunk import (
    CheckRolled,
    LeisureEventTaken,
    LeisureStarted,
    MoneyGained,
    ProcurementAssessed,
    Rebuilt,
    ResidenceShared,
    SpellLearned,
)
from tablelog.projections.core import State, evolver, precondition, require
from tablelog.projections.magicpunk.entities import Character, characters, items, table_of
from tablelog.projections.magicpunk.table import character
from tablelog.projections.magicpunk.zones import put_discard
from tablelog.rules.magicpunk import lifestyle, rebuild
from tablelog.rules.magicpunk.text import abilities as abilities_text
from tablelog.rules.magicpunk.text import skills as skills_text
from tablelog.text import Msg, msg

__all__ = ["abilities_of", "sheet_text", "spells_known", "leisure_group"]


def abilities_of(ch: Character) -> dict[str, int]:
    """Return ``{ability: value}`` of a character record, in the order of
    :data:`tablelog.rules.magicpunk.rebuild.ABILITIES`."""
    return {
        "body": ch["body"],
        "sense": ch["sense"],
        "intellect": ch["intellect"],
        "magic": ch["magic"],
    }


def sheet_text(ch: Character) -> Msg:
    """Return a character's abilities, skills and money as one line."""
    return msg(
        "magicpunk.sheet",
        "{abilities}; {skills}; {money} Mj",
        abilities=abilities_text(abilities_of(ch)),
        skills=skills_text(ch["skills"]),
        money=ch["money"],
    )


def spells_known(ch: Character) -> dict[str, tuple[str, int]]:
    """Return ``{spell: (gate, tier)}`` of a character record."""
    return {name: (s["gate"], s["tier"]) for name, s in ch["spells"].items()}


def leisure_group(state: State, name: str) -> str:
    """Return the key of ``name``'s household (its residence and cohabitants, or itself)."""
    ch = characters(state).get(name)
    life = ch["lifestyle"] if ch is not None else None
    if not life:
        return name
    return str(life["residence"]) + ":" + ",".join(sorted([name, *life["cohabitants"]]))


@precondition(MoneyGained)
def _check_money_gained(state: State, e: MoneyGained) -> None:
    character(state, e.name)
    require(
        e.amount >= 0,
        "MP-REBUILD-8",
        msg(
            "magicpunk.money.gained_negative",
            "money gained is 0 Mj or more, got {amount}",
            amount=e.amount,
        ),
    )


@evolver(MoneyGained)
def _money_gained(state: State, e: MoneyGained) -> None:
    ch = characters(state).get(e.name)
    if ch is None:
        return
    if e.spell_only:
        ch["spell_money"] += e.amount
    else:
        ch["money"] += e.amount
        ch["money_from_scenarios"] += e.amount


@precondition(SpellLearned)
def _check_spell_learned(state: State, e: SpellLearned) -> None:
    ch = character(state, e.name)
    require(
        e.spell not in ch["spells"],
        "MP-REBUILD-11",
        msg("magicpunk.spell.known", "{name} already knows {spell}", name=e.name, spell=e.spell),
    )
    rebuild.check_spell_order(spells_known(ch), e.gate, e.tier)
    require(
        e.from_spell_money <= ch["spell_money"] and e.from_money <= ch["money"],
        "MP-MONEY",
        msg(
            "magicpunk.money.spell_too_dear",
            "{name} has {spell_money} spell-only Mj and {money} Mj, the spell takes "
            "{from_spell_money} spell-only Mj and {from_money} Mj",
            name=e.name,
            spell_money=ch["spell_money"],
            money=ch["money"],
            from_spell_money=e.from_spell_money,
            from_money=e.from_money,
        ),
    )


@evolver(SpellLearned)
def _spell_learned(state: State, e: SpellLearned) -> None:
    ch = characters(state).get(e.name)
    if ch is None:
        return
    ch["spell_money"] -= e.from_spell_money
    ch["money"] -= e.from_money
    ch["spells"][e.spell] = {
        "gate": e.gate,
        "tier": e.tier,
        "price": e.price,
        "from_money": e.from_money,
        "from_spell_money": e.from_spell_money,
        "free": e.free,
    }


@precondition(Rebuilt)
def _check_rebuilt(state: State, e: Rebuilt) -> None:
    ch = character(state, e.name)
    require(
        abilities_of(ch) == e.abilities_before
        and ch["skills"] == e.skills_before
        and ch["money"] == e.money_before,
        "MP-REBUILD-1",
        msg(
            "magicpunk.rebuild.changed",
            "{name} changed since the rebuild was decided: now {sheet}",
            name=e.name,
            sheet=sheet_text(ch),
        ),
    )
    for item in e.items_removed:
        require(
            item in state.items and items(state)[item]["owner"] == e.name,
            "MP-REBUILD-8",
            msg(
                "magicpunk.rebuild.item_not_held",
                "{name} does not hold the item {item}",
                name=e.name,
                item=item,
            ),
        )
    for spell in e.spells_unlearned:
        require(
            spell in ch["spells"],
            "MP-REBUILD-10",
            msg(
                "magicpunk.rebuild.spell_unknown",
                "{name} does not know {spell}",
                name=e.name,
                spell=spell,
            ),
        )


@evolver(Rebuilt)
def _rebuilt(state: State, e: Rebuilt) -> None:
    ch = characters(state).get(e.name)
    if ch is None:
        return
    for item in e.items_removed:
        if item in state.items:
            put_discard(state, items(state).pop(item)["cards"])
    ch["items"] = [i for i in ch["items"] if i not in e.items_removed]
    ch["spells"] = {k: v for k, v in ch["spells"].items() if k not in e.spells_unlearned}
    _set_abilities(ch, e.abilities_after)
    ch["skills"] = dict(e.skills_after)
    ch["money"], ch["spell_money"] = e.money_after, e.spell_money_after
    ch["money_converted"] += e.converted_mj


def _set_abilities(ch: Character, values: dict[str, int]) -> None:
    """Set the abilities ``values`` records (an ability it lacks keeps its value)."""
    ch["body"] = values.get("body", ch["body"])
    ch["sense"] = values.get("sense", ch["sense"])
    ch["intellect"] = values.get("intellect", ch["intellect"])
    ch["magic"] = values.get("magic", ch["magic"])


@precondition(ProcurementAssessed)
def _check_procurement_assessed(state: State, e: ProcurementAssessed) -> None:
    character(state, e.who)


@evolver(ProcurementAssessed)
def _procurement_assessed(state: State, e: ProcurementAssessed) -> None:
    """An assessment changes nothing: the log keeps it for history."""


@precondition(CheckRolled)
def _check_check_rolled(state: State, e: CheckRolled) -> None:
    if e.by is not None:
        character(state, e.by)


@evolver(CheckRolled)
def _check_rolled(state: State, e: CheckRolled) -> None:
    table = table_of(state)
    table["rolls"] = table.get("rolls", 0) + 1


@precondition(ResidenceShared)
def _check_residence_shared(state: State, e: ResidenceShared) -> None:
    for name in e.names:
        character(state, name)
    lifestyle.check_household(e.names)
    lifestyle.check_split(e.residence_points, e.split, len(e.names))


@evolver(ResidenceShared)
def _residence_shared(state: State, e: ResidenceShared) -> None:
    for name, share in zip(e.names, e.split, strict=False):
        ch = characters(state).get(name)
        if ch is not None:
            ch["lifestyle"] = {
                "region": e.region,
                "residence": e.residence,
                "region_points": e.region_points,
                "residence_points": share,
                "cohabitants": [n for n in e.names if n != name],
            }


@evolver(LeisureStarted)
def _leisure_started(state: State, e: LeisureStarted) -> None:
    table_of(state)["leisure"] = {}


@precondition(LeisureEventTaken)
def _check_leisure_event_taken(state: State, e: LeisureEventTaken) -> None:
    character(state, e.name)
    taken = table_of(state).get("leisure", {}).get(leisure_group(state, e.name), [])
    require(
        e.shared_event is None or e.shared_event not in taken,
        "MP-COHAB-2",
        msg(
            "magicpunk.leisure.taken",
            "shared leisure event {event} has already happened in this leisure",
            event=e.shared_event,
        ),
    )


@evolver(LeisureEventTaken)
def _leisure_event_taken(state: State, e: LeisureEventTaken) -> None:
    if e.shared_event is not None:
        leisure = table_of(state).setdefault("leisure", {})
        taken = leisure.setdefault(leisure_group(state, e.name), [])
        taken.append(e.shared_event)
