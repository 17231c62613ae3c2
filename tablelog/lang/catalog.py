"""The message catalogues: gettext, one domain (``tablelog``), one catalogue per language.

The sources are ``tablelog/lang/locale/<lang>/LC_MESSAGES/tablelog.po`` (msgctxt: a template
id, msgid: its English template; ``tablelog.pot`` is extracted by Babel from the code, the
click commands' help and the rule reference: ``make catalogues``); the package ships the
compiled ``.mo`` files, built by the project's build (the Makefile, and the wheel's
``build_py``), never by hand. English needs no catalogue: the templates are English.

A catalogue is read the first time a sentence is rendered in its language, never at start-up.
"""

from __future__ import annotations

import functools
import gettext
from importlib import resources
from typing import Any

__all__ = ["LOCALES", "translations", "missing"]

LOCALES = ("ja", "ko")
"""The languages with a catalogue (English is the templates' own)."""

_WARNED: set[str] = set()


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """Return the catalogue of ``lang`` (an empty one for English, or when it is not built:
    then :func:`missing` says so, once)."""
    if lang not in LOCALES:
        return gettext.NullTranslations()
    path = resources.files("tablelog.lang").joinpath("locale", lang, "LC_MESSAGES", "tablelog.mo")
    try:
        with path.open("rb") as stream:
            return gettext.GNUTranslations(stream)
    except OSError:
        _WARNED.add(lang)
        return gettext.NullTranslations()


def missing(lang: str) -> bool:
    """Whether the catalogue of ``lang`` was wanted and is not built (a source checkout that
    skipped ``make``): its sentences show in English."""
    translations(lang)
    return lang in _WARNED


def click_gettext(lang: str) -> Any:
    """Return the ``gettext`` function click's own messages use (``Usage:``, ``No such option``,
    ``Show this message and exit.``), from this catalogue (their msgids have no context)."""
    return translations(lang).gettext


def click_ngettext(lang: str) -> Any:
    """Return the ``ngettext`` function of click's own plural messages."""
    return translations(lang).ngettext
