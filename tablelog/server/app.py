"""The HTTP API of SERVER.md §4, on Litestar (attrs models give the OpenAPI document directly).

Every ``/api`` route but health takes ``Authorization: Bearer TOKEN``: the server token acts as the
GM of every table; a seat's token is good for its table only. Errors are JSON
``{"error": {"code", "rule", "message", "params", "suggestions"}}`` with the contract's status;
never a 500.
"""

from __future__ import annotations

import hmac
import os
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import attrs
from litestar import Litestar, Request, Response, delete, get, post
from litestar.concurrency import sync_to_thread
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.params import Parameter
from litestar.response import ServerSentEvent

from tablelog.lang import say
from tablelog.server import errors, sheets, views
from tablelog.server.auth import (
    Credential,
    check_page_write,
    credential,
    is_server_session,
)
from tablelog.server.errors import MAX_BODY_BYTES, MAX_LOG_LIMIT
from tablelog.server.links import Links
from tablelog.server.speech import Speaking, follow_reader
from tablelog.server.tables import Refusal, Seat, Table, Tables
from tablelog.text import Msg, msg
from tablelog.web import COOKIE_PREFIX, web_routes

__all__ = ["create_app", "MAX_BODY_BYTES"]

REPORT_TYPES = {"html": "text/html", "md": "text/markdown"}  # GET …/report?format=
KEEPALIVE_S = 15.0
STOPPING = threading.Event()  # set when the server is asked to stop: event streams end


@attrs.frozen
class Error:
    code: str
    rule: str | None
    message: str
    params: dict[str, Any] = attrs.Factory(dict)
    suggestions: list[Any] = attrs.Factory(list)


@attrs.frozen
class ErrorBody:
    """Every error answer: ``{"error": {"code", "rule", "message", "params", "suggestions"}}``
    (SERVER.md §4): ``params`` the values the message names, ``suggestions`` "did you mean"
    candidates (or the cards a holder the seat may see holds)."""

    error: Error


ERRORS = {
    status: ResponseSpec(ErrorBody, generate_examples=False, description=text)
    for status, text in (
        (400, "usage: not a command line, unknown words, a bad body"),
        (401, "no token, or a token not good for this table"),
        (403, "not this seat's to do"),
        (404, "no such table or name"),
        (409, "a request id the table holds for another seat's or another command's request"),
        (413, "a body over 64 KiB, or a seat's command line over 4,000 characters"),
        (415, "a write with the page's cookie that is not application/json"),
        (422, "refused by a rule"),
        (429, "a seat sent more commands or characters than it may in a while"),
        (503, "the table's log cannot be used"),
    )
}
REPORT_ERRORS = {
    **ERRORS,
    501: ResponseSpec(
        ErrorBody,
        generate_examples=False,
        description="not_installed: format=html of a report with charts on a server without the "
        "charts extra (pip install 'tablelog[charts]')",
    ),
}


@attrs.frozen
class Health:
    ok: bool
    store: str


@attrs.frozen
class NewTable:
    system: str
    title: str = ""
    seed: int | None = None
    options: dict[str, str] = attrs.Factory(dict)


@attrs.frozen
class TableCreated:
    table_id: str
    system: str
    title: str
    gm_token: str
    url: str  # the GM seat's page link (its one-time link token)


@attrs.frozen
class TableRow:
    table_id: str
    system: str
    title: str
    seq: int


@attrs.frozen
class TableList:
    tables: list[TableRow]


@attrs.frozen
class NewSeat:
    name: str
    role: str
    characters: list[str] = attrs.Factory(list)
    confirm: bool = False  # a player seat for names that are no character of the table (yet)


@attrs.frozen
class SeatRow:
    name: str
    role: str
    characters: list[str]
    sessions: int  # browser sessions its link was exchanged for (SERVER.md §4)


@attrs.frozen
class SeatList:
    seats: list[SeatRow]


@attrs.frozen
class SeatCreated:
    name: str
    role: str
    characters: list[str]
    token: str
    url: str


@attrs.frozen
class Me:
    name: str
    role: str
    characters: list[str]


@attrs.frozen
class TableInfo:
    table_id: str
    system: str
    title: str
    seq: int
    me: Me
    seats: list[str]  # the names of the table's seats (a whisper's recipients), not revoked


@attrs.frozen
class CommandBody:
    command: str
    request_id: str | None = None
    dry_run: bool = False


@attrs.frozen
class CommandResult:
    seqs: list[int]
    events: list[dict[str, Any]]
    changes: list[dict[str, Any]]
    request_id: str | None
    stand_in_rolls: bool = False  # a player's preview: its dice are not the table's


@attrs.frozen
class Events:
    events: list[dict[str, Any]]


def create_app(  # noqa: C901 - every route is a closure over the app, each counted here
    tables: Tables, server_token: str, threads: int | None = None, discord: Any = None
) -> Litestar:
    """Return the ASGI app serving ``tables`` with ``server_token`` as the GM of all.

    Args:
        tables: The store's tables.
        server_token: The token that creates tables and is the GM of every table.
        threads: The threads that run requests (each waits on its table's store while it
            appends); ``$TABLELOG_SERVER_THREADS`` when None, default 16 (on a small machine
            more threads cost more in switching than they gain in appends at once).
        discord: A :class:`~tablelog.server.discord.route.DiscordConfig`: serve Discord's
            interactions at ``POST /discord/interactions`` (docs/DISCORD.md); None: not.
    """
    from concurrent.futures import ThreadPoolExecutor

    from litestar.concurrency import set_asyncio_executor

    follow_reader()  # click's own usage errors in each request's language
    count = threads or int(os.environ.get("TABLELOG_SERVER_THREADS", "16"))
    set_asyncio_executor(ThreadPoolExecutor(max_workers=count, thread_name_prefix="tablelog"))

    def who(request: Request[Any, Any, Any]) -> Credential:
        """The request's credential (401 without one, before anything is opened); a write
        made with a cookie must be the page's own (JSON, the server's Origin)."""
        found = credential(request, COOKIE_PREFIX)
        check_page_write(request, found)
        return found

    def is_server(found: Credential) -> bool:
        if found.kind == "server":
            return is_server_session(server_token, found.secret)
        return found.kind == "bearer" and hmac.compare_digest(
            found.secret.encode(), server_token.encode()
        )

    def seated(request: Request[Any, Any, Any], table_id: str) -> tuple[Table, Seat]:
        """The table and who asks. No token, or a token not good for the table, is 401 before
        anything else: an unknown table is 404 to the server token only, so ids cannot be
        probed without it (SERVER.md §4)."""
        found = who(request)
        if is_server(found):
            return tables.get(table_id), Seat("gm", "gm")
        try:
            table = tables.get(table_id)
        except Refusal as refusal:
            if refusal.status != 404:
                raise
            table = None
        kind = "token" if found.kind == "bearer" else "session"
        seat = None if table is None else table.seat_of(found.secret, kind=kind)
        if table is None or seat is None:
            told = msg("server.auth.unknown", "unknown token for this table")
            raise Refusal(401, "unauthorized", say(told))
        return table, seat

    def server_only(request: Request[Any, Any, Any], told: Msg) -> None:
        if not is_server(who(request)):
            raise Refusal(401, "unauthorized", say(told))

    def gm_seat(request: Request[Any, Any, Any], table_id: str) -> tuple[Table, Seat]:
        table, seat = seated(request, table_id)
        views.require_gm(seat)
        return table, seat

    def gm_only(request: Request[Any, Any, Any], table_id: str) -> Table:
        return gm_seat(request, table_id)[0]

    def page_url(request: Request[Any, Any, Any], table_id: str, link: str) -> str:
        return f"{str(request.base_url).rstrip('/')}/t/{table_id}?token={link}"

    @get("/api/health", sync_to_thread=False, responses=ERRORS)
    def health() -> Health:
        return Health(True, tables.kind)

    @post("/api/tables", sync_to_thread=True, responses=ERRORS)
    def create_table(request: Request[Any, Any, Any], data: NewTable) -> TableCreated:
        server_only(request, msg("server.auth.create", "creating a table needs the server token"))
        table = tables.create(data.system, data.title, data.seed, dict(data.options))
        gm_token, link = table.mint(), table.mint()  # the table's own GM seat, not the server's
        try:
            views.add_seat(table, "gm", "gm", [], gm_token, link)
        except BaseException:  # a table without its GM seat is no table: none is left behind
            tables.discard(table)
            raise
        url = page_url(request, table.table_id, link)
        return TableCreated(table.table_id, data.system, data.title, gm_token, url)

    @get("/api/tables", sync_to_thread=True, responses=ERRORS)
    def list_tables(request: Request[Any, Any, Any]) -> TableList:
        server_only(request, msg("server.auth.list", "listing tables needs the server token"))
        rows = []
        for table_id in tables.ids():
            try:
                state = tables.get(table_id).state()
            except Refusal:
                continue  # a table whose log cannot be used is left out of the list
            rows.append(TableRow(table_id, state.system, state.title, state.seq))
        return TableList(rows)

    @post("/api/tables/{table_id:str}/seats", sync_to_thread=True, responses=ERRORS)
    def add_seat(request: Request[Any, Any, Any], table_id: str, data: NewSeat) -> SeatCreated:
        """Add a seat; a player seat for a name that is no character of the table is 409
        ``confirm`` (naming them) unless the body says ``"confirm": true`` (SERVER.md §4)."""
        table = gm_only(request, table_id)
        if not data.confirm:
            views.check_characters(table, data.role, data.characters)
        token, link = table.mint(), table.mint()
        views.add_seat(table, data.name, data.role, data.characters, token, link)
        url = page_url(request, table_id, link)
        return SeatCreated(data.name, data.role, list(data.characters), token, url)

    @get("/api/tables/{table_id:str}/seats", sync_to_thread=True, responses=ERRORS)
    def list_seats(request: Request[Any, Any, Any], table_id: str) -> SeatList:
        """The table's seats (not revoked): name, role, characters and how many browser
        sessions each opened; the GM's alone. A link is never shown again (only its hash is
        kept): rotate it for a new one."""
        table = gm_only(request, table_id)
        return SeatList([SeatRow(**row) for row in views.seat_rows(table)])

    @post(
        "/api/tables/{table_id:str}/seats/{name:path}",
        sync_to_thread=True,
        status_code=201,
        responses=ERRORS,
    )
    def rotate_seat(request: Request[Any, Any, Any], table_id: str, name: str) -> SeatCreated:
        """Rotate the seat's link: a new token and a new page link; its old token, its old link
        and its browser sessions stop working at once (the seat keeps its name, role,
        characters and actions)."""
        table = gm_only(request, table_id)
        token, link = table.mint(), table.mint()
        seat = views.rotate_seat(table, _name(name), token, link)
        url = page_url(request, table_id, link)
        return SeatCreated(seat.name, seat.role, list(seat.characters), token, url)

    @delete(
        "/api/tables/{table_id:str}/seats/{name:path}",
        sync_to_thread=True,
        status_code=204,
        responses=ERRORS,
    )
    def revoke_seat(request: Request[Any, Any, Any], table_id: str, name: str) -> None:
        table, seat = gm_seat(request, table_id)
        if not is_server(who(request)) and seat.name == _name(name):
            told = msg(
                "server.seat.self_revoke",
                "seat {seat!r} cannot revoke itself (the table would lose its GM): another GM "
                "seat or the server token may revoke it",
                seat=seat.name,
            )
            raise Refusal(422, "rule", say(told), "CORE-SEAT", params={"seat": seat.name})
        views.revoke_seat(table, _name(name))

    @get("/api/tables/{table_id:str}", sync_to_thread=True, responses=ERRORS)
    def table_info(request: Request[Any, Any, Any], table_id: str) -> TableInfo:
        table, seat = seated(request, table_id)
        state = table.state()
        return TableInfo(
            table_id,
            state.system,
            state.title,
            state.seq,
            Me(seat.name, seat.role, list(seat.characters)),
            views.seat_names(table),
        )

    @get("/api/tables/{table_id:str}/state", sync_to_thread=True, responses=ERRORS)
    def state_of(
        request: Request[Any, Any, Any], table_id: str, at: int | None = None
    ) -> dict[str, Any]:
        table, seat = seated(request, table_id)
        return views.state(table, seat, at)

    @get("/api/tables/{table_id:str}/state/{name:path}", sync_to_thread=True, responses=ERRORS)
    def entity_of(request: Request[Any, Any, Any], table_id: str, name: str) -> dict[str, Any]:
        table, seat = seated(request, table_id)
        return views.entity(table, seat, _name(name))

    @get("/api/tables/{table_id:str}/log", sync_to_thread=True, responses=ERRORS)
    def log_of(
        request: Request[Any, Any, Any],
        table_id: str,
        after: int = Parameter(default=0, ge=0),
        all: bool = False,
        limit: int = Parameter(default=1000, ge=1, le=MAX_LOG_LIMIT),
    ) -> Events:  # noqa: A002 - the contract
        table, seat = seated(request, table_id)
        return Events(views.log(table, seat, after, all, limit))

    @get("/api/tables/{table_id:str}/history/{name:path}", sync_to_thread=True, responses=ERRORS)
    def history_of(
        request: Request[Any, Any, Any], table_id: str, name: str, all: bool = False
    ) -> list[Any]:  # noqa: A002 - as the log's
        table, seat = seated(request, table_id)
        return views.history(table, seat, _name(name), all)

    @get("/api/tables/{table_id:str}/report", sync_to_thread=True, responses=REPORT_ERRORS)
    def report_of(
        request: Request[Any, Any, Any],
        table_id: str,
        format: str = "html",  # noqa: A002 - the contract
        until: int | None = None,
        tz: str | None = None,
    ) -> Response[str]:
        """The session report in the request's language (``lang`` or ``Accept-Language``),
        its times in the time zone ``tz`` (an IANA name; none: UTC, as recorded)."""
        table, seat = seated(request, table_id)
        if format not in REPORT_TYPES:
            told = msg("server.usage.format", "format {format!r} is not html or md", format=format)
            raise Refusal(400, "usage", say(told), params={"format": format})
        text = views.report(table, seat, format, until, tz)
        return Response(text, media_type=REPORT_TYPES[format])  # litestar adds the charset

    @get("/api/tables/{table_id:str}/sheet", sync_to_thread=True, responses=ERRORS)
    def sheet_of(request: Request[Any, Any, Any], table_id: str) -> dict[str, Any]:
        """How the table's characters, units and items read: its system's sheet (gauges,
        figures, tables, word and card lists, badge, internal fields), every label in the
        request's language; ``techs``: the catalogue's techs by group (saga: weapon type)."""
        table, seat = seated(request, table_id)
        return sheets.sheet(table, seat)

    @get("/api/tables/{table_id:str}/ccfolia/{name:path}", sync_to_thread=True, responses=ERRORS)
    def ccfolia_of(request: Request[Any, Any, Any], table_id: str, name: str) -> dict[str, Any]:
        """A character as ccfolia's clipboard JSON (``{"kind": "character", "data": …}``),
        from its record as the seat sees it (a hand it may not see stays ``"?"``)."""
        table, seat = seated(request, table_id)
        return sheets.clipboard(table, seat, _name(name))

    @get(
        "/api/tables/{table_id:str}/ccfolia-log",
        sync_to_thread=True,
        responses=ERRORS,
        media_type="text/html",
    )
    def ccfolia_log_of(request: Request[Any, Any, Any], table_id: str) -> Response[str]:
        """The session as a ccfolia room log (HTML), every line as the seat reads it."""
        table, seat = seated(request, table_id)
        return Response(sheets.room_log(table, seat), media_type="text/html")

    @post("/api/tables/{table_id:str}/commands", sync_to_thread=True, responses=ERRORS)
    def command(
        request: Request[Any, Any, Any], table_id: str, data: CommandBody
    ) -> Response[CommandResult]:
        table, seat = seated(request, table_id)
        result, status = views.command(table, seat, data.command, data.request_id, data.dry_run)
        return Response(CommandResult(**result), status_code=status)

    @get("/api/tables/{table_id:str}/events", responses=ERRORS)
    async def events(
        request: Request[Any, Any, Any],
        table_id: str,
        after: int | None = Parameter(default=None, ge=0),
    ) -> ServerSentEvent:
        table, seat = await sync_to_thread(seated, request, table_id)
        await sync_to_thread(table.state)  # a table that cannot be served: 503 before streaming
        start = after
        last_id = request.headers.get("last-event-id")
        if last_id is not None and last_id.strip().isdigit():
            start = int(last_id.strip())
        tables.watch(table)  # other processes' appends wake the stream
        found = who(request)
        kind = "token" if found.kind == "bearer" else "session"

        def still() -> bool:
            """Whether the stream's secret is still good (a revoked seat's stream ends, and a
            rotated one's)."""
            return is_server(found) or table.seat_of(found.secret, False, kind) is not None

        return ServerSentEvent(_stream(table, seat, start or 0, still))

    @get("/openapi.json", sync_to_thread=False, include_in_schema=False)
    def openapi(request: Request[Any, Any, Any]) -> dict[str, Any]:
        schema = request.app.openapi_schema.to_schema()
        schema["paths"] = {p: v for p, v in schema["paths"].items() if p.startswith("/api")}
        report = schema["paths"].get("/api/tables/{table_id}/report", {}).get("get")
        if report is not None:  # one route, two kinds of text (format=html|md)
            report["responses"]["200"]["content"] = {
                kind: {"schema": {"type": "string"}} for kind in REPORT_TYPES.values()
            }
        return schema

    others: list[Any] = []
    if discord is not None:
        from tablelog.server.discord.route import discord_routes

        others = discord_routes(tables, discord, lambda t: is_server(Credential("bearer", t)))
    return Litestar(
        route_handlers=[
            health,
            create_table,
            list_tables,
            add_seat,
            list_seats,
            revoke_seat,
            rotate_seat,
            table_info,
            state_of,
            entity_of,
            log_of,
            history_of,
            report_of,
            sheet_of,
            ccfolia_of,
            ccfolia_log_of,
            command,
            events,
            openapi,
            *web_routes(Links(tables, server_token, is_server)),
            *others,
        ],
        exception_handlers=errors.handlers(),
        openapi_config=OpenAPIConfig(title="tablelog", version="1", path="/schema"),
        request_max_body_size=MAX_BODY_BYTES,
        on_shutdown=[tables.close],  # the watcher's thread and the store's connections
        middleware=[Speaking],  # the request's language: the reader of all it runs
        debug=False,
    )


async def _stream(
    table: Table, who: Seat, after: int, seated: Callable[[], bool]
) -> AsyncIterator[Any]:
    """Yield every record after ``after`` in seq order, each once, then new ones as they come;
    a keep-alive comment at least every 15 s. The stream ends when ``seated()`` turns False
    (the seat was revoked, here or by another process: checked on the state each delivery
    has just caught up with, so no record after the revoke reaches it), and when the store
    was found to have lost or changed its tail (``table.reloads``: what it sent may be no
    record now)."""
    from litestar.response.sse import ServerSentEventMessage

    def deliverable(after: int) -> list[tuple[int, str | None]] | None:
        """The lines after ``after`` (JSON texts), or None once the seat is revoked (checked
        after the lines: on the state they caught up with). One thread hop per delivery."""
        lines = views.stream_texts(table, who, after)
        return lines if seated() else None

    seen = after
    idle = 0.0
    reloads = table.reloads
    while not STOPPING.is_set():
        try:
            lines = await sync_to_thread(deliverable, seen)
        except Refusal:
            return  # the table became unusable: the stream ends (a reconnect gets the 503)
        if lines is None or table.reloads != reloads:
            return  # revoked: the token stops working at once (SERVER.md §4); or reloaded
        for seq, text in lines:
            if text is not None:  # None: a record the seat does not read (a whisper to others)
                yield ServerSentEventMessage(data=text, event="record", id=str(seq))
            seen = seq
        if lines:
            idle = 0.0
            continue
        await table.wait(seen, 0.5)
        idle += 0.5
        if idle >= KEEPALIVE_S - 1:
            idle = 0.0
            yield ServerSentEventMessage(comment="keep-alive")


def _name(path: str) -> str:
    """Return the name a ``{name:path}`` parameter holds: the rest of the path, a ``/`` in the
    name included (``Jack%2FJill`` arrives decoded), without the leading ``/`` Litestar keeps."""
    return path[1:] if path.startswith("/") else path
