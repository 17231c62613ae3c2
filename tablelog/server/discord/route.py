"""``POST /discord/interactions``: Discord's interactions endpoint on ``tablelog serve``.

The signature and its timestamp are checked before the body is read as JSON (Discord sends
every request signed; a bad or missing signature is 401, as Discord's own check of the
endpoint expects); the body's limit is the API's (64 KiB, 413). PING is answered PONG; every
other interaction goes to :class:`~.interactions.Interactions` in a request thread. The
ephemeral follow-ups of an answer are sent after it, to Discord's webhook of the interaction
(``POST {api}/webhooks/{application_id}/{token}``), which needs no bot token.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from collections.abc import Callable
from typing import Any

import attrs
from litestar import Request, Response, post
from litestar.background_tasks import BackgroundTask
from litestar.concurrency import sync_to_thread

from tablelog.lang import say
from tablelog.server.discord.bindings import Bindings
from tablelog.server.discord.interactions import Interactions
from tablelog.server.discord.messages import Reply, message
from tablelog.server.discord.signature import check, public_key
from tablelog.server.tables import Refusal, Tables
from tablelog.text import msg

__all__ = ["DiscordConfig", "discord_routes", "API"]

API = "https://discord.com/api/v10"
"""Discord's HTTP API (``$TABLELOG_DISCORD_API`` replaces it: a test's fake Discord)."""


@attrs.frozen
class DiscordConfig:
    """What the endpoint needs: the application's public key (hex) and the data directory of
    the bindings."""

    public_key: str
    data: str
    bot_token: str | None = None  # direct messages (a whisper to its recipients): optional


def discord_routes(
    tables: Tables, config: DiscordConfig, is_server: Callable[[str], bool]
) -> list[Any]:
    """The route of Discord's interactions (none is served without a public key)."""
    key = public_key(config.public_key)
    interactions = Interactions(
        tables, Bindings(config.data), is_server, direct=bool(config.bot_token)
    )

    @post("/discord/interactions", status_code=200, include_in_schema=False)
    async def interaction(request: Request[Any, Any, Any]) -> Response[Any]:
        body = await request.body()
        check(key, request.headers, body)
        try:
            payload = json.loads(body)
        except ValueError:
            payload = None
        if not isinstance(payload, dict) or not isinstance(payload.get("type"), int):
            told = msg("server.discord.not_interaction", "the body is not an interaction")
            raise Refusal(400, "usage", say(told))
        if payload["type"] == 1:
            return Response({"type": 1})
        if payload["type"] not in (2, 4):
            told = msg("server.discord.unhandled", "interactions of this type are not handled")
            raise Refusal(400, "usage", say(told))
        answered = await sync_to_thread(interactions.answer, payload)
        if not isinstance(answered, Reply):
            return Response(answered)
        later = None
        if answered.followups or answered.direct:
            hook = _hook(payload)
            later = BackgroundTask(
                _follow_up, hook, list(answered.followups), list(answered.direct), config.bot_token
            )
        return Response(answered.body(), background=later)

    return [interaction]


def _api() -> str:
    return os.environ.get("TABLELOG_DISCORD_API", API).rstrip("/")


def _hook(payload: dict[str, Any]) -> str:
    return f"{_api()}/webhooks/{payload.get('application_id', '')}/{payload.get('token', '')}"


async def _follow_up(
    hook: str, contents: list[str], direct: list[tuple[str, str]], bot_token: str | None
) -> None:
    """Send each ephemeral follow-up, in order (after the answer: Discord takes follow-ups of
    an interaction it has had its answer to), then each direct message (with the bot token:
    the user's DM channel, opened with ``POST /users/@me/channels``, then the message)."""
    for content in contents:
        await sync_to_thread(_post, hook, message(content, True))
    for user, content in direct:
        auth = {"Authorization": f"Bot {bot_token}"}
        dm = await sync_to_thread(
            _post, f"{_api()}/users/@me/channels", {"recipient_id": user}, auth
        )
        if isinstance(dm, dict) and dm.get("id"):
            url = f"{_api()}/channels/{dm['id']}/messages"
            await sync_to_thread(_post, url, message(content, False), auth)


def _post(url: str, data: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    """POST ``data`` as JSON and return the answer's JSON (None on a failure, which is one line
    on the server's console, never more)."""
    request = urllib.request.Request(
        url,
        json.dumps(data).encode(),
        {
            "Content-Type": "application/json",
            "User-Agent": "DiscordBot (tablelog, 0.1)",
            **(headers or {}),
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - Discord's API
            return json.loads(answer.read() or b"null")
    except (OSError, ValueError) as exc:
        print(f"discord: a message was not sent ({type(exc).__name__})", file=sys.stderr)
        return None
