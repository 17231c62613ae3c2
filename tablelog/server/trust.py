"""What a player seat may choose at a served table: no outcome tablelog rolls (SERVER.md §3).

Two checks run before a player's command is decided, so neither can tell the seat anything of
the table's hidden state (CORE-UNSEEN): its answer depends on the command, the seat and the
table's options alone.

- **Given outcomes** (CORE-GIVEN): the options that report physical cards, dice or random factors
  (each system's ``given``) are the GM's, unless the GM turned on the table option for them
  (``table allow given-cards``).
- **No fishing** (CORE-REROLL): a player may not undo or redo its own action whose outcome
  tablelog drew or rolled (each system's ``rolled``); CORE-RANDOM already keeps an undo from
  showing the next draw, this keeps it from buying a second one.

A player's dry run of a command with given cards is previewed as tablelog's draw of as many
unseen cards (:func:`blind_preview`): where the named cards are never shows in its status.
"""

from __future__ import annotations

from tablelog import systems
from tablelog.commands.core import Redo, Undo
from tablelog.events.core import DiceRolled
from tablelog.lang import say
from tablelog.projections.core import table_allows
from tablelog.server.tables import Refusal, Seat, Table
from tablelog.text import msg

__all__ = ["refuse_given", "refuse_reroll", "blind_preview"]


def refuse_given(table: Table, seat: Seat, command: object, words: str) -> None:
    """Refuse a player's given cards, dice or random factor the table does not allow.

    Raises:
        Refusal: 403 forbidden, rule CORE-GIVEN, naming the option and the table option.

    Source: SERVER.md §3 ("Who chooses an outcome"); CORE-GIVEN.
    """
    if seat.role == "gm":
        return
    state = table.current()
    for field, option in systems.given_fields(state.system, command):
        if table_allows(state, option):
            continue
        flag = f"--{field}"
        raise Refusal(
            403,
            "forbidden",
            say(
                msg(
                    "server.forbidden.given",
                    "{flag} reports what was drawn or rolled at the table: the GM's to give, or "
                    "a player's when the GM allows it (table allow {option}); without it "
                    "tablelog draws",
                    flag=flag,
                    option=option,
                )
            ),
            "CORE-GIVEN",
            params={"option": flag, "table_option": option, "command": words, "seat": seat.name},
        )


CORE_ROLLED = {DiceRolled.TYPE: lambda data: True}
"""The core records whose outcome tablelog always rolls: plain dice (``roll``, CORE-DICE) have
no given form, so a player's own roll is never undone to roll again (CORE-REROLL)."""


def refuse_reroll(table: Table, seat: Seat, command: object) -> None:
    """Refuse a player's undo or redo of its own action whose outcome tablelog rolled (hold
    the table's lock, caught up: the action is the one the decider will take).

    Raises:
        Refusal: 403 forbidden, rule CORE-REROLL, naming the action.

    Source: SERVER.md §3; CORE-REROLL.
    """
    if seat.role == "gm" or not isinstance(command, Undo | Redo):
        return
    action = table.session.marked_action(command)
    if action is None:
        return  # the decider refuses it with its own rule
    rolled = {**CORE_ROLLED, **systems.get(table.session.header.system).rolled}
    records = table.records_after(action.first - 1, action.last - action.first + 1)
    kinds = [rec.type for rec in records if rec.type in rolled and rolled[rec.type](rec.data)]
    if not kinds:
        return
    told = (
        msg(
            "server.forbidden.reroll_undo",
            "#{seq} is an outcome tablelog drew or rolled ({kind}): a player does not undo it "
            "to draw or roll again (the GM may)",
            seq=action.first,
            kind=kinds[0],
        )
        if isinstance(command, Undo)
        else msg(
            "server.forbidden.reroll_redo",
            "#{seq} is an outcome tablelog drew or rolled ({kind}): a player does not redo it "
            "(the GM may)",
            seq=action.first,
            kind=kinds[0],
        )
    )
    raise Refusal(
        403,
        "forbidden",
        say(told),
        "CORE-REROLL",
        params={"seq": action.first, "type": kinds[0], "seat": seat.name},
    )


def blind_preview(table: Table, seat: Seat, command: object, dry_run: bool) -> object:
    """Return the command a player's dry run is decided as: its system's blind form (each
    system's ``blind``; magicpunk: a draw of given cards as tablelog's draw of as many, shown
    unseen), so the preview's status and message are the same wherever the named cards are
    (CORE-UNSEEN); any other command, and the GM's, as it is."""
    if not dry_run or seat.role == "gm":
        return command
    blind = systems.get(table.session.header.system).blind.get(type(command))
    return command if blind is None else blind(command)
