"""Tests of the lost-race retry (tablelog/retry.py) and the state copy a retry folds forward.

The tries are fakes: each returns None (another writer appended first) or an outcome, and
records whether the writer lock was held while it ran.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablelog.commands.core import AddNote, Redo, Undo
from tablelog.projections.core import State
from tablelog.retry import TRIES, optimistically
from tablelog.rules.core import RuleViolation
from tablelog.store.log import LogError
from tablelog.writer import Writer


class FakeLock:
    """A writer lock that remembers its release."""

    def __init__(self) -> None:
        self.released = False

    def release(self) -> None:
        self.released = True


class FakeLog:
    """Just what the retry uses of a log: its name and its lock."""

    path = "fake.tlog"

    def __init__(self) -> None:
        self.locks: list[FakeLock] = []

    def lock(self) -> FakeLock:
        self.locks.append(FakeLock())
        return self.locks[-1]


def tries(writer: Writer, lost: int) -> tuple[list[bool], Any]:
    """Return the log of tries (was the lock held in each) and a try that loses ``lost``
    races, then returns ``"appended"``."""
    held: list[bool] = []

    def attempt() -> str | None:
        held.append(writer.lock is not None)
        return "appended" if len(held) > lost else None

    return held, attempt


def test_a_command_that_lost_two_races_appends_on_the_third_try_without_the_lock() -> None:
    """Two lost races: the third try appends, and no lock was ever taken."""
    log = FakeLog()
    writer = Writer(log)  # type: ignore[arg-type]
    held, attempt = tries(writer, 2)
    assert optimistically(attempt, AddNote(text="x"), writer) == "appended"
    assert (held, log.locks) == ([False, False, False], [])


def test_after_three_lost_races_the_command_holds_the_lock_from_fold_to_append() -> None:
    """Three lost races: the fourth try runs under the writer lock, released afterwards."""
    log = FakeLog()
    writer = Writer(log)  # type: ignore[arg-type]
    held, attempt = tries(writer, TRIES)
    assert optimistically(attempt, AddNote(text="x"), writer) == "appended"
    assert held == [False, False, False, True]
    assert ([lock.released for lock in log.locks], writer.lock) == ([True], None)


def test_a_race_lost_under_the_lock_is_a_log_error_and_the_lock_is_released() -> None:
    """A try that loses even under the lock: the log is unusable (exit 3), the lock let go."""
    log = FakeLog()
    writer = Writer(log)  # type: ignore[arg-type]
    held, attempt = tries(writer, TRIES + 1)
    with pytest.raises(LogError) as exc:
        optimistically(attempt, AddNote(text="x"), writer)
    assert str(exc.value) == "fake.tlog: the log moved on while it was locked"
    assert (held, [x.released for x in log.locks]) == ([False, False, False, True], [True])


@pytest.mark.rule("CORE-UNDO")
@pytest.mark.rule("CORE-REDO")
@pytest.mark.parametrize(
    ("command", "rule", "verb"), [(Undo(), "CORE-UNDO", "undo"), (Redo(), "CORE-REDO", "redo")]
)
def test_a_bare_undo_or_redo_that_lost_a_race_is_refused_after_one_try(
    command: object, rule: str, verb: str
) -> None:
    """A bare undo/redo is decided once: a lost race refuses it rather than retargeting it."""
    writer = Writer(FakeLog())  # type: ignore[arg-type]
    held, attempt = tries(writer, 1)
    with pytest.raises(RuleViolation) as exc:
        optimistically(attempt, command, writer)
    assert (rule, [False]) == (exc.value.rule_id, held)
    assert (
        f"the log moved on while deciding which action to {verb}; name the action: {verb} SEQ"
        == exc.value.message
    )


def test_an_undo_that_names_its_target_is_decided_again_after_a_lost_race() -> None:
    """``undo 4`` means the same action after another writer appended: it is tried again."""
    writer = Writer(FakeLog())  # type: ignore[arg-type]
    held, attempt = tries(writer, 1)
    assert (optimistically(attempt, Undo(target=4), writer), held) == ("appended", [False, False])


def test_a_race_lost_in_an_atomic_run_is_a_log_error_without_another_lock() -> None:
    """Inside an atomic run (the writer buffers) three lost races are a log error at once."""
    log = FakeLog()
    writer = Writer(log)  # type: ignore[arg-type]
    writer.pending = []
    held, attempt = tries(writer, TRIES)
    with pytest.raises(LogError) as exc:
        optimistically(attempt, AddNote(text="x"), writer)
    assert str(exc.value) == "fake.tlog: the log moved on under an atomic run"
    assert (held, log.locks) == ([False, False, False], [])


def test_the_state_copy_a_lost_race_folds_forward_leaves_the_original_as_it_was() -> None:
    """State.copy: an equal state whose records, clock, deck and extra are not shared."""
    state = State(
        system="toy",
        seq=7,
        clock={"round": 2},
        characters={"a": {"hp": 5, "effects": [{"turns_left": 2}]}},
        items={"rope": {"holder": "a"}},
        deck={"draw": ["c1", "c2"]},
        extra={"seen": {"a"}},
    )
    copied = state.copy()
    assert state == copied
    copied.characters["a"]["effects"][0]["turns_left"] = 1
    copied.clock["round"] = 3
    assert copied.deck is not None and state.deck is not None
    copied.deck["draw"].pop()
    copied.extra["seen"].add("b")
    assert (2, 2, ["c1", "c2"], {"a"}) == (
        state.characters["a"]["effects"][0]["turns_left"],
        state.clock["round"],
        state.deck["draw"],
        state.extra["seen"],
    )
