"""Integration tests of the session loop over real log files: snapshots, retries, schema evolution.

Uses the toy system (tests/support/toy.py) so that no game system is needed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest

from tablelog import replay, systems
from tablelog.commands.core import AddNote, Redo, Undo
from tablelog.events.codec import upcaster
from tablelog.events.core import Event, event
from tablelog.projections.core import State, evolver
from tablelog.projections.history import state_json
from tablelog.rules.core import RuleViolation
from tablelog.session import LogError, Session
from tablelog.store.log import LogFile
from tablelog.store.snapshot import read_snapshot, snapshot_path
from tests.support import toy
from tests.support.cli import invoke, ok

toy.install()

DATA = Path(__file__).resolve().parent.parent / "data"


def view(state: State) -> dict[str, Any]:
    """The JSON state of a folded State (what `state --json` prints)."""
    return state_json(state, toy.SYSTEM.to_json)


def reference(path: Path, until: int | None = None) -> dict[str, Any]:
    """The state folded from the log alone, without any snapshot."""
    return view(Session(str(path), snapshots=False).state(until))


def play(path: Path, commands: list[object]) -> Session:
    """Create a toy log and run the commands through one session."""
    session = Session.create(str(path), "toy", seed=5)
    for command in commands:
        session.execute(command)
    return session


SCRIPT: list[object] = [
    toy.AddCounter("a", 50),
    toy.AddCounter("b", 40),
    *[toy.SpendPoints("a", 1) for _ in range(8)],
    Undo(target=5),
    toy.RollDie("b"),
    *[toy.SpendPoints("b", 2) for _ in range(8)],
    Undo(),
    Redo(),
    Undo(target=7),
    *[AddNote(text=f"n{i}") for i in range(5)],
]


@pytest.fixture
def every_5(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoint every 5 events (instead of every 1000)."""
    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 5)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the seq every scan of a log starts after."""
    starts: list[int] = []
    original = LogFile.records

    def spy(self: LogFile, start: Any = None, chain: bool = False, apply: Any = None) -> Any:
        starts.append(start.seq if start is not None else 0)
        return original(self, start, chain, apply)

    monkeypatch.setattr(LogFile, "records", spy)
    return starts


def test_snapshot_is_written_every_n_events(tmp_path: Path, every_5: None) -> None:
    """Appending 28 events with N=5 leaves checkpoints at multiples of 5, the latest at 25."""
    session = play(tmp_path / "s.tlog", SCRIPT)
    assert session.state().seq == 28
    header = session.header
    cps = read_snapshot(str(tmp_path / "s.tlog"), header.session_id, replay.code_version("toy"))
    assert cps[-1].end.seq == 25
    assert all(cp.end.seq % 5 == 0 for cp in cps)


def test_state_folds_only_the_tail_after_the_snapshot(
    tmp_path: Path, every_5: None, reads: list[int]
) -> None:
    """A fresh session reads the log from the latest checkpoint (25), not from the start."""
    play(tmp_path / "s.tlog", SCRIPT)
    reads.clear()
    folded = Session(str(tmp_path / "s.tlog")).state()
    assert reads == [25]
    assert view(folded) == reference(tmp_path / "s.tlog")


def test_append_uses_the_snapshot(tmp_path: Path, every_5: None, reads: list[int]) -> None:
    """An appending command in a fresh session folds from the checkpoint too."""
    play(tmp_path / "s.tlog", SCRIPT)
    reads.clear()
    outcome = Session(str(tmp_path / "s.tlog")).execute(toy.SpendPoints("a", 1))
    assert reads == [25]
    assert outcome.applied[0].seq == 29


def test_undo_refolds_from_a_checkpoint_before_its_target(
    tmp_path: Path, every_5: None, reads: list[int]
) -> None:
    """Undoing #27 refolds from the checkpoint at 25, and gives the state the log alone gives."""
    play(tmp_path / "s.tlog", SCRIPT)
    session = Session(str(tmp_path / "s.tlog"))
    session.state()
    reads.clear()
    session.execute(Undo(target=27))
    assert reads == [25, 25]  # finding #27's action and the refold both start at the checkpoint
    assert view(session.state()) == reference(tmp_path / "s.tlog")


def test_new_undo_of_an_old_event_refolds_from_before_it(tmp_path: Path, every_5: None) -> None:
    """A marker written after the snapshot that undoes an event before it still counts."""
    path = tmp_path / "s.tlog"
    play(path, SCRIPT)
    # a second writer, without snapshots, undoes the roll #12 (before the checkpoint at 25)
    Session(str(path), snapshots=False).execute(Undo(target=12))
    assert view(Session(str(path)).state()) == reference(path)
    assert reference(path)["characters"]["b"] == {"hp": 40 - 16, "hp_max": 40}


def _corruptions(path: Path, other: Path) -> dict[str, bytes]:
    """Snapshot files that must not be trusted: damaged, foreign, stale, from other code."""
    good = Path(snapshot_path(str(path))).read_bytes()
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x10
    return {
        "truncated": good[: len(good) // 2],
        "flipped": bytes(flipped),
        "empty": b"",
        "garbage": b"\x89TBSNAP\n" + b"\xff" * 64,
        "other session": Path(snapshot_path(str(other))).read_bytes(),
    }


def test_stale_or_corrupt_snapshot_never_changes_a_result(tmp_path: Path, every_5: None) -> None:
    """With a damaged or foreign snapshot, state at every seq equals the fold of the log alone."""
    path, other = tmp_path / "s.tlog", tmp_path / "o.tlog"
    play(path, SCRIPT)
    play(other, [toy.AddCounter("a", 3)] + [AddNote(text=f"o{i}") for i in range(9)])
    expected = {until: reference(path, until) for until in range(0, 29)}
    for name, content in _corruptions(path, other).items():
        Path(snapshot_path(str(path))).write_bytes(content)
        for until in (None, 0, 4, 5, 6, 13, 20, 25, 26, 28):
            got = view(Session(str(path)).state(until))
            assert got == expected[28 if until is None else until], (name, until)


def test_snapshot_of_a_rewritten_log_is_ignored(tmp_path: Path, every_5: None) -> None:
    """A snapshot of a log whose history was rewritten after seq 15 (same session) is stale."""
    path = tmp_path / "s.tlog"
    play(path, SCRIPT)
    snap = Path(snapshot_path(str(path))).read_bytes()
    records = LogFile(str(path)).scan_all()
    whole = path.read_bytes()
    path.write_bytes(whole[: records[15].offset])  # keep #1..#15, then a different history
    Path(snapshot_path(str(path))).unlink()
    session = Session(str(path), snapshots=False)
    for i in range(16):
        session.execute(AddNote(text=f"other {i}"))
    Path(snapshot_path(str(path))).write_bytes(snap)
    assert view(Session(str(path)).state()) == reference(path)
    assert reference(path)["characters"]["b"]["hp"] == 40 - 6
    assert reference(path)["characters"]["a"]["hp"] == 50 - 7


def test_snapshot_past_the_end_of_a_truncated_log_is_ignored(tmp_path: Path, every_5: None) -> None:
    """After the log lost its tail (a repair), checkpoints beyond its end are not used."""
    path = tmp_path / "s.tlog"
    play(path, SCRIPT)
    records = LogFile(str(path)).scan_all()
    path.write_bytes(path.read_bytes()[: records[20].offset])
    assert view(Session(str(path)).state()) == reference(path)
    assert Session(str(path)).state().seq == 20


def test_snapshot_from_other_projection_code_is_ignored(
    tmp_path: Path, every_5: None, monkeypatch: pytest.MonkeyPatch, reads: list[int]
) -> None:
    """A snapshot keyed to another version of the projection code is not read."""
    path = tmp_path / "s.tlog"
    play(path, SCRIPT)
    monkeypatch.setitem(replay._CODE_VERSIONS, "toy", "0" * 32)
    reads.clear()
    assert view(Session(str(path)).state()) == reference(path)
    assert reads[0] == 0


def test_state_that_cannot_be_snapshotted_is_folded(
    tmp_path: Path, every_5: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state holding a non-plain value takes no snapshot and still folds right."""
    path = tmp_path / "s.tlog"
    original = toy.init_state

    def init_with_object(state: State, options: dict) -> None:
        original(state, options)
        state.extra["opaque"] = object.__new__(type("Opaque", (), {"__eq__": lambda a, b: True}))

    monkeypatch.setitem(
        systems._LOADED, "toy", attrs.evolve(toy.SYSTEM, init_state=init_with_object)
    )
    play(path, SCRIPT)
    assert not Path(snapshot_path(str(path))).exists()
    assert Session(str(path)).state().seq == 28


def test_run_ends_with_a_snapshot(tmp_path: Path) -> None:
    """`tablelog run` checkpoints the final state, even below N events."""
    script = tmp_path / "s.txt"
    script.write_text("init --system toy\ntoy add a 5\ntoy spend a 2\nnote done\n")
    log = tmp_path / "r.tlog"
    ok(log, "run", str(script))
    header = LogFile(str(log)).open()
    cps = read_snapshot(str(log), header.session_id, replay.code_version("toy"))
    assert [cp.end.seq for cp in cps] == [3]


def test_two_deciders_on_the_same_state_retry(tmp_path: Path) -> None:
    """The later writer decides again on the new state: its event reflects the first one's."""
    path = tmp_path / "s.tlog"
    play(path, [toy.AddCounter("a", 5)])
    first, second = Session(str(path), actor="p1"), Session(str(path), actor="p2")
    assert first.state().seq == second.state().seq == 1
    first.execute(toy.SpendPoints("a", 2))
    outcome = second.execute(toy.SpendPoints("a", 1))
    assert outcome.applied[0].seq == 3
    assert outcome.applied[0].event.breakdown == {"before": 3, "spent": 1}  # type: ignore[attr-defined]
    assert reference(path)["characters"]["a"]["hp"] == 2


def test_stale_decider_is_refused_on_the_new_state(tmp_path: Path) -> None:
    """A command valid on the stale state but not on the new one is refused; nothing appended."""
    path = tmp_path / "s.tlog"
    play(path, [toy.AddCounter("a", 5)])
    first, second = Session(str(path)), Session(str(path))
    second.state()
    first.execute(toy.SpendPoints("a", 4))
    before = path.read_bytes()
    with pytest.raises(RuleViolation, match="a has 1, needs 3"):
        second.execute(toy.SpendPoints("a", 3))
    assert path.read_bytes() == before


def test_state_at_ignores_later_markers(tmp_path: Path, every_5: None) -> None:
    """state --at SEQ is the state right after SEQ; undo markers appended later do not apply."""
    path = tmp_path / "s.tlog"
    play(path, SCRIPT)
    at_10 = view(Session(str(path)).state(10))
    assert at_10["characters"]["a"]["hp"] == 50 - 8
    assert view(Session(str(path)).state(11))["characters"]["a"]["hp"] == 50 - 7


def test_an_event_that_does_not_hold_folds_and_is_reported(tmp_path: Path) -> None:
    """A crafted record whose precondition fails still folds (evolvers are total, NEW-SYSTEM)
    and is listed by the checked fold that ``verify`` runs."""
    path = tmp_path / "s.tlog"
    session = play(path, [toy.AddCounter("a", 5)])
    session.writer.write(
        [toy.DieRolled("nobody", 3)], session.actor
    )  # a crafted record: no such counter
    state = Session(str(path)).state()
    assert (state.seq, view(state)["characters"]) == (2, {"a": {"hp": 5, "hp_max": 5}})
    unheld = Session(str(path), chain=True).unheld()
    assert [(seq, exc.rule_id) for seq, _, exc in unheld] == [(2, "UNKNOWN-NAME")]


# -- schema evolution ----------------------------------------------------------------------


@event("frozen.Tallied", version=2, entities=("name",))
@attrs.frozen
class Tallied(Event):
    """The current shape of a test-only event (v1 had ``who`` and ``n``)."""

    name: str
    count: int
    unit: str = "tally"


@upcaster("frozen.Tallied", 1)
def _tallied_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    return {"name": data["who"], "count": data["n"]}


@evolver(Tallied)
def _tallied(state: State, e: Tallied) -> None:
    state.characters[e.name]["tallies"] = state.characters[e.name].get("tallies", 0) + e.count


FROZEN_SHA256 = "8f82466bd03789deaa64bf7c1d461e839da61471eaa2043dcdaaba30cdc9b0c4"


def test_first_format_log_is_frozen() -> None:
    """tests/data/first-format.tlog is the file written by the first released format, unchanged."""
    data = (DATA / "first-format.tlog").read_bytes()
    assert hashlib.sha256(data).hexdigest() == FROZEN_SHA256


def test_first_format_log_opens(tmp_path: Path) -> None:
    """The frozen first-format log opens, verifies and folds to its known state."""
    path = tmp_path / "first.tlog"
    shutil.copy(DATA / "first-format.tlog", path)
    folded = view(Session(str(path)).state())
    assert folded["seq"] == 12
    assert folded["characters"]["a"] == {"hp": 7, "hp_max": 10, "tallies": 2}
    assert folded["characters"]["b"] == {"hp": 2, "hp_max": 5, "tallies": 7}
    assert folded["clock"] == {"rolls": 0}
    assert ok(path, "verify").startswith(
        f"ok: {path}: 12 records, hash chain intact, replays (toy)\nhead: 12:"
    )
    assert [r.type for r in LogFile(str(path)).scan()][-2:] == ["frozen.Tallied"] * 2


def test_a_first_format_log_takes_appends_and_undo_in_its_own_format(tmp_path: Path) -> None:
    """Appends to a format-1 log write format-1 records (no command ids: actions are runs of
    one time and actor); undo and redo work there; request ids need a format-2 log (exit 3)."""
    path = tmp_path / "first.tlog"
    shutil.copy(DATA / "first-format.tlog", path)
    assert ok(path, "toy", "spend", "a", "1").startswith("#13 toy.PointsSpent")
    assert ok(path, "undo").startswith("#14 core.Undone #13")
    assert ok(path, "redo").startswith("#15 core.Redone #13")
    records = LogFile(str(path)).scan_all(chain=True)
    assert {None} == {r.cmd for r in records}
    assert _version(path) == 1
    result = invoke(path, "note", "x", "--request-id", "r1")
    assert result.exit_code == 3 and "format-1 log, which has no request ids" in result.stderr
    assert ok(path, "verify").startswith("ok: ")


def test_a_new_log_is_format_2_with_command_ids(tmp_path: Path) -> None:
    """init writes format 2; every record it appends carries its command id."""
    path = tmp_path / "new.tlog"
    play(path, [toy.AddCounter("a", 3), toy.SpendBoth("a", "a", 1)])
    assert _version(path) == 2
    assert [r.cmd for r in LogFile(str(path)).scan_all()] == [1, 2, 2]


def _version(path: Path) -> int:
    log = LogFile(str(path))
    log.open()
    assert log.version is not None
    return log.version


def test_old_records_are_upcast_before_structuring(tmp_path: Path) -> None:
    """The v1 ``frozen.Tallied`` records come back as v2 events (``who``/``n`` renamed)."""
    path = tmp_path / "first.tlog"
    shutil.copy(DATA / "first-format.tlog", path)
    events = [e for _, e in Session(str(path)).events() if isinstance(e, Tallied)]
    assert events == [Tallied("a", 2), Tallied("b", 7)]


def _counted(version: int) -> type[Event]:
    """Register the test-only ``shape.Counted`` in its first (1) or second (2) shape."""
    if version == 1:

        @event("shape.Counted", version=1)
        @attrs.frozen
        class Counted(Event):
            total: int

        @evolver(Counted)
        def _v1(state: State, e: Any) -> None:
            state.clock["counted"] = e.total

    else:

        @event("shape.Counted", version=2)  # type: ignore[no-redef]
        @attrs.frozen
        class Counted(Event):
            total: int
            per: str

        @evolver(Counted)
        def _v2(state: State, e: Any) -> None:
            state.clock["counted"] = f"{e.total} per {e.per}"

    return Counted


def test_changing_an_event_shape_goes_through_the_upcaster(tmp_path: Path) -> None:
    """A log written with shape v1 reads as v2 once the shape changes and an upcaster exists."""
    path = tmp_path / "s.tlog"
    session = play(path, [toy.AddCounter("a", 1)])
    session.writer.write([_counted(1)(total=3)], session.actor)
    assert Session(str(path)).state().clock["counted"] == 3
    v2 = _counted(2)
    with pytest.raises(LogError, match="no upcaster for shape.Counted v1"):
        Session(str(path)).state()
    upcaster("shape.Counted", 1)(lambda data: {**data, "per": "round"})
    assert Session(str(path)).state().clock["counted"] == "3 per round"
    assert [e for _, e in Session(str(path)).events()][-1] == v2(total=3, per="round")


def test_fold_goes_on_finding_markers_after_an_event_that_fails_in_the_reader(
    tmp_path: Path,
) -> None:
    """#4 (spend 3) fails while #2 (spend 4) still counts; the undo of #4 after it is still met.

    The first pass folds with no event undone: the reader applies #4 itself and it fails; the
    scan for markers must go on, or the fold would miss #5 and end with a = 2, not 5."""
    session = play(
        tmp_path / "s.tlog",
        [toy.AddCounter("a", 5), toy.SpendPoints("a", 4), Undo(), toy.SpendPoints("a", 3), Undo()],
    )
    assert reference(tmp_path / "s.tlog")["characters"]["a"]["hp"] == 5
    assert view(session.state())["characters"]["a"]["hp"] == 5


def test_event_applied_by_the_reader_is_checked_by_unheld(tmp_path: Path) -> None:
    """A forged spend (seq 3, the second spend: applied by the reader) folds as recorded, and the
    checked fold names its seq and rule."""
    path = tmp_path / "s.tlog"
    play(path, [toy.AddCounter("a", 5), toy.SpendPoints("a", 1), toy.SpendPoints("a", 1)])
    from tests.faults.test_hostile import rewritten

    rewritten(path, lambda envs: envs[2]["data"].update(points=99))
    assert Session(str(path), snapshots=False).state().characters["a"]["hp"] == -95
    unheld = Session(str(path), snapshots=False, chain=True).unheld()
    assert [str(exc) for seq, _, exc in unheld if seq == 3] == ["TOY-SPEND-1: a: 4 < 99"]


def test_undone_batch_is_not_applied_by_the_reader(tmp_path: Path) -> None:
    """Two-event commands (batches), the second undone: the fold skips both of its records."""
    session = play(
        tmp_path / "s.tlog",
        [
            toy.AddCounter("a", 9),
            toy.AddCounter("b", 9),
            toy.SpendBoth("a", "b", 2),
            toy.SpendPoints("a", 1),
            toy.SpendBoth("a", "b", 3),
            Undo(target=6),
        ],
    )
    folded = reference(tmp_path / "s.tlog")["characters"]
    assert (
        (6, 7)
        == (folded["a"]["hp"], folded["b"]["hp"])
        == tuple(view(session.state())["characters"][n]["hp"] for n in "ab")
    )


def test_a_lost_race_stamps_after_the_log_s_new_last_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bo's laptop runs an hour fast and appends while Ann's command is deciding: Ann's retry
    stamps after Bo's record, not after her own failed stamp; times never go back, each command
    keeps its own id, and verify is ok (issue: clock skew)."""
    import tablelog.store.stamp as stamp_module

    path = tmp_path / "s.tlog"
    play(path, [toy.AddCounter("a", 9)])
    ann = Session(str(path), actor="Ann")
    ann.state()
    real_now = stamp_module.now_utc
    import datetime as dt

    bo_now = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    monkeypatch.setattr(stamp_module, "now_utc", lambda: bo_now)
    Session(str(path), actor="Bo").execute(toy.SpendPoints("a", 1))
    monkeypatch.setattr(stamp_module, "now_utc", real_now)
    ann.execute(toy.SpendPoints("a", 2))
    records = LogFile(str(path)).scan_all(chain=True)
    assert [(r.cmd, r.actor) for r in records] == [(1, "gm"), (2, "Bo"), (3, "Ann")]
    assert stamp_module.after(bo_now) == records[-1].at
    assert [r.at for r in records] == sorted({r.at for r in records})  # strictly increasing
    assert ok(path, "verify").startswith(f"ok: {path}: 3 records, hash chain intact")


def test_a_lost_race_behind_a_fast_record_stamps_after_the_winner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's example: the log's last record is Bo's, dated an hour ahead (his laptop runs
    fast); Ann decides (her stamp: 1 µs after it), Bo appends again first, a second later by his
    clock; Ann's retry stamps 1 µs after Bo's new record, not 1 µs after her own failed stamp
    (which went back a second). Times strictly increase, verify is ok, and Ann's undo takes
    back her command alone (issue 13, item 2)."""
    import datetime as dt

    import tablelog.store.stamp as stamp_module

    path = tmp_path / "s.tlog"
    play(path, [toy.AddCounter("a", 9)])
    ahead = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    fast = [(ahead + dt.timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%S.%fZ") for s in (0, 1)]
    real_now = stamp_module.now_utc
    monkeypatch.setattr(stamp_module, "now_utc", lambda: fast[0])
    bo = Session(str(path), actor="Bo")
    bo.execute(toy.SpendPoints("a", 1))
    monkeypatch.setattr(stamp_module, "now_utc", real_now)
    ann = Session(str(path), actor="Ann")
    ann.state()
    monkeypatch.setattr(stamp_module, "now_utc", lambda: fast[1])
    bo.execute(toy.SpendPoints("a", 2))
    monkeypatch.setattr(stamp_module, "now_utc", real_now)
    ann.execute(toy.SpendPoints("a", 3))
    records = LogFile(str(path)).scan_all(chain=True)
    assert [(r.seq, r.cmd, r.actor, r.at) for r in records[1:]] == [
        (2, 2, "Bo", fast[0]),
        (3, 3, "Bo", fast[1]),
        (4, 4, "Ann", stamp_module.after(fast[1])),
    ]
    assert ok(path, "verify").startswith(f"ok: {path}: 4 records, hash chain intact")
    assert ok(path, "undo", actor="Ann").startswith("#5 core.Undone #4\n")
    assert view(Session(str(path)).state())["characters"]["a"]["hp"] == 9 - 1 - 2


def test_the_snapshot_key_covers_the_packaged_catalogues(tmp_path: Path) -> None:
    """Editing a packaged catalogue (one price in pf2e_runes.csv) changes the snapshot key of
    every system, so no checkpoint folded with the old data is used after an erratum."""
    import shutil
    import subprocess
    import sys

    import tablelog

    copy = tmp_path / "pkg"
    shutil.copytree(
        Path(tablelog.__file__).parent,
        copy / "tablelog",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    probe = (
        "from tablelog import replay; print(replay.code_version('pf2e'), "
        "replay.code_version('saga'))"
    )

    def keys() -> list[str]:
        out = subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(copy)},
            cwd=copy,
            check=True,
        ).stdout
        return out.split()

    before = keys()
    runes = copy / "tablelog" / "rules" / "data" / "pf2e_runes.csv"
    runes.write_text(
        runes.read_text(encoding="utf-8").replace(",500,", ",501,", 1), encoding="utf-8"
    )
    after = keys()
    assert before[0] != after[0] and before[1] != after[1]


def test_a_command_time_is_utc_with_microseconds_and_z() -> None:
    """``now_utc`` (isoformat on the append's hot path) writes exactly ``_FORMAT``'s text."""
    import datetime as dt

    from tablelog.store.stamp import _FORMAT, now_utc

    before = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    at = now_utc()
    moment = dt.datetime.strptime(at, _FORMAT)
    assert moment.strftime(_FORMAT) == at
    assert len(at) == len("2026-12-02T00:12:19.771646Z")
    assert before <= moment <= dt.datetime.now(dt.UTC).replace(tzinfo=None)
