"""Write tests/data/first-format.tlog: a log in the first released format (format version 1).

Run once, by hand, when the format was released; never again (the file is frozen, and
tests/integration/test_session.py checks its bytes). Kept to show how the file was made:
``python tests/data/make_first_format.py``.

Contents: toy counters and points, a roll, a note, undo/redo markers, a two-record batch, and
``frozen.Tallied`` records in their *first* shape (v1: ``who``, ``n``), which the tests read through
an upcaster into the current shape.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tablelog.events.codec import to_record  # noqa: E402
from tablelog.events.core import Event, Noted, Redone, Undone, event  # noqa: E402
from tablelog.store.format import Header  # noqa: E402
from tablelog.store.log import LogFile  # noqa: E402
from tests.support import toy  # noqa: E402


@event("frozen.Tallied", version=1, entities=("who",))
@attrs.frozen
class Tallied(Event):
    """The first shape of a test-only event: a tally for someone."""

    who: str
    n: int


def main() -> None:
    path = ROOT / "tests" / "data" / "first-format.tlog"
    header = Header(
        session_id="0f1e2d3c4b5a69788796a5b4c3d2e1f0",
        system="toy",
        created="2026-11-30T05:00:00.000000Z",
        seed=1234,
        title="first format",
        options={},
    )
    log = LogFile.create(str(path), header)
    batches = [
        [toy.CounterAdded("a", 10)],
        [toy.CounterAdded("b", 5)],
        [toy.PointsSpent("a", 3, {"before": 10, "spent": 3})],
        [toy.DieRolled("a", 4)],
        [Noted(text="frozen in the first format")],
        [Undone(target=3, reason="misread")],
        [Redone(target=3)],
        [Undone(target=4, reason="")],
        [
            toy.PointsSpent("b", 1, {"before": 5, "spent": 1}),
            toy.PointsSpent("b", 2, {"before": 4, "spent": 2}),
        ],
        [Tallied(who="a", n=2)],
        [Tallied(who="b", n=7)],
    ]
    pos = log.start
    assert pos is not None
    for i, batch in enumerate(batches):
        envelopes = []
        for e in batch:
            kind, version, data = to_record(e)
            envelopes.append(
                {
                    "type": kind,
                    "v": version,
                    "at": f"2026-11-30T05:00:{i:02d}.000000Z",
                    "actor": "gm" if i % 2 else "kyra",
                    "data": data,
                }
            )
        pos = log.append(envelopes, pos)


if __name__ == "__main__":
    main()
