"""Evolvers over plain data (tablelog.projections.plain) do what the typed evolvers do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from tablelog import systems
from tablelog.events.codec import fast_check, to_record
from tablelog.events.core import Event
from tablelog.projections.core import State, evolvers, fold, undone_after
from tablelog.projections.plain import plain_evolver
from tablelog.replay import Replayer
from tablelog.rules.core import RuleViolation
from tablelog.session import Session
from tablelog.store.log import LogFile
from tests.support import toy
from tests.support.cli import ok

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples").glob("*.txt"))
SYSTEMS = tuple(systems.REGISTRY)


@attrs.frozen
class Shown(Event):
    """A test-only event of two plain fields and a tuple field."""

    name: str
    count: int
    tags: tuple[str, ...] = ()


def _reads(state: State, e: Shown) -> None:
    state.clock[e.name] = [e.count, e.tags, [t.upper() for t in e.tags]]


def _passes_it_on(state: State, e: Shown) -> None:
    _reads(state, e)


def _calls_a_method(state: State, e: Shown) -> None:
    state.clock["text"] = e.describe()


def _rebinds(state: State, e: Shown) -> None:
    e = attrs.evolve(e, count=0)
    state.clock["count"] = e.count


def _shadows(state: State, e: Shown) -> None:
    state.clock["names"] = list(map(lambda e: e.upper(), [e.name]))


def _unknown_field(state: State, e: Shown) -> None:
    state.clock["x"] = e.TYPE


def _closure(offset: int) -> Any:
    def evolve(state: State, e: Shown) -> None:
        state.clock["count"] = e.count + offset

    return evolve


def test_plain_evolver_reads_fields_from_the_data() -> None:
    """The plain form of ``_reads`` given Shown's data makes the state the typed one makes."""
    plain, typed = State(system="toy"), State(system="toy")
    fn = plain_evolver(Shown, _reads)
    assert fn is not None
    fn(plain, {"name": "Kyra", "count": 3, "tags": ("a", "b")})
    _reads(typed, Shown("Kyra", 3, ("a", "b")))
    assert {"Kyra": [3, ("a", "b"), ["A", "B"]]} == plain.clock == typed.clock


@pytest.mark.parametrize("fn", [_passes_it_on, _calls_a_method, _rebinds, _shadows,
                                _unknown_field, _closure(1), lambda state, e: None])
def test_evolver_that_uses_the_event_otherwise_stays_typed(fn: Any) -> None:
    """An evolver that uses its event for anything but reading fields has no plain form."""
    assert plain_evolver(Shown, fn) is None


def test_plain_evolver_keeps_file_and_line_in_tracebacks() -> None:
    """An error in a plain evolver points at the evolver's own source line."""
    fn = plain_evolver(Shown, _reads)
    assert fn is not None
    with pytest.raises(AttributeError) as info:
        fn(State(system="toy"), {"name": "Kyra", "count": 3, "tags": (1,)})
    frame = info.traceback[-1]
    assert (__file__, _reads.__code__.co_firstlineno + 1) == (str(frame.path), frame.lineno + 1)


def test_fast_check_gives_the_data_only_when_it_is_the_events() -> None:
    """The codec's check returns the data (tuple fields made tuples) or None for anything else."""
    check = fast_check(toy.PointsSpent.TYPE, toy.PointsSpent.VERSION)
    assert check is not None
    good = to_record(toy.PointsSpent("pc1", 2, {"before": 5}))[2]
    assert good is check(good)
    for bad in ({**good, "points": "2"}, {**good, "points": True}, {**good, "extra": 1},
                {k: v for k, v in good.items() if k != "points"}):
        assert check(bad) is None
    assert fast_check(toy.PointsSpent.TYPE, toy.PointsSpent.VERSION + 1) is None


@pytest.mark.parametrize("system", SYSTEMS)
def test_typed_only_evolvers_are_the_known_ones(system: str) -> None:
    """Every evolver has a plain form except those that pass their event on (named here)."""
    systems.get(system)
    typed_only = {cls.TYPE for cls, fn in evolvers().items()
                  if cls.TYPE.startswith(f"{system}.") and plain_evolver(cls, fn) is None}
    expected = {"fate": {"fate.MasterAdded", "fate.ServantAdded", "fate.PhantasmAdded"},
                "saga": {"saga.TechDefined"}}.get(system, set())
    assert expected == typed_only


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_plain_fold_equals_typed_fold(example: Path, tmp_path: Path) -> None:
    """Each example session folds to the same state with plain data as with typed events."""
    log = tmp_path / "session.tlog"
    ok(log, "run", str(example))
    plain = Session(str(log), snapshots=False).state()
    opened = LogFile(str(log))
    opened.open()
    assert opened.header is not None and opened.start is not None
    replayer = Replayer(opened, opened.header, snapshots=False)
    typed = fold(replayer.initial(), replayer.pairs(opened.start), _undone(opened))
    assert attrs.asdict(typed) == attrs.asdict(plain)


def _undone(log: LogFile) -> set[int]:
    markers = [(seq, env["type"], env["data"]["target"]) for seq, env, *_ in log.records()
               if env["type"] in ("core.Undone", "core.Redone")]
    return undone_after(markers)


def test_plain_fold_is_total_like_the_typed_evolver(tmp_path: Path) -> None:
    """An event whose counter is missing changes nothing, in the plain fold as in the typed."""
    toy.install()
    typed, plain_state = State(system="toy"), State(system="toy")
    plain = plain_evolver(toy.PointsSpent, evolvers()[toy.PointsSpent])
    assert plain is not None
    evolvers()[toy.PointsSpent](typed, toy.PointsSpent("pc1", 2, {}))
    plain(plain_state, {"name": "pc1", "points": 2, "breakdown": {}})
    assert typed == plain_state == State(system="toy")
