"""Seats' page links and browser sessions: the server's side of the pages (:mod:`tablelog.web`).

A seat's link (``/t/ID?token=LINK``) is good once: the browser that opens it gets a session
(``core.SeatSessionOpened``: the link is used up, the session's hash is the seat's), whose
secret its cookie holds. The GM rotates a seat's link (``POST /api/tables/ID/seats/NAME``): a
new token and link, the old ones and every session of the seat dead (docs/SERVER.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Request

from tablelog.server import views
from tablelog.server.auth import Credential, check_origin, server_session
from tablelog.server.tables import Refusal, Seat, Tables

__all__ = ["Links"]


class Links:
    """The pages' view of the server (:class:`tablelog.web.Pages`).

    Args:
        tables: The store's tables.
        server_token: The server token.
        is_server: Whether a credential is the server token's.
    """

    def __init__(
        self, tables: Tables, server_token: str, is_server: Callable[[Credential], bool]
    ) -> None:
        self.tables, self.server_token, self.is_server = tables, server_token, is_server

    def seat(self, table_id: str, secret: str | None, kind: str) -> Seat | None:
        """The seat a ``"link"`` or ``"session"`` secret opens at the table, or None (no such
        table, or one that cannot be used, opens nothing)."""
        if not secret:
            return None
        try:
            return self.tables.get(table_id).seat_of(secret, kind=kind)
        except Refusal:
            return None

    def exchange(self, table_id: str, link: str) -> str | None:
        """Use the link up for a new session of its seat: its secret, or None."""
        try:
            table = self.tables.get(table_id)
            session = table.mint()
            views.open_session(table, link, session)
        except Refusal:
            return None
        return session

    def server_session(self, token: str) -> str | None:
        """A new session of the server's page, for the server token only."""
        if not self.is_server(Credential("bearer", token)):
            return None
        return server_session(self.server_token)

    def check_origin(self, request: Request[Any, Any, Any]) -> None:
        """Refuse (403) a request whose ``Origin`` is not the server's own."""
        check_origin(request)
