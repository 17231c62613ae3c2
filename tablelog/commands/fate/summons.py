"""Releasing bounded fields and army-type NPs, and paying their upkeep.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.①②④, 3.③④, 4.; FATE-NP-10 … FATE-NP-12.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablelog.commands.fate.common import Pending, costs_over, who
from tablelog.events.fate import (
    ArmyDismissed,
    ArmySummoned,
    DamageTaken,
    FieldEnded,
    FieldRaised,
    ManaAbsorbed,
    PhantasmReleased,
    UpkeepPaid,
)
from tablelog.events.fate.base import with_rules
from tablelog.projections.fate.entities import Field, Phantasm, characters, up_np
from tablelog.rules.core import require
from tablelog.rules.fate import (
    EX_FIELD_ALLY_HP,
    EX_FIELD_HP,
    NPMods,
    absorbed_mp,
    army_summon_mp,
    army_units,
    army_upkeep_per_round,
    count,
    drain_hp,
    familiar_mp,
    field_clash,
    field_upkeep_due,
    field_upkeep_value,
    listing,
    parse_grade,
    parse_mods,
)
from tablelog.rules.fate.grades import Grade
from tablelog.rules.fate.upkeep import FieldClash
from tablelog.text import Msg, msg

__all__ = ["release_field", "release_army", "field_upkeep", "army_upkeep", "field_drain"]


_ENDED = {
    "replace": "removed",
    "cancel": "cancelled",
    "overwrite": "overwritten",
    "nullified": "stays (the new field fails)",
}
"""How a field already up fares in each clash outcome (FATE-NP-10), for the log."""


def _clashes(
    pending: Pending, owner: str, grade: Grade, marble: bool
) -> list[tuple[str, Field, FieldClash]]:
    """Return ``(owner, field, clash)`` for every other field up (FATE-NP-10)."""
    return [
        (name, up, field_clash(grade, marble, parse_grade(up["grade"]), up["reality_marble"]))
        for name, rec in characters(pending.state).items()
        if (up := rec["field"]) is not None and name != owner
    ]


def _mp_factor(clashes: list[tuple[str, Field, FieldClash]]) -> int:
    """Return the activation MP multiplier: 0 if nullified, else the highest clash factor."""
    if any(clash.outcome == "nullified" for _, _, clash in clashes):
        return 0
    return max([clash.mp_factor for _, _, clash in clashes], default=1)


def release_field(
    pending: Pending,
    owner: str,
    np_id: str,
    np: Phantasm,
    allies: Sequence[str],
    plus_used: bool,
    checks: tuple[str, ...] = (),
) -> None:
    """Raise a bounded field, settling any field already up (FATE-NP-10, FATE-NP-12)."""
    state = pending.state
    require(
        state.clock.get("battle"),
        "FATE-NP-10",
        msg("fate.field.in_battle", "a bounded field is raised only in battle (fate battle start)"),
    )
    record = characters(state)[owner]
    require(
        record["field"] is None,
        "FATE-NP-10",
        msg(
            "fate.field.already_up_named",
            "{owner} already holds a field up ({np_id})",
            owner=owner,
            np_id=up_np(record["field"]),
        ),
    )
    grade, marble = parse_grade(np["grade"]), parse_mods(np["mods"]).reality_marble
    clashes = _clashes(pending, owner, grade, marble)
    factor = _mp_factor(clashes)
    mp = np["mp_cost"] * factor
    require(record["mp"] >= mp, "FATE-NP-5", costs_over(np_id, mp, owner, record["mp"]))
    for name in allies:
        who(state, name)
    text = str(
        listing(
            (f"{old['np']} {_ENDED[clash.outcome]}" for _, old, clash in clashes),
            empty=msg("fate.field.no_other_up", "no other field up"),
        )
    )
    breakdown = {"mp_cost": f"{np['mp_formula']}; x {factor} = {mp}", "clash": text}
    pending.add(
        PhantasmReleased(
            owner,
            np_id,
            mp,
            tuple(allies),
            False,
            breakdown,
            rules=with_rules("FATE-NP-5", "FATE-NP-10", *checks),
        )
    )
    if factor == 0:
        return
    for name, old, clash in clashes:
        pending.add(
            FieldEnded(
                name, old["np"], f"{_ENDED[clash.outcome]} by {np_id}", rules=("FATE-NP-10",)
            )
        )
    if any(clash.outcome == "cancel" for _, _, clash in clashes):
        return
    bonus, helped = (EX_FIELD_HP, tuple(allies)) if grade.is_ex else (0, ())
    pending.add(
        FieldRaised(
            owner,
            np_id,
            np["grade"],
            marble,
            plus_used,
            state.clock["round"],
            bonus,
            helped,
            ally_hp=EX_FIELD_ALLY_HP if helped else 0,
        )
    )


def release_army(
    pending: Pending,
    owner: str,
    np_id: str,
    np: Phantasm,
    plus_used: bool,
    checks: tuple[str, ...] = (),
    units: int | None = None,
) -> None:
    """Summon an army's units (FATE-NP-11, FATE-NP-12), or ``units`` familiars."""
    state = pending.state
    require(
        state.clock.get("battle"),
        "FATE-NP-11",
        msg("fate.army.in_battle", "an army is summoned only in battle (fate battle start)"),
    )
    record = characters(state)[owner]
    grade, mods = parse_grade(np["grade"]), parse_mods(np["mods"])
    if mods.familiar_mp is not None:
        _summon_familiars(pending, owner, np_id, np, mods, int(units or 0), checks)
        return
    require(
        record["army"] is None,
        "FATE-NP-11",
        _army_out(owner, up_np(record["army"])),
    )
    army = army_units(grade, plus_used)
    mp = army_summon_mp(np["mp_cost"], grade, mods.reality_marble)
    require(record["mp"] >= mp, "FATE-NP-5", costs_over(np_id, mp, owner, record["mp"]))
    upkeep = army_upkeep_per_round(army, plus_used, mods.upkeep_per_unit)
    doubled = " x 2 (reality marble)" if mp != np["mp_cost"] else ""
    pending.add(
        PhantasmReleased(
            owner,
            np_id,
            mp,
            (),
            False,
            {"mp_cost": f"{np['mp_formula']}{doubled} = {mp}"},
            rules=with_rules("FATE-NP-5", "FATE-NP-11", *checks),
        )
    )
    pending.add(
        ArmySummoned(
            owner,
            np_id,
            army.units,
            army.free_units,
            army.stat_points,
            upkeep,
            state.clock["round"],
            plus_used,
        )
    )


def _summon_familiars(
    pending: Pending,
    owner: str,
    np_id: str,
    np: Phantasm,
    mods: NPMods,
    units: int,
    checks: tuple[str, ...],
) -> None:
    """Summon ``units`` familiars: (summon MP − discount) each, a unit of so many points each,
    no limit and no upkeep; they join the NP's familiars already out (FATE-NP-11, FATE-NP-13).

    Source: 노블 판타즘 5-2.⑨ ([소환] … 숫자 제한 없이 소환 가능하며, 유지마력을 소모하지 않지만
        소환할 때 마다 <소환> 판정이 필요합니다. 한 번에 여러기를 소환하는 것은 가능합니다.).
    """
    record = characters(pending.state)[owner]
    army = record["army"]
    require(
        army is None or (army["familiars"] and army["np"] == np_id),
        "FATE-NP-11",
        _army_out(owner, up_np(army)),
    )
    mp, text = familiar_mp(mods, units)
    require(record["mp"] >= mp, "FATE-NP-5", costs_over(np_id, mp, owner, record["mp"]))
    pending.add(
        PhantasmReleased(
            owner,
            np_id,
            mp,
            (),
            False,
            {"mp_cost": text},
            rules=with_rules("FATE-NP-5", "FATE-NP-11", "FATE-NP-13", *checks),
        )
    )
    pending.add(
        ArmySummoned(
            owner,
            np_id,
            units,
            0,
            mods.familiar_points,
            0,
            pending.state.clock["round"],
            familiars=True,
        )
    )


def _army_out(owner: str, np_id: str | None) -> Msg:
    return msg(
        "fate.army.already_out_named",
        "{owner} already has an army out ({np_id})",
        owner=owner,
        np_id=np_id,
    )


def field_drain(pending: Pending) -> None:
    """Drain everyone else's HP at a round start for each field with a drain, raised in an
    earlier round; the owner absorbs half as MP if the field absorbs (FATE-NP-13).

    Source: 노블 판타즘 5.⑦ ([고갈Ⅰ] 결계 내부에 있는 모든 인원의 생명력을 전투 회기 당 8점 …
        감소; [상쇄]; [흡수]); the field works from the next judgment (3.④).
    """
    state = pending.state
    for owner, record in list(characters(state).items()):
        field = record["field"]
        if field is None or field["round"] >= state.clock["round"]:
            continue
        mods = parse_mods(record["phantasms"][field["np"]]["mods"])
        if mods.drain:
            _drain(pending, owner, field["np"], mods)


def _drain(pending: Pending, owner: str, np_id: str, mods: NPMods) -> None:
    state, total = pending.state, 0
    for name, record in list(characters(state).items()):
        hp = min(record["hp"], drain_hp(mods.drain, record["anti_magic"], mods.drain_offset))
        if name == owner or hp <= 0:
            continue
        offset = f" - 2 x {record['anti_magic']} anti-magic" if mods.drain_offset else ""
        chants = record["chants"]
        pending.add(
            DamageTaken(
                name,
                hp,
                0,
                f"{owner} {np_id} drain",
                0,
                {},
                chants,
                {"drain": f"{mods.drain}{offset} = {hp} HP (no defense)"},
                rules=with_rules("FATE-NP-13", chants and "FATE-CHANT-2"),
            )
        )
        total += hp
    mp = absorbed_mp(total, characters(state)[owner]["mp"], characters(state)[owner]["mp_max"])
    if mods.absorb and mp:
        pending.add(
            ManaAbsorbed(
                owner,
                mp,
                f"{np_id} absorb",
                {"absorbed": f"{total} HP drained / 2, up to max MP = {mp}"},
            )
        )


def field_upkeep(pending: Pending) -> None:
    """Charge every field its upkeep for the turn just started; unpaid fields end."""
    clock = pending.state.clock
    for name, record in list(characters(pending.state).items()):
        field = record["field"]
        if field is None:
            continue
        grade, rounds = parse_grade(field["grade"]), clock["round"] - field["round"]
        value = field_upkeep_value(grade, rounds, field["plus_used"])
        due = field_upkeep_due(grade, rounds, field["plus_used"])
        if due > record["mp"]:
            pending.add(
                FieldEnded(name, field["np"], f"upkeep of {due} MP unpaid", rules=("FATE-NP-10",))
            )
            continue
        half = " / 2" if field["plus_used"] else ""
        free = " (EX: free 3 rounds)" if grade.is_ex and rounds < 3 else ""
        pending.add(
            UpkeepPaid(
                name,
                field["np"],
                due,
                {
                    "value": f"1 + {count(rounds, 'round')}{half} - plusses = {value}",
                    "paid": f"max(0, {value}){free} = {due}",
                },
                rules=with_rules("FATE-NP-10", bool(free) and "FATE-NP-12"),
            )
        )


def army_upkeep(pending: Pending) -> None:
    """Charge every army its upkeep for the round just started; unpaid armies leave."""
    for name, record in list(characters(pending.state).items()):
        army = record["army"]
        if army is None:
            continue
        due = army["upkeep_per_round"]
        if army["familiars"]:
            continue  # familiars cost no upkeep (프렐라티즈 스펠북's [소환])
        if due > record["mp"]:
            pending.add(ArmyDismissed(name, army["np"], f"upkeep of {due} MP unpaid"))
            continue
        paid = army["units"] - army["free_units"]
        modified = "upkeep-per-unit" in record["phantasms"][army["np"]]["mods"]
        pending.add(
            UpkeepPaid(
                name,
                army["np"],
                due,
                {"units": f"{count(paid, 'paid unit')}", "paid": f"{due} MP"},
                rules=with_rules("FATE-NP-11", modified and "FATE-NP-13"),
            )
        )
