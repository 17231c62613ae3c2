"""The texts of the saga events: their one-line descriptions and audit lines, as data.

The game's words are terms of the ``saga.*`` glossary tables (:mod:`tablelog.rules.saga.text`):
tech ids, sides, weapon types, attributes, elements, effect kinds, why no damage was dealt. A
breakdown's values (and a buff's recorded ``reason``) are the words the event recorded, shown as
they are; its keys are terms of the ``saga.breakdown`` table
(:func:`~tablelog.texts.core.breakdown_lines`). An event whose rule IDs depend on what it
records (a buff that lands or not, a hit shown split or hidden) names exactly those clauses.
"""

from __future__ import annotations

from typing import Any

from tablelog.events.saga import (
    AttackAvoided,
    AttackDamageDealt,
    BattleStarted,
    BloodPaid,
    EffectApplied,
    HPHealed,
    InstantDeathInflicted,
    PartyWiped,
    PoisonDamageTaken,
    ReleaseDamageTaken,
    TechDefined,
    TurnEnded,
    UnitAdded,
    UnitIncapacitated,
)
from tablelog.rules.saga.text import processes, slashed, tech, term
from tablelog.text import Msg, msg
from tablelog.texts.core import (
    breakdown_lines,
    describes,
    describes_redacted,
    explains,
    rules_line,
)
from tablelog.texts.sheet import Adds, Gauge, Sheet, View

__all__: list[str] = []


@describes(UnitAdded)
def _unit_added(e: UnitAdded) -> Msg:
    s = e.sheet
    lp = msg("saga.unit.lp", ", LP {lp}", lp=s.lp_max) if s.lp_max is not None else ""
    rank = (
        msg("saga.unit.battle_rank", ", battle rank {rank}", rank=s.battle_rank)
        if s.battle_rank is not None
        else ""
    )
    return msg(
        "saga.unit.added",
        "{name} ({side}, HP {hp}/{hp_max}{lp}{rank})",
        name=e.name,
        side=term("side", s.side),
        hp=s.hp,
        hp_max=s.hp_max,
        lp=lp,
        rank=rank,
    )


@describes_redacted(UnitAdded)
def _enemy_appears(data: dict[str, Any]) -> Msg:
    """An enemy's arrival as players read it: its HP and LP are the GM's (SERVER.md §3)."""
    found = data.get("sheet")
    sheet: dict[str, Any] = found if isinstance(found, dict) else {}
    rank = sheet.get("battle_rank")
    return msg(
        "saga.unit.appears",
        "{name} appears ({side}{rank})",
        name=data.get("name"),
        side=term("side", str(sheet.get("side"))),
        rank=msg("saga.unit.battle_rank", ", battle rank {rank}", rank=rank)
        if isinstance(rank, int)
        else "",
    )


@explains(UnitAdded)
def _unit_added_rules(e: UnitAdded) -> list[Msg]:
    """A battle rank's stats (SAGA-ATK-5), an enemy's HP floor (SAGA-HP-1); else none."""
    s = e.sheet
    return rules_line(
        (["SAGA-ATK-5"] if s.battle_rank is not None else [])
        + (["SAGA-HP-1"] if s.hp_floor_rate else [])
    )


@describes(TechDefined)
def _tech_defined(e: TechDefined) -> Msg:
    attributes = (
        slashed([term("attribute", a) for a in e.attributes])
        if e.attributes
        else msg("saga.tech.no_attribute", "no attribute")
    )
    lp = msg("saga.tech.blood_cost", ", Blood {lp} LP", lp=e.lp_cost) if e.lp_cost else ""
    return msg(
        "saga.tech.defined",
        "{tech}: {weapon_type}, power {power}, {processes}, {attributes}, "
        "random width {width}%{lp}",
        tech=tech(e.id),
        weapon_type=term("weapon_type", e.weapon_type),
        power=e.power,
        processes=processes(max(e.attack_count, 1)),
        attributes=attributes,
        width=e.random_width,
        lp=lp,
    )


@describes(BattleStarted)
def _battle_started(e: BattleStarted) -> Msg:
    if e.seasons:
        return msg("saga.battle.started_seasons", "battle starts in the five-sided hall (seasons)")
    where = (
        msg("saga.battle.on_terrain", "on {terrain} terrain", terrain=term("element", e.terrain))
        if e.terrain
        else msg("saga.battle.no_terrain", "with no terrain element")
    )
    return msg("saga.battle.started", "battle starts {where}", where=where)


@explains(BattleStarted)
def _battle_started_rules(e: BattleStarted) -> list[Msg]:
    """The battle's element levels (SAGA-FIVE-1); with seasons, the season too (FIVE-2)."""
    return rules_line(["SAGA-FIVE-1", "SAGA-FIVE-2"] if e.seasons else ["SAGA-FIVE-1"])


@describes(TurnEnded)
def _turn_ended(e: TurnEnded) -> Msg:
    after = e.turn + 1 if e.next_turn is None else e.next_turn
    return msg("saga.turn.ended", "turn {turn} ends -> turn {next}", turn=e.turn, next=after)


@describes(EffectApplied)
def _effect_applied(e: EffectApplied) -> Msg:
    source = msg("saga.effect.with_tech", " with {tech}", tech=tech(e.tech)) if e.tech else ""
    if e.kind == "tech_power":
        return msg(
            "saga.effect.tech_power_up",
            "{by}{source}: tech-power-up {performance} on {target}",
            by=e.by,
            source=source,
            performance=e.performance,
            target=e.target,
        )
    outcome: Msg | str = ""
    if not e.landed:
        outcome = (
            msg("saga.effect.not_landed_because", " (did not land: {reason})", reason=e.reason)
            if e.reason
            else msg("saga.effect.not_landed", " (did not land)")
        )
    return msg(
        "saga.effect.applied",
        "{by}{source}: {kind} {performance:+d} on {target}{outcome}",
        by=e.by,
        source=source,
        kind=term("effect", e.kind),
        performance=e.performance,
        target=e.target,
        outcome=outcome,
    )


@explains(EffectApplied)
def _effect_applied_rules(e: EffectApplied) -> list[Msg]:
    """Tech-power-up: SAGA-EFF-1; a buff: whether it lands (EFF-3) and its clamp (EFF-2)."""
    if e.kind == "tech_power":
        return rules_line(["SAGA-EFF-1"])
    return rules_line(["SAGA-EFF-2", "SAGA-EFF-3"] if e.landed else ["SAGA-EFF-3"])


@describes(PoisonDamageTaken)
def _poison_damage_taken(e: PoisonDamageTaken) -> Msg:
    waiting = msg("saga.poison.waiting", " (waiting: halved)") if e.waiting else ""
    return msg(
        "saga.poison.taken",
        "{unit} takes {damage} poison damage{waiting}",
        unit=e.unit,
        damage=e.damage,
        waiting=waiting,
    )


@describes(ReleaseDamageTaken)
def _release_damage_taken(e: ReleaseDamageTaken) -> Msg:
    return msg(
        "saga.release.taken",
        "{unit} releases and takes {damage} damage",
        unit=e.unit,
        damage=e.damage,
    )


@describes(BloodPaid)
def _blood_paid(e: BloodPaid) -> Msg:
    if e.overdrive:
        return msg(
            "saga.blood.overdrive",
            "{unit} uses {tech} in an overdrive: no LP paid",
            unit=e.unit,
            tech=tech(e.tech),
        )
    return msg(
        "saga.blood.paid",
        "{unit} pays {cost} LP for {tech}",
        unit=e.unit,
        cost=e.lp_cost,
        tech=tech(e.tech),
    )


@describes(UnitIncapacitated)
def _unit_incapacitated(e: UnitIncapacitated) -> Msg:
    lost = msg("saga.fall.loses_lp", ", loses {lp} LP", lp=e.lp_lost) if e.lp_lost else ""
    return msg("saga.fall.incapacitated", "{unit} is incapacitated{lost}", unit=e.unit, lost=lost)


@describes_redacted(UnitIncapacitated)
def _enemy_falls(data: dict[str, Any]) -> Msg:
    """An enemy's fall as players read it (what it lost is the GM's)."""
    return msg("saga.fall.falls", "{unit} falls", unit=data.get("unit"))


@explains(UnitIncapacitated)
def _unit_incapacitated_rules(e: UnitIncapacitated) -> list[Msg]:
    """SAGA-LP-1 when an ally loses LP; an enemy (or untracked LP) names no rule."""
    return rules_line(["SAGA-LP-1"] if e.lp_lost else [])


@describes(PartyWiped)
def _party_wiped(e: PartyWiped) -> Msg:
    return msg("saga.wipe.retry", "party wiped: retry")


@describes(AttackDamageDealt)
def _attack_damage_dealt(e: AttackDamageDealt) -> Msg:
    shown: Msg | str = ""
    if e.hidden:
        shown = msg("saga.hit.hidden", " (hidden: instant death)")
    elif len(e.shown) > 1:
        shown = msg("saga.hit.shown_as", " shown as {parts}", parts=" + ".join(map(str, e.shown)))
    return msg(
        "saga.hit.dealt",
        "{actor} {tech} -> {target}: {damage} damage "
        "(process {process}/{processes}, random {random:.4f}){shown}",
        actor=e.actor,
        tech=tech(e.tech),
        target=e.target,
        damage=e.damage,
        process=e.process,
        processes=e.processes,
        random=float(e.random_factor),
        shown=shown,
    )


@explains(AttackDamageDealt)
def _attack_damage_dealt_rules(e: AttackDamageDealt) -> list[Msg]:
    """The damage formula and the HP after it; a split display (SAGA-DISP-2) or hidden damage
    (SAGA-DISP-3) adds its rule."""
    ids = ["SAGA-ATK-2", "SAGA-ATK-3", "SAGA-ATK-4", "SAGA-ATK-11", "SAGA-ATK-16"]
    ids += ["SAGA-DISP-3"] if e.hidden else ["SAGA-DISP-2"] if len(e.shown) > 1 else []
    return rules_line([*ids, "SAGA-HP-1"]) + breakdown_lines("saga", e.breakdown)


@describes(AttackAvoided)
def _attack_avoided(e: AttackAvoided) -> Msg:
    return msg(
        "saga.hit.avoided",
        "{actor} {tech} -> {target}: no damage ({reason})",
        actor=e.actor,
        tech=tech(e.tech),
        target=e.target,
        reason=term("no_damage", e.reason),
    )


@describes(InstantDeathInflicted)
def _instant_death(e: InstantDeathInflicted) -> Msg:
    return msg("saga.hit.instant_death", "{target}: instant death", target=e.target)


_FULL_HEAL = msg("saga.heal.full", "full heal")


@describes(HPHealed)
def _hp_healed(e: HPHealed) -> Msg:
    how = _FULL_HEAL if e.kind == "full" else term("heal", e.kind)
    return msg(
        "saga.heal.healed",
        "{unit} heals {amount} HP ({how})",
        unit=e.unit,
        amount=e.amount,
        how=how,
    )


@describes_redacted(HPHealed)
def _enemy_heals(data: dict[str, Any]) -> Msg:
    """An enemy's heal as players read it: how much it was worth is the GM's."""
    kind = data.get("kind")
    how = _FULL_HEAL if kind == "full" else term("heal", str(kind))
    return msg("saga.heal.hidden", "{unit} heals ({how})", unit=data.get("unit"), how=how)


def _palette(name: str, record: dict[str, Any], lang: str) -> list[str]:
    """A unit's techs as tablelog command lines (BCDice has no SaGa system): the catalogue's
    techs of each weapon type the unit has an SLv in, at most six per type."""
    from tablelog.rules.saga import catalogue

    lines = []
    for weapon in record.get("slv") or {}:
        found = [t for t in catalogue.tech_ids() if catalogue.tech(t).weapon_type == weapon]
        lines += [f"tablelog saga cast {name} {tech} --target ?" for tech in found[:6]]
    return lines


def _techs(lang: str) -> dict[str, list[tuple[str, str]]]:
    """The catalogue's techs by weapon type (a unit uses those of the types it has an SLv in),
    each with its name in ``lang`` (the glossary's, else the catalogue's Japanese name in
    Japanese)."""
    from tablelog.rules import glossary
    from tablelog.rules.saga import catalogue

    found: dict[str, list[tuple[str, str]]] = {}
    for tech_id in catalogue.tech_ids():
        tech = catalogue.tech(tech_id)
        name = glossary.word("saga.tech", tech_id, lang)
        if name == tech_id and lang == "ja" and tech.name_ja:
            name = tech.name_ja
        found.setdefault(tech.weapon_type, []).append((tech_id, name))
    return found


def _trait_word(trait: Any) -> str:
    """A trait as ``--trait`` takes it: ``KIND[/ON]=N`` (``attack/slash=5``)."""
    if not isinstance(trait, dict):
        return str(trait)
    on = f"/{trait['on']}" if trait.get("on") else ""
    return f"{trait.get('kind')}{on}={trait.get('value')}"


SHEET = Sheet(
    system="saga",
    characters=View(
        badge=("side", "saga.side"),
        gauges=(Gauge("hp", "hp_max"), Gauge("lp", "lp_max")),
        figures=(
            "incapacitated",
            "lp_damage_effect",
            "battle_rank",
            "intrinsic_hp",
            "race",
            "guard_rate",
            "formation_attack",
            "formation_defense",
            "hp_floor_rate",
        ),
        tables=(
            ("stats", "saga.ability"),
            ("slv", "saga.weapon_type"),
            ("effects", "saga.effect"),
            ("resistances", "saga.attribute"),
            ("five", "saga.element"),
        ),
        words=("traits", "weapons"),
        internal=("hp_floor",),
        spelled=(("traits", _trait_word),),
    ),
    palette=_palette,
    techs=_techs,
    terms=(
        ("levels", "saga.element"),
        ("season", "saga.season"),
        ("weapons", "saga.weapon_type"),
        ("traits", "saga.trait"),
        ("random_source", "saga.random_source"),
    ),
    adds=(
        Adds(
            "saga unit add",
            options=(
                ("hp_max", "--max-hp", True),
                ("hp", "--hp", False),
                ("lp_max", "--lp", False),
                ("battle_rank", "--battle-rank", False),
                ("intrinsic_hp", "--intrinsic-hp", False),
                ("race", "--race", False),
                ("guard_rate", "--guard-rate", False),
                ("formation_attack", "--formation-attack", False),
                ("formation_defense", "--formation-defense", False),
                ("hp_floor_rate", "--hp-floor-rate", False),
            ),
            tables=(
                ("stats", "--stat", "saga.ability"),
                ("slv", "--slv", "saga.weapon_type"),
                ("resistances", "--resist", "saga.attribute"),
                ("five", "--five", "saga.element"),
            ),
            lists=(
                ("weapons", "--weapon", "saga.weapon_type", False),
                ("traits", "--trait", "saga.trait", False),
            ),
            switches=(("side", "enemy", "--enemy"),),
        ),
    ),
)
"""How a saga unit reads (the page, the ccfolia and Udonarium exports)."""
