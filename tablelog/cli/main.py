"""The ``tablelog`` command: global options, lazy system groups, the core commands.

Usage: ``tablelog [--log PATH] [--actor NAME] COMMAND …`` (see ``tablelog --help``).
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import click

from tablelog import systems
from tablelog.cli.core import (
    MAX_SEQ,
    CliError,
    Env,
    appending,
    dispatch,
    domain_errors,
    echo,
    error_line,
    show_escaped,
    usage_message,
)
from tablelog.cli.help import speak, translate
from tablelog.cli.wrapping import HelpContext, wide_help
from tablelog.lang import LANGUAGES, Words, choose, reader, say, set_reader
from tablelog.text import Listed, msg

__all__ = ["cli", "main"]


# Commands that live in their own modules, imported only when used (fast start-up).
LAZY_COMMANDS = {
    "state": "tablelog.cli.queries",
    "log": "tablelog.cli.queries",
    "history": "tablelog.cli.queries",
    "replay": "tablelog.cli.queries",
    "run": "tablelog.cli.scripts",
    "verify": "tablelog.cli.scripts",
    "serve": "tablelog.server.command",  # the server is a face of its own, above the CLI
    "discord": "tablelog.server.discord.command",  # the server's Discord commands
    "copy": "tablelog.cli.stores",
    "key": "tablelog.cli.keys",
    "export": "tablelog.cli.exports",
    "import": "tablelog.cli.exports",
    "import-ccfolia": "tablelog.cli.interop",
    "report": "tablelog.cli.exports",
    "rules": "tablelog.cli.rules",
    "status": "tablelog.cli.status",
    "shell": "tablelog.cli.shell",
}


class LazyGroup(click.Group):
    """A group whose system groups and read commands are imported only when used; its help,
    and every command's it returns, is wrapped by display width (tablelog/cli/wrapping.py)."""

    context_class = HelpContext

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Refuse a command line of more than MAX_WORDS words before click parses it."""
        from tablelog.cli.core import MAX_WORDS, too_many_words

        if len(args) > MAX_WORDS:
            raise click.UsageError(too_many_words(), ctx)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command line: parse it (the command's callback returns the command record
        of an appending command), then execute and render it (:func:`dispatch`)."""
        try:
            value = super().invoke(ctx)  # the root callback makes the Env first
            return dispatch(ctx.find_object(Env), value)
        except ModuleNotFoundError as exc:  # an optional part not installed: say which extra
            from tablelog.cli.extras import missing_extra

            missing = missing_extra(exc)
            if missing is None:
                raise
            raise CliError(missing, 3) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS, *systems.names()})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """Return the command ``name``, its help in the reader's language."""
        found = self._command(ctx, name)
        return None if found is None else translate(wide_help(found), reader())

    def _command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in systems.names():
            try:
                return systems.get(name).group()
            except (systems.SystemUnavailable, ModuleNotFoundError):
                return None
        if name == "init":
            _add_system_options(init)
        if name in LAZY_COMMANDS:
            module = importlib.import_module(LAZY_COMMANDS[name])
            return {c.name: c for c in module.COMMANDS}[name]  # type: ignore[no-any-return]
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup)
@click.option(
    "--log",
    "log_path",
    metavar="LOG",
    envvar="TABLELOG_LOG",
    default="session.tlog",
    show_default=True,
    help="The session log: a file path, or STORE_URL#TABLE_ID (file:DIR#ID, "
    "postgresql://…#ID; docs/STORES.md). Default $TABLELOG_LOG.",
)
@click.option(
    "--actor",
    metavar="NAME",
    envvar="TABLELOG_ACTOR",
    default="gm",
    show_default=True,
    help="Who is logging (default $TABLELOG_ACTOR).",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    is_eager=True,
    expose_value=False,
    callback=lambda ctx, param, value: _speak(value, nested=ctx.obj is not None),
    help="The language of everything it says: en, ja or ko (default $TABLELOG_LANG, else the "
    "locale: LC_ALL, LC_MESSAGES, LANG).",
)
@click.option(
    "--tz",
    metavar="ZONE",
    default=None,
    help="The time zone times are shown in (log, history, replay, report): an IANA name such "
    "as Asia/Tokyo (default $TZ, else UTC). JSON keeps UTC.",
)
@click.version_option(package_name="tablelog")
@click.pass_context
def cli(ctx: click.Context, log_path: str, actor: str, tz: str | None) -> None:
    """tablelog: an event-sourced session tracker for tabletop RPG play.

    Every action is appended to a msgpack log; the state is folded from it. Example:

        tablelog --log smithy.tlog init --system pf2e --title "Downtime"
    """
    if isinstance(ctx.obj, Env) and ctx.obj.in_run:
        for name in ("log_path", "actor"):
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError(
                    say(
                        msg(
                            "core.run.root_options",
                            "--log and --actor go on the `run` command, not on a script line",
                        )
                    )
                )
        if ctx.get_parameter_source("tz") is click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError(
                say(
                    msg(
                        "core.run.tz_option",
                        "--tz goes on the `run` command, not on a script line",
                    )
                )
            )
        return  # a line of `tablelog run`: keep the run's log and actor
    if not actor.strip():
        raise click.BadParameter(
            say(msg("core.actor.empty", "the actor needs a name")), param_hint="--actor"
        )
    from tablelog.rules.core import RuleViolation, check_name

    try:  # an actor is a name like any other: no control characters, ≤ 64, NFC (CORE-NAME)
        check_name(actor, msg("core.actor.what", "the actor"))
    except RuleViolation as exc:
        raise click.BadParameter(
            say(msg("core.rule_message", "{rule}: {message}", rule=exc.rule_id, message=exc.msg)),
            param_hint="--actor",
        ) from None
    ctx.obj = Env(log_path=log_path, actor=actor, zone=_zone(tz))


def _zone(given: str | None) -> object:
    """Return the reader's time zone: ``--tz``, else ``$TZ``, else None (UTC).

    Raises:
        click.BadParameter: ``--tz`` names no zone (a usage error, exit 2).
    """
    if given is None and not os.environ.get("TZ"):
        return None  # the commonest case: nothing to import
    from tablelog.lang.times import UnknownZone, zone_of

    try:
        return zone_of(given, os.environ)
    except UnknownZone as exc:
        raise click.BadParameter(
            say(
                msg(
                    "core.tz.unknown",
                    "unknown time zone {zone!r} (an IANA name such as Asia/Tokyo, "
                    "America/New_York or UTC)",
                    zone=exc.name,
                )
            ),
            param_hint="--tz",
        ) from None


def _speak(given: str | None, nested: bool = False) -> None:
    """Make the reader's language the one ``--lang`` gives, else the environment's
    (:func:`tablelog.lang.choose`); the help and click's own words follow it. A line parsed
    inside a call (``nested``: a ``run`` script's, the shell's) keeps the call's language."""
    if nested and given is None:
        return
    lang = choose(given, os.environ)
    if reader().lang == lang:
        return  # main() chose it from the environment already (or an earlier call, in-process)
    words = Words(lang)
    set_reader(words)
    speak(words)
    translate(cli, words)


def main() -> None:
    """Console-script entry point."""
    import signal

    _speak(None)
    if hasattr(signal, "SIGPIPE"):  # a reader that stops early (`| head`) ends us, as it ends cat
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if "_TABLELOG_COMPLETE" in os.environ:  # bash/zsh/fish completion: names from the log too
        from tablelog.cli.shell.values import complete_from_log

        complete_from_log(cli)
    try:
        code = cli.main(prog_name="tablelog", standalone_mode=False)
    except click.UsageError as exc:  # one line, not click's usage block
        echo(error_line(usage_message(exc)), err=True)
        code = exc.exit_code
    except click.ClickException as exc:
        show_escaped(exc)
        code = exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):  # Ctrl-C: the shell's 128 + SIGINT
        click.echo(
            "\n" + say(msg("core.interrupted", "interrupted: nothing more is appended")), err=True
        )
        code = 130
    raise SystemExit(code if isinstance(code, int) else 0)


def _add_system_options(command: click.Command) -> None:
    """Give ``init`` every system's own options (before ``--sign``), once each."""
    have = {param.name for param in command.params}
    for name in systems.names():
        try:
            declared = systems.get(name)
        except systems.SystemUnavailable:
            continue
        for option in declared.options:
            if option.name not in have:
                command.params.insert(len(command.params) - 1, option)
                have.add(option.name)


def _parse_options(system: str, given: dict[str, Any]) -> dict[str, Any]:
    """Return the system options given to ``init`` (usage error: one the system does not take)."""
    options = {key: value for key, value in given.items() if value is not None}
    takes = systems.get(system).option_names
    for key in options:
        if key not in takes:
            raise click.BadParameter(
                say(
                    msg(
                        "core.init.no_option",
                        "{system} sessions take no --{option}",
                        system=system,
                        option=key,
                    )
                ),
                param_hint=f"--{key}",
            )
    return options


class SystemName(click.ParamType):  # type: ignore[type-arg]  # generic only in recent click
    """A rule system id, checked against the registry (:func:`tablelog.systems.names`)."""

    name = "system"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:  # noqa: ARG002
        return "{" + ",".join(systems.names()) + "}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value not in systems.names():
            self.fail(
                say(
                    msg(
                        "core.init.no_system",
                        "{system!r} is not one of {systems}",
                        system=value,
                        systems=Listed(tuple(systems.names()), "comma"),
                    )
                ),
                param,
                ctx,
            )
        return str(value)


@cli.command()
@click.option("--system", required=True, type=SystemName(), help="Rule system.")
@click.option("--title", default="", help="Session title.")
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEQ),
    default=None,
    help="Fix the session's random seed (default: a fresh one, kept in the header).",
)
@click.option(
    "--sign",
    is_flag=True,
    help="Start the log's roster of signing keys with yours (made if missing): see `key`.",
)
@click.pass_context
@domain_errors
def init(
    ctx: click.Context,
    system: str,
    title: str,
    seed: int | None,
    sign: bool,
    **given: Any,
) -> None:
    """Create a new log (never overwrites an existing file or table).

    --log STORE_URL without #ID creates a table with a new id and prints it. With --sign, its
    first record adds your signing key: from then on every record is signed
    (docs/RELIABILITY.md). Example: tablelog --log war.tlog init --system fate --seed 7 --sign
    """
    from tablelog.session import Session
    from tablelog.store.url import names_table, table_id_of

    env: Env = ctx.obj
    if sign:  # without the sign extra this fails (LazyGroup.invoke names it) before any log is made
        import cryptography  # noqa: F401

    new_id = not names_table(env.log_path)
    session = Session.create(
        env.log_path,
        system,
        title=title,
        seed=seed,
        options=_parse_options(system, given),
        actor=env.actor,
    )
    env.forget_session()
    env.log_path = session.log.spec  # a new table's id: the later lines of a `run` use it
    facts = {
        "log": session.path,
        "system": system,
        "session": session.header.session_id,
        "seed": session.header.seed,
    }
    if env.dry_run:
        made = msg(
            "core.init.created_dry",
            "created (until the dry run ends) {log}: {system} session {session} (seed {seed})",
            **facts,
        )
    else:
        made = msg(
            "core.init.created", "created {log}: {system} session {session} (seed {seed})", **facts
        )
    echo(say(made))
    if new_id:
        echo(say(msg("core.init.table_id", "table id: {table}", table=table_id_of(session.log))))
    if sign:
        from tablelog.cli.keys import add

        dispatch(env, ctx.invoke(add))  # a callback's record: the root runs only its own


@cli.command()
@click.argument("text")
@click.option(
    "--about",
    multiple=True,
    metavar="NAME",
    help="Tie the note to a character or item (shown in its history); repeatable.",
)
@appending
def note(ctx: click.Context, text: str, about: tuple[str, ...]) -> object:
    """Log a free-text note: a GM ruling, a table decision.

    Example: tablelog note "Kyra keeps the runestone shards" --about Kyra
    """
    from tablelog.commands.core import AddNote

    return AddNote(text=text, about=about)


@cli.command("roll")
@click.argument("notation")
@click.argument("comment", nargs=-1)
@click.option("--reason", default="", help="What the roll is for (kept in the log).")
@appending
def roll_command(
    ctx: click.Context, notation: str, comment: tuple[str, ...], reason: str
) -> object:
    """Roll dice in BCDice's common notation and log the roll (CORE-DICE): 2D6+1, 1D100<=50,
    3D6>=10; an S in front (S2D6) makes it secret, read by the roller and the GM only. Words
    after the notation are its reason, as a dice bot reads a chat line.

    Example: tablelog roll 1D100<=50 spot the ambush
    """
    from tablelog.commands.core import RollDice

    return RollDice(notation=notation, reason=reason or " ".join(comment))


@cli.command("say")
@click.argument("text", nargs=-1, required=True)
@click.option(
    "--to",
    "to",
    multiple=True,
    metavar="SEAT,…",
    help="Whisper to these seats (comma-separated; repeatable): only they, the sender and the "
    "GM read it.",
)
@appending
def say_command(ctx: click.Context, text: tuple[str, ...], to: tuple[str, ...]) -> object:
    """Say something at the table (CORE-SAY); with --to, whisper it to seats of a served table
    (tablelog serve). The words need no quotes.

    Example: tablelog say the bridge is out; at a served table: say psst --to bo
    """
    from tablelog.commands.core import Say

    seats = tuple(name.strip() for given in to for name in given.split(","))
    return Say(text=" ".join(text), to=tuple(dict.fromkeys(seats)))


@cli.command()
@click.argument("name")
@click.option("--reason", default="", help="Why NAME leaves the table (kept in the log).")
@appending
def retire(ctx: click.Context, name: str, reason: str) -> object:
    """Retire a character, unit or item: it leaves state and status, keeps its history, and no
    later command may name it (CORE-RETIRED); undo brings it back.

    Example: tablelog retire Kyra --reason "stays in Otari"
    """
    from tablelog.commands.core import Retire

    return Retire(name=name, reason=reason)


@cli.command()
@click.argument("seq", type=click.IntRange(1, MAX_SEQ), required=False)
@click.option("--reason", default="", help="Why it is undone (kept in the log).")
@appending
def undo(ctx: click.Context, seq: int | None, reason: str) -> object:
    """Undo an action (default: the latest active one); nothing is deleted.

    Undoing an older action is refused when later events depend on it. Example: tablelog undo 12
    """
    from tablelog.commands.core import Undo

    return Undo(target=seq, reason=reason)


@cli.command()
@click.argument("seq", type=click.IntRange(1, MAX_SEQ), required=False)
@appending
def redo(ctx: click.Context, seq: int | None) -> object:
    """Redo an undone action (default: the most recently undone one). Example: tablelog redo 12"""
    from tablelog.commands.core import Redo

    return Redo(target=seq)


@cli.group("table")
def table() -> None:
    """Table options the GM sets: whether players give physical cards, dice or random factors
    (CORE-GIVEN; each is off until allowed). Example: tablelog table allow given-dice"""


_TABLE_OPTION = click.Choice(["given-cards", "given-dice", "given-factors"])


@table.command("allow")
@click.argument("option", type=_TABLE_OPTION)
@appending
def table_allow(ctx: click.Context, option: str) -> object:
    """Let players give OPTION: given-cards (magicpunk draw --cards), given-dice (magicpunk roll
    --dice) or given-factors (saga cast --roll). The GM may always give them.

    Example: tablelog table allow given-cards
    """
    from tablelog.commands.core import SetTableOption

    return SetTableOption(option=option, allowed=True)


@table.command("forbid")
@click.argument("option", type=_TABLE_OPTION)
@appending
def table_forbid(ctx: click.Context, option: str) -> object:
    """Take OPTION back from the players (tablelog draws and rolls for them again).

    Example: tablelog table forbid given-cards
    """
    from tablelog.commands.core import SetTableOption

    return SetTableOption(option=option, allowed=False)
