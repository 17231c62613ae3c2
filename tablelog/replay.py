"""Folding a log into a State fast: one streaming pass, checkpoints, and the snapshot cache.

The session layer's read side (it does I/O through the store). A fold starts from the latest
checkpoint (a cached state at some seq, see :mod:`tablelog.store.snapshot`), or from the initial
state, and streams the records after it once, collecting undo/redo markers as it goes. It folds
*optimistically*: events undone by markers it has not met yet are applied. When the undone set
turns out to differ from the one it folded with (a new undo or redo since the checkpoint), it
folds again from the latest checkpoint that is still valid for the final undone set. A checkpoint
is valid for an undone set U when the seqs it skipped are exactly the members of U up to its seq.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import itertools
import os
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from tablelog import systems
from tablelog.actions import Markers
from tablelog.events.codec import CodecError
from tablelog.events.core import MARKERS, Event
from tablelog.folding import (
    check_system,
    decoder_of,
    entry_of,
    failure,
    marker_target,
    misfit,
    still_readable,
)
from tablelog.headers import initial_state
from tablelog.projections.core import State, evolvers, fold_collecting, undone_after
from tablelog.rules.core import RuleViolation
from tablelog.store.base import Log
from tablelog.store.errors import LogError, record_error
from tablelog.store.format import Header, Position
from tablelog.store.reader import after
from tablelog.store.snapshot import (
    Checkpoint,
    decode_state,
    encode_state,
    read_checkpoints,
    write_checkpoints,
)
from tablelog.text import msg

__all__ = [
    "Replayer",
    "Folded",
    "SNAPSHOT_EVERY",
    "MAX_CHECKPOINTS",
    "code_version",
    "snapshot_every",
]

SNAPSHOT_EVERY: int | None = None  # events between checkpoints; None: see snapshot_every()
MAX_CHECKPOINTS = 12
_CODE_VERSIONS: dict[str, str] = {}
_ROOT = os.path.dirname(os.path.abspath(__file__))
_STATE_FIELDS = tuple(f.name for f in attrs.fields(State))


@attrs.define
class Folded:
    """The result of a fold: the state, the markers that matter (the latest of each target),
    where it ended, new checkpoints."""

    state: State
    markers: Markers
    end: Position
    taken: list[Checkpoint]
    undone: frozenset[int]
    error: LogError | None = None


def snapshot_every() -> int:
    """Return the events between checkpoints: ``SNAPSHOT_EVERY`` when set, else
    ``$TABLELOG_SNAPSHOT_EVERY`` (default 1000).

    Raises:
        LogError: the variable is not a whole number of at least 1.
    """
    if SNAPSHOT_EVERY is not None:
        return max(1, SNAPSHOT_EVERY)
    text = os.environ.get("TABLELOG_SNAPSHOT_EVERY") or "1000"  # empty: unset
    if not (text.isascii() and text.isdigit() and len(text) <= 10 and 1 <= int(text) <= 10**9):
        raise LogError(
            msg(
                "core.snapshot.every_env",
                "TABLELOG_SNAPSHOT_EVERY must be a whole number of events from 1 to "
                "1000000000, got {text}",
                text=repr(text),
            )
        )
    return int(text)


def code_version(system: str) -> str:
    """Return a digest of the code that folds ``system``'s events (the snapshot key).

    Covers the core projection, event and rule modules, the packages the system's declaration
    names as its ``code`` (its events, projection and rules), its ``data_files`` and every
    packaged data file (catalogues), so any change to them makes snapshots stale.
    """
    found = _CODE_VERSIONS.get(system)
    if found is not None:
        return found
    declared = systems.get(system)
    join = os.path.join
    data = join(_ROOT, "rules", "data")
    paths = [
        join(_ROOT, "projections", "core.py"),
        join(_ROOT, "events", "core.py"),
        join(_ROOT, "events", "codec.py"),
        join(_ROOT, "events", "mirror.py"),
        join(_ROOT, "events", "misfit.py"),
        join(_ROOT, "rules", "core.py"),
        join(_ROOT, "folding.py"),
        os.path.abspath(__file__),
    ]
    for name in declared.code:
        own = os.path.abspath(importlib.import_module(name).__file__ or "")
        paths += _tree(os.path.dirname(own)) if own.endswith("__init__.py") else [own]
    paths += [join(data, name) for name in declared.data_files] + _tree(data)
    digest = hashlib.blake2b(repr(_STATE_FIELDS).encode(), digest_size=16)
    for path in sorted(set(paths)):
        if os.path.isfile(path):
            with open(path, "rb") as f:
                digest.update(os.path.basename(path).encode() + b"\0" + f.read())
    found = _CODE_VERSIONS[system] = digest.hexdigest()
    return found


def _tree(folder: str) -> list[str]:
    found = []
    for where, _, names in os.walk(folder):
        found += [os.path.join(where, n) for n in names if n.endswith((".py", ".csv"))]
    return found


class Replayer:
    """Folds one log, with its checkpoints (loaded from and saved to the snapshot file).

    Args:
        log: The opened log (a file or a PostgreSQL table: tablelog/store/base.py).
        header: Its header.
        snapshots: Read and write the snapshot cache (``verify`` folds without it).
        chain: Check every record's hash chain too (``verify``; see LogFile.scan).
    """

    def __init__(
        self, log: Log, header: Header, snapshots: bool = True, chain: bool = False
    ) -> None:
        self.log = log
        self.header = header
        self.snapshots = snapshots
        self.chain = chain
        self.every = snapshot_every()
        systems.get(header.system)
        self._code = code_version(header.system) if snapshots else ""
        self._cps: list[Checkpoint] | None = None
        self._trusted: set[int] = set()
        self._saved_seq = -1

    # -- checkpoints ---------------------------------------------------------------------

    def checkpoints(self) -> list[Checkpoint]:
        """Return the known checkpoints, oldest first (loaded from the snapshot file once)."""
        if self._cps is None:
            self._cps = []
            if self.snapshots:
                self._cps = read_checkpoints(self.log, self.header.session_id, self._code)
                self._saved_seq = self._cps[-1].end.seq if self._cps else -1
        return self._cps

    def initial(self) -> State:
        """Return the state before any event."""
        return initial_state(self.header)

    def pick(
        self,
        below: int | None,
        undone: frozenset[int] | set[int] | None,
        extra: Sequence[Checkpoint] = (),
    ) -> Checkpoint | None:
        """Return the latest usable checkpoint at or before seq ``below`` (any seq when None)
        that is valid for ``undone`` (any when None) and still matches the log's bytes."""
        candidates = sorted([*self.checkpoints(), *extra], key=lambda c: c.end.seq, reverse=True)
        for cp in candidates:
            if below is not None and cp.end.seq > below:
                continue
            if undone is not None and not cp.valid_for(undone):
                continue
            if id(cp) in self._trusted or self._anchored(cp):
                self._trusted.add(id(cp))
                return cp
            self._cps = [c for c in self.checkpoints() if c is not cp]
        return None

    def _anchored(self, cp: Checkpoint) -> bool:
        """Check that the log still holds the checkpoint's record (its seq and chain hash)
        with every record before it unchanged (the store's digest of them)."""
        if cp.end.seq == 0:
            return self.log.holds(cp.end)
        return self.log.holds(cp.end) and self.log.prefix_digest(cp.end) == cp.prefix_crc

    def restore(self, cp: Checkpoint | None) -> State:
        """Return a fresh state from a checkpoint (or the initial state for None)."""
        if cp is None:
            return self.initial()
        initial = self.initial()
        return State(**decode_state(cp.state, {n: getattr(initial, n) for n in _STATE_FIELDS}))

    def checkpoint(
        self, state: State, end: Position, undone: frozenset[int], markers: Markers
    ) -> Checkpoint | None:
        """Return a checkpoint of ``state`` at ``end``, or None when it cannot be encoded."""
        try:
            data = encode_state({name: getattr(state, name) for name in _STATE_FIELDS})
        except (TypeError, ValueError, OverflowError):
            return None
        # Only a checkpoint that may be saved needs the log prefix's CRC (it is checked when the
        # snapshot file is read back); one kept in memory is trusted by this process.
        crc = self.log.prefix_digest(end) if self.snapshots else -1
        cp = Checkpoint(end, undone, markers.copy(), data, crc)
        self._trusted.add(id(cp))
        return cp

    def remember(
        self, taken: list[Checkpoint], undone: frozenset[int] | set[int], save: bool = True
    ) -> None:
        """Keep the new checkpoints valid for ``undone``, thin the list, save when it moved on."""
        known = [cp for cp in self.checkpoints() if cp.valid_for(undone)]
        seqs = {cp.end.seq for cp in known}
        known += [cp for cp in taken if cp.valid_for(undone) and cp.end.seq not in seqs]
        known.sort(key=lambda c: c.end.seq)
        self._cps = _thin(known, MAX_CHECKPOINTS)
        if save and self.snapshots and self._cps and self._cps[-1].end.seq > self._saved_seq:
            self.save()

    def keep(
        self, state: State, end: Position | None, markers: Markers, force: bool = False
    ) -> None:
        """Checkpoint ``state`` (folded to ``end``) when it is ``every`` events past the latest
        checkpoint, or always when ``force`` (the end of ``run``) and none is at ``end``;
        never when ``end`` is not where ``state`` is (None: not folded)."""
        if end is None or end.seq != state.seq:
            return
        known = self.checkpoints()
        latest = known[-1].end.seq if known else 0
        if not force and end.seq // self.every <= latest // self.every:
            return
        if force and latest == end.seq:
            return
        undone = frozenset(undone_after(markers))
        cp = self.checkpoint(state, end, frozenset(t for t in undone if t <= end.seq), markers)
        if cp is not None:
            self.remember([cp], undone)

    def save(self) -> None:
        """Write the snapshot file; a failure is ignored (the cache is optional)."""
        try:
            write_checkpoints(self.log, self.header.session_id, self._code, self.checkpoints())
            self._saved_seq = self.checkpoints()[-1].end.seq if self._cps else -1
        except (OSError, LogError):
            pass

    # -- folding ------------------------------------------------------------------------

    def fold(self, until: int | None = None) -> Folded:
        """Fold the log (up to seq ``until``) from the best checkpoint, in one pass when the
        undone set did not change since it, else in two.

        Raises:
            LogError: a corrupt record, one that does not decode, or an event that does not
                apply (the log does not replay).
        """
        base = self.pick(until, None)
        used = base.undone if base is not None else frozenset()
        done = self._fold_from(base, until, used, optimistic=True)
        final = frozenset(undone_after(done.markers))
        if final == used:
            if done.error is not None:
                raise done.error
            return done
        base = self.pick(until, final, done.taken)
        again = self._fold_from(base, until, final)
        again.taken = [cp for cp in done.taken if cp.valid_for(final)] + again.taken
        return again

    def catch_up(self, state: State, pos: Position, markers: Markers) -> Folded | None:
        """Fold only the records after ``pos`` into a copy of ``state`` (the state there,
        ``markers`` its markers) and keep its new checkpoints: a command that lost a race
        catches up this way rather than folding again from a checkpoint. None when a record
        after ``pos`` is an undo or redo marker or does not apply: the undone set changed, fold
        the log again (:meth:`fold`).

        Raises:
            LogError: a corrupt record or one that does not decode.
        """
        state = state.copy()  # the caller may still read the state it had
        skip = frozenset(undone_after(markers))
        met = Markers(markers)
        enabled = gc.isenabled()
        gc.disable()  # as in _fold_from
        try:
            end, taken, error = self._stream(state, pos, None, skip, met, optimistic=True)
        finally:
            if enabled:
                gc.enable()
        if error is not None or list(met) != list(markers):  # a marker came in
            return None
        self.remember(taken, skip)
        return Folded(state, met, end, taken, skip)

    def _fold_from(
        self,
        base: Checkpoint | None,
        until: int | None,
        skip: frozenset[int],
        optimistic: bool = False,
    ) -> Folded:
        try:
            state = self.restore(base)
        except (ValueError, TypeError):
            self._cps = [c for c in self.checkpoints() if c is not base]
            base, state = None, self.initial()
            skip = skip or frozenset()
        markers = Markers(base.markers if base is not None else ())
        pos = base.end if base is not None else self.log.start
        assert pos is not None
        enabled = gc.isenabled()
        gc.disable()  # folding allocates many short-lived objects and no cycles
        try:
            end, taken, error = self._stream(state, pos, until, skip, markers, optimistic)
        finally:
            if enabled:
                gc.enable()
        return Folded(state, markers, end, taken, skip, error)

    def _stream(  # noqa: C901 - the reader's one loop (issue 31): split, it costs a call per record
        self,
        state: State,
        pos: Position,
        until: int | None,
        skip: frozenset[int],
        markers: Markers,
        optimistic: bool,
    ) -> tuple[Position, list[Checkpoint], LogError | None]:
        """Fold the records after ``pos`` into ``state``; when ``optimistic``, an event that
        does not apply stops the folding (it may be undone later) but not the marker scan."""
        table, every, path = evolvers(), self.every, self.log.path
        # A checkpoint every ``every`` events, but a long fold takes them ever further apart
        # (a twelfth of the way folded so far), and then one at its end: thinned to
        # MAX_CHECKPOINTS, the kept ones are about as far apart either way, and each costs an
        # encoding of the whole state (a million events: 1,000 encodings took a third of the
        # fold; now about 70).
        last_cp = pos.seq
        taken: list[Checkpoint] = []
        error: LogError | None = None
        entries: dict[str, tuple[int, Any, Any]] = {}  # per type: see _entry
        seq, record = pos.seq, None  # the last record read: where the fold ends
        records: Any = self.log.records(pos, self.chain, True)
        if until is not None:
            records = itertools.takewhile(lambda r: r[0] <= until, records)
        for record in records:
            seq, env, offset, _, _ = record
            kind = env.type  # a FoldEnvelope: its data still packed
            if kind in MARKERS:
                markers.add(seq, kind, marker_target(kind, env, seq, offset, path))
            elif error is None and seq not in skip:
                entry = entries.get(kind)
                if entry is None or entry[0] != env.v:
                    check_system(kind, self.header.system, path, seq, offset)
                    entry = entries[kind] = entry_of(table, path, kind, env.v, seq, offset)
                try:
                    event = entry[1](env.data)  # still packed: one typed decode (codec)
                except CodecError as exc:
                    event = misfit(entry[1], exc, env, seq, offset, path)
                try:
                    entry[2](state, event)
                except Exception as exc:  # noqa: BLE001 - every failure: a LogError
                    error = self._refused(exc, seq, optimistic)
            else:  # not built (undone, or after an event that did not apply): still readable
                still_readable(env, seq, offset, path)
            if (
                not seq % every
                and error is None
                and seq - last_cp >= (seq - pos.seq) // MAX_CHECKPOINTS
            ):
                taken = self._taken(taken, state, after(record), skip, markers)
                last_cp = seq
        if error is not None:
            return pos, taken, error
        last = after(record) if record is not None else pos
        if seq // every * every > last_cp:  # the spacing passed a checkpoint by: one at the end
            taken = self._taken(taken, state, last, skip, markers)
        state.seq = last.seq  # set here, not per event: no evolver reads it
        return last, taken, error

    def _taken(
        self,
        taken: list[Checkpoint],
        state: State,
        at: Position,
        skip: frozenset[int],
        markers: Markers,
    ) -> list[Checkpoint]:
        """Return ``taken`` with a checkpoint of ``state`` at ``at`` (thinned), or unchanged
        when the state cannot be encoded."""
        state.seq = at.seq
        cp = self.checkpoint(state, at, frozenset(t for t in skip if t <= at.seq), markers)
        return taken if cp is None else _thin([*taken, cp], MAX_CHECKPOINTS)

    def _refused(self, exc: Exception, seq: int, optimistic: bool) -> LogError:
        """Return the LogError for event ``seq`` that does not apply; raise it unless
        ``optimistic``."""
        refused = failure(exc, seq, self.log.path)
        if not optimistic:
            raise refused from None
        return refused

    def pairs(self, pos: Position) -> Iterator[tuple[int, Event | None]]:
        """Yield ``(seq, event)`` after ``pos``; markers give ``(seq, None)``."""
        path = self.log.path
        for seq, env, offset, _, _ in self.log.records(pos, self.chain):
            kind = env["type"]
            check_system(kind, self.header.system, path, seq, offset)
            try:
                event = decoder_of(path, kind, env["v"], seq, offset)(env["data"])
            except CodecError as exc:
                raise record_error(path, seq, offset, exc) from None
            yield seq, None if kind in MARKERS else event

    def refold_collecting(
        self, undone: set[int], before: int
    ) -> tuple[State, list[tuple[int, Event, RuleViolation]]]:
        """Fold with ``undone`` from the latest valid checkpoint before seq ``before``; return
        the state and the events that no longer apply (see :func:`fold_collecting`)."""
        base = self.pick(before - 1, undone)
        try:
            state = self.restore(base)
        except (ValueError, TypeError):
            base, state = None, self.initial()
        pos = base.end if base is not None else self.log.start
        assert pos is not None
        return state, fold_collecting(state, self.pairs(pos), undone)


def _thin(cps: list[Checkpoint], limit: int) -> list[Checkpoint]:
    """Drop checkpoints until ``limit`` remain, keeping the newest and spacing the rest out."""
    cps = list(cps)
    while len(cps) > limit:
        gaps = [cps[i + 1].end.seq - (cps[i - 1].end.seq if i else 0) for i in range(len(cps) - 1)]
        del cps[gaps.index(min(gaps))]
    return cps
