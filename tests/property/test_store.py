"""Property tests of the store: round trips, cuts at any offset, the snapshot codec, snapshots
never changing a fold."""

from __future__ import annotations

import contextlib
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog import replay
from tablelog.commands.core import AddNote, Redo, Undo
from tablelog.projections.history import state_json
from tablelog.rules.core import RuleViolation
from tablelog.session import Session
from tablelog.store.format import Header
from tablelog.store.log import LogFile
from tablelog.store.snapshot import decode_state, encode_state
from tests.support import toy

toy.install()

HEADER = Header(session_id="p", system="toy", created="2026-01-01T00:00:00.000000Z", seed=1)

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8)
plain = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
batches = st.lists(
    st.lists(st.dictionaries(st.text(max_size=5), plain, max_size=3), min_size=1, max_size=3),
    min_size=1,
    max_size=6,
)


def write(path: Path, groups: list[list[dict[str, Any]]]) -> list[int]:
    """Append each group of data maps as one batch; return the seq that ends each batch."""
    log = LogFile.create(str(path), HEADER)
    assert log.start is not None
    pos, ends = log.start, []
    for group in groups:
        pos = log.append(
            [{"type": "x.Y", "v": 1, "at": "t", "actor": "p", "data": d} for d in group], pos
        )
        ends.append(pos.seq)
    return ends


@given(batches)
def test_records_round_trip(groups: list[list[dict[str, Any]]]) -> None:
    """Whatever plain data is appended, in whatever batches, is read back equal and in order."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.tlog"
        write(path, groups)
        records = LogFile(str(path)).scan_all()
        assert [r.data for r in records] == [d for group in groups for d in group]
        assert [r.seq for r in records] == list(range(1, len(records) + 1))


@given(batches, st.floats(0, 1))
def test_a_cut_keeps_exactly_the_whole_batches(
    groups: list[list[dict[str, Any]]], where: float
) -> None:
    """A log cut at any offset reads as the batches that end before the cut, nothing more."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.tlog"
        ends = write(path, groups)
        data = path.read_bytes()
        reader = LogFile(str(path))
        reader.open()
        assert reader.start is not None
        start = reader.start.span[1]  # type: ignore[index]
        size = start + int(where * (len(data) - start))
        path.write_bytes(data[:size])
        seqs = [r.seq for r in LogFile(str(path)).scan()]
        whole = [e for e in ends if e <= len(seqs)]
        assert seqs == list(range(1, (whole[-1] if whole else 0) + 1))
        assert len(seqs) in (0, *ends)


snap_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=6)
    | st.fractions()
    | st.floats(allow_nan=False)
    | st.binary(max_size=4)
)
snap_keys = st.text(max_size=4) | st.integers(-5, 5)
snap_values = st.recursive(
    snap_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(snap_keys, inner, max_size=3)
        | st.sets(st.integers() | st.text(max_size=3), max_size=3)
        | st.frozensets(st.integers(), max_size=3)
    ),
    max_leaves=15,
)


def same_types(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (a tuple is not a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(same_types(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return all(same_types(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@given(st.dictionaries(st.text(max_size=5), snap_values, max_size=5))
def test_snapshot_codec_keeps_values_and_types(fields: dict[str, Any]) -> None:
    """State data with tuples, Fractions, sets and int keys decodes to equal values, same types."""
    decoded = decode_state(encode_state(fields))
    assert decoded == fields
    assert same_types(decoded, fields)


def test_snapshot_codec_example() -> None:
    """A concrete state round-trips with its Fraction, tuple, set and int-keyed dict intact."""
    fields = {"extra": {"ratio": Fraction(7, 3), "pair": ("a", 1), "seen": {2, 3}, 4: [1.5]}}
    assert decode_state(encode_state(fields)) == fields
    assert type(decode_state(encode_state(fields))["extra"]["pair"]) is tuple


NAMES = ("a", "b")
commands = st.lists(
    st.one_of(
        st.builds(toy.AddCounter, st.sampled_from(NAMES), st.integers(0, 9)),
        st.builds(toy.SpendPoints, st.sampled_from(NAMES), st.integers(0, 4)),
        st.builds(toy.RollDie, st.sampled_from(NAMES)),
        st.builds(AddNote, st.just("n")),
        st.builds(Undo, st.none() | st.integers(1, 20)),
        st.builds(Redo, st.none() | st.integers(1, 20)),
    ),
    max_size=24,
)


@settings(max_examples=40)
@given(commands, st.integers(1, 6), st.lists(st.integers(0, 30), max_size=4))
def test_snapshots_never_change_a_fold(cmds: list[object], every: int, untils: list[int]) -> None:
    """With checkpoints every 1..6 events, a fresh fold (now and at any seq) equals the fold of
    the log without snapshots."""
    old = replay.SNAPSHOT_EVERY
    replay.SNAPSHOT_EVERY = every
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "s.tlog")
            session = Session.create(path, "toy", seed=3)
            for command in cmds:
                with contextlib.suppress(RuleViolation):
                    session.execute(command)
            last = Session(path, snapshots=False).state().seq
            for until in [None, *(u for u in untils if u <= last)]:
                plain_fold = Session(path, snapshots=False).state(until)
                cached = Session(path).state(until)
                assert state_json(cached) == state_json(plain_fold)
    finally:
        replay.SNAPSHOT_EVERY = old
