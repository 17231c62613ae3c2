"""After the session: ``export``, ``import`` and ``report`` (SPEC: "Exports, import, the session
report"). The work is in :mod:`tablelog.exports`; these callbacks parse options and print."""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO, TextIO

import click

from tablelog.actions import no_event
from tablelog.cli.core import MAX_SEQ, CliError, Env, domain_errors, echo, session_of, warn_torn
from tablelog.lang import say
from tablelog.text import msg

__all__ = ["COMMANDS"]


def _not_the_log(path: str, log: str) -> None:
    """Refuse an output that is the log being read (itself or through a link): the export
    would replace the campaign.

    Raises:
        CliError: ``path`` is ``log`` (a usage error, exit 2; the log is left as it was).
    """
    try:
        same = os.path.samefile(path, log)
    except (OSError, ValueError):  # nothing there yet, or a log that is no file (PostgreSQL)
        return
    if same:
        raise CliError(
            msg(
                "core.output.is_the_log",
                "-o {path} is the log being read ({log}); write to another file",
                path=path,
                log=log,
            ),
            2,
        )


def _a_file_to_write(path: str) -> None:
    """Refuse an ``-o`` that names no file to write: empty, a directory, or in a directory
    that does not exist (a usage error, exit 2; a write that fails later is exit 3)."""
    folder = os.path.dirname(path) or "."
    if not path or os.path.isdir(path):
        raise CliError(
            msg(
                "core.output.not_a_file",
                "-o {path!r} is not a file to write (give a file name)",
                path=path,
            ),
            2,
        )
    if not os.path.isdir(folder):
        raise CliError(
            msg(
                "core.output.no_folder",
                "-o {path}: there is no folder {folder}",
                path=path,
                folder=folder,
            ),
            2,
        )


@contextlib.contextmanager
def _output(path: str | None, log: str) -> Iterator[TextIO]:
    """Yield the stream to write to: stdout, or a temporary file beside ``path`` that replaces
    ``path`` only once everything is written (a failed export leaves no half file). The
    temporary file is created new, never through a link planted at its name (a shared folder).
    ``path`` may not be ``log``, the log read (:func:`_not_the_log`)."""
    if path is None or path == "-":
        yield sys.stdout
        return
    _not_the_log(path, log)
    _a_file_to_write(path)
    from tablelog.store.log import create_file, remove_quietly

    temp = f"{path}.part-{secrets.token_hex(8)}"
    try:
        with os.fdopen(create_file(temp), "w", encoding="utf-8", newline="") as out:
            yield out
        os.replace(temp, path)
    except OSError as exc:  # any refusal (EROFS, EACCES, ENOSPC …): one line, exit 3
        raise CliError(
            msg(
                "core.output.cannot_write",
                "cannot write {path}: {reason}",
                path=path,
                reason=str(exc.strerror or exc),
            ),
            3,
        ) from None
    finally:
        remove_quietly(temp)  # never raises over the error above (nothing to remove on EROFS)


@contextlib.contextmanager
def _input(path: str) -> Iterator[BinaryIO]:
    """Yield the bytes of ``path`` (``-``: stdin, a pipe the user made), decoded line by line
    by the import (so a byte that is not UTF-8 is named with its line): a FIFO, a device or a
    directory at a named path is refused at once, as at ``--log``, never waited on.

    Raises:
        click.BadParameter: it is missing, unreadable or not a regular file (exit 2).
    """
    if path == "-":
        yield sys.stdin.buffer
        return
    from tablelog.store.log import open_regular

    try:
        raw = open_regular(path)
    except OSError as exc:
        raise click.BadParameter(f"{path}: {exc.strerror or exc}", param_hint="'SOURCE'") from None
    with raw:
        yield raw


@click.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "csv", "ccfolia", "udonarium", "ccfolia-log"]),
    default="jsonl",
    show_default=True,
    help="jsonl: every record, for import; csv: changed values; ccfolia: each character as "
    "ccfolia's clipboard JSON (one per line); udonarium: one character as Udonarium's zip; "
    "ccfolia-log: the session as a ccfolia room log (HTML).",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="csv, ccfolia-log: also undone actions, marked (jsonl always holds every record).",
)
@click.option(
    "-o", "--output", metavar="FILE", default=None, help="Write to FILE (default stdout)."
)
@click.pass_context
@domain_errors
def export(
    ctx: click.Context, names: tuple[str, ...], fmt: str, show_all: bool, output: str | None
) -> None:
    """Export the session: jsonl (a header line, then each record as `log --json --all` prints
    it), csv (seq, at, actor, type, entity, field, old, new, rules: one row per changed value),
    or for ccfolia and Udonarium (docs/INTEROP.md): characters (NAME…: the ones to export,
    default every one) or the room log.

    Example: tablelog export --format csv -o session.csv
    """
    session = session_of(ctx)
    session.header  # noqa: B018 - a log that cannot be used: exit 3 before any output
    if names and fmt not in ("ccfolia", "udonarium"):
        raise CliError(msg("core.export.names", "NAME is for --format ccfolia and udonarium"), 2)
    if fmt == "udonarium":
        _write_zip(session, names, output)
        return
    with _output(output, session.path) as out:
        if fmt in ("ccfolia", "ccfolia-log"):
            from tablelog.cli import interop

            if fmt == "ccfolia":
                interop.export_characters(session, names, out)
            else:
                interop.export_room_log(session, show_all, out)
        elif fmt == "jsonl":
            from tablelog.exports.jsonl import export_jsonl

            export_jsonl(session, out)
        else:
            from tablelog.exports.changes import export_csv

            export_csv(session, out, show_all)
    warn_torn(session)


def _write_zip(session: Any, names: tuple[str, ...], output: str | None) -> None:
    """Write one character's Udonarium zip to ``output`` (default: the name Udonarium gives)."""
    from tablelog.cli import interop

    name, made = interop.export_udonarium(session, names)
    path = output or interop.udonarium_file(name)
    if path == "-":
        sys.stdout.buffer.write(made)
        return
    with _output(path, session.path) as out:
        out.buffer.write(made)
    echo(str(path))


@click.command("import")
@click.argument("source")
@click.option(
    "--log", "new_log", metavar="NEW", help="The new log to create (default: tablelog's own --log)."
)
@click.pass_context
@domain_errors
def import_(ctx: click.Context, source: str, new_log: str | None) -> None:
    """Rebuild a log from a jsonl export (SOURCE, or - for stdin) as a new file, byte for
    byte, and verify it.

    An edited or truncated export is refused, naming the line; nothing is created then.
    Example: tablelog import session.jsonl --log copy.tlog
    """
    from tablelog.exports.importer import ImportRefused, bounded, import_jsonl

    target = new_log or ctx.obj.log_path
    try:
        with _input(source) as stream:
            done = import_jsonl(bounded(stream), target)
    except ImportRefused as exc:
        from tablelog.rules.core import RuleViolation

        raise RuleViolation(
            "CORE-IMPORT",
            msg(
                "core.import.refused",
                "{source} {reason}; nothing created",
                source=source,
                reason=exc.message,
            ),
        ) from None
    echo(
        say(
            msg(
                "core.import.done",
                "imported {log}: {system} session {session}, {records} records, hash chain "
                "intact, replays",
                log=target,
                system=done.system,
                session=done.session_id,
                records=done.records,
            )
        )
    )


@click.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "html", "json"]),
    default="md",
    show_default=True,
    help="md: for a chat or a wiki; html: one printable page with charts; json: the report's data.",
)
@click.option(
    "--until",
    type=click.IntRange(0, MAX_SEQ),
    default=None,
    help="The report right after event SEQ.",
)
@click.option(
    "-o", "--output", metavar="FILE", default=None, help="Write to FILE (default stdout)."
)
@click.pass_context
@domain_errors
def report(ctx: click.Context, fmt: str, until: int | None, output: str | None) -> None:
    """Write the session report: title, system, times, who logged; each character's and
    item's figures at the start and the end; totals; the timeline of actions; GM notes.

    Example: tablelog report --format html -o recap.html
    """
    from tablelog.exports import render
    from tablelog.exports.report import build

    session = session_of(ctx)
    if until is not None and until > session.state().seq:
        from tablelog.rules.core import RuleViolation

        raise RuleViolation("CORE-SEQ", no_event(until, session.state().seq))
    from tablelog.lang import ENGLISH, reader

    env = ctx.find_object(Env)
    if fmt == "json":  # the report's data: the same in every language and time zone
        made = build(session, until, words=ENGLISH)
    else:
        made = build(session, until, words=reader(), zone=env.zone if env is not None else None)
    if fmt == "json":
        from tablelog.exports.jsonl import dump

        text = dump(made.to_json()) + "\n"
    else:
        text = render.html_page(made) if fmt == "html" else render.markdown(made)
    with _output(output, session.path) as out:
        out.write(text)
    warn_torn(session)


COMMANDS = [export, import_, report]
