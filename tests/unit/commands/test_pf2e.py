"""pf2e deciders: given events, when a command, then events (or a refusal naming the rule)."""

from __future__ import annotations

import attrs
import pytest

from tablelog.commands.core import decide
from tablelog.commands.pf2e import (
    ActivateRune,
    AddCharacter,
    AddItem,
    EtchRune,
    FinishEtching,
    GiveItem,
    InvestItem,
    LearnFormula,
    TransferRune,
)
from tablelog.events.pf2e import (
    CharacterAdded,
    FormulaLearned,
    ItemAdded,
    ItemGiven,
    ItemInvested,
    RuneActivated,
    RuneEtched,
    RuneEtchingBegun,
    RunestoneCracked,
    RuneTransferFailed,
    RuneTransferred,
)
from tablelog.lang import ENGLISH
from tablelog.projections import pf2e as projection
from tablelog.projections.core import State, check, evolve
from tablelog.rules import pf2e as rules
from tablelog.rules.core import RuleViolation
from tests.support.decider import refused, then

rule = pytest.mark.rule


def given(*events) -> State:
    """Fold events into a fresh pf2e state, each checked against its precondition first."""
    state = State(system="pf2e")
    projection.init_state(state, {})
    for e in events:
        check(state, e)
        evolve(state, e)
    return state


def formulas(name: str, *runes: str) -> list:
    return [FormulaLearned(character=name, rune=r, level=0, price_cp=0) for r in runes]


SMITH = [
    CharacterAdded(name="Valeros", level=14),
    CharacterAdded(name="Kyra", level=8),
    *formulas(
        "Valeros",
        "weapon-potency-1",
        "weapon-potency-2",
        "striking",
        "flaming",
        "frost",
        "armor-potency-1",
        "vitalizing",
        "animated",
    ),
    ItemAdded(item="sword", base="longsword", owner="Valeros"),
    ItemAdded(item="bow", base="longbow", owner="Valeros"),
    ItemAdded(item="mace", base="mace", owner="Kyra"),
    ItemAdded(item="stone", base="runestone", owner="Valeros"),
]


def etched(
    item: str,
    rune: str,
    price_cp: int,
    level: int,
    by: str = "Valeros",
    replaces: str | None = None,
) -> RuneEtched:
    return RuneEtched(
        item=item, rune=rune, by=by, level=level, price_cp=price_cp, replaces=replaces
    )


PLUS1_SWORD = [*SMITH, etched("sword", "weapon-potency-1", 3500, 2)]


# --- characters, formulas, items ------------------------------------------------------------


@rule("PF2E-FORMULA-1")
@pytest.mark.parametrize(
    ("rune", "buy", "price_cp", "spent_gp"),
    [("flaming", False, 2500, 0), ("greater-striking", True, 10000, 100)],
)
def test_formula_priced_by_rune_level_and_charged_only_when_bought(rune, buy, price_cp, spent_gp):
    """A formula is priced as an item formula of the rune's level; --buy charges it."""
    after, events = then(
        given(CharacterAdded(name="Ezren", level=5)),
        LearnFormula(character="Ezren", rune=rune, buy=buy),
    )
    assert (price_cp, [rune], spent_gp) == (
        events[0].price_cp,
        after.characters["Ezren"]["formulas"],
        after.characters["Ezren"]["spent_gp"],
    )


@rule("PF2E-FORMULA-1")
def test_formula_refusals():
    """An unknown character or rune is UNKNOWN-NAME; a formula already known is FORMULA-1."""
    state = given(*SMITH)
    refused(
        state,
        LearnFormula(character="Nobody", rune="frost"),
        "UNKNOWN-NAME",
        "no character named 'Nobody'",
    )
    refused(
        state,
        LearnFormula(character="Valeros", rune="sharpness"),
        "UNKNOWN-NAME",
        "unknown rune 'sharpness'",
    )
    refused(
        state,
        LearnFormula(character="Valeros", rune="frost"),
        "PF2E-FORMULA-1",
        "already has the formula for frost",
    )


def test_names_are_unique_across_characters_and_items():
    """A character or item may not reuse a name already in the session."""
    state = given(*SMITH)
    refused(state, AddCharacter(name="sword"), "CORE-NAME", "'sword'")
    refused(state, AddItem(item="Kyra", base="dagger"), "CORE-NAME", "'Kyra'")
    refused(state, AddItem(item="axe-1", base="greataxe"), "UNKNOWN-NAME", "greataxe")
    refused(state, AddItem(item="axe-1", base="dagger", owner="Nobody"), "UNKNOWN-NAME", "Nobody")


# --- etching --------------------------------------------------------------------------------


@rule("PF2E-ETCH-1")
@pytest.mark.parametrize(
    ("command", "words"),
    [
        (
            EtchRune(item="mace", rune="striking", by="Valeros"),
            ["Valeros does not hold mace", "held by Kyra"],
        ),
        (EtchRune(item="sword", rune="shock", by="Valeros"), ["no formula for shock"]),
        (EtchRune(item="mace", rune="flaming", by="Kyra"), ["Kyra has no formula for flaming"]),
    ],
)
def test_etch_needs_crafter_holding_item_with_formula(command, words):
    """Etching needs the crafter holding the item and the rune's formula."""
    refused(given(*PLUS1_SWORD), command, "PF2E-ETCH-1", *words)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (EtchRune(item="axe", rune="frost", by="Valeros"), "no item named 'axe'"),
        (
            EtchRune(item="Kyra", rune="frost", by="Valeros"),
            "no item named 'Kyra' (it is a character)",
        ),
        (EtchRune(item="sword", rune="frost", by="Bob"), "no character named 'Bob'"),
        (
            EtchRune(item="sword", rune="frost", by="mace"),
            "no character named 'mace' (it is an item)",
        ),
        (
            EtchRune(item="sword", rune="sharpness", by="Valeros"),
            "unknown rune 'sharpness' (not in the rune catalogue)",
        ),
        (LearnFormula(character="Bob", rune="frost"), "no character named 'Bob'"),
        (GiveItem(item="sword", to="Bob"), "no character named 'Bob'"),
        (GiveItem(item="axe", to="Kyra"), "no item named 'axe'"),
        (FinishEtching(item="axe"), "no item named 'axe'"),
        (InvestItem(item="axe", by="Kyra"), "no item named 'axe'"),
        (InvestItem(item="mace", by="Bob"), "no character named 'Bob'"),
        (ActivateRune(item="axe", rune="flaming", by="Valeros"), "no item named 'axe'"),
        (
            ActivateRune(item="sword", rune="sharpness", by="Valeros"),
            "unknown rune 'sharpness' (not in the rune catalogue)",
        ),
        (
            TransferRune(rune="frost", source="axe", target="sword", by="Valeros"),
            "no item named 'axe'",
        ),
        (
            TransferRune(rune="frost", source="stone", target="sword", by="Bob"),
            "no character named 'Bob'",
        ),
        (
            TransferRune(
                rune="frost", source="stone", target="sword", by="Valeros", swap="sharpness"
            ),
            "unknown rune 'sharpness' (not in the rune catalogue)",
        ),
    ],
)
def test_names_that_do_not_exist_are_unknown_name(command, message):
    """A character, item or rune that does not exist at all is UNKNOWN-NAME, whatever the verb."""
    with pytest.raises(RuleViolation) as err:
        decide(given(*PLUS1_SWORD), command)
    assert ("UNKNOWN-NAME", message) == (err.value.rule_id, err.value.message)


@rule("PF2E-ETCH-1")
def test_etch_needs_level_at_least_the_rune_level_and_magical_crafting():
    """A level 8 crafter cannot etch a level 13 rune; a non-magical crafter cannot etch at all."""
    state = given(
        *SMITH,
        CharacterAdded(name="Amiri", level=20, magical_crafting=False),
        *formulas("Kyra", "animated"),
        *formulas("Amiri", "striking"),
        ItemGiven(item="sword", giver="Valeros", to="Kyra"),
        ItemAdded(item="club", base="club", owner="Amiri"),
    )
    refused(
        state,
        EtchRune(item="sword", rune="animated", by="Kyra"),
        "PF2E-ETCH-1",
        "Kyra is level 8, below animated's level 13",
    )
    refused(
        state,
        EtchRune(item="club", rune="striking", by="Amiri"),
        "PF2E-ETCH-1",
        "Amiri cannot craft magic items",
    )


@rule("PF2E-ETCH-1")
@pytest.mark.parametrize(
    ("rune", "needed"),
    [
        ("weapon-potency-1", "expert"),
        ("weapon-potency-2", "master"),
        ("weapon-potency-3", "legendary"),
        ("armor-potency-2", "master"),
        ("armor-potency-3", "legendary"),
        ("striking", "expert"),
        ("greater-striking", "master"),
        ("major-striking", "legendary"),
        ("resilient", "expert"),
        ("greater-resilient", "master"),
        ("major-resilient", "legendary"),
        ("minor-reinforcing", "expert"),
        ("supreme-reinforcing", "expert"),
        ("greater-flaming", "expert"),
        ("speed", "expert"),
    ],
)
def test_crafting_rank_each_rune_needs(rune, needed):
    """Issue 15 item 20: potency +1/+2/+3 need expert/master/legendary Crafting, and the tiers
    of striking and resilient likewise; every other rune needs expert (Magical Crafting)."""
    found = rules.rune(rune)
    assert needed == rules.crafting_rank_needed(found.family, found.tier)


RANKED = [
    CharacterAdded(name=name, level=20, crafting=rank)
    for name, rank in (
        ("Amiri", "trained"),
        ("Kyra", "expert"),
        ("Valeros", "master"),
        ("Seelah", "legendary"),
    )
]


@rule("PF2E-ETCH-1")
@pytest.mark.parametrize(
    ("by", "rune", "refusal"),
    [
        (
            "Amiri",
            "weapon-potency-3",
            "Amiri is trained in Crafting; etching weapon-potency-3 needs legendary",
        ),
        ("Amiri", "flaming", "Amiri is trained in Crafting; etching flaming needs expert"),
        (
            "Kyra",
            "weapon-potency-2",
            "Kyra is expert in Crafting; etching weapon-potency-2 needs master",
        ),
        (
            "Valeros",
            "weapon-potency-3",
            "Valeros is master in Crafting; etching weapon-potency-3 needs legendary",
        ),
        ("Kyra", "weapon-potency-1", None),
        ("Valeros", "weapon-potency-2", None),
        ("Seelah", "weapon-potency-3", None),
    ],
)
def test_etching_needs_the_crafting_rank_the_rune_needs(by, rune, refusal):
    """A trained crafter (an old log's, with magical crafting) etches no rune; +2 potency needs
    master, +3 legendary; the etch records the rank it needed."""
    state = given(
        *RANKED,
        FormulaLearned(character=by, rune=rune, level=0, price_cp=0),
        ItemAdded(item="sword", base="longsword", owner=by),
    )
    command = EtchRune(item="sword", rune=rune, by=by)
    if refusal:
        refused(state, command, "PF2E-ETCH-1", refusal)
    else:
        _, events = then(state, command)
        assert rules.crafting_rank_needed(rules.rune(rune).family, rules.rune(rune).tier) == (
            events[0].crafting
        )


@rule("PF2E-ETCH-1")
@pytest.mark.parametrize(
    ("crafting", "magical", "then_magical", "refusal"),
    [
        ("trained", None, False, None),
        ("expert", None, True, None),
        ("master", False, False, None),
        (
            "trained",
            True,
            None,
            "Merisiel is trained in Crafting: crafting magic items (Magical "
            "Crafting) needs expert; add --no-magical-crafting or a higher --crafting",
        ),
    ],
)
def test_magical_crafting_needs_expert_crafting(crafting, magical, then_magical, refusal):
    """Issue 15 item 20: Magical Crafting needs expert; unsaid, it follows the rank."""
    command = AddCharacter(name="Merisiel", level=9, crafting=crafting, magical_crafting=magical)
    if refusal:
        refused(given(), command, "PF2E-ETCH-1", refusal)
    else:
        _, events = then(given(), command)
        assert then_magical == events[0].magical_crafting


@rule("PF2E-ETCH-1")
@rule("PF2E-RUNE-5")
def test_etch_alias_records_catalogue_rune_and_charges_crafter():
    """`etch disrupting` records vitalizing (level 5, 150 gp) and Valeros pays for it."""
    after, events = then(
        given(*PLUS1_SWORD), EtchRune(item="sword", rune="disrupting", by="Valeros")
    )
    assert (
        [etched("sword", "vitalizing", 15000, 5)],
        185,
        5,
        (("weapon-potency-1", "vitalizing"), "+1 vitalizing longsword", 5, 18500),
    ) == (
        [_plain(e) for e in events],
        after.characters["Valeros"]["spent_gp"],
        after.items["sword"]["level"],
        (
            events[0].sheet.runes,
            events[0].sheet.name,
            events[0].sheet.level,
            events[0].sheet.price_cp,
        ),
    )


def _plain(e: RuneEtched) -> RuneEtched:
    """The event without its breakdown and sheet (asserted separately)."""
    return attrs.evolve(e, breakdown={}, sheet=None, crafting=None)


@rule("PF2E-ETCH-2")
def test_long_etch_has_no_effect_until_finished():
    """--begin records the etch in progress; the item changes only when it is finished."""
    state = given(*PLUS1_SWORD)
    begun, events = then(state, EtchRune(item="sword", rune="flaming", by="Valeros", begin=True))
    done, finished = then(begun, FinishEtching(item="sword"))
    assert (
        [RuneEtchingBegun(item="sword", rune="flaming", by="Valeros", level=8, crafting="expert")],
        "+1 longsword",
        {"rune": "flaming", "by": "Valeros"},
        35,
        "+1 flaming longsword",
        None,
        535,
    ) == (
        events,
        begun.items["sword"]["name"],
        begun.items["sword"]["etching"],
        begun.characters["Valeros"]["spent_gp"],
        done.items["sword"]["name"],
        done.items["sword"]["etching"],
        done.characters["Valeros"]["spent_gp"],
    )
    assert finished[0].rune == "flaming"


@rule("PF2E-ETCH-2")
def test_one_rune_at_a_time_per_item():
    """While an etch is in progress, a second etch, a transfer or a hand-over is refused."""
    state = given(
        *PLUS1_SWORD,
        etched("stone", "frost", 50000, 8),
        RuneEtchingBegun(item="sword", rune="flaming", by="Valeros"),
    )
    refused(
        state,
        EtchRune(item="sword", rune="striking", by="Valeros"),
        "PF2E-ETCH-2",
        "sword has an etch in progress (flaming by Valeros)",
    )
    refused(
        state,
        TransferRune(rune="frost", source="stone", target="sword", by="Valeros"),
        "PF2E-ETCH-2",
        "already etching flaming on sword",
    )
    refused(state, GiveItem(item="sword", to="Kyra"), "PF2E-ETCH-1", "hold it throughout")
    refused(
        given(*PLUS1_SWORD),
        FinishEtching(item="sword"),
        "PF2E-ETCH-2",
        "sword has no etch in progress",
    )


@rule("PF2E-ETCH-2")
def test_one_rune_at_a_time_per_crafter():
    """While Valeros etches flaming on the sword, he cannot etch or transfer elsewhere."""
    state = given(
        *PLUS1_SWORD,
        etched("stone", "frost", 50000, 8),
        RuneEtchingBegun(item="sword", rune="flaming", by="Valeros"),
    )
    refused(
        state,
        EtchRune(item="bow", rune="weapon-potency-1", by="Valeros"),
        "PF2E-ETCH-2",
        "Valeros is already etching flaming on sword",
    )
    refused(
        state,
        TransferRune(rune="frost", source="stone", target="bow", by="Valeros"),
        "PF2E-ETCH-2",
        "Valeros is already etching flaming on sword",
    )


@rule("PF2E-FUND-1")
@rule("PF2E-PROP-1")
@pytest.mark.parametrize(
    ("given_runes", "rune", "then_rune", "rule_id", "words"),
    [
        (
            [("weapon-potency-1", 3500, 2)],
            "weapon-potency-2",
            ("weapon-potency-2", 90000),
            None,
            [],
        ),
        (
            [("weapon-potency-2", 93500, 10)],
            "weapon-potency-1",
            None,
            "PF2E-FUND-1",
            ["sword already has weapon-potency-2"],
        ),
        (
            [("weapon-potency-1", 3500, 2), ("flaming", 50000, 8)],
            "flaming",
            None,
            "PF2E-RUNE-2",
            ["its one property slot holds flaming: no slot for flaming"],
        ),
        (
            [("weapon-potency-1", 3500, 2), ("flaming", 50000, 8)],
            "frost",
            None,
            "PF2E-RUNE-2",
            ["no slot for frost"],
        ),
    ],
)
def test_upgrades_and_duplicates(given_runes, rune, then_rune, rule_id, words):
    """A stronger tier upgrades for the price difference; an equal or weaker fundamental is
    refused, a second property rune of a kind needs a free slot."""
    master = CharacterAdded(name="Valeros", level=14, crafting="master")
    state = given(master, *SMITH[1:], *(etched("sword", r, p, lv) for r, p, lv in given_runes))
    command = EtchRune(item="sword", rune=rune, by="Valeros")
    if rule_id:
        refused(state, command, rule_id, *words)
    else:
        _, events = then(state, command)
        assert then_rune == (events[0].rune, events[0].price_cp)


GREATER_FLAMING = [
    CharacterAdded(name="Seelah", level=16, crafting="master"),
    *formulas("Seelah", "weapon-potency-2", "greater-flaming", "flaming"),
    ItemAdded(item="sword", base="longsword", owner="Seelah"),
    ItemAdded(item="stone", base="runestone", owner="Seelah"),
    etched("sword", "weapon-potency-2", 93500, 10, by="Seelah"),
    etched("sword", "greater-flaming", 650000, 15, by="Seelah"),
    etched("stone", "flaming", 50000, 8, by="Seelah"),
]


@rule("PF2E-PROP-1")
def test_a_second_flaming_on_a_greater_flaming_weapon_is_etched_and_says_it_has_no_effect():
    """Issue 15 item 19: flaming onto a +2 greater flaming longsword with a free slot is etched
    (500 gp); the event says greater flaming applies and flaming has no effect."""
    after, events = then(
        given(*GREATER_FLAMING), EtchRune(item="sword", rune="flaming", by="Seelah")
    )
    sword = after.items["sword"]
    assert (
        ENGLISH.event(events[0]),
        sword["name"],
        sword["property"],
        sword["dormant"],
        sword["price_gp"],
        ENGLISH.explain(events[0])[0],
    ) == (
        "flaming -> sword (level 8, 500 gp; greater-flaming applies, flaming has no effect)",
        "+2 greater flaming longsword",
        ["greater-flaming"],
        ["flaming"],
        7935,
        "rule PF2E-ETCH-1, PF2E-RUNE-3, PF2E-RUNE-5, PF2E-PRICE-1, PF2E-PROP-1",
    )


@rule("PF2E-PROP-1")
@rule("PF2E-XFER-1")
def test_a_second_flaming_moves_onto_a_greater_flaming_weapon_and_says_it_has_no_effect():
    """Issue 15 item 19, by transfer: flaming leaves its runestone for the +2 greater flaming
    longsword's free slot; the runestone cracks."""
    after, events = then(
        given(*GREATER_FLAMING),
        TransferRune(rune="flaming", source="stone", target="sword", by="Seelah"),
    )
    assert (
        ENGLISH.event(events[0]),
        after.items["sword"]["runes"],
        after.items["sword"]["dormant"],
        "stone" in after.items,
    ) == (
        "flaming: stone -> sword (DC 24, free, 1 day, success; greater-flaming applies, "
        "flaming has no effect)",
        ["weapon-potency-2", "greater-flaming", "flaming"],
        ["flaming"],
        False,
    )


@rule("PF2E-PROP-1")
@rule("PF2E-ACT-1")
def test_an_outranked_rune_cannot_be_activated_but_the_highest_can():
    """With greater flaming and flaming etched, flaming is dormant: activating it is refused."""
    state = given(*GREATER_FLAMING, etched("sword", "flaming", 50000, 8, by="Seelah"))
    refused(
        state,
        ActivateRune(item="sword", rune="flaming", by="Seelah"),
        "PF2E-ACT-1",
        "sword has no active flaming rune (active: weapon-potency-2, greater-flaming; "
        "dormant: flaming)",
    )
    _, events = then(state, ActivateRune(item="sword", rune="greater-flaming", by="Seelah"))
    assert events[0].rune == "greater-flaming"


# --- transfers ------------------------------------------------------------------------------


SWAP_READY = [
    *SMITH,
    *formulas("Valeros", "armor-potency-2"),
    ItemGiven(item="mace", giver="Kyra", to="Valeros"),
    etched("sword", "weapon-potency-1", 3500, 2),
    etched("sword", "striking", 6500, 4),
    etched("sword", "flaming", 50000, 8),
    etched("stone", "frost", 50000, 8),
    etched("sword", "weapon-potency-2", 90000, 10, replaces="weapon-potency-1"),
    etched("mace", "weapon-potency-1", 3500, 2),
]


@rule("PF2E-XFER-1")
@rule("PF2E-STONE-1")
@rule("PF2E-XFER-6")
def test_transfer_from_runestone_is_free_and_cracks_the_stone():
    """Frost moves off the runestone for 0 gp at DC 24 (level 8) and the stone is removed."""
    after, events = then(
        given(*SWAP_READY), TransferRune(rune="frost", source="stone", target="sword", by="Valeros")
    )
    assert (
        (RuneTransferred, 24, 0, 1),
        RunestoneCracked(item="stone"),
        False,
        ["flaming", "frost"],
    ) == (
        (type(events[0]), events[0].dc, events[0].cost_cp, events[0].days),
        events[1],
        "stone" in after.items,
        after.items["sword"]["property"],
    )


@rule("PF2E-XFER-7")
@rule("PF2E-XFER-5")
@rule("PF2E-XFER-2")
def test_potency_swap_uses_higher_price_and_leaves_latest_rune_dormant():
    """Swapping +2 for +1 costs 93.5 gp at DC 27; the sword's later frost goes dormant."""
    state = given(
        *SWAP_READY,
        RuneTransferred(
            rune="frost", source="stone", target="sword", by="Valeros", dc=24, cost_cp=0
        ),
        RunestoneCracked(item="stone"),
    )
    after, events = then(
        state,
        TransferRune(
            rune="weapon-potency-2",
            source="sword",
            target="mace",
            swap="weapon-potency-1",
            by="Valeros",
        ),
    )
    sword = after.items["sword"]
    assert (
        (events[0].dc, events[0].cost_cp, events[0].swap),
        sword["property"],
        sword["dormant"],
        sword["price_gp"],
        after.items["mace"]["potency"],
    ) == ((27, 9350, "weapon-potency-1"), ["flaming"], ["frost"], 1100, 2)


@rule("PF2E-XFER-8")
@pytest.mark.parametrize(
    ("days", "outcome", "cost_cp"),
    [
        (1, "success", 5000),
        (3, "success", 2500),
        (2, "critical-success", 3000),
        (2, "success", 3500),
    ],
)
def test_extra_days_lower_transfer_cost(days, outcome, cost_cp):
    """Valeros (14, expert) saves 15 gp a day (20 gp on a critical success), down to half."""
    state = given(
        *SWAP_READY,
        ItemAdded(item="axe", base="warhammer", owner="Valeros"),
        etched("axe", "weapon-potency-1", 3500, 2),
    )
    _, events = then(
        state,
        TransferRune(
            rune="flaming", source="sword", target="axe", by="Valeros", days=days, outcome=outcome
        ),
    )
    assert (cost_cp, days) == (events[0].cost_cp, events[0].days)


@rule("PF2E-XFER-4")
def test_unfitting_target_is_a_logged_automatic_critical_failure():
    """Animated (melee only) onto a longbow: logged failure at DC 31, runes stay, 27 gp ruined."""
    state = given(
        *SWAP_READY,
        etched("sword", "animated", 270000, 13),
        etched("bow", "weapon-potency-1", 3500, 2),
    )
    after, events = then(
        state, TransferRune(rune="animated", source="sword", target="bow", by="Valeros")
    )
    failed = events[0]
    spent = (state.characters["Valeros"]["spent_gp"], after.characters["Valeros"]["spent_gp"])
    assert (
        (RuneTransferFailed, "critical-failure", True, 2700, 31),
        state.items["sword"],
        state.items["bow"],
        27,
    ) == (
        (type(failed), failed.outcome, failed.automatic, failed.loss_cp, failed.dc),
        after.items["sword"],
        after.items["bow"],
        spent[1] - spent[0],
    )
    assert "animated needs usage melee-weapon" in failed.reason


@rule("PF2E-XFER-6")
@pytest.mark.parametrize(("outcome", "loss_cp"), [("failure", 0), ("critical-failure", 500)])
def test_failed_crafting_check_keeps_the_rune(outcome, loss_cp):
    """A failed check leaves the rune; a critical failure ruins 10% of the 50 gp cost."""
    state = given(
        *SWAP_READY,
        ItemAdded(item="axe", base="warhammer", owner="Valeros"),
        etched("axe", "weapon-potency-1", 3500, 2),
    )
    after, events = then(
        state,
        TransferRune(rune="flaming", source="sword", target="axe", by="Valeros", outcome=outcome),
    )
    assert ((outcome, False, loss_cp), ["flaming"], []) == (
        (events[0].outcome, events[0].automatic, events[0].loss_cp),
        after.items["sword"]["property"],
        after.items["axe"]["property"],
    )


@rule("PF2E-XFER-1")
@rule("PF2E-XFER-2")
@rule("PF2E-XFER-3")
@pytest.mark.parametrize(
    ("command", "rule_id", "words"),
    [
        (
            TransferRune(rune="shock", source="sword", target="mace", by="Valeros"),
            "PF2E-XFER-1",
            ["sword holds no shock rune"],
        ),
        (
            TransferRune(rune="frost", source="stone", target="mace", by="Kyra"),
            "PF2E-XFER-1",
            ["Kyra does not hold stone"],
        ),
        (
            TransferRune(
                rune="striking",
                source="sword",
                target="mace",
                by="Valeros",
                swap="weapon-potency-1",
            ),
            "PF2E-XFER-2",
            [
                "sword keeps its own weapon-potency-2, so it cannot also take weapon-potency-1 "
                "from mace",
                "move striking without --swap",
            ],
        ),
        (
            TransferRune(
                rune="flaming", source="sword", target="mace", by="Valeros", swap="weapon-potency-1"
            ),
            "PF2E-XFER-2",
            ["flaming (property) with weapon-potency-1 (fundamental)"],
        ),
        (
            TransferRune(rune="flaming", source="sword", target="mace", by="Valeros", swap="frost"),
            "PF2E-XFER-3",
            ["mace holds no frost rune to swap"],
        ),
        (
            TransferRune(rune="weapon-potency-2", source="sword", target="mace", by="Valeros"),
            "PF2E-FUND-1",
            ["--swap weapon-potency-1"],
        ),
        (
            TransferRune(rune="flaming", source="sword", target="mace", by="Valeros", days=0),
            "PF2E-XFER-8",
            ["at least 1 day"],
        ),
    ],
)
def test_transfer_refusals(command, rule_id, words):
    """Bad transfers are refused naming the rule and the runes and items involved."""
    refused(given(*SWAP_READY), command, rule_id, *words)


@rule("PF2E-XFER-5")
def test_transfer_needs_no_formula():
    """Kyra, with no formula at all, may move her own runes (ability to craft magic items)."""
    state = given(
        *SMITH,
        ItemAdded(item="axe", base="warhammer", owner="Valeros"),
        etched("axe", "weapon-potency-1", 3500, 2),
        ItemGiven(item="axe", giver="Valeros", to="Kyra"),
        ItemGiven(item="sword", giver="Valeros", to="Kyra"),
    )
    after, _ = then(
        state, TransferRune(rune="weapon-potency-1", source="axe", target="sword", by="Kyra")
    )
    assert (after.items["sword"]["potency"], after.items["axe"]["potency"]) == (1, 0)


# --- investiture, activation, giving ---------------------------------------------------------


COAT = [
    *SMITH,
    ItemAdded(item="coat", base="explorers-clothing", owner="Valeros"),
    ItemAdded(item="mail", base="chain-mail", owner="Kyra"),
    etched("coat", "armor-potency-1", 16000, 5),
    etched("sword", "weapon-potency-1", 3500, 2),
]


@rule("PF2E-INVEST-1")
def test_invest_refusals():
    """A weapon, bare armor, or armor held by someone else cannot be invested."""
    state = given(*COAT)
    refused(state, InvestItem(item="coat", by="Kyra"), "PF2E-INVEST-1", "Kyra does not hold coat")
    refused(state, InvestItem(item="mail", by="Kyra"), "PF2E-INVEST-1", "no invested trait")
    refused(state, InvestItem(item="sword", by="Valeros"), "PF2E-INVEST-1", "no invested trait")


@rule("PF2E-INVEST-1")
def test_invest_and_handing_over_ends_investment():
    """Kyra invests the runed clothing she holds; handing it back to Valeros un-invests it."""
    state = given(*COAT, ItemGiven(item="coat", giver="Valeros", to="Kyra"))
    invested, events = then(state, InvestItem(item="coat", by="Kyra"))
    back, _ = then(invested, GiveItem(item="coat", to="Valeros"))
    refused(invested, InvestItem(item="coat", by="Kyra"), "PF2E-INVEST-1", "already invested")
    assert ([ItemInvested(item="coat", by="Kyra")], True, False) == (
        events,
        invested.items["coat"]["invested"],
        back.items["coat"]["invested"],
    )


@rule("PF2E-ACT-1")
def test_activation_is_logged_for_active_runes_only():
    """Activating flaming on the sword is logged; dormant frost or uninvested armor is refused."""
    state = given(
        *SWAP_READY,
        RuneTransferred(
            rune="frost", source="stone", target="sword", by="Valeros", dc=24, cost_cp=0
        ),
        RunestoneCracked(item="stone"),
        RuneTransferred(
            rune="weapon-potency-2",
            source="sword",
            target="mace",
            swap="weapon-potency-1",
            by="Valeros",
            dc=27,
            cost_cp=9350,
        ),
        ItemAdded(item="coat", base="explorers-clothing", owner="Valeros"),
        etched("coat", "armor-potency-1", 16000, 5),
    )
    _, events = then(state, ActivateRune(item="sword", rune="flaming", by="Valeros", note="burn"))
    refused(
        state,
        ActivateRune(item="sword", rune="frost", by="Valeros"),
        "PF2E-ACT-1",
        "no active frost rune",
        "dormant: frost",
    )
    refused(
        state,
        ActivateRune(item="coat", rune="armor-potency-1", by="Valeros"),
        "PF2E-INVEST-1",
        "coat must be invested",
    )
    refused(
        state,
        ActivateRune(item="mace", rune="striking", by="Kyra"),
        "PF2E-ACT-1",
        "Kyra does not hold mace",
    )
    assert [RuneActivated(item="sword", rune="flaming", by="Valeros", note="burn")] == events


@rule("PF2E-ETCH-1")
def test_give_hands_the_item_over():
    """give records the previous holder; giving to the holder or an unknown name is refused."""
    after, events = then(given(*SMITH), GiveItem(item="mace", to="Valeros"))
    refused(
        given(*SMITH), GiveItem(item="mace", to="Kyra"), "PF2E-ETCH-1", "Kyra already holds mace"
    )
    refused(
        given(*SMITH),
        GiveItem(item="mace", to="Seoni"),
        "UNKNOWN-NAME",
        "no character named 'Seoni'",
    )
    assert ([ItemGiven(item="mace", giver="Kyra", to="Valeros")], "Valeros") == (
        events,
        after.items["mace"]["owner"],
    )


@rule("PF2E-RUNE-2")
@rule("PF2E-RUNE-6")
@pytest.mark.parametrize(
    ("item", "rune", "rule_id", "words"),
    [
        ("shield", "flaming", "PF2E-RUNE-2", ["takes only reinforcing runes, not flaming"]),
        ("sword", "armor-potency-1", "PF2E-RUNE-6", ["armor rune; longsword is a weapon"]),
        ("bow", "animated", "PF2E-RUNE-6", ["animated needs usage melee-weapon; longbow"]),
    ],
)
def test_etch_refuses_runes_the_item_cannot_take(item, rune, rule_id, words):
    """Runes that do not fit the item type or usage are refused before anything is paid."""
    state = given(*SMITH, ItemAdded(item="shield", base="steel-shield", owner="Valeros"))
    refused(state, EtchRune(item=item, rune=rune, by="Valeros"), rule_id, *words)


@rule("PF2E-ETCH-1")
def test_precondition_refuses_event_that_no_longer_applies():
    """An etch whose formula event is gone no longer holds (undo finds the dependency)."""
    state = given(
        CharacterAdded(name="Valeros", level=14),
        ItemAdded(item="sword", base="longsword", owner="Valeros"),
    )
    with pytest.raises(RuleViolation, match="no formula for striking"):
        check(state, etched("sword", "striking", 6500, 4))


# --- the rule IDs history shows for each event ------------------------------------------------


def test_every_event_names_only_rules_md_ids():
    """Each pf2e event class lists only RULES.md IDs (PF2E-AREA-N), never a refusal ID."""
    import re

    from tablelog.events.core import registered_types

    for tag, cls in registered_types().items():
        if tag.startswith("pf2e."):
            assert all(re.fullmatch(r"PF2E-[A-Z]+-\d+", r) for r in cls.RULES), (tag, cls.RULES)


@pytest.mark.parametrize(
    ("event", "rule_line"),
    [
        (CharacterAdded(name="Valeros", level=14), None),
        (ItemAdded(item="sword", base="longsword", owner="Valeros"), None),
        (ItemGiven(item="sword", giver="Valeros", to="Kyra"), None),
        (
            FormulaLearned(character="Kyra", rune="frost", level=8, price_cp=2500),
            "rule PF2E-FORMULA-1",
        ),
        (
            RuneEtched(item="sword", rune="flaming", by="Valeros", level=8, price_cp=50000),
            "rule PF2E-ETCH-1, PF2E-RUNE-3, PF2E-RUNE-5, PF2E-PRICE-1",
        ),
        (
            RuneEtched(
                item="sword",
                rune="weapon-potency-2",
                by="Valeros",
                level=10,
                price_cp=90000,
                replaces="weapon-potency-1",
            ),
            "rule PF2E-ETCH-1, PF2E-RUNE-3, PF2E-RUNE-5, PF2E-PRICE-1, PF2E-FUND-1",
        ),
        (
            RuneEtched(
                item="sword",
                rune="greater-frost",
                by="Valeros",
                level=15,
                price_cp=1,
                replaces="frost",
            ),
            "rule PF2E-ETCH-1, PF2E-RUNE-3, PF2E-RUNE-5, PF2E-PRICE-1, PF2E-PROP-1",
        ),
        (
            RuneTransferred(
                rune="striking", source="sword", target="mace", by="Valeros", dc=19, cost_cp=650
            ),
            "rule PF2E-XFER-1, PF2E-XFER-6, PF2E-XFER-8",
        ),
        (
            RuneTransferred(
                rune="frost",
                source="stone",
                target="sword",
                by="Valeros",
                dc=24,
                cost_cp=0,
                breakdown={"cost": "free from a runestone"},
            ),
            "rule PF2E-XFER-1, PF2E-XFER-5, PF2E-XFER-6, PF2E-XFER-8, PF2E-STONE-1",
        ),
        (
            RuneTransferred(
                rune="weapon-potency-2",
                source="sword",
                target="mace",
                by="Valeros",
                dc=27,
                cost_cp=9350,
                swap="weapon-potency-1",
            ),
            "rule PF2E-XFER-1, PF2E-XFER-2, PF2E-XFER-5, PF2E-XFER-6, PF2E-XFER-7, PF2E-XFER-8",
        ),
        (
            RuneTransferred(
                rune="frost",
                source="bow",
                target="sword",
                by="Valeros",
                dc=24,
                cost_cp=2500,
                swap="flaming",
            ),
            "rule PF2E-XFER-1, PF2E-XFER-2, PF2E-XFER-3, PF2E-XFER-5, PF2E-XFER-6, PF2E-XFER-7, "
            "PF2E-XFER-8",
        ),
        (
            RuneTransferFailed(
                rune="animated",
                source="sword",
                target="bow",
                by="Valeros",
                outcome="critical-failure",
                automatic=True,
                reason="melee only",
                dc=31,
                loss_cp=2700,
            ),
            "rule PF2E-XFER-4, PF2E-XFER-6",
        ),
        (
            RuneTransferFailed(
                rune="frost",
                source="bow",
                target="sword",
                by="Valeros",
                outcome="failure",
                automatic=False,
                reason="rolled",
                dc=24,
                loss_cp=0,
            ),
            "rule PF2E-XFER-6",
        ),
        (RunestoneCracked(item="stone"), "rule PF2E-STONE-1"),
    ],
)
def test_history_names_exactly_the_rules_behind_each_event(event, rule_line):
    """history's `rule …` line lists the rules that applied to this event, and only those."""
    lines = [line for line in ENGLISH.explain(event) if line.startswith("rule ")]
    assert ([rule_line] if rule_line else []) == lines


def test_failed_transfer_reads_as_english():
    """A failed check reads `critical failure`, says what was lost, and names no DC twice."""
    event = RuneTransferFailed(
        rune="frost",
        source="bow",
        target="sword",
        by="Valeros",
        outcome="failure",
        automatic=False,
        reason="the Crafting check rolled at the table",
        dc=24,
        loss_cp=0,
    )
    assert ENGLISH.event(event) == (
        "frost: bow -> sword: failure (DC 24, nothing lost; the Crafting check rolled at "
        "the table); the rune stays"
    )
