"""The tables a server holds: one open session per table, kept folded in memory, on any store.

A :class:`Table` is one log of the store with its :class:`~tablelog.session.Session`, whose
state stays in memory between requests: before each decision and read it catches up with what
other processes appended (:meth:`~tablelog.session.Session.catch_up`: only the new records), so
a command costs a decision and an append, not a fold. A :class:`Tables` is the store's set of
tables (``file:DIR`` or ``postgresql://…``, through a :class:`~tablelog.store.catalog.Catalog`),
with one :class:`~tablelog.store.follow.Watcher` waking the event streams of this process when
any process appends (PostgreSQL ``LISTEN/NOTIFY``, a file's size).

Commands are the CLI's own: a line is parsed by the same click tree into a command record
(:mod:`tablelog.server.grammar`), authorised for the seat, and decided and appended by the same
session loop (:meth:`Table.command`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from tablelog.commands.core import Redo, Undo
from tablelog.events.core import Redone, Undone
from tablelog.lang import say
from tablelog.projections.core import State, roster, seats
from tablelog.rules.core import RuleViolation
from tablelog.server.tail import Stored, Tail
from tablelog.session import Outcome, Session
from tablelog.store.catalog import Catalog
from tablelog.store.errors import message_of
from tablelog.store.follow import Watcher
from tablelog.store.log import LogError
from tablelog.text import msg

__all__ = ["Tables", "Table", "Seat", "Refusal", "token_hash"]

# a player's preview is decided on fresh seeds until two decide different events, at most this
# many times (Table.run_line): a saga random factor (1,001 steps) agrees by chance one time in
# a million, a 1D6 one time in 36
STAND_IN_PROBES = 3
# on PostgreSQL, a table looks at its end before a command at most this often, unless the
# store's watcher reported another process's append (see Table's look_s)
COMMAND_LOOK_S = 1.0


def token_hash(token: str) -> str:
    """Return the hex SHA-256 of a token (what the log keeps of a seat's token)."""
    return hashlib.sha256(token.encode()).hexdigest()


SECRET_PREFIX = "t2."  # a table's secret: t2.NONCE.MAC (Table.mint)


def _gate_mac(key: bytes, nonce: str) -> str:
    return hashlib.blake2b(nonce.encode(), key=key, digest_size=16).hexdigest()


@attrs.frozen
class Seat:
    """Who a request acts as: a seat's name, role and characters (the server token is the
    ``gm`` seat of every table)."""

    name: str
    role: str
    characters: tuple[str, ...] = ()


class Refusal(Exception):
    """A request refused: an HTTP status, an error code, a rule ID or None, a message, the
    values it names (``params``) and what it suggests (SERVER.md §4's error shape)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        rule: str | None = None,
        params: dict[str, Any] | None = None,
        suggestions: list[Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.rule = status, code, message, rule
        self.params = params or {}
        self.suggestions = suggestions or []


class Table:
    """One table: its log, its session (state in memory) and a lock for its commands.

    Args:
        table_id: The table's id.
        spec: The ``--log`` value that opens it (``STORE_URL#ID``).
        look_s: Before deciding a command, look at the store's end only when the last look
            is older than this, or the store's watcher reported records past the state
            (:meth:`state`). 0: always (a file: a look is one ``fstat``). A decision on a
            state that others appended past is safe: its append is refused, and the
            session catches up and decides again; dry runs, undo and redo always look.
    """

    def __init__(self, table_id: str, spec: str, look_s: float = 0.0) -> None:
        self.table_id = table_id
        self.spec = spec
        self.look_s = look_s
        self.lock = threading.RLock()
        self.session = Session(spec, "gm")
        self.path = self.session.path  # what messages call it (never a password)
        self.known = 0  # the last seq this process knows the table has (woken streams read)
        self._hinted = False  # the store's watcher hinted at records past ``known``: look
        self._looked = 0.0  # time.monotonic() of the last look at the store
        self._waiters: set[tuple[Any, Any]] = set()  # (event loop, asyncio.Event) of streams
        self._tail = Tail()
        self.streamed: dict[tuple[Any, ...], list[Any]] = {}  # stream lines made, by seat kind
        self._gate: bytes | None = None  # the key of the table's secrets (Table.mint)
        self._enemies: set[str] = set()  # names its records added as enemies (Table.enemies)
        self._enemies_seq = 0  # how far the records were read for them
        self._restricted: dict[int, tuple[str, tuple[str, ...]]] = {}  # seq -> actor, readers
        self._restricted_seq = 0  # how far the records were read for them
        self.reloads = 0  # the session's reloads this table's memory was made after

    def _check_reloaded(self) -> None:
        """Drop what the table keeps of the records when its session found that the store
        lost or changed its tail (a restore from an older backup, a file replaced by an
        older copy: :meth:`~tablelog.session.Session.catch_up`): the records read, the
        stream lines made, the enemies and restricted records read, the whole-log reads
        (keyed by :attr:`reloads`); what it answers next is read from what the store holds,
        and the streams are woken to read it (hold the lock)."""
        if self.session.reloads == self.reloads:
            return
        self.reloads = self.session.reloads
        self._tail = Tail()
        self.streamed = {}
        self._enemies, self._enemies_seq = set(), 0
        self._restricted, self._restricted_seq = {}, 0
        self.known = self.session.state().seq
        self._wake()

    def _gate_key(self) -> bytes:
        """The key the table's secrets are made under: keyed by the session's seed (the GM's
        alone, never sent to another seat) and its id, read from the log's header only."""
        if self._gate is None:
            with self.lock, self._usable():
                header = self.session.header
            self._gate = hashlib.blake2b(
                b"tablelog seat secrets\0" + header.session_id.encode(),
                key=header.seed.to_bytes(8, "big"),
                digest_size=32,
            ).digest()
        return self._gate

    def enemies(self) -> frozenset[str]:
        """Return every name a record of the log added as an enemy up to the state in memory,
        undone and retired ones included (read once, then only the new records): what a seat
        that is not the GM's never sees the hidden figures of, in any view of any seq."""
        from tablelog import systems
        from tablelog.server.redact import enemy_named

        with self.lock, self._usable():
            end = self.session.state().seq
            hidden = systems.get(self.session.state().system).hidden
            if not hidden.enemy_sheets:
                return frozenset()
            while self._enemies_seq < end:
                found = self._tail.after(self.session.log, self._enemies_seq, end, 10_000)
                if not found:
                    break
                for rec in found:
                    name = enemy_named(hidden, rec.type, rec.data)
                    if name is not None:
                        self._enemies.add(name)
                self._enemies_seq = found[-1].seq
            return frozenset(self._enemies)

    def restricted(self) -> dict[int, tuple[str, tuple[str, ...]]]:
        """Return the records only some seats read (a whisper, a secret roll: ``READERS``) up
        to the state in memory: seq -> (its actor, the other seats that read it). Read once,
        then only the new records; the GM reads them all (CORE-SAY)."""
        from tablelog.events.core import READERS

        with self.lock, self._usable():
            end = self.session.state().seq
            while self._restricted_seq < end:
                found = self._tail.after(self.session.log, self._restricted_seq, end, 10_000)
                if not found:
                    break
                for rec in found:
                    readers = READERS.get(rec.type)
                    named = readers(rec.data) if readers is not None else None
                    if named is not None:
                        self._restricted[rec.seq] = (rec.actor, named)
                self._restricted_seq = found[-1].seq
            return dict(self._restricted)

    def mint(self) -> str:
        """Return a new secret of this table (a seat's token, link or session): ``t2.`` a
        random nonce and its MAC under the table's key, so that a secret the table never
        made is refused before the table is folded (:meth:`made`)."""
        nonce = secrets.token_urlsafe(18)
        return f"{SECRET_PREFIX}{nonce}.{_gate_mac(self._gate_key(), nonce)}"

    def made(self, secret: str) -> bool:
        """Whether ``secret`` is one this table made (:meth:`mint`): read from the header
        alone, so a wrong or forged token costs no fold and no look at the records."""
        if not secret.startswith(SECRET_PREFIX):
            return False
        nonce, _, mac = secret[len(SECRET_PREFIX) :].partition(".")
        if not nonce or len(mac) != 32:
            return False
        return secrets.compare_digest(mac, _gate_mac(self._gate_key(), nonce))

    def state(self, within_s: float = 0.0) -> State:
        """Return the current state, caught up with whatever others appended.

        Args:
            within_s: Look at the store only when the last look is older than this, or the
                store's watcher hinted at records past the state (an event stream's read:
                the watcher wakes it, and looks every second). A hint is never taken for
                the table's end: the look reads the store's (:meth:`hinted`).

        Raises:
            Refusal: 503 when the log cannot be used, or is signed (see docs/SERVER.md).
        """
        with self.lock, self._usable():
            now = time.monotonic()
            state = self.session.state()
            if not within_s or now - self._looked > within_s or self._hinted:
                self._hinted = False  # before the look: a hint that comes during it is kept
                state = self.session.catch_up()
                self._looked = now
                self._check_reloaded()
            self.known = max(self.known, state.seq)
        keys = roster(state)
        if keys:
            owner = next(iter(keys))
            raise Refusal(
                503,
                "log",
                say(
                    msg(
                        "server.table.signed",
                        "table {table} is signed (its roster of signing keys begins with "
                        "{owner}'s): the server cannot sign what seats append, so it does not "
                        "serve it; play it with the CLI",
                        table=self.table_id,
                        owner=owner,
                    )
                ),
            )
        return state

    def _usable(self) -> contextlib.AbstractContextManager[None]:
        """Turn a log that cannot be used into a 503 naming the table, never the server's
        files or database (``/srv/tables/ID.tlog`` reads as ``table ID``)."""
        folder = self.path.partition("#")[0] if "#" in self.path else os.path.dirname(self.path)
        return _usable({self.path: _table_name(self.table_id), folder: _store_name()})

    def current(self) -> State:
        """Return the state in memory, as the last :meth:`state` or command left it (no look
        at the store: within a request that has just caught up)."""
        with self.lock, self._usable():
            return self.session.state()

    def seat_of(self, token: str, fresh: bool = True, kind: str = "token") -> Seat | None:
        """Return the seat whose secret this is (compared by hash), or None.

        Args:
            token: The request's secret.
            fresh: Catch up with the store first; False: on the state in memory (an event
                stream's check before each delivery, right after its own catch-up).
            kind: ``"token"`` (a bearer token), ``"session"`` (a browser session's cookie)
                or ``"link"`` (a seat's page link, not yet used).
        """
        if not self.made(token):
            return None  # never made here: no fold, no look at the store
        digest = token_hash(token)
        for name, seat in seats(self.state() if fresh else self.current()).items():
            if kind == "token":
                held = [seat["token_sha256"]]
            elif kind == "session":
                held = list(seat.get("sessions", ()))
            else:
                held = [seat.get("link_sha256") or ""]
            if any(secrets.compare_digest(h, digest) for h in held):
                return Seat(name, seat["role"], tuple(seat["characters"]))
        return None

    def execute(self, command: object, actor: str) -> Outcome:
        """Decide and append a command record (not a command line) as ``actor``."""
        with self.lock, self._usable():
            self.state()
            self.session.actor = actor
            outcome = self._execute(command, False, None)
            self._appended()
            return outcome

    def command(
        self,
        command: object,
        seat: Seat,
        request_id: str | None = None,
        dry_run: bool = False,
        vet: Callable[[], None] | None = None,
    ) -> tuple[Outcome, bool]:
        """Decide and append one command record as ``seat``: the session loop, as the CLI's.

        A dry run of a seat other than the GM's is decided with a fresh random seed, never the
        table's (what decides future rolls goes to no seat but the GM's, SERVER.md §3), and
        again with other fresh seeds (at most ``STAND_IN_PROBES`` decisions in all): when two
        decide different events, its dice and random factors are stand-ins; when all agree,
        nothing in it depends on the seed (a roll whose stand-ins all agree by chance reads
        as seed-free: a 1D6 one time in 36).

        ``vet``, when given, runs once the table has caught up, under its lock, before the
        command is decided: the seat's checks that read the log as the decider will (a
        player's undo of a roll, CORE-REROLL); it raises :class:`Refusal`.

        Returns:
            The outcome, and whether its rolls are stand-ins (True only for such a dry run
            whose events depend on the seed).

        Raises:
            RuleViolation: the command is refused (nothing appended).
            Refusal: 503 the log cannot be used.
        """
        with self.lock, self._usable():
            marker = isinstance(command, Undo | Redo)
            self.state(0.0 if dry_run or marker else self.look_s)
            self.session.actor = seat.name
            if vet is not None:
                vet()
            if not dry_run or seat.role == "gm":
                outcome = self._execute(command, dry_run, request_id)
                if outcome.repeated and self._confirm_repeated():
                    outcome = self._execute(command, dry_run, request_id)
                if outcome.repeated:
                    self._same_request(command, seat, outcome, request_id or "")
                if outcome.written:
                    self._keep_written()
                self._appended()
                return outcome, False
            first = self._preview(command)
            events = [a.event for a in first.applied]
            for _ in range(STAND_IN_PROBES - 1):
                if [a.event for a in self._preview(command).applied] != events:
                    return first, True
        return first, False

    def _execute(self, command: object, dry_run: bool, request_id: str | None) -> Outcome:
        """The session's decision and append (hold the lock); a lost race that found the
        store's tail lost drops what the table kept of it."""
        try:
            return self.session.execute(command, dry_run=dry_run, request_id=request_id)
        finally:
            self._check_reloaded()

    def _confirm_repeated(self) -> bool:
        """Look at the store's end before answering a request id "already done" from memory
        (a command may have decided on the state without a look, ``look_s``): return whether
        the store lost or changed its tail, so that the request is decided again on what it
        holds (a request id in no record is a new request). Hold the lock."""
        reloads = self.reloads
        self.state()
        return self.reloads != reloads

    def _same_request(self, command: object, seat: Seat, outcome: Outcome, request_id: str) -> None:
        """Refuse a request id the table holds for another seat's command, or for another
        command: a repeated request is the same seat's same command, whose first answer it
        gets (hold the lock). The command is decided again on the state it was first decided
        on: deciders are pure, so the same command decides the same events (an undo or redo:
        the same kind of marker, on the target it names).

        Raises:
            Refusal: 409 conflict naming the request id.
        """
        from tablelog import systems

        first = outcome.applied[0].seq
        actor = self.records_after(first - 1, 1)[0].actor
        recorded = [a.event for a in outcome.applied]
        if actor != seat.name:
            same = False
        elif isinstance(command, Undo | Redo):
            kind = Undone if isinstance(command, Undo) else Redone
            targets = {getattr(e, "target", None) for e in recorded}
            same = all(isinstance(e, kind) for e in recorded) and (
                command.target is None or command.target in targets
            )
        else:
            before = self.session.deciding_state(first - 1)
            try:
                same = systems.decide(before, command) == recorded
            except RuleViolation:
                same = False
        if not same:
            raise Refusal(
                409,
                "conflict",
                say(
                    msg(
                        "server.request.conflict",
                        "request id {id!r} is #{seq}'s, another seat's or another command's: "
                        "a repeated request is the same seat's same command; send a new id",
                        id=request_id,
                        seq=first,
                    )
                ),
                params={"request_id": request_id, "seq": first},
            )

    def _preview(self, command: object) -> Outcome:
        """A dry run of ``command`` decided with a fresh seed, and stand-ins for the hidden
        figures of the table's enemies (hold the lock; CORE-UNSEEN)."""
        from tablelog import systems

        self.session.preview_seed = secrets.randbits(63)
        stand_ins = systems.get(self.session.header.system).stand_ins
        if stand_ins is not None:
            hidden = self.enemies()

            def blind(state: State) -> State:
                copied = state.copy()
                stand_ins(copied, hidden)
                return copied

            self.session.preview_state = blind
        try:
            return self.session.execute(command, dry_run=True)
        finally:
            self.session.preview_seed = None
            self.session.preview_state = None

    def _keep_written(self) -> None:
        """Keep the records the command just appended in the tail (no read back)."""
        written, end = self.session.writer.written, self.session.end
        if written is not None and end is not None:
            self._tail.appended(*written, end)

    @contextlib.contextmanager
    def reader(self) -> Iterator[Session]:
        """Yield a session of its own on the table, without snapshots (a whole read such as a
        history or a report, which must not hold the table's lock), closed after."""
        session = Session(self.spec, snapshots=False)
        try:
            with self._usable():
                yield session
        finally:
            session.log.close()

    def records_after(self, seq: int, limit: int = 10_000) -> list[Stored]:
        """Return the records after ``seq`` (at most ``limit``) up to where the table's state
        is (call :meth:`state` first to catch up), in order (see :class:`Tail`).

        Raises:
            Refusal: 503 when the log cannot be used.
        """
        with self.lock, self._usable():
            return self._tail.after(self.session.log, seq, self.session.state().seq, limit)

    async def wait(self, seq: int, timeout_s: float) -> None:
        """Wait (without a thread) until the table is known to have records past ``seq`` (an
        append here, or another process's, reported by the store's watcher), or ``timeout_s``
        passed."""
        if self.known > seq:
            return
        event = asyncio.Event()
        waiter = (asyncio.get_running_loop(), event)
        self._waiters.add(waiter)
        try:
            if self.known <= seq:
                await asyncio.wait_for(event.wait(), timeout_s)
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)

    @property
    def watched(self) -> bool:
        """Whether an event stream of this process waits on the table."""
        return bool(self._waiters)

    def changed(self, seq: int) -> None:
        """Wake the streams waiting on the table: this process appended records up to
        ``seq`` (the store's own answer, so it is the table's end)."""
        if seq <= self.known:
            return
        self.known = seq
        self._wake()

    def hinted(self, seq: int | None) -> None:
        """Take the store watcher's word that the table may have records up to ``seq`` (None:
        may have new records) as a hint only: a notification is anyone's to send (any client
        of the database may ``NOTIFY tablelog``), so it never moves :attr:`known`. A ``seq``
        this process already has costs nothing; any other makes the next read look at the
        store's end once (:meth:`state`) and wakes the streams to read what is there."""
        if seq is not None and seq <= self.known:
            return
        self._hinted = True
        self._wake()

    def _wake(self) -> None:
        for loop, event in list(self._waiters):
            loop.call_soon_threadsafe(event.set)

    def _appended(self) -> None:
        """Wake every stream waiting on the table (called after each append here)."""
        end = self.session.end
        if end is None:
            self._wake()
        else:
            self.changed(end.seq)


class Tables:
    """The tables of a store, opened on first use and kept (on PostgreSQL the process keeps at
    most ``$TABLELOG_PG_CONNECTIONS`` of their connections open: the store closes the least
    recently used idle one, and it connects again when used; :mod:`tablelog.store.pgtable`).

    Args:
        store: ``file:DIR`` (the directory is created when missing) or a PostgreSQL URL.

    Raises:
        LogError: not a store URL.
    """

    def __init__(self, store: str) -> None:
        self.catalog = Catalog(store)
        self.kind = self.catalog.kind
        self._open: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()
        self.watcher = Watcher(self.kind, self.catalog.url, self._changed)
        # on PostgreSQL a look at a table's end is a query: a command decides on the state in
        # memory, looking once a second or when the watcher (of a table with event streams)
        # reported another process's append (Table's look_s)
        self.look_s = COMMAND_LOOK_S if self.kind == "postgresql" else 0.0
        # what the store's messages call its files or database, and what a client reads
        self._folder = self.catalog.folder

    def get(self, table_id: str) -> Table:
        """Return the table ``table_id``.

        Raises:
            Refusal: 404 when there is no such table, 503 when the store cannot be used.
        """
        with self._lock:
            table = self._open.get(table_id)
            if table is not None:
                self._open.move_to_end(table_id)
                return table
        with _usable(self._names()):
            if not self.catalog.exists(table_id):
                raise Refusal(404, "not_found", f"no table {table_id!r}")
            table = Table(table_id, self.catalog.spec(table_id), self.look_s)
        with self._lock:
            return self._open.setdefault(table_id, table)

    def ids(self) -> list[str]:
        """Return every table id in the store, sorted.

        Raises:
            Refusal: 503 when the store cannot be used.
        """
        with _usable(self._names()):
            return self.catalog.ids()

    def _names(self) -> dict[str, str]:
        """What the store's messages may name (its folder), as a client reads it."""
        return {self._folder: _store_name()} if self._folder else {}

    def create(self, system: str, title: str, seed: int | None, options: dict[str, Any]) -> Table:
        """Create a table with a new id.

        Raises:
            Refusal: 422 for a rule's refusal of the options, 400 for an unknown system, 503
                when the store cannot be used.
        """
        from tablelog.rules.core import RuleViolation
        from tablelog.store.url import table_id_of
        from tablelog.systems import SystemUnavailable

        try:
            made = Session.create(self.catalog.url, system, title=title, seed=seed, options=options)
        except SystemUnavailable as exc:
            raise Refusal(400, "usage", str(exc)) from None
        except ValueError as exc:  # a seed out of range, an option the system does not take
            raise Refusal(400, "usage", str(exc)) from None
        except RuleViolation as exc:
            raise Refusal(422, "rule", exc.message, exc.rule_id) from None
        except LogError as exc:
            raise Refusal(503, "log", _scrubbed(say(exc.msg), self._names())) from None
        made.log.close()
        return self.get(table_id_of(made.log))

    def discard(self, table: Table) -> None:
        """Remove a table this process has just created and does not keep (its GM seat could
        not be added): a refused creation leaves no table behind."""
        from tablelog.store.url import discard_log

        with self._lock:
            self._open.pop(table.table_id, None)
        with table.lock, contextlib.suppress(LogError, OSError):
            discard_log(table.session.log)
            table.session.log.close()

    def watch(self, table: Table) -> None:
        """Have the store's watcher report other processes' appends to ``table``."""
        self.watcher.watch(table.table_id, table.session.log)

    def _changed(self, table_id: str, seq: int | None) -> None:
        table = self._open.get(table_id)
        if table is not None:
            table.hinted(seq)

    def close(self) -> None:
        """Stop the watcher and close every connection."""
        self.watcher.close()
        self.catalog.close()
        for table in list(self._open.values()):
            table.session.log.close()


def _table_name(table_id: str) -> str:
    """What a refusal calls a table's file or row, in the reader's words: ``table ID``."""
    return say(msg("server.name.table", "table {table}", table=table_id))


def _store_name() -> str:
    """What a refusal calls the store's folder or database, in the reader's words."""
    return say(msg("server.name.store", "the store"))


@contextlib.contextmanager
def _usable(names: dict[str, str] | None = None) -> Iterator[None]:
    """Turn a log that cannot be used into a 503 refusal for its table; ``names`` maps what
    the store's message may name (a file, the store's folder) to what a client reads."""
    from tablelog.systems import SystemUnavailable

    try:
        yield
    except (LogError, SystemUnavailable) as exc:
        raise Refusal(503, "log", _scrubbed(say(message_of(exc)), names or {})) from None


def _scrubbed(message: str, names: dict[str, str]) -> str:
    """``message`` with every name of ``names`` replaced (the longest first)."""
    for name in sorted(names, key=len, reverse=True):
        if name:
            message = message.replace(name, names[name])
    return message
