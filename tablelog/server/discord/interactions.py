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

from typing import Any

from tablelog.lang import Words, reading, say
from tablelog.projections.core import seats
from tablelog.server import views
from tablelog.server.discord.bindings import Channel
from tablelog.server.discord.completion import choices, quoted
from tablelog.server.discord.messages import Asked, Reply, lines_of, refused
from tablelog.server.discord.seating import Seating
from tablelog.server.tables import Refusal, Seat, Table
from tablelog.text import msg

__all__ = ["Interactions", "command_line", "PUBLIC"]

PUBLIC = Seat("", "observer")  # the channel: what an observer reads (no seat is named "")


class Interactions(Seating):
    """The server's answers to interactions (:class:`Seating`'s arguments; ``direct``: the
    server has a bot token, so what the channel reads nothing of — a whisper, a secret roll —
    also goes to the other linked users who read it, as a direct message)."""

    def __init__(self, *args: Any, direct: bool = False) -> None:
        super().__init__(*args)
        self.direct = direct

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

    def _act(
        self, asked: Asked, channel: Channel, table: Table, seat: Seat, line: str, dry_run: bool
    ) -> Reply:
        request_id = f"discord:{asked.interaction_id}" if asked.interaction_id else None
        answer, _ = views.command(table, seat, line, request_id, dry_run)
        mine = answer["events"]
        if dry_run or not answer["seqs"]:
            return Reply(lines_of(mine) or line)
        first, last = answer["seqs"]
        with reading(Words(channel.lang)):
            public = [
                e for e in views.log(table, PUBLIC, first - 1, True, 1000) if e["seq"] <= last
            ]
        unread = set(range(first, last + 1)) - {p["seq"] for p in public}
        direct = self._readers(asked, channel, table, first, unread) if unread else ()
        if not public:
            return Reply(lines_of(mine), direct=direct)
        more = [m["data"] for m in mine] != [p["data"] for p in public]
        return Reply(lines_of(public), False, (lines_of(mine),) if more else (), direct)

    def _readers(
        self, asked: Asked, channel: Channel, table: Table, first: int, unread: set[int]
    ) -> tuple[tuple[str, str], ...]:
        """``(user id, lines)`` for each other linked user whose seat reads records ``unread``
        of the channel (a whisper's recipients, the GM), in the channel's language."""
        if not self.direct:
            return ()
        out = []
        state = table.current()
        with reading(Words(channel.lang)):
            for user, name in sorted(self.bindings.users(table.table_id).items()):
                held = seats(state).get(name)
                if user == asked.user_id or held is None:
                    continue
                theirs = Seat(name, held["role"], tuple(held["characters"]))
                lines = views.log(table, theirs, first - 1, True, 1000)
                read = [e for e in lines if e["seq"] in unread]
                if read:
                    out.append((user, lines_of(read)))
        return tuple(out)


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
