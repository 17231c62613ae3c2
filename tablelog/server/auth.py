"""Who a request is: its credential (a bearer token or the page's cookie), and the checks a
request made with the page's cookie passes before it may write (SERVER.md §4).

Three kinds of secret open a table (docs/SERVER.md, *Seats, roles and tokens*):

- a **token** (``Authorization: Bearer TOKEN``): the server token, or a seat's token, good until
  the seat is revoked or its link rotated;
- a seat's **link** (``/t/ID?token=LINK``): good once, exchanged for a session
  (:mod:`tablelog.web`);
- a **session** (the page's HttpOnly, SameSite=Strict cookie ``tl_<table id>``): a browser's,
  made when it exchanged the link; the server's page has its own (``tl_server``), a MAC under
  the server token, so that cookie never holds the server token itself.

A cookie is sent by the browser with any request to the server, from whatever page made it, so
a write authenticated by a cookie must come from the server's own page: ``Content-Type:
application/json`` (which no form and no plain cross-site request can send without the
browser asking the server first, and it answers no such question) and an ``Origin`` that is the
server's own (a page on another port of the host, or on a sibling subdomain, is same-site for
the cookie but not same-origin).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from typing import Any

import attrs
from litestar import Request

from tablelog.lang import say
from tablelog.server.tables import Refusal
from tablelog.text import msg

__all__ = [
    "Credential",
    "credential",
    "check_page_write",
    "own_origins",
    "server_session",
    "is_server_session",
    "SAFE_METHODS",
]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SESSION_PREFIX = "s1."  # a server page's session: s1.NONCE.MAC


@attrs.frozen
class Credential:
    """A request's secret: ``kind`` ``"bearer"`` (a token in the Authorization header),
    ``"session"`` (a table page's cookie) or ``"server"`` (the server page's cookie)."""

    kind: str
    secret: str


def credential(request: Request[Any, Any, Any], cookie_name: str) -> Credential:
    """Return the request's credential: the bearer token, else the table page's cookie, else
    the server page's cookie.

    Raises:
        Refusal: 401 when the request has none (before anything is opened or read).
    """
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return Credential("bearer", token.strip())
    table_id = request.path_params.get("table_id")
    if table_id is not None:
        cookie = request.cookies.get(f"{cookie_name}{table_id}")
        if cookie:
            return Credential("session", cookie)
    cookie = request.cookies.get(f"{cookie_name}server")
    if cookie:
        return Credential("server", cookie)
    raise Refusal(
        401,
        "unauthorized",
        say(msg("server.auth.none", "send Authorization: Bearer TOKEN")),
    )


def own_origins(request: Request[Any, Any, Any]) -> set[str]:
    """Return the origins that are the server's own for ``request``: its scheme (as the
    reverse proxy's ``X-Forwarded-Proto`` says, else the connection's) and its ``Host``, and
    every origin ``$TABLELOG_SERVER_ORIGIN`` lists (comma-separated: the address players
    open, when a proxy rewrites the host)."""
    scheme = request.headers.get("x-forwarded-proto", "").split(",")[0].strip()
    scheme = scheme or request.url.scheme
    host = request.headers.get("host", "")
    found = {_normal(f"{scheme}://{host}")} if host else set()
    listed = os.environ.get("TABLELOG_SERVER_ORIGIN", "")
    found |= {_normal(o.strip()) for o in listed.split(",") if o.strip()}
    return found


def _normal(origin: str) -> str:
    """An origin in lower case without its scheme's default port (``https://x:443`` is
    ``https://x``)."""
    origin = origin.lower().rstrip("/")
    for scheme, port in (("http://", ":80"), ("https://", ":443")):
        if origin.startswith(scheme) and origin.endswith(port):
            return origin[: -len(port)]
    return origin


def check_origin(request: Request[Any, Any, Any]) -> None:
    """Refuse a request whose ``Origin`` is missing or not the server's own.

    Raises:
        Refusal: 403 forbidden naming the origin.
    """
    origin = request.headers.get("origin")
    if origin is None or _normal(origin) not in own_origins(request):
        raise Refusal(
            403,
            "forbidden",
            say(
                msg(
                    "server.auth.origin",
                    "a write with the page's cookie comes from the server's own page, not from "
                    "{origin} (send Authorization: Bearer TOKEN from anywhere else)",
                    origin=origin or msg("server.auth.no_origin", "a page that names none"),
                )
            ),
            params={"origin": origin},
        )


def check_page_write(request: Request[Any, Any, Any], found: Credential) -> None:
    """Refuse a write (any method but GET, HEAD, OPTIONS) made with a cookie unless it is
    ``application/json`` from the server's own ``Origin``.

    Raises:
        Refusal: 415 usage for another content type, 403 forbidden for another origin.
    """
    if found.kind == "bearer" or request.method.upper() in SAFE_METHODS:
        return
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refusal(
            415,
            "usage",
            say(
                msg(
                    "server.auth.json",
                    "a write with the page's cookie is application/json, not {kind}",
                    kind=kind or msg("server.auth.no_type", "a body of no content type"),
                )
            ),
            params={"content_type": kind or None},
        )
    check_origin(request)


def server_session(server_token: str) -> str:
    """Return a new session secret of the server's page (``s1.NONCE.MAC``, the MAC keyed with
    the server token: good on every process that shares the token, never the token itself)."""
    nonce = secrets.token_urlsafe(18)
    return f"{SESSION_PREFIX}{nonce}.{_mac(server_token, nonce)}"


def is_server_session(server_token: str, secret: str) -> bool:
    """Whether ``secret`` is a session of the server's page made under ``server_token``."""
    if not secret.startswith(SESSION_PREFIX):
        return False
    nonce, _, mac = secret[len(SESSION_PREFIX) :].partition(".")
    return bool(nonce) and hmac.compare_digest(mac.encode(), _mac(server_token, nonce).encode())


def _mac(key: str, nonce: str) -> str:
    made = hmac.new(key.encode(), b"tablelog server session\0" + nonce.encode(), hashlib.sha256)
    return made.hexdigest()
