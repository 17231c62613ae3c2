"""``tablelog serve``: the table server (SERVER.md §4; docs/SERVER.md)."""

from __future__ import annotations

import os
import secrets
from typing import Any

import click

from tablelog.cli.core import CliError, command_line_only

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
@click.pass_context
def serve(ctx: click.Context, store: str, host: str, port: int) -> None:
    """Serve the tables over HTTP: the API of every seat and the web page.

    The store is file:DIR or a PostgreSQL URL; several processes may serve one PostgreSQL
    store. The server token is $TABLELOG_SERVER_TOKEN, else a fresh one printed once; it
    creates tables and acts as the GM of every table. Example: tablelog serve --store
    postgresql://localhost/club --port 8801
    """
    command_line_only(ctx)
    try:
        import uvicorn

        from tablelog.server.app import create_app
        from tablelog.server.tables import Refusal, Tables
    except ModuleNotFoundError as exc:
        raise CliError(f"the server needs {exc.name}: pip install 'tablelog[server]'", 3) from None
    from tablelog.rules.core import escape_text
    from tablelog.store.log import LogError, lock_timeout_s

    try:
        lock_timeout_s()
    except LogError as exc:
        raise CliError(str(exc), 3) from None
    try:
        tables = Tables(store)
    except LogError as exc:
        raise CliError(f"--store: {exc}", 2) from None
    try:  # a wrong password or database: one line now, not a 503 on every request later
        tables.ids()
    except Refusal as refusal:
        raise CliError(refusal.message, 3) from None
    token = os.environ.get("TABLELOG_SERVER_TOKEN") or secrets.token_urlsafe(24)
    if not os.environ.get("TABLELOG_SERVER_TOKEN"):
        click.echo(f"server token (shown once): {token}")
    app = create_app(tables, token)
    click.echo(
        f"serving {escape_text(tables.catalog.where)} at http://{host}:{port}/ (API "
        "under /api, Ctrl-C stops)"
    )
    _Server(
        uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
    ).run()


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
