"""Replay throughput on real-system logs, beside plain msgpack decoding of the same files.

Usage: ``python bench/real.py LOG [LOG …]`` (run it with the tablelog under test first on
``PYTHONPATH`` to compare two versions on the same files). Each log is folded from scratch (no
snapshot) ``REPEAT`` times in one process and decoded plainly as often; the best of ``PAIRS``
alternating rounds of each is kept, and each log's events/s and its ratio to plain decoding are
printed, then the totals over all logs. Each fold's fixed set-up (opening the file, the header,
the system's initial state) is measured on a copy of the log's header alone and taken off, so
small real logs give a per-event figure; compare one code version to another on the same files.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from tablelog.session import Session  # before run: it puts this checkout first on the path
from tablelog.store.format import parse_header

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import raw_decode  # noqa: E402 - plain decoding, the same as the toy benchmark's

REPEAT = 200
PAIRS = 5


def fold(path: Path) -> int:
    """Fold the whole log from its header, no snapshot; return the last seq."""
    return Session(str(path), snapshots=False).state().seq


def best(fn: object, path: Path) -> float:
    start = time.perf_counter()
    for _ in range(REPEAT):
        fn(path)  # type: ignore[operator]
    return time.perf_counter() - start


def header_only(path: Path, folder: str) -> Path:
    """Return a copy of ``path`` cut after its header (the same system and options, no event)."""
    data = path.read_bytes()
    _, size = parse_header(data[: 1 << 17])
    empty = Path(folder) / f"empty-{path.name}"
    empty.write_bytes(data[:size])
    return empty


def main(paths: list[Path]) -> None:
    total_events, total_raw, total_fold = 0, 0.0, 0.0
    print(f"{'log':32} {'events':>7} {'replay ev/s':>12} {'decode ev/s':>12} {'ratio':>6}")
    folder = tempfile.mkdtemp()
    for path in paths:
        events = fold(path)
        empty = header_only(path, folder)
        raw = min(best(raw_decode, path) - best(raw_decode, empty) for _ in range(PAIRS))
        folded = min(best(fold, path) - best(fold, empty) for _ in range(PAIRS))
        total_events, total_raw, total_fold = (
            total_events + events,
            total_raw + raw,
            total_fold + folded,
        )
        print(
            f"{path.name:32} {events:7d} {events * REPEAT / folded:12,.0f} "
            f"{events * REPEAT / raw:12,.0f} {raw / folded:6.3f}"
        )
    print(
        f"{'all':32} {total_events:7d} {total_events * REPEAT / total_fold:12,.0f} "
        f"{total_events * REPEAT / total_raw:12,.0f} {total_raw / total_fold:6.3f}"
    )


if __name__ == "__main__":
    named = [Path(p) for p in sys.argv[1:]]
    if not named or any(str(p).startswith("-") for p in named):
        sys.exit(__doc__.split("\n\n")[1])  # the usage paragraph
    missing = [p for p in named if not p.is_file()]
    if missing:
        sys.exit(f"no log at {missing[0]}")
    main(named)
