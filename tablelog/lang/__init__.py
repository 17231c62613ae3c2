"""The reader's language: one renderer per face turns sentences as data into text.

Every face (the command line, the shell, the server's API and page, the exports) renders the
:class:`~tablelog.text.Msg` values the rules, the events' texts (:mod:`tablelog.texts`) and the
session give it with a :class:`Words`: the reader's language, the seats' secrets it may read.
What machines read (rule IDs, JSON keys, event type tags, the log's bytes) never goes through
here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events.core import Event
from tablelog.text import Msg, english, render_with
from tablelog.texts import core as texts

__all__ = ["Words", "ENGLISH", "reader", "set_reader", "say", "params_of"]


class Words:
    """A face's renderer: sentences in one language, for one reader.

    Args:
        lang: ``"en"``, ``"ja"`` or ``"ko"``.
        sees: Whether the reader may read a secret seen by that name's seats (None: all, the
            CLI's reader).
    """

    def __init__(self, lang: str = "en", sees: Callable[[str | None], bool] | None = None) -> None:
        self.lang = lang
        self.sees = sees

    def __call__(self, message: Msg | str) -> str:
        """Return ``message`` as this reader reads it."""
        if self.lang == "en" and self.sees is None:
            return english(message)
        return render_with(message, _english_template, sees=self.sees)

    def event(self, event: Event) -> str:
        """Return the one-line description of ``event``."""
        return self(texts.description(event))

    def explain(self, event: Event) -> list[str]:
        """Return the audit lines of ``event``."""
        return [self(line) for line in texts.explanation(event)]

    def seeing(self, sees: Callable[[str | None], bool] | None) -> Words:
        """Return the same language for a reader who reads the secrets ``sees`` allows."""
        return Words(self.lang, sees)


def _english_template(message: Msg) -> str:
    if message.plural is not None and message.count is not None:
        return message.text if message.params.get(message.count) == 1 else message.plural
    return message.text


ENGLISH = Words()
"""The CLI's default reader: English, every secret shown."""


def params_of(message: Msg, sees: Callable[[str | None], bool] | None = None) -> dict[str, Any]:
    """Return a sentence's values as JSON (an API error's ``params``)."""
    from tablelog.text import plain_params

    return plain_params(message, sees)


_READER: list[Words] = [ENGLISH]


def reader() -> Words:
    """Return the reader of this process's command line (``--lang``; English by default)."""
    return _READER[0]


def set_reader(words: Words) -> None:
    """Make ``words`` the reader of this process's command line (``tablelog --lang``)."""
    _READER[0] = words


def say(message: Msg | str) -> str:
    """Return ``message`` in the current reader's words (a usage error's text, made where
    click needs a string)."""
    return reader()(message)
