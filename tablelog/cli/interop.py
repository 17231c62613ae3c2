"""Where tables already play (docs/INTEROP.md): ``export --format ccfolia|udonarium|ccfolia-log``
and ``import-ccfolia``. The work is in :mod:`tablelog.exports.ccfolia`,
:mod:`tablelog.exports.udonarium` and :mod:`tablelog.exports.ccfolia_import`; these read the
session and write what they make (an import decides its lines on a copy of the state first)."""

from __future__ import annotations

import datetime
import json
from typing import Any, TextIO

import click

from tablelog.cli.core import CliError, Env, domain_errors, echo, parse, reader, session_of
from tablelog.text import msg

__all__ = ["COMMANDS", "export_characters", "export_room_log", "udonarium_file"]


def _records(session: Any, names: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
    """The named characters (all of them, units included, when none is named), as JSON."""
    from tablelog import systems
    from tablelog.projections.history import state_json
    from tablelog.rules.core import RuleViolation, Unknown

    state = session.state()
    data = state_json(state, systems.get(state.system).to_json)
    chosen = names or tuple(data["characters"])
    out = []
    for name in chosen:
        record = data["characters"].get(name)
        if record is None:
            raise RuleViolation(
                "UNKNOWN-NAME",
                msg("core.ccfolia.unknown", "no character named {name!r}", name=name),
                Unknown("name", name),
            )
        out.append((name, record))
    return out


def export_characters(session: Any, names: tuple[str, ...], out: TextIO) -> None:
    """Write each character's ccfolia clipboard JSON, one per line."""
    from tablelog.exports.ccfolia import clipboard_line

    system = session.header.system
    for name, record in _records(session, names):
        out.write(clipboard_line(system, name, record, reader()) + "\n")


def udonarium_file(name: str) -> str:
    """The file name Udonarium itself gives a saved character: ``xml_NAME_YYYY-MM-DD_HHMM.zip``."""
    now = datetime.datetime.now().strftime("%Y-%m-%d_%H%M")
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
    return f"xml_{safe}_{now}.zip"


def export_udonarium(session: Any, names: tuple[str, ...]) -> tuple[str, bytes]:
    """Return the name and the zip of one character's Udonarium save."""
    from tablelog.exports.udonarium import character_zip

    if len(names) != 1:
        raise CliError(
            msg("core.udonarium.one", "--format udonarium saves one character: name it"), 2
        )
    [(name, record)] = _records(session, names)
    return name, character_zip(session.header.system, name, record, reader())


def export_room_log(session: Any, show_all: bool, out: TextIO) -> int:
    """Write the session as a ccfolia room log; return how many messages."""
    from tablelog.exports.ccfolia import actions, room_log
    from tablelog.projections.core import undone_after

    words = reader()
    session.state()
    undone = undone_after(session.markers())
    told = actions(session.events(), undone, lambda rec, event: words.event(event), show_all, words)
    return room_log(told, out, words.lang)


@click.command("import-ccfolia")
@click.argument("source", type=click.File("r", encoding="utf-8"))
@click.option("--run", "run_them", is_flag=True, help="Run the lines (append the characters).")
@click.pass_context
@domain_errors
def import_ccfolia(ctx: click.Context, source: Any, run_them: bool) -> None:
    """Read ccfolia clipboard characters (one JSON object, a list of them, or one per line)
    and print the command lines that add them to the log's system; --run runs them.

    Every value the paste carries goes into the line, or the paste is refused naming its label
    and value (a field the command needs and lacks, too): nothing is guessed or dropped, nothing
    appended. Example: tablelog --log night.tlog import-ccfolia aria.json --run
    """
    env: Env = ctx.obj
    session = session_of(ctx)
    root = ctx.find_root().command
    trial = session.state().copy()
    lines = [_checked(trial, root, env, c) for c in _characters(source.read(2**20))]
    for line in lines:
        echo(line)
    if run_them:
        _run(session, root, env, lines)


def _run(session: Any, root: click.Command, env: Env, lines: list[str]) -> None:
    """Run the add lines: all of them or, when one is refused, none (one atomic write, unless
    this is a line of a `run`, whose own buffering holds)."""
    import contextlib

    from tablelog.cli.core import command_words

    was = env.in_run
    env.in_run = True
    try:
        with contextlib.nullcontext() if was else session.atomic():
            for line in lines:
                parse(root, command_words(line), env)
    finally:
        env.in_run = was


def _checked(trial: Any, root: click.Command, env: Env, data: dict[str, Any]) -> str:
    """The add line of one pasted character, once the record it makes holds every value the
    paste carries: decided on ``trial`` (the log's state, and the characters of the paste
    before this one; evolved with it, nothing appended), so what --run would refuse is refused
    before anything is appended.

    Raises:
        RuleViolation: CORE-IMPORT naming a field the line cannot carry (or needs and lacks),
            or what the line's command refuses.
    """
    from tablelog import decision, systems
    from tablelog.cli.core import command_words
    from tablelog.exports.ccfolia_import import add_line, check_carried, unusable
    from tablelog.projections.history import state_json
    from tablelog.rules.core import RuleViolation

    line = add_line(trial.system, data)
    was = env.in_run, env.parse_only
    env.in_run, env.parse_only = True, True
    try:
        parsed = parse(root, command_words(line), env)
    except click.ClickException as exc:  # a value the option does not take (``--body eight``)
        raise RuleViolation("CORE-IMPORT", unusable(data, line, exc.format_message())) from None
    finally:
        env.in_run, env.parse_only = was
    decision.refuse_case_twin(trial, parsed.command)
    events = systems.decide(trial, parsed.command)
    decision.trace(trial, enumerate(events, trial.seq + 1), checked=True)
    trial.seq += len(events)
    record = state_json(trial, systems.get(trial.system).to_json)["characters"][data["name"]]
    check_carried(trial.system, data, record, parsed.words)
    return line


def _characters(text: str) -> list[dict[str, Any]]:
    """The clipboard characters in ``text``: the data of each ``{"kind": "character", …}``."""
    try:
        found = json.loads(text)
        items = found if isinstance(found, list) else [found]
    except json.JSONDecodeError:
        try:
            items = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise CliError(
                msg(
                    "core.ccfolia.not_json",
                    "not ccfolia's clipboard JSON: {reason}",
                    reason=str(exc),
                ),
                2,
            ) from None
    out = []
    for item in items:
        if not isinstance(item, dict) or item.get("kind") != "character":
            raise CliError(
                msg(
                    "core.ccfolia.not_character",
                    'not a ccfolia character ({{"kind": "character", …}})',
                ),
                2,
            )
        data = item.get("data")
        out.append(data if isinstance(data, dict) else {})
    return out


COMMANDS = [import_ccfolia]
