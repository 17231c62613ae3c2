"""Table commands: characters and items, combat (damage, heal, cover, rounds), briefing."""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.events.core import Event
from tablelog.events.magicpunk import (
    BriefingEnded,
    BriefingStarted,
    CharacterAdded,
    CoverTaken,
    DamageTaken,
    Healed,
    ItemAdded,
    ItemReadied,
    PreparationTaken,
    RoundStarted,
    TurnTaken,
)
from tablelog.projections.core import State, require
from tablelog.projections.magicpunk.entities import items, table_of
from tablelog.projections.magicpunk.table import character, check_free_name, check_rule_adopted
from tablelog.rules.core import Unknown, check_name
from tablelog.rules.magicpunk import combat, procurement
from tablelog.rules.magicpunk.rebuild import ABILITIES, skill_rank
from tablelog.rules.magicpunk.text import listing
from tablelog.text import Msg, Term, msg

__all__ = [
    "AddCharacter",
    "AddItem",
    "ReadyItem",
    "Damage",
    "Heal",
    "Act",
    "NewRound",
    "StartBriefing",
    "Prepare",
    "EndBriefing",
]


@attrs.frozen
class AddCharacter:
    """Add a character: abilities, max HP (core rules), skills ``{name: rank}``, money (Mj)."""

    name: str
    body: int
    sense: int
    intellect: int
    magic: int
    hp: int
    skills: dict[str, str] = attrs.Factory(dict)
    money: int = 0
    force: bool = False  # add it though a taken name differs only by case (CORE-NAME)


@attrs.frozen
class AddItem:
    """Give ``owner`` the item ``item`` (bought for ``price`` Mj; ``gear_slots`` for Ma-GEAR)."""

    item: str
    owner: str
    price: int = 0
    gear_slots: int | None = None
    force: bool = False  # add it though a taken name differs only by case (CORE-NAME)


@attrs.frozen
class ReadyItem:
    """Ready ``item`` with ``slots_free`` magic slots free (MP-GEAR-1)."""

    item: str
    slots_free: int = 0


@attrs.frozen
class Damage:
    """``target`` takes ``amount`` damage; ``cover_by`` takes it instead (MP-COVER-1)."""

    target: str
    amount: int
    pull_punches: bool = False
    cover_by: str | None = None


@attrs.frozen
class Heal:
    """``target`` heals ``amount`` HP."""

    target: str
    amount: int


@attrs.frozen
class Act:
    """``name`` starts its turn this round."""

    name: str


@attrs.frozen
class NewRound:
    """Start the next combat round."""


@attrs.frozen
class StartBriefing:
    """Start a briefing package: ``10s``, ``1m`` or ``ample`` (MP-BRIEF-1)."""

    package: str


@attrs.frozen
class Prepare:
    """``who`` takes one preparation (``enemy``: an aware enemy does)."""

    who: str
    enemy: bool = False
    note: str = ""


@attrs.frozen
class EndBriefing:
    """End the briefing."""


def _free_name(state: State, name: str) -> None:
    check_name(name)
    check_free_name(state, name)


@decider(AddCharacter)
def decide_add_character(state: State, c: AddCharacter) -> list[Event]:
    """Decide a new character; abilities, HP and money must be >= 0 (HP >= 1)."""
    _free_name(state, c.name)
    values = {a: getattr(c, a) for a in ABILITIES}
    wrong: list[Msg] = [
        msg(
            "magicpunk.ability_value",
            "{ability} {value}",
            ability=Term("magicpunk.ability", a),
            value=v,
        )
        for a, v in values.items()
        if v < 0
    ]
    if c.money < 0:
        wrong.append(msg("magicpunk.character.money", "money {money} Mj", money=c.money))
    require(
        not wrong,
        "MP-CHARACTER",
        msg(
            "magicpunk.character.negative",
            "abilities and money are 0 or more, got {wrong}",
            wrong=listing(wrong),
        ),
    )
    require(
        c.hp >= 1,
        "MP-CHARACTER",
        msg("magicpunk.character.hp_below_1", "max HP is 1 or more, got {hp}", hp=c.hp),
    )
    skills = {name: skill_rank(rank) for name, rank in c.skills.items()}
    return [CharacterAdded(name=c.name, hp_max=c.hp, skills=skills, money=c.money, **values)]


@decider(AddItem)
def decide_add_item(state: State, c: AddItem) -> list[Event]:
    """Decide a new item held by ``owner``; a price is paid from the owner's money."""
    _free_name(state, c.item)
    owner = character(state, c.owner)
    require(
        c.price >= 0,
        "MP-MONEY",
        msg(
            "magicpunk.money.price_negative", "a price is 0 Mj or more, got {price}", price=c.price
        ),
    )
    require(
        c.price <= owner["money"],
        "MP-MONEY",
        msg(
            "magicpunk.money.item_too_dear",
            "{owner} has {money} Mj, {item} costs {price} Mj",
            owner=c.owner,
            money=owner["money"],
            item=c.item,
            price=c.price,
        ),
    )
    require(
        c.gear_slots is None or c.gear_slots >= 0,
        "MP-GEAR-1",
        msg(
            "magicpunk.gear.negative_occupancy",
            "magic-slot occupancy is 0 or more, got {slots}",
            slots=c.gear_slots,
        ),
    )
    return [ItemAdded(item=c.item, owner=c.owner, price=c.price, gear_slots=c.gear_slots)]


@decider(ReadyItem)
def decide_ready_item(state: State, c: ReadyItem) -> list[Event]:
    """Decide readying an item: allowed without its magic slots, then without its Ma-GEAR effect
    (MP-GEAR-1); a table that does not use that rule readies it only with the slots."""
    require(
        c.item in state.items,
        "UNKNOWN-NAME",
        msg("magicpunk.unknown.item", "no item named {name!r}", name=c.item),
        Unknown("name", c.item),
    )
    needed = items(state)[c.item]["gear_slots"] or 0
    active = procurement.gear_active(needed, c.slots_free)
    if not active:
        check_rule_adopted(state, "ma-gear")
    return [
        ItemReadied(item=c.item, slots_needed=needed, slots_free=c.slots_free, gear_active=active)
    ]


@decider(Damage)
def decide_damage(state: State, c: Damage) -> list[Event]:
    """Decide damage, through a coverer if one covers (MP-COVER-1, MP-PULL-1).

    The event records the HP of whoever takes it, before and after (pulled punches stop at 0).
    """
    target = character(state, c.target)
    combat.hp_after_damage(0, c.amount, c.pull_punches)
    if c.pull_punches:
        check_rule_adopted(state, "pulling-punches")
    if c.cover_by is not None:
        check_rule_adopted(state, "cover")
    if c.cover_by is None:
        return [
            DamageTaken(
                target=c.target,
                amount=c.amount,
                pull_punches=c.pull_punches,
                hp_before=target["hp"],
                hp_after=combat.hp_after_damage(target["hp"], c.amount, c.pull_punches),
            )
        ]
    coverer = character(state, c.cover_by)
    require(
        c.cover_by != c.target,
        "MP-COVER-1",
        msg("magicpunk.cover.itself", "{target} cannot cover itself", target=c.target),
    )
    _, stays = combat.cover_outcome(coverer["acted"])
    return [
        CoverTaken(
            coverer=c.cover_by, covered=c.target, was_acted=coverer["acted"], stays_acted=stays
        ),
        DamageTaken(
            target=c.cover_by,
            amount=c.amount,
            pull_punches=c.pull_punches,
            covering=c.target,
            hp_before=coverer["hp"],
            hp_after=combat.hp_after_damage(coverer["hp"], c.amount, c.pull_punches),
        ),
    ]


@decider(Heal)
def decide_heal(state: State, c: Heal) -> list[Event]:
    """Decide healing (never above max HP); the event records the HP before and after."""
    target = character(state, c.target)
    after = combat.hp_after_heal(target["hp"], target["hp_max"], c.amount)
    return [Healed(target=c.target, amount=c.amount, hp_before=target["hp"], hp_after=after)]


@decider(Act)
def decide_act(state: State, c: Act) -> list[Event]:
    """Decide a turn start: refused if the character has already acted this round."""
    require(
        not character(state, c.name)["acted"],
        "MP-COVER-1",
        msg("magicpunk.turn.acted", "{name} has already acted this round", name=c.name),
    )
    return [TurnTaken(name=c.name)]


@decider(NewRound)
def decide_new_round(state: State, c: NewRound) -> list[Event]:
    """Decide a new round: everyone not-acted, except coverers who had already acted."""
    return [RoundStarted(number=table_of(state).get("round", 1) + 1)]


@decider(StartBriefing)
def decide_start_briefing(state: State, c: StartBriefing) -> list[Event]:
    """Decide the start of a briefing package; the event records its limit (MP-BRIEF-1)."""
    check_rule_adopted(state, "briefing")
    limit = combat.briefing_limit(c.package)
    require(
        table_of(state).get("briefing") is None,
        "MP-BRIEF-1",
        msg("magicpunk.briefing.under_way", "a briefing is under way"),
    )
    return [BriefingStarted(package=c.package, limit_each=limit)]


@decider(Prepare)
def decide_prepare(state: State, c: Prepare) -> list[Event]:
    """Decide one preparation, refused over the limit the briefing began with (MP-BRIEF-1)."""
    check_rule_adopted(state, "briefing")
    table = table_of(state)
    briefing = table.get("briefing")
    require(
        briefing is not None,
        "MP-BRIEF-1",
        msg("magicpunk.briefing.none", "no briefing is under way"),
    )
    assert briefing is not None
    side = "enemy" if c.enemy else "pc"
    if not c.enemy:
        character(state, c.who)
    combat.check_preparation(
        briefing["package"],
        table.get("briefing_limit", 0),
        briefing["by_actor"].get(f"{side}:{c.who}", 0),
    )
    return [PreparationTaken(who=c.who, side=side, note=c.note)]


@decider(EndBriefing)
def decide_end_briefing(state: State, c: EndBriefing) -> list[Event]:
    """Decide the end of the briefing."""
    check_rule_adopted(state, "briefing")
    require(
        table_of(state).get("briefing") is not None,
        "MP-BRIEF-1",
        msg("magicpunk.briefing.none", "no briefing is under way"),
    )
    return [BriefingEnded()]
