"""PostgreSQL store benchmarks (``make bench-store``, not part of ``make test``): prints a table
and writes the run into bench/results-store.json (key ``latest``, with the machine's load
average before and after it and the commit measured; other keys, such as ``before``, are
kept).

The server is ``$TABLELOG_TEST_PG`` when set, else a throwaway pgserver (tests/support/pg.py).
Every ratio is measured in this one run, on this one server (docs/STORES.md, issue 16):
- appends/s with 1, 4 and 16 writers over 20 tables, beside eventsourcing's PostgreSQL recorder
  and pgbench's one-row-insert ceiling (bench/store_appends.py). Goals: ≥ 0.5 × eventsourcing
  at 1 writer, ≥ 0.3 × pgbench at 16 writers; the CPU each append costs the clients and the
  server; 8 writers racing on one table;
- the replay of a 100,000-event table from PostgreSQL beside the same log from a file (the best
  of 3 in a fresh process each), and ``state`` with a snapshot on each;
- the peak RSS of ``tablelog copy`` (file → PostgreSQL) of 10,000 and of 1,000,000 events.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = HERE / "work"
sys.path[:0] = [str(HERE), str(ROOT)]

import logs  # noqa: E402
import store_appends  # noqa: E402

from tablelog.store.copy import copy_log  # noqa: E402
from tablelog.store.log import LogFile  # noqa: E402
from tablelog.store.url import new_table_id  # noqa: E402
from tests.support.pg import start_server  # noqa: E402

PY = sys.executable
COPY_BIG = int(os.environ.get("BENCH_COPY_EVENTS", "1000000"))

FOLD = """
import sys, time; sys.path[:0] = sys.argv[2:4]
import logs
from tablelog.session import Session
best = None
for _ in range(3):
    s = Session(sys.argv[1], snapshots=sys.argv[4] == "snap"); s.header
    start = time.perf_counter(); st = s.state(); took = time.perf_counter() - start
    best = took if best is None else min(best, took)
    s.log.close()
print(best)
"""

COPY = """
import sys; sys.path[:0] = sys.argv[3:5]
import logs
from tablelog.cli.main import cli
cli.main(["copy", sys.argv[1], sys.argv[2]], standalone_mode=False)
print([l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM")][0])
"""


def fold_s(spec: str, snapshots: bool = False) -> float:
    """Best of 3 folds of ``spec`` in a fresh process (seconds)."""
    done = subprocess.run(
        [PY, "-c", FOLD, spec, str(HERE), str(ROOT), "snap" if snapshots else "plain"],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def copy_rss_mb(source: str, target: str) -> float:
    """Peak RSS (MB) of a process running ``tablelog copy SOURCE TARGET``."""
    done = subprocess.run(
        [PY, "-c", COPY, source, target, str(HERE), str(ROOT)], capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(f"copy {source} failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1]) / 1024


def bench_replay(url: str, out: dict) -> None:
    """Replay of 100,000 events from PostgreSQL beside the file; state with a snapshot."""
    path = str(WORK / "store-100k.tlog")
    logs.make_log(path, 100_000)
    spec = f"{url}#{new_table_id()}"
    copy_log(LogFile(path), spec)
    out["replay_file_s"] = fold_s(path)
    out["replay_pg_s"] = fold_s(spec)
    out["replay_pg_ratio"] = out["replay_pg_s"] / out["replay_file_s"]
    fold_s(path, snapshots=True)  # the first folds write the snapshots
    fold_s(spec, snapshots=True)
    out["state_snapshot_file_s"] = fold_s(path, snapshots=True)
    out["state_snapshot_pg_s"] = fold_s(spec, snapshots=True)


def bench_copy(url: str, out: dict, pgdata: str | None) -> None:
    """Peak RSS of copying 10,000 and COPY_BIG events from a file into PostgreSQL; then 8
    writers racing on the 10,000-event copy."""
    targets = {}
    for key, n in (("copy_rss_10k_mb", 10_000), ("copy_rss_big_mb", COPY_BIG)):
        path = str(WORK / f"store-copy-{n}.tlog")
        logs.make_log(path, n)
        targets[n] = f"{url}#{new_table_id()}"
        out[key] = copy_rss_mb(path, targets[n])
    out["copy_big_events"] = COPY_BIG
    out.update(store_appends.one_table(targets[10_000], 8, pgdata))


GOALS = [
    ("tablelog_1", "appends/s", ""),
    ("eventsourcing_1", "appends/s", ""),
    ("pgbench_1", "tx/s", ""),
    ("ratio_es_1", "× eventsourcing, 1 writer (median)", ">= 0.5"),
    ("tablelog_4", "appends/s", ""),
    ("eventsourcing_4", "appends/s", ""),
    ("pgbench_4", "tx/s", ""),
    ("tablelog_16", "appends/s", ""),
    ("eventsourcing_16", "appends/s", ""),
    ("pgbench_16", "tx/s", ""),
    ("ratio_pgbench_16", "× pgbench, 16 writers (median)", ">= 0.3"),
    ("replay_file_s", "s (100k, file)", ""),
    ("replay_pg_s", "s (100k, PostgreSQL)", ""),
    ("replay_pg_ratio", "× the file's time", ""),
    ("state_snapshot_file_s", "s", ""),
    ("state_snapshot_pg_s", "s", ""),
    ("copy_rss_10k_mb", "MB", ""),
    ("copy_rss_big_mb", "MB", "within 20 % of 10k"),
    ("tablelog_8_one_table", "appends/s (8 writers, 1 table)", ""),
]


def main() -> None:
    WORK.mkdir(exist_ok=True)
    server = start_server()
    pgdata = server.pgdata if server.owned else None
    out: dict = {
        "command": "make bench-store",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": _commit(),
        "load_start": os.getloadavg(),
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "server": server.sql("SHOW server_version")[0][0],
    }
    try:
        pgbench = store_appends.pgbench_path(server)
        print("appends (writers over 20 tables):", flush=True)
        out.update(store_appends.measure(server.url, server.sql, pgbench, pgdata=pgdata))
        bench_replay(server.url, out)
        bench_copy(server.url, out, pgdata)
    finally:
        server.stop()
    out["load_end"] = os.getloadavg()
    checks = {
        "ratio_es_1": out["ratio_es_1"] >= 0.5,
        "ratio_pgbench_16": out["ratio_pgbench_16"] >= 0.3,
        "copy_rss_big_mb": out["copy_rss_big_mb"] <= 1.2 * out["copy_rss_10k_mb"],
    }
    for key, unit, goal in GOALS:
        mark = "" if key not in checks else ("met" if checks[key] else "MISSED")
        print(f"{key:24s} {out[key]:12.3f} {unit:28s} {goal:20s} {mark}")
    print(f"load average: {out['load_start']} at the start, {out['load_end']} at the end")
    results = HERE / "results-store.json"
    kept = json.loads(results.read_text()) if results.exists() else {}
    kept["latest"] = out
    results.write_text(json.dumps(kept, indent=1) + "\n")


def _commit() -> str:
    """The commit measured (with ``+`` when the work tree has changes)."""
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "tablelog", "bench"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return head + ("+" if dirty else "")


if __name__ == "__main__":
    main()
