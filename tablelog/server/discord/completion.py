"""Autocomplete (interaction type 4): the values the shell and bash completion offer
(:func:`tablelog.cli.shell.values.param_values`), on the table's state as the seat sees it — a
hand the seat may not see offers no card, and no seat is offered the draw pile."""

from __future__ import annotations

import re
from typing import Any

import attrs
import click

from tablelog.cli.core import command_words
from tablelog.cli.shell.values import Candidates, param_values
from tablelog.server import views
from tablelog.server.grammar import CORE_WORDS, grammar
from tablelog.server.tables import Refusal, Seat, Table

__all__ = ["choices", "complete_line", "quoted"]

_PLAIN = re.compile(r"[A-Za-z0-9_.,:+@/=%-]+")
MAX_CHOICES = 25  # Discord shows at most 25 choices
MAX_CHOICE = 100  # a choice's name and value: at most 100 characters each


def quoted(word: str) -> str:
    """A word as a command line reads it back (``"Lady Ann"``; ``"`` and ``\\`` escaped)."""
    if _PLAIN.fullmatch(word):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def choices(interactions: Any, asked: Any) -> dict[str, Any]:
    """The autocomplete result (type 8) for the focused option of ``/tl do`` (the line) or
    ``/tl draw`` (the character); none in a channel bound to no table."""
    try:
        _, table = interactions.table_of(asked)
        seat = interactions.seat_of(table, asked)
        typed = asked.text(asked.focused or "")
        if (asked.name, asked.focused) == ("do", "line"):
            found = complete_line(typed, table, seat)
        elif (asked.name, asked.focused) == ("draw", "character"):
            names = seat.characters if seat.role != "gm" else tuple(table.current().characters)
            found = [(n, "") for n in names if n.casefold().startswith(typed.casefold())]
        else:
            found = []
    except Refusal:
        found = []
    made = []
    for value, meta in found:
        if len(value) > MAX_CHOICE:
            continue
        name = f"{value} — {meta}" if meta else value
        made.append({"name": name[:MAX_CHOICE], "value": value})
        if len(made) == MAX_CHOICES:
            break
    return {"type": 8, "data": {"choices": made}}


def complete_line(line: str, table: Table, seat: Seat) -> Candidates:
    """Return the whole lines ``line`` may become with its last word completed: a command
    word, or the value of the parameter the word stands at (a name, a card in a hand the seat
    sees, a rune, a tech, a seq)."""
    try:
        words = command_words(line)
    except ValueError:
        return []
    fresh = not line or line[-1].isspace()
    done, part = (words, "") if fresh else (words[:-1], words[-1])
    root = grammar()
    ctx = click.Context(root, info_name="tablelog", help_option_names=[])
    command: click.Command = root
    at = 0
    while isinstance(command, click.Group) and at < len(done):
        sub = command.get_command(ctx, done[at])
        if sub is None:
            return []
        command, at = sub, at + 1
    state = table.current()
    if command is root:
        found: Candidates = [(w, "") for w in (*CORE_WORDS, state.system)]
    elif isinstance(command, click.Group):
        found = [(w, "") for w in sorted(command.commands)]
    else:
        param = _next_param(command, done[at:])
        found = [] if param is None else param_values(param, _seen(table, seat), done)
    head = " ".join(quoted(w) for w in done)
    return [
        (f"{head} {quoted(value)}".strip(), meta)
        for value, meta in found
        if value != "?" and value.casefold().startswith(part.casefold())
    ]


def _next_param(command: click.Command, given: list[str]) -> click.Parameter | None:
    """The parameter the next word of ``command``'s line stands at: the value of an option
    just named, else the next argument (one taking many words stays the last)."""
    options = {o: p for p in command.params if isinstance(p, click.Option) for o in p.opts}
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    count, wanting = 0, None
    for word in given:
        if wanting is not None:
            wanting = None
            continue
        if word.startswith("--"):
            option = options.get(word.partition("=")[0])
            if option is not None and not option.is_flag and "=" not in word:
                wanting = option
            continue
        count += 1
    if wanting is not None:
        return wanting
    if not arguments:
        return None
    if count < len(arguments):
        return arguments[count]
    last = arguments[-1]
    return last if last.nargs == -1 else None


def _seen(table: Table, seat: Seat) -> Any:
    """The table's state with the characters and items as the seat sees them (hidden cards
    ``"?"``, which are offered as nothing)."""
    data = views.state(table, seat, None)
    state = table.current()
    return attrs.evolve(state, characters=data["characters"], items=data["items"])
