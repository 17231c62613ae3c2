"""Build benchmark logs quickly: toy-system events framed straight by the store (one write per
chunk), the same records the CLI would append one by one."""

from __future__ import annotations

import datetime
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tablelog.events.codec import to_record  # noqa: E402
from tablelog.events.core import Noted, Redone, Undone  # noqa: E402
from tablelog.store.format import Header  # noqa: E402
from tablelog.store.log import LogFile, frame  # noqa: E402
from tablelog.store.snapshot import snapshot_path  # noqa: E402
from tests.support import toy  # noqa: E402

toy.install()

NAMES = tuple(f"pc{i}" for i in range(8))
START = datetime.datetime(2026, 11, 30)
# One record every 10 ms: times never go back (verify), and a 1,000,000-event log ends 2.8 hours
# after START, never after this machine's clock (a record more than a day ahead is flagged).
STEP = datetime.timedelta(milliseconds=10)


def bench_events(n: int, markers: bool = True) -> list:
    """Return the ``n`` events of a benchmark session (counters, spends, rolls, notes, and with
    ``markers`` an undo, redo and undo at the end)."""
    events: list = [toy.CounterAdded(name, 10**9) for name in NAMES]
    markers = markers and n >= 20
    regular = n - 3 if markers else n
    i = 0
    while len(events) < regular:
        name = NAMES[i % len(NAMES)]
        if i % 10 == 9:
            events.append(Noted(text=f"ruling {i}"))
        elif i % 2:
            events.append(toy.PointsSpent(name, 1, {"before": 10**9 - i, "spent": 1}))
        else:
            events.append(toy.DieRolled(name, 1 + i % 6))
        i += 1
    if markers:  # undo the latest action, redo it, undo it again: markers as in real play
        events += [
            Undone(target=regular, reason="misclick"),
            Redone(target=regular),
            Undone(target=regular, reason="misclick"),
        ]
    return events[:n]


def remove_log(path: str) -> None:
    """Remove a log and this user's snapshot of it (in the private cache)."""
    for name in (path, snapshot_path(path)):
        if name is not None and os.path.exists(name):
            os.remove(name)


def make_log(path: str, n: int, chunk: int = 5000, markers: bool = True) -> None:
    """Write a toy log of ``n`` events at ``path`` (replacing it), one record per batch."""
    remove_log(path)
    log = LogFile.create(
        path,
        Header(
            session_id=f"bench-{n}", system="toy", created="2026-11-30T00:00:00.000000Z", seed=7
        ),
    )
    pos = log.start
    assert pos is not None
    buf: list[bytes] = []
    with open(path, "ab") as f:
        for i, event in enumerate(bench_events(n, markers)):
            kind, version, data = to_record(event)
            at = (START + i * STEP).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            record, pos = frame(
                [{"type": kind, "v": version, "at": at, "actor": "gm", "data": data}], pos
            )
            buf.append(record)
            if len(buf) >= chunk:
                f.write(b"".join(buf))
                buf.clear()
        f.write(b"".join(buf))
        f.flush()
        os.fsync(f.fileno())
