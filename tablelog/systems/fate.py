"""The fan-made Fate TRPG, declared: the one value the core reads (docs/fate.md)."""

from __future__ import annotations

from tablelog.commands.fate.abilities import UseAbility
from tablelog.commands.fate.casting import Cast, Chant
from tablelog.commands.fate.release import Release
from tablelog.commands.fate.setup import AddMaster, AddServant
from tablelog.projections import fate as projection
from tablelog.projections.fate.entities import Master, Servant
from tablelog.rules.fate.words import known_words
from tablelog.systems.declaration import Headline, System, handlers, lazy, lazy_group
from tablelog.text import msg

__all__ = ["SYSTEM"]

SYSTEM = System(
    name="fate",
    title="Fate",
    description="fan-made Fate TRPG: code casts, chants, Noble Phantasms",
    handlers=handlers(
        "tablelog.events.fate", "tablelog.projections.fate", "tablelog.commands.fate"
    ),
    init_state=projection.init_state,
    group=lazy_group("tablelog.cli.fate"),
    status=lazy("tablelog.cli.fate.status", "STATUS"),
    records=(Master, Servant),
    code=("tablelog.events.fate", "tablelog.projections.fate", "tablelog.rules.fate"),
    acts_for={Cast: "caster", Chant: "name", Release: "owner", UseAbility: "owner"},
    texts="tablelog.texts.fate",
    sheet=lazy("tablelog.texts.fate", "SHEET"),
    adds={AddMaster: "name", AddServant: "name"},
    vocabulary={  # an unknown word's "did you mean": the glossary's words in every language
        "np type": lambda state: known_words("np_type"),
        "np form": lambda state: known_words("form"),
        "np release": lambda state: known_words("release"),
        "np ability": lambda state: known_words("ability"),
        "magic kind": lambda state: known_words("kind"),
        "magic attribute": lambda state: known_words("attribute"),
    },
    headlines=(
        Headline(
            msg("fate.headline.nps_released", "NPs released"), "events", ("fate.PhantasmReleased",)
        ),
        Headline(msg("fate.headline.code_casts", "code casts"), "events", ("fate.CodeCast",)),
    ),
)
