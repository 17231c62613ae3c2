"""The web page of a table (SERVER.md §5): server-rendered shells, a little JavaScript, static files
shipped in the package (no CDN, no build step). The page reads the same ``/api`` as any client.

- ``GET /`` — for the server token: the tables, a form to create one, a form to add seats that
  shows each seat's link.
- ``GET /i18n/{lang}`` — the page's own words in ``lang`` (``ja``, ``ko``, ``en``): the
  catalogue's entries of context ``web.*`` as JSON (``{"lang", "messages": {"CONTEXT\u0004ENGLISH":
  text or [plural forms]}}``), what the scripts' ``t()`` reads (tablelog/web/static/common.js).
  The scripts write every sentence a person reads as ``t("web.<id>", "English text", {values})``;
  ``make catalogues`` extracts them (Babel's JavaScript extractor, babel.cfg).
- ``GET /t/{table_id}`` — the table as the seat sees it, live. ``?token=`` (a seat's one-time
  link) is exchanged once for a browser session: the cookie holds the session's secret, and
  the browser goes to the bare address, so the link leaves the address bar and is used up. A
  browser that is another seat of the table is asked first (``POST /t/{table_id}/link``), as is
  anything that is not a person's navigation (a chat app's link preview). A link that opens
  nothing (wrong, used, rotated, revoked) sets nothing: the browser keeps the seat it had, and
  the answer (401) says the link is not valid.

Vendored: uPlot 1.6.32 (MIT, ``static/vendor/uplot-1.6.32``, the npm package whole and unmodified)
draws the HP / MP / LP chart. axe-core 4.14.1 (MPL-2.0, ``static/vendor/axe-core-4.14.1``: the npm
package's ``axe.min.js``, ``LICENSE``, ``LICENSE-3RD-PARTY.txt`` and ``package.json``, unmodified)
is there for the browser tests only: they inject it (tests/support/browser.py); the page never
loads it and the wheel leaves it out (pyproject.toml).
"""

from __future__ import annotations

import functools
import html
import os
from typing import Any, Protocol

from litestar import MediaType, Request, Response, get, post
from litestar.response import Redirect
from litestar.static_files import create_static_files_router

from tablelog.lang import LANGUAGES, reader, say
from tablelog.text import Msg, msg

__all__ = ["COOKIE_PREFIX", "Pages", "cookie_name", "web_routes", "STATIC", "page_words"]

STATIC = os.path.join(os.path.dirname(__file__), "static")
UPLOT = "/static/vendor/uplot-1.6.32/dist"


COOKIE_PREFIX = "tl_"
COOKIE_MAX_AGE_S = 60 * 60 * 24 * 365


def cookie_name(table_id: str | None) -> str:
    """Return the cookie holding a table's browser session (``None``: the server page's)."""
    return f"{COOKIE_PREFIX}{table_id}" if table_id else f"{COOKIE_PREFIX}server"


# The theme is chosen before the first paint (no flash of the other one): the seat's choice
# kept in localStorage, else the system's (prefers-color-scheme, in the stylesheet).
_THEME = (
    "<script>try{const t=localStorage.getItem('tl:theme');"
    "if(t)document.documentElement.dataset.theme=t}catch(e){}</script>"
)


def _page(title: str, body: str, scripts: list[str], styles: list[str]) -> str:
    links = "".join(f'<link rel="stylesheet" href="{s}">' for s in styles)
    tags = "".join(f'<script src="{s}" defer></script>' for s in scripts)
    return (
        f'<!doctype html><html lang="{reader().lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer">'
        f'<meta name="color-scheme" content="light dark">'
        f'<title>{html.escape(title)}</title>{_THEME}<link rel="icon" href="data:,">{links}'
        f'<link rel="stylesheet" href="/static/tablelog.css">{tags}</head>'
        f"<body>{body}</body></html>"
    )


def _said(message: Msg, **strong: str) -> str:
    """``message`` as HTML: its text escaped, each value named in ``strong`` (by the field it
    fills) in ``<strong id=FIELD>`` (the names the page shows are data: escaped too)."""
    marks = {key: f"\x00{key}\x00" for key in strong}
    text = html.escape(say(Msg(message.id, message.text, {**message.params, **marks})))
    for key, value in strong.items():
        text = text.replace(
            html.escape(marks[key]), f'<strong id="{key}">{html.escape(value)}</strong>'
        )
    return text


def _no_script() -> str:
    told = say(msg("web.noscript", "This page needs JavaScript."))
    return f"<noscript>{html.escape(told)}</noscript>"


def _html(title: str, body: str, status: int = 200) -> Response[Any]:
    main = f'<header><h1>tablelog</h1></header><main id="app">{body}</main>'
    return Response(
        _page(title, main, [], []),
        media_type=MediaType.HTML,
        status_code=status,
        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
    )


def _not_valid(table_id: str | None, target: str) -> Response[Any]:
    """The 401 page of a link that opens nothing: the cookie is left as it was."""
    told = (
        msg(
            "web.link.not_valid_server",
            "This link is not valid (a wrong, used or old token): this page needs the server "
            "token (the one `tablelog serve` printed). If this browser had the server token, "
            "it still has it:",
        )
        if table_id is None
        else msg(
            "web.link.not_valid_seat",
            "This link is not valid (a wrong, used or old token): this page needs the seat's "
            "link: ask the GM for it (a link opens the table once). If this browser had a seat "
            "here, it still has it:",
        )
    )
    body = (
        f'<p role="alert">{html.escape(say(told))} '
        f'<a href="{html.escape(target)}">{html.escape(say(msg("web.link.open_it", "open it")))}'
        "</a>.</p>"
    )
    return _html(say(msg("web.link.not_valid_title", "tablelog — link not valid")), body, 401)


def _with_cookie(name: str, secret: str, target: str) -> Response[Any]:
    """Send the browser to ``target`` with the session cookie ``name`` set to ``secret``."""
    response = Redirect(path=target, status_code=303)
    response.set_cookie(
        name, secret, httponly=True, samesite="strict", path="/", max_age=COOKIE_MAX_AGE_S
    )
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _navigated(request: Request[Any, Any, Any]) -> bool:
    """Whether a person's browser opened the address (``Sec-Fetch-Dest: document``): a chat
    app that fetches a link to preview it does not, and must not use the link up."""
    return request.headers.get("sec-fetch-dest", "").lower() == "document"


class Pages(Protocol):
    """What the page routes need of the server (:class:`tablelog.server.links.Links`)."""

    def seat(self, table_id: str, secret: str | None, kind: str) -> Any:
        """The seat a ``"link"`` or a ``"session"`` secret opens at the table, or None."""

    def exchange(self, table_id: str, link: str) -> str | None:
        """Use the link up: the new session's secret, or None when the link opens nothing."""

    def server_session(self, token: str) -> str | None:
        """A new session of the server's page for the server token, or None for another."""

    def check_origin(self, request: Request[Any, Any, Any]) -> None:
        """Refuse (403) a request whose ``Origin`` is not the server's own."""


def _exchanged(pages: Pages, table_id: str, link: str) -> Response[Any]:
    """Use the link up for a new browser session of its seat: the cookie, and the bare
    address (a link another browser used first is not valid)."""
    session = pages.exchange(table_id, link)
    if session is None:
        return _not_valid(table_id, f"/t/{table_id}")
    return _with_cookie(cookie_name(table_id), session, f"/t/{table_id}")


def _ask(table_id: str, link: str, now: Any, then: Any) -> Response[Any]:
    """The page a link of another seat gets in a browser that is a seat of the table: it
    says which seat the browser is and which the link opens, and changes only on a click."""
    target = html.escape(f"/t/{table_id}")
    action = html.escape(f"/t/{table_id}/link")
    if now is None:
        opens = msg(
            "web.link.opens",
            "This link opens the table as {seat} ({role}).",
            role=then.role,
        )
        said = f"<p>{_said(opens, seat=then.name)}</p>".replace(' id="seat"', "")
        stay = ""
    else:
        other = msg(
            "web.link.other_seat",
            "This browser is {seat_now} ({role_now}) at this table. The link you opened is "
            "{seat_link}'s ({role_link}). Opening it makes this browser {name} here (the link "
            "works once).",
            role_now=now.role,
            role_link=then.role,
            name=then.name,
        )
        said = (
            f'<p role="alert">{_said(other, seat_now=now.name, seat_link=then.name)}</p>'.replace(
                'id="seat_now"', 'id="seat-now"'
            ).replace('id="seat_link"', 'id="seat-link"')
        )
        stay_text = say(msg("web.link.stay", "Stay {seat}", seat=now.name))
        stay = f' <a id="stay" href="{target}">{html.escape(stay_text)}</a>'
    open_as = say(msg("web.link.open_as", "Open as {seat}", seat=then.name))
    body = (
        f'{said}<form method="post" action="{action}">'
        f'<input type="hidden" name="token" value="{html.escape(link)}">'
        f'<button id="open-as" type="submit">{html.escape(open_as)}</button>'
        f"</form>{stay}"
    )
    return _html(say(msg("web.link.title", "tablelog — open the table")), body)


def web_routes(pages: Pages) -> list[Any]:  # noqa: C901 - every page route is a closure over the app, each counted here
    """Return the page routes and the static files router.

    Args:
        pages: The server's side of the pages (:class:`Pages`).
    """

    @get("/", include_in_schema=False, sync_to_thread=True)
    def index(request: Request[Any, Any, Any]) -> Response[Any]:
        token = request.query_params.get("token")
        if token:
            session = pages.server_session(token)
            if session is None:
                return _not_valid(None, "/")
            return _with_cookie(cookie_name(None), session, "/")
        from tablelog.systems import REGISTRY  # the "new table" choices: the registry's

        body = (
            '<header><h1>tablelog</h1></header><main id="app" class="index" '
            f'data-systems="{html.escape(" ".join(REGISTRY))}">{_no_script()}</main>'
        )
        scripts = ["/static/common.js", "/static/index.js"]
        title = say(msg("web.index.title", "tablelog — tables"))
        return Response(_page(title, body, scripts, []), media_type=MediaType.HTML)

    @get("/i18n/{lang:str}", include_in_schema=False, sync_to_thread=False)
    def words_of(lang: str) -> Response[Any]:
        """The page's own words in ``lang`` (the catalogue's ``web.*`` entries)."""
        chosen = lang.removesuffix(".json")
        if chosen not in LANGUAGES:
            chosen = "en"
        return Response(
            {"lang": chosen, "messages": page_words(chosen)},
            headers={"Cache-Control": "public, max-age=300"},
        )

    @get("/t/{table_id:str}", include_in_schema=False, sync_to_thread=True)
    def table_page(request: Request[Any, Any, Any], table_id: str) -> Response[Any]:
        link = request.query_params.get("token")
        if link:
            return _link(request, table_id, link)
        safe = html.escape(table_id)
        body = f'<main id="app" data-table="{safe}">{_no_script()}</main>'
        scripts = [
            f"{UPLOT}/uPlot.iife.min.js",
            "/static/common.js",
            "/static/cards.js",
            "/static/chart.js",
            "/static/suggest.js",
            "/static/actions.js",
            "/static/log.js",
            "/static/seats.js",
            "/static/table.js",
        ]
        return Response(
            _page(f"tablelog — {table_id}", body, scripts, [f"{UPLOT}/uPlot.min.css"]),
            media_type=MediaType.HTML,
        )

    def _link(request: Request[Any, Any, Any], table_id: str, link: str) -> Response[Any]:
        """``/t/ID?token=LINK``: a person's browser that is no other seat here exchanges the
        link at once; a browser that is another seat here is asked first, as is anything that
        is not a person's navigation (a link preview): the link is used only by a click."""
        then = pages.seat(table_id, link, "link")
        if then is None:
            return _not_valid(table_id, f"/t/{table_id}")
        now = pages.seat(table_id, request.cookies.get(cookie_name(table_id)), "session")
        if (now is not None and now.name != then.name) or not _navigated(request):
            return _ask(table_id, link, now, then)
        return _exchanged(pages, table_id, link)

    @post("/t/{table_id:str}/link", include_in_schema=False)  # async: no thread to choose
    async def use_link(request: Request[Any, Any, Any], table_id: str) -> Response[Any]:
        """The click on *Open as …*: the link (a form's ``token``) from the server's own page."""
        from litestar.concurrency import sync_to_thread

        pages.check_origin(request)
        form = await request.form()
        link = str(form.get("token") or "")
        if not link:
            return _not_valid(table_id, f"/t/{table_id}")
        return await sync_to_thread(_exchanged, pages, table_id, link)

    static = create_static_files_router(
        path="/static", directories=[STATIC], include_in_schema=False
    )
    return [index, words_of, table_page, use_link, static]


@functools.cache
def page_words(lang: str) -> dict[str, Any]:
    """The catalogue's ``web.*`` entries in ``lang``: ``"CONTEXT\u0004ENGLISH"`` -> the
    translation (a plural entry: its forms, a list); {} for English (the templates' own)."""
    from tablelog.lang.catalog import translations

    catalogue = getattr(translations(lang), "_catalog", {})
    found: dict[str, Any] = {}
    for key, text in catalogue.items():
        if isinstance(key, tuple):  # a plural form: (CONTEXT\x04SINGULAR, index)
            whole, index = key
            if isinstance(whole, str) and whole.startswith("web.") and text:
                forms = found.setdefault(whole, [])
                if isinstance(forms, list):
                    forms.extend([""] * (index + 1 - len(forms)))
                    forms[index] = text
        elif isinstance(key, str) and key.startswith("web.") and text:
            found[key] = text
    return found
