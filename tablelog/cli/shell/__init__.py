"""``tablelog shell``: an interactive session on one log, in one process.

Each line is a tablelog command without the leading ``tablelog``; the log's system is implied
(``cast Rin attack …`` on a fate log is ``fate cast Rin attack …``). A line runs the very click
command the CLI runs, on one open session that stays folded between lines, so a command answers
in milliseconds and appends exactly what the same CLI command appends. When another process
appends to the log, the next line folds it again first.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from typing import Any

import click

from tablelog.cli.core import (
    COMMAND_LINE_ONLY,
    CliError,
    Env,
    command_line_only,
    command_words,
    domain_errors,
    echo,
    error_line,
    parse,
    reader,
    show_escaped,
)
from tablelog.text import Listed, Msg, msg

__all__ = ["COMMANDS", "Shell", "history_path"]


def history_path() -> str:
    """Return the shell's history file: ``$TABLELOG_HISTORY``, else
    ``$XDG_STATE_HOME/tablelog/history`` (``~/.local/state`` when unset)."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return os.environ.get("TABLELOG_HISTORY") or os.path.join(state, "tablelog", "history")


class Shell:
    """Run shell lines on one log.

    Args:
        env: The CLI's context object (the log and actor of ``tablelog --log … shell``).
        root: The ``tablelog`` click group.
    """

    def __init__(self, env: Env, root: click.Group) -> None:
        self.env = env
        self.root = root
        self._seen: tuple[int, int, int] | None = None
        self._root_names = set(root.list_commands(click.Context(root)))
        self.worst = 0

    # -- the log ---------------------------------------------------------------------------

    def _fingerprint(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.env.log_path)
        except OSError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns

    def refresh(self) -> None:
        """Fold again before the next line when the log changed since this shell last saw it
        (another writer; the shell's own appends keep its folded state current)."""
        now = self._fingerprint()
        if now != self._seen:
            self.env.forget_session()
        self._seen = now

    def _session(self) -> Any:
        """Return the open session, or None while the log cannot be used (not created yet)."""
        try:
            session = self.env.session()
            session.state()
        except Exception:  # noqa: BLE001 - any unusable log: the line that needs it says why
            self.env.forget_session()
            return None
        return session

    def state(self) -> Any:
        """Return the folded state, or None when there is no usable log."""
        session = self._session()
        return session.state() if session is not None else None

    def system(self) -> str | None:
        """Return the log's system, or None."""
        state = self.state()
        return state.system if state is not None else None

    def prompt_text(self) -> str:
        """Return the prompt: ``fate war.tlog #21> ``."""
        self.refresh()
        state = self.state()
        where = os.path.basename(self.env.log_path)
        if state is None:
            return reader()(msg("core.shell.prompt_no_log", "(no log) {log}> ", log=where))
        return reader()(
            msg(
                "core.shell.prompt",
                "{system} {log} #{seq}> ",
                system=state.system,
                log=where,
                seq=state.seq,
            )
        )

    # -- lines -----------------------------------------------------------------------------

    def argv(self, words: list[str]) -> list[str]:
        """Return the CLI arguments of a line: the log's system put first where it is implied."""
        if words and words[0] not in self._root_names:
            system = self.system()
            group = self.root.get_command(click.Context(self.root), system) if system else None
            if isinstance(group, click.Group) and words[0] in group.commands:
                return [system, *words]  # type: ignore[list-item]
        return words

    def resolve(self, words: list[str]) -> tuple[click.Command, list[str]]:
        """Return the click command a line's words reach and the words after it."""
        ctx = click.Context(self.root)
        command: click.Command = self.root
        rest = self.argv(words)
        while isinstance(command, click.Group) and rest:
            sub = command.get_command(ctx, rest[0])
            if sub is None:
                break
            command, rest = sub, rest[1:]
        return command, rest

    def first_words(self) -> list[tuple[str, str]]:
        """Return what a line may start with: the system's commands, then the core ones."""
        from tablelog.cli.shell.completion import SHELL_WORDS

        ctx = click.Context(self.root)
        system = self.system()
        group = self.root.get_command(ctx, system) if system else None
        own = list(group.commands.items()) if isinstance(group, click.Group) else []
        core = [
            (n, self.root.get_command(ctx, n)) for n in sorted(self._root_names - COMMAND_LINE_ONLY)
        ]
        found = [(n, c.get_short_help_str(50)) for n, c in [*own, *core] if c is not None]
        words = reader()
        return found + [(n, words(what)) for n, what in SHELL_WORDS.items()]

    def run_line(self, line: str) -> bool:
        """Run one line; return False when it asks to leave. :attr:`worst` keeps the highest
        exit status a line has had (1 rule, 2 usage, 3 log unusable)."""
        try:
            words = command_words(line)
        except ValueError as exc:
            return self._refuse(str(exc), 2)
        words = words[1:] if words[:1] == ["tablelog"] else words
        if not words:
            return True
        if words[0] in ("exit", "quit"):
            if len(words) == 1:
                return False
            return self._refuse(
                msg(
                    "core.shell.no_words",
                    "{word} takes no words (got {words}); the shell goes on",
                    word=words[0],
                    words=shlex.join(words[1:]),
                ),
                2,
            )
        if words[0] == "help" and len(words) == 1:
            self._help()
        elif words[0] == "help":  # `help chant`: that command's --help
            self._execute([*self.argv(words[1:]), "--help"])
        elif words[0].startswith("-"):
            self._refuse(
                msg(
                    "core.shell.root_options",
                    "the shell works on one log and actor: start another shell (tablelog --log "
                    "PATH --actor NAME shell)",
                ),
                2,
            )
        else:
            self.refresh()
            self._execute(self.argv(words))
            self._seen = self._fingerprint()
        return True

    def _refuse(self, message: Msg | str, status: int) -> bool:
        """Print ``error: MESSAGE`` and keep ``status`` as the worst so far; return True (the
        shell goes on)."""
        echo(error_line(message), err=True)
        self.worst = max(self.worst, status)
        return True

    def _execute(self, argv: list[str]) -> None:
        self.env.in_run = True  # as for a script line: the shell's log and actor stay
        try:
            status = parse(self.root, argv, self.env)
            self.worst = max(self.worst, status if isinstance(status, int) else 0)
        except click.UsageError as exc:
            self._refuse(
                msg(
                    "core.shell.usage",
                    "{message}{hint} (in: {line}; COMMAND --help explains a command)",
                    message=exc.format_message(),
                    hint=self._command_hint(argv),
                    line=shlex.join(argv),
                ),
                2,
            )
        except click.ClickException as exc:
            show_escaped(exc)
            self.worst = max(self.worst, exc.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo(reader()(msg("core.shell.interrupted", "interrupted")), err=True)
            self.env.forget_session()
        finally:
            self.env.in_run = True  # `run` resets it when it ends
            self.env.dry_run = False

    def check_log(self) -> None:
        """After piped input: a log still unusable (never created, not a log) is an error, exit 3,
        unless a line already said so."""
        if self.worst < 3 and self._session() is None:
            try:
                domain_errors(self.env.session)()
            except CliError as exc:
                exc.show()
                self.worst = max(self.worst, exc.exit_code)

    def _command_hint(self, argv: list[str]) -> Msg | str:
        """Suggest commands close to an unknown first word (``chnat`` -> chant)."""
        from tablelog.refusals import closest

        command, rest = self.resolve(argv)
        if command is not self.root or not argv:
            return ""
        found = closest(argv[0], [name for name, _ in self.first_words()])
        if not found:
            return ""
        names: object = found[0]
        for name in found[1:]:  # "a or b or c": each pair joined as the language joins two
            names = Listed((names, name), "or")
        return msg("core.shell.did_you_mean", " Did you mean {names}?", names=names)

    def _help(self) -> None:
        from tablelog.cli.columns import display_width

        words = reader()
        click.echo(
            words(
                msg(
                    "core.shell.help_heading",
                    "Commands (the log's system is implied; COMMAND --help explains one):",
                )
            )
        )
        for name, short in self.first_words():
            click.echo(f"  {name}{' ' * max(0, 12 - display_width(name))} {short}")
        click.echo(
            words(
                msg(
                    "core.shell.help_keys",
                    "Tab completes; Ctrl-C cancels the line; Ctrl-D or exit leaves.",
                )
            )
        )

    # -- the loop --------------------------------------------------------------------------

    def loop(self) -> None:
        """Run lines until Ctrl-D, ``exit`` or the end of input (stdin when not a terminal)."""
        if sys.stdin.isatty() and sys.stdout.isatty():
            asyncio.run(self._interactive())
            return
        for line in sys.stdin:
            if not self.run_line(line.rstrip("\n")):
                break
        self.check_log()

    async def _interactive(self) -> None:
        """Prompt in one event loop (a prompt per line costs less than a loop per line)."""
        prompt = self._prompt_session()
        told = False
        while True:
            try:
                line = await prompt.prompt_async(self.prompt_text)
            except KeyboardInterrupt:
                continue  # Ctrl-C: the line is cancelled
            except EOFError:
                return  # Ctrl-D: leave
            problem = getattr(prompt.history, "problem", None)
            if problem and not told:
                said = msg(
                    "core.shell.history_problem",
                    "warning: the history is kept for this session only ({problem})",
                    problem=problem,
                )
                echo(reader()(said), err=True)
                told = True
            if not self.run_line(line):
                return

    def _prompt_session(self) -> Any:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import History, InMemoryHistory

        from tablelog.cli.shell.completion import ShellCompleter
        from tablelog.cli.shell.history import KeptHistory

        path = history_path()
        history: History
        try:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            history = KeptHistory(path)
        except OSError:
            history = InMemoryHistory()
        completer = ShellCompleter(self.resolve, self.first_words, self.state)
        return PromptSession(history=history, completer=completer, complete_while_typing=False)


@click.command("shell")
@click.pass_context
def shell(ctx: click.Context) -> None:
    """Work on one log interactively, in one process: the log's system is implied (`draw Aria 2`,
    `cast Rin attack --grade 5 --tiles 2 --target Berserker`); Tab completes commands, options
    and this table's names, runes, techs, cards and seqs; history is kept across sessions
    ($TABLELOG_HISTORY); `undo`, `redo`, `status` and `help` are words. Ctrl-C cancels the line,
    Ctrl-D leaves.

    Example: tablelog --log war.tlog shell
    """
    env: Env = ctx.obj
    command_line_only(ctx)
    session = Shell(env, ctx.find_root().command)  # type: ignore[arg-type]
    session.loop()
    env.in_run = False
    if session.worst and not (sys.stdin.isatty() and sys.stdout.isatty()):
        ctx.exit(session.worst)  # piped lines: the worst status of a line, as `run` would


COMMANDS = [shell]
