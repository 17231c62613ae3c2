"""Commands over whole logs and scripts: run and verify."""

from __future__ import annotations

import contextlib
import io
import shlex
from collections.abc import Iterator
from typing import Any

import click

from tablelog.cli.core import (
    CliError,
    Env,
    command_words,
    domain_errors,
    echo,
    parse,
    reader,
    warn_torn,
)
from tablelog.lang import say
from tablelog.store.errors import message_of
from tablelog.store.format import head_text
from tablelog.text import Listed, msg, msgn

__all__ = ["COMMANDS", "script_lines", "MAX_SCRIPT_CHARS"]

MAX_SCRIPT_CHARS = 4 * 1024 * 1024  # a script of 4 Mi characters is some 100,000 lines


def script_lines(text: str, name: str = "script") -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line number, argv)`` for each command line of a script.

    ``#`` starts a comment; shell-style quoting; a leading ``tablelog`` word is dropped.

    Raises:
        CliError: a line that does not parse (exit 2), naming its number.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            argv = command_words(line)
        except ValueError as exc:
            raise CliError(
                msg(
                    "core.script.bad_line",
                    "{script} line {number}: {problem}",
                    script=name,
                    number=number,
                    problem=str(exc),
                ),
                2,
            ) from None
        if argv and argv[0] == "tablelog":
            argv = argv[1:]
        if argv:
            yield number, argv


def _script(script: Any) -> list[tuple[int, list[str]]]:
    """Return a script's command lines as ``(line number, argv)``, read at most
    ``MAX_SCRIPT_CHARS`` (an endless file, /dev/zero, too).

    Raises:
        CliError: exit 2, a script too long or not UTF-8 text.
    """
    try:
        text = script.read(MAX_SCRIPT_CHARS + 1)
        if len(text) > MAX_SCRIPT_CHARS:
            raise CliError(
                msg(
                    "core.script.too_long",
                    "{script} is longer than {n} characters: split it into several scripts",
                    script=script.name,
                    n=f"{MAX_SCRIPT_CHARS:,}",
                ),
                2,
            )
        return list(script_lines(text, script.name))
    except UnicodeDecodeError as exc:
        raise CliError(
            msg(
                "core.script.not_utf8",
                "{script} is not a UTF-8 text file (byte {byte})",
                script=script.name,
                byte=exc.start,
            ),
            2,
        ) from None


@click.command()
@click.argument("script", type=click.File("r", encoding="utf-8"))
@click.option("--atomic", is_flag=True, help="Append all lines or none.")
@click.option("--dry-run", is_flag=True, help="Run every line; append nothing.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Each appending line's events as JSON objects (as its own --json prints "
    "them); the run's last line goes to stderr.",
)
@click.pass_context
def run(ctx: click.Context, script: Any, atomic: bool, dry_run: bool, as_json: bool) -> None:  # noqa: C901 - plain, atomic and dry runs, each with its own ending on a refusal
    """Run a file of tablelog commands, one per line (without the leading `tablelog`).

    Stops at the first refused line and names its number; lines before it stay appended unless
    --atomic. Example: tablelog --log smithy.tlog run examples/pf2e-downtime.txt
    """
    env: Env = ctx.obj
    lines = _script(script)
    env.in_run = True
    env.dry_run = dry_run
    env.as_json = as_json
    created = False
    root = ctx.find_root().command
    held = io.StringIO()  # an atomic run prints its events once they are on disk
    number = 0
    try:
        with contextlib.ExitStack() as stack:
            if atomic and not dry_run:
                stack.enter_context(contextlib.redirect_stdout(held))
            buffering = False  # an atomic or dry run buffers from the first line after any init
            for number, argv in lines:
                if argv[0] != "init" and (atomic or dry_run) and not buffering:
                    stack.enter_context(_buffered(env, commit=not dry_run))
                    buffering = True
                _run_line(root, env, script.name, number, argv)
                created = created or argv[0] == "init"
    except BaseException:
        if created and (atomic or dry_run):
            _take_back(env)
        if dry_run:
            echo(
                say(
                    msg(
                        "core.run.dry_stopped",
                        "dry run stopped at line {number}; nothing appended",
                        number=number,
                    )
                ),
                err=True,
            )
        elif atomic:
            click.echo(
                say(
                    msg("core.run.atomic_refused", "nothing appended: the whole script is refused")
                ),
                err=True,
            )
        raise
    finally:
        env.in_run = env.dry_run = env.as_json = False
    click.echo(held.getvalue(), nl=False)
    if dry_run:
        if created:
            _take_back(env)
        click.echo(
            say(
                msgn(
                    "core.run.dry_done",
                    "dry run: {n} line ran; nothing appended",
                    "dry run: {n} lines ran; nothing appended",
                    len(lines),
                )
            ),
            err=as_json,
        )
    else:
        if env._session is not None:
            env._session.save_snapshot()  # a snapshot at the end of every run (RELIABILITY.md)
        _echo_head(env, err=as_json)


def _echo_head(env: Env, err: bool = False) -> None:
    """Print the log's head, ``head: SEQ:HASH`` (post it: `verify --expect-head` checks it);
    nothing when there is no usable log (an empty script before any init)."""
    from tablelog.store.log import LogError
    from tablelog.systems import SystemUnavailable

    try:
        session = env.session()
        session.state()
    except (LogError, SystemUnavailable):
        return
    echo(say(msg("core.head", "head: {head}", head=head_text(session.log.end))), err=err)


def _take_back(env: Env) -> None:
    """Remove a log (and its lock file) that this buffered run created but did not keep."""
    from tablelog.store.url import discard_log, open_log

    log = env._session.log if env._session is not None else open_log(env.log_path)
    env.forget_session()
    discard_log(log)


@contextlib.contextmanager
def _buffered(env: Env, commit: bool) -> Iterator[None]:
    from tablelog.store.log import LogError
    from tablelog.systems import SystemUnavailable

    session = domain_errors(env.session)()
    try:
        with session.atomic(commit=commit):
            yield
    except (LogError, SystemUnavailable) as exc:  # the lock, the final write, the system
        raise CliError(message_of(exc), 3) from None


def _run_line(root: click.Command, env: Env, name: str, number: int, argv: list[str]) -> None:
    where = msg("core.script.line", "{script} line {number}", script=name, number=number)
    if argv[0] == "run":
        raise CliError(
            msg(
                "core.script.nested",
                "a script cannot run another script (put its lines in this one)",
            ),
            2,
            where=where,
        )
    try:
        parse(root, argv, env)
    except CliError as exc:
        raise CliError(exc.text, exc.exit_code, exc.refusal, where) from None
    except click.UsageError as exc:
        raise CliError(
            msg(
                "core.script.usage",
                "{message} (in: {line})",
                message=exc.format_message(),
                line=shlex.join(argv),
            ),
            2,
            where=where,
        ) from None
    except click.exceptions.Exit as exc:
        if exc.exit_code:
            raise CliError(
                msg("core.script.exit", "exit {status}", status=exc.exit_code),
                exc.exit_code,
                where=where,
            ) from None


@click.command()
@click.option(
    "--repair",
    is_flag=True,
    help="Truncate a torn last record (after a backup); a PostgreSQL table never has one.",
)
@click.option(
    "--salvage",
    metavar="OUT",
    default=None,
    help="Copy the header and every record before the first bad one into a new log OUT (a "
    "file path or STORE_URL#TABLE_ID).",
)
@click.option(
    "--expect-head",
    metavar="SEQ:HASH",
    default=None,
    callback=lambda ctx, param, value: _parse_head(value),
    help="A head posted earlier (by verify or run): the log must still hold record SEQ with "
    "that hash (else it was cut or rewritten).",
)
@click.pass_context
def verify(  # noqa: C901 - repair, salvage and every fault verify reports, in SPEC's order
    ctx: click.Context, repair: bool, salvage: str | None, expect_head: tuple[int, bytes] | None
) -> None:
    """Check the header, every record's framing and checksum, the hash chain, and the replay.

    Exit 0 when the log is sound, 1 when a problem is found (the first bad position is named).
    It prints the log's head (SEQ:HASH): post it after a session, and a later
    `verify --expect-head SEQ:HASH` finds a log cut or rewritten at or before SEQ.
    --repair only ever cuts a torn tail; for corruption before it, --salvage OUT keeps the valid
    prefix in a new file. Example: tablelog verify --expect-head 12:6b1d…
    """
    from tablelog.crafted import actor_fault
    from tablelog.session import LogError, Session
    from tablelog.store.keys import check_pin, check_signatures
    from tablelog.store.log import LogLocked, LogUnwritable
    from tablelog.store.pgsql import StoreUnavailable

    env: Env = ctx.obj
    if repair and salvage is not None:
        raise click.UsageError(
            say(
                msg(
                    "core.verify.repair_or_salvage",
                    "choose one of --repair (cut a torn tail) and --salvage OUT",
                )
            )
        )
    session = domain_errors(Session)(env.log_path, env.actor, snapshots=False, chain=True)
    domain_errors(session.replayer)()  # missing or foreign file, unknown system: exit 3
    name = session.path  # a PostgreSQL URL without its password
    if salvage is not None:
        _salvage(session, salvage)
        return
    try:
        if repair:
            from tablelog.store.repair import repair as cut_torn_tail

            repaired = cut_torn_tail(session.log)
            if session.log.kind == "postgresql":
                echo(
                    say(
                        msg(
                            "core.verify.nothing_to_repair",
                            "nothing to repair: a PostgreSQL table never ends in a torn record "
                            "(each command is one transaction)",
                        )
                    )
                )
            elif repaired is not None:
                echo(
                    say(
                        msg(
                            "core.verify.repaired",
                            "repaired: torn last record at byte {offset} truncated; backup at "
                            "{backup}",
                            offset=repaired[0],
                            backup=repaired[1],
                        )
                    )
                )
        folded = session.state()
        head, torn, in_flight = session.end, session.torn_at, session.in_flight  # what it read
        far_off = dict(session.log.far_off)  # a wrong clock's times: flagged, never a fault
        _check_names(name, folded)
        unheld = session.unheld()
        signatures = check_signatures(session.log, actor_fault)
        check_pin(session.path, session.header.session_id, signatures)
    except (LogLocked, LogUnwritable, StoreUnavailable) as exc:  # not checked, or a backup or
        raise CliError(exc.msg, 3) from None  # cut not written: "cannot be used" (exit 3)
    except LogError as exc:
        raise CliError(
            msg(
                "core.verify.log_error",
                "{problem}{not_repaired}{salvage}",
                problem=exc.msg,
                not_repaired=msg(
                    "core.verify.not_repaired", "; not repaired: only a torn tail is ever cut"
                )
                if repair
                else "",
                salvage=msg(
                    "core.verify.salvage_hint",
                    "; keep the valid prefix with: tablelog --log {log} verify --salvage OUT",
                    log=name,
                )
                if "corrupt record" in str(exc)
                else "",
            ),
            1,
        ) from None
    if torn is not None:
        raise CliError(
            msg(
                "core.verify.torn",
                "{log}: torn last record at byte {offset} (run: tablelog verify --repair)",
                log=name,
                offset=torn,
            ),
            1,
        )
    if unheld:
        seq, event, why = unheld[0]
        raise CliError(
            msg(
                "core.verify.unheld",
                "{log}: event #{seq} {type} does not hold where it stands: {why}{more}",
                log=name,
                seq=seq,
                type=event.TYPE,
                why=msg(
                    "core.rule_message", "{rule}: {message}", rule=why.rule_id, message=why.msg
                ),
                more=msg("core.verify.more", " (and {n} more)", n=len(unheld) - 1)
                if len(unheld) > 1
                else "",
            ),
            1,
        )
    assert head is not None
    # A posted head past the last whole record may be the record in flight: that is no cut.
    if expect_head is not None and (in_flight is None or expect_head[0] <= head.seq):
        _check_head(session, head.seq, expect_head)
    if in_flight is not None:  # a live writer mid-append: nothing to say of that record yet
        raise CliError(
            msg(
                "core.verify.in_flight",
                "{log}: the record at byte {offset} is still being written by another writer "
                "(it held the lock past the timeout); verify again when it is done",
                log=name,
                offset=in_flight,
            ),
            3,
        )
    _warn_far_off(name, far_off)
    echo(
        say(
            msg(
                "core.verify.ok",
                "ok: {log}: {records} records, hash chain intact, replays ({system})",
                log=name,
                records=folded.seq,
                system=folded.system,
            )
        )
    )
    echo(say(msg("core.head", "head: {head}", head=head_text(head))))
    if signatures is not None:
        _echo_signatures(signatures)


def _warn_far_off(name: str, far_off: dict[int, tuple[int, str, str]]) -> None:
    """Warn on stderr of the first records dated far off (a day or more after this machine's
    clock, or before the record before them): a wrong clock's, not damage (seq orders the log;
    issue 32 item 12), so ``verify`` still exits 0."""
    from tablelog.store.envelope import clock_now

    shown = sorted(far_off.items())[:FAR_OFF_SHOWN]
    for k, (seq, (offset, at, before)) in enumerate(shown):
        more = len(far_off) - len(shown) if k == len(shown) - 1 else 0
        what = dict(log=name, seq=seq, offset=offset, at=at)
        line = (
            msg(
                "core.verify.far_before",
                "warning: {log}: record #{seq} at byte {offset} is dated {at}, more than a day "
                "before the record before it ({before}): a wrong clock dated one of them; seq "
                "orders the log, nothing is lost{more}",
                before=before,
                more=msg("core.verify.more", " (and {n} more)", n=more) if more else "",
                **what,
            )
            if before
            else msg(
                "core.verify.far_ahead",
                "warning: {log}: record #{seq} at byte {offset} is dated {at}, more than a day "
                "after this machine's clock ({clock}): a wrong clock dated it (or this "
                "machine's clock is wrong); seq orders the log, nothing is lost{more}",
                clock=clock_now(),
                more=msg("core.verify.more", " (and {n} more)", n=more) if more else "",
                **what,
            )
        )
        echo(say(line), err=True)


FAR_OFF_SHOWN = 5  # far-off records verify names (then "and N more")


def _check_names(name: str, folded: Any) -> None:
    """Refuse (exit 1) a log whose state holds a character, item or seat name that entry
    refuses (CORE-NAME): only a crafted record puts one there."""
    from tablelog.crafted import name_fault

    found = name_fault(folded)
    if found is not None:
        raise CliError(msg("core.verify.name", "{log}: {problem}", log=name, problem=found[1]), 1)


def _echo_signatures(report: Any) -> None:
    """Print what the log's signatures prove (a log with a roster of keys)."""
    words = reader()
    echo(
        words(
            msg(
                "core.verify.signed",
                "signed: {records} records by {keys} keys in the roster (owner {owner}, key "
                "{key}), each signature checked",
                records=report.signed,
                keys=report.keys,
                owner=report.owner,
                key=report.owner_key,
            )
        )
    )
    if report.unsigned:
        listed = Listed(
            tuple(
                msg(
                    "core.verify.unsigned_actor",
                    "{actor} {seqs}{more}",
                    actor=actor,
                    seqs=Listed(tuple(f"#{seq}" for seq in seqs), "comma"),
                    more=msg("core.verify.unsigned_more", " … ({n} records)", n=f"{n:,}")
                    if n > len(seqs)
                    else "",
                )
                for actor, (n, *seqs) in report.unsigned.items()
            ),
            "semicolon",
        )
        more = (
            msg(
                "core.verify.unsigned_others",
                "; {n} records by other actors",
                n=f"{report.unsigned_others:,}",
            )
            if report.unsigned_others
            else ""
        )
        echo(
            words(
                msg(
                    "core.verify.unsigned",
                    "not signed (no key in the roster): {actors}{more}",
                    actors=listed,
                    more=more,
                )
            )
        )


def _parse_head(value: str | None) -> tuple[int, bytes] | None:
    """Parse ``SEQ:HASH`` (a head as verify and run print it).

    Raises:
        click.BadParameter: not a whole number, a colon and 32 hex digits (exit 2).
    """
    if value is None:
        return None
    seq, sep, digest = value.partition(":")
    if not (
        sep
        and seq.isascii()
        and seq.isdigit()
        and len(seq) <= 18
        and len(digest) == 32
        and all(c in "0123456789abcdef" for c in digest.lower())
    ):
        raise click.BadParameter(
            say(
                msg(
                    "core.verify.bad_head",
                    "{value!r} is not SEQ:HASH (a head as verify prints it, e.g. 12:6b1d0c…, 32 "
                    "hex digits)",
                    value=value,
                )
            )
        )
    return int(seq), bytes.fromhex(digest)


def _check_head(session: Any, last: int, expected: tuple[int, bytes]) -> None:
    """Check that the (verified) log, whose last record is ``last``, holds record ``SEQ`` with
    chain hash ``HASH``.

    Raises:
        CliError: exit 1, the log ends before SEQ (cut) or holds another record there
            (rewritten at or before SEQ).
    """
    seq, digest = expected
    held = session.log.position(seq) if seq <= last else None
    found = held.prev if held is not None else None
    if found is None:
        raise CliError(
            msg(
                "core.verify.cut",
                "{log}: the log ends at #{last}, before the posted head #{seq}: records were "
                "cut off",
                log=session.path,
                last=last,
                seq=seq,
            ),
            1,
        )
    if found != digest:
        raise CliError(
            msg(
                "core.verify.rewritten",
                "{log}: record #{seq} is not the one posted (hash {found}, posted {posted}): "
                "the log was rewritten at or before #{seq}",
                log=session.path,
                seq=seq,
                found=found.hex(),
                posted=digest.hex(),
            ),
            1,
        )


def _salvage(session: Any, out: str) -> None:
    from tablelog.session import LogError

    try:  # a sound record that does not decode or apply is bad too: find it by folding
        session.state()
        before = None
    except LogError as exc:
        before = exc.seq
    from tablelog.store.repair import salvage

    kept, size, bad = domain_errors(salvage)(session.log, out, before)
    where = (
        msg(
            "core.salvage.bad_at",
            "first bad record at byte {offset} (whole commands only: records of its command "
            "before it are left out too)",
            offset=bad,
        )
        if bad is not None
        else msg("core.salvage.no_bad", "no bad record found")
    )
    echo(
        say(
            msg(
                "core.salvage.done",
                "salvaged: {records} records ({size} bytes) into {out}; {where}",
                records=kept,
                size=size,
                out=out,
                where=where,
            )
        )
    )
    if bad is None and session.in_flight is not None:
        warn_torn(session)  # the record another writer is still writing is not in the copy


COMMANDS = [run, verify]
