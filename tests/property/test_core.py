"""Property tests of the session loop over random valid command sequences (toy system)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import attrs
from hypothesis import given
from hypothesis import strategies as st

from tablelog import replay
from tablelog.commands.core import Redo, Undo
from tablelog.events.core import MARKERS
from tablelog.projections.core import fold, undone_after
from tablelog.projections.history import state_json
from tablelog.rules.core import RuleViolation
from tablelog.session import Session
from tablelog.store.log import LogFile
from tests.support import toy

toy.install()

NAMES = ("a", "b", "c")
commands = st.lists(
    st.one_of(
        st.builds(toy.AddCounter, st.sampled_from(NAMES), st.integers(0, 9)),
        st.builds(toy.SpendPoints, st.sampled_from(NAMES), st.integers(0, 6)),
        st.builds(toy.RollDie, st.sampled_from(NAMES)),
        st.builds(
            toy.SpendBoth, st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(0, 4)
        ),  # two events: a batch
        st.builds(Undo, st.none() | st.integers(1, 30)),
        st.builds(Redo, st.none() | st.integers(1, 30)),
    ),
    max_size=25,
)


def snapshot(session: Session, until: int | None = None) -> dict:
    """The JSON state of a session, folded from the log by a fresh reader."""
    fresh = Session(session.path)
    folded = fresh.state(until)
    return state_json(folded, toy.SYSTEM.to_json)


def play(path: Path, cmds: list[object], seed: int = 11) -> tuple[Session, list[dict], int]:
    """Run the commands (refusals skipped); return the session, the step states and refusals."""
    session = Session.create(str(path), "toy", seed=seed)
    steps, refusals = [], 0
    for command in cmds:
        before = path.read_bytes()
        try:
            session.execute(command)
        except RuleViolation:
            refusals += 1
            assert path.read_bytes() == before
            continue
        steps.append(state_json(session.state(), toy.SYSTEM.to_json))
    return session, steps, refusals


@given(commands)
def test_fold_of_the_log_equals_the_state_built_step_by_step(cmds: list[object]) -> None:
    """Folding the whole log from disk gives the state the session built command by command."""
    with tempfile.TemporaryDirectory() as tmp:
        session, steps, _ = play(Path(tmp) / "s.tlog", cmds)
        final = steps[-1] if steps else snapshot(session)
        assert snapshot(session) == final
        for step in steps:
            assert snapshot(session, step["seq"]) == step


@given(commands)
def test_every_prefix_folds_and_every_allowed_action_still_holds(cmds: list[object]) -> None:
    """Whatever undo and redo the decider allowed, every event in effect still holds where it
    stands (the checked fold finds nothing), and every prefix of the log folds."""
    with tempfile.TemporaryDirectory() as tmp:
        session, _, _ = play(Path(tmp) / "s.tlog", cmds)
        assert Session(session.path, chain=True).unheld() == []
        for n in range(session.state().seq + 1):
            assert Session(session.path).state(n).seq >= n


@given(commands)
def test_refused_commands_leave_the_file_unchanged(cmds: list[object]) -> None:
    """Every refused command leaves the log's bytes exactly as they were (checked in play)."""
    with tempfile.TemporaryDirectory() as tmp:
        session, steps, refusals = play(Path(tmp) / "s.tlog", cmds)
        assert len(steps) + refusals == len(cmds)


@given(commands)
def test_undo_then_redo_restores_the_state(cmds: list[object]) -> None:
    """Undoing the latest action and redoing it gives back the same state."""
    with tempfile.TemporaryDirectory() as tmp:
        session, _, _ = play(Path(tmp) / "s.tlog", cmds)
        before = snapshot(session)
        try:
            session.execute(Undo())
        except RuleViolation:
            return  # nothing to undo
        markers = snapshot(session)["seq"] - before["seq"]  # one per event of the action
        session.execute(Redo())
        after = snapshot(session)
        assert {**after, "seq": 0} == {**before, "seq": 0}
        assert markers in (1, 2)
        assert after["seq"] == before["seq"] + 2 * markers


@given(commands, st.integers(0, 2**63 - 1))
def test_replaying_twice_gives_equal_state(cmds: list[object], seed: int) -> None:
    """Two folds of the same log, and the same commands on another log with the same seed, agree."""
    with tempfile.TemporaryDirectory() as tmp:
        one, _, _ = play(Path(tmp) / "one.tlog", cmds, seed)
        two, _, _ = play(Path(tmp) / "two.tlog", cmds, seed)
        assert snapshot(one) == snapshot(one)
        assert snapshot(one) == snapshot(two)


@given(commands, st.integers(1, 6))
def test_reader_fold_equals_a_fold_of_typed_events(cmds: list[object], every: int) -> None:
    """The fold (the reader's records, fast-path events, checkpoints every ``every`` events)
    gives the state that folding every typed event with its typed evolver gives."""
    with tempfile.TemporaryDirectory() as tmp:
        session, _, _ = play(Path(tmp) / "s.tlog", cmds)
        kept = replay.SNAPSHOT_EVERY
        replay.SNAPSHOT_EVERY = every
        try:
            fast = Session(session.path, snapshots=False).state()
        finally:
            replay.SNAPSHOT_EVERY = kept
        log = LogFile(session.path)
        log.open()
        assert log.header is not None and log.start is not None
        replayer = replay.Replayer(log, log.header, snapshots=False)
        markers = [
            (seq, env["type"], env["data"]["target"])
            for seq, env, *_ in log.records()
            if env["type"] in MARKERS
        ]
        typed = fold(replayer.initial(), replayer.pairs(log.start), undone_after(markers))
        assert attrs.asdict(typed) == attrs.asdict(fast)
