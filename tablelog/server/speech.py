"""The language of each request (SERVER.md §4): every human text an answer carries — a log
line's and a command's ``text``, an error's ``message``, the report, the sheet's labels — is in
the request's language.

The language is the request's ``lang`` query parameter when it names one of ``ja``, ``ko``,
``en`` (an event stream and a link cannot send a header: the page adds it to their addresses),
else the best of those three that ``Accept-Language`` accepts (its q-values weigh; ``ja-JP``
is ``ja``), else English. :class:`Speaking` is the ASGI middleware that makes the request's
:class:`~tablelog.lang.Words` the current reader (:func:`tablelog.lang.reader`) for everything
the request runs — its handler in its thread, its exception handlers, an event stream's every
delivery — so a view renders with ``reader()`` (``reader().seeing(viewer.sees)`` for the
secrets a seat may read) and click's own usage errors come out of the same catalogue
(:func:`follow_reader`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from tablelog.lang import LANGUAGES, Words, reading

__all__ = ["accepted", "language_of", "Speaking", "follow_reader"]

_WORDS = {lang: Words(lang) for lang in LANGUAGES}


def accepted(header: str | None) -> str:
    """Return the language ``Accept-Language`` prefers among ``ja``, ``ko`` and ``en``: the
    highest q-value (ties: the first listed), a range's primary tag deciding (``ko-KR``);
    ``en`` when it names none of them, or has none.

    Example: ``accepted("fr-CH, ja;q=0.8, en;q=0.5")`` is ``"ja"``.
    """
    best, best_q = "en", 0.0
    for part in (header or "").split(",")[:32]:
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().split("-", 1)[0].lower()
        if lang not in LANGUAGES:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > best_q and 0 < q <= 1:
            best, best_q = lang, q
    return best


def language_of(query: bytes | str, header: str | None) -> str:
    """Return a request's language: its ``lang`` query parameter when it is one of ours, else
    what ``header`` (``Accept-Language``) prefers (:func:`accepted`)."""
    text = query.decode("latin-1") if isinstance(query, bytes) else query
    given = parse_qs(text).get("lang", [""])[-1].strip().lower() if "lang=" in text else ""
    return given if given in LANGUAGES else accepted(header)


class Speaking:
    """ASGI middleware: the request's words are the current reader while it runs."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        header = None
        for key, value in scope.get("headers") or ():
            if key == b"accept-language":
                header = value.decode("latin-1")
                break
        lang = language_of(scope.get("query_string") or b"", header)
        with reading(_WORDS[lang]):
            await self.app(scope, receive, send)


def follow_reader() -> None:
    """Have click's own messages (``No such option``, ``Missing argument``) speak the current
    reader's language, request by request (the CLI's :func:`tablelog.cli.help.speak` binds one
    language for the process; a server has a language per request)."""
    import importlib

    from tablelog.cli.help import CLICK_MODULES
    from tablelog.lang import reader
    from tablelog.lang.catalog import translations

    def gettext(text: str) -> str:
        return translations(reader().lang).gettext(text)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return translations(reader().lang).ngettext(singular, plural, n)

    for name in CLICK_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "_"):
            module._ = gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]
