"""The game's words in any language: an id typed as its key or as its Japanese or Korean word.

The glossary (``tablelog/rules/data/glossary/fate.toml``) gives each NP type, form and release
kind, kind of magic, attribute, row and NP ability in English (the key the log records), Japanese
and Korean; what a person types in any of them resolves to the key before a command is made, so
the log and its events hold the same bytes in every language. A word may carry the noun it
qualifies (``対人宝具``, ``대인 보구``, ``화 속성``, ``治癒魔術``): that noun is dropped.

Source: fate-codecast-phantasm.ko.txt (its Korean words); issue 27 ("names in any of the three
languages are accepted wherever an id is").
"""

from __future__ import annotations

from tablelog.rules import glossary

__all__ = ["typed_key", "known_words"]

_NOUNS = ("宝具", "보구", "属性", "속성", "魔術", "마술")
"""The nouns a typed word may end in: an NP type's (対人宝具), an attribute's (화 속성), a
kind's (治癒魔術)."""


def typed_key(kind: str, given: str) -> str:
    """Return the key the glossary's ``fate.<kind>`` gives ``given`` in any language, else
    ``given`` as it is (the rule that reads it refuses it then, naming it as typed).

    Args:
        kind: The glossary table: ``np_type``, ``form``, ``release``, ``kind``, ``attribute``,
            ``row`` or ``ability``.
        given: The word as typed (``anti-army``, ``対軍``, ``대군 보구``).
    """
    table = f"fate.{kind}"
    found = glossary.key_of(table, given)
    if found is None:
        text = given.strip()
        for noun in _NOUNS:
            if text.endswith(noun) and len(text) > len(noun):
                found = glossary.key_of(table, text[: -len(noun)])
                if found is not None:
                    break
    return given if found is None else found


def known_words(kind: str) -> list[str]:
    """Return every word of the glossary's ``fate.<kind>`` in every language (the keys first
    of each): what an unknown one may have meant."""
    return glossary.words_of(f"fate.{kind}")
