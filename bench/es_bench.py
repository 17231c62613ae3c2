"""Replay the benchmark events through the ``eventsourcing`` library.

Usage: ``python bench/es_bench.py N RECORDER DIR LOG`` prints ``{"events": N, "replay_s": …,
"eps": …, "tablelog_eps": …}`` as JSON. RECORDER is ``sqlite`` (the events in an SQLite file in
DIR, as tablelog's are in a log file) or ``popo`` (plain Python objects in memory). The aggregate
applies the same changes as the toy system's evolvers, to the same plain dicts. Each replay
through ``eventsourcing`` alternates with a tablelog replay of LOG (the same events, in a fresh
process), so that the compared figures come from the same minutes of a machine whose speed drifts.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, __file__.rsplit("/", 2)[0])
sys.path.insert(0, __file__.rsplit("/", 1)[0])

import logs  # noqa: E402

from tablelog.events.core import Noted, Redone, Undone  # noqa: E402
from tests.support import toy  # noqa: E402


class Table(Aggregate):
    """One session: counters with points, rolls, notes, undo markers (as in the toy system)."""

    @event("Created")
    def __init__(self) -> None:
        self.characters: dict = {}
        self.clock = {"rolls": 0}
        self.undone: set = set()

    @event("CounterAdded")
    def counter_added(self, name: str, points: int) -> None:
        self.characters[name] = {"hp": points, "hp_max": points, "_secret": 1}

    @event("PointsSpent")
    def points_spent(self, name: str, points: int, breakdown: dict) -> None:
        self.characters[name]["hp"] -= points

    @event("DieRolled")
    def die_rolled(self, name: str, value: int) -> None:
        self.clock["rolls"] += 1
        self.characters[name]["last_roll"] = value

    @event("Noted")
    def noted(self, text: str) -> None:
        pass

    @event("Undone")
    def undone_(self, target: int, reason: str) -> None:
        self.undone.add(target)

    @event("Redone")
    def redone_(self, target: int) -> None:
        self.undone.discard(target)


def record(table: Table, e: object) -> None:
    if isinstance(e, toy.CounterAdded):
        table.counter_added(e.name, e.points)
    elif isinstance(e, toy.PointsSpent):
        table.points_spent(e.name, e.points, e.breakdown)
    elif isinstance(e, toy.DieRolled):
        table.die_rolled(e.name, e.value)
    elif isinstance(e, Noted):
        table.noted(e.text)
    elif isinstance(e, Undone):
        table.undone_(e.target, e.reason)
    elif isinstance(e, Redone):
        table.redone_(e.target)


REPEATS = 2  # eventsourcing's replays (≈ 45 s each: they average the machine's noise out)
OURS = 1  # tablelog processes beside each, two replays each (≈ 4 s a replay; the best counts)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPLAY = """import sys, time
sys.path[:0] = sys.argv[3:5]
import logs
from tablelog.session import Session
times = []
for _ in range(2):  # the best of two: a warm process, as eventsourcing's best of REPEATS is
    start = time.perf_counter()
    assert Session(sys.argv[1], snapshots=False).state().seq == int(sys.argv[2])
    times.append(time.perf_counter() - start)
print(min(times))
"""


def tablelog_replay_s(log: str, n: int) -> float:
    """Return the seconds tablelog's replay of ``log`` takes (the best of two in a fresh
    process: this one's heap holds eventsourcing's events, which would slow it down)."""
    done = subprocess.run(
        [sys.executable, "-c", REPLAY, log, str(n), ROOT + "/bench", ROOT],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout)


def application(recorder: str, folder: str) -> Application:
    """Return an application storing events with ``recorder`` (sqlite: a new file in ``folder``)."""
    if recorder == "popo":
        return Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    path = os.path.join(folder, "eventsourcing.sqlite")
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})


def main(n: int, recorder: str, folder: str, log: str) -> None:
    app = application(recorder, folder)
    table = Table()
    for i, e in enumerate(logs.bench_events(n)):
        record(table, e)
        if i % 10000 == 9999:  # saved in slices: fewer, larger transactions
            app.save(table)
    app.save(table)
    table_id, version = table.id, table.version
    app.repository.cache = None
    del table  # only the stored events remain
    gc.collect()
    times, ours = [], []
    for _ in range(REPEATS):  # the best of a few, as tablelog's replay is measured
        start = time.perf_counter()
        again = app.repository.get(table_id)
        times.append(time.perf_counter() - start)
        assert again.version == version
        del again
        gc.collect()
        ours += [tablelog_replay_s(log, n) for _ in range(OURS)]
    took = min(times)
    print(
        json.dumps(
            {
                "events": version - 1,
                "replay_s": took,
                "eps": (version - 1) / took,
                "tablelog_eps": n / min(ours),
            }
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4])
