"""The games' own words in English, Japanese and Korean: one glossary file per system.

``tablelog/rules/data/glossary/<system>.toml`` (and ``core.toml``) holds one table per kind of
term (``[rune]``, ``[np_type]``, ``[element]`` …), one entry per key (the id the log records):

```toml
[rune.flaming]
ja = "フレイミング"          # the seed's own word where the seed gives one
ko = "화염"
team = ["ko"]               # the languages whose word is the team's translation, not the seed's
en = "flaming"              # only where English is not the key itself
```

A :class:`~tablelog.text.Term` ``("pf2e.rune", "flaming")`` renders through :func:`word`; an id
given in any of the three languages is found by :func:`key_of` (``ウェポン・ポテンシィ`` is
``weapon-potency``'s). Pure data: read once per system, no I/O beyond the packaged files.
Source: the seeds (``seeds/*.txt``) for the words they spell; each file names its other sources.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources
from typing import Any

__all__ = ["LANGUAGES", "word", "key_of", "words_of", "entries", "kinds"]

LANGUAGES = ("en", "ja", "ko")


@functools.cache
def _glossary(system: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The glossary of ``system`` (``core`` included): kind -> key -> entry; {} without one."""
    import tomllib

    folder = resources.files("tablelog.rules").joinpath("data", "glossary")
    path = folder.joinpath(f"{system}.toml")
    if not path.is_file():
        return {}
    return tomllib.loads(path.read_text("utf-8"))


def entries(kind: str) -> dict[str, dict[str, Any]]:
    """Return the entries of a kind of term, ``"<system>.<table>"`` (``"pf2e.rune"``), by key."""
    system, _, table = kind.partition(".")
    return _glossary(system).get(table, {})


def kinds(system: str) -> list[str]:
    """Return the kinds of term ``system``'s glossary has (``["pf2e.rune", …]``)."""
    return [f"{system}.{table}" for table in _glossary(system)]


def word(kind: str, key: str, lang: str) -> str:
    """Return the word for ``key`` in ``lang``: the glossary's, else the key itself.

    Args:
        kind: ``"<system>.<table>"``.
        key: The id as the log records it.
        lang: ``"en"``, ``"ja"`` or ``"ko"``.
    """
    entry = entries(kind).get(key)
    if entry is None:
        return key
    found = entry.get(lang)
    if isinstance(found, str) and found:
        return found
    english = entry.get("en")
    return english if isinstance(english, str) and english else key


def words_of(kind: str) -> list[str]:
    """Return every word a kind's keys go by, in every language (for "did you mean")."""
    out: list[str] = []
    for key, entry in entries(kind).items():
        out.append(key)
        out.extend(entry[lang] for lang in LANGUAGES if isinstance(entry.get(lang), str))
    return list(dict.fromkeys(out))


def key_of(kind: str, given: str) -> str | None:
    """Return the key whose word in any language is ``given`` (compared in NFKC and without
    case: ``ﾌﾚｲﾐﾝｸﾞ`` and ``フレイミング`` are one word), or None."""
    return _keys(kind).get(_folded(given))


@functools.cache
def _keys(kind: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for key, entry in entries(kind).items():
        for name in (key, *(entry.get(lang) for lang in LANGUAGES)):
            if isinstance(name, str) and name:
                found.setdefault(_folded(name), key)
    return found


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()
