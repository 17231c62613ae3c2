"""The rebuild command (リビルド): abilities, skills, items and spells (MP-REBUILD-1..12)."""

from __future__ import annotations

import attrs

from tablelog.commands.core import decider
from tablelog.events.core import Event
from tablelog.events.magicpunk import Rebuilt
from tablelog.projections.core import State, require
from tablelog.projections.magicpunk.entities import Character
from tablelog.projections.magicpunk.growth import abilities_of
from tablelog.projections.magicpunk.table import character, check_rule_adopted
from tablelog.rules.magicpunk import rebuild as rb
from tablelog.text import Listed, msg

__all__ = ["Rebuild"]


@attrs.frozen
class Rebuild:
    """Rebuild ``name``.

    Attributes:
        abilities: New ``{ability: value}`` for all four, or None to keep them.
        skills: New ``{skill: rank}``, or None to keep them.
        to_skills / to_money: Ability points above 40 turned into acquisitions / 1,000 Mj each
            (GM permission, MP-REBUILD-2).
        to_abilities / skills_to_money: Acquisitions above 5 turned into ability points /
            1,000 Mj each (GM permission, MP-REBUILD-6).
        items: Remove every item and refund A + B - C (MP-REBUILD-8).
        spells: Unlearn every spell and refund what was spent (MP-REBUILD-10).
        minimums: Lowered ability minimums (the immature-ability option, MP-REBUILD-3).
    """

    name: str
    abilities: dict[str, int] | None = None
    skills: dict[str, str] | None = None
    to_skills: int = 0
    to_money: int = 0
    to_abilities: int = 0
    skills_to_money: int = 0
    items: bool = False
    spells: bool = False
    minimums: dict[str, int] = attrs.Factory(dict)


def _new_abilities(ch: Character, c: Rebuild, pool: int) -> dict[str, int]:
    before = abilities_of(ch)
    if c.abilities is None:
        require(
            pool == sum(before.values()),
            "MP-REBUILD-1",
            msg(
                "magicpunk.rebuild.give_abilities",
                "the conversions make a pool of {pool} points: give --body --sense --intellect "
                "--magic",
                pool=pool,
            ),
        )
        return before
    missing = [f"--{a}" for a in rb.ABILITIES if a not in c.abilities]
    require(
        not missing,
        "MP-REBUILD-1",
        msg(
            "magicpunk.rebuild.abilities_missing",
            "give all four abilities or none: {missing} missing",
            missing=Listed(tuple(missing), "space"),
        ),
    )
    rb.check_abilities(c.abilities, pool, c.minimums)
    return {a: c.abilities[a] for a in rb.ABILITIES}


def _new_skills(ch: Character, c: Rebuild, acq: int) -> dict[str, str]:
    if c.skills is None:
        require(
            acq == rb.acquisitions(ch["skills"]),
            "MP-REBUILD-7",
            msg(
                "magicpunk.rebuild.give_skills",
                "the conversions leave {acq} acquisitions: give the skills to re-learn",
                acq=acq,
            ),
        )
        return dict(ch["skills"])
    skills = {name: rb.skill_rank(rank) for name, rank in c.skills.items()}
    rb.check_skills(skills, acq)
    return skills


def _money(ch: Character, c: Rebuild, converted: int) -> tuple[int, int, dict[str, int]]:
    """Return (money after, spell-only money after, breakdown) (MP-REBUILD-8..10)."""
    spells = ch["spells"].values() if c.spells else []
    refund_money = sum(s["from_money"] for s in spells if not s["free"])
    refund_spell = sum(s["price"] if s["free"] else s["from_spell_money"] for s in spells)
    kept_c = 0 if c.spells else sum(s["from_money"] for s in ch["spells"].values())
    money = ch["money"] + refund_money + converted
    breakdown = {
        "spell_refund_money": refund_money,
        "spell_refund_spell_only": refund_spell,
        "converted_mj": converted,
    }
    if c.items:
        money = rb.item_refund(
            ch["money_at_creation"],
            ch["money_from_scenarios"],
            kept_c,
            ch["money_converted"] + converted,
        )
        breakdown.update(
            A_creation=ch["money_at_creation"],
            B_scenarios=ch["money_from_scenarios"],
            C_spells=kept_c,
            earlier_conversions=ch["money_converted"],
            buy_first_with=min(money, ch["money_at_creation"]),
        )
    return money, ch["spell_money"] + refund_spell, breakdown


@decider(Rebuild)
def decide_rebuild(state: State, c: Rebuild) -> list[Event]:
    """Decide a rebuild; every limit is refused with its rule.

    Raises:
        RuleViolation: MP-REBUILD-1..7 for abilities, skills and conversions; UNKNOWN-NAME.

    Source: magicpunk-optional-rules.ja.txt, リビルド; MP-REBUILD-1..12 (lifestyle is not
    touched, MP-REBUILD-12).
    """
    check_rule_adopted(state, "rebuild")
    ch = character(state, c.name)
    pool0, acq0 = sum(abilities_of(ch).values()), rb.acquisitions(ch["skills"])
    rb.check_conversions(pool0, acq0, c.to_skills, c.to_money, c.to_abilities, c.skills_to_money)
    require(
        c.abilities is not None or c.skills is not None or c.items or c.spells,
        "MP-REBUILD-1",
        msg(
            "magicpunk.rebuild.nothing",
            "nothing to rebuild: give abilities, skills, --items or --spells",
        ),
    )
    pool = pool0 - c.to_skills - c.to_money + c.to_abilities
    acq = acq0 - c.to_abilities - c.skills_to_money + c.to_skills
    abilities = _new_abilities(ch, c, pool)
    skills = _new_skills(ch, c, acq)
    converted = (c.to_money + c.skills_to_money) * rb.MJ_PER_POINT
    money, spell_money, breakdown = _money(ch, c, converted)
    breakdown.update(ability_pool=pool, acquisitions=acq)
    return [
        Rebuilt(
            name=c.name,
            abilities_before=abilities_of(ch),
            abilities_after=abilities,
            skills_before=dict(ch["skills"]),
            skills_after=skills,
            money_before=ch["money"],
            money_after=money,
            spell_money_after=spell_money,
            converted_mj=converted,
            items_removed=tuple(ch["items"]) if c.items else (),
            spells_unlearned=tuple(ch["spells"]) if c.spells else (),
            breakdown=breakdown,
        )
    ]
