"""The texts of the magicpunk events: their one-line descriptions and audit lines, as data.

An event that applies different RULES.md clauses from one occurrence to the next (a rebuild of
items only, damage with or without pulled punches) has an explainer whose ``rule`` line names
exactly those clauses; the others have the default (their class's rule IDs and breakdown).
Draws, plays and charges follow the card decisions of RULES.md's magicpunk preamble, which have
no rule ID; a circulation names the one MP-CIRC clause that caused it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events.magicpunk import (
    BriefingEnded,
    BriefingStarted,
    CardsCharged,
    CardsCirculated,
    CardsDrawn,
    CardsPlayed,
    CharacterAdded,
    CheckRolled,
    CoverTaken,
    DamageTaken,
    DawnReached,
    Healed,
    ItemAdded,
    ItemReadied,
    LeisureEventTaken,
    LeisureStarted,
    MoneyGained,
    PreparationTaken,
    ProcurementAssessed,
    Rebuilt,
    ResidenceShared,
    RestTaken,
    RoundStarted,
    SpellLearned,
    TurnTaken,
)
from tablelog.rules.core import RuleViolation
from tablelog.rules.magicpunk.checks import parse_notation
from tablelog.rules.magicpunk.clock import at_msg, at_text
from tablelog.rules.magicpunk.combat import BRIEFING_PACKAGES
from tablelog.rules.magicpunk.rebuild import BASE_POOL, acquisitions
from tablelog.rules.magicpunk.text import abilities, article, codes, listing, skills
from tablelog.text import Listed, Msg, Shown, Term, msg, msgn
from tablelog.texts.core import breakdown_lines, describes, explains, rules_line, shows
from tablelog.texts.sheet import Adds, Gauge, Sheet, View

__all__: list[str] = []


def _audit(rule_ids: list[str], breakdown: dict[str, Any] | None = None) -> list[Msg]:
    """Return ``rule A, B`` (none for no rule) and one ``KEY = VALUE`` line per input."""
    return rules_line(rule_ids) + breakdown_lines("magicpunk", breakdown)


# -- cards -----------------------------------------------------------------------------------


@describes(CardsDrawn)
def _cards_drawn(e: CardsDrawn) -> Msg:
    return msg(
        "magicpunk.event.drawn",
        "{who} draws {cards}{shuffle}",
        who=e.who,
        cards=codes(e.cards),
        shuffle=msg("magicpunk.event.reshuffled", " (discard pile reshuffled)")
        if e.reshuffle_at is not None
        else "",
    )


@describes(CardsPlayed)
def _cards_played(e: CardsPlayed) -> Msg:
    return msg("magicpunk.event.played", "{who} plays {cards}", who=e.who, cards=codes(e.cards))


@describes(CardsCharged)
def _cards_charged(e: CardsCharged) -> Msg:
    return msg(
        "magicpunk.event.charged",
        "{by} charges {item} with {cards}",
        by=e.by,
        item=e.item,
        cards=codes(e.cards),
    )


@describes(CardsCirculated)
def _cards_circulated(e: CardsCirculated) -> Msg:
    recorded = e.at_minute is not None and at_text(e.at_minute) == e.at
    at: Any = at_msg(e.at_minute) if recorded and e.at_minute is not None else e.at
    return msg(
        "magicpunk.event.circulated",
        "{holder} circulates{when} ({rule}): {discarded} -> {drawn}{into}",
        holder=e.holder,
        when=msg("magicpunk.event.at", " at {at}", at=at) if e.at else "",
        rule=e.rule,
        discarded=codes(e.discarded),
        drawn=codes(e.drawn),
        into=msg("magicpunk.event.into_hand", " into {name}'s hand", name=e.drawn_to)
        if e.drawn_to not in (None, e.holder)
        else "",
    )


@explains(CardsCirculated)
def _cards_circulated_audit(e: CardsCirculated) -> list[Msg]:
    return _audit([e.rule], {"discarded": codes(e.discarded), "drawn": codes(e.drawn)})


# -- growth and downtime -----------------------------------------------------------------------


@describes(MoneyGained)
def _money_gained(e: MoneyGained) -> Msg:
    if e.spell_only:
        return msg(
            "magicpunk.event.money_spell_only",
            "{name} gains {amount} spell-only Mj",
            name=e.name,
            amount=e.amount,
        )
    return msg("magicpunk.event.money", "{name} gains {amount} Mj", name=e.name, amount=e.amount)


@explains(MoneyGained)
def _money_gained_audit(e: MoneyGained) -> list[Msg]:
    """Scenario money is B of the rebuild refund (MP-REBUILD-8); spell-only money is not."""
    return _audit([] if e.spell_only else ["MP-REBUILD-8"])


@describes(SpellLearned)
def _spell_learned(e: SpellLearned) -> Msg:
    paid: Any
    if e.free:
        paid = msg("magicpunk.event.spell_free", "free (price {price} Mj)", price=e.price)
    else:
        parts: list[Msg] = []
        if e.from_spell_money:
            parts.append(
                msg("magicpunk.event.spell_only_mj", "{mj} spell-only Mj", mj=e.from_spell_money)
            )
        if e.from_money or not parts:
            parts.append(msg("magicpunk.event.mj", "{mj} Mj", mj=e.from_money))
        paid = (
            parts[0]
            if len(parts) == 1
            else msg(
                "magicpunk.event.paid_both",
                "{spell_only} + {money}",
                spell_only=parts[0],
                money=parts[1],
            )
        )
    return msg(
        "magicpunk.event.spell_learned",
        "{name} learns {spell} ({gate} gate, tier {tier}, {paid})",
        name=e.name,
        spell=e.spell,
        gate=e.gate,
        tier=e.tier,
        paid=paid,
    )


@describes(Rebuilt)
def _rebuilt(e: Rebuilt) -> Msg:
    return msg(
        "magicpunk.event.rebuilt",
        "{name} rebuilt: {abilities}; {skills}; money {before} -> {after} Mj",
        name=e.name,
        abilities=abilities(e.abilities_after),
        skills=skills(e.skills_after),
        before=e.money_before,
        after=e.money_after,
    )


@explains(Rebuilt)
def _rebuilt_audit(e: Rebuilt) -> list[Msg]:
    """Name the rebuild clauses of the parts rebuilt: abilities, conversions, skills, items,
    spells (MP-REBUILD-12, the lifestyle, is never touched and changes nothing)."""
    return _audit(_rebuild_rule_ids(e), e.breakdown)


def _rebuild_rule_ids(e: Rebuilt) -> list[str]:
    pool0, acq0 = sum(e.abilities_before.values()), acquisitions(e.skills_before)
    d_pool = e.breakdown.get("ability_pool", pool0) - pool0
    d_acq = e.breakdown.get("acquisitions", acq0) - acq0
    ids = []
    if e.abilities_after != e.abilities_before or d_pool:
        ids += ["MP-REBUILD-1", "MP-REBUILD-3"]
        ids += ["MP-REBUILD-4"] if e.breakdown.get("ability_pool", 0) > BASE_POOL else []
    ids += ["MP-REBUILD-2"] if d_pool < 0 or d_acq > 0 else []
    ids += ["MP-REBUILD-5", "MP-REBUILD-7"] if e.skills_after != e.skills_before else []
    ids += ["MP-REBUILD-6"] if d_acq < 0 or d_pool > 0 else []
    ids += ["MP-REBUILD-8", "MP-REBUILD-9"] if "A_creation" in e.breakdown else []
    ids += ["MP-REBUILD-10"] if e.spells_unlearned else []
    return ids


@describes(ProcurementAssessed)
def _procurement_assessed(e: ProcurementAssessed) -> Msg:
    what = msg("magicpunk.event.procured_item", "{item}: ", item=e.item) if e.item else ""
    if not e.check_needed:
        return msg(
            "magicpunk.event.procured_no_check",
            "{who} procures {what}rarity {rarity}, no check",
            who=e.who,
            what=what,
            rarity=e.rarity,
        )
    return msg(
        "magicpunk.event.procured_check",
        "{who} procures {what}rarity {rarity}: Intellect check, challenge +{challenge}, "
        "+{dice} for time",
        who=e.who,
        what=what,
        rarity=e.rarity,
        challenge=e.challenge,
        dice=_dice(e.time_dice),
    )


def _dice(n: int) -> Msg:
    return msgn("magicpunk.count.dice", "{n} die", "{n} dice", n)


@explains(ProcurementAssessed)
def _procurement_assessed_audit(e: ProcurementAssessed) -> list[Msg]:
    """The rarity table (MP-PROC-2); the procurement check (MP-PROC-1) only if needed; each
    row of the table with what it adds, a chosen row by its name (``material = 魔殻 (2)``)."""
    ids = ["MP-PROC-1", "MP-PROC-2"] if e.check_needed else ["MP-PROC-2"]
    named = {key: value for key, value in e.breakdown.items() if key in e.rows}
    lines = [
        line
        for key, value in e.breakdown.items()
        for line in (
            [
                msg(
                    "magicpunk.audit.rarity_row",
                    "{key} = {row} ({value})",
                    key=Term("magicpunk.breakdown", key),
                    row=Term(f"magicpunk.{key}", e.rows[key]),
                    value=value,
                )
            ]
            if key in named
            else breakdown_lines("magicpunk", {key: value})
        )
    ]
    return rules_line(ids) + lines


@describes(CheckRolled)
def _check_rolled(e: CheckRolled) -> Msg:
    outcome: Any
    if e.bad_beat:
        outcome = Term("magicpunk.outcome", "bad beat")
    elif e.jackpot:
        outcome = Term("magicpunk.outcome", "jackpot")
    elif e.success:
        outcome = msg(
            "magicpunk.event.check_success",
            "{success} ({achieved})",
            success=Term("magicpunk.outcome", "success"),
            achieved=e.achieved,
        )
    else:
        outcome = Term("magicpunk.outcome", "failure")
    english = msg(
        "magicpunk.event.check_line",
        "{notation} rolled {dice}: {outcome}",
        notation=e.notation,
        dice=Listed(e.dice, "comma"),
        outcome=outcome,
    )
    facts = (e.notation, e.dice, e.success, e.jackpot, e.bad_beat, e.achieved)
    return msg(
        "magicpunk.event.check_rolled",
        "{who}{roll}",
        who=msg("magicpunk.event.roller", "{by}: ", by=e.by) if e.by else "",
        roll=Shown("magicpunk.check", facts, english),
    )


@shows("magicpunk.check")
def _bcdice_line(facts: tuple[Any, ...], lang: str, say: Callable[[Any], str]) -> str | None:
    """A check as BCDice prints it in Japanese and Korean (its ``MagicPunk`` and
    ``MagicPunk:Korean`` systems): ``(3MP15C5) > [10,4,18] > 成功(10)``; English: None (the
    event's own line).

    Source: BCDice (bcdice/BCDice) lib/bcdice/game_system/MagicPunk.rb and its test data
    test/data/MagicPunk.toml, MagicPunk_Korean.toml (the lines it prints).
    """
    if lang == "en":
        return None
    notation, dice, success, jackpot, bad_beat, achieved = facts
    try:
        check = parse_notation(notation)
    except RuleViolation:
        return None
    if bad_beat:
        result = say(msg("magicpunk.bcdice.bad_beat", "Failure(BB)"))
    elif jackpot:
        result = say(msg("magicpunk.bcdice.jackpot", "Success(JP)"))
    elif success:
        result = say(msg("magicpunk.bcdice.success", "Success({value})", value=achieved))
    else:
        result = say(msg("magicpunk.bcdice.failure", "Failure"))
    head = f"({check.dice}MP{check.target}C{check.challenge or 0})"
    return f"{head} > [{','.join(str(d) for d in dice)}] > {result}"


@describes(ResidenceShared)
def _residence_shared(e: ResidenceShared) -> Msg:
    shares = tuple(
        msg("magicpunk.event.share", "{name} {points}", name=n, points=s)
        for n, s in zip(e.names, e.split, strict=True)
    )
    return msg(
        "magicpunk.event.residence_shared",
        "{names} share {residence} in {region} (residence points: {shares})",
        names=listing(e.names),
        residence=article(e.residence),
        region=e.region,
        shares=Listed(shares, "comma"),
    )


@describes(LeisureStarted)
def _leisure_started(e: LeisureStarted) -> Msg:
    return msg("magicpunk.event.leisure_started", "leisure begins")


@describes(LeisureEventTaken)
def _leisure_event_taken(e: LeisureEventTaken) -> Msg:
    moved = (
        msg("magicpunk.event.leisure_moved", ", moved to {result}", result=e.result)
        if e.result != e.roll
        else ""
    )
    same = (
        msg("magicpunk.event.leisure_same", "; the same event as {event}", event=e.shared_event)
        if e.shared_event not in (None, e.result)
        else ""
    )
    scope = (
        msg("magicpunk.event.leisure_shared", " (every cohabitant{same})", same=same)
        if e.shared
        else ""
    )
    return msg(
        "magicpunk.event.leisure_rolled",
        "{name} rolls {roll} on the {table} leisure table{moved}{scope}",
        name=e.name,
        roll=e.roll,
        table=Term("magicpunk.leisure_table", e.table),
        moved=moved,
        scope=scope,
    )


@explains(LeisureEventTaken)
def _leisure_event_taken_audit(e: LeisureEventTaken) -> list[Msg]:
    """MP-COHAB-2 when the roll is a shared event or was moved off a taken one."""
    return _audit(["MP-COHAB-2"] if e.shared or e.result != e.roll else [])


# -- the table -------------------------------------------------------------------------------


@describes(CharacterAdded)
def _character_added(e: CharacterAdded) -> Msg:
    return msg(
        "magicpunk.event.character_added",
        "{name}: {abilities}, HP {hp}, {money} Mj",
        name=e.name,
        abilities=abilities(
            {"body": e.body, "sense": e.sense, "intellect": e.intellect, "magic": e.magic}
        ),
        hp=e.hp_max,
        money=e.money,
    )


@describes(ItemAdded)
def _item_added(e: ItemAdded) -> Msg:
    return msg(
        "magicpunk.event.item_added",
        "{item} -> {owner}{paid}{gear}",
        item=e.item,
        owner=e.owner,
        paid=msg("magicpunk.event.item_price", " for {price} Mj", price=e.price) if e.price else "",
        gear=msg(
            "magicpunk.event.item_gear",
            ", Ma-GEAR occupying {slots} magic slots",
            slots=e.gear_slots,
        )
        if e.gear_slots
        else "",
    )


@describes(ItemReadied)
def _item_readied(e: ItemReadied) -> Msg:
    return msg(
        "magicpunk.event.item_readied",
        "{item} readied ({free} of {needed} magic slots free: {effect})",
        item=e.item,
        free=e.slots_free,
        needed=e.slots_needed,
        effect=msg("magicpunk.event.gear_active", "Ma-GEAR effect active")
        if e.gear_active
        else msg("magicpunk.event.gear_inactive", "base item effect only"),
    )


@describes(RestTaken)
def _rest_taken(e: RestTaken) -> Msg:
    return msg(
        "magicpunk.event.rest",
        "{package} rest ({slept}) for {who}, {start} to {end}",
        package=Term("magicpunk.rest", e.package),
        slept=msg("magicpunk.event.with_sleep", "with sleep")
        if e.sleep
        else msg("magicpunk.event.no_sleep", "no sleep"),
        who=listing(e.who, empty=msg("magicpunk.nobody", "nobody")),
        start=at_msg(e.start),
        end=at_msg(e.end),
    )


@describes(DawnReached)
def _dawn_reached(e: DawnReached) -> Msg:
    hours, minutes = divmod(e.end - e.start, 60)
    return msg(
        "magicpunk.event.dawn",
        "dawn: {at} ({hours} h {minutes:02d} min later)",
        at=at_msg(e.end),
        hours=hours,
        minutes=minutes,
    )


@describes(DamageTaken)
def _damage_taken(e: DamageTaken) -> Msg:
    """Say what happened: the HP lost, and the damage dealt when pulled punches cut it."""
    cover = (
        msg("magicpunk.event.covering", " covering {name}", name=e.covering) if e.covering else ""
    )
    lost = e.amount if e.hp_before is None or e.hp_after is None else e.hp_before - e.hp_after
    if lost == e.amount:
        return msg(
            "magicpunk.event.damage",
            "{target} takes {amount} damage{pulled}{cover}",
            target=e.target,
            amount=e.amount,
            pulled=msg("magicpunk.event.pulled", " (pulled punches)") if e.pull_punches else "",
            cover=cover,
        )
    if lost == 0:
        return msg(
            "magicpunk.event.damage_none",
            "{target} takes no damage{cover}: pulled punches, already at {hp} HP ({amount} dealt)",
            target=e.target,
            cover=cover,
            hp=e.hp_before,
            amount=e.amount,
        )
    return msg(
        "magicpunk.event.damage_pulled",
        "{target} takes {lost} damage{cover} ({amount} dealt, pulled punches stop at {hp} HP)",
        target=e.target,
        lost=lost,
        cover=cover,
        amount=e.amount,
        hp=e.hp_after,
    )


@explains(DamageTaken)
def _damage_taken_audit(e: DamageTaken) -> list[Msg]:
    """MP-PULL-1 with pulled punches, MP-COVER-1 for a coverer; plain damage names none."""
    return _audit(
        (["MP-PULL-1"] if e.pull_punches else []) + (["MP-COVER-1"] if e.covering else [])
    )


@describes(Healed)
def _healed(e: Healed) -> Msg:
    """Say what happened: the HP healed, and what was asked when max HP capped it."""
    if e.hp_before is None or e.hp_after is None:
        return msg("magicpunk.event.healed", "{target} heals {hp} HP", target=e.target, hp=e.amount)
    healed = e.hp_after - e.hp_before
    if healed != e.amount:
        return msg(
            "magicpunk.event.healed_capped",
            "{target} heals {hp} HP ({amount} asked, capped at max)",
            target=e.target,
            hp=healed,
            amount=e.amount,
        )
    return msg("magicpunk.event.healed", "{target} heals {hp} HP", target=e.target, hp=healed)


@describes(CoverTaken)
def _cover_taken(e: CoverTaken) -> Msg:
    return msg(
        "magicpunk.event.cover",
        "{coverer} covers {covered} ({after})",
        coverer=e.coverer,
        covered=e.covered,
        after=msg("magicpunk.event.stays_acted", "stays acted next round")
        if e.was_acted
        else msg("magicpunk.event.now_acted", "is now acted"),
    )


@describes(TurnTaken)
def _turn_taken(e: TurnTaken) -> Msg:
    return msg("magicpunk.event.acts", "{name} acts", name=e.name)


@describes(RoundStarted)
def _round_started(e: RoundStarted) -> Msg:
    return msg("magicpunk.event.round", "round {number} begins", number=e.number)


@describes(BriefingStarted)
def _briefing_started(e: BriefingStarted) -> Msg:
    return msg(
        "magicpunk.event.briefing_started",
        "briefing begins: {package}",
        package=BRIEFING_PACKAGES.get(e.package, e.package),
    )


@describes(PreparationTaken)
def _preparation_taken(e: PreparationTaken) -> Msg:
    return msg(
        "magicpunk.event.prepares",
        "{who} ({side}) prepares{note}",
        who=e.who,
        side=msg("magicpunk.event.aware_enemy", "an aware enemy")
        if e.side == "enemy"
        else msg("magicpunk.event.a_pc", "a PC"),
        note=msg("magicpunk.event.note", ": {note}", note=e.note) if e.note else "",
    )


@describes(BriefingEnded)
def _briefing_ended(e: BriefingEnded) -> Msg:
    return msg("magicpunk.event.briefing_ended", "briefing over")


def _palette(name: str, record: dict[str, Any], lang: str) -> list[str]:
    """A character's checks as BCDice's MagicPunk reads them: ``1MP{体}`` for each ability
    (its value the param of that label), and a draw."""
    from tablelog.rules import glossary

    lines = []
    for ability in ("body", "sense", "intellect", "magic"):
        word = glossary.word("magicpunk.field", ability, lang)
        lines.append(f"1MP{{{word}}} {word}")
    lines.append(f"tablelog magicpunk draw {name} 1")
    return lines


SHEET = Sheet(
    system="magicpunk",
    characters=View(
        gauges=(Gauge("hp", "hp_max"),),
        figures=("body", "sense", "intellect", "magic", "money", "spell_money"),
        tables=(("skills", "magicpunk.skill"), ("spells", "magicpunk.gate")),
        words=("items",),
        cards=("hand",),
        internal=(
            "money_at_creation",
            "money_from_scenarios",
            "money_converted",
            "acted",
            "stays_acted",
            "lifestyle",
        ),
    ),
    items=View(
        figures=("owner", "price", "gear_slots", "readied", "gear_active"),
        cards=("cards",),
    ),
    palette=_palette,
    adds=(
        Adds(
            "magicpunk character add",
            options=(
                ("body", "--body", True),
                ("sense", "--sense", True),
                ("intellect", "--intellect", True),
                ("magic", "--magic", True),
                ("hp_max", "--hp", True),
                ("money", "--money", False),
            ),
            tables=(("skills", "--skill", "magicpunk.skill"),),
            free=(("magicpunk.skill", "magicpunk.rank"),),
        ),
    ),
    dicebot={"ja": "MagicPunk", "ko": "MagicPunk:Korean", "en": "MagicPunk"},
)
"""How a magicpunk character and item read (the page, the ccfolia and Udonarium exports)."""
