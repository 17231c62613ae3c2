"""One command line of the API run through the CLI's own parser (SERVER.md §4, "Commands").

A line of a ``run`` script goes through the same click tree, deciders and session loop as in the
terminal (:func:`run_line`); what click prints is captured per thread (:class:`_Routed`), and
its errors become :class:`~tablelog.server.tables.Refusal` answers: 400 usage, 422 a rule's
refusal, 503 the log.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Iterator
from typing import Any

from tablelog import systems

__all__ = ["APPENDING_WORDS", "words", "click_line"]

APPENDING_WORDS = frozenset({"note", "undo", "redo"})
"""The core command words that append; every system's group appends too (its name)."""


class _Routed(io.TextIOBase):
    """A stand-in for ``sys.stdout``/``sys.stderr`` that sends what a thread writes to that
    thread's own buffer while it runs a command line (click prints through the process's
    streams), and everything else to the real stream: command lines of different tables run
    at once, each capturing its own output."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.local = threading.local()

    def write(self, text: str) -> int:
        buffer = getattr(self.local, "buffer", None)
        written: int = (buffer if buffer is not None else self.real).write(text)
        return written

    def flush(self) -> None:
        if getattr(self.local, "buffer", None) is None:
            self.real.flush()

    def isatty(self) -> bool:
        return False

    # io.TextIOBase answers None for these: click would then take this stream for a
    # misconfigured one and write to the real stream's ``buffer`` beneath it, past the routing.
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.real, "encoding", None) or "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.real, "errors", None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


_ROUTES: list[_Routed] = []
_ROUTES_LOCK = threading.Lock()


@contextlib.contextmanager
def _captured() -> Iterator[io.StringIO]:
    """Capture what this thread prints to stdout and stderr (see :class:`_Routed`)."""
    import sys

    with _ROUTES_LOCK:
        if not _ROUTES:
            sys.stdout, sys.stderr = _Routed(sys.stdout), _Routed(sys.stderr)
            _ROUTES.extend([sys.stdout, sys.stderr])
    out = io.StringIO()
    for route in _ROUTES:
        route.local.buffer = out
    try:
        yield out
    finally:
        for route in _ROUTES:
            route.local.buffer = None


def words(line: str) -> list[str]:
    """Split a command line as a ``run`` script does; refuse what this API does not take.

    Raises:
        Refusal: 400 usage: not a command line, or not one this API takes.
    """
    from tablelog.cli.core import command_words
    from tablelog.server.tables import Refusal

    try:
        argv = command_words(line)
    except ValueError as exc:
        raise Refusal(400, "usage", f"not a command line: {exc}") from None
    if argv and argv[0] == "tablelog":
        argv = argv[1:]
    if not argv:
        raise Refusal(400, "usage", "an empty command line")
    if argv[0] not in APPENDING_WORDS and argv[0] not in systems.names():
        raise Refusal(
            400,
            "usage",
            f"{argv[0]!r} is not a command this API takes (it takes the "
            "commands that append: note, undo, redo and the system's commands)",
        )
    if any(
        word in ("--log", "--actor", "--dry-run", "--request-id")
        or word.startswith(("--log=", "--actor=", "--dry-run=", "--request-id="))
        for word in argv
    ):
        raise Refusal(
            400,
            "usage",
            "--log, --actor, --dry-run and --request-id are not taken "
            "in a command line here (dry_run and request_id are fields of the body)",
        )
    return argv


def click_line(argv: list[str], env: Any) -> None:
    """Run ``argv`` through the CLI's own click tree with ``env``; map its errors.

    Raises:
        Refusal: 400 usage, 422 a rule's refusal, 503 the log cannot be used.
    """
    import click

    from tablelog.cli.core import CliError
    from tablelog.cli.main import cli
    from tablelog.server.tables import Refusal

    try:
        with _captured() as out:
            cli.main(args=argv, prog_name="tablelog", standalone_mode=False, obj=env)
    except CliError as exc:
        message = exc.format_message()
        if exc.exit_code == 1:
            rule, _, text = message.partition(": ")
            refusal = Refusal(422, "rule", text, rule)
            refusal.secrets = exc.secrets
            raise refusal from None
        if exc.exit_code == 3:
            raise Refusal(503, "log", message) from None
        raise Refusal(400, "usage", message) from None
    except click.UsageError as exc:
        raise Refusal(400, "usage", exc.format_message()) from None
    except click.exceptions.Exit as exc:
        if exc.exit_code:
            raise Refusal(400, "usage", out.getvalue().strip() or "usage") from None
        raise Refusal(400, "usage", "that line shows help; it appends nothing") from None
    except click.ClickException as exc:
        raise Refusal(400, "usage", exc.format_message()) from None
