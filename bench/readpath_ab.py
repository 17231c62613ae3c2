"""A/B of the read path's two mechanisms on real-system campaigns (issue 14 §2).

Usage: ``python bench/readpath_ab.py [--wall] ROUNDS LOG [LOG …]``. Folds each log from scratch
(no snapshot) in four variants: the plain-data evolvers (tablelog.projections.plain) on/off × the
reader applying records itself (tablelog.store.log.Applier) on/off; and decodes it plainly
(msgpack only); all interleaved round by round in one process, each round in another order.
Times are the process's CPU time (the machine's other work does not count; wall time with
``--wall``, which a shared machine's drift moves by ±20 %). Prints each variant's median
events/s and the gain of each mechanism (over the variant without it), then every time as
JSON. "Off" is monkeypatched: no plain form (typed events); an Applier with an empty table (the
reader hands every record to the fold's loop).
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after $PYTHONPATH

import msgpack  # noqa: E402

import tablelog.replay as replay  # noqa: E402
from tablelog.session import Session  # noqa: E402
from tablelog.store.format import parse_header  # noqa: E402
from tablelog.store.log import Applier  # noqa: E402

PLAIN = replay.plain_evolver


def variant(plain: bool, applier: bool) -> None:
    replay.plain_evolver = PLAIN if plain else (lambda cls, fn: None)
    replay.Applier = Applier if applier else (  # type: ignore[misc]
        lambda table, target, skip, every: Applier({}, target, skip, every))


def raw_decode(path: Path) -> int:
    """Plain decoding, as bench/run.py's (not imported: it puts this tree first on the path)."""
    count = 0
    with open(path, "rb", buffering=1 << 20) as f:
        _, size = parse_header(f.read(1 << 17))
        f.seek(size)
        read, unpackb = f.read, msgpack.unpackb
        while True:
            prefix = read(8)
            if len(prefix) < 8:
                return count
            unpackb(read(int.from_bytes(prefix[:4], "big")))
            count += 1


def fold(path: Path) -> int:
    return Session(str(path), snapshots=False).state().seq


def timed(fn, path: Path) -> float:  # noqa: ANN001
    """Return the CPU time ``fn(path)`` took (this process's: a shared machine's other work
    does not count, as it does in wall time; ``--wall`` for wall time)."""
    gc.collect()
    clock = time.perf_counter if WALL else time.process_time
    start = clock()
    fn(path)
    return clock() - start


WALL = "--wall" in sys.argv


VARIANTS = {"plain+applier": (True, True), "plain": (True, False), "applier": (False, True),
            "neither": (False, False)}


def main(rounds: int, paths: list[Path]) -> None:
    out: dict = {"tablelog": str(Path(replay.__file__).parent)}
    for path in paths:
        events = fold(path)
        times: dict[str, list[float]] = {name: [] for name in [*VARIANTS, "decode"]}
        names = [*VARIANTS, "decode"]
        for r in range(rounds):  # each round in another order: none always runs first
            for name in names[r % len(names):] + names[:r % len(names)]:
                if name == "decode":
                    times[name].append(timed(raw_decode, path))
                    continue
                variant(*VARIANTS[name])
                times[name].append(timed(fold, path))
        eps = {name: events / statistics.median(ts) for name, ts in times.items()}
        out[path.name] = {"events": events, "eps": eps, "times": times,
                          "plain_gain": eps["plain+applier"] / eps["applier"] - 1,
                          "applier_gain": eps["plain+applier"] / eps["plain"] - 1,
                          "both_gain": eps["plain+applier"] / eps["neither"] - 1}
        print(path.name, json.dumps({k: v for k, v in out[path.name].items() if k != "times"}),
              flush=True)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--wall"]
    main(int(args[0]), [Path(p) for p in args[1:]])
