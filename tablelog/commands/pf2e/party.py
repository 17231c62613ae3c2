"""Deciders of pf2e characters and items: joining, formulas, bringing in, giving, investing,
activating (pure: state, command -> events or RuleViolation)."""

from __future__ import annotations

from tablelog.commands.core import decider
from tablelog.commands.pf2e import (
    ActivateRune,
    AddCharacter,
    AddItem,
    GiveItem,
    InvestItem,
    LearnFormula,
)
from tablelog.events.core import Event
from tablelog.events.pf2e import (
    CharacterAdded,
    FormulaLearned,
    ItemAdded,
    ItemGiven,
    ItemInvested,
    RuneActivated,
)
from tablelog.projections.core import State
from tablelog.projections.pf2e.checks import (
    character,
    check_activation,
    check_invest,
    check_new_name,
    etching_text,
    item,
)
from tablelog.projections.pf2e.sheets import sheet_of
from tablelog.rules import pf2e as rules
from tablelog.rules.core import RuleViolation, require
from tablelog.text import Term, msg

__all__: list[str] = []


@decider(AddCharacter)
def decide_add_character(state: State, c: AddCharacter) -> list[Event]:
    """Add a character with a new name, level 1..20 and a Crafting rank.

    Magical Crafting (the ability to craft magic items) needs expert in Crafting: it defaults to
    yes from expert on, and is refused for a trained crafter (PF2E-ETCH-1, issue 15 item 20).
    """
    check_new_name(state, c.name)
    require(
        1 <= c.level <= 20,
        "PF2E-ETCH-1",
        msg("pf2e.character.level_range", "level must be 1..20, not {level}", level=c.level),
    )
    require(c.crafting in rules.RANKS, "PF2E-XFER-8", rules.unknown_rank_text(c.crafting))
    expert = rules.rank_at_least(c.crafting, rules.MAGICAL_CRAFTING_RANK)
    require(
        expert or not c.magical_crafting,
        "PF2E-ETCH-1",
        msg(
            "pf2e.character.magical_crafting_rank",
            "{name} is {rank} in Crafting: crafting magic items (Magical Crafting) needs "
            "{needed}; add --no-magical-crafting or a higher --crafting",
            name=c.name,
            rank=Term("pf2e.rank", c.crafting),
            needed=Term("pf2e.rank", rules.MAGICAL_CRAFTING_RANK),
        ),
    )
    magical = expert if c.magical_crafting is None else c.magical_crafting
    return [
        CharacterAdded(name=c.name, level=c.level, crafting=c.crafting, magical_crafting=magical)
    ]


@decider(LearnFormula)
def decide_learn_formula(state: State, c: LearnFormula) -> list[Event]:
    """Record a formula, priced as an item formula of the rune's level (PF2E-FORMULA-1)."""
    who = character(state, c.character)
    rune = rules.rune(c.rune)
    require(
        rune.id not in who["formulas"],
        "PF2E-FORMULA-1",
        msg(
            "pf2e.formula.known",
            "{character} already has the formula for {rune}",
            character=c.character,
            rune=Term("pf2e.rune", rune.id),
        ),
    )
    return [
        FormulaLearned(
            character=c.character,
            rune=rune.id,
            level=rune.level,
            price_cp=rules.formula_price_cp(rune.level),
            bought=c.buy,
        )
    ]


@decider(AddItem)
def decide_add_item(state: State, c: AddItem) -> list[Event]:
    """Add an item whose base is in the catalogue, held by a known character or nobody."""
    check_new_name(state, c.item)
    base = rules.base_item(c.base)
    if c.owner is not None:
        character(state, c.owner)
    return [
        ItemAdded(
            item=c.item,
            base=base.id,
            owner=c.owner,
            category=base.category,
            sheet=sheet_of(base, ()),
        )
    ]


@decider(GiveItem)
def decide_give_item(state: State, c: GiveItem) -> list[Event]:
    """Hand an item over; refused while an etch is in progress (held throughout, PF2E-ETCH-1)."""
    record = item(state, c.item)
    character(state, c.to)
    require(
        record["owner"] != c.to,
        "PF2E-ETCH-1",
        msg("pf2e.give.already_holds", "{to} already holds {item}", to=c.to, item=c.item),
    )
    if record["etching"] is not None:
        raise RuleViolation(
            "PF2E-ETCH-1",
            msg(
                "pf2e.give.etch_in_progress",
                "{item} has an etch in progress ({etching}): the crafter must hold it "
                "throughout; finish it first: pf2e finish {item}",
                item=c.item,
                etching=etching_text(record["etching"]),
            ),
        )
    return [ItemGiven(item=c.item, giver=record["owner"], to=c.to)]


@decider(InvestItem)
def decide_invest_item(state: State, c: InvestItem) -> list[Event]:
    """Invest armor with runes; the investing character must hold it (PF2E-INVEST-1)."""
    check_invest(state, c.item, c.by)
    return [ItemInvested(item=c.item, by=c.by)]


@decider(ActivateRune)
def decide_activate_rune(state: State, c: ActivateRune) -> list[Event]:
    """Log the activation of an active rune by the character holding (and investing) the item."""
    rune = rules.rune(c.rune)
    check_activation(state, c.item, rune.id, c.by)
    return [RuneActivated(item=c.item, rune=rune.id, by=c.by, note=c.note)]
