"""Magic Punk TRPG's optional rules, declared: the one value the core reads (docs/magicpunk.md).

``init`` takes ``--clock``, ``--deck`` and ``--rules``. The cards in a hand or charged into an
item are seen by their owner's seats and the GM; to others each shows as ``"?"`` (SERVER.md §3).
The rarity table's rows and the skill ranks are ids typed in any language (the glossary,
tablelog/rules/data/glossary/magicpunk.toml): its words are the ``vocabulary`` "did you mean"
suggests from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import click

from tablelog.commands.magicpunk.cards import Charge, Circulate, Draw, Play
from tablelog.commands.magicpunk.growth import Procure, RollCheck
from tablelog.commands.magicpunk.table import AddCharacter, AddItem
from tablelog.projections import magicpunk as projection
from tablelog.projections.magicpunk.entities import RECORDS
from tablelog.rules.magicpunk.cards import parse_deck
from tablelog.rules.magicpunk.clock import parse_clock
from tablelog.rules.magicpunk.optional import parse_adopted
from tablelog.systems.declaration import (
    Headline,
    Hidden,
    System,
    handlers,
    lazy,
    lazy_group,
    parsed,
)
from tablelog.text import msg

__all__ = ["SYSTEM"]


def _checked(
    parse: Callable[[str], object],
) -> Callable[[click.Context, click.Parameter, str | None], str | None]:
    """Return a callback that keeps an ``init`` option's text once its rule parser takes it.

    Text the parser refuses (``--rules rebuilt``, ``--clock 22:00``, ``--deck AS,ZZ``) is a usage
    error (exit 2) naming the option and the rule, as everywhere (issue 15 item 23).
    """

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is not None:
            parsed(parse, value, f"--{param.name}")
        return value

    return check


OPTIONS = (
    click.Option(
        ["--clock"],
        metavar='"DAY HH:MM"',
        default=None,
        help="In-game start time (magicpunk; default day 1 12:00).",
        callback=_checked(parse_clock),
    ),
    click.Option(
        ["--deck"],
        metavar="C,C,…",
        default=None,
        help="Card list for the shared deck (magicpunk; default 54 cards).",
        callback=_checked(parse_deck),
    ),
    click.Option(
        ["--rules"],
        metavar="RULE,…",
        default=None,
        help="Optional rules the table adopts (magicpunk; default all; docs/magicpunk.md).",
        callback=_checked(parse_adopted),
    ),
)


def _blind_draw(command: Draw) -> Draw:
    """A player's dry run of a draw of given cards, as tablelog's draw of as many: where the
    named cards are (the pile, another hand) never shows in the preview (CORE-UNSEEN)."""
    if command.cards is None or command.count not in (None, len(command.cards)):
        return command  # a COUNT that is not the cards named is refused as it stands
    return attrs.evolve(command, count=len(command.cards), cards=None)


SYSTEM = System(
    name="magicpunk",
    title="Magic Punk",
    description="Magic Punk TRPG optional rules: mana cards, rests, rebuild",
    handlers=handlers(
        "tablelog.events.magicpunk", "tablelog.projections.magicpunk", "tablelog.commands.magicpunk"
    ),
    init_state=projection.init_state,
    group=lazy_group("tablelog.cli.magicpunk"),
    status=lazy("tablelog.cli.magicpunk.status", "STATUS"),
    options=OPTIONS,
    to_json=projection.to_json,
    code=(
        "tablelog.events.magicpunk",
        "tablelog.projections.magicpunk",
        "tablelog.rules.magicpunk",
    ),
    acts_for={
        Draw: "who",
        Play: "who",
        Circulate: "holder",
        Charge: "by",
        Procure: "who",
        RollCheck: "by",
    },
    given={Draw: (("cards", "given-cards"),), RollCheck: (("dice", "given-dice"),)},
    blind={Draw: _blind_draw},
    rolled={
        "magicpunk.CardsDrawn": lambda data: not data.get("named", False),
        "magicpunk.CardsCirculated": lambda data: bool(data.get("drawn")),
        "magicpunk.CheckRolled": lambda data: not data.get("given", False),
    },
    headlines=(
        Headline(msg("magicpunk.headline.cards_drawn", "cards drawn"), "added", (), "hand"),
        Headline(
            msg("magicpunk.headline.cards_played", "cards played"),
            "removed",
            ("magicpunk.CardsPlayed",),
            "hand",
        ),
        Headline(
            msg("magicpunk.headline.cards_charged", "cards charged into items"),
            "added",
            (),
            "cards",
        ),
    ),
    hidden=Hidden(
        owner_fields=("hand", "cards"),
        owner_events={
            "magicpunk.CardsDrawn": ("who", False, ("cards",)),
            "magicpunk.CardsCharged": ("by", False, ("cards",)),
            "magicpunk.CardsCirculated": ("holder", False, ("drawn",)),
        },
        drawn={"magicpunk.CardsDrawn": ("cards",), "magicpunk.CardsCirculated": ("drawn",)},
    ),
    records=RECORDS,
    texts="tablelog.texts.magicpunk",
    sheet=lazy("tablelog.texts.magicpunk", "SHEET"),
    adds={AddCharacter: "name", AddItem: "item"},
    vocabulary={
        "material": lambda state: _row_words("material"),
        "quality": lambda state: _row_words("quality"),
        "design": lambda state: _row_words("design"),
        "skill rank": lambda state: _rank_words(),
    },
    suggest=lambda violation, state: _held_cards(violation, state),
)


def _row_words(what: str) -> list[str]:
    """The rows of a rarity table (MP-PROC-2) by id and by name in every language (the seed's
    Japanese, the glossary's Korean): what "did you mean" suggests for an unknown one."""
    from tablelog.rules.magicpunk.procurement import row_words

    return row_words(what)


def _rank_words() -> list[str]:
    """The skill ranks (MP-REBUILD-5) by id and by name in every language."""
    from tablelog.rules.magicpunk.rebuild import rank_words

    return rank_words()


def _held_cards(violation: Any, state: Any) -> Any:
    """MP-CARDS: the cards the holder the refusal names has (seen by its seats and the GM)."""
    from tablelog.text import Listed, Secret, msg

    holder = violation.msg.params.get("holder") if violation.rule_id == "MP-CARDS" else None
    record = state.entity(holder) if isinstance(holder, str) else None
    cards = None if record is None else record.get("hand", record.get("cards"))
    if cards is None:
        return None
    told = (
        msg(
            "magicpunk.hint.holds",
            "; {holder} holds {cards}",
            holder=holder,
            cards=Listed(tuple(cards), "space"),
        )
        if cards
        else msg("magicpunk.hint.holds_none", "; {holder} holds no cards", holder=holder)
    )
    hint = msg("core.secret", "{told}", told=Secret(told, holder, ""))
    return tuple(Secret(card, holder, None) for card in cards), hint
