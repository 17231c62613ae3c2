"""``tablelog serve``: the table server (SERVER.md §4; docs/SERVER.md)."""

from __future__ import annotations

import json
import os
import secrets
from typing import Any

import click

from tablelog.cli.core import CliError, command_line_only
from tablelog.text import msg

__all__ = ["COMMANDS"]


@click.command()
@click.option(
    "--store",
    metavar="URL",
    envvar="TABLELOG_STORE",
    default="file:./tables",
    show_default=True,
    help="Where the tables live: file:DIR or postgresql://… (default $TABLELOG_STORE).",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on.",
)
@click.option(
    "--discord-public-key",
    metavar="HEX",
    envvar="TABLELOG_DISCORD_PUBLIC_KEY",
    help="Serve Discord's interactions at /discord/interactions, checked with this "
    "application's public key (default $TABLELOG_DISCORD_PUBLIC_KEY; docs/DISCORD.md).",
)
@click.option(
    "--discord-data",
    metavar="DIR",
    envvar="TABLELOG_DISCORD_DATA",
    help="Where Discord's bindings of channels and users are kept (default: the file store's "
    "folder; needed on PostgreSQL).",
)
@click.pass_context
def serve(
    ctx: click.Context,
    store: str,
    host: str,
    port: int,
    discord_public_key: str | None,
    discord_data: str | None,
) -> None:
    """Serve the tables over HTTP: the API of every seat and the web page.

    The store is file:DIR or a PostgreSQL URL; several processes may serve one PostgreSQL
    store. The server token is $TABLELOG_SERVER_TOKEN, else a fresh one printed once; it
    creates tables and acts as the GM of every table. Example: tablelog serve --store
    postgresql://localhost/club --port 8801
    """
    command_line_only(ctx)
    # Without the server extra: one line naming it (tablelog.cli.extras), exit 3.
    import uvicorn

    from tablelog.rules.core import escape_text
    from tablelog.server.app import create_app
    from tablelog.server.tables import Refusal, Tables
    from tablelog.store.log import LogError, lock_timeout_s

    try:
        lock_timeout_s()
    except LogError as exc:
        raise CliError(exc.msg, 3) from None
    protocol = _deadline_protocol()  # a bad $TABLELOG_SERVER_REQUEST_TIMEOUT_S: exit 2 now
    try:
        tables = Tables(store)
    except LogError as exc:
        raise CliError(
            msg("server.store_option", "--store: {message}", message=exc.msg), 2
        ) from None
    discord = _discord(tables, discord_public_key, discord_data)  # a usage error: exit 2 now
    try:  # a wrong password or database: one line now, not a 503 on every request later
        tables.ids()
    except Refusal as refusal:
        raise CliError(refusal.message, 3) from None
    token = os.environ.get("TABLELOG_SERVER_TOKEN") or secrets.token_urlsafe(24)
    if not os.environ.get("TABLELOG_SERVER_TOKEN"):
        click.echo(f"server token (shown once): {token}")
    app = create_app(tables, token, discord=discord)
    click.echo(
        f"serving {escape_text(tables.catalog.where)} at http://{host}:{port}/ (API "
        "under /api, Ctrl-C stops)"
    )
    _Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=5,
            http=protocol,
        )
    ).run()


def _discord(tables: Any, key: str | None, data: str | None) -> Any:
    """The Discord endpoint's configuration, or None without a public key.

    Raises:
        CliError: exit 2 for a key that is not an Ed25519 public key, or no data directory.
    """
    if not key:
        return None
    from tablelog.server.discord.route import DiscordConfig
    from tablelog.server.discord.signature import public_key

    try:
        public_key(key)
    except ValueError:
        raise CliError(
            "--discord-public-key: not an Ed25519 public key (64 hex digits)", 2
        ) from None
    folder = data or tables.catalog.folder
    if not folder:
        raise CliError("--discord-data DIR: where to keep Discord's bindings (on PostgreSQL)", 2)
    return DiscordConfig(key.strip(), folder, os.environ.get("TABLELOG_DISCORD_BOT_TOKEN") or None)


REQUEST_TIMEOUT_S = 10.0
"""A request's headers and body arrive within this many seconds of the connection (or of the
previous answer on a kept-alive one), else the connection is closed with 408
(``$TABLELOG_SERVER_REQUEST_TIMEOUT_S``): a client that sends a byte a second holds no
connection for ever."""


def request_timeout_s() -> float:
    """``$TABLELOG_SERVER_REQUEST_TIMEOUT_S`` (default 10 s), a number of seconds above 0."""
    text = os.environ.get("TABLELOG_SERVER_REQUEST_TIMEOUT_S", "")
    try:
        value = float(text) if text else REQUEST_TIMEOUT_S
    except ValueError:
        value = 0.0
    if not 0 < value < 86_400:
        raise CliError(
            f"$TABLELOG_SERVER_REQUEST_TIMEOUT_S={text!r} is not a number of seconds above 0", 2
        )
    return value


def _deadline_protocol() -> Any:  # noqa: C901 - each way a command can end before its deadline
    """uvicorn's httptools protocol with a deadline on each request (:data:`REQUEST_TIMEOUT_S`),
    or ``"auto"`` when httptools is missing (then uvicorn's own h11, without one)."""
    timeout = request_timeout_s()
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - the server extra installs httptools
        return "auto"

    class Deadline(HttpToolsProtocol):
        """A connection whose next request must arrive whole within the timeout."""

        _deadline: Any = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.write(_TIMED_OUT)
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return Deadline


_TIMED_OUT_BODY = json.dumps(
    {
        "error": {
            "code": "timeout",
            "rule": None,
            "message": "the request did not arrive in time",
            "params": {},
            "suggestions": [],
        }
    }
).encode()
_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
    + f"content-length: {len(_TIMED_OUT_BODY)}\r\n\r\n".encode()
    + _TIMED_OUT_BODY
)


def _server_class() -> type:
    import uvicorn

    from tablelog.server.app import STOPPING

    class Server(uvicorn.Server):
        """uvicorn's server, telling the event streams to end when asked to stop (so a
        graceful shutdown does not wait on them)."""

        def handle_exit(self, sig: int, frame: object) -> None:
            STOPPING.set()
            super().handle_exit(sig, frame)  # type: ignore[arg-type]

    return Server


def _Server(config: object) -> Any:  # noqa: N802 - a class made on first use
    return _server_class()(config)


COMMANDS = [serve]
