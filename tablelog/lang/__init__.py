"""The reader's language: one renderer per face turns sentences as data into text.

Every face (the command line, the shell, the server's API and page, the exports) renders the
:class:`~tablelog.text.Msg` values the rules, the events' texts (:mod:`tablelog.texts`) and the
session give it with a :class:`Words`: the reader's language (``en``, ``ja``, ``ko``: its
catalogue, :mod:`tablelog.lang.catalog`, and each system's glossary,
:mod:`tablelog.rules.glossary`) and the seats' secrets it may read. What machines read (rule
IDs, JSON keys, event type tags, command words, the log's bytes) never goes through here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from tablelog.events.core import Event
from tablelog.rules import glossary
from tablelog.text import Msg, Shown, Term, english, plain_params, render_with
from tablelog.texts import core as texts

__all__ = [
    "LANGUAGES",
    "Words",
    "ENGLISH",
    "choose",
    "from_locale",
    "reader",
    "set_reader",
    "reading",
    "say",
    "params_of",
]

LANGUAGES = ("en", "ja", "ko")

_JOINS = {  # style -> (between items, before the last)
    "ja": {
        "comma": ("、", "、"),
        "and": ("、", "、"),
        "or": ("、", "または"),
        "semicolon": ("；", "；"),
    },
    "ko": {
        "comma": (", ", ", "),
        "and": (", ", ", "),
        "or": (", ", " 또는 "),
        "semicolon": ("; ", "; "),
    },
}


def _joiner(lang: str) -> Callable[[list[str], str], str]:
    joins = _JOINS[lang]

    def join(parts: list[str], style: str) -> str:
        if style == "joined":
            return "".join(parts)
        if style == "space" or style not in joins:
            return " ".join(parts)
        between, last = joins[style]
        if len(parts) < 2:
            return "".join(parts)
        return between.join(parts[:-1]) + last + parts[-1]

    return join


class Words:
    """A face's renderer: sentences in one language, for one reader.

    Args:
        lang: ``"en"``, ``"ja"`` or ``"ko"``.
        sees: Whether the reader may read a secret seen by that name's seats (None: all, the
            CLI's reader).
    """

    def __init__(self, lang: str = "en", sees: Callable[[str | None], bool] | None = None) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self.sees = sees
        if self.lang == "en":
            self._template: Callable[[Msg], str] = _english_template
            self._join: Callable[[list[str], str], str] | None = None
        else:
            from tablelog.lang.catalog import translations

            catalogue = translations(self.lang)
            self._template = lambda m: _translated(catalogue, m)
            self._join = _joiner(self.lang)

    def __call__(self, message: Msg | Term | str) -> str:
        """Return ``message`` (a sentence, a game term or plain text) as this reader reads it."""
        if isinstance(message, Term):
            return glossary.word(message.kind, message.key, self.lang)
        if self.lang == "en" and self.sees is None:
            return english(message)
        if self._join is None:
            return render_with(message, self._template, self._value, sees=self.sees)
        return render_with(message, self._template, self._value, self._join, self.sees)

    def _value(self, value: Any, shown: Callable[[Any], str]) -> str | None:
        if isinstance(value, Term):
            return glossary.word(value.kind, value.key, self.lang)
        if isinstance(value, Shown):
            return texts.shown(value, self.lang, shown)
        return None

    def value(self, value: Any) -> str:
        """Return one value of a sentence (a :class:`~tablelog.text.Shown`, a
        :class:`~tablelog.text.Term`, a nested sentence, a plain value) as this reader reads it:
        what a text view shows in a field (``state``'s name of a pf2e item)."""
        if isinstance(value, Msg | str):
            return self(value)
        return self(Msg("", "{value}", {"value": value}))  # no template: nothing to translate

    def term(self, kind: str, key: str) -> str:
        """Return the glossary's word for ``key`` of ``kind`` in this language."""
        return glossary.word(kind, key, self.lang)

    def event(self, event: Event) -> str:
        """Return the one-line description of ``event``."""
        return self(texts.description(event))

    def redacted(self, kind: str, data: dict[str, Any]) -> str | None:
        """Return the description of a redacted record (``data`` as a seat sees it) that its
        system declares (:func:`~tablelog.texts.core.describes_redacted`), or None."""
        said = texts.redacted_description(kind, data)
        return None if said is None else self(said)

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


def _translated(catalogue: Any, message: Msg) -> str:
    if message.plural is not None and message.count is not None:
        count = message.params.get(message.count)
        n = count if isinstance(count, int) else 2
        found: str = catalogue.npgettext(message.id, message.text, message.plural, n)
        return found
    made: str = catalogue.pgettext(message.id, message.text)
    return made


ENGLISH = Words()
"""The default reader: English, every secret shown."""


def from_locale(value: str | None) -> str | None:
    """Return the language a POSIX locale names (``ja_JP.UTF-8`` -> ``ja``), or None for a
    locale of another language, ``C`` or ``POSIX``, or nothing."""
    if not value:
        return None
    code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].split("-", 1)[0].lower()
    return code if code in LANGUAGES else None


def choose(given: str | None, environ: Mapping[str, str]) -> str:
    """Return the reader's language: ``--lang``, else ``$TABLELOG_LANG``, else the POSIX locale
    (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``: the first one set decides), else English.

    Args:
        given: The ``--lang`` value, or None.
        environ: The environment.
    """
    if given in LANGUAGES:
        return given
    chosen = environ.get("TABLELOG_LANG", "").strip().lower()
    if chosen in LANGUAGES:
        return chosen
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return from_locale(value) or "en"
    return "en"


_READER: ContextVar[Words] = ContextVar("tablelog_reader", default=ENGLISH)


def reader() -> Words:
    """Return the current reader: the command line's (``tablelog --lang``), or the one a
    server request set for its own work (:func:`reading`)."""
    return _READER.get()


def set_reader(words: Words) -> None:
    """Make ``words`` the reader of this process's command line."""
    _READER.set(words)


@contextmanager
def reading(words: Words) -> Iterator[Words]:
    """Make ``words`` the current reader while the block runs (a server request's language)."""
    token = _READER.set(words)
    try:
        yield words
    finally:
        _READER.reset(token)


def say(message: Msg | str) -> str:
    """Return ``message`` in the current reader's words (a usage error's text, made where
    click needs a string)."""
    return reader()(message)


def params_of(message: Msg, sees: Callable[[str | None], bool] | None = None) -> dict[str, Any]:
    """Return a sentence's values as JSON (an API error's ``params``)."""
    return plain_params(message, sees)
