"""The web page of a table (SERVER.md §5): server-rendered shells, a little JavaScript, static files
shipped in the package (no CDN, no build step). The page reads the same ``/api`` as any client.

- ``GET /`` — for the server token: the tables, a form to create one, a form to add seats that
  shows each seat's link.
- ``GET /t/{table_id}`` — the table as the seat sees it, live. ``?token=`` (a seat's link) sets
  the seat's cookie once and redirects to the bare address, so the token leaves the address bar.
  A token that does not open the page (a wrong or revoked link) sets nothing: the browser keeps
  the seat it had, and the answer (401) says the link is not valid.

Vendored: uPlot 1.6.32 (MIT, ``static/vendor/uplot-1.6.32``, the npm package whole and unmodified)
draws the HP / MP / LP chart.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from typing import Any

from litestar import MediaType, Request, Response, get
from litestar.response import Redirect
from litestar.static_files import create_static_files_router

__all__ = ["cookie_name", "web_routes", "STATIC"]

STATIC = os.path.join(os.path.dirname(__file__), "static")
UPLOT = "/static/vendor/uplot-1.6.32/dist"


def cookie_name(table_id: str | None) -> str:
    """Return the cookie holding a table's seat token (``None``: the server token's)."""
    return f"tl_{table_id}" if table_id else "tl_server"


def _page(title: str, body: str, scripts: list[str], styles: list[str]) -> str:
    links = "".join(f'<link rel="stylesheet" href="{s}">' for s in styles)
    tags = "".join(f'<script src="{s}" defer></script>' for s in scripts)
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel="icon" href="data:,">{links}'
        f'<link rel="stylesheet" href="/static/tablelog.css">{tags}</head>'
        f"<body>{body}</body></html>"
    )


Opens = Callable[[str | None, str], bool]


def _with_cookie(
    request: Request[Any, Any, Any], table_id: str | None, target: str, opens: Opens
) -> Response[Any]:
    """Set the token cookie from ``?token=`` and send the browser to ``target`` without it; a
    token that does not open the page: a 401 page saying so, and the cookie left as it was."""
    token = request.query_params.get("token", "")
    if not opens(table_id, token):
        need, kept = (
            ("the server token (the one `tablelog serve` printed)", "the server token")
            if table_id is None
            else ("the seat's link: ask the GM for it", "a seat here")
        )
        body = (
            '<header><h1>tablelog</h1></header><main id="app"><p role="alert">This link is not '
            f"valid (a wrong or old token): this page needs {html.escape(need)}. If this "
            f'browser had {kept}, it still has it: <a href="{html.escape(target)}">open it</a>.'
            "</p></main>"
        )
        return Response(
            _page("tablelog — link not valid", body, [], []),
            media_type=MediaType.HTML,
            status_code=401,
        )
    response = Redirect(path=target)
    response.set_cookie(
        cookie_name(table_id),
        token,
        httponly=True,
        samesite="strict",
        path="/",
        max_age=60 * 60 * 24 * 365,
    )
    return response


def web_routes(opens: Opens) -> list[Any]:
    """Return the page routes and the static files router.

    Args:
        opens: Whether a token opens a table's page (``(table_id, token)``; table_id None: the
            server's page); a ``?token=`` link that does not sets no cookie.
    """

    @get("/", include_in_schema=False, sync_to_thread=True)
    def index(request: Request[Any, Any, Any]) -> Response[Any]:
        if request.query_params.get("token"):
            return _with_cookie(request, None, "/", opens)
        from tablelog.systems import REGISTRY  # the "new table" choices: the registry's

        body = (
            '<header><h1>tablelog</h1></header><main id="app" class="index" '
            f'data-systems="{html.escape(" ".join(REGISTRY))}">'
            "<noscript>This page needs JavaScript.</noscript></main>"
        )
        scripts = ["/static/common.js", "/static/index.js"]
        return Response(_page("tablelog — tables", body, scripts, []), media_type=MediaType.HTML)

    @get("/t/{table_id:str}", include_in_schema=False, sync_to_thread=True)
    def table_page(request: Request[Any, Any, Any], table_id: str) -> Response[Any]:
        if request.query_params.get("token"):
            return _with_cookie(request, table_id, f"/t/{table_id}", opens)
        safe = html.escape(table_id)
        body = (
            f'<main id="app" data-table="{safe}">'
            "<noscript>This page needs JavaScript.</noscript></main>"
        )
        scripts = [
            f"{UPLOT}/uPlot.iife.min.js",
            "/static/common.js",
            "/static/cards.js",
            "/static/chart.js",
            "/static/suggest.js",
            "/static/table.js",
        ]
        return Response(
            _page(f"tablelog — {table_id}", body, scripts, [f"{UPLOT}/uPlot.min.css"]),
            media_type=MediaType.HTML,
        )

    static = create_static_files_router(
        path="/static", directories=[STATIC], include_in_schema=False
    )
    return [index, table_page, static]
