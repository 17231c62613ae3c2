"""Shared CLI machinery: the context object, error mapping, the ``appending`` decorator, output.

Command callbacks stay thin: parse options -> build a command -> :func:`execute` -> print.
Exit status (SPEC): 0 done; 1 refused by a rule (or verify found a problem); 2 usage error;
3 the log cannot be used.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import click

from tablelog import lang
from tablelog.cli.values import fmt_value
from tablelog.lang import Words
from tablelog.refusals import Refused
from tablelog.rules import glossary
from tablelog.rules.core import RuleViolation, escape_text
from tablelog.systems.declaration import parsed
from tablelog.text import Listed, Msg, Shown, Term, english, msg

__all__ = [
    "Env",
    "Parsed",
    "CliError",
    "appending",
    "perform",
    "dispatch",
    "parse",
    "reader",
    "session_of",
    "warn_torn",
    "at_text",
    "field_word",
    "field_path",
    "echo_outcome",
    "echo_json",
    "change_lines",
    "fmt_value",
    "field_text",
    "shown_fields",
    "domain_errors",
    "echo",
    "command_words",
    "MAX_WORDS",
    "COMMAND_LINE_ONLY",
    "MAX_SEQ",
    "command_line_only",
    "usage_message",
    "parsed",
]

# The most words one command line may have. click's parser takes its arguments off the front of
# a list (quadratic in their number): beyond this a line is refused before it is parsed, so a
# line of any length costs time linear in its characters.
MAX_WORDS = 10_000


@attrs.define
class Env:
    """What every command callback gets as ``ctx.obj``.

    Attributes:
        log_path: The ``--log`` value.
        actor: Who is logging (``--actor``).
        in_run: A line of ``run`` or of the shell (its log and actor stay).
        dry_run: A ``run --dry-run``: the log a script creates is taken back at the end.
        as_json: A ``run --json``: every appending line prints its JSON objects.
        words: The reader's language (:class:`tablelog.lang.Words`).
        parse_only: An appending line is parsed into its :class:`Parsed` and handed back, not
            run (a caller that runs the records itself: the benchmarks' campaigns).
        zone: The reader's time zone (``--tz``, else ``$TZ``: :mod:`tablelog.lang.times`), or
            None: UTC, times as recorded.
    """

    log_path: str
    actor: str
    in_run: bool = False
    dry_run: bool = False
    as_json: bool = False
    _session: Any = None
    words: Any = None
    parse_only: bool = False
    zone: Any = None

    def session(self) -> Any:
        """Return the open :class:`~tablelog.session.Session` (opened on first use)."""
        if self._session is None:
            from tablelog.session import Session
            from tablelog.store.keys import signer

            self._session = Session(self.log_path, self.actor)
            self._session.log.signer = signer(self.actor)  # None: this actor has no key
            self._session.header  # noqa: B018 - fail early (exit 3) when the log is unusable
        return self._session

    def forget_session(self) -> None:
        self._session = None


@attrs.frozen
class Parsed:
    """A command line parsed into a command record: what every face runs (the CLI, a script,
    the shell, the server), and how.

    Attributes:
        command: The command record (``EtchRune(...)``, ``Undo(...)``).
        words: The command's words as typed (``"pf2e etch"``): what messages call it.
        dry_run: ``--dry-run`` was given.
        request_id: ``--request-id``, or None.
        as_json: ``--json`` was given.
        given: The options of the command line that only the command line takes
            (``--dry-run``, ``--json``, ``--request-id`` as typed): the server refuses them.
    """

    command: object
    words: str
    dry_run: bool = False
    request_id: str | None = None
    as_json: bool = False
    given: tuple[str, ...] = ()


MAX_SEQ = 2**63 - 1
"""The largest seq, count or seed an option takes: the largest whole number a record holds (a
msgpack int64); every integer option is bounded (a larger one is a usage error, exit 2)."""

# Commands that run only from the command line: not as a `run` line, nor in the shell (a server
# or a shell runs until stopped, in its own event loop); the shell's help leaves them out.
COMMAND_LINE_ONLY = frozenset({"serve", "shell"})


def command_line_only(ctx: click.Context) -> None:
    """Refuse a command of :data:`COMMAND_LINE_ONLY` given as a script or shell line.

    Raises:
        CliError: exit 2, ``NAME runs from the command line, not from a script or the shell``.
    """
    env = ctx.find_object(Env)
    if env is not None and env.in_run:
        raise CliError(
            msg(
                "core.line_only.refused",
                "{command} runs from the command line, not from a script or the shell",
                command=ctx.info_name,
            ),
            2,
        )


class CliError(click.ClickException):
    """An error shown as ``error: MESSAGE`` with a given exit status.

    Args:
        message: The message (a sentence as data, rendered in the reader's language).
        exit_code: The SPEC's exit status.
        refusal: The rule's refusal it shows (exit 1), with the state it was decided on's
            suggestions (:mod:`tablelog.refusals`).
        where: What it happened in (``script line 3``), shown after the rule ID.
    """

    def __init__(
        self,
        message: Msg | str,
        exit_code: int,
        refusal: Refused | None = None,
        where: Msg | str = "",
    ) -> None:
        self.text = message
        self.refusal = refusal
        self.where = where
        super().__init__(english(self.sentence()))
        # click declares exit_code on the class; each error here carries its own SPEC status.
        self.exit_code = exit_code  # type: ignore[misc]

    def sentence(self) -> Msg | str:
        """The whole message as one sentence: ``RULE-ID: WHERE: message; did you mean …``."""
        if self.refusal is not None:
            return self.refusal.sentence(self.where)
        if self.where:
            return msg(
                "core.error.where", "{where}: {message}", where=self.where, message=self.text
            )
        return self.text

    def format_message(self) -> str:
        return str(reader()(self.sentence()))

    def show(self, file: Any = None) -> None:
        echo(error_line(self.format_message()), err=True)


def error_line(message: Msg | str) -> str:
    """Return ``error: MESSAGE`` in the reader's words (how every face's error line reads,
    SPEC.md: ``error: RULE-ID: message``): the marker is a word a person reads (エラー:,
    오류:), the rule ID after it is the same in every language, and so is the exit status, for
    scripts that read stderr."""
    return reader()(msg("core.error.line", "error: {message}", message=message))


def domain_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn rule, log and system errors raised by ``fn`` into :class:`CliError`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from tablelog.store.errors import message_of
        from tablelog.store.log import LogError
        from tablelog.systems import SystemUnavailable

        try:
            return fn(*args, **kwargs)
        except RuleViolation as exc:
            raise CliError(exc.msg, 1, Refused.of(exc, _open_state())) from None
        except (LogError, SystemUnavailable) as exc:
            raise CliError(message_of(exc), 3) from None

    return wrapper


def _open_state() -> Any:
    """Return the state of the session this command already opened, or None (never opens one:
    a catalogue command has no log)."""
    ctx = click.get_current_context(silent=True)
    env = ctx.find_object(Env) if ctx is not None else None
    session = getattr(env, "_session", None)
    if session is None:
        return None
    try:
        return session.state()
    except Exception:  # noqa: BLE001 - a suggestion never hides the refusal it decorates
        return None


def reader() -> Words:
    """Return the reader's :class:`~tablelog.lang.Words` of this process (the CLI has one)."""
    return lang.reader()


def session_of(ctx: click.Context) -> Any:
    """Return the session of the command's context (opening the log on first use)."""
    env: Env = ctx.find_object(Env)  # type: ignore[assignment]
    return env.session()


def warn_torn(session: Any) -> None:
    """Warn on stderr that a torn last record (a crash mid-append) is ignored, or one another
    writer is still writing is not shown; every command that reads a log calls it after
    folding (the scan finds the tear)."""
    if session.torn_at is not None:
        echo(reader()(torn_warning(session.torn_at)), err=True)
    if session.in_flight is not None:
        echo(
            reader()(
                msg(
                    "core.warning.in_flight",
                    "warning: the record at byte {offset} is still being written by "
                    "another writer (it held the lock past the timeout); shown without it",
                    offset=session.in_flight,
                )
            ),
            err=True,
        )


def torn_warning(offset: int) -> Msg:
    """The warning of a torn last record at byte ``offset`` (ignored by the fold)."""
    return msg(
        "core.warning.torn",
        "warning: torn last record at byte {offset} (a crash mid-append) is ignored; run: "
        "tablelog verify --repair",
        offset=offset,
    )


def at_text(at: str | None) -> str | None:
    """Return a recorded time as the reader reads it: in their time zone (``--tz``, ``$TZ``),
    ISO 8601 with the offset; as recorded (UTC, ``…Z``) without one."""
    ctx = click.get_current_context(silent=True)
    env = ctx.find_object(Env) if ctx is not None else None
    zone = env.zone if env is not None else None
    if zone is None:
        return at
    from tablelog.lang.times import local

    return local(at, zone)


def _request_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Check a ``--request-id`` (SERVER.md §2): 1-64 characters of ``[A-Za-z0-9._:-]``."""
    from tablelog.store.format import is_request_id

    if value is not None and not is_request_id(value):
        raise click.BadParameter(
            lang.say(
                msg(
                    "core.request_id.bad",
                    "{value!r} is not 1-64 characters of A-Z a-z 0-9 . _ : -",
                    value=value,
                )
            )
        )
    return value


APPENDS = "__tablelog_appends__"
"""The attribute :func:`appending` sets on a command's callback: the command appends (the
server's grammar takes only such commands)."""

_LINE_ONLY = ("dry_run", "as_json", "request_id")


def appending(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a command as one that appends: add ``--dry-run``, ``--json`` and ``--request-id``,
    pass the click context first, and turn the command record ``fn`` returns into a
    :class:`Parsed` (the command callback's value: the face that parsed it runs it)."""

    @click.option(
        "--dry-run", is_flag=True, help="Show the events it would append; append nothing."
    )
    @click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="One JSON object per event: history --json's keys, with the event's data and "
        "whether it is appended.",
    )
    @click.option(
        "--request-id",
        callback=_request_id,
        metavar="ID",
        help="At most once: if a command with this id is in the log already, append nothing "
        "and show that command's result (1-64 of A-Z a-z 0-9 . _ : -).",
    )
    @click.pass_context  # type: ignore[arg-type]  # wraps() gives it fn's signature, not ctx first
    @functools.wraps(fn)
    def wrapper(
        ctx: click.Context,
        *args: Any,
        dry_run: bool,
        as_json: bool,
        request_id: str | None,
        **kwargs: Any,
    ) -> Parsed:
        command = domain_errors(fn)(ctx, *args, **kwargs)
        if ctx.meta.get("tablelog.force") and hasattr(command, "force"):
            command = attrs.evolve(command, force=True)
        given = tuple(
            f"--{name.replace('_', '-')}".replace("--as-json", "--json")
            for name in _LINE_ONLY
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
        )
        words = ctx.command_path.partition(" ")[2]
        return Parsed(command, words, dry_run, request_id, as_json, given)

    setattr(wrapper, APPENDS, True)
    return wrapper


def perform(env: Env, parsed: Parsed) -> Any:
    """Run a parsed command through the env's session, print its events and changes (or its
    JSON), and return the outcome: the CLI's *execute → render text*.

    Raises:
        CliError: exit 1 on a refused command, 3 when the log cannot be used.
    """
    session = domain_errors(env.session)()
    outcome = domain_errors(session.execute)(
        parsed.command, dry_run=parsed.dry_run, request_id=parsed.request_id
    )
    if not outcome.written and session.in_flight is not None:  # a dry run without it
        warn_torn(session)
    if parsed.as_json or env.as_json:
        echo_json(outcome, env.actor, dry_run=env.dry_run)
        return outcome
    if outcome.repeated:
        first, last = outcome.applied[0].seq, outcome.applied[-1].seq
        seqs = f"#{first}" if first == last else f"#{first}-#{last}"
        echo(
            reader()(
                msg(
                    "core.request.repeated",
                    "request {request_id} was appended already as {seqs}: nothing appended",
                    request_id=parsed.request_id,
                    seqs=seqs,
                )
            )
        )
    echo_outcome(outcome, session.header.system)
    return outcome


def dispatch(env: Env | None, value: Any) -> int:
    """Run what a command line's callback returned: a :class:`Parsed` command is performed
    (:func:`perform`); anything else was done by the callback. Returns the exit status."""
    if isinstance(value, Parsed):
        assert env is not None  # the root callback made it before any command ran
        if env.parse_only:
            return value  # type: ignore[return-value]  # the caller runs it
        perform(env, value)
        return 0
    return value if isinstance(value, int) else 0


def parse(root: click.Command, argv: list[str], obj: Any, **settings: Any) -> Any:
    """Parse ``argv`` with the click tree ``root`` (help, completion and usage errors are
    click's): the one parser of every face. An appending command's callback returns its
    :class:`Parsed`; a read command's callback does its work and returns None.

    Args:
        root: The grammar: the CLI's ``tablelog`` group, or the server's (commands only).
        argv: The words of the line.
        obj: The context object (:class:`Env` on the command line).
        settings: Context settings (the server's: no ``--help``).

    Raises:
        click.ClickException: a usage error, or a :class:`CliError`.
    """
    return root.main(args=argv, prog_name="tablelog", standalone_mode=False, obj=obj, **settings)


def echo(line: str, err: bool = False) -> None:
    """Print one output line with its control characters escaped (:func:`escape_text`).

    Everything a command prints from a log is data from others (a note, an actor, a title, a
    name): it must never steer the reader's terminal, on a terminal or not. Every line that
    can hold a string from a log is printed through here, one line at a time.
    """
    click.echo(escape_text(line), err=err)


def show_escaped(exc: click.ClickException) -> None:
    """Print a click error (a usage error shows the usage and the bad value, a path or an
    argument given by anyone) with each line's control characters escaped, as :func:`echo`."""
    import io

    shown = io.StringIO()
    exc.show(file=shown)
    for line in shown.getvalue().splitlines():
        echo(line, err=True)


def echo_outcome(outcome: Any, system: str | None = None) -> None:
    """Print one line per event (``#12 pf2e.RuneEtched …``) and the values it changed (their
    fields in the reader's words: ``system``'s glossary; the values a ``system`` declares
    ``shown`` as the reader's language writes them, :func:`change_lines`)."""
    words = reader()
    if not outcome.written and outcome.applied and not outcome.repeated:
        echo(words(msg("core.dry_run.nothing", "dry run: nothing appended")))
    for applied in outcome.applied:
        echo(f"#{applied.seq} {applied.event.TYPE} {words.event(applied.event)}")
        names = applied.event.entities()
        for line in change_lines(applied.changes, system=system, names=names):
            echo(f"    {line}")


def echo_json(outcome: Any, actor: str, dry_run: bool = False) -> None:
    """Print one JSON object per event of ``outcome`` (``--json`` on an appending command).

    Each object has ``history --json``'s keys (``seq, at, actor, type, event, undone,
    changes [{field, old, new}], explain``), with ``changes`` naming whole paths
    (``characters.Valeros.spent_gp``), plus ``data``, the event's recorded fields as
    ``log --json`` shows them, and ``appended`` (false on a dry run). ``at`` is null when
    nothing was appended by this command (``dry_run``: a line of ``run --dry-run``, which a
    buffer held and dropped).
    """
    from tablelog.events.codec import to_record
    from tablelog.exports.jsonl import dump
    from tablelog.projections.history import Entry

    appended = (outcome.written or outcome.repeated) and not dry_run
    at = outcome.at if not dry_run else None
    for applied in outcome.applied:
        line = Entry(applied.seq, at, actor, applied.event, applied.changes).to_json(reader())
        line.update(data=to_record(applied.event)[2], appended=appended)
        echo(dump(line))


def change_lines(
    changes: list[tuple[str, Any, Any]],
    group_records: bool = True,
    system: str | None = None,
    names: tuple[str, ...] | list[str] = (),
    within: bool = False,
) -> list[str]:
    """Format changes as ``path: old -> new``, compactly, the paths in the reader's words
    (:func:`field_path`).

    A list that only gained or lost elements shows them (``formulas: +flaming``); with
    ``group_records``, a character or item created or removed shows on one line. A field the
    log's ``system`` declares ``shown`` shows its values as the reader's language writes them
    (a pf2e item's name).

    Args:
        changes: ``(path, old, new)``.
        group_records: Show a record created or removed whole on one line.
        system: The log's system (whose glossary names its fields), None: core's.
        names: The characters and items the event names (a name may hold a dot).
        within: The paths are inside one record (``history``: ``hp``, ``effects.attack``).
    """
    words = reader()
    grouped = _record_groups(changes, words, system, names) if group_records else {}
    lines, shown = [], set()
    for path, old, new in changes:
        head = path.rpartition(".")[0]
        if head in grouped:
            if head not in shown:
                shown.add(head)
                lines.append(grouped[head])
            continue
        old, new = (_shown(system, path, v, names, within) for v in (old, new))
        said = _change_text(old, new, functools.partial(_said, system, path, words=words))
        lines.append(f"{field_path(path, system, words, names, within)}: {said}")
    return lines


def field_word(system: str | None, key: str, words: Words | None = None) -> str:
    """Return a state field's name as the reader reads it: the JSON key itself in English
    (``spent_gp``), the system's glossary label (``Term("<system>.field", key)``) in another
    language."""
    words = words or reader()
    if words.lang == "en":
        return key
    head, bracket, index = key.partition("[")
    kind = f"{system or 'core'}.field"
    if head not in glossary.entries(kind) and head.replace("-", "_") in glossary.entries(kind):
        head = head.replace("-", "_")  # a key as typed: fate's mods (hp-per-tile)
    if head not in glossary.entries(kind) and head in glossary.entries("core.field"):
        kind = "core.field"  # a field every system has (magicpunk's clock and deck)
    shown = words.term(kind, head)
    return f"{shown}{bracket}{index}"


def field_path(
    path: str,
    system: str | None,
    words: Words | None = None,
    names: tuple[str, ...] | list[str] = (),
    within: bool = False,
) -> str:
    """Return a change's path (``characters.Valeros.spent_gp``) in the reader's words: in
    English the path itself; in another language the entity kind (``Term("core.kind",
    "characters")``), the name as it is, and each field through :func:`field_word`.

    Args:
        path: The path as ``--json`` names it.
        system: The log's system.
        words: The reader (default: the process's).
        names: Names the path may hold (the longest that fits is the entity, dots and all).
        within: ``path`` is inside one record (no kind and name).
    """
    words = words or reader()
    if words.lang == "en":
        return path
    if within:
        return _fields_text(path, system, words)
    section, _, rest = path.partition(".")
    if section not in ("characters", "items") or not rest:
        return _fields_text(path, system, words)
    name, field = _entity_split(rest, names)
    kind = Term("core.kind", section)
    if not field:
        return words(msg("core.path.record", "{kind}.{name}", kind=kind, name=name))
    return words(
        msg(
            "core.path.field",
            "{kind}.{name}.{field}",
            kind=kind,
            name=name,
            field=_fields_text(field, system, words),
        )
    )


def _entity_split(rest: str, names: tuple[str, ...] | list[str]) -> tuple[str, str]:
    for name in sorted(names, key=len, reverse=True):
        if rest == name or rest.startswith(f"{name}."):
            return name, rest[len(name) + 1 :]
    name, _, field = rest.partition(".")
    return name, field


def _fields_text(path: str, system: str | None, words: Words) -> str:
    return ".".join(field_word(system, part, words) for part in path.split("."))


def shown_fields(system: str | None) -> Mapping[str, Callable[[Any, Any], Any]]:
    """Return the fields ``system`` shows its own way in text views (its declaration's
    ``shown``; none for no system or one this installation does not have)."""
    if system is None:
        return {}
    from tablelog import systems

    try:
        return systems.get(system).shown
    except systems.SystemUnavailable:
        return {}


def field_text(system: str | None, field: str, value: Any, record: Any = None) -> str:
    """Return a character's or item's field value as a text view shows it: as the reader's
    language writes it for a field the system declares ``shown`` (``record``: the whole
    record, where the view has it), else :func:`fmt_value`."""
    present = shown_fields(system).get(field)
    words = reader()
    if words.lang == "en":  # English: the value as it is
        return fmt_value(value)
    if present is None or value is None:
        from tablelog.cli.values import value_text

        return value_text(system, field, value, words)
    made = present(value, record)
    return words.value(made) if isinstance(made, Shown | Msg) else fmt_value(made)


def _shown(
    system: str | None,
    path: str,
    value: Any,
    names: tuple[str, ...] | list[str] = (),
    within: bool = False,
) -> Any:
    """A change's value at ``path`` (``items.NAME.FIELD``, or ``FIELD`` within one record's
    history) as its system shows it: a record's own field only, never a nested one."""
    if value is None or not shown_fields(system):
        return value
    if within:
        field = path
    else:
        section, _, rest = path.partition(".")
        if section not in ("characters", "items") or not rest:
            return value
        field = _entity_split(rest, names)[1]
    if field not in shown_fields(system):
        return value
    return field_text(system, field, value)


def _record_groups(
    changes: list[tuple[str, Any, Any]],
    words: Words,
    system: str | None,
    names: tuple[str, ...] | list[str],
) -> dict[str, str]:
    """Map ``section.name`` to one line for records created or removed whole (4+ fields)."""
    created: dict[str, list[str]] = {}
    removed: dict[str, int] = {}
    for path, old, new in changes:
        head, _, field = path.rpartition(".")
        if head.count(".") != 1 or "[" in head:
            continue
        if old is None:
            shown = _said(system, path, _shown(system, path, new, names), words)
            created.setdefault(head, []).append(f"{field_word(system, field, words)}={shown}")
        elif new is None:
            removed[head] = removed.get(head, 0) + 1
    lines = {
        h: words(
            msg(
                "core.change.created",
                "{record}: new ({fields})",
                record=field_path(h, system, words, names),
                fields=Listed(tuple(f), "comma"),
            )
        )
        for h, f in created.items()
        if len(f) >= 4
    }
    lines.update(
        {
            h: words(
                msg(
                    "core.change.removed",
                    "{record}: removed",
                    record=field_path(h, system, words, names),
                )
            )
            for h, n in removed.items()
            if n >= 4
        }
    )
    return lines


def _said(system: str | None, path: str, value: Any, words: Words) -> str:
    """A change's value as the reader reads it: as JSON writes it in English, through the
    glossary in another language (:mod:`tablelog.cli.values`), the field being the path's
    last part (``characters.Amy.five`` -> ``five``)."""
    if words.lang == "en":
        return fmt_value(value)
    from tablelog.cli.values import value_text

    field = path.rpartition(".")[2].partition("[")[0]
    return value_text(system, field, value, words)


def _change_text(old: Any, new: Any, said: Callable[[Any], str] | None = None) -> str:
    said = said or fmt_value
    if isinstance(old, list) and isinstance(new, list):
        gained, lost = _list_delta(old, new)
        if gained is not None and (gained or lost):
            return " ".join([*(f"+{said(x)}" for x in gained), *(f"-{said(x)}" for x in lost)])
    return f"{said(old)} -> {said(new)}"


def _list_delta(old: list[Any], new: list[Any]) -> tuple[list[Any] | None, list[Any]]:
    """Return (gained, lost) when ``new`` keeps ``old``'s common elements in order, else None."""
    remaining = list(new)
    lost = []
    for x in old:
        if x in remaining:
            remaining.remove(x)
        else:
            lost.append(x)
    kept_old = [x for x in old if x not in lost]
    gained = list(remaining)
    kept_new = list(new)
    for x in gained:
        kept_new.remove(x)
    if kept_old != kept_new or len(new) > 100:
        return None, []
    return gained, lost


def command_words(line: str) -> list[str]:
    """Split a command line into words as ``shlex.split(line, comments=True)`` does.

    POSIX quoting: ``'…'`` literal, ``"…"`` where a backslash escapes only ``"`` and a
    backslash, a backslash before any character outside quotes; ``#`` outside quotes starts a
    comment. Unlike shlex, whose words grow a character at a time (quadratic in a word's
    length), the work is linear in the line's length, and at most :data:`MAX_WORDS` + 1
    words are read.

    Raises:
        ValueError: unbalanced quotes, a trailing backslash, or more than :data:`MAX_WORDS`
            words.
    """
    words: list[str] = []
    parts: list[str] | None = None  # the word being read (None: between words)
    pos = 0
    while pos < len(line) and len(words) <= MAX_WORDS:
        match = _WORD_PART.match(line, pos)
        if match is None:  # an unclosed quote, or a backslash at the end (outside or in "…")
            rest = line[pos:] if line[pos] == "\\" else line[pos + 1 :]
            odd = (len(rest) - len(rest.rstrip("\\"))) % 2 and line[pos] != "'"
            raise ValueError(
                lang.say(
                    msg("core.line.no_escaped", "No escaped character")
                    if odd
                    else msg("core.line.no_closing", "No closing quotation")
                )
            )
        pos = match.end()
        kind = match.lastgroup or ""
        if kind in ("space", "comment"):
            if parts is not None:
                words.append("".join(parts))
                parts = None
            if kind == "comment":
                break
            continue
        parts = [] if parts is None else parts
        text = match.group(kind)
        parts.append(_DQ_ESCAPE.sub(r"\1", text) if kind == "double" else text)
    if parts is not None:
        words.append("".join(parts))
    if len(words) > MAX_WORDS:
        raise ValueError(too_many_words())
    return words


_WORD_PART = re.compile(
    r"""(?P<space>[ \t\r\n]+)|(?P<comment>\#.*)|(?P<plain>[^ \t\r\n'"\\\#]+)|\\(?P<escaped>.)"""
    r"""|'(?P<single>[^']*)'|"(?P<double>[^"\\]*(?:\\.[^"\\]*)*)\"""",
    re.DOTALL,
)
_DQ_ESCAPE = re.compile(r"""\\([\\"])""")


def too_many_words() -> str:
    """Return the refusal of a line with more than :data:`MAX_WORDS` words."""
    return lang.say(
        msg(
            "core.line.too_many_words",
            "more than {n} words on one command line (a text with spaces goes in quotes: it "
            "is one word)",
            n=f"{MAX_WORDS:,}",
        )
    )


def usage_message(exc: click.UsageError) -> str:
    """Return a usage error as one line naming the help to read: ``No such option '--bogus'.
    (see: tablelog magicpunk draw --help)`` (the CLI's words, and the API's)."""
    where = exc.ctx.command_path if exc.ctx is not None else "tablelog"
    return lang.say(
        msg(
            "core.usage.see_help",
            "{message} (see: {command} --help)",
            message=exc.format_message(),
            command=where,
        )
    )
