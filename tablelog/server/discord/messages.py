"""What an interaction asks and what it is answered: the user, the channel, the subcommand and
its options (:class:`Asked`); a message's content as Discord shows it (:func:`message`, log data
shown literally by :func:`plain`), and the answer (:class:`Reply`)."""

from __future__ import annotations

import re
from typing import Any

import attrs

from tablelog.lang import LANGUAGES, say
from tablelog.server.tables import Refusal
from tablelog.text import msg

__all__ = ["Reply", "Asked", "message", "plain", "language", "lines_of", "refused", "EPHEMERAL"]

EPHEMERAL = 64  # the message flag: only the user who asked sees it
MAX_CONTENT = 2000  # Discord's limit on a message's content


_MARKDOWN = re.compile(r"([\\*_~`|>\[\]<])")  # Discord drops a backslash before any of them


def plain(text: str) -> str:
    """``text`` from a log as Discord shows it literally: its Markdown characters escaped (a
    character named ``[here](https://…)`` is no link, ``**x**`` no bold, ``<@1>`` no mention)."""
    return _MARKDOWN.sub(r"\\\1", text)


def language(locale: str | None) -> str:
    """The language of a Discord locale (``ja``, ``ko``, ``en-US`` …): ours, else English."""
    lang = (locale or "").split("-", 1)[0].lower()
    return lang if lang in LANGUAGES else "en"


@attrs.frozen
class Reply:
    """An answer: its content, whether only the user sees it, more messages for the user
    alone (ephemeral follow-ups, sent after the answer), and direct messages to other users
    (``(user id, content)``: what they alone read of it)."""

    content: str
    ephemeral: bool = True
    followups: tuple[str, ...] = ()
    direct: tuple[tuple[str, str], ...] = ()

    def body(self) -> dict[str, Any]:
        """The interaction response: type 4 (CHANNEL_MESSAGE_WITH_SOURCE), no mention pings."""
        return {"type": 4, "data": message(self.content, self.ephemeral)}


def message(content: str, ephemeral: bool) -> dict[str, Any]:
    """A message's data: its content with no control character raw (each line escaped as the
    CLI's output is), cut to Discord's limit; nobody pinged by names in it."""
    from tablelog.rules.core import escape_text

    content = "\n".join(escape_text(line) for line in content.split("\n"))
    if len(content) > MAX_CONTENT:
        content = content[: MAX_CONTENT - 1] + "…"
    data: dict[str, Any] = {"content": content, "allowed_mentions": {"parse": []}}
    if ephemeral:
        data["flags"] = EPHEMERAL
    return data


@attrs.frozen
class Asked:
    """What an interaction asks: who, where, which subcommand with which options."""

    interaction_id: str
    user_id: str
    username: str
    channel_id: str
    lang: str
    guild_lang: str
    name: str
    options: dict[str, Any]
    focused: str | None
    users: dict[str, Any]

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Asked:
        """Read an interaction (type 2 or 4) of ``/tl SUBCOMMAND …``."""
        user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        data = payload.get("data") or {}
        sub: dict[str, Any] = next(iter(data.get("options") or []), {})
        options, focused = {}, None
        for option in sub.get("options") or []:
            options[str(option.get("name"))] = option.get("value")
            if option.get("focused"):
                focused = str(option.get("name"))
        channel = payload.get("channel_id") or (payload.get("channel") or {}).get("id") or ""
        return cls(
            str(payload.get("id", "")),
            str(user.get("id", "")),
            str(user.get("global_name") or user.get("username") or user.get("id", "")),
            str(channel),
            language(payload.get("locale")),
            language(payload.get("guild_locale")),
            str(sub.get("name", "")),
            options,
            focused,
            ((data.get("resolved") or {}).get("users")) or {},
        )

    def text(self, name: str) -> str:
        value = self.options.get(name)
        return "" if value is None else str(value)


def lines_of(events: list[dict[str, Any]]) -> str:
    """The events as the CLI prints them, one per line: ``#SEQ description``."""
    return "\n".join(f"#{e['seq']} {plain(e.get('text') or e['type'])}" for e in events)


def refused(refusal: Refusal) -> str:
    """A refusal as the user reads it: the rule ID (or the error's code) and the message."""
    return say(
        msg(
            "server.discord.refused",
            "{rule}: {message}",
            rule=refusal.rule or refusal.code,
            message=plain(refusal.message),
        )
    )
