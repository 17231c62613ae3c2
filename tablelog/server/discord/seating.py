"""Channels bound to tables and users linked to seats: ``/tl bind``, ``/tl seat``, ``/tl join``,
and the seat an interaction acts as (an unlinked user: an observer)."""

from __future__ import annotations

from collections.abc import Callable

from tablelog.lang import LANGUAGES, say
from tablelog.projections.core import seat_names_used, seats
from tablelog.server import views
from tablelog.server.discord.bindings import Bindings, Channel
from tablelog.server.discord.messages import Asked, Reply, plain
from tablelog.server.tables import Refusal, Seat, Table, Tables
from tablelog.text import msg

__all__ = ["Seating"]


class Seating:
    """The bindings' side of the interactions.

    Args:
        tables: The store's tables.
        bindings: Which channel is which table, which user which seat.
        is_server: Whether a token is the server token (the GM of every table).
    """

    def __init__(self, tables: Tables, bindings: Bindings, is_server: Callable[[str], bool]):
        self.tables, self.bindings, self.is_server = tables, bindings, is_server

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
        views.require_gm(seat)
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
