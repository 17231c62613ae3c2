"""The application loop: open the log -> fold -> decide -> check -> append -> evolve.

This is the only module (with the store) that does I/O: it reads the clock for the envelope's
``at`` and draws the session seed at ``init``. Everything it calls below it is pure.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from tablelog import actions, systems
from tablelog.commands.core import Redo, Undo
from tablelog.events.codec import CodecError, from_record, to_record
from tablelog.events.core import MARKERS, Event
from tablelog.projections.core import (
    State,
    check,
    diff,
    entity_view,
    evolve,
    plain_copy,
    undone_after,
)
from tablelog.replay import Replayer
from tablelog.rules.core import RuleViolation, check_name, check_text
from tablelog.store.base import Lock, Log
from tablelog.store.format import (
    COMMAND_KEY,
    MAX_HEADER_BYTES,
    MAX_RECORD_BYTES,
    RECORD_PREFIX,
    REQUEST_KEY,
    Header,
    Position,
    pack_header,
    pack_record,
)
from tablelog.store.log import LogError, LogMovedOn, StoredRecord, record_error
from tablelog.store.requests import Requests
from tablelog.store.stamp import now_utc, stamp
from tablelog.store.url import create_log, open_log

__all__ = ["Session", "Applied", "Outcome", "LogError", "RuleViolation", "now_utc"]

_OPTIMISTIC_TRIES = 3  # then the command holds the lock from fold to append


def _seq_text(value: object) -> str:
    """Return ``#12`` for a seq, the value's repr for anything else (a forged marker's target)."""
    return f"#{value}" if type(value) is int else repr(value)


def _check_encodable(events: list[Event], actor: str) -> None:
    """Refuse events that cannot be stored: numbers msgpack cannot hold, records over the limit,
    character or item names that would not read back cleanly.

    Raises:
        RuleViolation: CORE-SIZE, naming the event type and the problem; CORE-NAME for a name.
    """
    for event in events:
        for name in event.entities():
            check_name(name)
        type_tag, version, data = to_record(event)
        widest = {
            "type": type_tag,
            "v": version,
            "at": now_utc(),
            "actor": actor,
            "data": data,
            "seq": 2**62,
            "prev": bytes(16),
            "more": 2**31,
        }
        try:
            size = len(pack_record(widest)) - RECORD_PREFIX.size
        except (OverflowError, ValueError, TypeError) as exc:
            raise RuleViolation("CORE-SIZE", f"{type_tag} cannot be stored: {exc}") from None
        if size > MAX_RECORD_BYTES:
            raise RuleViolation(
                "CORE-SIZE",
                f"{type_tag} would take {size} bytes; a record holds at most {MAX_RECORD_BYTES}",
            )


@attrs.frozen
class Applied:
    """One event as appended (or as it would be, on a dry run), with the values it changed."""

    seq: int
    event: Event
    changes: list[tuple[str, Any, Any]]


@attrs.frozen
class Outcome:
    """What a command did: its events, and whether they were written.

    ``repeated`` is true when the command's request id was already in the log: nothing was
    appended and ``applied`` is the first command's result (SERVER.md §2).
    """

    applied: list[Applied]
    written: bool
    repeated: bool = False
    at: str | None = None  # the records' time stamp, when this command appended them


class Session:
    """One open log and its folded state.

    Args:
        path: The log: a file path, or ``STORE_URL#TABLE_ID`` (tablelog/store/url.py), or a
            log already opened.
        actor: Who is logging (goes into each envelope).
        snapshots: Use the snapshot cache beside the log (``verify`` folds without it).
        chain: Check the hash chain of every record it reads (``verify``); other reads check
            each record's CRC-32, envelope and ``seq`` (docs/RELIABILITY.md).
    """

    def __init__(
        self, path: str | Log, actor: str = "gm", snapshots: bool = True, chain: bool = False
    ) -> None:
        self.log = open_log(path) if isinstance(path, str) else path
        self.path = self.log.path  # what messages call the log (never a password)
        self.actor = actor
        self.snapshots = snapshots
        self.chain = chain
        self._header_checked = False  # the system's check of the header's options ran
        self._replayer: Replayer | None = None
        self._state: State | None = None
        self._markers = actions.Markers()
        self._end: Position | None = None
        self._lock: Lock | None = None
        self._last_at: str | None = None  # the ``at`` of the log's last record, once known
        self._requests = Requests()  # which command carried each request id
        self.pending: list[dict[str, Any]] | None = None  # atomic mode: envelopes not yet written
        self._behind: tuple[State, Position | None] | None = None  # a lost race's state, its end

    # -- creation and loading -------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str,
        system: str,
        title: str = "",
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        actor: str = "gm",
    ) -> Session:
        """Create a new log (refusing to overwrite) and return its session.

        ``path`` is a file path or ``STORE_URL#TABLE_ID``; ``STORE_URL`` alone creates a table
        with a new id (the session's ``log.spec`` names it).

        Raises:
            LogError: the file or table exists or cannot be created.
            systems.SystemUnavailable: unknown system.
            RuleViolation: CORE-TEXT for a title with control characters (whoever creates the
                log: the CLI or the table server); CORE-SIZE for a header over the limit.
        """
        import secrets
        import uuid

        check_text(title, "the title")  # shown to every player by `state`
        systems.get(system)
        header = Header(
            session_id=uuid.uuid4().hex,
            system=system,
            created=now_utc(),
            seed=secrets.randbits(63) if seed is None else seed,
            title=title,
            options=dict(options or {}),
        )
        _ = cls._initial(header)  # a bad option (e.g. a malformed clock) refuses before creating
        size = len(pack_header(header))
        if size > MAX_HEADER_BYTES:
            raise RuleViolation(
                "CORE-SIZE",
                f"the title and options take {size} bytes; a header "
                f"holds at most {MAX_HEADER_BYTES}",
            )
        return cls(create_log(path, header), actor)

    @staticmethod
    def _initial(header: Header) -> State:
        return systems.initial_state(
            header.system, header.title, header.session_id, header.seed, header.options
        )

    def blank_state(self) -> State:
        """Return the state before any event (the system's initial state for this header)."""
        return self._initial(self.header)

    def _format(self) -> int:
        """Return the log file's format version (1 or 2; docs/FORMAT.md)."""
        self.header  # noqa: B018 - opens the log
        return self.log.version or 1

    @property
    def header(self) -> Header:
        """The log's header, checked fully on first use: its fields by the store, its options
        by the system (:func:`systems.check_options`).

        Raises:
            LogError: a missing or unusable file, or a header option the system refuses.
        """
        if self.log.header is None:
            self.log.open()
        header = self.log.header
        assert header is not None
        if not self._header_checked:
            try:
                systems.check_options(header.system, header.options)
            except ValueError as exc:
                raise LogError(f"{self.path}: header options refused: {exc}") from None
            self._header_checked = True
        return header

    def events(self, until: int | None = None) -> Iterator[tuple[StoredRecord, Event]]:
        """Yield ``(record, event)`` for every complete record (up to ``until``), decoded.

        Raises:
            LogError: a corrupt record or one that does not decode (offset and seq named).
        """
        systems.get(self.header.system)
        for rec in self.log.scan(chain=self.chain):
            if until is not None and rec.seq > until:
                return
            try:
                yield rec, from_record(rec.type, rec.v, rec.data)
            except CodecError as exc:
                raise record_error(self.path, rec.seq, rec.offset, exc) from None

    def markers(self, until: int | None = None) -> list[tuple[int, str, int]]:
        """Return ``(seq, kind, target)`` of the latest undo/redo marker of each target (up to
        ``until``), in log order: what decides which events are undone."""
        if until is None and self._state is not None:
            return list(self._markers)
        found = actions.Markers()
        for rec in self.log.scan(chain=self.chain):
            if until is not None and rec.seq > until:
                break
            if rec.type in MARKERS:
                target = rec.data.get("target")
                if type(target) is not int or not 0 < target < rec.seq:
                    raise record_error(
                        self.path,
                        rec.seq,
                        rec.offset,
                        f"{rec.type} targets {_seq_text(target)}, which is not an earlier event",
                    )
                found.add(rec.seq, rec.type, target)
        return list(found)

    def state(self, until: int | None = None) -> State:
        """Return the folded state (now, or right after event ``until``).

        Folds from the latest valid snapshot checkpoint when there is one (see
        :mod:`tablelog.replay`); saves new checkpoints every ``SNAPSHOT_EVERY`` events.

        Raises:
            LogError: the log is unreadable or does not replay.
        """
        if until is None and self._state is not None:
            return self._state
        if until is None and self._behind is not None:
            caught = self._caught_up()
            if caught is not None:
                return caught
        if until is not None:
            until = self.command_end(until)
        replayer = self.replayer()
        folded = replayer.fold(until)
        if until is None:
            replayer.remember(folded.taken, folded.undone)
            self._state, self._markers, self._end = folded.state, folded.markers, folded.end
        return folded.state

    def catch_up(self) -> State:
        """Return the current state, folding only the records others appended since this
        session last read or wrote the log (as after a lost race: a fold from a checkpoint
        only when one of them is an undo or redo). What the server calls before every
        decision and read, so a command there costs a decision and an append, not a fold.

        Raises:
            LogError: the log is unreadable or does not replay.
        """
        if self._state is None or self._end is None or self.pending is not None:
            return self.state()
        if self.log.size() == self._end.offset:
            return self._state
        self._catch_up(self._state)
        self._last_at = None  # stamp after the log's new last record
        return self.state()

    def unheld(self) -> list[tuple[int, Event, RuleViolation]]:
        """Return every active event whose precondition does not hold where it stands (a log
        that was edited, or written by a faulty tool): ``verify`` reports them.

        Raises:
            LogError: the log is unreadable.
        """
        self.state()
        return self._refold(undone_after(self._markers), 1)[1]

    def command_end(self, seq: int) -> int:
        """Return the last seq of the command that appended event ``seq`` (see actions)."""
        return actions.command_end(self._summaries(seq), seq) if seq > 0 else seq

    def replayer(self) -> Replayer:
        """Return the fold machinery of this log (with its checkpoints)."""
        if self._replayer is None:
            self._replayer = Replayer(self.log, self.header, self.snapshots, self.chain)
        return self._replayer

    def save_snapshot(self) -> None:
        """Checkpoint the current state into the snapshot file (the end of ``run``)."""
        if not self.snapshots or self.pending is not None:
            return
        try:
            state = self.state()
        except LogError:
            return
        self._checkpoint(state, force=True)

    def _checkpoint(self, state: State, force: bool = False) -> None:
        end = self._end
        if end is not None and end.seq == state.seq and self.pending is None:
            self.replayer().keep(state, end, self._markers, force)

    @property
    def torn_at(self) -> int | None:
        """Offset of a torn last record found by the latest scan, or None."""
        return self.log.torn_at

    # -- commands -------------------------------------------------------------------------

    def _refuse_torn(self) -> None:
        """Raise the append's torn-tail refusal when the log ends in a torn record."""
        if self.log.torn_at is not None:
            raise self.log.torn_error()

    def execute(
        self, command: object, dry_run: bool = False, request_id: str | None = None
    ) -> Outcome:
        """Decide ``command`` on the current state and append its events.

        Optimistic first: fold and decide without the lock, append if the log did not move on,
        else catch up and decide again. After three lost races the command takes the lock
        before folding, so it cannot starve on a busy log. A bare ``undo`` or ``redo`` is
        decided once: when the log moved on before it was appended, it is refused rather than
        retargeted.

        Args:
            command: A command record (core or the log's system).
            dry_run: Decide and show, append nothing.
            request_id: When the log already holds a command with this id, append nothing
                and return that command's result (``Outcome.repeated``); else it goes into the
                command's first record (SERVER.md §2).

        Returns:
            The events with their seqs and the values each changed.

        Raises:
            RuleViolation: the command is refused; nothing is appended. CORE-UNDO / CORE-REDO
                when a bare undo/redo lost a race.
            LogError: the log cannot be used.
        """
        bare = isinstance(command, Undo | Redo) and command.target is None
        for _ in range(_OPTIMISTIC_TRIES):
            outcome = self._attempt(command, dry_run, request_id)
            if outcome is not None:
                return outcome
            if bare:
                verb = "undo" if isinstance(command, Undo) else "redo"
                raise RuleViolation(
                    f"CORE-{verb.upper()}",
                    f"the log moved on while deciding "
                    f"which action to {verb}; name the action: {verb} SEQ",
                )
        if self._lock is not None or self.pending is not None:
            raise LogError(f"{self.path}: the log moved on under an atomic run")
        # Busy log: stop racing, hold the lock from the fold to the append (always progresses).
        lock = self.log.lock()
        self._lock = lock
        try:
            outcome = self._attempt(command, dry_run, request_id)
        finally:
            self._lock = None
            lock.release()
        if outcome is None:
            raise LogError(f"{self.path}: the log moved on while it was locked")
        return outcome

    def _attempt(
        self, command: object, dry_run: bool, request_id: str | None = None
    ) -> Outcome | None:
        """Fold, decide and append once; None when another writer appended first."""
        state = self.state()
        self._refuse_torn()  # before deciding: a dry run or a refusal says what the append would
        if request_id is not None:
            if self._format() < 2:
                raise LogError(
                    f"{self.path} is a format-1 log, which has no request ids: "
                    "start a new log to use them"
                )
            assert self._end is not None
            first = self._requests.find(self.log, self._end, request_id, self.chain)
            if first is not None:
                return Outcome(self.result(*first), False, repeated=True)
        applied, new_state = self._decide(state, command)
        if dry_run or not applied:
            return Outcome(applied, False)
        try:
            self._write([a.event for a in applied], request_id)
        except LogMovedOn:
            self._catch_up(state)  # another writer appended: catch up and decide again
            self._last_at = None  # and stamp after the log's new last record
            return None
        new_state.seq = applied[-1].seq
        self._state = new_state
        for a in applied:
            if a.event.TYPE in MARKERS:
                self._markers.add(a.seq, a.event.TYPE, a.event.target)  # type: ignore[attr-defined]
        if self.snapshots:
            self._checkpoint(new_state)
        return Outcome(applied, True, at=self._last_at)

    def _catch_up(self, state: State) -> None:
        """Forget the state after a lost race; the next fold reads only the records appended
        since ``state`` (the state at ``_end``), unless one of them is an undo or redo."""
        self._state = None
        self._behind = (state, self._end) if self.pending is None else None

    def _caught_up(self) -> State | None:
        """Return the state folded forward from the one a lost race left behind, or None (the
        log changed otherwise, or an undo or redo came in: fold from a checkpoint)."""
        behind, self._behind = self._behind, None
        if behind is None:
            return None
        state, end = behind
        if end is None or end is not self._end:
            return None
        folded = self.replayer().catch_up(state.copy(), end, self._markers)
        if folded is None:
            return None
        self.replayer().remember(folded.taken, folded.undone)
        self._state, self._markers, self._end = folded.state, folded.markers, folded.end
        return folded.state

    def _decide(self, state: State, command: object) -> tuple[list[Applied], State]:
        base = self._next_seq(state)
        if isinstance(command, Undo | Redo) and self.pending is not None:
            rule = "CORE-UNDO" if isinstance(command, Undo) else "CORE-REDO"
            raise RuleViolation(
                rule,
                "undo and redo are not available inside run --atomic or "
                "--dry-run (the lines before are not in the log yet); run the "
                "script without them, then undo",
            )
        if isinstance(command, Undo | Redo):
            past = actions.Past(self.actor, self._markers, self._summaries, self._refold)
            markers, new_state = actions.decide_marker(state, command, past)
            _check_encodable(markers, self.actor)  # an undo's reason is free text: bounded too
            changes = diff(entity_view(state), entity_view(new_state))
            last = len(markers) - 1
            return [
                Applied(base + i, m, changes if i == last else []) for i, m in enumerate(markers)
            ], new_state
        events = systems.decide(state, command)
        _check_encodable(events, self.actor)
        trial = state.copy()
        applied = []
        before = plain_copy(entity_view(trial))
        for i, event in enumerate(events):
            check(trial, event)  # what the decider returned holds on the state it applies to
            evolve(trial, event)
            after = plain_copy(entity_view(trial))  # later events may change lists in place
            applied.append(Applied(base + i, event, diff(before, after)))
            before = after
        return applied, trial

    def _next_seq(self, state: State) -> int:
        return state.seq + 1

    def _write(self, events: list[Event], request_id: str | None = None) -> None:
        at = self._stamp()
        assert self._end is not None
        ids = {COMMAND_KEY: self._end.seq + 1} if self._format() >= 2 else {}  # its first seq
        envelopes = []
        for event in events:
            type_tag, version, data = to_record(event)
            envelopes.append(
                {"type": type_tag, "v": version, "at": at, "actor": self.actor, "data": data, **ids}
            )
        if request_id is not None:
            envelopes[0][REQUEST_KEY] = request_id
        if self.pending is not None:
            self.pending.extend(envelopes)
            self._end = Position(self._end.seq + len(envelopes), self._end.offset, self._end.prev)
            return
        self._end = self.log.append(envelopes, self._end, locked=self._lock is not None)

    def _stamp(self) -> str:
        """Return this command's ``at``: now, but always after the log's last record (read
        again after every lost race), so times never go back even when a player's clock runs
        ahead of this machine's. Every record of one command shares it.
        """
        assert self._end is not None
        if self._last_at is None:
            self._last_at = self.log.last_at(self._end) if self._end.seq else ""
        try:
            self._last_at = stamp(self._last_at)
        except LogError:  # say what to do, as for a time more than a day ahead
            raise LogError(
                f"{self.path}: cannot append after record #{self._end.seq}: its time "
                f"{self._last_at!r} is one no command can follow (a wrong clock or a hostile "
                f"edit wrote it); keep the records before it with: tablelog --log {self.path} "
                "verify --salvage OUT"
            ) from None
        return self._last_at

    # -- undo and redo --------------------------------------------------------------------

    def _summaries(self, near: int | None = None) -> Iterator[actions.Summary]:
        """Yield a summary per record (see :data:`actions.Summary`), for undo and redo to find
        actions.

        With ``near``, start at the latest checkpoint before that seq, unless the action
        there began before the checkpoint (then read the whole log).
        """
        start = self.replayer().pick(near - 1, None) if near is not None else None
        boundary = self._command_at(start.end) if start is not None else None
        first = True
        for seq, env, *_ in self.log.records(start.end if start is not None else None, self.chain):
            key = actions.summary(
                seq,
                env.get(COMMAND_KEY),
                env["at"],
                env["actor"],
                env["type"],
                env["data"].get("target"),
            )
            if first and boundary is not None and key[1] == boundary:
                yield from self._summaries(None)
                return
            first = False
            yield key

    def _command_at(self, end: Position) -> object:
        """Return the command key of the record that ends at ``end`` (see actions.summary)."""
        env = self.log.envelope_at(end)
        return actions.summary(end.seq, env.get(COMMAND_KEY), env["at"], env["actor"], env["type"])[
            1
        ]

    def _refold(self, undone: set[int], target: int) -> tuple[State, list[Any]]:
        return self.replayer().refold_collecting(undone, target)

    def result(self, first: int, last: int) -> list[Applied]:
        """Return the events of the command at seqs ``first..last`` with the values each
        changed when it was appended (a repeated request id's answer)."""
        state = self.state(first - 1) if first > 1 else self.blank_state()
        before = plain_copy(entity_view(state))
        applied = []
        for rec, event in self.events(last):
            if rec.seq < first:
                continue
            if rec.type not in MARKERS:
                evolve(state, event)
            after = plain_copy(entity_view(state))
            applied.append(Applied(rec.seq, event, diff(before, after)))
            before = after
        return applied

    # -- atomic runs ----------------------------------------------------------------------

    @contextmanager
    def atomic(self, commit: bool = True) -> Iterator[None]:
        """Hold the log's lock and buffer every append; write them all at the end, or none.
        With ``commit`` false (a dry run) nothing is written, so no lock is taken.

        Raises:
            LogError: locked past the timeout, or the final write failed (nothing written).
        """
        lock = self.log.lock() if commit else None
        self._lock = lock
        self._state = None
        start = None
        try:
            self.state()
            start = self._end
            self.pending = []
            yield
            self._state = None if not commit else self._state
            pending, self.pending = self.pending, None
            if pending and commit:
                assert start is not None
                self._end = self.log.append(pending, start, locked=True)
        except BaseException:
            self.pending = None
            self._state = None
            raise
        finally:
            self.pending = None
            self._lock = None
            if lock is not None:
                lock.release()
