"""Tab completion for ``tablelog shell``: commands and options from the click tree, and this
table's names, runes, base items, techs, cards in a hand, event seqs and rule IDs by what the
parameter under the cursor takes."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator
from typing import Any

import click
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from tablelog.cli.shell.values import Candidates, param_values
from tablelog.lang import say
from tablelog.text import msg

__all__ = ["ShellCompleter", "split_line", "SHELL_WORDS"]

SHELL_WORDS = {
    "help": msg("core.shell.word_help", "list the commands"),
    "exit": msg("core.shell.word_exit", "leave the shell"),
    "quit": msg("core.shell.word_exit", "leave the shell"),
}
"""The shell's own words and what each does (rendered in the reader's words where listed)."""


def split_line(text: str) -> tuple[list[str], str]:
    """Return the complete words before the cursor and the word being typed (shell quoting;
    an unclosed quote is part of the word being typed)."""
    try:
        words = shlex.split(text)
    except ValueError:  # an open quote: complete the quoted word
        head, quote, tail = text.rpartition('"' if text.count('"') % 2 else "'")
        return split_line(head)[0], tail
    if text and not text[-1].isspace() and words:
        return words[:-1], words[-1]
    return words, ""


class ShellCompleter(Completer):
    """Complete a shell line.

    Args:
        root: The ``tablelog`` click group.
        command_path: Maps the words of a line to the click command they reach and the words
            after it (see :meth:`tablelog.cli.shell.Shell.resolve`).
        first_words: The words a line may start with, each with what it is.
        state: Returns the session's state, or None when there is no log yet.
    """

    def __init__(
        self,
        command_path: Callable[[list[str]], tuple[click.Command, list[str]]],
        first_words: Callable[[], Candidates],
        state: Callable[[], Any],
    ) -> None:
        self.command_path = command_path
        self.first_words = first_words
        self.state = state

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        words, current = split_line(document.text_before_cursor)
        seen = set()
        for value, meta in self.candidates(words, current):
            if value.casefold().startswith(current.casefold()) and value not in seen:
                seen.add(value)
                yield Completion(
                    f"{shlex.quote(value)} ",
                    start_position=-len(current),
                    display=value,
                    display_meta=meta,
                )

    def candidates(self, words: list[str], current: str) -> Candidates:
        """Return what may stand at the cursor after ``words``."""
        if not words:
            return self.first_words()
        command, rest = self.command_path(words)
        if isinstance(command, click.Group):
            return [(n, _short_help(c)) for n, c in command.commands.items() if not c.hidden]
        param, given = _param_at(command, rest, current)
        if param is None:
            return _options(command, rest)
        return self.values(param, given)

    def values(self, param: click.Parameter, given: list[str]) -> Candidates:
        """Return the values ``param`` takes: its choices, or this table's names of that kind."""
        return param_values(param, self.state(), given)


def _short_help(command: click.Command) -> str:
    return command.get_short_help_str(limit=50)


def _options(command: click.Command, rest: list[str]) -> Candidates:
    found: Candidates = []
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            repeat = param.multiple or not any(o in rest for o in param.opts)
            found += [(o, param.help or "") for o in param.opts if o.startswith("--") and repeat]
    return found + [("--help", say(msg("core.shell.option_help", "show the command's help")))]


def _param_at(
    command: click.Command, rest: list[str], current: str
) -> tuple[click.Parameter | None, list[str]]:
    """Return the parameter whose value is being typed (None: an option name) and the words
    given so far."""
    if current.startswith("-"):
        return None, rest
    by_opt = {o: p for p in command.params if isinstance(p, click.Option) for o in p.opts}
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    position, expecting = 0, None
    for word in rest:
        if expecting is not None:
            expecting = None
        elif word in by_opt and not by_opt[word].is_flag and not by_opt[word].count:
            expecting = by_opt[word]
        elif not word.startswith("-"):
            position += 1
    if expecting is not None:
        return expecting, rest
    if position < len(arguments):
        return arguments[position], rest
    if arguments and arguments[-1].nargs == -1:
        return arguments[-1], rest
    return None, rest
