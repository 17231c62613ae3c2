"""The application command ``/tl`` as Discord registers it: its subcommands and options, each
name and description with its ``ja`` and ``ko`` localizations (``name_localizations``,
``description_localizations``), rendered from the catalogues like every other sentence."""

from __future__ import annotations

from typing import Any

from tablelog.lang import Words
from tablelog.text import Msg, msg

__all__ = ["application_commands", "SUB_COMMAND", "STRING", "INTEGER", "BOOLEAN", "USER"]

SUB_COMMAND, STRING, INTEGER, BOOLEAN, USER = 1, 3, 4, 5, 6  # Discord's option types
LOCALES = ("ja", "ko")  # Discord's locale names of our languages


def _option(
    kind: int, name: Msg, description: Msg, required: bool = False, **more: Any
) -> dict[str, Any]:
    made = {"type": kind, **_named(name, description), **more}
    if required:
        made["required"] = True
    return made


def _named(name: Msg, description: Msg) -> dict[str, Any]:
    """A name and a description in English, with their ja and ko localizations."""
    return {
        "name": Words("en")(name),
        "name_localizations": {lang: Words(lang)(name) for lang in LOCALES},
        "description": Words("en")(description),
        "description_localizations": {lang: Words(lang)(description) for lang in LOCALES},
    }


def _sub(name: Msg, description: Msg, *options: dict[str, Any]) -> dict[str, Any]:
    return {"type": SUB_COMMAND, **_named(name, description), "options": list(options)}


def _choices(*values: str) -> list[dict[str, str]]:
    return [{"name": v, "value": v} for v in values]


def application_commands() -> list[dict[str, Any]]:
    """Return the commands to register (``PUT /applications/{id}/commands``): ``/tl`` with a
    subcommand for binding, seats and each table action."""
    table_id = _option(
        STRING,
        msg("discord.opt.table", "table"),
        msg("discord.opt.table.about", "The table's id"),
        True,
    )
    subs = [
        _sub(
            msg("discord.sub.bind", "bind"),
            msg("discord.sub.bind.about", "Make this channel a table (the GM, with its GM token)"),
            table_id,
            _option(
                STRING,
                msg("discord.opt.token", "token"),
                msg("discord.opt.token.about", "The table's GM token (only you see the answer)"),
                True,
            ),
            _option(
                STRING,
                msg("discord.opt.lang", "lang"),
                msg("discord.opt.lang.about", "The language of the table's lines in the channel"),
                choices=_choices("en", "ja", "ko"),
            ),
        ),
        _sub(
            msg("discord.sub.seat", "seat"),
            msg("discord.sub.seat.about", "Give a user a seat at this table (the GM)"),
            _option(
                USER,
                msg("discord.opt.user", "user"),
                msg("discord.opt.user.about", "Who sits there"),
                True,
            ),
            _option(
                STRING,
                msg("discord.opt.role", "role"),
                msg("discord.opt.role.about", "gm, player or observer"),
                True,
                choices=_choices("player", "observer", "gm"),
            ),
            _option(
                STRING,
                msg("discord.opt.characters", "characters"),
                msg("discord.opt.characters.about", "The characters a player plays (A,B)"),
            ),
            _option(
                STRING,
                msg("discord.opt.name", "name"),
                msg("discord.opt.name.about", "The seat's name (default: the user's name)"),
            ),
        ),
        _sub(
            msg("discord.sub.join", "join"),
            msg("discord.sub.join.about", "Take your seat with the code of its link"),
            _option(
                STRING,
                msg("discord.opt.code", "code"),
                msg("discord.opt.code.about", "The token= part of the seat's link"),
                True,
            ),
        ),
        _sub(
            msg("discord.sub.do", "do"),
            msg("discord.sub.do.about", "Any command line your seat may issue"),
            _option(
                STRING,
                msg("discord.opt.line", "line"),
                msg("discord.opt.line.about", "A command line, e.g. magicpunk draw Aria 2"),
                True,
                autocomplete=True,
            ),
            _option(
                BOOLEAN,
                msg("discord.opt.preview", "preview"),
                msg("discord.opt.preview.about", "Show what it would do, to you only"),
            ),
        ),
        _sub(
            msg("discord.sub.roll", "roll"),
            msg("discord.sub.roll.about", "Roll dice (S before the notation: a secret roll)"),
            _option(
                STRING,
                msg("discord.opt.notation", "notation"),
                msg("discord.opt.notation.about", "Dice notation, e.g. 2D6+1 or S1D100"),
                True,
            ),
            _option(
                STRING,
                msg("discord.opt.reason", "reason"),
                msg("discord.opt.reason.about", "What the roll is for"),
            ),
        ),
        _sub(
            msg("discord.sub.draw", "draw"),
            msg("discord.sub.draw.about", "Draw cards for your character"),
            _option(
                STRING,
                msg("discord.opt.character", "character"),
                msg("discord.opt.character.about", "Who draws"),
                True,
                autocomplete=True,
            ),
            _option(
                INTEGER,
                msg("discord.opt.count", "count"),
                msg("discord.opt.count.about", "How many cards"),
                min_value=1,
            ),
        ),
        _sub(
            msg("discord.sub.status", "status"),
            msg("discord.sub.status.about", "The table at a glance, as your seat sees it"),
        ),
        _sub(
            msg("discord.sub.undo", "undo"),
            msg("discord.sub.undo.about", "Take back your latest action, or action #SEQ"),
            _option(
                INTEGER,
                msg("discord.opt.seq", "seq"),
                msg("discord.opt.seq.about", "The action's seq"),
                min_value=1,
            ),
        ),
        _sub(
            msg("discord.sub.say", "say"),
            msg("discord.sub.say.about", "Say something at the table, or whisper it"),
            _option(
                STRING,
                msg("discord.opt.text", "text"),
                msg("discord.opt.text.about", "What you say"),
                True,
            ),
            _option(
                STRING,
                msg("discord.opt.to", "to"),
                msg("discord.opt.to.about", "Whisper to these seats (A,B)"),
            ),
        ),
    ]
    about = msg("discord.command.about", "tablelog: the table")
    top = {  # /tl in every language: the one word to type
        "name": "tl",
        "description": Words("en")(about),
        "description_localizations": {lang: Words(lang)(about) for lang in LOCALES},
    }
    return [{"type": 1, **top, "options": subs}]
