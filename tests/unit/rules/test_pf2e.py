"""Pure pf2e rune rules: catalogue, names, levels, prices, slots, transfers, crafting figures."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablelog.rules import pf2e
from tablelog.rules.core import RuleViolation
from tablelog.text import english

rule = pytest.mark.rule


def facts(base: str, *ids: str) -> pf2e.ItemFacts:
    return pf2e.item_facts(pf2e.base_item(base), ids)


def holder(label: str, base: str, *ids: str) -> pf2e.Holder:
    return pf2e.Holder(label=label, base=pf2e.base_item(base), runes=ids)


# --- seed worked examples ---------------------------------------------------------------------


@rule("PF2E-RUNE-5")
def test_seed_example_striking_mace_with_disrupting_is_level_5():
    """The seed's +1 striking mace (level 4) becomes level 5 with a disrupting (level 5) rune."""
    before = facts("mace", "weapon-potency-1", "striking")
    after = facts("mace", "weapon-potency-1", "striking", pf2e.resolve_rune("disrupting"))
    assert (before.level, after.level) == (4, 5)


@rule("PF2E-RUNE-3")
@pytest.mark.parametrize(
    ("base", "ids", "name"),
    [
        ("longsword", ("weapon-potency-1",), "+1 longsword"),
        (
            "chain-mail",
            ("armor-potency-2", "greater-resilient", "fire-resistant"),
            "+2 greater resilient fire-resistant chain mail",
        ),
        ("longsword", ("weapon-potency-1", "striking", "flaming"), "+1 striking flaming longsword"),
        ("longsword", ("flaming", "striking", "weapon-potency-1"), "+1 striking flaming longsword"),
        ("steel-shield", ("minor-reinforcing",), "minor reinforcing steel shield"),
        ("explorers-clothing", ("armor-potency-1",), "+1 explorer's clothing"),
        ("runestone", ("frost",), "frost runestone"),
    ],
)
def test_seed_name_order(base, ids, name):
    """Names list potency, other fundamentals, property runes, then the base (seed examples)."""
    assert name == facts(base, *ids).name


# --- catalogue ------------------------------------------------------------------------------


@rule("PF2E-RUNE-1")
@pytest.mark.parametrize(
    ("alias", "rune_id", "level", "price_cp"),
    [
        ("disrupting", "vitalizing", 5, 15000),
        ("greater-disrupting", "greater-vitalizing", 14, 430000),
        ("dancing", "animated", 13, 270000),
        ("Greater Striking", "greater-striking", 12, 106500),
    ],
)
def test_legacy_aliases_resolve_to_catalogue_runes(alias, rune_id, level, price_cp):
    """Legacy names (disrupting) and display names resolve to the remaster catalogue rune."""
    found = pf2e.rune(alias)
    assert (rune_id, level, price_cp) == (found.id, found.level, found.price_cp)


@rule("PF2E-RUNE-1")
def test_unknown_rune_is_refused_with_its_name():
    """An id that is neither a rune nor an alias is refused, naming it."""
    with pytest.raises(RuleViolation, match="unknown rune 'sharpness'") as err:
        pf2e.rune("sharpness", "PF2E-ETCH-1")
    assert err.value.rule_id == "PF2E-ETCH-1"


@rule("PF2E-PRICE-1")
def test_catalogue_prices_are_whole_copper_pieces():
    """Base item prices in gp with silver (0.1 gp) load as exact cp."""
    assert tuple(
        pf2e.base_item(b).price_cp for b in ("explorers-clothing", "dagger", "runestone")
    ) == (10, 20, 300)


def test_unknown_base_item_is_refused():
    """A base id missing from the catalogue is refused with UNKNOWN-NAME."""
    with pytest.raises(RuleViolation, match="unknown base item 'katana'"):
        pf2e.base_item("katana")


def test_catalogue_is_read_from_the_package():
    """The catalogue loads from the installed package (tablelog/rules/data), not /work/shared."""
    assert len(pf2e.runes()) > 150 and "steel-shield" in pf2e.base_items()


# --- fundamentals, potency and slots --------------------------------------------------------


@rule("PF2E-RUNE-1")
@pytest.mark.parametrize(
    ("base", "ids", "expected"),
    [
        ("longsword", ("weapon-potency-2", "greater-striking"), (2, 2, 0, 0)),
        ("chain-mail", ("armor-potency-3", "major-resilient"), (3, 0, 3, 0)),
        ("steel-shield", ("greater-reinforcing",), (0, 0, 0, 4)),
        ("mace", ("major-striking",), (0, 3, 0, 0)),
    ],
)
def test_fundamental_tiers(base, ids, expected):
    """Each fundamental rune shows as its tier: potency, striking, resilient, reinforcing."""
    f = facts(base, *ids)
    assert expected == (f.potency, f.striking, f.resilient, f.reinforcing)


@rule("PF2E-RUNE-2")
@pytest.mark.parametrize(
    ("ids", "active", "dormant"),
    [
        (("weapon-potency-1", "striking", "flaming", "frost"), ("flaming",), ("frost",)),
        (("weapon-potency-2", "flaming", "frost"), ("flaming", "frost"), ()),
        (("flaming",), (), ("flaming",)),
        (
            ("weapon-potency-3", "striking", "flaming", "frost", "shock"),
            ("flaming", "frost", "shock"),
            (),
        ),
    ],
)
def test_property_slots_equal_potency_and_striking_does_not_count(ids, active, dormant):
    """A weapon holds as many active property runes as its potency; striking takes no slot."""
    f = facts("longsword", *ids)
    assert (active, dormant) == (f.property, f.dormant)


@rule("PF2E-RUNE-2")
def test_etching_a_property_rune_needs_a_free_slot():
    """A +1 longsword with flaming has no slot for frost."""
    with pytest.raises(RuleViolation) as err:
        pf2e.plan_etch(
            pf2e.base_item("longsword"),
            ("weapon-potency-1", "flaming"),
            pf2e.rune("frost"),
            "longsword-1",
        )
    assert (err.value.rule_id, err.value.message) == (
        "PF2E-RUNE-2",
        "longsword-1 has potency +1 and its one property slot holds flaming: no slot for frost",
    )


@rule("PF2E-RUNE-2")
@pytest.mark.parametrize(
    ("slots", "props", "expected"),
    [
        (
            0,
            [],
            "sword has no potency rune, so no property slot for frost; etch a potency rune first",
        ),
        (
            0,
            ["flaming"],
            "sword has no potency rune, so no property slot for frost (flaming "
            "dormant); etch a potency rune first",
        ),
        (
            2,
            ["flaming", "shock"],
            "sword has potency +2 and its 2 property slots hold flaming, shock: no slot for frost",
        ),
        (
            1,
            ["flaming", "shock"],
            "sword has potency +1 and its one property slot holds "
            "flaming (shock dormant): no slot for frost",
        ),
    ],
)
def test_no_slot_message_is_plain_english(slots, props, expected):
    """The no-slot refusal names the potency, the runes in the slots and the dormant ones."""
    assert expected == english(pf2e.runesets.no_slot_text("sword", slots, props, "frost"))


@rule("PF2E-RUNE-2")
@pytest.mark.parametrize("rune_id", ["flaming", "fire-resistant", "weapon-potency-1"])
def test_shields_take_only_reinforcing_runes(rune_id):
    """A steel shield refuses property and potency runes, naming the shield rule."""
    with pytest.raises(RuleViolation, match="takes only reinforcing runes") as err:
        pf2e.check_fits(pf2e.rune(rune_id), pf2e.base_item("steel-shield"))
    assert err.value.rule_id == "PF2E-RUNE-2"


# --- usage ----------------------------------------------------------------------------------


@rule("PF2E-RUNE-6")
@pytest.mark.parametrize(
    ("rune_id", "base", "ok"),
    [
        ("armor-potency-1", "explorers-clothing", True),
        ("fire-resistant", "explorers-clothing", True),
        ("invisibility", "explorers-clothing", False),
        ("fortification", "explorers-clothing", False),
        ("advancing", "explorers-clothing", False),
        ("invisibility", "leather-armor", True),
        ("fortification", "chain-mail", True),
        ("malleable", "chain-mail", True),
        ("malleable", "hide-armor", False),
        ("shadow", "leather-armor", True),
        ("shadow", "chain-shirt", False),
        ("animated", "longsword", True),
        ("animated", "longbow", False),
        ("returning", "javelin", True),
        ("returning", "dagger", True),
        ("returning", "longsword", False),
        ("shockwave", "mace", True),
        ("shockwave", "longsword", False),
        ("vorpal", "longsword", True),
        ("vorpal", "rapier", False),
        ("keen", "rapier", True),
        ("keen", "shortbow", False),
        ("bloodbane", "clan-dagger", True),
        ("bloodbane", "dagger", False),
        ("flaming", "chain-mail", False),
        ("fire-resistant", "longsword", False),
        ("frost", "runestone", True),
    ],
)
def test_usage_tokens(rune_id, base, ok):
    """Each rune goes only on the item types its usage allows; clothing takes no category runes."""
    assert ok == pf2e.fits(pf2e.rune(rune_id), pf2e.base_item(base))


@rule("PF2E-RUNE-6")
def test_holy_and_unholy_exclude_each_other():
    """A weapon with an unholy rune cannot take holy, and the reverse."""
    sword = pf2e.base_item("longsword")
    assert (
        pf2e.fits(pf2e.rune("holy"), sword, [pf2e.rune("unholy")]),
        pf2e.fits(pf2e.rune("unholy"), sword, [pf2e.rune("holy")]),
        pf2e.fits(pf2e.rune("holy"), sword, [pf2e.rune("flaming")]),
    ) == (False, False, True)


@rule("PF2E-RUNE-6")
@pytest.mark.parametrize(("rune_id", "held"), [("unholy", "holy"), ("holy", "unholy")])
def test_holy_unholy_refusal_names_the_rune_that_excludes(rune_id, held):
    """Issue 15 item 21: unholy on a holy weapon is refused naming the holy rune, not the
    weapon's kind (and the reverse)."""
    with pytest.raises(RuleViolation) as err:
        pf2e.check_fits(
            pf2e.rune(rune_id),
            pf2e.base_item("longsword"),
            [pf2e.rune("weapon-potency-1"), pf2e.rune(held)],
        )
    assert (
        "PF2E-RUNE-6",
        f"{rune_id} cannot go on a weapon that holds a {held} rune: holy and "
        "unholy runes exclude each other",
    ) == (err.value.rule_id, err.value.message)


@rule("PF2E-RUNE-6")
@pytest.mark.parametrize(
    ("rune_id", "base", "ok"),
    [
        ("hooked", "fauchard", True),
        ("hooked", "longbow", False),
        ("hooked", "javelin", False),
        ("rooting", "warhammer", True),
        ("rooting", "crossbow", False),
        ("true-rooting", "longbow", False),
        ("bolkas-blessing", "clan-dagger", True),
        ("bolkas-blessing", "dagger", False),
        ("bolkas-blessing", "longsword", False),
    ],
)
def test_melee_only_and_clan_dagger_runes(rune_id, base, ok):
    """Issue 15 item 21: hooked and rooting (every tier) go only on melee weapons, Bolka's
    blessing only on a clan dagger."""
    assert ok == pf2e.fits(pf2e.rune(rune_id), pf2e.base_item(base))


@rule("PF2E-RUNE-6")
@rule("PF2E-PROP-1")
@rule("PF2E-PRICE-1")
def test_greater_fortification_is_in_the_catalogue():
    """Issue 15 item 18 (GM Core): greater fortification, level 18, 24,000 gp, medium or heavy
    armor; it upgrades fortification for 22,000 gp and does not fit light armor."""
    rune = pf2e.rune("greater-fortification")
    plan = etch("full-plate", ("armor-potency-1", "fortification"), "greater-fortification")
    after = facts("full-plate", *plan.runes)
    assert (
        (rune.level, rune.price_cp, rune.family, rune.tier),
        (plan.cost_cp, plan.replaced),
        (after.name, after.level),
        tuple(
            pf2e.fits(rune, pf2e.base_item(b))
            for b in ("chain-mail", "full-plate", "leather-armor")
        ),
    ) == (
        (18, 2400000, "fortification", 2),
        (2200000, "fortification"),
        ("+1 greater fortification full plate", 18),
        (True, True, False),
    )


@rule("PF2E-RUNE-6")
def test_usage_refusal_names_rune_and_item():
    """Refusing a melee-only rune on a bow names the usage token and the bow."""
    with pytest.raises(RuleViolation, match="animated needs usage melee-weapon; longbow") as err:
        pf2e.check_fits(pf2e.rune("animated"), pf2e.base_item("longbow"))
    assert err.value.rule_id == "PF2E-RUNE-6"


# --- level, price, rarity, investiture ------------------------------------------------------


@rule("PF2E-RUNE-5")
@rule("PF2E-PRICE-1")
@pytest.mark.parametrize(
    ("base", "ids", "level", "price_cp"),
    [
        ("mace", ("weapon-potency-2", "striking", "vitalizing"), 10, 115000),
        ("longsword", ("weapon-potency-1", "striking", "flaming", "frost"), 8, 110000),
        ("chain-mail", ("armor-potency-2", "greater-resilient", "fire-resistant"), 14, 492000),
        ("steel-shield", ("minor-reinforcing",), 4, 7700),
        ("explorers-clothing", ("armor-potency-1",), 5, 16000),
        ("longsword", (), 0, 100),
        ("runestone", ("frost",), 8, 50300),
    ],
)
def test_level_and_price(base, ids, level, price_cp):
    """Level is the highest of base and runes; price sums runes (shield/stone: base + runes)."""
    f = facts(base, *ids)
    assert (level, price_cp) == (f.level, f.price_cp)


@rule("PF2E-PRICE-1")
def test_base_price_wins_when_higher_than_the_runes():
    """A 100 gp base weapon with +1 potency (35 gp) costs 100 gp; with 2000 gp of runes, 2000."""
    fine = pf2e.BaseItem(
        id="fine",
        name="fine sword",
        category="weapon",
        subtype="melee",
        armor_category="",
        damage_types=("S",),
        traits=(),
        level=0,
        price_cp=10000,
    )
    assert (
        pf2e.item_price_cp(fine, ("weapon-potency-1",)),
        pf2e.item_price_cp(fine, ("weapon-potency-2", "striking", "flaming", "frost")),
    ) == (10000, 200000)


@rule("PF2E-RUNE-4")
@pytest.mark.parametrize(
    ("base", "ids", "rarity"),
    [
        ("clan-dagger", ("weapon-potency-1", "bane"), "uncommon"),
        ("longsword", ("weapon-potency-1", "speed"), "common"),
    ],
)
def test_runes_keep_the_base_rarity(base, ids, rarity):
    """An uncommon base stays uncommon and a rare rune does not make a common sword rare."""
    assert rarity == facts(base, *ids).rarity


@rule("PF2E-INVEST-1")
@pytest.mark.parametrize(
    ("base", "ids", "trait"),
    [
        ("chain-mail", ("armor-potency-1",), True),
        ("chain-mail", (), False),
        ("explorers-clothing", ("armor-potency-1",), True),
        ("longsword", ("weapon-potency-1",), False),
    ],
)
def test_armor_with_runes_has_the_invested_trait(base, ids, trait):
    """Armor (explorer's clothing included) with runes has the invested trait; weapons do not."""
    assert trait == facts(base, *ids).invested_trait


# --- shields --------------------------------------------------------------------------------


@rule("PF2E-RUNE-1")
@pytest.mark.parametrize(
    ("base", "rune_id", "stats"),
    [
        ("steel-shield", "minor-reinforcing", (8, 64, 32)),
        ("wooden-shield", "minor-reinforcing", (6, 56, 28)),
        ("buckler", "lesser-reinforcing", (6, 58, 29)),
        ("steel-shield", "moderate-reinforcing", (8, 84, 42)),
        ("steel-shield", "greater-reinforcing", (10, 100, 50)),
        ("tower-shield", "supreme-reinforcing", (12, 128, 64)),
    ],
)
def test_reinforcing_raises_hardness_hp_bt_up_to_caps(base, rune_id, stats):
    """Reinforcing adds hardness, HP and BT, each capped at the rune's maximum."""
    f = facts(base, rune_id)
    assert stats == (f.hardness, f.hp_max, f.bt)


@rule("PF2E-RUNE-1")
def test_reinforcing_cap_does_not_lower_a_higher_base():
    """A value already above the cap is kept, not lowered."""
    sturdy = pf2e.BaseItem(
        id="sturdy",
        name="sturdy",
        category="shield",
        subtype="",
        armor_category="",
        damage_types=(),
        traits=(),
        level=0,
        price_cp=0,
        hardness=10,
        hp=80,
        bt=40,
    )
    assert pf2e.shield_stats(sturdy, 1) == (10, 80, 40)


# --- etching: upgrades and duplicates -------------------------------------------------------


def etch(base: str, ids: tuple[str, ...], rune_id: str) -> pf2e.EtchPlan:
    return pf2e.plan_etch(pf2e.base_item(base), ids, pf2e.rune(rune_id), "item-1")


@rule("PF2E-FUND-1")
@rule("PF2E-PRICE-1")
@pytest.mark.parametrize(
    ("base", "given", "when", "then_runes", "replaced", "cost_cp"),
    [
        (
            "chain-mail",
            ("armor-potency-1",),
            "armor-potency-2",
            ("armor-potency-2",),
            "armor-potency-1",
            90000,
        ),
        (
            "chain-mail",
            ("armor-potency-2", "resilient"),
            "greater-resilient",
            ("armor-potency-2", "greater-resilient"),
            "resilient",
            310000,
        ),
        (
            "longsword",
            ("weapon-potency-1", "striking"),
            "weapon-potency-2",
            ("striking", "weapon-potency-2"),
            "weapon-potency-1",
            90000,
        ),
        (
            "steel-shield",
            ("minor-reinforcing",),
            "lesser-reinforcing",
            ("lesser-reinforcing",),
            "minor-reinforcing",
            22500,
        ),
        (
            "longsword",
            ("weapon-potency-1",),
            "striking",
            ("weapon-potency-1", "striking"),
            None,
            6500,
        ),
    ],
)
def test_fundamental_upgrade_replaces_and_costs_the_difference(
    base, given, when, then_runes, replaced, cost_cp
):
    """A stronger fundamental replaces the weaker one and costs the price difference."""
    plan = etch(base, given, when)
    assert (then_runes, replaced, cost_cp) == (plan.runes, plan.replaced, plan.cost_cp)


@rule("PF2E-FUND-1")
@pytest.mark.parametrize(
    ("given", "when"), [(("weapon-potency-2",), "weapon-potency-1"), (("striking",), "striking")]
)
def test_same_or_weaker_fundamental_is_refused(given, when):
    """An item holds one rune of each fundamental kind: a same or weaker tier is refused."""
    with pytest.raises(RuleViolation, match=f"item-1 already has {given[0]}") as err:
        etch("longsword", given, when)
    assert err.value.rule_id == "PF2E-FUND-1"


@rule("PF2E-PROP-1")
def test_property_upgrade_to_greater_version_costs_the_difference():
    """Greater flaming replaces flaming (no new slot) and costs 6500 - 500 = 6000 gp."""
    plan = etch("longsword", ("weapon-potency-1", "flaming"), "greater-flaming")
    assert (
        plan.runes,
        plan.replaced,
        plan.cost_cp,
    ) == (("weapon-potency-1", "greater-flaming"), "flaming", 600000)


@rule("PF2E-PROP-1")
@pytest.mark.parametrize(
    ("when", "cost_cp", "applies", "dormant", "price_cp"),
    [
        ("flaming", 50000, ("greater-flaming",), ("flaming",), 793500),
        ("greater-flaming", 650000, ("greater-flaming",), ("greater-flaming",), 1393500),
    ],
)
def test_same_or_lower_property_rune_takes_a_free_slot_and_only_the_highest_applies(
    when, cost_cp, applies, dormant, price_cp
):
    """A second flaming (or greater flaming) on a +2 greater flaming longsword is etched into
    the free slot at its full price; only greater flaming applies (the seed's 「同じルーンを複数
    彫刻された場合、最も高レベルのものが1つだけ適用される」), the other is dormant but priced."""
    plan = etch("longsword", ("weapon-potency-2", "greater-flaming"), when)
    after = facts("longsword", *plan.runes)
    assert (
        ("weapon-potency-2", "greater-flaming", when),
        None,
        cost_cp,
        applies,
        dormant,
        "+2 greater flaming longsword",
        15,
        price_cp,
    ) == (
        plan.runes,
        plan.replaced,
        plan.cost_cp,
        after.property,
        after.dormant,
        after.name,
        after.level,
        after.price_cp,
    )


@rule("PF2E-PROP-1")
@rule("PF2E-RUNE-2")
def test_a_second_rune_of_a_kind_needs_a_free_slot():
    """On a +1 greater flaming longsword there is no slot for a second flaming."""
    with pytest.raises(RuleViolation) as err:
        etch("longsword", ("weapon-potency-1", "greater-flaming"), "flaming")
    assert (err.value.rule_id, err.value.message) == (
        "PF2E-RUNE-2",
        "item-1 has potency +1 and its one property slot holds "
        "greater-flaming: no slot for flaming",
    )


@rule("PF2E-PROP-1")
def test_an_upgrade_replaces_the_latest_lower_tier_of_its_kind():
    """Greater flaming onto a +2 sword with two flaming runes upgrades the later one (6000 gp)."""
    plan = etch("longsword", ("weapon-potency-2", "flaming", "flaming"), "greater-flaming")
    after = facts("longsword", *plan.runes)
    assert (plan.runes, plan.replaced, plan.cost_cp, after.property, after.dormant) == (
        ("weapon-potency-2", "flaming", "greater-flaming"),
        "flaming",
        600000,
        ("greater-flaming",),
        ("flaming",),
    )


@rule("PF2E-PROP-1")
@rule("PF2E-XFER-5")
@pytest.mark.parametrize(
    ("ids", "applies", "dormant"),
    [
        (("weapon-potency-2", "flaming", "flaming", "frost"), ("flaming",), ("flaming", "frost")),
        (("weapon-potency-1", "flaming", "greater-flaming"), ("flaming",), ("greater-flaming",)),
        (
            ("weapon-potency-3", "flaming", "frost", "greater-flaming"),
            ("frost", "greater-flaming"),
            ("flaming",),
        ),
    ],
)
def test_only_the_highest_of_a_kind_in_the_slots_applies(ids, applies, dormant):
    """Of the runes in the slots the highest of each kind applies (the earlier of equals); a
    rune over the potency limit is dormant even if it is the higher one."""
    after = facts("longsword", *ids)
    assert (applies, dormant) == (after.property, after.dormant)


@rule("PF2E-STONE-1")
def test_runestone_holds_one_rune_and_costs_as_usual():
    """A runestone takes any one rune at its usual price, and refuses a second rune."""
    plan = etch("runestone", (), "frost")
    with pytest.raises(RuleViolation, match="runestone item-1 already holds frost") as err:
        etch("runestone", ("frost",), "flaming")
    assert (plan.runes, plan.cost_cp, err.value.rule_id) == (("frost",), 50000, "PF2E-STONE-1")


# --- transfers and swaps --------------------------------------------------------------------


@rule("PF2E-XFER-1")
@rule("PF2E-STONE-1")
def test_transfer_from_runestone_moves_the_rune():
    """Frost moves from a runestone onto a +2 longsword that already has flaming."""
    plan = pf2e.plan_transfer(
        holder("stone-1", "runestone", "frost"),
        holder("longsword-1", "longsword", "weapon-potency-2", "flaming"),
        pf2e.rune("frost"),
    )
    assert (plan.source_runes, plan.target_runes) == ((), ("weapon-potency-2", "flaming", "frost"))


@rule("PF2E-XFER-1")
def test_transfer_needs_the_rune_on_the_source():
    """Moving a rune the source does not hold is refused, listing what it holds."""
    with pytest.raises(RuleViolation, match=r"mace-1 holds no frost rune \(it holds striking\)"):
        pf2e.plan_transfer(
            holder("mace-1", "mace", "striking"), holder("sword", "longsword"), pf2e.rune("frost")
        )


@rule("PF2E-XFER-2")
def test_swap_of_different_forms_is_refused():
    """A fundamental rune cannot be swapped for a property rune."""
    with pytest.raises(
        RuleViolation,
        match=r"striking \(fundamental\) with flaming "
        r"\(property\)",
    ) as err:
        pf2e.plan_transfer(
            holder("a", "mace", "weapon-potency-1", "striking"),
            holder("b", "longsword", "weapon-potency-1", "flaming"),
            pf2e.rune("striking"),
            pf2e.rune("flaming"),
        )
    assert err.value.rule_id == "PF2E-XFER-2"


@rule("PF2E-XFER-3")
def test_swap_names_which_property_rune_leaves_and_the_others_stay():
    """Swapping frost for shock on a +2 sword moves only shock; flaming stays."""
    plan = pf2e.plan_transfer(
        holder("a", "mace", "weapon-potency-1", "frost"),
        holder("b", "longsword", "weapon-potency-2", "flaming", "shock"),
        pf2e.rune("frost"),
        pf2e.rune("shock"),
    )
    assert (
        plan.source_runes,
        plan.target_runes,
    ) == (("weapon-potency-1", "shock"), ("weapon-potency-2", "flaming", "frost"))


@rule("PF2E-XFER-3")
def test_transfer_onto_full_item_asks_for_a_swap():
    """Without --swap, a property rune cannot go onto an item with no free slot."""
    with pytest.raises(
        RuleViolation, match="no slot for frost; name the rune that comes back with --swap"
    ) as err:
        pf2e.plan_transfer(
            holder("a", "mace", "weapon-potency-1", "frost"),
            holder("b", "longsword", "weapon-potency-1", "flaming"),
            pf2e.rune("frost"),
        )
    assert err.value.rule_id == "PF2E-RUNE-2"


@rule("PF2E-XFER-4")
@pytest.mark.parametrize(
    ("rune_id", "target", "cause"),
    [
        ("animated", "longbow", "PF2E-RUNE-6"),
        ("flaming", "steel-shield", "PF2E-RUNE-2"),
        ("fire-resistant", "longsword", "PF2E-RUNE-6"),
    ],
)
def test_transfer_onto_item_that_cannot_take_it_is_automatic_critical_failure(
    rune_id, target, cause
):
    """A melee-only rune onto a bow (or any unfitting target) is an automatic critical failure."""
    with pytest.raises(pf2e.RuneDoesNotFit) as err:
        pf2e.plan_transfer(
            holder("stone-1", "runestone", rune_id), holder("t", target), pf2e.rune(rune_id)
        )
    assert ("PF2E-XFER-4", cause) == (err.value.rule_id, err.value.cause.rule_id)


@rule("PF2E-XFER-5")
def test_swapping_potency_down_leaves_latest_property_dormant():
    """The seed/example swap: the longsword drops to +1 and frost (etched last) goes dormant."""
    plan = pf2e.plan_transfer(
        holder("longsword-1", "longsword", "striking", "flaming", "weapon-potency-2", "frost"),
        holder("mace-1", "mace", "weapon-potency-1", "striking", "vitalizing"),
        pf2e.rune("weapon-potency-2"),
        pf2e.rune("weapon-potency-1"),
    )
    sword = pf2e.item_facts(pf2e.base_item("longsword"), plan.source_runes)
    mace = pf2e.item_facts(pf2e.base_item("mace"), plan.target_runes)
    assert (
        sword.property,
        sword.dormant,
        sword.price_cp,
        sword.level,
        mace.name,
    ) == (("flaming",), ("frost",), 110000, 8, "+2 striking vitalizing mace")


@rule("PF2E-XFER-5")
def test_moving_potency_away_makes_property_dormant_and_potency_wakes_it():
    """A rune-less potency move leaves flaming dormant; etching potency again wakes it."""
    plan = pf2e.plan_transfer(
        holder("a", "longsword", "weapon-potency-1", "flaming"),
        holder("b", "mace"),
        pf2e.rune("weapon-potency-1"),
    )
    left = pf2e.item_facts(pf2e.base_item("longsword"), plan.source_runes)
    woken = pf2e.item_facts(pf2e.base_item("longsword"), plan.source_runes + ("weapon-potency-1",))
    assert (
        left.property,
        left.dormant,
        left.name,
        left.level,
        woken.property,
    ) == ((), ("flaming",), "longsword", 8, ("flaming",))


@rule("PF2E-FUND-1")
def test_transfer_onto_item_with_same_fundamental_kind_hints_swap():
    """Moving striking onto a weapon that has striking is refused with a --swap hint."""
    with pytest.raises(RuleViolation, match=r"swap them instead \(--swap striking\)") as err:
        pf2e.plan_transfer(
            holder("a", "mace", "greater-striking"),
            holder("b", "longsword", "striking"),
            pf2e.rune("greater-striking"),
        )
    assert err.value.rule_id == "PF2E-FUND-1"


@rule("PF2E-XFER-2")
@rule("PF2E-FUND-1")
def test_swap_that_brings_back_a_second_potency_rune_says_why():
    """Swapping striking for the bow's potency rune is refused: the sword keeps its own potency."""
    with pytest.raises(RuleViolation) as err:
        pf2e.plan_transfer(
            holder("longsword-1", "longsword", "weapon-potency-1", "striking"),
            holder("bow-1", "longbow", "weapon-potency-1"),
            pf2e.rune("striking"),
            pf2e.rune("weapon-potency-1"),
        )
    assert (err.value.rule_id, err.value.message) == (
        "PF2E-XFER-2",
        "cannot swap striking (on longsword-1) for weapon-potency-1 (on bow-1): longsword-1 "
        "keeps its own weapon-potency-1, so it cannot also take weapon-potency-1 from bow-1 "
        "(an item holds one weapon-potency rune, PF2E-FUND-1); move striking without --swap",
    )


@rule("PF2E-XFER-2")
@rule("PF2E-FUND-1")
def test_swap_onto_a_target_that_keeps_the_same_kind_hints_the_right_swap():
    """Swapping striking for potency onto a striking mace hints the mace's striking instead."""
    with pytest.raises(RuleViolation) as err:
        pf2e.plan_transfer(
            holder("sword", "longsword", "weapon-potency-2", "greater-striking"),
            holder("mace", "mace", "weapon-potency-1", "striking"),
            pf2e.rune("greater-striking"),
            pf2e.rune("weapon-potency-1"),
        )
    assert (err.value.rule_id, err.value.message) == (
        "PF2E-XFER-2",
        "cannot swap greater-striking (on sword) for weapon-potency-1 (on mace): mace keeps "
        "its own striking, so it cannot also take greater-striking from sword (an item holds "
        "one striking rune, PF2E-FUND-1); swap it for mace's striking instead "
        "(--swap striking)",
    )


@rule("PF2E-XFER-3")
@rule("PF2E-PROP-1")
def test_property_swap_that_doubles_a_kind_is_allowed():
    """Swapping flaming for frost brings a second frost back to a +2 sword: only one applies."""
    plan = pf2e.plan_transfer(
        holder("a", "longsword", "weapon-potency-2", "flaming", "frost"),
        holder("b", "mace", "weapon-potency-1", "frost"),
        pf2e.rune("flaming"),
        pf2e.rune("frost"),
    )
    after = facts("longsword", *plan.source_runes)
    assert (plan.source_runes, plan.target_runes, after.property, after.dormant) == (
        ("weapon-potency-2", "frost", "frost"),
        ("weapon-potency-1", "flaming"),
        ("frost",),
        ("frost",),
    )


@rule("PF2E-PROP-1")
@rule("PF2E-XFER-1")
def test_transfer_beside_a_higher_rune_of_its_kind_takes_a_free_slot():
    """Flaming from a runestone onto a +2 greater flaming longsword: it arrives, dormant."""
    plan = pf2e.plan_transfer(
        holder("stone", "runestone", "flaming"),
        holder("sword", "longsword", "weapon-potency-2", "greater-flaming"),
        pf2e.rune("flaming"),
    )
    assert (
        plan.source_runes,
        plan.target_runes,
        facts("longsword", *plan.target_runes).dormant,
    ) == ((), ("weapon-potency-2", "greater-flaming", "flaming"), ("flaming",))


@rule("PF2E-XFER-1")
def test_moving_one_of_two_alike_moves_the_later():
    """Of two flaming runes, the later etched (the dormant one) is the one that moves."""
    plan = pf2e.plan_transfer(
        holder("a", "longsword", "weapon-potency-2", "flaming", "frost", "flaming"),
        holder("b", "mace", "weapon-potency-1"),
        pf2e.rune("flaming"),
    )
    assert (
        plan.source_runes,
        plan.target_runes,
    ) == (("weapon-potency-2", "flaming", "frost"), ("weapon-potency-1", "flaming"))


@rule("PF2E-XFER-1")
def test_transfer_from_an_item_to_itself_is_refused():
    """Naming the same item as source and target is refused in plain words."""
    with pytest.raises(RuleViolation) as err:
        pf2e.plan_transfer(
            holder("a", "longsword", "flaming"),
            holder("a", "longsword", "flaming"),
            pf2e.rune("flaming"),
        )
    assert (
        err.value.rule_id,
        err.value.message,
    ) == ("PF2E-XFER-1", "cannot move flaming from a to itself: name two different items")


@rule("PF2E-STONE-1")
def test_swap_with_a_runestone_is_refused():
    """A runestone cracks when its rune leaves, so it cannot take the other rune of a swap."""
    with pytest.raises(RuleViolation, match="runestone cracks") as err:
        pf2e.plan_transfer(
            holder("s", "runestone", "frost"),
            holder("b", "longsword", "weapon-potency-1", "flaming"),
            pf2e.rune("frost"),
            pf2e.rune("flaming"),
        )
    assert err.value.rule_id == "PF2E-STONE-1"


# --- crafting figures -----------------------------------------------------------------------


@rule("PF2E-XFER-6")
@pytest.mark.parametrize(
    ("rune_id", "stone", "dc", "cost_cp"),
    [
        ("flaming", False, 24, 5000),
        ("weapon-potency-2", False, 27, 9350),
        ("greater-resilient", False, 32, 34400),
        ("frost", True, 24, 0),
        ("fanged", False, 16, 300),
    ],
)
def test_transfer_dc_by_rune_level_and_cost_ten_percent(rune_id, stone, dc, cost_cp):
    """DC follows the rune's level; cost is 10% of its price; free from a runestone."""
    r = pf2e.rune(rune_id)
    terms = pf2e.transfer_terms((r.level,), (r.price_cp,), stone)
    assert (dc, cost_cp, 1) == (terms.dc, terms.cost_cp, terms.days)


@rule("PF2E-XFER-7")
def test_swap_uses_higher_level_and_higher_price():
    """Swapping +2 potency (level 10, 935 gp) with +1 (level 2, 35 gp): DC 27, 93.5 gp."""
    terms = pf2e.transfer_terms((10, 2), (93500, 3500), False)
    assert (terms.level, terms.dc, terms.cost_cp) == (10, 27, 9350)


@rule("PF2E-XFER-8")
@pytest.mark.parametrize(
    ("days", "level", "rank", "critical", "saved_cp", "cost_cp"),
    [
        (1, 14, "expert", False, 0, 34400),
        (2, 14, "expert", False, 1500, 32900),
        (3, 14, "master", False, 4000, 30400),
        (2, 14, "expert", True, 2000, 32400),
        (30, 14, "expert", False, 17200, 17200),
    ],
)
def test_extra_days_lower_the_cost_down_to_half(days, level, rank, critical, saved_cp, cost_cp):
    """Each day after the first saves Income Earned (level, rank); never below half the cost."""
    terms = pf2e.transfer_terms((14,), (344000,), False, days, level, rank, critical)
    assert (saved_cp, cost_cp, days) == (terms.saved_cp, terms.cost_cp, terms.days)


@rule("PF2E-XFER-8")
def test_zero_days_is_refused():
    """A transfer takes at least one day."""
    with pytest.raises(RuleViolation, match="at least 1 day, not 0") as err:
        pf2e.transfer_terms((8,), (50000,), False, 0)
    assert err.value.rule_id == "PF2E-XFER-8"


@rule("PF2E-FORMULA-1")
@pytest.mark.parametrize(
    ("rune_id", "price_cp"),
    [
        ("weapon-potency-1", 200),
        ("striking", 500),
        ("flaming", 2500),
        ("greater-resilient", 22500),
        ("major-striking", 200000),
        ("impossible", 350000),
    ],
)
def test_rune_formula_costs_as_an_item_formula_of_the_rune_level(rune_id, price_cp):
    """A rune's formula costs the formula price of an item of the rune's level."""
    assert price_cp == pf2e.formula_price_cp(pf2e.rune(rune_id).level)


# --- properties over random etch sequences ----------------------------------------------------

WEAPON_RUNES = sorted(r.id for r in pf2e.runes().values() if r.item == "weapon")


@rule("PF2E-PRICE-1")
@rule("PF2E-RUNE-2")
@rule("PF2E-PROP-1")
@given(
    base=st.sampled_from(["longsword", "mace", "longbow", "dagger", "clan-dagger"]),
    picks=st.lists(st.sampled_from(WEAPON_RUNES), max_size=12),
)
def test_random_etch_sequences_keep_the_invariants(base, picks):
    """Whatever is etched: paid total = rune prices, property runes (applying or outranked)
    <= potency, one applying rune of each kind, one fundamental of each kind, level = max."""
    item = pf2e.base_item(base)
    ids: tuple[str, ...] = ()
    paid = 0
    for pick in picks:
        try:
            plan = pf2e.plan_etch(item, ids, pf2e.rune(pick))
        except RuleViolation:
            continue
        ids, paid = plan.runes, paid + plan.cost_cp
    f = pf2e.item_facts(item, ids)
    held = [pf2e.runes()[i] for i in ids]
    assert paid == sum(r.price_cp for r in held)
    props = sorted(r.id for r in held if not r.is_fundamental)
    assert len(props) <= f.potency and props == sorted(f.property + f.dormant)
    assert f.level == max([item.level] + [r.level for r in held])
    applying = [pf2e.runes()[i].family for i in f.property]
    fundamental = [r.family for r in held if r.is_fundamental]
    assert (len(set(applying)), len(set(fundamental))) == (len(applying), len(fundamental))


@rule("PF2E-RUNE-6")
def test_armor_rune_on_a_weapon_is_named_with_its_article():
    """An armor rune on a longsword: "an armor rune", "a weapon"."""
    with pytest.raises(RuleViolation, match="is an armor rune; longsword is a weapon"):
        pf2e.check_fits(pf2e.rune("armor-potency-1"), pf2e.base_item("longsword"))
