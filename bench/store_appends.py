"""Appends/s on PostgreSQL with 1, 4 and 16 concurrent writers over 20 tables, beside two peers on
the same server in the same run (``make bench-store``; see bench/store.py).

- tablelog: each writer is a process that appends one note per command through the session loop
  (``Session.execute``: fold, decide, check, one transaction), in turn to each of its tables;
  the 20 tables are dealt out to the writers, so each table has one writer.
- eventsourcing: its PostgreSQL aggregate recorder (``PostgresAggregateRecorder``), each writer
  saving one event per new aggregate (a 150-byte state), one transaction each.
- pgbench: PostgreSQL's own ceiling, a custom script inserting one row (an id and 150 bytes)
  per transaction, ``-c W -j W``.
- contended: 8 writer processes racing on one table of 10,000 events, snapshots on as in the CLI
  (each lost race: catch up, decide again; after three, the table's writer lock).
Each runs for ``SECONDS`` after every writer is connected and ready; the three at each writer
count run in turn, ``ROUNDS`` times (``$BENCH_STORE_ROUNDS``, default 3), and the medians are
kept, with tablelog's ratio to each peer per round. Beside each rate: the CPU
milliseconds per append of the clients (their processes) and of the server (every PostgreSQL
process, read from /proc; only for a server the bench started), which say where a rate is spent.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from typing import Any

SECONDS = float(os.environ.get("BENCH_STORE_SECONDS", "6"))
ROUNDS = int(os.environ.get("BENCH_STORE_ROUNDS", "3"))  # of each writer count: medians
TABLES = 20


def _deal(writer: int, writers: int) -> list[int]:
    return [t for t in range(TABLES) if t % writers == writer]


def _tablelog_writer(url: str, ids: list[str], ready: object, go: object, out: object) -> None:
    from tests.support import toy

    toy.install()
    from tablelog.commands.core import AddNote
    from tablelog.session import Session

    sessions = [Session(f"{url}#{i}", snapshots=False) for i in ids]
    for s in sessions:
        s.state()
    ready.wait()  # type: ignore[attr-defined]
    go.wait()  # type: ignore[attr-defined]
    stop, n, cpu = time.perf_counter() + SECONDS, 0, time.process_time()
    while time.perf_counter() < stop:
        sessions[n % len(sessions)].execute(AddNote(text=f"note {n} " + "x" * 100))
        n += 1
    out.put((n, time.process_time() - cpu))  # type: ignore[attr-defined]


def _es_writer(url: str, ready: object, go: object, out: object) -> None:
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresAggregateRecorder

    recorder = PostgresAggregateRecorder(_datastore(url), events_table_name="es_bench_events")
    ready.wait()  # type: ignore[attr-defined]
    go.wait()  # type: ignore[attr-defined]
    stop, n, cpu = time.perf_counter() + SECONDS, 0, time.process_time()
    while time.perf_counter() < stop:
        recorder.insert_events([StoredEvent(uuid.uuid4(), 1, "bench:Noted", b"x" * 150)])
        n += 1
    out.put((n, time.process_time() - cpu))  # type: ignore[attr-defined]


def _datastore(url: str) -> object:
    from eventsourcing.postgres import PostgresDatastore

    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qs(parts.query)
    host = query.get("host", [parts.hostname or "localhost"])[0]
    return PostgresDatastore(
        parts.path.lstrip("/") or "postgres",
        host,
        parts.port or 5432,
        parts.username or "postgres",
        parts.password or "",
        pool_size=1,
    )


def server_cpu_s(pgdata: str | None) -> float:
    """CPU seconds the PostgreSQL server in ``pgdata`` has used so far (its postmaster, its
    ended children, its running ones, from /proc), or NaN for a server the bench did not
    start."""
    if pgdata is None or not os.path.exists("/proc/self/stat"):
        return float("nan")
    with open(os.path.join(pgdata, "postmaster.pid")) as f:
        master = f.readline().strip()
    ticks = 0
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if pid == master:
            ticks += sum(int(x) for x in fields[11:15])  # its own and its reaped children's
        elif fields[1] == master:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _race(
    target: object,
    args_of: list[tuple[object, ...]],
    pgdata: str | None,
) -> tuple[float, float, float]:
    """Start a process per writer, let them go together; return operations/s and the client's
    and the server's CPU milliseconds per operation."""
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Barrier(len(args_of) + 1)
    go, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*a, ready, go, out)) for a in args_of]
    for p in procs:
        p.start()
    ready.wait()
    server = server_cpu_s(pgdata)
    go.set()
    done = [out.get(timeout=SECONDS + 120) for _ in procs]
    server = server_cpu_s(pgdata) - server
    for p in procs:
        p.join()
    n = sum(d[0] for d in done)
    return n / SECONDS, 1000 * sum(d[1] for d in done) / n, 1000 * server / n


def _pgbench(
    url: str,
    writers: int,
    pgbench: str,
    pgdata: str | None,
) -> tuple[float, float, float]:
    parts = urllib.parse.urlsplit(url)
    host = urllib.parse.parse_qs(parts.query).get("host", [parts.hostname or "localhost"])[0]
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(
            "\\set id random(1, 1000000000)\n"
            "INSERT INTO bench_rows (id, payload) VALUES (:id, repeat('x', 150));\n"
        )
    server, client = server_cpu_s(pgdata), os.times()
    done = subprocess.run(
        [
            pgbench,
            "-n",
            "-c",
            str(writers),
            "-j",
            str(writers),
            "-T",
            str(int(SECONDS)),
            "-f",
            f.name,
            "-h",
            host,
            "-U",
            parts.username or "postgres",
            parts.path.lstrip("/") or "postgres",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    server, after = server_cpu_s(pgdata) - server, os.times()
    os.remove(f.name)
    found = re.search(r"tps = ([\d.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    n = float(found.group(1)) * SECONDS
    used = (
        after.children_user + after.children_system - client.children_user - client.children_system
    )
    return float(found.group(1)), 1000 * used / n, 1000 * server / n


def _one_table_writer(spec: str, k: int, ready: object, go: object, out: object) -> None:
    from tests.support import toy

    toy.install()
    from tablelog.commands.core import AddNote
    from tablelog.session import Session

    session = Session(spec, actor=f"w{k}")  # snapshots on, as the CLI
    session.state()
    ready.wait()  # type: ignore[attr-defined]
    go.wait()  # type: ignore[attr-defined]
    stop, n, cpu = time.perf_counter() + SECONDS, 0, time.process_time()
    while time.perf_counter() < stop:
        session.execute(AddNote(text=f"w{k} note {n}"))
        n += 1
    out.put((n, time.process_time() - cpu))  # type: ignore[attr-defined]


def one_table(spec: str, writers: int, pgdata: str | None) -> dict[str, float]:
    """Appends/s of ``writers`` processes racing on the one table ``spec`` (each lost race:
    catch up, decide again; after three, the writer lock)."""
    rate, client, server = _race(_one_table_writer, [(spec, k) for k in range(writers)], pgdata)
    print(f"  {writers:2d} writers on one table: tablelog {rate:7.0f}/s", flush=True)
    return {
        f"tablelog_{writers}_one_table": rate,
        f"tablelog_{writers}_one_table_client_ms": client,
        f"tablelog_{writers}_one_table_server_ms": server,
    }


def pgbench_path(server: object) -> str:
    """Return the pgbench of the pgserver package for a server the bench started, else the one
    on the PATH."""
    if getattr(server, "owned", False):
        from pathlib import Path

        return str(Path(__import__("pgserver").__file__).parent / "pginstall/bin/pgbench")
    return "pgbench"


def prepare_peers(url: str, sql: object) -> None:
    """Create the peers' tables: pgbench's rows and eventsourcing's events."""
    sql("CREATE TABLE IF NOT EXISTS bench_rows (id bigint, payload text)")  # type: ignore[operator]
    from eventsourcing.postgres import PostgresAggregateRecorder

    PostgresAggregateRecorder(_datastore(url), events_table_name="es_bench_events").create_table()


def eventsourcing_rate(url: str, writers: int) -> float:
    """Return events/s of ``writers`` eventsourcing recorders, one event per save."""
    return _race(_es_writer, [(url,) for _ in range(writers)], None)[0]


def pgbench_rate(url: str, writers: int, pgbench: str) -> float:
    """Return pgbench's transactions/s inserting one row each, with ``writers`` clients."""
    return _pgbench(url, writers, pgbench, None)[0]


def measure(
    url: str,
    sql: object,
    pgbench: str,
    counts: tuple[int, ...] = (1, 4, 16),
    pgdata: str | None = None,
    rounds: int = ROUNDS,
) -> dict[str, float]:
    """Return appends/s of tablelog, eventsourcing and pgbench at each writer count, and the
    client's and the server's CPU milliseconds per append (``*_client_ms``, ``*_server_ms``;
    the server's only when ``pgdata`` names its data directory): the medians of ``rounds``
    rounds, each running the three in turn. Beside them, tablelog's ratio to each peer in each
    round (``ratio_pgbench_W_rounds``, ``ratio_es_W_rounds``: runs seconds apart, which the
    machine's drift moves less than it moves runs minutes apart) and their medians
    (``ratio_pgbench_W``, ``ratio_es_W``)."""
    from tests.support import toy

    toy.install()
    from tablelog.session import Session
    from tablelog.store.url import new_table_id

    ids = [new_table_id() for _ in range(TABLES)]
    for i in ids:
        Session.create(f"{url}#{i}", "toy", seed=1).log.close()
    prepare_peers(url, sql)
    out: dict[str, Any] = {}
    for w in counts:
        done: dict[str, list[tuple[float, float, float]]] = {}
        for r in range(rounds):
            runs = {
                "tablelog": _race(
                    _tablelog_writer,
                    [(url, [ids[t] for t in _deal(k, w)]) for k in range(w)],
                    pgdata,
                ),
                "eventsourcing": _race(_es_writer, [(url,) for _ in range(w)], pgdata),
                "pgbench": _pgbench(url, w, pgbench, pgdata),
            }
            for name, run in runs.items():
                done.setdefault(name, []).append(run)
            print(
                f"  {w:2d} writers, round {r + 1}: "
                + "  ".join(
                    f"{name} {rate:7.0f}/s (CPU ms: client {client:.2f}, server {server:.2f})"
                    for name, (rate, client, server) in runs.items()
                ),
                flush=True,
            )
        for name, got in done.items():
            for i, part in enumerate(("", "_client_ms", "_server_ms")):
                out[f"{name}_{w}{part}"] = statistics.median(run[i] for run in got)
        for peer, key in (("pgbench", "pgbench"), ("eventsourcing", "es")):
            ratios = [a[0] / b[0] for a, b in zip(done["tablelog"], done[peer], strict=True)]
            out[f"ratio_{key}_{w}_rounds"] = ratios
            out[f"ratio_{key}_{w}"] = statistics.median(ratios)
    return out


if __name__ == "__main__":
    sys.exit("run bench/store.py")
