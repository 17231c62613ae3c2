"""What checking rules during replay would cost on real-system logs (issue 12, Measure).

Usage: ``python bench/checks.py [LOG …]`` (default: the frozen campaigns of every real system,
``tests/data/frozen/format-2/*-campaign.tlog``). Before issue 12 the evolvers re-ran the deciders'
checks on every event of every replay; since then they only assign what the event records, and
the checks are preconditions that the undo decider, ``verify`` and the session run, never the
replay. The code from before cannot read today's logs (format 2, newer event versions), so this
measures the difference on today's code instead: for each log, in CPU time (the process's own,
so other work on a shared machine does not count), medians of ``ROUNDS``:

- plain msgpack decoding and the replay (``state``, no snapshot), as in bench/real.py, each the
  log as many times as make ``EVENTS`` records (once for a longer log), less the same on a copy
  of its header alone (the fixed set-up);
- the fold stage alone, on the log's events decoded once: evolve each active event, or check its
  precondition and then evolve it (the old evolvers' work, less their catalogue look-ups);
- the replay with the checks, estimated as the replay plus the checks' cost, and its ratio to
  plain decoding beside today's.

A check that fails is counted (a benchmark log's chapters reuse names); it raises, so it costs
more than one that passes: the played logs (the default) have none.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from real import header_only  # noqa: E402 - a copy of a log cut after its header
from run import raw_decode  # noqa: E402 - plain decoding, the same as make bench's

from tablelog.events.core import MARKERS, Event  # noqa: E402
from tablelog.projections.core import State, check, evolve, undone_after  # noqa: E402
from tablelog.rules.core import RuleViolation  # noqa: E402
from tablelog.session import Session  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = sorted((ROOT / "tests" / "data" / "frozen" / "format-2").glob("*-campaign.tlog"))
EVENTS = 10_000
ROUNDS = 5


def cpu(fn: Callable[[], object], times: int) -> float:
    """Return the median over ``ROUNDS`` of the CPU seconds ``times`` calls of ``fn`` take."""
    rounds = []
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(times):
            fn()
        rounds.append(time.process_time() - start)
    return statistics.median(rounds)


def fold_stage(state: State, events: list[tuple[int, Event]], checking: bool) -> int:
    """Evolve each event into ``state`` (checking its precondition first); return the failures."""
    failed = 0
    for _, event in events:
        if checking:
            try:
                check(state, event)
            except RuleViolation:
                failed += 1
        evolve(state, event)
    return failed


def measure(path: Path, folder: str) -> tuple[int, float, float, float, float, int]:
    """Return (records read, decoding s, replay s, fold s, checked fold s, failed checks)."""
    session = Session(str(path), snapshots=False)
    undone = undone_after(session.markers())
    events = [
        (rec.seq, event)
        for rec, event in session.events()
        if rec.type not in MARKERS and rec.seq not in undone
    ]
    blank, empty = session.blank_state(), header_only(path, folder)
    records = session.state().seq
    times = max(1, EVENTS // records)
    decode = cpu(lambda: raw_decode(path), times) - cpu(lambda: raw_decode(empty), times)
    replay = cpu(lambda: Session(str(path), snapshots=False).state(), times)
    replay -= cpu(lambda: Session(str(empty), snapshots=False).state(), times)
    plain = cpu(lambda: fold_stage(blank.copy(), events, False), times)
    checked = cpu(lambda: fold_stage(blank.copy(), events, True), times)
    failed = fold_stage(blank.copy(), events, True)
    return records * times, decode, replay, plain, checked, failed


def main(paths: list[Path]) -> None:
    print(
        f"{'log':24} {'read':>7} {'replay/s':>9} {'÷ decoding':>10} {'with checks/s':>13} "
        f"{'÷ decoding':>10} {'checks cost':>11} {'fold stage ×':>12} {'failed':>6}"
    )
    folder = tempfile.mkdtemp()
    for path in paths:
        records, decode, replay, plain, checked, failed = measure(path, folder)
        with_checks = replay + checked - plain
        print(
            f"{path.name:24} {records:7d} {records / replay:9,.0f} {decode / replay:10.2f} "
            f"{records / with_checks:13,.0f} {decode / with_checks:10.2f} "
            f"{with_checks / replay - 1:+11.0%} {checked / plain:12.2f} {failed:6d}"
        )


if __name__ == "__main__":
    main([Path(p) for p in sys.argv[1:]] or CAMPAIGNS)
