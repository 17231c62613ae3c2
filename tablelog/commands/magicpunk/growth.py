"""Growth and downtime commands: money, spells, procurement, checks, cohabitation, leisure."""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.events.core import Event
from tablelog.events.magicpunk import (
    CheckRolled,
    LeisureEventTaken,
    LeisureStarted,
    MoneyGained,
    ProcurementAssessed,
    ResidenceShared,
    SpellLearned,
)
from tablelog.projections.core import State, random_seed, require
from tablelog.projections.magicpunk.entities import table_of
from tablelog.projections.magicpunk.growth import leisure_group, spells_known
from tablelog.projections.magicpunk.table import character, check_rule_adopted
from tablelog.rules.core import check_name
from tablelog.rules.magicpunk import checks, lifestyle, procurement, rebuild
from tablelog.text import msg

__all__ = [
    "GainMoney",
    "LearnSpell",
    "Procure",
    "RollCheck",
    "ShareResidence",
    "StartLeisure",
    "TakeLeisureEvent",
]


@attrs.frozen
class GainMoney:
    """``name`` gains ``amount`` Mj in a scenario (``spell_only``: only for learning spells)."""

    name: str
    amount: int
    spell_only: bool = False


@attrs.frozen
class LearnSpell:
    """``name`` learns ``spell`` of ``gate``, ``tier`` for ``price`` Mj (``free``: no charge)."""

    name: str
    spell: str
    gate: str
    tier: int
    price: int
    free: bool = False


@attrs.frozen
class Procure:
    """Assess procuring an item: the rarity table (MP-PROC-2) and the check (MP-PROC-1)."""

    who: str
    material: str
    quality: str
    design: str = "none"
    gear_price: int = 0
    vehicle_price: int = 0
    gm: int = 0
    extra_time: bool = False
    item: str = ""


@attrs.frozen
class RollCheck:
    """Roll a ``nMPm``/``nMPmCx`` check (``dice``: the dice rolled at the table)."""

    notation: str
    dice: tuple[int, ...] | None = None
    by: str | None = None


@attrs.frozen
class ShareResidence:
    """``names`` share a residence (MP-COHAB-1); ``split``: an agreed uneven split."""

    names: tuple[str, ...]
    region: str
    residence: str
    residence_points: int
    region_points: int = 0
    split: tuple[int, ...] | None = None


@attrs.frozen
class StartLeisure:
    """Start a leisure (余暇): shared events may occur once each."""


@attrs.frozen
class TakeLeisureEvent:
    """``name`` rolled ``roll`` on the leisure table; ``safety`` is the region's safety value."""

    name: str
    roll: int
    safety: int = 0
    table: str = "town"


@decider(GainMoney)
def decide_gain_money(state: State, c: GainMoney) -> list[Event]:
    """Decide scenario money (B of MP-REBUILD-8) or spell-only money."""
    character(state, c.name)
    require(
        c.amount > 0,
        "MP-MONEY",
        msg(
            "magicpunk.money.gained_zero",
            "money gained is more than 0 Mj, got {amount}",
            amount=c.amount,
        ),
    )
    return [MoneyGained(name=c.name, amount=c.amount, spell_only=c.spell_only)]


@decider(LearnSpell)
def decide_learn_spell(state: State, c: LearnSpell) -> list[Event]:
    """Decide learning a spell: gate order from tier 1, spell-only money first (MP-REBUILD-11)."""
    ch = character(state, c.name)
    check_name(c.spell, msg("magicpunk.what.spell", "a spell name"))
    check_name(c.gate, msg("magicpunk.what.gate", "a gate name"))
    require(
        c.spell not in ch["spells"],
        "MP-REBUILD-11",
        msg("magicpunk.spell.known", "{name} already knows {spell}", name=c.name, spell=c.spell),
    )
    rebuild.check_spell_order(spells_known(ch), c.gate, c.tier)
    require(
        c.price >= 0,
        "MP-MONEY",
        msg(
            "magicpunk.money.price_negative", "a price is 0 Mj or more, got {price}", price=c.price
        ),
    )
    from_spell, from_money = (
        (0, 0) if c.free else rebuild.pay_spell(c.price, ch["spell_money"], ch["money"])
    )
    return [
        SpellLearned(
            name=c.name,
            spell=c.spell,
            gate=c.gate,
            tier=c.tier,
            price=c.price,
            from_spell_money=from_spell,
            from_money=from_money,
            free=c.free,
        )
    ]


@decider(Procure)
def decide_procure(state: State, c: Procure) -> list[Event]:
    """Decide a procurement assessment: rarity, whether a check is needed, its challenge."""
    check_rule_adopted(state, "procurement")
    character(state, c.who)
    found = procurement.rarity(c.material, c.quality, c.design, c.gear_price, c.vehicle_price, c.gm)
    return [
        ProcurementAssessed(
            who=c.who,
            rarity=found.total,
            check_needed=found.check_needed,
            challenge=found.challenge,
            breakdown=dict(found.breakdown),
            time_dice=procurement.procurement_time_dice(c.extra_time),
            item=c.item,
            rows=dict(found.rows),
        )
    ]


@decider(RollCheck)
def decide_roll_check(state: State, c: RollCheck) -> list[Event]:
    """Decide a check: the given dice, or dice rolled from the seed keyed by the roll count."""
    if c.by is not None:
        character(state, c.by)
    notation = checks.parse_notation(c.notation)
    roll_no = table_of(state).get("rolls", 0)
    dice = (
        c.dice
        if c.dice is not None
        else checks.roll_dice(random_seed(state), checks.dice_to_roll(notation), roll_no)
    )
    result = checks.evaluate(notation, dice)
    return [
        CheckRolled(
            notation=notation.text(),
            dice=result.dice,
            kept=result.kept,
            success=result.success,
            jackpot=result.jackpot,
            bad_beat=result.bad_beat,
            achieved=result.achieved,
            roll_no=roll_no,
            given=c.dice is not None,
            by=c.by,
        )
    ]


@decider(ShareResidence)
def decide_share_residence(state: State, c: ShareResidence) -> list[Event]:
    """Decide cohabitation: the same region and residence, points split evenly or as agreed."""
    check_rule_adopted(state, "cohabitation")
    for name in c.names:
        character(state, name)
    check_name(c.region, msg("magicpunk.what.region", "a region"))
    check_name(c.residence, msg("magicpunk.what.residence", "a residence"))
    lifestyle.check_residence(c.names, c.residence)
    require(
        c.residence_points >= 0 and c.region_points >= 0,
        "MP-COHAB-1",
        msg(
            "magicpunk.cohab.negative_points",
            "living points are 0 or more, got {residence} for the residence and {region} for "
            "the region",
            residence=c.residence_points,
            region=c.region_points,
        ),
    )
    split = (
        c.split if c.split is not None else lifestyle.even_split(c.residence_points, len(c.names))
    )
    lifestyle.check_split(c.residence_points, split, len(c.names))
    return [
        ResidenceShared(
            names=c.names,
            region=c.region,
            residence=c.residence,
            region_points=c.region_points,
            residence_points=c.residence_points,
            split=tuple(split),
        )
    ]


@decider(StartLeisure)
def decide_start_leisure(state: State, c: StartLeisure) -> list[Event]:
    """Decide the start of a leisure."""
    return [LeisureStarted()]


@decider(TakeLeisureEvent)
def decide_take_leisure_event(state: State, c: TakeLeisureEvent) -> list[Event]:
    """Decide a leisure roll; a shared event already taken moves by safety (MP-COHAB-2)."""
    ch = character(state, c.name)
    require(
        c.roll >= 1,
        "MP-COHAB-2",
        msg(
            "magicpunk.leisure.roll_below_1", "a leisure roll is 1 or more, got {roll}", roll=c.roll
        ),
    )
    require(
        c.table in lifestyle.SHARED_TABLES,
        "MP-COHAB-2",
        msg(
            "magicpunk.leisure.unknown_table",
            "unknown leisure table {table!r} (town or wilds)",
            table=c.table,
        ),
    )
    life = ch["lifestyle"]
    if life is None or not life["cohabitants"]:
        return [
            LeisureEventTaken(
                name=c.name,
                roll=c.roll,
                safety=c.safety,
                result=c.roll,
                shared=False,
                table=c.table,
            )
        ]
    shared = lifestyle.SHARED_TABLES[c.table]
    taken = table_of(state).get("leisure", {}).get(leisure_group(state, c.name), [])
    result = lifestyle.shared_leisure_roll(c.roll, c.safety, taken, shared)
    return [
        LeisureEventTaken(
            name=c.name,
            roll=c.roll,
            safety=c.safety,
            result=result,
            shared=result in shared,
            table=c.table,
            shared_event=shared.get(result),
        )
    ]
