"""``--help`` and click's own words in the reader's language (``tablelog --lang``).

The help of a command is its English text (a docstring, an option's ``help=``), extracted into
the catalogue by :func:`tablelog.cli.extract.help_texts` with the context ``cli.help``;
:func:`translate` puts the reader's words in place in a command and every command below it,
once per command, when the command is first resolved (``LazyGroup.get_command``), so help, the
shell's lists and completion's descriptions read them. Click's own messages (``Usage:``,
``Options:``, ``No such option …``, ``Missing argument …``) go through its ``gettext`` calls:
:func:`speak` points them at the same catalogue.
"""

from __future__ import annotations

import click

from tablelog.lang import Words

__all__ = ["translate", "speak", "HELP_CONTEXT", "CLICK_MODULES"]

HELP_CONTEXT = "cli.help"
"""The catalogue context of every help text (tablelog/cli/extract.py extracts them)."""

_FIELDS = ("help", "short_help", "epilog")
_ENGLISH = "_tablelog_english_help"


def translate(command: click.Command, words: Words) -> click.Command:
    """Give ``command`` and every command below it their help in ``words``' language.

    Returns:
        ``command`` itself (its texts replaced; the English ones kept beside them).
    """
    if words.lang == "en" and not hasattr(command, _ENGLISH):
        return command
    from tablelog.lang.catalog import translations

    catalogue = translations(words.lang)
    _translate_one(command, words.lang, catalogue)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            translate(sub, words)
    return command


def _translate_one(command: click.Command, lang: str, catalogue: object) -> None:
    english = getattr(command, _ENGLISH, None)
    if english is not None and english[0] == lang:
        return
    if english is None:
        english = (
            lang,
            {field: getattr(command, field) for field in _FIELDS},
            {id(p): getattr(p, "help", None) for p in command.params},
        )
    texts, params = english[1], english[2]
    for field, text in texts.items():
        setattr(command, field, _in(catalogue, text))
    for param in command.params:
        if isinstance(param, click.Option) and params.get(id(param)):
            param.help = _in(catalogue, params[id(param)])
    setattr(command, _ENGLISH, (lang, texts, params))
    if hasattr(command, "_help_option"):  # click makes --help's option once, in the words then
        command._help_option = None  # spoken ("Show this message and exit."): made again


def _in(catalogue: object, text: str | None) -> str | None:
    if not text:
        return text
    found: str = catalogue.pgettext(HELP_CONTEXT, text)  # type: ignore[attr-defined]
    return found


CLICK_MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.termui",
    "click.types",
    "click.utils",
    "click.shell_completion",
)


def speak(words: Words) -> None:
    """Have click's own messages use ``words``' catalogue (its modules call ``_()`` and
    ``ngettext()``, bound when they were imported)."""
    import importlib

    from tablelog.lang.catalog import translations

    catalogue = translations(words.lang)
    for name in CLICK_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "_"):
            module._ = catalogue.gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = catalogue.ngettext  # type: ignore[attr-defined]
