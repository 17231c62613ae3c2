"""A slash command's interaction, answered through the API's one path.

Each ``/tl`` subcommand becomes a command line (``/tl draw Aria 2`` is ``magicpunk draw Aria
2``) and goes through :func:`tablelog.server.views.command` — parse, authorise the seat,
execute, render — with the interaction's id as the request id (a retried interaction appends
once). The answer is rendered twice: as an observer reads it (the table's public line, posted
to the channel) and as the seat reads it; when the seat sees more (its own drawn cards, a
secret roll, a whisper) that goes to the seat alone as an ephemeral follow-up, and when the
public sees nothing of it the whole answer is ephemeral. Refusals are ephemeral, with the rule
ID (or the error's code) and the message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs

from tablelog.lang import LANGUAGES, Words, reading, say
from tablelog.projections.core import seat_names_used, seats
from tablelog.server import views
from tablelog.server.discord.bindings import Bindings, Channel
from tablelog.server.discord.completion import choices, quoted
from tablelog.server.tables import Refusal, Seat, Table, Tables
from tablelog.text import msg

__all__ = ["Reply", "Asked", "Interactions", "quoted", "language"]

EPHEMERAL = 64  # the message flag: only the user who asked sees it
MAX_CONTENT = 2000  # Discord's limit on a message's content
PUBLIC = Seat("", "observer")  # the channel: what an observer reads (no seat is named "")


_MARKDOWN = re.compile(r"([\\*_~`|>\[\]<])")  # Discord drops a backslash before any of them


def plain(text: str) -> str:
    """``text`` from a log as Discord shows it literally: its Markdown characters escaped (a
    character named ``[here](https://…)`` is no link, ``**x**`` no bold, ``<@1>`` no mention)."""
    return _MARKDOWN.sub(r"\\\1", text)


def language(locale: str | None) -> str:
    """The language of a Discord locale (``ja``, ``ko``, ``en-US`` …): ours, else English."""
    lang = (locale or "").split("-", 1)[0].lower()
    return lang if lang in LANGUAGES else "en"


@attrs.frozen
class Reply:
    """An answer: its content, whether only the user sees it, and more messages for the user
    alone (ephemeral follow-ups, sent after the answer)."""

    content: str
    ephemeral: bool = True
    followups: tuple[str, ...] = ()

    def body(self) -> dict[str, Any]:
        """The interaction response: type 4 (CHANNEL_MESSAGE_WITH_SOURCE), no mention pings."""
        return {"type": 4, "data": message(self.content, self.ephemeral)}


def message(content: str, ephemeral: bool) -> dict[str, Any]:
    """A message's data: its content with no control character raw (each line escaped as the
    CLI's output is), cut to Discord's limit; nobody pinged by names in it."""
    from tablelog.rules.core import escape_text

    content = "\n".join(escape_text(line) for line in content.split("\n"))
    if len(content) > MAX_CONTENT:
        content = content[: MAX_CONTENT - 1] + "…"
    data: dict[str, Any] = {"content": content, "allowed_mentions": {"parse": []}}
    if ephemeral:
        data["flags"] = EPHEMERAL
    return data


@attrs.frozen
class Asked:
    """What an interaction asks: who, where, which subcommand with which options."""

    interaction_id: str
    user_id: str
    username: str
    channel_id: str
    lang: str
    guild_lang: str
    name: str
    options: dict[str, Any]
    focused: str | None
    users: dict[str, Any]

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Asked:
        """Read an interaction (type 2 or 4) of ``/tl SUBCOMMAND …``."""
        user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        data = payload.get("data") or {}
        sub: dict[str, Any] = next(iter(data.get("options") or []), {})
        options, focused = {}, None
        for option in sub.get("options") or []:
            options[str(option.get("name"))] = option.get("value")
            if option.get("focused"):
                focused = str(option.get("name"))
        channel = payload.get("channel_id") or (payload.get("channel") or {}).get("id") or ""
        return cls(
            str(payload.get("id", "")),
            str(user.get("id", "")),
            str(user.get("global_name") or user.get("username") or user.get("id", "")),
            str(channel),
            language(payload.get("locale")),
            language(payload.get("guild_locale")),
            str(sub.get("name", "")),
            options,
            focused,
            ((data.get("resolved") or {}).get("users")) or {},
        )

    def text(self, name: str) -> str:
        value = self.options.get(name)
        return "" if value is None else str(value)


class Interactions:
    """The server's answers to interactions.

    Args:
        tables: The store's tables.
        bindings: Which channel is which table, which user which seat.
        is_server: Whether a token is the server token (the GM of every table).
    """

    def __init__(self, tables: Tables, bindings: Bindings, is_server: Callable[[str], bool]):
        self.tables, self.bindings, self.is_server = tables, bindings, is_server

    def answer(self, payload: dict[str, Any]) -> dict[str, Any] | Reply:
        """Answer an application command (a :class:`Reply`) or an autocomplete (its body)."""
        asked = Asked.of(payload)
        with reading(Words(asked.lang)):
            try:
                if payload.get("type") == 4:
                    return choices(self, asked)
                return self._command(asked)
            except Refusal as refusal:
                return Reply(refused(refusal))

    def _command(self, asked: Asked) -> Reply:
        if asked.name == "bind":
            return self._bind(asked)
        channel, table = self.table_of(asked)
        seat = self.seat_of(table, asked)
        if asked.name == "seat":
            return self._seat(asked, table, seat)
        if asked.name == "join":
            return self._join(asked, table)
        if asked.name == "status":
            from tablelog.cli.status import status_lines

            lines = status_lines(views.state(table, seat, None))
            return Reply("```\n" + "\n".join(lines).replace("```", "'''") + "\n```")
        line = command_line(asked, table.current().system)
        return self._act(asked, channel, table, seat, line, bool(asked.options.get("preview")))

    def table_of(self, asked: Asked) -> tuple[Channel, Table]:
        """The channel's binding and its table.

        Raises:
            Refusal: 404 when the channel is bound to no table.
        """
        channel = self.bindings.channel(asked.channel_id)
        if channel is None:
            told = msg(
                "server.discord.not_bound",
                "this channel is not bound to a table: its GM binds it with /tl bind TABLE TOKEN",
            )
            raise Refusal(404, "not_found", say(told))
        return channel, self.tables.get(channel.table_id)

    def seat_of(self, table: Table, asked: Asked) -> Seat:
        """The user's seat at the table; an unlinked user (or one whose seat was revoked) is an
        observer, who reads what observers read and appends nothing."""
        name = self.bindings.seat_name(table.table_id, asked.user_id)
        state = table.state()
        found = seats(state).get(name or "") if name else None
        if name is None or found is None:  # named as no seat is, so it reads no one's whisper
            shown = f"@{asked.username}"
            return Seat("" if shown.casefold() in seat_names_used(state) else shown, "observer")
        return Seat(name, found["role"], tuple(found["characters"]))

    def _bind(self, asked: Asked) -> Reply:
        table_id, token = asked.text("table"), asked.text("token")
        not_gm = Refusal(
            403,
            "forbidden",
            say(
                msg(
                    "server.discord.not_gm_token",
                    "that is not a GM token of table {table}",
                    table=table_id,
                )
            ),
        )
        try:
            table = self.tables.get(table_id)
        except Refusal as refusal:
            if refusal.status in (400, 404):
                raise not_gm from None
            raise
        seat = Seat("gm", "gm") if self.is_server(token) else table.seat_of(token)
        if seat is None or seat.role != "gm":
            raise not_gm
        self._may_rebind(asked, table_id, self.is_server(token))
        lang = asked.text("lang") if asked.text("lang") in LANGUAGES else asked.guild_lang
        self.bindings.bind(asked.channel_id, table_id, lang)
        self.bindings.link(table_id, asked.user_id, seat.name)
        told = msg(
            "server.discord.bound",
            "this channel is now table {table} ({title}); you are its seat {seat}",
            table=plain(table_id),
            title=plain(table.state().title),
            seat=plain(seat.name),
        )
        return Reply(say(told))

    def _may_rebind(self, asked: Asked, table_id: str, server: bool) -> None:
        """Refuse to bind a channel bound to another table, unless the user is a GM seat of
        that table (or gave the server token): a GM of one table takes no other's channel.

        Raises:
            Refusal: 403 forbidden naming the table the channel is bound to.
        """
        bound = self.bindings.channel(asked.channel_id)
        if bound is None or bound.table_id == table_id or server:
            return
        try:
            was = self.seat_of(self.tables.get(bound.table_id), asked)
        except Refusal:
            return  # the table it was bound to is gone or unusable: the channel is free
        if was.role != "gm":
            told = msg(
                "server.discord.bound_elsewhere",
                "this channel is table {table}: only its GM (or the server token) binds it to "
                "another table",
                table=bound.table_id,
            )
            raise Refusal(403, "forbidden", say(told), params={"table": bound.table_id})

    def _seat(self, asked: Asked, table: Table, seat: Seat) -> Reply:
        """``/tl seat @user ROLE [CHARACTERS] [NAME]``: the GM links a user to a seat, made now
        (its token and link are not shown: the GM rotates the seat for a page link) or, when
        the table has a seat of that name, the one it has."""
        if seat.role != "gm":
            told = msg(
                "server.forbidden.needs_gm",
                "{seat} is a {role}: this needs the gm role",
                seat=seat.name,
                role=seat.role,
            )
            raise Refusal(403, "forbidden", say(told), params={"seat": seat.name, "needs": "gm"})
        user_id = asked.text("user")
        user = asked.users.get(user_id) or {}
        name = asked.text("name") or str(user.get("username") or user_id)
        if name not in seats(table.state()):
            chars = [c.strip() for c in asked.text("characters").split(",") if c.strip()]
            role = asked.text("role") or "player"
            views.add_seat(table, name, role, chars, table.mint(), table.mint())
        self.bindings.link(table.table_id, user_id, name)
        now = seats(table.current())[name]
        told = msg(
            "server.discord.seated",
            "<@{user}> is seat {seat} ({role}; plays {plays}) at this table",
            user=user_id,
            seat=plain(name),
            role=now["role"],
            plays=plain(", ".join(now["characters"])) or "-",
        )
        return Reply(say(told))

    def _join(self, asked: Asked, table: Table) -> Reply:
        """``/tl join CODE``: a player uses up the seat's one-time link (its ``?token=`` code),
        as a browser does, and is linked to that seat."""
        try:
            joined = views.open_session(table, asked.text("code").strip(), table.mint())
        except Refusal:
            told = msg(
                "server.discord.bad_code",
                "this code opens no seat of this table (used up, replaced, or never one): ask "
                "the GM for a new link",
            )
            raise Refusal(401, "unauthorized", say(told)) from None
        self.bindings.link(table.table_id, asked.user_id, joined.name)
        told = msg(
            "server.discord.joined",
            "you are now seat {seat} ({role}) at this table",
            seat=plain(joined.name),
            role=joined.role,
        )
        return Reply(say(told))

    def _act(
        self, asked: Asked, channel: Channel, table: Table, seat: Seat, line: str, dry_run: bool
    ) -> Reply:
        answer, _ = views.command(table, seat, line, f"discord:{asked.interaction_id}", dry_run)
        mine = answer["events"]
        if dry_run or not answer["seqs"]:
            return Reply(lines_of(mine) or line)
        first, last = answer["seqs"]
        with reading(Words(channel.lang)):
            public = [
                e for e in views.log(table, PUBLIC, first - 1, True, 1000) if e["seq"] <= last
            ]
        if not public:
            return Reply(lines_of(mine))
        more = [m["data"] for m in mine] != [p["data"] for p in public]
        return Reply(lines_of(public), False, (lines_of(mine),) if more else ())


def lines_of(events: list[dict[str, Any]]) -> str:
    """The events as the CLI prints them, one per line: ``#SEQ description``."""
    return "\n".join(f"#{e['seq']} {plain(e.get('text') or e['type'])}" for e in events)


def refused(refusal: Refusal) -> str:
    """A refusal as the user reads it: the rule ID (or the error's code) and the message."""
    return say(
        msg(
            "server.discord.refused",
            "{rule}: {message}",
            rule=refusal.rule or refusal.code,
            message=plain(refusal.message),
        )
    )


def command_line(asked: Asked, system: str) -> str:
    """The command line of a table subcommand (``do``, ``roll``, ``draw``, ``undo``, ``say``).

    Raises:
        Refusal: 400 usage for a subcommand that is none of them.
    """
    text = asked.text
    if asked.name == "do":
        return text("line")
    if asked.name == "roll":
        reason = f" --reason {quoted(text('reason'))}" if text("reason") else ""
        return f"roll {quoted(text('notation'))}{reason}"
    if asked.name == "draw":
        count = f" {int(asked.options['count'])}" if asked.options.get("count") else ""
        return f"{system} draw {quoted(text('character'))}{count}"
    if asked.name == "undo":
        return f"undo {int(asked.options['seq'])}" if asked.options.get("seq") else "undo"
    if asked.name == "say":
        to = f" --to {quoted(text('to'))}" if text("to") else ""
        return f"say {quoted(text('text'))}{to}"
    told = msg("server.discord.unknown", "/tl {name} is not a command of tablelog", name=asked.name)
    raise Refusal(400, "usage", say(told))
