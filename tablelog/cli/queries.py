"""Read-only commands: state, log, history, replay."""

from __future__ import annotations

import json
from typing import Any

import click

from tablelog.actions import no_event
from tablelog.cli.core import (
    MAX_SEQ,
    at_text,
    change_lines,
    domain_errors,
    echo,
    field_text,
    field_word,
    reader,
    session_of,
    warn_torn,
)
from tablelog.rules.core import RuleViolation, Unknown
from tablelog.text import Msg, msg

__all__ = ["COMMANDS", "no_name"]


def no_name(name: str) -> Msg:
    """UNKNOWN-NAME's ``no character or item named 'NAME'``."""
    return msg("core.name.unknown", "no character or item named {name!r}", name=name)


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=False)


@click.command()
@click.argument("name", required=False)
@click.option(
    "--at",
    "at_seq",
    type=click.IntRange(0, MAX_SEQ),
    default=None,
    help="The state right after event SEQ was appended.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@domain_errors
def state(ctx: click.Context, name: str | None, at_seq: int | None, as_json: bool) -> None:
    """Show the current (or a past) state of the session, or of one character or item.

    Example: tablelog state longsword-1 --json
    """
    from tablelog import systems
    from tablelog.projections.history import state_json

    session = session_of(ctx)
    folded = session.state(at_seq)
    if at_seq is not None:
        _check_seq(at_seq, session.state().seq)
    warn_torn(session)
    data = state_json(folded, systems.get(folded.system).to_json)
    if name is not None:
        found = data["characters"].get(name, data["items"].get(name))
        if found is None and name in data.get("retired", {}):
            from tablelog.projections.core import retired_text

            raise RuleViolation("CORE-RETIRED", retired_text(name, data["retired"][name]))
        if found is None:
            raise RuleViolation("UNKNOWN-NAME", no_name(name), Unknown("name", name))
        data = found
    if as_json:
        echo(_dump(data))
    else:
        system = folded.system
        for line in _render_entity(name, data, system) if name else _render_state(data):
            echo(line)


def _check_seq(seq: int | None, last: int) -> None:

    if seq is not None and seq > last:
        raise RuleViolation("CORE-SEQ", no_event(seq, last))


def _render_entity(name: str, data: dict[str, Any], system: str, indent: str = "") -> list[str]:
    words = reader()
    lines = [f"{indent}{name}"]
    lines += [
        f"{indent}  {field_word(system, key, words)}: {field_text(system, key, value, data)}"
        for key, value in data.items()
    ]
    return lines


def session_line(data: dict[str, Any]) -> str:
    """Return the first line of ``state`` and ``status``: ``pf2e session 'Downtime', at #12``."""
    title = data.get("title")
    return reader()(
        msg(
            "core.state.session",
            "{system} session {title!r}, at #{seq}",
            system=data["system"],
            title=title or msg("core.state.untitled", "(untitled)"),
            seq=data["seq"],
        )
    )


def _render_state(data: dict[str, Any]) -> list[str]:
    words = reader()
    system = data["system"]

    def kind(section: str) -> str:
        return section if words.lang == "en" else words.term("core.kind", section)

    lines = [session_line(data)]
    if data.get("clock"):
        lines.append(f"{field_word(system, 'clock', words)}: {_value(system, 'clock', data)}")
    for section in ("characters", "items"):
        if data.get(section):
            lines.append(f"{kind(section)}:")
            for key, value in data[section].items():
                lines += _render_entity(key, value, system, "  ")
    if data.get("deck"):
        lines.append(f"{field_word(system, 'deck', words)}: {_value(system, 'deck', data)}")
    for key, value in data.items():  # a system's own keys (magicpunk's round and briefing)
        label = field_word(system, key, words)
        if key not in _SHOWN and isinstance(value, dict):
            lines += [
                f"{label}:",
                *(f"  {field_word(system, k, words)}: {_value(system, k, value)}" for k in value),
            ]
        elif key not in _SHOWN:
            lines.append(f"{label}: {_value(system, key, data)}")
    return lines


def _value(system: str, key: str, record: dict[str, Any]) -> str:
    """``record[key]`` as the reader reads it (JSON in English, the glossary's words in
    another language: :mod:`tablelog.cli.values`)."""
    from tablelog.cli.values import value_text

    return value_text(system, key, record[key], reader())


_SHOWN = {"system", "title", "seq", "clock", "characters", "items", "deck"}


@click.command("log")
@click.option("--entity", metavar="NAME", help="Only events that involve NAME.")
@click.option("--all", "show_all", is_flag=True, help="Also show undone events, marked.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.option("--tail", type=click.IntRange(1, MAX_SEQ), help="Only the last N events listed.")
@click.option("--actor", "by_actor", metavar="NAME", help="Only events logged by NAME.")
@click.option("--since", type=click.IntRange(0, MAX_SEQ), help="Only events after event SEQ.")
@click.pass_context
@domain_errors
def log_(
    ctx: click.Context,
    entity: str | None,
    show_all: bool,
    as_json: bool,
    tail: int | None,
    by_actor: str | None,
    since: int | None,
) -> None:
    """List the events, oldest first. Example: tablelog log --entity Valeros --tail 5"""
    import types

    from tablelog.cli.reading import check_actor, log_window
    from tablelog.exports.jsonl import decoded, dump, record_line
    from tablelog.projections.core import undone_after

    session = session_of(ctx)
    words = reader()
    undone = undone_after(session.markers())
    _check_seq(since, session.state().seq)
    named, actors = False, set()  # whether --entity names anything in the log at all; who logged

    def listed() -> Any:
        nonlocal named
        for env, event in decoded(session):
            actors.add(env["actor"])
            if entity and entity not in event.entities():
                continue
            named = True
            if show_all or env["seq"] not in undone:
                yield types.SimpleNamespace(seq=env["seq"], actor=env["actor"], env=env), event

    for rec, event in log_window(listed(), by_actor, since, tail):
        env, seq = rec.env, rec.seq
        is_undone = seq in undone
        if as_json:  # every envelope key as stored (prev in hex): what `export` writes
            echo(dump(record_line(env, is_undone)))
        else:
            mark = f" {words(UNDONE)}" if is_undone else ""
            at = at_text(env["at"])
            echo(f"#{seq}{mark} {at} {env['actor']} {env['type']} {words.event(event)}")
    warn_torn(session)
    if by_actor is not None:
        check_actor(by_actor, actors)
    if entity and not named:
        from tablelog.rules.core import RuleViolation

        raise RuleViolation(
            "UNKNOWN-NAME",
            msg("core.log.no_entity", "no event names a character or item {name!r}", name=entity),
            Unknown("name", entity),
        )


@click.command()
@click.argument("name")
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Also undone events (marked), and the undo/redo markers that changed NAME.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.option(
    "--field",
    "fields",
    multiple=True,
    metavar="FIELD",
    help="Only the changes of FIELD (hp, effects.attack …); repeatable.",
)
@click.pass_context
@domain_errors
def history(
    ctx: click.Context, name: str, show_all: bool, as_json: bool, fields: tuple[str, ...]
) -> None:
    """Show how NAME reached its state: each change, old -> new, with the rule behind it;
    notes about NAME (note --about) among them.

    Example: tablelog history Kiritsugu --field hp
    """
    from tablelog.projections import history as read_models
    from tablelog.projections.core import undone_after

    session = session_of(ctx)
    session.state()  # a log that does not replay is exit 3 here too, not a rule's refusal
    undone = undone_after(session.markers())
    if show_all:
        entries = list(
            read_models.touching(
                read_models.narrate(session.blank_state(), session.events(), undone, session.state),
                name,
            )
        )
    else:
        entries = list(read_models.history(session.blank_state(), session.events(), undone, name))
    if not entries and session.state().entity(name) is None:
        raise RuleViolation("UNKNOWN-NAME", no_name(name), Unknown("name", name))
    if fields:
        from tablelog.cli.reading import only_fields

        entries = only_fields(entries, fields, name)
    system = session.header.system
    for entry in entries:
        _echo_entry(entry, as_json, explain=True, system=system)
    warn_torn(session)


@click.command()
@click.option(
    "--until", type=click.IntRange(0, MAX_SEQ), default=None, help="Stop after event SEQ."
)
@click.pass_context
@domain_errors
def replay(ctx: click.Context, until: int | None) -> None:
    """Narrate the session record by record with the values each changed when it was appended
    (an undo or redo with what it took back or restored); ends on the state `state --at` shows.

    Example: tablelog replay --until 20
    """
    from tablelog.projections import history as read_models
    from tablelog.projections.core import undone_after

    session = session_of(ctx)
    _check_seq(until, session.state().seq)
    if until is not None:
        until = session.command_end(until)
        session.state(until)  # a prefix that cannot be read: exit 3, as for `state --at`
    entries = read_models.replay(
        session.blank_state(),
        session.events(until),
        undone_after(session.markers(until)),
        session.state,
    )
    system = session.header.system
    for entry in entries:
        _echo_entry(entry, False, explain=False, system=system)
    warn_torn(session)


UNDONE = msg("core.log.undone", "[undone]")
"""The mark of an undone event in ``log``, ``history`` and ``replay``."""


def _echo_entry(entry: Any, as_json: bool, explain: bool, system: str | None = None) -> None:
    words = reader()
    if as_json:
        echo(_dump(entry.to_json(words)))
        return
    mark = f" {words(UNDONE)}" if entry.undone else ""
    at = at_text(entry.at)
    echo(f"#{entry.seq}{mark} {at} {entry.actor} {entry.event.TYPE} {words.event(entry.event)}")
    # An audit trail lists every field of its one record; a replay groups whole new records.
    lines = change_lines(
        entry.changes,
        group_records=not explain,
        system=system,
        names=entry.event.entities(),
        within=explain,
    )
    for line in lines:
        echo(f"    {line}")
    if explain:
        for line in words.explain(entry.event):
            echo(f"    · {line}")


COMMANDS = [state, log_, history, replay]
