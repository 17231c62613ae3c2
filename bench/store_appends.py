"""Appends/s on PostgreSQL with 1, 4 and 16 concurrent writers over 20 tables, beside two peers on
the same server in the same run (``make bench-store``; see bench/store.py).

- tablelog: each writer is a process that appends one note per command through the session loop
  (``Session.execute``: fold, decide, check, one transaction), in turn to each of its tables;
  the 20 tables are dealt out to the writers, so each table has one writer.
- eventsourcing: its PostgreSQL aggregate recorder (``PostgresAggregateRecorder``), each writer
  saving one event per new aggregate (a 150-byte state), one transaction each.
- pgbench: PostgreSQL's own ceiling, a custom script inserting one row (an id and 150 bytes)
  per transaction, ``-c W -j W``.
Each runs for ``SECONDS`` after every writer is connected and ready.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid

SECONDS = float(os.environ.get("BENCH_STORE_SECONDS", "6"))
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
    stop, n = time.perf_counter() + SECONDS, 0
    while time.perf_counter() < stop:
        sessions[n % len(sessions)].execute(AddNote(text=f"note {n} " + "x" * 100))
        n += 1
    out.put(n)  # type: ignore[attr-defined]


def _es_writer(url: str, ready: object, go: object, out: object) -> None:
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresAggregateRecorder

    recorder = PostgresAggregateRecorder(_datastore(url), events_table_name="es_bench_events")
    ready.wait()  # type: ignore[attr-defined]
    go.wait()  # type: ignore[attr-defined]
    stop, n = time.perf_counter() + SECONDS, 0
    while time.perf_counter() < stop:
        recorder.insert_events([StoredEvent(uuid.uuid4(), 1, "bench:Noted", b"x" * 150)])
        n += 1
    out.put(n)  # type: ignore[attr-defined]


def _datastore(url: str) -> object:
    from eventsourcing.postgres import PostgresDatastore

    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qs(parts.query)
    host = query.get("host", [parts.hostname or "localhost"])[0]
    return PostgresDatastore(parts.path.lstrip("/") or "postgres", host, parts.port or 5432,
                             parts.username or "postgres", parts.password or "",
                             pool_size=1)


def _race(target: object, args_of: list[tuple[object, ...]]) -> float:
    """Start a process per writer, let them go together; return operations/s."""
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Barrier(len(args_of) + 1)
    go, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*a, ready, go, out)) for a in args_of]
    for p in procs:
        p.start()
    ready.wait()
    go.set()
    total = sum(out.get(timeout=SECONDS + 120) for _ in procs)
    for p in procs:
        p.join()
    return total / SECONDS


def pgbench_rate(url: str, writers: int, pgbench: str) -> float:
    """Return pgbench's transactions/s inserting one row each, with ``writers`` clients."""
    parts = urllib.parse.urlsplit(url)
    host = urllib.parse.parse_qs(parts.query).get("host", [parts.hostname or "localhost"])[0]
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write("\\set id random(1, 1000000000)\n"
                "INSERT INTO bench_rows (id, payload) VALUES (:id, repeat('x', 150));\n")
    done = subprocess.run([pgbench, "-n", "-c", str(writers), "-j", str(writers), "-T",
                           str(int(SECONDS)), "-f", f.name, "-h", host, "-U",
                           parts.username or "postgres", parts.path.lstrip("/") or "postgres"],
                          capture_output=True, text=True, check=True)
    os.remove(f.name)
    found = re.search(r"tps = ([\d.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


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
    return _race(_es_writer, [(url,) for _ in range(writers)])


def measure(url: str, sql: object, pgbench: str, counts: tuple[int, ...] = (1, 4, 16),
            ) -> dict[str, float]:
    """Return appends/s of tablelog, eventsourcing and pgbench at each writer count."""
    from tests.support import toy

    toy.install()
    from tablelog.session import Session
    from tablelog.store.url import new_table_id

    ids = [new_table_id() for _ in range(TABLES)]
    for i in ids:
        Session.create(f"{url}#{i}", "toy", seed=1).log.close()
    prepare_peers(url, sql)
    out: dict[str, float] = {}
    for w in counts:
        out[f"tablelog_{w}"] = _race(_tablelog_writer, [
            (url, [ids[t] for t in _deal(k, w)]) for k in range(w)])
        out[f"eventsourcing_{w}"] = eventsourcing_rate(url, w)
        out[f"pgbench_{w}"] = pgbench_rate(url, w, pgbench)
        print(f"  {w:2d} writers: tablelog {out[f'tablelog_{w}']:7.0f}/s  eventsourcing "
              f"{out[f'eventsourcing_{w}']:7.0f}/s  pgbench {out[f'pgbench_{w}']:7.0f}/s",
              flush=True)
    return out


if __name__ == "__main__":
    sys.exit("run bench/store.py")
