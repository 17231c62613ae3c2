"""The application loop: load -> decide -> append -> evolve.

:meth:`Session.execute` folds the log (:mod:`tablelog.replay`), decides the command on that
state (:mod:`tablelog.decision`: the events, checked, and the state they evolve to), appends
them where the folded log ended (:mod:`tablelog.writer`) and keeps that state; when another
writer appended first, it catches up and decides again (:mod:`tablelog.retry`). Undo and redo
are decided by their decider (:mod:`tablelog.actions`) from what :mod:`tablelog.past` reads.

With the store, the modules it composes are the only ones that do I/O: the clock for the
envelope's ``at`` (:mod:`tablelog.store.stamp`) and the seed drawn at ``init``
(:mod:`tablelog.headers`). Everything they call below them is pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import attrs

from tablelog import actions, decision, past, retry, systems
from tablelog.commands.core import Redo, Undo
from tablelog.decision import Applied, Outcome
from tablelog.events.core import MARKERS, Event
from tablelog.headers import check_header, initial_state, new_header
from tablelog.projections.core import State, roster, undone_after
from tablelog.replay import Folded, Replayer
from tablelog.rules.core import RuleViolation
from tablelog.store.base import Log
from tablelog.store.errors import LogError, LogMovedOn, torn_error
from tablelog.store.format import Header, Position
from tablelog.store.reader import StoredRecord
from tablelog.store.requests import Requests
from tablelog.store.stamp import now_utc
from tablelog.store.url import create_log, open_log
from tablelog.writer import Writer

__all__ = ["Session", "Applied", "Outcome", "LogError", "RuleViolation", "now_utc"]


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
        self.writer = Writer(self.log)  # where the folded log ends; the atomic buffer
        self._header_checked = False  # the system's check of the header's options ran
        self._replayer: Replayer | None = None
        self._state: State | None = None
        self._markers = actions.Markers()
        self._requests = Requests()  # which command carried each request id
        self._behind: tuple[State, Position | None] | None = None  # a lost race's state, its end
        self.reloads = 0  # how many times the log was found to have lost or changed its tail
        # a dry run decides on the state with this seed instead of the log's, when set (the
        # server's previews for seats but the GM's: stand-in dice, SERVER.md §3)
        self.preview_seed: int | None = None
        # and, when set, on the state this returns (a copy): stand-ins for what the seat may
        # not see (an enemy's HP, CORE-UNSEEN)
        self.preview_state: Callable[[State], State] | None = None

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
            RuleViolation: the header is refused (:func:`tablelog.headers.new_header`).
        """
        return cls(create_log(path, new_header(system, title, seed, options or {})), actor)

    @property
    def header(self) -> Header:
        """The log's header, checked fully on first use: its fields by the store, its options
        by the system (:func:`tablelog.headers.check_header`).

        Raises:
            LogError: a missing or unusable file, or a header option the system refuses.
        """
        if self.log.header is None:
            self.log.open()
        header = self.log.header
        assert header is not None
        if not self._header_checked:
            check_header(self.path, header)
            self._header_checked = True
        return header

    @property
    def end(self) -> Position | None:
        """Where the log ends as this session last folded or wrote it (None: not folded yet)."""
        return self.writer.end

    @property
    def torn_at(self) -> int | None:
        """Offset of a torn last record found by the latest scan, or None."""
        return self.log.torn_at

    @property
    def in_flight(self) -> int | None:
        """Offset of a last record another writer was still writing at the latest scan (it
        held the lock past the timeout; the scan ended before it), or None."""
        return self.log.in_flight

    def blank_state(self) -> State:
        """Return the state before any event (the system's initial state for this header)."""
        return initial_state(self.header)

    def replayer(self) -> Replayer:
        """Return the fold machinery of this log (with its checkpoints)."""
        if self._replayer is None:
            self._replayer = Replayer(self.log, self.header, self.snapshots, self.chain)
        return self._replayer

    def events(self, until: int | None = None) -> Iterator[tuple[StoredRecord, Event]]:
        """Yield ``(record, event)`` for every complete record (up to ``until``), decoded.

        Raises:
            LogError: a corrupt record or one that does not decode (offset and seq named).
        """
        systems.get(self.header.system)
        yield from past.events(self.log, self.chain, until)

    def markers(self, until: int | None = None) -> list[tuple[int, str, int]]:
        """Return ``(seq, kind, target)`` of the latest undo/redo marker of each target (up to
        ``until``), in log order: what decides which events are undone."""
        if until is None and self._state is not None:
            return list(self._markers)
        return list(past.markers(self.log, self.chain, until))

    def summaries(self, near: int | None = None) -> Iterator[actions.Summary]:
        """Yield a summary per record for undo and redo (:func:`tablelog.past.summaries`)."""
        return past.summaries(self.replayer(), near)

    def command_end(self, seq: int) -> int:
        """Return the last seq of the command that appended event ``seq`` (see actions)."""
        return actions.command_end(self.summaries(seq), seq) if seq > 0 else seq

    # -- the folded state -----------------------------------------------------------------

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
        folded = self.replayer().fold(until)
        if until is not None:
            return folded.state
        self.replayer().remember(folded.taken, folded.undone)
        return self._keep(folded)

    def deciding_state(self, until: int) -> State:
        """Return the state a command right after event ``until`` was decided on: folded there,
        keyed by the latest undo/redo marker up to it (CORE-RANDOM: see
        :func:`tablelog.projections.core.random_seed`)."""
        state = self.state(until) if until > 0 else self.blank_state()
        last = max((seq for seq, _, _ in self.markers(until)), default=0)
        return attrs.evolve(state, marked=last)

    def catch_up(self) -> State:
        """Return the current state, folding only the records others appended since this
        session last read or wrote the log (as after a lost race: a fold from a checkpoint
        only when one of them is an undo or redo). What the server calls before every
        decision and read, so a command there costs a decision and an append, not a fold.
        A log that no longer holds the record the state ended with (it lost or changed its
        tail) is read again as it is (:meth:`_forget`).

        Raises:
            LogError: the log is unreadable or does not replay.
        """
        end = self.writer.end
        if self._state is None or end is None or self.writer.pending is not None:
            return self.state()
        if self.log.ends_at(end):
            # Nothing after the state, so nothing torn or in flight either: a tear seen before
            # was cut since (`verify --repair` by another process).
            self.log.torn_at = self.log.in_flight = None
            return self._state
        self._lost_race(self._state)
        return self.state()

    def _lost_race(self, state: State) -> None:
        """Forget the state: others appended after it. The next fold reads only the records
        appended since ``state`` (the state where the log ended), unless one of them is an
        undo or redo; the next command stamps after the log's new last record."""
        self._state = None
        self._behind = (state, self.writer.end) if self.writer.pending is None else None
        self.writer.moved_on()

    def _caught_up(self) -> State | None:
        """Return the state folded forward from the one a lost race left behind, or None (the
        log changed otherwise, or an undo or redo came in: fold from a checkpoint)."""
        behind, self._behind = self._behind, None
        if behind is None or behind[1] is None or behind[1] is not self.writer.end:
            return None
        if not self.log.holds(behind[1]):
            self._forget()
            return None
        folded = self.replayer().catch_up(behind[0], behind[1], self._markers)
        return None if folded is None else self._keep(folded)

    def _forget(self) -> None:
        """Forget all the session knew of the log: it no longer holds the record its state
        ended with (restored from an older backup, replaced by an older copy or rewritten).
        The next fold reads the log as it is, from a checkpoint it still holds; the request
        ids are read again (one in no record is new); ``reloads`` counts it for the caches
        of those who keep some (the server's tables)."""
        self._state = self._behind = None
        self._replayer = None  # its checkpoints may lie past the log's end now
        self._markers = actions.Markers()
        self._requests = Requests()
        self.writer.moved_on()
        self.reloads += 1

    def _keep(self, folded: Folded) -> State:
        """Keep the state a fold of the whole log returned, its markers and where it ended."""
        self._state, self._markers, self.writer.end = folded.state, folded.markers, folded.end
        return folded.state

    def unheld(self) -> list[tuple[int, Event, RuleViolation]]:
        """Return every active event whose precondition does not hold where it stands (a log
        that was edited, or written by a faulty tool): ``verify`` reports them.

        Raises:
            LogError: the log is unreadable.
        """
        self.state()
        return self.replayer().refold_collecting(undone_after(self._markers), 1)[1]

    def save_snapshot(self) -> None:
        """Checkpoint the current state into the snapshot file (the end of ``run``)."""
        if not self.snapshots or self.writer.pending is not None:
            return
        try:
            state = self.state()
        except LogError:
            return
        self.replayer().keep(state, self.writer.end, self._markers, force=True)

    # -- commands -------------------------------------------------------------------------

    def execute(
        self, command: object, dry_run: bool = False, request_id: str | None = None
    ) -> Outcome:
        """Decide ``command`` on the current state and append its events, deciding again
        when another writer appended first (:func:`tablelog.retry.optimistically`).

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
        return retry.optimistically(
            lambda: self._attempt(command, dry_run, request_id), command, self.writer
        )

    def _attempt(self, command: object, dry_run: bool, request_id: str | None) -> Outcome | None:
        """Load, decide, append and evolve once; None when another writer appended first."""
        state = self.state()
        if self.log.torn_at is not None:  # before deciding: a refusal says what appending would
            raise torn_error(self.log)
        if request_id is not None and (first := self._repeated(request_id)) is not None:
            return Outcome(self.result(*first), False, repeated=True)
        buffered = self.writer.pending is not None
        if not dry_run:
            self._refuse_a_key_not_held(state)
        state = attrs.evolve(state, marked=self._markers.last)  # CORE-RANDOM; decide copies
        if dry_run and self.preview_seed is not None:
            state = attrs.evolve(state, seed=self.preview_seed)
        if dry_run and self.preview_state is not None:
            state = self.preview_state(state)
        applied, new_state = decision.decide(state, command, self.actor, self._past(), buffered)
        if dry_run or not applied:
            return Outcome(applied, False)
        try:
            self.writer.write([a.event for a in applied], self.actor, request_id)
        except LogMovedOn:
            self._lost_race(state)  # another writer appended: catch up and decide again
            return None
        self._evolved(applied, new_state)
        return Outcome(applied, True, at=self.writer.last_at)

    def _refuse_a_key_not_held(self, state: State) -> None:
        """CORE-KEY (:func:`tablelog.decision.refuse_a_key_not_held`): the user's own key for
        the actor is read only when the roster has one for it."""
        keys = roster(state)
        if self.actor not in keys:
            return
        from tablelog.store.keys import private_key, public_hex

        key = private_key(self.actor)
        decision.refuse_a_key_not_held(keys, self.actor, None if key is None else public_hex(key))

    def _repeated(self, request_id: str) -> tuple[int, int] | None:
        """Return the ``(first, last)`` seqs of the command that carried ``request_id``."""
        assert self.writer.end is not None
        return self._requests.find(self.log, self.writer.end, request_id, self.chain)

    def marked_action(self, command: object) -> actions.Action | None:
        """Return the action the undo or redo ``command`` would take back or restore now, or
        None (not an undo or redo, or one its decider refuses)."""
        if not isinstance(command, Undo | Redo):
            return None
        try:
            return actions.marked_action(self.state(), command, self._past())[0]
        except RuleViolation:
            return None

    def _past(self) -> actions.Past:
        """Return what the undo decider reads of this log (:class:`tablelog.actions.Past`)."""
        refold = self.replayer().refold_collecting
        return actions.Past(self.actor, self._markers, self.summaries, refold)

    def _evolved(self, applied: list[Applied], state: State) -> None:
        """Keep ``state``, the state after the command's events ``applied`` were appended."""
        state.seq = applied[-1].seq
        state.marked = 0  # set again before the next decision (CORE-RANDOM)
        self._state = state
        for a in applied:
            if a.event.TYPE in MARKERS:
                self._markers.add(a.seq, a.event.TYPE, a.event.target)  # type: ignore[attr-defined]
        if self.snapshots and self.writer.pending is None:
            self.replayer().keep(state, self.writer.end, self._markers)

    def result(self, first: int, last: int) -> list[Applied]:
        """Return the events of the command at seqs ``first..last`` with the values each
        changed when it was appended (a repeated request id's answer)."""
        state = self.state(first - 1) if first > 1 else self.blank_state()
        events = ((rec.seq, event) for rec, event in self.events(last) if rec.seq >= first)
        return decision.trace(state, events, checked=False)

    @contextmanager
    def atomic(self, commit: bool = True) -> Iterator[None]:
        """Hold the log's lock and buffer every append; write them all at the end, or none.
        With ``commit`` false (a dry run) nothing is written, so no lock is taken.

        Raises:
            LogError: locked past the timeout, or the final write failed (nothing written).
        """
        with self.writer.locked() if commit else nullcontext():
            self._state = None
            try:
                self.state()
                with self.writer.buffered(commit):
                    yield
            except BaseException:
                self._state = None
                raise
            if not commit:
                self._state = None
