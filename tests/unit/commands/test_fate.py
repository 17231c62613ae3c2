"""fate deciders: given a table, when a command, then events and state (or a named refusal)."""

from __future__ import annotations

import copy

import attrs
import pytest

from tablelog.commands.core import decide
from tablelog.commands.fate import (
    AddMaster,
    AddPhantasm,
    AddServant,
    AddUniqueAbility,
    Cast,
    Chant,
    Dismiss,
    EndBattle,
    Morning,
    MoveRow,
    Release,
    Rest,
    SetCharacterGrade,
    StartBattle,
    StartRound,
    StartTurn,
    TakeDamage,
    ToggleMadness,
    UseAbility,
)
from tablelog.events.fate import (
    ArmySummoned,
    DamageTaken,
    EffectRaised,
    FieldEnded,
    FieldRaised,
    PhantasmReleased,
    UpkeepPaid,
)
from tablelog.lang import ENGLISH
from tablelog.projections import fate as projection
from tablelog.projections.core import State, check, diff, entity_view, evolve, fold_collecting
from tablelog.rules.core import RuleViolation
from tests.support.decider import refused, then

rule = pytest.mark.rule


def given(*commands) -> State:
    """A fresh fate state after deciding and applying each command in turn."""
    state = State(system="fate")
    projection.init_state(state, {})
    for command in commands:
        for e in decide(state, command):
            evolve(state, e)
    return state


def given_on(state: State, *commands) -> State:
    """A copy of ``state`` after deciding and applying each command in turn."""
    state = copy.deepcopy(state)
    for command in commands:
        for e in decide(state, command):
            evolve(state, e)
    return state


KIRITSUGU = AddMaster("Kiritsugu", "B", "C", "D", ("fire", "earth"), 40, 30, 20)
TOKIOMI = AddMaster("Tokiomi", "A", "B", "B", ("fire",), 40, 40, 20)
RIN = AddMaster("Rin", "A", "A", "C", ("hollow",), 30, 60, cc_budget=30)
SABER = AddServant("Saber", 60, 80, np_budget=15)
LANCER = AddServant("Lancer", 60, 60)
TABLE = (KIRITSUGU, TOKIOMI, SABER, LANCER)


def logged(*commands) -> list[tuple[int, object]]:
    """The ``(seq, event)`` pairs of a log made by deciding each command as a session does."""
    state, pairs = given(), []
    for command in commands:
        for e in decide(state, command):
            evolve(state, e)
            pairs.append((state.seq + 1, e))
            state.seq += 1
    return pairs


def hp_mp(state: State, name: str) -> tuple[int, int]:
    return state.characters[name]["hp"], state.characters[name]["mp"]


# --- setup ---------------------------------------------------------------------------------------


@rule("FATE-CC-1")
def test_master_over_budget_is_refused():
    """Quality EX (10) + quantity A+ (8) + crest C (3) = 21 CC points exceeds a budget of 20."""
    refused(
        given(),
        AddMaster("Kayneth", "EX", "A+", "C", ("water",), 40, 40, 20),
        "FATE-CC-1",
        "21",
        "20",
    )


@rule("FATE-NP-1")
def test_np_budget_and_three_np_limit():
    """Saber (15 points) cannot add a 5-point A after 11 + 3; a 4th NP is refused."""
    state = given(
        SABER,
        AddPhantasm("Saber", "excalibur", "A++", "anti-fortress"),
        AddPhantasm("Saber", "air", "C", "anti-unit"),
    )
    refused(state, AddPhantasm("Saber", "avalon", "A", "anti-unit"), "FATE-NP-1", "14", "15")
    big = given(
        AddServant("Gil", 80, 100, np_budget=30),
        *(AddPhantasm("Gil", f"np{i}", "E", "anti-unit") for i in range(3)),
    )
    refused(big, AddPhantasm("Gil", "np3", "E", "anti-unit"), "FATE-NP-1", "3")


@rule("FATE-NP-9")
def test_defensive_np_raises_max_hp():
    """An A+ defensive NP raises Saber's max HP from 60 to 70."""
    after, _ = then(given(SABER), AddPhantasm("Saber", "shield", "A+", "anti-unit", "defense"))
    assert (after.characters["Saber"]["hp"], after.characters["Saber"]["hp_max"]) == (70, 70)


# --- casting -------------------------------------------------------------------------------------


@rule("FATE-CAST-4")
def test_attack_through_anti_magic():
    """Tokiomi's attack grade 4 on a servant with anti-magic 1 deals 6 HP per tile: 2 tiles = 12."""
    state = given(TOKIOMI, AddServant("Caster", 50, 50, anti_magic=1), StartBattle())
    after, events = then(state, Cast("Tokiomi", "attack", 4, 2, ("Caster",)))
    assert hp_mp(after, "Caster") == (38, 50)
    assert (after.characters["Tokiomi"]["mp"], after.characters["Tokiomi"]["tiles"]) == (36, 6)


@rule("FATE-CAST-5")
def test_defense_tiles_meet_hits_one_by_one():
    """A grade-5 defense tile meets an outside hit of 7 HP and 12 MP: 2 HP and 2 MP go through."""
    state = given(*TABLE, StartBattle(), Cast("Kiritsugu", "defense", 5, 2, ("Kiritsugu",)))
    after, events = then(state, TakeDamage("Kiritsugu", 7, 12))
    assert hp_mp(after, "Kiritsugu") == (38, 24)
    assert [e["tiles"] for e in after.characters["Kiritsugu"]["effects"]] == [1]
    assert events[0].spent == {"1": 1}


@rule("FATE-CAST-5")
@pytest.mark.parametrize(
    ("hp", "mp", "injury", "through", "tiles_left", "spent"),
    [
        (4, 0, 0, (0, 0), [2], {}),  # within the block: the tile holds
        (5, 10, 0, (0, 0), [2], {}),  # exactly the block in HP and MP: it holds
        (0, 11, 0, (0, 1), [1], {"1": 1}),  # MP exceeded, HP block unused: lost all the same
        (6, 0, 0, (1, 0), [1], {"1": 1}),  # HP exceeded: lost
        (0, 0, 6, (0, 0), [1], {"1": 1}),  # 6 injury grades over a block of 5: lost
    ],
)
def test_a_defense_tile_is_lost_only_when_a_hit_exceeds_it(
    hp, mp, injury, through, tiles_left, spent
):
    """Kiritsugu's 2 grade-5 defense tiles (5 HP, 10 MP each) meet one outside hit: a hit within
    both blocks leaves the tile; a hit over either block (or over 5 injury grades) removes it."""
    state = given(*TABLE, StartBattle(), Cast("Kiritsugu", "defense", 5, 2, ("Kiritsugu",)))
    after, events = then(state, TakeDamage("Kiritsugu", hp, mp, injury))
    assert through == (
        40 - after.characters["Kiritsugu"]["hp"],
        26 - after.characters["Kiritsugu"]["mp"],
    )
    assert tiles_left == [e["tiles"] for e in after.characters["Kiritsugu"]["effects"]]
    assert spent == events[0].spent
    assert ("(the tile holds)" in events[0].breakdown["tile 1"]) == (not spent)


@rule("FATE-CAST-5")
def test_a_held_tile_meets_the_next_hit_and_each_tile_one_incoming_tile():
    """Tokiomi's 4 chanted attack tiles of grade 2 (4 HP) meet Kiritsugu's 2 grade-5 tiles: two
    tiles are blocked and both defense tiles hold, two go through (8 HP)."""
    state = given(
        *TABLE, StartBattle(), Cast("Kiritsugu", "defense", 5, 2, ("Kiritsugu",)), Chant("Tokiomi")
    )
    after, events = then(state, Cast("Tokiomi", "attack", 2, 2, ("Kiritsugu",)))
    assert (
        after.characters["Kiritsugu"]["hp"],
        [e["tiles"] for e in after.characters["Kiritsugu"]["effects"]],
        events[-1].spent,
    ) == (32, [2], {})


@rule("FATE-CAST-5")
def test_defense_lasts_three_turns():
    """Defense cast in turn 1 is active in turns 1-3 and gone when turn 4 starts."""
    state = given(
        *TABLE,
        StartBattle(),
        Cast("Kiritsugu", "defense", 5, 1, ("Kiritsugu",)),
        StartTurn(),
        StartTurn(),
    )
    assert [e["turns_left"] for e in state.characters["Kiritsugu"]["effects"]] == [1]
    after, _ = then(state, StartTurn())
    assert after.characters["Kiritsugu"]["effects"] == []


@rule("FATE-CAST-6")
def test_heal_is_capped_at_max_hp():
    """Kiritsugu heals 3 per tile x 2 tiles but only 4 HP short: he ends at 40."""
    state = given(*TABLE, TakeDamage("Kiritsugu", hp=4))
    after, events = then(state, Cast("Kiritsugu", "heal", 3, 2))
    assert (events[-1].hp, after.characters["Kiritsugu"]["hp"]) == (4, 40)


@rule("FATE-CAST-7")
def test_buff_one_tile_per_target_unless_chanted():
    """Two buff tiles on Saber are refused; chanted once, one pool tile gives Saber 2 buff tiles."""
    state = given(*TABLE, StartBattle())
    refused(state, Cast("Tokiomi", "buff", 6, 2, ("Saber",)), "FATE-CAST-7", "Saber")
    after, _ = then(
        given(*TABLE, StartBattle(), Chant("Tokiomi")), Cast("Tokiomi", "buff", 6, 1, ("Saber",))
    )
    assert [
        (e["kind"], e["grade"], e["tiles"], e["turns_left"])
        for e in after.characters["Saber"]["effects"]
    ] == [("buff", 6, 2, 3)]


@rule("FATE-CAST-8")
def test_curse_tiles_cancelled_by_anti_magic():
    """3 curse tiles on a servant with anti-magic 2 leave 1 tile for 5 turns."""
    curser = AddMaster("Kayneth", "A", "B", "C", ("water",), 40, 40, 20)
    state = given(curser, AddServant("Lancer", 60, 60, anti_magic=2), StartBattle())
    after, _ = then(state, Cast("Kayneth", "curse", 4, 3, ("Lancer",)))
    assert [
        (e["kind"], e["tiles"], e["turns_left"]) for e in after.characters["Lancer"]["effects"]
    ] == [("curse", 1, 5)]


@rule("FATE-CAST-9")
def test_injury_heals_only_outside_battle():
    """An injury attack of grade 3 gives 3 injury grades per tile; heal cures them after battle."""
    state = given(
        *TABLE, StartBattle(), Cast("Tokiomi", "attack", 3, 1, ("Kiritsugu",), injury=True)
    )
    assert state.characters["Kiritsugu"]["injury"] == 3
    refused(state, Cast("Kiritsugu", "heal", 2, 1, injury=True), "FATE-CAST-9", "outside battle")
    after, _ = then(
        given(
            *TABLE,
            StartBattle(),
            Cast("Tokiomi", "attack", 3, 1, ("Kiritsugu",), injury=True),
            EndBattle(),
        ),
        Cast("Kiritsugu", "heal", 2, 1, injury=True),
    )
    assert after.characters["Kiritsugu"]["injury"] == 1


@rule("FATE-CC-8")
def test_hollow_cast_costs_one_mp_less():
    """Rin (hollow) casts 3 curse tiles for 5 MP."""
    after, _ = then(given(RIN, LANCER), Cast("Rin", "curse", 5, 3, ("Lancer",)))
    assert after.characters["Rin"]["mp"] == 55


@rule("FATE-CC-10")
def test_crest_spell_costs_one_hp_and_stays_within_crest_grade():
    """Kiritsugu's crest D casts attack grade 2 (1 HP + 2 MP); grade 3 is refused."""
    state = given(*TABLE)
    after, _ = then(state, Cast("Kiritsugu", "attack", 2, 1, ("Lancer",), crest=True))
    assert hp_mp(after, "Kiritsugu") == (39, 28)
    refused(state, Cast("Kiritsugu", "attack", 3, 1, ("Lancer",), crest=True), "FATE-CAST-2", "3")


@rule("FATE-CC-9")
def test_morning_heals_crest_grade():
    """Morning heals Kiritsugu (crest D) 2 HP and Tokiomi (crest B) 4 HP, capped at max."""
    state = given(*TABLE, TakeDamage("Kiritsugu", hp=10), TakeDamage("Tokiomi", hp=1))
    after, _ = then(state, Morning())
    assert (after.characters["Kiritsugu"]["hp"], after.characters["Tokiomi"]["hp"]) == (32, 40)


@rule("FATE-CC-6")
def test_rest_refills_tiles():
    """After a cast of 2 tiles, a rest refills Kiritsugu's pool to 6; not during a battle."""
    state = given(*TABLE, Cast("Kiritsugu", "heal", 1, 2))
    after, _ = then(state, Rest())
    assert after.characters["Kiritsugu"]["tiles"] == 6
    refused(given(*TABLE, StartBattle()), Rest(), "FATE-CC-6")


# --- chant ---------------------------------------------------------------------------------------


@rule("FATE-CHANT-2")
def test_damage_cancels_pending_chants():
    """Two pending chants are cancelled when Tokiomi takes 3 HP."""
    state = given(*TABLE, Chant("Tokiomi"), Chant("Tokiomi"))
    after, events = then(state, TakeDamage("Tokiomi", hp=3))
    assert (events[0].chants_cancelled, after.characters["Tokiomi"]["chants"]) == (2, 0)


@rule("FATE-CHANT-3")
def test_back_row_cannot_chant():
    """Kiritsugu in the back row cannot chant."""
    state = given(*TABLE, MoveRow("Kiritsugu", "back"))
    refused(state, Chant("Kiritsugu"), "FATE-CHANT-3", "Kiritsugu", "back")


# --- Noble Phantasms -----------------------------------------------------------------------------


@rule("FATE-NP-4")
def test_madness_forbids_true_name_release():
    """A servant with madness B cannot release a true-name NP; madness E can, unless raging."""
    berserker = AddServant("Berserker", 80, 80, madness="B")
    state = given(
        berserker, LANCER, AddPhantasm("Berserker", "axe", "B", "anti-unit"), StartBattle()
    )
    refused(state, Release("Berserker", "axe", ("Lancer",)), "FATE-NP-4", "B")
    lancelot = AddServant("Lancelot", 80, 80, madness="E")
    calm = given(
        lancelot, LANCER, AddPhantasm("Lancelot", "sword", "B", "anti-unit"), StartBattle()
    )
    then(calm, Release("Lancelot", "sword", ("Lancer",)))
    refused(
        given(
            lancelot,
            LANCER,
            AddPhantasm("Lancelot", "sword", "B", "anti-unit"),
            ToggleMadness("Lancelot", True),
        ),
        Release("Lancelot", "sword", ("Lancer",)),
        "FATE-NP-4",
        "raging",
    )


@rule("FATE-NP-5")
def test_release_without_enough_mp():
    """Excalibur costs 50 MP; Saber with 40 MP left is refused."""
    state = given(
        AddServant("Saber", 60, 40, np_budget=15),
        LANCER,
        AddPhantasm("Saber", "excalibur", "A++", "anti-fortress"),
    )
    refused(state, Release("Saber", "excalibur", ("Lancer",)), "FATE-NP-5", "50", "40")


@rule("FATE-NP-6")
def test_one_true_name_release_per_turn():
    """Saber releases Invisible Air (5 x 6 HP) and cannot release again in the same turn."""
    state = given(SABER, LANCER, AddPhantasm("Saber", "air", "C", "anti-unit"), StartBattle())
    after, _ = then(state, Release("Saber", "air", ("Lancer",)))
    assert (after.characters["Lancer"]["hp"], after.characters["Saber"]["mp"]) == (30, 65)
    refused(after, Release("Saber", "air", ("Lancer",)), "FATE-NP-6", "turn 1")


@rule("FATE-NP-7")
def test_anti_country_back_row_takes_half_of_the_front():
    """An A++ anti-country NP hits Lancer 5 x 10 = 50; Kiritsugu behind him takes 25."""
    state = given(
        AddServant("Gil", 90, 100, np_budget=11),
        LANCER,
        KIRITSUGU,
        MoveRow("Kiritsugu", "back"),
        AddPhantasm("Gil", "ea", "A++", "anti-country"),
    )
    after, _ = then(state, Release("Gil", "ea", ("Lancer", "Kiritsugu")))
    assert (after.characters["Lancer"]["hp"], after.characters["Kiritsugu"]["hp"]) == (10, 15)
    refused(
        given(
            SABER,
            LANCER,
            KIRITSUGU,
            MoveRow("Kiritsugu", "back"),
            AddPhantasm("Saber", "excalibur", "A++", "anti-fortress"),
        ),
        Release("Saber", "excalibur", ("Kiritsugu",)),
        "FATE-NP-7",
        "back row",
    )


@rule("FATE-NP-8")
def test_always_active_once_per_round():
    """Gae Buidhe (B, always) deals 4 HP for no MP, once a round; madness B allows twice."""
    state = given(
        AddServant("Lancer", 60, 60),
        SABER,
        AddPhantasm("Lancer", "buidhe", "B", "anti-unit", release="always"),
        StartBattle(),
    )
    after, _ = then(state, Release("Lancer", "buidhe", ("Saber",)))
    assert (after.characters["Saber"]["hp"], after.characters["Lancer"]["mp"]) == (56, 60)
    refused(after, Release("Lancer", "buidhe", ("Saber",)), "FATE-NP-8", "1")
    again, _ = then(then(after, StartRound())[0], Release("Lancer", "buidhe", ("Saber",)))
    assert again.characters["Saber"]["hp"] == 52


@rule("FATE-NP-9")
def test_defensive_np_blocks_a_critical_attack():
    """Avalon (EX) tiles block 20 HP and 20 MP each: Excalibur's 10 HP 11 MP tiles do nothing,
    and each of the 5 judgments Avalon wins costs the attacker 5 + 10 = 15 HP: 75 (FATE-NP-12)."""
    state = given(
        AddServant("Saber", 60, 80, np_budget=15),
        AddServant("Saber2", 100, 80, np_budget=15),
        AddPhantasm("Saber", "avalon", "EX", "anti-unit", "defense"),
        AddPhantasm("Saber2", "excalibur", "A++", "anti-fortress"),
        StartBattle(),
        Release("Saber", "avalon"),
    )
    after, events = then(state, Release("Saber2", "excalibur", ("Saber",)))
    assert hp_mp(after, "Saber") == (80, 59)  # 60 + 20 max HP; 80 - 21 MP for Avalon
    assert (events[-2].name, events[-2].hp, events[-2].mp) == ("Saber", 0, 0)
    assert (
        events[-1].name,
        events[-1].hp,
        events[-1].mp,
        events[-1].source,
    ) == ("Saber2", 75, 0, "Saber counter")
    assert hp_mp(after, "Saber2") == (25, 30)


@rule("FATE-NP-10")
def test_field_upkeep_grows_each_round():
    """A B field (20 MP) pays 1 MP at turn 2, then 2 MP at round 2 turn 1."""
    state = given(
        AddServant("Medusa", 60, 60),
        AddPhantasm("Medusa", "fort", "B", "field"),
        StartBattle(),
        Release("Medusa", "fort"),
    )
    assert state.characters["Medusa"]["mp"] == 40
    after, events = then(state, StartTurn())
    assert [e.mp for e in events if isinstance(e, UpkeepPaid)] == [1]
    later, events = then(after, StartRound())
    assert (
        [e.mp for e in events if isinstance(e, UpkeepPaid)],
        later.characters["Medusa"]["mp"],
    ) == ([2], 37)


@rule("FATE-NP-10")
def test_reality_marble_removes_a_field_at_double_mp():
    """UBW (A++ marble, 25 MP) over a B field costs 50 MP and ends the field."""
    state = given(
        AddServant("Medusa", 60, 60),
        AddServant("Archer", 60, 80, np_budget=11),
        AddPhantasm("Medusa", "fort", "B", "field"),
        AddPhantasm("Archer", "ubw", "A++", "field", mods=(("reality-marble", "true"),)),
        StartBattle(),
        Release("Medusa", "fort"),
        StartTurn(),
    )
    after, events = then(state, Release("Archer", "ubw"))
    assert after.characters["Archer"]["mp"] == 30
    assert [FieldEnded, FieldRaised] == [type(e) for e in events[1:]]
    assert (
        after.characters["Medusa"]["field"],
        after.characters["Archer"]["field"]["np"],
    ) == (None, "ubw")


@rule("FATE-NP-11")
def test_army_summon_and_upkeep():
    """A B army: 20 MP, 5 units of 4 points, 10 MP upkeep at the next round."""
    state = given(
        AddServant("Rider", 60, 80), AddPhantasm("Rider", "host", "B", "army"), StartBattle()
    )
    after, events = then(state, Release("Rider", "host"))
    army = [e for e in events if isinstance(e, ArmySummoned)][0]
    assert (
        army.units,
        army.free_units,
        army.stat_points,
        army.upkeep_per_round,
        after.characters["Rider"]["mp"],
    ) == (5, 0, 4, 10, 60)
    later, _ = then(after, StartRound())
    assert later.characters["Rider"]["mp"] == 50
    gone, _ = then(later, Dismiss("Rider", "host"))
    assert gone.characters["Rider"]["army"] is None


@rule("FATE-NP-12")
def test_ex_attack_ignores_code_cast_defense():
    """An EX anti-unit NP (15 HP, 6 MP per tile) goes through Kiritsugu's defense tiles: 75 HP."""
    state = given(
        KIRITSUGU,
        AddServant("Gil", 90, 100, np_budget=15),
        AddPhantasm("Gil", "ea", "EX", "anti-unit"),
        StartBattle(),
        Cast("Kiritsugu", "defense", 5, 2, ("Kiritsugu",)),
    )
    after, events = then(state, Release("Gil", "ea", ("Kiritsugu",)))
    damage = [e for e in events if isinstance(e, DamageTaken)][0]
    assert (damage.hp, damage.mp, damage.spent) == (75, 30, {})


@rule("FATE-NP-13")
def test_concealment_modifier_at_release():
    """Invisible Air (C, concealment) deals 5 x 4 = 20 HP."""
    state = given(
        SABER,
        LANCER,
        AddPhantasm("Saber", "air", "C", "anti-unit", mods=(("concealment", "true"),)),
        StartBattle(),
    )
    after, _ = then(state, Release("Saber", "air", ("Lancer",)))
    assert after.characters["Lancer"]["hp"] == 40


# --- unique abilities ----------------------------------------------------------------------------


@rule("FATE-UA-1")
def test_only_one_unique_ability():
    """A master's second unique ability is refused."""
    state = given(TOKIOMI, AddUniqueAbility("Tokiomi", "gem", "C", "anti-unit", starting=True))
    refused(state, AddUniqueAbility("Tokiomi", "gem2", "C", "anti-unit"), "FATE-UA-1", "gem")


@rule("FATE-UA-2")
def test_unique_ability_waits_for_character_grade():
    """A B+ ability (6 points) is refused at character grade 11 and released at 12."""
    state = given(
        TOKIOMI,
        LANCER,
        AddUniqueAbility("Tokiomi", "flame", "B+", "anti-unit"),
        SetCharacterGrade("Tokiomi", 11),
    )
    refused(state, Release("Tokiomi", "flame", ("Lancer",)), "FATE-UA-2", "6", "12")
    after, _ = then(
        given(
            TOKIOMI,
            LANCER,
            AddUniqueAbility("Tokiomi", "flame", "B+", "anti-unit"),
            SetCharacterGrade("Tokiomi", 12),
        ),
        Release("Tokiomi", "flame", ("Lancer",)),
    )
    assert (after.characters["Tokiomi"]["mp"], after.characters["Lancer"]["hp"]) == (20, 20)


@rule("FATE-UA-3")
def test_starting_unique_ability_costs_one_grade_more():
    """A starting C anti-unit ability costs 20 MP (as B) and deals 5 x 6 = 30 HP at grade 0."""
    state = given(
        TOKIOMI, LANCER, AddUniqueAbility("Tokiomi", "gem", "C", "anti-unit", starting=True)
    )
    after, _ = then(state, Release("Tokiomi", "gem", ("Lancer",)))
    assert (after.characters["Tokiomi"]["mp"], after.characters["Lancer"]["hp"]) == (20, 30)


def test_battle_end_clears_effects_and_chants():
    """Ending the battle removes Kiritsugu's defense and Tokiomi's pending chant (decision)."""
    state = given(*TABLE, StartBattle(), Cast("Kiritsugu", "defense", 5, 2), Chant("Tokiomi"))
    after, _ = then(state, EndBattle())
    assert (
        after.characters["Kiritsugu"]["effects"],
        after.characters["Tokiomi"]["chants"],
    ) == ([], 0)
    assert after.clock == {"battle": False, "round": 0, "turn": 0}


def test_effect_ids_count_up():
    """Two defense casts raise effects #1 and #2."""
    state = given(*TABLE, StartBattle(), Cast("Kiritsugu", "defense", 5, 1))
    _, events = then(state, Cast("Kiritsugu", "defense", 5, 1))
    assert [e.effect_id for e in events if isinstance(e, EffectRaised)] == [2]


@rule("FATE-NP-9")
def test_always_active_defense_gives_its_tiles_once_per_battle():
    """A B always-active defensive NP gives 8 tiles blocking 8 each, once per battle."""
    state = given(
        AddServant("Herc", 90, 50),
        AddPhantasm("Herc", "hide", "B", "anti-unit", "defense", "always"),
        StartBattle(),
    )
    after, _ = then(state, Release("Herc", "hide"))
    assert [
        (e["kind"], e["tiles"], e["block_hp"], e["turns_left"])
        for e in after.characters["Herc"]["effects"]
    ] == [("np-defense", 8, 8, None)]
    refused(after, Release("Herc", "hide"), "FATE-NP-9", "hide")
    hit, _ = then(after, TakeDamage("Herc", hp=10, mp=10))
    assert hp_mp(hit, "Herc") == (88, 48)


@rule("FATE-NP-8")
def test_always_active_count_is_per_np():
    """Two always-active attack NPs may each be used once in the same round."""
    state = given(
        AddServant("Diarmuid", 60, 60),
        SABER,
        AddPhantasm("Diarmuid", "dearg", "B", "anti-unit", release="always"),
        AddPhantasm("Diarmuid", "buidhe", "B", "anti-unit", release="always"),
        StartBattle(),
        Release("Diarmuid", "dearg", ("Saber",)),
    )
    after, _ = then(state, Release("Diarmuid", "buidhe", ("Saber",)))
    assert after.characters["Saber"]["hp"] == 52


@rule("FATE-NP-9")
def test_spread_defensive_np_gives_one_tile_a_turn():
    """A spread B defensive NP meets one hit a turn; a second hit that turn goes through."""
    state = given(
        AddServant("Saber", 60, 80),
        AddPhantasm("Saber", "shield", "B", "anti-unit", "defense"),
        StartBattle(),
        Release("Saber", "shield", spread=True),
        TakeDamage("Saber", hp=10),
    )
    assert state.characters["Saber"]["hp"] == 60
    after, events = then(state, TakeDamage("Saber", hp=10))
    assert (events[0].spent, after.characters["Saber"]["hp"]) == ({}, 50)
    next_turn, _ = then(after, StartTurn())
    hit, events = then(next_turn, TakeDamage("Saber", hp=10))
    assert (
        events[0].spent,
        hit.characters["Saber"]["hp"],
        [e["tiles"] for e in hit.characters["Saber"]["effects"]],
    ) == ({"1": 1}, 50, [3])


# --- undo: outcomes name their cast or release by its seq ----------------------------------------


@rule("FATE-NP-6")
def test_damage_without_its_release_names_the_release_by_its_seq():
    """With release #5 undone, Sab's damage #6 to Ann does not apply and names the release #5."""
    pairs = logged(
        KIRITSUGU,
        AddMaster("Ann", "A", "B", "B", ("fire",), 40, 40, 20),
        AddServant("Sab", 60, 80),
        AddPhantasm("Sab", "ia", "C", "anti-unit"),
        Release("Sab", "ia", ("Ann",)),
    )
    assert [(seq, getattr(e, "action", 0) or e.cause) for seq, e in pairs[4:]] == [(5, 5), (6, 5)]
    failed = fold_collecting(given(), pairs, undone={5})
    assert [(seq, exc.rule_id) for seq, _, exc in failed] == [(6, "FATE-NP-6")]
    assert failed[0][2].message == (
        "damage to Ann comes from the release #5, which is undone; undo the damage first,"
        " or redo #5"
    )


@rule("FATE-CAST-5")
def test_effect_without_its_cast_names_the_cast_by_its_seq():
    """With Kiritsugu's defense cast #4 undone, its effect #5 names the cast #4."""
    pairs = logged(*TABLE[:2], StartBattle(), Cast("Kiritsugu", "defense", 5, 2))
    failed = fold_collecting(given(), pairs, undone={4})
    assert [seq for seq, _, _ in failed] == [5]
    assert failed[0][2].message.startswith(
        "defense on Kiritsugu comes from the cast #4, which is undone; undo the defense first"
    )


@rule("FATE-CAST-4")
def test_an_outcome_from_a_v1_log_keeps_its_link_without_naming_a_seq():
    """A v1 damage event (cause 2, a counter) is upcast to cause -2 and names no seq."""
    from tablelog.events.codec import from_record

    data = {"name": "Ann", "hp": 6, "mp": 0, "source": "Tokiomi attack", "cause": 2}
    damage = from_record("fate.DamageTaken", 1, data)
    assert damage.cause == -2
    state = given(AddMaster("Ann", "A", "B", "B", ("fire",), 40, 40, 20))
    with pytest.raises(RuleViolation) as err:
        check(state, damage)
    assert "comes from an earlier cast, which is undone" in err.value.message


# --- FATE-CAST-7: one un-chanted buff tile per target, across casts ------------------------------


@rule("FATE-CAST-7")
def test_a_second_unchanted_buff_on_a_target_is_refused():
    """Tokiomi's second 1-tile buff on Saber, or Kiritsugu's, is refused naming buff #1."""
    state = given(*TABLE, StartBattle(), Cast("Tokiomi", "buff", 2, 1, ("Saber",)))
    refused(
        state,
        Cast("Tokiomi", "buff", 2, 1, ("Saber",)),
        "FATE-CAST-7",
        "Saber already holds a buff tile (effect #1 from Tokiomi, 3 turns left)",
    )
    refused(state, Cast("Kiritsugu", "buff", 2, 2, ("Lancer", "Saber")), "FATE-CAST-7", "Saber")
    assert len(state.characters["Saber"]["effects"]) == 1


@rule("FATE-CAST-7")
def test_a_target_may_be_buffed_again_once_its_buff_ends():
    """Saber's buff cast in turn 1 ends when turn 4 starts; a new 1-tile buff is then accepted."""
    state = given(
        *TABLE,
        StartBattle(),
        Cast("Tokiomi", "buff", 2, 1, ("Saber",)),
        StartTurn(),
        StartTurn(),
        StartTurn(),
    )
    after, _ = then(state, Cast("Tokiomi", "buff", 3, 1, ("Saber",)))
    assert [
        (e["id"], e["kind"], e["grade"], e["tiles"]) for e in after.characters["Saber"]["effects"]
    ] == [(2, "buff", 3, 1)]


@rule("FATE-CHANT-4")
def test_a_chanted_buff_may_join_an_unchanted_one():
    """A chanted buff puts 2 more tiles on Saber beside her un-chanted one: 3 buff tiles."""
    state = given(
        *TABLE, StartBattle(), Cast("Tokiomi", "buff", 2, 1, ("Saber",)), Chant("Tokiomi")
    )
    after, events = then(state, Cast("Tokiomi", "buff", 2, 1, ("Saber",)))
    assert [(e["tiles"], e["chanted"]) for e in after.characters["Saber"]["effects"]] == [
        (1, False),
        (2, True),
    ]
    assert events[-1].chanted


@rule("FATE-CAST-7")
def test_the_precondition_refuses_a_second_unchanted_buff():
    """Two un-chanted buff events on Saber (e.g. after a redo) do not both hold."""
    state = given(*TABLE, StartBattle(), Cast("Tokiomi", "buff", 2, 1, ("Saber",)))
    second = EffectRaised("Saber", 2, "buff", 2, 1, 3, "Kiritsugu")
    with pytest.raises(RuleViolation) as err:
        check(state, second)
    assert (err.value.rule_id, "effect #1" in err.value.message) == ("FATE-CAST-7", True)
    check(state, attrs.evolve(second, chanted=True))
    evolve(state, attrs.evolve(second, chanted=True))
    assert len(state.characters["Saber"]["effects"]) == 2


@rule("FATE-CAST-7")
def test_a_v1_buff_of_several_tiles_is_upcast_as_chanted():
    """A v1 EffectRaised buff of 2 tiles on one target came from a chanted cast; 1 tile did not."""
    from tablelog.events.codec import from_record

    base = {
        "target": "Saber",
        "effect_id": 1,
        "kind": "buff",
        "grade": 2,
        "turns": 3,
        "source": "Tokiomi",
        "cause": 4,
    }
    two = from_record("fate.EffectRaised", 1, {**base, "tiles": 2})
    one = from_record("fate.EffectRaised", 1, {**base, "tiles": 1})
    assert (two.chanted, one.chanted, one.cause) == (True, False, -4)


# --- counted releases hold across commands, undo and redo ----------------------------------------


@rule("FATE-NP-9")
def test_always_active_defense_once_per_battle_even_after_its_tiles_are_spent():
    """Herc's 8 hide tiles, all spent by 8 hits, cannot be raised again in the same battle."""
    state = given(
        AddServant("Herc", 90, 50),
        AddPhantasm("Herc", "hide", "B", "anti-unit", "defense", "always"),
        StartBattle(),
        Release("Herc", "hide"),
    )
    for _ in range(8):
        state = given_on(state, StartTurn(), TakeDamage("Herc", hp=1))
    assert state.characters["Herc"]["effects"] == []
    refused(
        state,
        Release("Herc", "hide"),
        "FATE-NP-9",
        "Herc's always-active hide already gave its tiles this battle",
    )
    after, _ = then(given_on(state, EndBattle(), StartBattle()), Release("Herc", "hide"))
    assert [e["tiles"] for e in after.characters["Herc"]["effects"]] == [8]


@rule("FATE-NP-6")
def test_the_precondition_refuses_a_second_true_name_release_in_a_turn():
    """A second PhantasmReleased of Saber in round 1, turn 1 (e.g. after a redo) does not hold."""
    state = given(
        SABER,
        LANCER,
        AddPhantasm("Saber", "air", "C", "anti-unit"),
        StartBattle(),
        Release("Saber", "air", ("Lancer",)),
    )
    with pytest.raises(RuleViolation) as err:
        check(state, PhantasmReleased("Saber", "air", 15, ("Lancer",)))
    assert (
        err.value.rule_id,
        err.value.message,
    ) == ("FATE-NP-6", "Saber already released an NP in round 1, turn 1")


@rule("FATE-NP-8")
def test_the_precondition_refuses_an_always_active_use_past_its_count():
    """A second use of Gae Buidhe in one round (madness none: once) does not hold."""
    buidhe = AddPhantasm("Lancer", "buidhe", "B", "anti-unit", release="always")
    state = given(LANCER, SABER, buidhe, StartBattle(), Release("Lancer", "buidhe", ("Saber",)))
    with pytest.raises(RuleViolation) as err:
        check(
            state, PhantasmReleased("Lancer", "buidhe", 0, ("Saber",), always=True, uses_allowed=1)
        )
    assert (
        err.value.rule_id,
        err.value.message,
    ) == ("FATE-NP-8", "Lancer has used buidhe 1 time this round; 1 use allowed")


# --- each event names the rules behind it, not every rule its type may use -----------------------


def rules_of(events, kind) -> list[tuple[str, ...]]:
    """The rule IDs each event of class ``kind`` names in its audit line."""
    return [e.rule_ids() for e in events if isinstance(e, kind)]


@rule("FATE-CAST-4")
def test_cast_damage_names_the_cast_rules_not_the_np_rules():
    """Tokiomi's attack on Kiritsugu through one defense tile names FATE-CAST-4 and -5 only."""
    state = given(*TABLE, StartBattle(), Cast("Kiritsugu", "defense", 5, 1))
    _, events = then(state, Cast("Tokiomi", "attack", 4, 2, ("Kiritsugu",)))
    assert rules_of(events, DamageTaken) == [("FATE-CAST-4", "FATE-CAST-5")]
    assert ENGLISH.explain(events[-1])[0] == "rule FATE-CAST-4, FATE-CAST-5"
    _, bare = then(given(*TABLE, StartBattle()), Cast("Tokiomi", "attack", 4, 1, ("Lancer",)))
    assert rules_of(bare, DamageTaken) == [("FATE-CAST-4",)]


@rule("FATE-NP-6")
def test_np_damage_names_the_np_rules_not_the_cast_rules():
    """Excalibur's damage names FATE-NP-6 and -7; through Avalon's tiles also FATE-NP-9."""
    state = given(
        SABER, LANCER, AddPhantasm("Saber", "excalibur", "A++", "anti-fortress"), StartBattle()
    )
    _, events = then(state, Release("Saber", "excalibur", ("Lancer",)))
    assert rules_of(events, DamageTaken) == [("FATE-NP-6", "FATE-NP-7")]
    assert rules_of(events, PhantasmReleased) == [("FATE-NP-5", "FATE-NP-6", "FATE-NP-7")]
    guarded = given(
        AddServant("Artoria", 60, 80, np_budget=15),
        AddServant("Saber2", 60, 80, np_budget=15),
        AddPhantasm("Artoria", "avalon", "EX", "anti-unit", "defense"),
        AddPhantasm("Saber2", "excalibur", "A++", "anti-fortress"),
        StartBattle(),
        Release("Artoria", "avalon"),
    )
    _, hit = then(guarded, Release("Saber2", "excalibur", ("Artoria",)))
    assert rules_of(hit, DamageTaken) == [("FATE-NP-6", "FATE-NP-7", "FATE-NP-9"), ("FATE-NP-12",)]


@rule("FATE-NP-8")
def test_always_active_np_names_its_own_rule():
    """Gae Buidhe (always-active) names FATE-NP-8 for its release and its damage, not NP-5/6/7."""
    state = given(
        LANCER,
        SABER,
        AddPhantasm("Lancer", "buidhe", "B", "anti-unit", release="always"),
        StartBattle(),
    )
    _, events = then(state, Release("Lancer", "buidhe", ("Saber",)))
    assert rules_of(events, PhantasmReleased) == [("FATE-NP-8",)]
    assert rules_of(events, DamageTaken) == [("FATE-NP-8",)]


@rule("FATE-NP-9")
def test_np_defense_rule_only_for_a_defensive_np():
    """An attack NP's PhantasmAdded does not name FATE-NP-9; a defensive NP's does."""
    _, attack = then(given(SABER), AddPhantasm("Saber", "air", "C", "anti-unit"))
    _, defense = then(given(SABER), AddPhantasm("Saber", "shield", "A+", "anti-unit", "defense"))
    assert [e.rule_ids() for e in attack] == [
        ("FATE-NP-1", "FATE-NP-2", "FATE-NP-3", "FATE-NP-5", "FATE-NP-6", "FATE-NP-7")
    ]
    assert [e.rule_ids() for e in defense] == [
        ("FATE-NP-1", "FATE-NP-2", "FATE-NP-3", "FATE-NP-5", "FATE-NP-9")
    ]
    state = given(
        SABER, AddPhantasm("Saber", "shield", "A+", "anti-unit", "defense"), StartBattle()
    )
    _, released = then(state, Release("Saber", "shield"))
    assert rules_of(released, PhantasmReleased) == [("FATE-NP-5", "FATE-NP-9")]
    assert rules_of(released, EffectRaised) == [("FATE-NP-9",)]


@rule("FATE-CAST-7")
def test_effects_name_the_rule_of_their_kind():
    """A defense effect names FATE-CAST-5, a buff FATE-CAST-7 (chanted: and FATE-CHANT-4)."""
    state = given(*TABLE, StartBattle())
    _, defense = then(state, Cast("Kiritsugu", "defense", 5, 1))
    _, buff = then(state, Cast("Tokiomi", "buff", 2, 1, ("Saber",)))
    _, chanted = then(given_on(state, Chant("Tokiomi")), Cast("Tokiomi", "buff", 2, 1, ("Saber",)))
    assert [
        *rules_of(defense, EffectRaised),
        *rules_of(buff, EffectRaised),
        *rules_of(chanted, EffectRaised),
    ] == [("FATE-CAST-5",), ("FATE-CAST-7",), ("FATE-CAST-7", "FATE-CHANT-4")]


@rule("FATE-CC-8")
def test_cast_names_chant_hollow_and_crest_only_when_they_apply():
    """Rin's hollow curse names FATE-CC-8; Tokiomi's plain attack names only FATE-CAST-1..3."""
    _, hollow = then(given(RIN, LANCER), Cast("Rin", "curse", 5, 3, ("Lancer",)))
    _, plain = then(given(*TABLE), Cast("Tokiomi", "attack", 2, 1, ("Lancer",)))
    assert hollow[0].rule_ids() == ("FATE-CAST-1", "FATE-CAST-2", "FATE-CAST-3", "FATE-CC-8")
    assert plain[0].rule_ids() == ("FATE-CAST-1", "FATE-CAST-2", "FATE-CAST-3")


@rule("FATE-NP-10")
def test_upkeep_names_field_or_army_rules():
    """A field's upkeep names FATE-NP-10, an army's FATE-NP-11."""
    state = given(
        AddServant("Medusa", 60, 60),
        AddServant("Rider", 60, 80),
        AddPhantasm("Medusa", "fort", "B", "field"),
        AddPhantasm("Rider", "host", "B", "army"),
        StartBattle(),
        Release("Medusa", "fort"),
        Release("Rider", "host"),
    )
    _, events = then(state, StartRound())
    assert rules_of(events, UpkeepPaid) == [("FATE-NP-10",), ("FATE-NP-11",)]


@rule("FATE-CAST-5")
def test_outside_damage_names_the_defense_decision():
    """`fate damage` names FATE-CAST-5 (one incoming tile); breaking a chant adds FATE-CHANT-2."""
    _, events = then(given(*TABLE, Chant("Tokiomi")), TakeDamage("Tokiomi", hp=3))
    assert rules_of(events, DamageTaken) == [("FATE-CAST-5", "FATE-CHANT-2")]


# --- messages read as English for the GM: plurals, articles, no None or Python reprs -------------


EXCALIBUR = AddPhantasm("Saber", "excalibur", "A++", "anti-fortress")
MESSAGES = [
    (
        "FATE-CAST-2",
        (*TABLE, StartBattle()),
        Cast("Tokiomi", "attack", 2, 1, ("Saber", "Lancer")),
        "2 targets but only 1 tile",
    ),
    (
        "FATE-CAST-2",
        (*TABLE, StartBattle()),
        Cast("Tokiomi", "attack", 2, 2, ("Saber", "Saber")),
        "Saber named twice as a target",
    ),
    (
        "FATE-CC-7",
        (*TABLE, StartBattle()),
        Cast("Tokiomi", "curse", 2, 1, ("Saber",)),
        "cannot cast curse: the caster may cast attack and buff",
    ),
    (
        "FATE-CAST-2",
        TABLE,
        Cast("Kiritsugu", "attack", 3, 1, ("Saber",), crest=True),
        "attack grade 3 is outside 1..2 (the attack spell stored in the crest)",
    ),
    (
        "FATE-CC-7",
        (*TABLE, StartBattle()),
        Cast("Tokiomi", "curse", 2, 1),
        "cannot cast curse: the caster may cast attack and buff",
    ),
    (
        "FATE-CAST-3",
        (AddMaster("Waver", "D", "C", "E", ("wind",), 30, 1, 20),),
        Cast("Waver", "defense", 1, 1),
        "1 tile costs 2 MP; Waver has 1",
    ),
    (
        "FATE-NP-3",
        TABLE,
        AddPhantasm("Lancer", "x", "D", "anti-army"),
        "an anti-army NP must be grade C or higher, not D",
    ),
    (
        "FATE-NP-3",
        TABLE,
        AddPhantasm("Lancer", "x", "B", "army", "defense"),
        "an army NP has no defense form",
    ),
    (
        "FATE-CC-8",
        (),
        AddMaster("Kayneth", "A", "A", "C", ("none",), 40, 40, cc_budget=30),
        "attribute none needs --none-kind, one of attack, defense, heal, buff or curse",
    ),
    (
        "FATE-CC-1",
        (),
        AddMaster("Kayneth", "EX", "A+", "C", ("water",), 40, 40, 20),
        "the build costs 21 CC points (quality 10, quantity 8, crest 3 and attributes 0);"
        " the budget is 20",
    ),
    (
        "FATE-CC-2",
        (),
        AddMaster("Kayneth", "A", "A", "C", ("fire", "fire"), 40, 40, 20),
        "fire given twice as an attribute",
    ),
    (
        "FATE-CC-8",
        (),
        AddMaster("Kayneth", "A", "A", "C", ("hollow", "fire"), 40, 40, cc_budget=40),
        "hollow stands alone: it cannot be combined with fire",
    ),
    (
        "FATE-NP-7",
        (*TABLE, EXCALIBUR, StartBattle()),
        Release("Saber", "excalibur", ("Lancer", "Kiritsugu", "Tokiomi", "Saber")),
        "an anti-fortress NP hits at most 3 front-row targets, 4 named (Lancer, Kiritsugu, Tokiomi"
        " and Saber)",
    ),
    (
        "FATE-NP-7",
        (*TABLE, EXCALIBUR, StartBattle()),
        Release("Saber", "excalibur"),
        "an anti-fortress release needs a --target",
    ),
    (
        "UNKNOWN-NAME",
        TABLE,
        Release("Lancer", "spear", ("Saber",)),
        "Lancer has no NP called spear (has none)",
    ),
    (
        "UNKNOWN-NAME",
        TABLE,
        Dismiss("Saber", "ubw"),
        "Saber has no field or army called ubw up (none is up)",
    ),
    (
        "FATE-UA-2",
        (*TABLE, AddUniqueAbility("Tokiomi", "flame", "B+", "anti-unit")),
        Release("Tokiomi", "flame", ("Lancer",)),
        "grade B+ costs 6 points; character grade 0 earns 0 (it needs character grade 12)",
    ),
    (
        "FATE-CAST-5",
        TABLE,
        TakeDamage("Saber"),
        "damage needs --hp, --mp or --injury above 0 and none below (got 0 HP, 0 MP, 0 injury"
        " grades)",
    ),
]


@pytest.mark.parametrize(
    ("rule_id", "table", "command", "message"),
    [pytest.param(*m, marks=rule(m[0]), id=m[3][:40]) for m in MESSAGES],
)
def test_refusals_read_as_english(rule_id, table, command, message):
    """Each refusal names its values in plain English (no "1 tiles", "a anti-army", None, [..])."""
    with pytest.raises(RuleViolation) as err:
        decide(given(*table), command)
    assert (rule_id, message) == (err.value.rule_id, err.value.message)


@rule("FATE-CAST-5")
def test_descriptions_count_in_english():
    """One tile, one turn, one injury grade and one NP point are singular in the log lines."""
    from tablelog.events.fate import CodeCast, InjuryHealed, ServantAdded

    cast = CodeCast("Tokiomi", "attack", 2, 1, 1, ("Lancer", "Saber"), 2)
    assert ENGLISH.event(cast) == "Tokiomi attack grade 2: 1 tile on Lancer and Saber; 2 MP"
    effect = EffectRaised("Saber", 1, "np-defense", 3, 1, 1, "Saber")
    assert ENGLISH.event(effect) == "Saber: np-defense grade 3 x 1 tile for 1 turn (from Saber)"
    assert (
        ENGLISH.event(InjuryHealed("Ann", 1, "Bea heal")) == "Ann loses 1 injury grade (Bea heal)"
    )
    servant = ServantAdded("Sab", 50, 40, np_budget=1)
    assert ENGLISH.event(servant) == "Sab: HP 50, MP 40, 1 NP point, anti-magic 0"


# --- state layout: short diffs -------------------------------------------------------------------


@rule("FATE-NP-9")
def test_a_turn_changes_only_each_effects_turns_left():
    """A hit on a spread NP changes only its tiles; the next turn only each effect's turns_left."""
    state = given(
        *TABLE,
        AddPhantasm("Saber", "shield", "B", "anti-unit", "defense"),
        StartBattle(),
        Cast("Kiritsugu", "defense", 5, 1),
        Cast("Tokiomi", "buff", 2, 1, ("Kiritsugu",)),
        Release("Saber", "shield", spread=True),
    )
    hit, _ = then(state, TakeDamage("Saber", hp=3))
    assert diff(entity_view(state), entity_view(hit)) == [
        ("characters.Saber.effects[0].tiles", 5, 4)
    ]
    after, _ = then(hit, StartTurn())
    assert diff(entity_view(hit), entity_view(after)) == [
        ("clock.turn", 1, 2),
        ("characters.Kiritsugu.effects[0].turns_left", 3, 2),
        ("characters.Kiritsugu.effects[1].turns_left", 3, 2),
        ("characters.Saber.effects[0].turns_left", 5, 4),
    ]


# --- FATE-NP-14: the turn of an NP or a unique ability allows only that ------------------------

JEWEL = AddUniqueAbility("Tokiomi", "jewel", "C", "anti-unit", starting=True)
BOLG = AddPhantasm("Lancer", "bolg", "B", "anti-unit")
BUIDHE = AddPhantasm("Lancer", "buidhe", "E", "anti-unit", release="always")


@rule("FATE-NP-14")
def test_no_code_cast_in_the_turn_of_a_unique_ability():
    """Tokiomi releases his unique ability in round 1, turn 1: a defense cast that turn is
    refused naming the turn; the next turn it is accepted."""
    state = given(*TABLE, JEWEL, StartBattle(), Release("Tokiomi", "jewel", ("Lancer",)))
    refused(
        state,
        Cast("Tokiomi", "defense", 1, 1),
        "FATE-NP-14",
        "Tokiomi released an NP in round 1, turn 1: that turn allows only the NP, not a code cast",
    )
    then(given_on(state, StartTurn()), Cast("Tokiomi", "buff", 1, 1))


@rule("FATE-NP-14")
def test_no_unique_ability_after_a_code_cast_in_the_same_turn():
    """Tokiomi casts a buff in round 1, turn 1: his unique ability that turn is refused; another
    master's cast does not bind him."""
    state = given(*TABLE, JEWEL, StartBattle(), Cast("Tokiomi", "buff", 1, 1))
    refused(
        state,
        Release("Tokiomi", "jewel", ("Lancer",)),
        "FATE-NP-14",
        "Tokiomi already used a code cast in round 1, turn 1: the turn of an NP allows only the NP",
    )
    then(
        given(*TABLE, JEWEL, StartBattle(), Cast("Kiritsugu", "buff", 1, 1)),
        Release("Tokiomi", "jewel", ("Lancer",)),
    )


@rule("FATE-NP-14")
def test_no_always_active_np_in_the_turn_of_a_true_name_release_before_or_after():
    """Lancer's always-active Buidhe is refused in the turn of his Gae Bolg; Gae Bolg is refused
    in a turn he used Buidhe."""
    table = (SABER, LANCER, BOLG, BUIDHE, StartBattle())
    state = given(*table, Release("Lancer", "bolg", ("Saber",)))
    refused(state, Release("Lancer", "buidhe", ("Saber",)), "FATE-NP-14", "not an always-active NP")
    state = given(*table, Release("Lancer", "buidhe", ("Saber",)))
    refused(
        state,
        Release("Lancer", "bolg", ("Saber",)),
        "FATE-NP-14",
        "Lancer already used an always-active NP in round 1, turn 1",
    )


@rule("FATE-NP-14")
def test_the_precondition_holds_the_rule_across_undo_and_redo():
    """A CodeCast of Tokiomi does not hold in the turn of his unique ability (say, redone after
    the release), and is accepted outside battle, where there are no turns."""
    from tablelog.events.fate import CodeCast

    state = given(*TABLE, JEWEL, StartBattle(), Release("Tokiomi", "jewel", ("Lancer",)))
    cast = CodeCast("Tokiomi", "buff", 1, 1, 1, ("Tokiomi",), 2)
    with pytest.raises(RuleViolation) as err:
        check(state, cast)
    assert err.value.rule_id == "FATE-NP-14"
    check(given(*TABLE, JEWEL, Release("Tokiomi", "jewel", ("Lancer",))), cast)


# --- FATE-NP-13: the seed's NP abilities stated with numbers, declared as data (--mod) ----------

TARGETS = (AddServant("Lancer", 100, 100), AddServant("Archer", 100, 100))
SEED_ABILITIES = [
    (
        "엑스칼리버 [위력Ⅰ/Ⅱ]",
        (
            SABER,
            *TARGETS,
            AddPhantasm(
                "Saber",
                "excalibur",
                "A++",
                "anti-fortress",
                mods=(("plus-hp", "2"), ("plus-mp", "6")),
            ),
            StartBattle(),
        ),
        Release("Saber", "excalibur", ("Lancer",), plus_used=True),
        [
            "Saber releases excalibur at Lancer; 50 MP",
            "Lancer takes 60 HP, 85 MP (Saber excalibur)",
        ],
    ),  # 5 x (10 + 2) HP; 5 x (2 x 6 + 5) MP
    (
        "게 불그 [확장]",
        (
            *TARGETS,
            AddServant("Cu", 60, 60),
            AddPhantasm(
                "Cu", "bolg", "B+", "anti-unit", mods=(("piercing", "true"), ("widen", "anti-army"))
            ),
            StartBattle(),
        ),
        Release("Cu", "bolg", ("Lancer", "Archer"), plus_used=True),
        [
            "Cu releases bolg at Lancer and Archer; 20 MP",
            "Lancer takes 65 HP, 0 MP (Cu bolg)",
            "Archer takes 65 HP, 0 MP (Cu bolg)",
        ],
    ),
    (
        "게 보 [부상]",
        (
            *TARGETS,
            AddServant("Diarmuid", 60, 60),
            AddPhantasm(
                "Diarmuid",
                "buidhe",
                "B",
                "anti-unit",
                release="always",
                mods=(("wound", "1"), ("wound-max", "4")),
            ),
            StartBattle(),
        ),
        Release("Diarmuid", "buidhe", ("Lancer",)),
        [
            "Diarmuid releases buidhe at Lancer; 0 MP",
            "Lancer takes 4 HP, 0 MP, 1 injury (Diarmuid buidhe)",
        ],
    ),
    (
        "블러드포트 안드로메다 [고갈Ⅰ][상쇄][흡수]",
        (
            *TARGETS,
            AddServant("Saber", 60, 80, anti_magic=5),
            AddServant("Medusa", 60, 60),
            AddPhantasm(
                "Medusa",
                "fort",
                "B",
                "field",
                mods=(("drain", "8"), ("drain-offset", "true"), ("absorb", "true")),
            ),
            StartBattle(),
            Release("Medusa", "fort"),
            TakeDamage("Medusa", mp=20),
        ),
        StartRound(),
        [
            "round 2, turn 1",
            "Medusa pays 2 MP upkeep for fort",
            "Lancer takes 8 HP, 0 MP (Medusa fort drain)",
            "Archer takes 8 HP, 0 MP (Medusa fort drain)",
            "Medusa absorbs 8 MP (fort absorb)",
        ],
    ),  # Saber: 8 - 2 x 5 anti-magic = 0
    (
        "프렐라티즈 스펠북 [소환][지원]",
        (
            AddServant("Gilles", 60, 60),
            AddPhantasm(
                "Gilles",
                "book",
                "A+",
                "army",
                mods=(("familiar-mp", "5"), ("familiar-discount", "2"), ("familiar-points", "3")),
            ),
            StartBattle(),
        ),
        Release("Gilles", "book", units=4),
        [
            "Gilles releases book; 12 MP",
            "Gilles summons book: 4 units of 3 points (0 free), 0 MP per round",
        ],
    ),
    (
        "게이트 오브 바빌론 [사격] x 2",
        (
            AddServant("Gil", 60, 80, np_budget=15),
            AddPhantasm("Gil", "gob", "EX", "field", mods=(("shot-mp", "5"), ("shots", "2"))),
            StartBattle(),
            Release("Gil", "gob"),
            StartTurn(),
        ),
        UseAbility("Gil", "gob", "shoot", 2),
        ["Gil uses gob's shoot x 2; 10 MP"],
    ),
    (
        "무한의 검제 [사격]",
        (
            AddServant("Emiya", 60, 80, np_budget=15),
            AddPhantasm(
                "Emiya",
                "ubw",
                "A++",
                "field",
                mods=(("reality-marble", "true"), ("shot-mp", "5"), ("shots", "1")),
            ),
            StartBattle(),
            Release("Emiya", "ubw"),
            StartTurn(),
        ),
        UseAbility("Emiya", "ubw", "shoot"),
        ["Emiya uses ubw's shoot; 5 MP"],
    ),
    (
        "고르디어스 휠 [선회]",
        (
            *TARGETS,
            AddServant("Rider", 60, 80),
            AddPhantasm(
                "Rider",
                "wheel",
                "A+",
                "anti-army",
                mods=(("charge-mp", "20"), ("charge-tiles", "3")),
            ),
            StartBattle(),
            Release("Rider", "wheel", ("Archer",)),
            StartTurn(),
        ),
        UseAbility("Rider", "wheel", "charge", targets=("Lancer",)),
        ["Rider uses wheel's charge at Lancer; 20 MP", "Lancer takes 30 HP, 9 MP (Rider wheel)"],
    ),  # 3 NP tiles of 10 HP, 3 MP
    (
        "갓 핸드",
        (
            TOKIOMI,
            AddServant("Herc", 90, 50),
            AddPhantasm(
                "Herc",
                "god-hand",
                "B",
                "anti-unit",
                "defense",
                "always",
                (("ignores-attacks", "true"),),
            ),
            StartBattle(),
        ),
        Cast("Tokiomi", "attack", 4, 2, ("Herc",)),
        ["Tokiomi attack grade 4: 2 tiles on Herc; 4 MP", "Herc takes 0 HP, 0 MP (Tokiomi attack)"],
    ),  # rank B (4): ignored
    (
        "모든 것이 머나먼 이상향 [EX 등급 효과]",
        (
            SABER,
            AddServant("Mordred", 100, 80, np_budget=15),
            AddPhantasm("Saber", "avalon", "EX", "anti-unit", "defense"),
            AddPhantasm("Mordred", "clarent", "A++", "anti-fortress"),
            StartBattle(),
            Release("Saber", "avalon"),
        ),
        Release("Mordred", "clarent", ("Saber",)),
        [
            "Mordred releases clarent at Saber; 50 MP",
            "Saber takes 0 HP, 0 MP (Mordred clarent)",
            "Mordred takes 75 HP, 0 MP (Saber counter)",
        ],
    ),  # 5 judgments won x (5 + 10)
]


@rule("FATE-NP-13")
@pytest.mark.parametrize(
    ("name", "table", "command", "lines"), SEED_ABILITIES, ids=[row[0] for row in SEED_ABILITIES]
)
def test_seed_np_abilities_come_out_of_their_declared_modifiers(name, table, command, lines):
    """Each seed NP ability stated with numbers, declared with --mod, gives the seed's numbers."""
    _, events = then(given(*table), command)
    assert lines == [ENGLISH.event(e) for e in events]


PLAIN_EXCALIBUR = AddPhantasm("Saber", "excalibur", "A++", "anti-fortress")
GOD_HAND = AddPhantasm(
    "Herc", "god-hand", "B", "anti-unit", "defense", "always", (("ignores-attacks", "true"),)
)
GOB = AddPhantasm("Gil", "gob", "EX", "field", mods=(("shot-mp", "5"), ("shots", "2")))
WHEEL = AddPhantasm(
    "Rider", "wheel", "A+", "anti-army", mods=(("charge-mp", "20"), ("charge-tiles", "3"))
)
BOOK = AddPhantasm(
    "Gilles",
    "book",
    "A+",
    "army",
    mods=(("familiar-mp", "5"), ("familiar-discount", "2"), ("familiar-points", "3")),
)
FLAGS = [
    (
        "FATE-NP-13",
        (SABER, LANCER, PLAIN_EXCALIBUR, StartBattle()),
        Release("Saber", "excalibur", ("Lancer",), plus_used=True),
        "--use-plus does nothing for this NP: an attack NP uses its + only through a + ability"
        " (widen, plus-hp or plus-mp)",
    ),
    (
        "FATE-NP-13",
        (SABER, LANCER, AddPhantasm("Saber", "air", "C", "anti-unit"), StartBattle()),
        Release("Saber", "air", ("Lancer",), plus_used=True),
        "air (C) has no + to use",
    ),
    (
        "FATE-NP-13",
        (SABER, AddPhantasm("Saber", "avalon", "EX", "anti-unit", "defense"), StartBattle()),
        Release("Saber", "avalon", plus_used=True),
        "--use-plus does nothing for avalon: a defensive NP's + adds nothing when used",
    ),
    (
        "FATE-NP-9",
        (SABER, LANCER, PLAIN_EXCALIBUR, StartBattle()),
        Release("Saber", "excalibur", ("Lancer",), spread=True),
        "--spread is for a true-name defensive NP (one tile a turn over 5 turns)",
    ),
    (
        "FATE-NP-11",
        (SABER, LANCER, PLAIN_EXCALIBUR, StartBattle()),
        Release("Saber", "excalibur", ("Lancer",), units=2),
        "--units is for an NP that summons familiars",
    ),
    (
        "FATE-NP-11",
        (AddServant("Gilles", 60, 60), BOOK, StartBattle()),
        Release("Gilles", "book"),
        "book summons familiars: give --units N",
    ),
    (
        "FATE-NP-15",
        (AddServant("Herc", 90, 50), GOD_HAND, StartBattle()),
        Release("Herc", "god-hand"),
        "god-hand is always active: it ignores attacks of rank B or lower and raises no defense"
        " tiles; there is nothing to release",
    ),
    (
        "FATE-NP-15",
        (AddServant("Herc", 90, 50, np_budget=15),),
        AddPhantasm(
            "Herc",
            "god-hand",
            "A",
            "anti-unit",
            "defense",
            "always",
            (("ignores-attacks", "true"),),
        ),
        "an always-active NP that ignores attacks is at most grade B, not A",
    ),
    (
        "FATE-NP-13",
        (LANCER,),
        AddPhantasm("Lancer", "x", "C", "anti-unit", mods=(("drain", "8"),)),
        "modifier drain is for a bounded field, not a true-name anti-unit attack NP",
    ),
    (
        "FATE-NP-13",
        (AddServant("Gil", 60, 80, np_budget=15), GOB, StartBattle()),
        UseAbility("Gil", "gob", "shoot"),
        "gob's shoot needs gob up (Gil holds no such field)",
    ),
    (
        "FATE-NP-13",
        (
            AddServant("Gil", 60, 80, np_budget=15),
            GOB,
            StartBattle(),
            Release("Gil", "gob"),
            StartTurn(),
        ),
        UseAbility("Gil", "gob", "shoot", 3),
        "3 shots asked; this NP fires 1 to 2 in one judgment",
    ),
    (
        "FATE-NP-13",
        (LANCER, AddServant("Rider", 60, 80), WHEEL, StartBattle()),
        UseAbility("Rider", "wheel", "charge", targets=("Lancer",)),
        "wheel's charge needs a release of wheel it was not used for",
    ),
    (
        "FATE-NP-14",
        (AddServant("Gil", 60, 80, np_budget=15), GOB, StartBattle(), Release("Gil", "gob")),
        UseAbility("Gil", "gob", "shoot"),
        "Gil released an NP in round 1, turn 1: that turn allows only the NP, not gob's shoot",
    ),
]


@pytest.mark.parametrize(
    ("rule_id", "table", "command", "message"),
    [pytest.param(*row, marks=rule(row[0]), id=row[3][:40]) for row in FLAGS],
)
def test_an_ability_or_flag_that_would_do_nothing_is_refused(rule_id, table, command, message):
    """A flag or ability use that does nothing for the NP, or does not fit it, is refused."""
    refused(given(*table), command, rule_id, message)


@rule("FATE-NP-13")
def test_a_charge_is_once_per_release_and_an_undo_of_the_release_takes_it_back():
    """Rider charges after wheel's release; a second charge needs another release; the charge's
    precondition fails once the release it used is undone."""
    from tablelog.events.fate import AbilityUsed

    table = (
        LANCER,
        AddServant("Rider", 60, 200),
        WHEEL,
        StartBattle(),
        Release("Rider", "wheel", ("Lancer",)),
        StartTurn(),
    )
    state = given(*table, UseAbility("Rider", "wheel", "charge", targets=("Lancer",)))
    refused(
        given_on(state, StartTurn()),
        UseAbility("Rider", "wheel", "charge", targets=("Lancer",)),
        "FATE-NP-13",
    )
    charge = AbilityUsed("Rider", "wheel", "charge", 20, targets=("Lancer",))
    with pytest.raises(RuleViolation) as err:
        check(given(LANCER, AddServant("Rider", 60, 200), WHEEL, StartBattle()), charge)
    assert err.value.message == "wheel's charge needs a release of wheel it was not used for"


@rule("FATE-NP-13")
def test_a_wound_stops_at_its_most_on_one_target():
    """Gae Buidhe (wound 1, most 4) wounds Lancer once a round: 4 grades after 5 rounds."""
    buidhe = AddPhantasm(
        "Diarmuid",
        "buidhe",
        "B",
        "anti-unit",
        release="always",
        mods=(("wound", "1"), ("wound-max", "4")),
    )
    state = given(LANCER, AddServant("Diarmuid", 60, 60), buidhe, StartBattle())
    for _ in range(5):
        state = given_on(state, Release("Diarmuid", "buidhe", ("Lancer",)), StartRound())
    assert (state.characters["Lancer"]["injury"], state.characters["Lancer"]["hp"]) == (4, 40)


@rule("FATE-NP-15")
def test_god_hand_ignores_rank_b_or_lower_and_no_more():
    """Herc ignores an attack of grade 4 (B) and outside damage of rank C; an A-rank hit (5) and
    an unranked hit land."""
    state = given(TOKIOMI, RIN, AddServant("Herc", 90, 50), GOD_HAND, StartBattle())
    assert state.characters["Herc"]["effects"] == []
    after, events = then(state, TakeDamage("Herc", hp=10, rank=3))
    assert (
        after.characters["Herc"]["hp"],
        events[0].breakdown["ignored"],
    ) == (90, "rank 3 is god-hand B or lower: the attack is ignored")
    after, _ = then(state, Cast("Rin", "attack", 5, 1, ("Herc",)))
    assert after.characters["Herc"]["hp"] == 80
    after, _ = then(state, TakeDamage("Herc", hp=10))
    assert after.characters["Herc"]["hp"] == 80


@rule("FATE-NP-12")
def test_the_ex_counter_counts_in_the_round_of_the_release_only():
    """Avalon spread over 5 turns: Tokiomi's attack tile it blocks in round 1 costs him 5 HP (a
    code cast: no 10 more); the same block in round 2 costs nothing."""
    state = given(
        TOKIOMI,
        SABER,
        AddPhantasm("Saber", "avalon", "EX", "anti-unit", "defense"),
        StartBattle(),
        Release("Saber", "avalon", spread=True),
    )
    after, events = then(state, Cast("Tokiomi", "attack", 4, 1, ("Saber",)))
    assert (events[-1].name, events[-1].hp) == ("Tokiomi", 5)
    assert after.characters["Tokiomi"]["hp"] == 35
    later, events = then(given_on(state, StartRound()), Cast("Tokiomi", "attack", 4, 1, ("Saber",)))
    assert [e.name for e in events if isinstance(e, DamageTaken)] == ["Saber"]


@rule("FATE-NP-11")
def test_familiars_join_those_out_and_pay_no_upkeep():
    """Gilles summons 4 familiars, then 2 more: 6 units; a round start charges him nothing."""
    state = given(
        AddServant("Gilles", 60, 60),
        BOOK,
        StartBattle(),
        Release("Gilles", "book", units=4),
        StartTurn(),
        Release("Gilles", "book", units=2),
    )
    army = state.characters["Gilles"]["army"]
    assert (
        army["units"],
        army["stat_points"],
        army["upkeep_per_round"],
        army["familiars"],
    ) == (6, 3, 0, True)
    after, events = then(state, StartRound())
    assert (
        after.characters["Gilles"]["mp"],
        [type(e).__name__ for e in events],
    ) == (42, ["RoundStarted"])


@rule("FATE-NP-12")
def test_a_counter_goes_with_the_release_that_drew_it():
    """Undoing the release Avalon blocked takes its counter back too: with the release #8
    undone, the counter #10 does not hold and names the release."""
    pairs = logged(
        SABER,
        AddServant("Mordred", 100, 80, np_budget=15),
        AddPhantasm("Saber", "avalon", "EX", "anti-unit", "defense"),
        AddPhantasm("Mordred", "clarent", "A++", "anti-fortress"),
        StartBattle(),
        Release("Saber", "avalon"),
        Release("Mordred", "clarent", ("Saber",)),
    )
    assert [type(e).__name__ for _, e in pairs[-3:]] == [
        "PhantasmReleased",
        "DamageTaken",
        "DamageTaken",
    ]
    failed = fold_collecting(given(), pairs, undone={8})
    assert [(seq, exc.rule_id) for seq, _, exc in failed] == [(9, "FATE-NP-6"), (10, "FATE-NP-6")]
    assert failed[1][2].message.startswith("damage to Mordred comes from the release #8")
