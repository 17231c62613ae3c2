"""The tables a server holds: one open session per table, kept folded in memory.

A :class:`Table` is one log with its :class:`~tablelog.session.Session`, whose state stays in
memory between requests: a command costs a decision and an append, not a fold. Before a read the
table catches up with records appended by others (the CLI, another process) when the log grew. A
:class:`Tables` is the store's set of tables (``file:DIR``: ``DIR/<id>.tlog``).

Commands are the CLI's own: one line of a ``run`` script goes through the same click parser,
deciders and session loop (:meth:`Table.run_line`).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import secrets
import shlex
import threading
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import attrs

from tablelog import systems
from tablelog.projections.core import State, seats
from tablelog.session import Outcome, Session
from tablelog.store.format import Position
from tablelog.store.log import LogError, LogFile, StoredRecord

__all__ = ["Tables", "Table", "Seat", "Refusal", "TABLE_ID", "token_hash", "APPENDING_WORDS"]

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
INDEX_EVERY = 256  # records between the positions a table remembers (reads start near a seq)


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
        return (buffer if buffer is not None else self.real).write(text)

    def flush(self) -> None:
        if getattr(self.local, "buffer", None) is None:
            self.real.flush()

    def isatty(self) -> bool:
        return False

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
            _ROUTES.extend([sys.stdout, sys.stderr])  # type: ignore[list-item]
    out = io.StringIO()
    for route in _ROUTES:
        route.local.buffer = out
    try:
        yield out
    finally:
        for route in _ROUTES:
            route.local.buffer = None
APPENDING_WORDS = frozenset({"note", "undo", "redo"})
"""The core command words that append; every system's group appends too (its name)."""


def token_hash(token: str) -> str:
    """Return the hex SHA-256 of a token (what the log keeps of a seat's token)."""
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.frozen
class Seat:
    """Who a request acts as: a seat's name, role and characters (the server token is the
    ``gm`` seat of every table)."""

    name: str
    role: str
    characters: tuple[str, ...] = ()


class Refusal(Exception):
    """A request refused with an HTTP status, an error code, a rule ID or None, a message."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.rule = status, code, message, rule
        self.secrets: tuple[Any, ...] = ()  # what the message tells that some seats may not see


class Stored(NamedTuple):
    """A record read by a table: its fields, and its whole envelope (for ``log --json``)."""

    rec: StoredRecord
    env: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rec, name)


class Table:
    """One table: its log file, its session (state in memory) and a lock for its commands."""

    def __init__(self, table_id: str, path: str) -> None:
        self.table_id = table_id
        self.path = path
        self.lock = threading.RLock()
        self.session = Session(path, "gm")
        self.changed = threading.Condition(self.lock)  # notified after every append here
        self._waiters: set[tuple[Any, Any]] = set()  # (event loop, asyncio.Event) of streams
        self._index: list[Position] = []  # the position after seq INDEX_EVERY × (i + 1)

    def state(self) -> State:
        """Return the current state, caught up with whatever others appended.

        Raises:
            Refusal: 503 when the log cannot be used.
        """
        with self.lock, _usable():
            end = self.session._end
            if end is not None and os.path.getsize(self.path) != end.offset:
                self.session._state = None  # someone else appended: fold the tail
            return self.session.state()

    def seat_of(self, token: str) -> Seat | None:
        """Return the seat whose token this is (compared by hash), or None."""
        digest = token_hash(token)
        for name, seat in seats(self.state()).items():
            if secrets.compare_digest(seat["token_sha256"], digest):
                return Seat(name, seat["role"], tuple(seat["characters"]))
        return None

    def execute(self, command: object, actor: str) -> Outcome:
        """Decide and append a command record (not a command line) as ``actor``."""
        with self.lock, _usable():
            self.state()
            self.session.actor = actor
            outcome = self.session.execute(command)
            self._appended()
            return outcome

    def run_line(self, line: str, seat: Seat, authorize: Callable[[object], None],
                 request_id: str | None = None, dry_run: bool = False) -> Outcome:
        """Run one command line as ``seat``: the CLI's parser, deciders and session loop.

        Raises:
            Refusal: 400 usage (not a command line, unknown words or options, a command not
                taken here), 403 (``authorize`` refused it), 422 a rule's refusal, 503 the log
                cannot be used.
        """
        argv = _words(line)
        if dry_run:
            argv.append("--dry-run")
        if request_id is not None:
            argv += ["--request-id", request_id]
        from tablelog.cli.core import Env

        env = Env(log_path=self.path, actor=seat.name, in_run=True)  # a line, as in `run`
        env.authorize = authorize
        with self.lock:
            self.state()
            self.session.actor = seat.name
            env._session = self.session
            _click_line(argv, env)
            self._appended()
        if env.outcome is None:
            raise Refusal(400, "usage", f"{line!r} appends nothing")
        return env.outcome  # type: ignore[no-any-return]

    def records_after(self, seq: int) -> Iterator[Any]:
        """Yield every record after ``seq`` (as :class:`~tablelog.store.log.StoredRecord`), in
        order, reading from the nearest position the table has indexed (one every
        ``INDEX_EVERY`` records), not from the start of the log.

        Raises:
            Refusal: 503 when the log cannot be used.
        """
        from tablelog.store.format import COMMAND_KEY, REQUEST_KEY, chain_hash

        log = LogFile(self.path)
        with _usable():
            log.open()
            start = self._indexed(seq) or log.start
            for n, env, offset, end, payload in log.records(start):
                if n % INDEX_EVERY == 0 and n // INDEX_EVERY > len(self._index):
                    self._index.append(Position(n, end, chain_hash(payload), offset))
                if n > seq:
                    yield Stored(StoredRecord(n, env["type"], env["v"], env["at"], env["actor"],
                                              env["data"], offset, env.get(COMMAND_KEY),
                                              env.get(REQUEST_KEY)), env)

    def _indexed(self, seq: int) -> Position | None:
        """Return the latest indexed position at or before ``seq``, if any."""
        k = min(seq // INDEX_EVERY, len(self._index))
        return self._index[k - 1] if k > 0 else None

    async def wait(self, seq: int, timeout_s: float) -> None:
        """Wait (without a thread) until this process appended past ``seq`` to the table, or
        ``timeout_s`` passed (records others append are found by the next read)."""
        import asyncio

        if self.session._end is not None and self.session._end.seq > seq:
            return
        event = asyncio.Event()
        waiter = (asyncio.get_running_loop(), event)
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(event.wait(), timeout_s)
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)

    def _appended(self) -> None:
        """Wake every stream waiting on this table (called after each append here)."""
        self.changed.notify_all()
        for loop, event in list(self._waiters):
            loop.call_soon_threadsafe(event.set)


class Tables:
    """The tables of a ``file:DIR`` store, opened on first use and kept.

    Args:
        folder: The directory holding ``<table_id>.tlog`` files (created if missing).
    """

    def __init__(self, folder: str) -> None:
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self._open: dict[str, Table] = {}
        self._lock = threading.Lock()

    def path(self, table_id: str) -> str:
        return os.path.join(self.folder, f"{table_id}.tlog")

    def get(self, table_id: str) -> Table:
        """Return the table ``table_id``.

        Raises:
            Refusal: 404 when there is no such table.
        """
        if not TABLE_ID.fullmatch(table_id) or not os.path.isfile(self.path(table_id)):
            raise Refusal(404, "not_found", f"no table {table_id!r}")
        with self._lock:
            table = self._open.get(table_id)
            if table is None:
                table = self._open[table_id] = Table(table_id, self.path(table_id))
            return table

    def ids(self) -> list[str]:
        """Return every table id in the store, sorted."""
        return sorted(name[:-5] for name in os.listdir(self.folder)
                      if name.endswith(".tlog") and TABLE_ID.fullmatch(name[:-5]))

    def create(self, system: str, title: str, seed: int | None,
               options: dict[str, Any]) -> Table:
        """Create a table with a new id.

        Raises:
            Refusal: 422 for a rule's refusal of the options, 400 for an unknown system.
        """
        from tablelog.rules.core import RuleViolation
        from tablelog.systems import SystemUnavailable

        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        try:
            Session.create(self.path(table_id), system, title=title, seed=seed, options=options)
        except SystemUnavailable as exc:
            raise Refusal(400, "usage", str(exc)) from None
        except RuleViolation as exc:
            raise Refusal(422, "rule", exc.message, exc.rule_id) from None
        except LogError as exc:
            raise Refusal(503, "log", str(exc)) from None
        return self.get(table_id)


@contextlib.contextmanager
def _usable() -> Iterator[None]:
    """Turn a log that cannot be used into a 503 refusal for its table."""
    from tablelog.systems import SystemUnavailable

    try:
        yield
    except (LogError, SystemUnavailable) as exc:
        raise Refusal(503, "log", str(exc)) from None


def _words(line: str) -> list[str]:
    """Split a command line as a ``run`` script does; refuse what this API does not take."""
    try:
        argv = shlex.split(line, comments=True)
    except ValueError as exc:
        raise Refusal(400, "usage", f"not a command line: {exc}") from None
    if argv and argv[0] == "tablelog":
        argv = argv[1:]
    if not argv:
        raise Refusal(400, "usage", "an empty command line")
    if argv[0] not in APPENDING_WORDS and argv[0] not in systems.names():
        raise Refusal(400, "usage", f"{argv[0]!r} is not a command this API takes (it takes the "
                      "commands that append: note, undo, redo and the system's commands)")
    if any(word in ("--log", "--actor", "--dry-run", "--request-id") or word.startswith(
            ("--log=", "--actor=", "--dry-run=", "--request-id=")) for word in argv):
        raise Refusal(400, "usage", "--log, --actor, --dry-run and --request-id are not taken "
                      "in a command line here (dry_run and request_id are fields of the body)")
    return argv


def _click_line(argv: list[str], env: Any) -> None:
    """Run ``argv`` through the CLI's own click tree with ``env``; map its errors."""
    import click

    from tablelog.cli.core import CliError
    from tablelog.cli.main import cli

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
