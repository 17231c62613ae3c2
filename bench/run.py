"""tablelog benchmarks (``make bench``): prints a table and writes bench/results.json.

Not timed tests: the figures are measured on whatever machine runs them, each the best (or the
median) of a few runs, with the pairs that are compared run alternately in the same process so
that a noisy machine slows both sides alike.

Figures (see docs/RELIABILITY.md for the goals):
- the headline: replay of a 1,000,000-event campaign of each game system to a state, events/s,
  beside plain msgpack decoding of the same file (read the frames, ``unpackb`` each payload,
  nothing else). The campaigns are decided by each system's own commands (bench/campaigns.py),
  cached in bench/.cache/ (made again when the code that decides them changes);
- the same for a 1,000,000-event log of the toy system's events (tests/support/toy.py, built in
  bench/work/), kept for continuity with earlier figures;
- the same events replayed by the ``eventsourcing`` library from its SQLite recorder (a file,
  as tablelog replays a file: the compared figure) and from its in-memory POPO recorder;
- ``state`` with a snapshot, as a fraction of the full replay;
- one appending CLI command on a 10,000-event log beside ``python -c "import attrs, msgspec,
  msgpack, click"`` (until issue 31: cattrs in msgspec's place); ``state`` on a 100,000-event
  log (with and without a snapshot);
- ``status`` on each real system's 1,000-event campaign with its snapshot: CPU per process
  beside the import of the CLI's own dependencies (attrs, msgpack, msgspec, click; until issue
  31 cattrs too), and the same in Japanese beside English;
- ``run`` of a 10,000-line script, lines/s, with one fsync per command and with ``--atomic``;
- peak RSS of replaying 10,000 and 1,000,000 events.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = HERE / "work"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import campaigns  # noqa: E402
import logs  # noqa: E402
import msgpack  # noqa: E402

from tablelog.session import Session  # noqa: E402
from tablelog.store.format import parse_header  # noqa: E402
from tablelog.store.snapshot import snapshot_path  # noqa: E402

PY = sys.executable
TOYCLI = str(HERE / "toycli.py")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as installed
BIG = int(os.environ.get("BENCH_EVENTS", "1000000"))


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def wall(*argv: str) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, env=ENV, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def raw_decode(path: Path) -> int:
    """Plain decoding of the same file: read each frame, ``unpackb`` its payload, nothing more."""
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


def replay(path: Path) -> int:
    return Session(str(path), snapshots=False).state().seq


PAIRS = 7  # raw and replay alternately, the best of each: this machine's speed drifts ±30 %


def bench_replay(big: Path, out: dict) -> None:
    """Replay beside plain decoding: the ratio of the best of each, and (shown beside it) the
    median of the ratios of pairs run back to back, which a drifting machine moves less."""
    raw_times, replay_times = [], []
    for _ in range(PAIRS):
        raw_times.append(timed(lambda: raw_decode(big)))
        replay_times.append(timed(lambda: replay(big)))
    out["replay_s"] = min(replay_times)
    out["replay_eps"] = BIG / out["replay_s"]
    out["raw_decode_eps"] = BIG / min(raw_times)
    out["replay_ratio"] = out["replay_eps"] / out["raw_decode_eps"]
    out["replay_ratio_pairs_median"] = statistics.median(
        raw / rep for raw, rep in zip(raw_times, replay_times, strict=True)
    )


REAL_PAIRS = 5  # raw and replay alternately on each system's campaign, the best of each


def bench_real(out: dict) -> None:
    """Each system's campaign replayed beside plain decoding of the same file: the ratio of
    the best of each, and the median of the paired ratios beside it."""
    for system in campaigns.SYSTEMS:
        path = campaigns.campaign(system, BIG)
        events = replay(path)
        raw_times, replay_times = [], []
        for _ in range(REAL_PAIRS):
            raw_times.append(timed(lambda: raw_decode(path)))  # noqa: B023 - called here
            replay_times.append(timed(lambda: replay(path)))  # noqa: B023
        out[f"replay_eps_{system}"] = events / min(replay_times)
        out[f"raw_decode_eps_{system}"] = events / min(raw_times)
        out[f"replay_ratio_{system}"] = min(raw_times) / min(replay_times)
        out[f"replay_ratio_{system}_pairs_median"] = statistics.median(
            raw / rep for raw, rep in zip(raw_times, replay_times, strict=True)
        )


def bench_snapshot(big: Path, out: dict) -> None:
    Path(snapshot_path(str(big)) or "").unlink(missing_ok=True)
    Session(str(big)).state()  # the first fold writes the snapshot
    assert Path(snapshot_path(str(big)) or "").exists()
    with_snapshot = min(timed(lambda: Session(str(big)).state()) for _ in range(5))
    out["snapshot_state_s"] = with_snapshot
    out["snapshot_state_fraction"] = with_snapshot / out["replay_s"]


def bench_eventsourcing(big: Path, out: dict) -> None:
    """The same events through ``eventsourcing``: its SQLite recorder (events in a file, like
    tablelog's: the compared figure) and its in-memory POPO recorder (shown beside it). Each
    ratio is tablelog's replay over eventsourcing's, both timed alternately in one process."""
    for recorder, key in (("sqlite", "eventsourcing"), ("popo", "eventsourcing_popo")):
        done = subprocess.run(
            [PY, str(HERE / "es_bench.py"), str(BIG), recorder, str(WORK), str(big)],
            check=True,
            env=ENV,
            capture_output=True,
            text=True,
        )
        figures = json.loads(done.stdout)
        out[f"{key}_eps"] = figures["eps"]
        out[f"{key}_tablelog_eps"] = figures["tablelog_eps"]
        out[f"{key}_ratio"] = figures["tablelog_eps"] / figures["eps"]


def bench_cli(log10k: Path, log100k: Path, out: dict) -> None:
    floor = ("-c", "import attrs, msgspec, msgpack, click")
    append = (TOYCLI, "--log", str(log10k), "toy", "spend", "pc1", "1")
    wall(PY, *append)  # warm: byte-code caches and the snapshot, as on a machine in use
    appends, floors = [], []
    for _ in range(9):
        appends.append(wall(PY, *append))
        floors.append(wall(PY, *floor))
    out["cli_append_s"] = statistics.median(appends)
    out["import_floor_s"] = statistics.median(floors)
    out["cli_append_ratio"] = out["cli_append_s"] / out["import_floor_s"]
    state = (TOYCLI, "--log", str(log100k), "state")
    wall(PY, *state)
    out["state_100k_s"] = statistics.median(wall(PY, *state) for _ in range(5))
    cold = []
    for _ in range(3):
        Path(snapshot_path(str(log100k)) or "").unlink(missing_ok=True)
        cold.append(wall(PY, *state))
    out["state_100k_cold_s"] = statistics.median(cold)


def child_cpu(*argv: str, lang: str = "en") -> float:
    """CPU seconds (user + system) of one child process running ``argv``, reading ``lang``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "TABLELOG_LANG": lang}
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_status(out: dict) -> None:
    """``tablelog status`` on each real system's 1,000-event campaign (its snapshot made by a first
    run) beside the import of the CLI's own dependencies: CPU per process (issue 26)."""
    deps = ("-c", "import attrs, msgpack, msgspec, click")
    ratios, langs = [], []
    for system in campaigns.SYSTEMS:
        log = campaigns.campaign(system, 1000)
        status = ("-m", "tablelog", "--log", str(log), "status")
        child_cpu(PY, *status)
        runs, floors, japanese = [], [], []
        for _ in range(7):
            runs.append(child_cpu(PY, *status))
            floors.append(child_cpu(PY, *deps))
            japanese.append(child_cpu(PY, *status, lang="ja"))
        out[f"status_cpu_s_{system}"] = statistics.median(runs)
        ratios.append(statistics.median(runs) / statistics.median(floors))
        langs.append(statistics.median(japanese) / statistics.median(runs))
        out["deps_import_cpu_s"] = statistics.median(floors)
    out["status_cpu_ratio"] = max(ratios)
    out["status_ja_ratio"] = max(langs)  # issue 27: a command in ja within 1.1 × in en


def bench_run(out: dict, lines: int = 10000) -> None:
    script = WORK / "script.txt"
    body = ["init --system toy --seed 7"] + [f"toy add pc{i} 1000000000" for i in range(8)]
    i = 0
    while len(body) < lines:
        body.append(f"toy spend pc{i % 8} 1" if i % 2 else f"toy roll pc{i % 8}")
        i += 1
    script.write_text("\n".join(body) + "\n")
    for key, extra in (("run_lines_per_s", ()), ("run_atomic_lines_per_s", ("--atomic",))):
        log = WORK / "run.tlog"
        logs.remove_log(str(log))
        out[key] = lines / wall(PY, TOYCLI, "--log", str(log), "run", *extra, str(script))


def bench_rss(log10k: Path, big: Path, out: dict) -> None:
    """Peak RSS of a fresh process that replays the log (VmHWM: ru_maxrss would carry the
    parent's peak across fork and exec)."""
    code = (
        "import sys; sys.path[:0] = sys.argv[2:4];"
        "import logs; from tablelog.session import Session;"
        "Session(sys.argv[1], snapshots=False).state();"
        "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])"
    )
    for key, path in (("rss_10k_mb", log10k), ("rss_1m_mb", big)):
        done = subprocess.run(
            [PY, "-c", code, str(path), str(HERE), str(ROOT)],
            check=True,
            env=ENV,
            capture_output=True,
            text=True,
        )
        out[key] = float(done.stdout.strip()) / 1024


GOALS = [
    *(
        (key, unit, goal)
        for system in campaigns.SYSTEMS
        for key, unit, goal in (
            (f"replay_eps_{system}", f"events/s ({system})", ""),
            (f"raw_decode_eps_{system}", "events/s (decoding)", ""),
            (f"replay_ratio_{system}", "× plain decoding", ">= 0.5"),
            (f"replay_ratio_{system}_pairs_median", "× (median of pairs)", ""),
        )
    ),
    ("replay_eps", "events/s", ""),
    ("raw_decode_eps", "events/s", ""),
    ("replay_ratio", "× plain decoding", ">= 0.5"),
    ("replay_ratio_pairs_median", "× (median of pairs)", ""),
    ("eventsourcing_eps", "events/s (SQLite)", ""),
    ("eventsourcing_tablelog_eps", "events/s (tablelog)", ""),
    ("eventsourcing_ratio", "× eventsourcing", ">= 10"),
    ("eventsourcing_popo_eps", "events/s (POPO)", ""),
    ("eventsourcing_popo_tablelog_eps", "events/s (tablelog)", ""),
    ("eventsourcing_popo_ratio", "× (in memory)", ""),
    ("snapshot_state_s", "s", ""),
    ("snapshot_state_fraction", "of full replay", "<= 0.05"),
    ("cli_append_s", "s (median)", ""),
    ("import_floor_s", "s (median)", ""),
    ("cli_append_ratio", "× import floor", "<= 1.5"),
    ("deps_import_cpu_s", "s CPU (median)", ""),
    *((f"status_cpu_s_{system}", "s CPU (median)", "") for system in campaigns.SYSTEMS),
    ("status_cpu_ratio", "× deps import (worst)", "<= 1.3"),
    ("status_ja_ratio", "× en (worst system)", "<= 1.1"),
    ("state_100k_s", "s (median, snapshot)", ""),
    ("state_100k_cold_s", "s (no snapshot)", ""),
    ("run_lines_per_s", "lines/s", ""),
    ("run_atomic_lines_per_s", "lines/s", ""),
    ("rss_10k_mb", "MB", ""),
    ("rss_1m_mb", "MB", "within 20 % of 10k"),
]


def met(key: str, out: dict) -> str:
    checks = {
        **{f"replay_ratio_{system}": lambda v: v >= 0.5 for system in campaigns.SYSTEMS},
        "replay_ratio": lambda v: v >= 0.5,
        "eventsourcing_ratio": lambda v: v >= 10,
        "snapshot_state_fraction": lambda v: v <= 0.05,
        "cli_append_ratio": lambda v: v <= 1.5,
        "status_cpu_ratio": lambda v: v <= 1.3,
        "status_ja_ratio": lambda v: v <= 1.1,
        "rss_1m_mb": lambda v: v <= 1.2 * out["rss_10k_mb"],
    }
    return "" if key not in checks else ("met" if checks[key](out[key]) else "MISSED")


def main() -> None:
    WORK.mkdir(exist_ok=True)
    out: dict = {
        "events": BIG,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_start": os.getloadavg(),
    }  # a shared machine: its 1, 5, 15-minute load
    start = time.perf_counter()
    big, log10k, log100k = WORK / "big.tlog", WORK / "10k.tlog", WORK / "100k.tlog"
    for path, n in ((big, BIG), (log10k, 10000), (log100k, 100000)):
        print(f"building {path.name} ({n} events) …", flush=True)
        logs.make_log(str(path), n)
    steps = [
        ("real systems", lambda: bench_real(out)),
        ("replay", lambda: bench_replay(big, out)),
        ("snapshot", lambda: bench_snapshot(big, out)),
        ("eventsourcing", lambda: bench_eventsourcing(big, out)),
        ("cli", lambda: bench_cli(log10k, log100k, out)),
        ("status", lambda: bench_status(out)),
        ("run", lambda: bench_run(out)),
        ("rss", lambda: bench_rss(log10k, big, out)),
    ]
    for name, step in steps:
        print(f"{name} …", end=" ", flush=True)
        print(f"{timed(step):.0f} s", flush=True)
    out["bench_s"] = time.perf_counter() - start
    out["load_end"] = os.getloadavg()
    print(f"\n{'figure':<33}{'value':>12}  {'unit':<22}{'goal':<20}")
    for key, unit, goal in GOALS:
        print(f"{key:<33}{out[key]:>12,.4g}  {unit:<22}{goal:<20}{met(key, out)}")
    print(
        f"\n{BIG:,} events; whole benchmark {out['bench_s']:.0f} s; load average "
        f"{out['load_start'][0]:.1f} at the start, {out['load_end'][0]:.1f} at the end"
    )
    tmp = HERE / "results.json.tmp"
    tmp.write_text(json.dumps(out, indent=2, sort_keys=True) + "\n")
    tmp.replace(HERE / "results.json")


if __name__ == "__main__":
    main()
