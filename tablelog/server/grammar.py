"""The server's grammar: the command lines the API takes, parsed by the CLI's own click tree.

A line (``"magicpunk draw Aria 2"``, ``"undo 12"``) is parsed once into a command record
(:class:`~tablelog.cli.core.Parsed`) by :func:`~tablelog.cli.core.parse`, the one parser of
every face, over a root group of its own (:class:`ApiGrammar`): the core commands that append
(``note``, ``roll``, ``say``, ``retire``, ``undo``, ``redo``, ``table``) and each system's group,
with only the commands that append. It has no ``--log`` or ``--actor`` (a table and a seat are
the request's), no ``--help``, and no option that reads a file on the server's machine. Nothing
is printed: the commands' callbacks return their records.
"""

from __future__ import annotations

from typing import Any

import click

from tablelog import systems
from tablelog.cli.core import APPENDS, MAX_WORDS, Parsed, command_words, parse, too_many_words
from tablelog.lang import say
from tablelog.text import Listed, msg

__all__ = ["CORE_WORDS", "ApiGrammar", "Usage", "parse_line"]

CORE_WORDS = ("note", "roll", "say", "retire", "undo", "redo", "table")
"""The core command words the API takes (each system's group is taken too, by its name)."""


class Usage(Exception):
    """A line the API cannot take (400 ``usage``): its message, and the values it names."""

    def __init__(self, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.params = params or {}


class ApiGrammar(click.Group):
    """The root of the server's grammar (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__("tablelog", help="The commands a seat sends to POST …/commands.")
        self._systems: dict[str, click.Command] = {}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if len(args) > MAX_WORDS:
            raise click.UsageError(too_many_words(), ctx)
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*CORE_WORDS, *systems.names()]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from tablelog.cli.main import cli

        if name in CORE_WORDS:
            return cli.get_command(ctx, name)
        if name not in systems.names():
            return None
        if name not in self._systems:
            try:
                group = systems.get(name).group()
            except (systems.SystemUnavailable, ModuleNotFoundError):
                return None
            made = _appending_only(group)
            if made is None:
                return None
            self._systems[name] = made
        return self._systems[name]


def _appending_only(command: click.Command) -> click.Command | None:
    """Return ``command`` as the API takes it: a group keeps the commands below it that append
    (None if it has none); a command that appends, with any option that reads a file refused
    (:func:`_no_files`); None for a command that does not append."""
    if isinstance(command, click.Group):
        kept = {}
        for name, sub in command.commands.items():
            made = _appending_only(sub)
            if made is not None:
                kept[name] = made
        if not kept:
            return None
        return click.Group(command.name, commands=kept, help=command.help)
    if not getattr(command.callback, APPENDS, False):
        return None
    if not any(_reads_files(p) for p in command.params):
        return command
    made = click.Command(
        command.name,
        callback=command.callback,
        params=[_no_files(p) if _reads_files(p) else p for p in command.params],
        help=command.help,
    )
    return made


def _reads_files(param: click.Parameter) -> bool:
    return isinstance(param.type, click.Path | click.File)


def _no_files(param: click.Parameter) -> click.Parameter:
    """The option ``param`` refusing any value: it would read a file of the server's machine."""

    def refuse(ctx: click.Context, p: click.Parameter, value: Any) -> Any:
        if value is not None:
            raise click.BadParameter(
                say(
                    msg(
                        "server.usage.file_option",
                        "it reads a file on the machine that runs it, which the server does "
                        "not do: give the values as options",
                    )
                )
            )
        return None

    return click.Option(param.opts, default=None, callback=refuse, hidden=True)


_GRAMMAR: list[ApiGrammar] = []


def grammar() -> ApiGrammar:
    """Return the server's grammar (made once)."""
    if not _GRAMMAR:
        _GRAMMAR.append(ApiGrammar())
    return _GRAMMAR[0]


_LINE_ONLY = ("--dry-run", "--json", "--request-id")


def parse_line(line: str) -> Parsed:
    """Parse one command line of ``POST …/commands`` into its command record.

    Raises:
        Usage: not a command line, a command the API does not take, unknown words or options,
            or the CLI's ``--dry-run``/``--json``/``--request-id`` (the body's fields here).
    """
    try:
        argv = command_words(line)
    except ValueError as exc:
        raise Usage(
            say(msg("server.usage.not_a_line", "not a command line: {reason}", reason=str(exc)))
        ) from None
    if argv and argv[0] == "tablelog":
        argv = argv[1:]
    if not argv:
        raise Usage(say(msg("server.usage.empty", "an empty command line")))
    if argv[0] not in CORE_WORDS and argv[0] not in systems.names():
        raise Usage(
            say(
                msg(
                    "server.usage.not_taken",
                    "{word!r} is not a command this API takes (it takes the commands that "
                    "append: {core} and the system's commands)",
                    word=argv[0],
                    core=Listed(CORE_WORDS, "comma"),
                )
            ),
            {"word": argv[0]},
        )
    try:
        value = _parse(grammar(), argv)
    except click.UsageError as exc:
        raise Usage(_usage_message(exc)) from None
    except click.ClickException as exc:
        raise Usage(exc.format_message()) from None
    if not isinstance(value, Parsed):
        raise Usage(say(msg("server.usage.appends_nothing", "{line!r} appends nothing", line=line)))
    if value.given:
        raise Usage(
            say(
                msg(
                    "server.usage.line_options",
                    "{options} are not taken in a command line here (dry_run and request_id "
                    "are fields of the body)",
                    options=Listed(value.given, "comma"),
                )
            ),
            {"options": list(value.given)},
        )
    return value


def _parse(root: ApiGrammar, argv: list[str]) -> Any:
    """Parse ``argv`` with ``root``: the command's own context only, under plain contexts of the
    groups its words name (the groups take no options, so they have nothing to parse: a third
    of click's work per line at the server). Whatever is not such a path — an option before the
    command, a word that names no command, a group with nothing after it — goes through click's
    whole parse (:func:`~tablelog.cli.core.parse`), whose refusal it then is."""
    if len(argv) > MAX_WORDS:
        raise click.UsageError(too_many_words())
    ctx = click.Context(root, info_name="tablelog", help_option_names=[])
    command: click.Command = root
    at = 0
    while isinstance(command, click.Group) and at < len(argv) and not argv[at].startswith("-"):
        sub = command.get_command(ctx, argv[at])
        if sub is None:
            break
        if isinstance(sub, click.Group):
            ctx = click.Context(sub, info_name=argv[at], parent=ctx)
        command, at = sub, at + 1
    if isinstance(command, click.Group):
        return parse(root, argv, None, help_option_names=[])
    with command.make_context(argv[at - 1], argv[at:], parent=ctx) as leaf:
        return command.invoke(leaf)


def _usage_message(exc: click.UsageError) -> str:
    """``No such option: --bogus (see: tablelog magicpunk draw --help)``: the CLI's words."""
    from tablelog.cli.core import usage_message

    return usage_message(exc)
