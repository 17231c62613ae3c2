"""``--help`` and click's own words in the reader's language (``tablelog --lang``).

The help of a command is its English text (a docstring, an option's ``help=``), extracted into
the catalogue by :func:`tablelog.cli.extract.help_texts` with the context ``cli.help``;
:func:`translate` puts the reader's words in place in a command and every command below it,
once per command, when the command is first resolved (``LazyGroup.get_command``), so help, the
shell's lists and completion's descriptions read them. Click's own messages (``Usage:``,
``Options:``, ``No such option …``, ``Missing argument …``) go through its ``gettext`` calls:
:func:`speak` points them at the same catalogue, and gives click's parameter types their names
in the reader's words (the metavars ``TEXT``, ``INTEGER RANGE`` and the usage errors' "is not
a valid integer range" name them); :func:`translate` gives the usage line's ``[OPTIONS]`` and
``COMMAND [ARGS]...`` too. A command's own metavars (``NAME``, ``TECH``, ``SEQ``) stay as they
are: its help names them, in every language, as the placeholders of a command line.
"""

from __future__ import annotations

import click

from tablelog.lang import Words
from tablelog.text import Msg, msg

__all__ = ["translate", "speak", "HELP_CONTEXT", "CLICK_MODULES", "CLICK_WORDS"]


def _(text: str) -> str:
    """Mark a word click hands its ``gettext`` by a variable (Babel extracts the literal)."""
    return text


CLICK_WORDS = (_("required"),)
"""Click's words its ``_()`` calls do not spell: ``[required]`` in an option's help."""

_TYPE_NAMES = {  # click's parameter types: their names, whose upper case is the metavar
    "StringParamType": msg("click.type.text", "text"),
    "UnprocessedParamType": msg("click.type.text", "text"),
    "IntParamType": msg("click.type.integer", "integer"),
    "IntRange": msg("click.type.integer_range", "integer range"),
    "FloatParamType": msg("click.type.float", "float"),
    "FloatRange": msg("click.type.float_range", "float range"),
    "BoolParamType": msg("click.type.boolean", "boolean"),
    "UUIDParameterType": msg("click.type.uuid", "uuid"),
    "File": msg("click.type.filename", "filename"),
    "DateTime": msg("click.type.datetime", "datetime"),
    "Choice": msg("click.type.choice", "choice"),
}

_USAGE = {  # the usage line's placeholders click writes
    "[OPTIONS]": msg("click.usage.options", "[OPTIONS]"),
    "COMMAND [ARGS]...": msg("click.usage.command", "COMMAND [ARGS]..."),
    "[COMMAND] [ARGS]...": msg("click.usage.optional_command", "[COMMAND] [ARGS]..."),
}
_METAVARS = ("options_metavar", "subcommand_metavar")

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
    _translate_one(command, words, catalogue)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            translate(sub, words)
    return command


def _translate_one(command: click.Command, words: Words, catalogue: object) -> None:
    english = getattr(command, _ENGLISH, None)
    if english is not None and english[0] == words.lang:
        return
    if english is None:
        english = (
            words.lang,
            {field: getattr(command, field) for field in _FIELDS},
            {id(p): getattr(p, "help", None) for p in command.params},
            {field: getattr(command, field, None) for field in _METAVARS},
        )
    texts, params, metavars = english[1], english[2], english[3]
    for field, text in texts.items():
        setattr(command, field, _in(catalogue, text))
    for param in command.params:
        if isinstance(param, click.Option) and params.get(id(param)):
            param.help = _in(catalogue, params[id(param)])
        if isinstance(param.type, click.Path):  # named when made, in the words spoken then
            param.type.name = catalogue.gettext(_path_name(param.type))  # type: ignore[attr-defined]
    for field, metavar in metavars.items():
        placeholder: Msg | None = _USAGE.get(metavar) if metavar else None
        if placeholder is not None:
            setattr(command, field, words(placeholder))
    command._help_option = None  # click keeps its --help option, words and all: made anew
    setattr(command, _ENGLISH, (words.lang, texts, params, metavars))


def _path_name(kind: click.Path) -> str:
    """The English name click gives a path type (its metavar: FILE, DIRECTORY, PATH)."""
    if kind.file_okay and not kind.dir_okay:
        return "file"
    return "directory" if kind.dir_okay and not kind.file_okay else "path"


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


def _term_width(text: str) -> int:
    """The columns ``text`` takes on a terminal (click's own counts characters): a wide
    character (CJK) two, so that the option list's second column lines up under a Japanese
    or Korean metavar."""
    from click._compat import strip_ansi

    from tablelog.cli.columns import display_width

    return display_width(strip_ansi(text))


def speak(words: Words) -> None:
    """Have click's own messages use ``words``' catalogue (its modules call ``_()`` and
    ``ngettext()``, bound when they were imported)."""
    import importlib

    from tablelog.lang.catalog import translations

    catalogue = translations(words.lang)
    formatting = importlib.import_module("click.formatting")
    formatting.term_len = _term_width  # type: ignore[attr-defined]
    for kind, called in _TYPE_NAMES.items():
        getattr(click.types, kind).name = words(called)
    for name in CLICK_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "_"):
            module._ = catalogue.gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = catalogue.ngettext  # type: ignore[attr-defined]
