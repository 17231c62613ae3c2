"""SaGa Emerald Beyond battle damage, declared: the one value the core reads (docs/saga.md).

Enemy units' HP and LP (and the HP floor) are the GM's: ``null`` to players and observers, in
the state and in the record that added the unit (SERVER.md §3).
"""

from __future__ import annotations

from typing import Any

from tablelog.commands.saga.cast import CastTech
from tablelog.commands.saga.status import ApplyBuff, PoisonUnit, ReleaseUnit
from tablelog.commands.saga.units import AddUnit
from tablelog.projections import saga as projection
from tablelog.projections.saga.entities import Unit
from tablelog.systems.declaration import Headline, Hidden, System, handlers, lazy, lazy_group
from tablelog.text import msg

__all__ = ["SYSTEM"]

STAND_IN_HP = 10**9
"""The HP and LP (and their maxima) an enemy has in a player's dry run: more than any hit takes,
so a preview never says whether a hit would fell it (CORE-UNSEEN)."""


def _stand_ins(state: Any, hidden: frozenset[str]) -> None:
    """Give each hidden enemy of ``state`` stand-in HP and LP and no HP floor (an incapacitated
    one, which every seat sees fall, keeps 0 HP): a player's preview of a hit on it is the same
    whatever its hidden HP and LP (CORE-UNSEEN)."""
    for name in hidden:
        unit = state.characters.get(name)
        if unit is None:
            continue
        unit["hp_max"] = STAND_IN_HP
        unit["hp"] = 0 if unit.get("incapacitated") else STAND_IN_HP
        unit["hp_floor"] = 0
        for field in ("lp", "lp_max"):
            if unit.get(field) is not None:
                unit[field] = STAND_IN_HP


SYSTEM = System(
    name="saga",
    title="SaGa Emerald Beyond",
    description="SaGa Emerald Beyond battle damage",
    handlers=handlers(
        "tablelog.events.saga", "tablelog.projections.saga", "tablelog.commands.saga"
    ),
    init_state=projection.init_state,
    group=lazy_group("tablelog.cli.saga"),
    status=lazy("tablelog.cli.saga.status", "STATUS"),
    data_files=("saga_battle_ranks.csv", "saga_damage_split.csv", "saga_techs.csv"),
    code=("tablelog.events.saga", "tablelog.projections.saga", "tablelog.rules.saga"),
    acts_for={CastTech: "actor", ApplyBuff: "by", ReleaseUnit: "name"},
    given={CastTech: (("roll", "given-factors"),), PoisonUnit: (("roll", "given-factors"),)},
    rolled={  # a factor tablelog drew (a reported one says so in the breakdown); poison is
        # the GM's, whose undo is never refused
        "saga.AttackDamageDealt": lambda data: (
            (data.get("breakdown") or {}).get("random_source") != "reported roll"
            or "random_targets" in (data.get("breakdown") or {})
        ),
    },
    headlines=(
        Headline(
            msg("saga.headline.techs_used", "techs used"),
            "actions",
            ("saga.AttackDamageDealt", "saga.AttackAvoided"),
        ),
    ),
    hidden=Hidden(
        enemy_fields=("hp", "hp_max", "lp", "lp_max", "hp_floor"),
        enemy_sheets={"saga.UnitAdded": (("hp", "hp_max", "lp_max"), ("hp_floor",))},
        enemy_events={  # the damage rolled stays (the game shows it); what it took does not
            "saga.AttackDamageDealt": ("target", ("hp_lost",)),
            "saga.PoisonDamageTaken": ("unit", ("hp_lost",)),
            "saga.HPHealed": ("unit", ("amount", "healed")),  # a full heal's amount: max HP
            "saga.BloodPaid": ("unit", ("lp_lost",)),
            "saga.UnitIncapacitated": ("unit", ("lp_lost",)),
        },
        rolled={  # a players' report: the damage each ally rolled against a hidden enemy
            "saga.AttackDamageDealt": ("target", "actor", "damage"),
            "saga.PoisonDamageTaken": ("unit", "", "damage"),
        },
    ),
    stand_ins=_stand_ins,
    records=(Unit,),
    texts="tablelog.texts.saga",
    sheet=lazy("tablelog.texts.saga", "SHEET"),
    adds={AddUnit: "name"},
    vocabulary={"tech": lambda state: _tech_words(state)},
)


def _tech_words(state: Any) -> list[str]:
    """The session's own techs, then the catalogue's ids and every name they go by: the
    Japanese one and the glossary's words in any language (did you mean suggests across them)."""
    from tablelog.rules import glossary
    from tablelog.rules.saga import catalogue

    session_techs = list(state.extra.get("techs", {})) if state is not None else []
    ids = catalogue.tech_ids()
    names = [catalogue.tech(i).name_ja for i in ids]
    return list(dict.fromkeys([*session_techs, *ids, *names, *glossary.words_of("saga.tech")]))
