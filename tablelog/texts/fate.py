"""The texts of the fate events: their one-line descriptions and audit lines, as data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events.fate import (
    AbilityUsed,
    ArmyDismissed,
    ArmySummoned,
    BattleEnded,
    BattleStarted,
    Chanted,
    CharacterGradeSet,
    CodeCast,
    CrestHealed,
    DamageTaken,
    EffectRaised,
    FieldEnded,
    FieldRaised,
    Healed,
    InjuryHealed,
    MadnessToggled,
    ManaAbsorbed,
    MasterAdded,
    PhantasmAdded,
    PhantasmReleased,
    RoundStarted,
    RowChanged,
    ServantAdded,
    TilesRefilled,
    TurnStarted,
    UpkeepPaid,
)
from tablelog.events.fate.base import FateEvent
from tablelog.rules import glossary
from tablelog.rules.fate.text import count, listing
from tablelog.text import Listed, Msg, Shown, Term, msg
from tablelog.texts.core import breakdown_lines, describes, explains, rules_line, shows
from tablelog.texts.sheet import Adds, Gauge, Sheet, View

__all__: list[str] = []


def _kind(kind: str) -> Term:
    return Term("fate.kind", kind)


def _at(targets: tuple[str, ...]) -> Msg | str:
    return msg("fate.at", " at {targets}", targets=listing(targets)) if targets else ""


def _audit(e: FateEvent) -> list[Msg]:
    """``rule …`` with this event's rule IDs (:meth:`FateEvent.rule_ids`), then its breakdown."""
    return rules_line(e.rule_ids()) + breakdown_lines("fate", getattr(e, "breakdown", None))


for _cls in (
    AbilityUsed,
    ArmyDismissed,
    ArmySummoned,
    BattleEnded,
    BattleStarted,
    CharacterGradeSet,
    Chanted,
    CodeCast,
    CrestHealed,
    DamageTaken,
    EffectRaised,
    FieldEnded,
    FieldRaised,
    Healed,
    InjuryHealed,
    MadnessToggled,
    ManaAbsorbed,
    MasterAdded,
    PhantasmAdded,
    PhantasmReleased,
    RoundStarted,
    RowChanged,
    ServantAdded,
    TilesRefilled,
    TurnStarted,
    UpkeepPaid,
):
    explains(_cls)(_audit)


# Battle time and rest.


@describes(BattleStarted)
def _battle_started(e: BattleStarted) -> Msg:
    return msg("fate.battle.starts", "battle starts (round 1, turn 1)")


@describes(TurnStarted)
def _turn_started(e: TurnStarted) -> Msg:
    return msg("fate.turn.starts", "turn {turn}", turn=e.turn)


@describes(RoundStarted)
def _round_started(e: RoundStarted) -> Msg:
    return msg("fate.round.starts", "round {round}, turn 1", round=e.round)


@describes(BattleEnded)
def _battle_ended(e: BattleEnded) -> Msg:
    return msg("fate.battle.ends", "battle ends")


@describes(UpkeepPaid)
def _upkeep_paid(e: UpkeepPaid) -> Msg:
    return msg(
        "fate.upkeep.paid",
        "{owner} pays {mp} MP upkeep for {np_id}",
        owner=e.owner,
        mp=e.mp,
        np_id=e.np_id,
    )


@describes(CrestHealed)
def _crest_healed(e: CrestHealed) -> Msg:
    return msg("fate.crest.healed", "{name} heals {hp} HP (magic crest)", name=e.name, hp=e.hp)


@describes(TilesRefilled)
def _tiles_refilled(e: TilesRefilled) -> Msg:
    return msg("fate.tiles.refilled", "{name} tiles -> {tiles} (rest)", name=e.name, tiles=e.tiles)


# Code casts.


@describes(Chanted)
def _chanted(e: Chanted) -> Msg:
    return msg("fate.chanted", "{name} chants", name=e.name)


@describes(CodeCast)
def _code_cast(e: CodeCast) -> Msg:
    chant = (
        msg(
            "fate.cast.chanted",
            " -> {tiles} ({chants})",
            tiles=e.tiles,
            chants=count(e.chants, "chant"),
        )
        if e.chants
        else ""
    )
    crest = msg("fate.cast.crest_hp", ", {hp} HP (crest)", hp=e.hp) if e.crest else ""
    return msg(
        "fate.cast.cast",
        "{caster} {kind} grade {grade}: {tiles}{chant} on {targets}; {mp} MP{crest}",
        caster=e.caster,
        kind=_kind(e.kind),
        grade=e.grade,
        tiles=count(e.pool_tiles, "tile"),
        chant=chant,
        targets=listing(e.targets),
        mp=e.mp,
        crest=crest,
    )


@describes(EffectRaised)
def _effect_raised(e: EffectRaised) -> Msg:
    turns = (
        msg("fate.effect.the_battle", "the battle") if e.turns is None else count(e.turns, "turn")
    )
    return msg(
        "fate.effect.raised",
        "{target}: {kind} grade {grade} x {tiles} for {turns} (from {source})",
        target=e.target,
        kind=_kind(e.kind),
        grade=e.grade,
        tiles=count(e.tiles, "tile"),
        turns=turns,
        source=_source(e.source),
    )


def _mod(key: str) -> Shown:
    """An NP's modifier (``hp-per-tile``): as typed in English, its field's label otherwise."""
    return Shown("fate.mod", (key,), key)


@shows("fate.mod")
def _mod_word(facts: tuple[Any, ...], lang: str, say: Callable[[Any], str]) -> str | None:
    field = str(facts[0]).replace("-", "_")
    if lang == "en" or field not in glossary.entries("fate.field"):
        return None
    return glossary.word("fate.field", field, lang)


def _source(text: str) -> Any:
    """A recorded source (``Tokiomi attack``, ``Saber counter``, ``Saber excalibur drain``) in
    the reader's words: its last word a kind of magic or a source the glossary names (the
    caster's or NP's name before it as it is), else as recorded."""
    head, _, last = text.rpartition(" ")
    for kind in ("fate.kind", "fate.source"):
        if head and last in glossary.entries(kind):
            return msg("fate.source", "{who} {what}", who=_source(head), what=Term(kind, last))
    return text


@describes(DamageTaken)
def _damage_taken(e: DamageTaken) -> Msg:
    injury = msg("fate.damage.injury", ", {injury} injury", injury=e.injury) if e.injury else ""
    return msg(
        "fate.damage.taken",
        "{name} takes {hp} HP, {mp} MP{injury} ({source})",
        name=e.name,
        hp=e.hp,
        mp=e.mp,
        injury=injury,
        source=_source(e.source),
    )


@describes(Healed)
def _healed(e: Healed) -> Msg:
    return msg(
        "fate.healed",
        "{name} heals {hp} HP ({source})",
        name=e.name,
        hp=e.hp,
        source=_source(e.source),
    )


@describes(InjuryHealed)
def _injury_healed(e: InjuryHealed) -> Msg:
    return msg(
        "fate.injury.healed",
        "{name} loses {grades} ({source})",
        name=e.name,
        grades=count(e.grades, "injury grade"),
        source=_source(e.source),
    )


@describes(ManaAbsorbed)
def _mana_absorbed(e: ManaAbsorbed) -> Msg:
    return msg(
        "fate.mana.absorbed",
        "{name} absorbs {mp} MP ({source})",
        name=e.name,
        mp=e.mp,
        source=_source(e.source),
    )


# Who is at the table.


@describes(MasterAdded)
def _master_added(e: MasterAdded) -> Msg:
    none_kind = (
        msg("fate.master.none_kind", " ({kind})", kind=_kind(e.none_kind)) if e.none_kind else ""
    )
    cost = e.breakdown.get("total")
    spent = (
        msg("fate.master.cc_spent", "{cost} of {budget} CC", cost=cost, budget=e.cc_budget)
        if cost is not None
        else msg("fate.master.cc_budget", "{budget} CC", budget=e.cc_budget)
    )
    return msg(
        "fate.master.added",
        "{name}: quality {quality}, quantity {quantity}, crest {crest}, {attributes}{none_kind};"
        " HP {hp}, MP {mp}, {row} row ({spent})",
        name=e.name,
        quality=e.quality,
        quantity=e.quantity,
        crest=e.crest,
        attributes=listing(Term("fate.attribute", a) for a in e.attributes),
        none_kind=none_kind,
        hp=e.hp,
        mp=e.mp,
        row=Term("fate.row", e.row),
        spent=spent,
    )


@describes(ServantAdded)
def _servant_added(e: ServantAdded) -> Msg:
    madness = (
        msg("fate.servant.madness", ", madness {madness}", madness=e.madness) if e.madness else ""
    )
    return msg(
        "fate.servant.added",
        "{name}: HP {hp}, MP {mp}, {budget}{madness}, anti-magic {anti_magic}",
        name=e.name,
        hp=e.hp,
        mp=e.mp,
        budget=count(e.np_budget, "NP point"),
        madness=madness,
        anti_magic=e.anti_magic,
    )


@describes(PhantasmAdded)
def _phantasm_added(e: PhantasmAdded) -> Msg:
    pairs = tuple(
        msg("fate.mod.pair", "{key}={value}", key=_mod(key), value=value)
        for key, value in e.mods.items()
    )
    mods = msg("fate.phantasm.mods", " {mods}", mods=Listed(pairs, "space")) if pairs else ""
    fields = {
        "owner": e.owner,
        "np_id": e.np_id,
        "grade": e.grade,
        "np_type": Term("fate.np_type", e.np_type),
        "form": Term("fate.form", e.form),
        "release": Term("fate.release", e.release),
        "mods": mods,
    }
    if e.unique:
        return msg(
            "fate.phantasm.added_ua",
            "{owner} unique ability {np_id}: {grade} {np_type} {form} ({release}){mods}",
            **fields,
        )
    return msg(
        "fate.phantasm.added_np",
        "{owner} NP {np_id}: {grade} {np_type} {form} ({release}){mods}",
        **fields,
    )


@describes(RowChanged)
def _row_changed(e: RowChanged) -> Msg:
    return msg("fate.row.changed", "{name} -> {row} row", name=e.name, row=Term("fate.row", e.row))


@describes(MadnessToggled)
def _madness_toggled(e: MadnessToggled) -> Msg:
    if e.raging:
        return msg("fate.madness.rages", "{name} rages", name=e.name)
    return msg("fate.madness.calms", "{name} calms down", name=e.name)


@describes(CharacterGradeSet)
def _character_grade_set(e: CharacterGradeSet) -> Msg:
    return msg(
        "fate.master.grade_set",
        "{name} is now character grade {grade}",
        name=e.name,
        grade=e.grade,
    )


# Noble Phantasms.


@describes(PhantasmReleased)
def _phantasm_released(e: PhantasmReleased) -> Msg:
    return msg(
        "fate.phantasm.released",
        "{owner} releases {np_id}{at}; {mp} MP",
        owner=e.owner,
        np_id=e.np_id,
        at=_at(e.targets),
        mp=e.mp,
    )


@describes(FieldRaised)
def _field_raised(e: FieldRaised) -> Msg:
    fields = {"owner": e.owner, "np_id": e.np_id, "grade": e.grade, "round": e.round}
    if e.reality_marble:
        return msg(
            "fate.field.raised_marble",
            "{owner} raises reality marble {np_id} ({grade}) in round {round}",
            **fields,
        )
    return msg(
        "fate.field.raised",
        "{owner} raises bounded field {np_id} ({grade}) in round {round}",
        **fields,
    )


@describes(FieldEnded)
def _field_ended(e: FieldEnded) -> Msg:
    return msg(
        "fate.field.ended",
        "{owner}'s field {np_id} ends ({reason})",
        owner=e.owner,
        np_id=e.np_id,
        reason=e.reason,
    )


@describes(ArmySummoned)
def _army_summoned(e: ArmySummoned) -> Msg:
    return msg(
        "fate.army.summoned",
        "{owner} summons {np_id}: {units} of {points} ({free} free), {upkeep} MP per round",
        owner=e.owner,
        np_id=e.np_id,
        units=count(e.units, "unit"),
        points=count(e.stat_points, "point"),
        free=e.free_units,
        upkeep=e.upkeep_per_round,
    )


@describes(ArmyDismissed)
def _army_dismissed(e: ArmyDismissed) -> Msg:
    return msg(
        "fate.army.dismissed",
        "{owner}'s army {np_id} leaves ({reason})",
        owner=e.owner,
        np_id=e.np_id,
        reason=e.reason,
    )


@describes(AbilityUsed)
def _ability_used(e: AbilityUsed) -> Msg:
    times = msg("fate.ability.times", " x {times}", times=e.times) if e.times != 1 else ""
    return msg(
        "fate.ability.used",
        "{owner} uses {np_id}'s {ability}{times}{at}; {mp} MP",
        owner=e.owner,
        np_id=e.np_id,
        ability=Term("fate.ability", e.ability),
        times=times,
        at=_at(e.targets),
        mp=e.mp,
    )


def _palette(name: str, record: dict[str, Any], lang: str) -> list[str]:
    """A fate character's own actions as tablelog command lines (BCDice has no fate system
    of this game): a master's chant and a cast of each kind at grade 1, a servant's releases."""
    if record.get("role") == "servant":
        return [f"tablelog fate release {name} {np}" for np in record.get("phantasms") or {}]
    kinds = record.get("powers") or {}
    return [f"tablelog fate chant {name}"] + [
        f"tablelog fate cast {name} {kind} --grade 1 --tiles 1" for kind in kinds
    ]


SHEET = Sheet(
    system="fate",
    characters=View(
        badge=("role", "fate.role"),
        gauges=(Gauge("hp", "hp_max"), Gauge("mp", "mp_max"), Gauge("tiles", "tiles_max")),
        figures=(
            "quality",
            "quantity",
            "crest",
            "power",
            "chants",
            "row",
            "injury",
            "anti_magic",
            "character_grade",
            "cc_budget",
            "none_kind",
            "np_budget",
            "madness",
        ),
        tables=(("powers", "fate.kind"), ("stored", "fate.kind")),
        words=("attributes",),
        internal=("hollow", "field", "army"),
    ),
    palette=_palette,
    terms=(
        ("row", "fate.row"),
        ("attributes", "fate.attribute"),
        ("type", "fate.np_type"),
        ("form", "fate.form"),
        ("release", "fate.release"),
        ("kind", "fate.kind"),
    ),
    adds=(
        Adds(
            "fate master add",
            options=(
                ("quality", "--quality", True),
                ("quantity", "--quantity", True),
                ("crest", "--crest", True),
                ("hp_max", "--hp", True),
                ("mp_max", "--mp", True),
                ("cc_budget", "--cc-budget", True),
                ("anti_magic", "--anti-magic", False),
                ("row", "--row", False),
                ("character_grade", "--character-grade", False),
                ("none_kind", "--none-kind", False),
            ),
            tables=(("stored", "--stored", "fate.kind"),),
            lists=(("attributes", "--attribute", "fate.attribute", True),),
            when=("role", "master"),
        ),
        Adds(
            "fate servant add",
            options=(
                ("hp_max", "--hp", True),
                ("mp_max", "--mp", True),
                ("anti_magic", "--anti-magic", False),
                ("row", "--row", False),
                ("np_budget", "--np-budget", False),
                ("madness", "--madness", False),
            ),
            when=("role", "servant"),
        ),
    ),
)
"""How a fate master or servant reads (the page, the ccfolia and Udonarium exports)."""
