"""``make bench-server``: the table server under load over HTTP on loopback, on the file store and
on PostgreSQL, beside PostgreSQL peers measured in the same run on the same server.

Prints a table and writes ``bench/results-server.json`` (with ``uptime``'s load before and after):
- commands/s and p50/p99 latency of ``POST …/commands`` (a magicpunk damage or heal) for one
  table with 1, 4 and 16 clients, and for 20 tables × 4 clients, each client sending its next
  command as soon as the last is answered (a closed loop: latency is clients / throughput),
  and once more with each client sending one command a second; on each store (one server
  process each);
- the peers (bench/store_appends.py, as ``make bench-store`` runs them): eventsourcing's
  PostgreSQL recorder in-process, one event per save, 1 writer; pgbench's one-row inserts,
  1 client; measured in turn with one client over HTTP on PostgreSQL, three rounds, medians
  reported. Goal: one client over HTTP on PostgreSQL ≥ 0.5 × eventsourcing. Beside them, the
  floor (bench/floor_server.py): the same server stack whose handler only commits one row, with
  the same ``http.client`` client (``http_floor_1_stdlib_client_per_s``, ``ratio_floor``): what
  any command over HTTP costs here before tablelog does any work; and the floor under the
  20 tables × 4 clients closed loop;
- live fan-out: 100 event-stream subscribers on one table, the delay from a command's 201 to
  each subscriber's receipt of its record, p50/p99 (goal p99 ≤ 100 ms);
- the server's resident memory holding 200 tables of 10,000 events each, on each store;
- capacity at a table's pace (issue 26): 200 tables × 5 seats, each seat one command every 10 s
  at Poisson arrivals (100 commands/s) for ``BENCH_PACE_SECONDS`` (default 60), on each store and
  on the floor: p99 ≤ 50 ms with no error, then twice the tables while that holds (the largest
  passing count is the capacity); ``BENCH_PACE=0`` leaves it out.
PostgreSQL is ``$TABLELOG_TEST_PG`` when set, else a throwaway pgserver (tests/support/pg.py).
- a Discord interaction (``/tl do`` of the same damage or heal, signed, on the file store) beside
  the same line as a plain ``POST …/commands``, one ``http.client`` client, in turn: round trip
  p50/p99 on loopback (``BENCH_SERVER_ONLY=discord`` runs only this, prints it, writes nothing).
``BENCH_SERVER_ONLY=paced`` runs the capacity at a table's pace again on each store and writes
it into the results. ``BENCH_SERVER_SECONDS`` sets each load's length (default 6).
``BENCH_SERVER_ONLY=one`` runs only
the one-client rows (one table, 1 client, on each store) and the side-by-side rounds, prints them
and writes nothing (a short run to compare a change with). Every request loop is bounded in time
and count, and only 127.0.0.1 is ever a target.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

import store_appends  # noqa: E402

from tests.support.pg import start_server  # noqa: E402
from tests.support.server import ADD, TOKEN, free_port, spawn  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SERVER_SECONDS", "6"))
AUTH = {"Authorization": f"Bearer {TOKEN}"}
EVENTS = 10_000  # per table of the memory measure
TABLES = 200


@contextlib.contextmanager
def serving(store: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A `tablelog serve` process on ``store``; yields it and its /api URL."""
    port = free_port()
    proc = spawn(store, port)
    try:
        yield proc, f"http://127.0.0.1:{port}/api"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def table(url: str, names: int = 4) -> str:
    with httpx.Client(base_url=url, headers=AUTH) as gm:
        tid = gm.post("/tables", json={"system": "magicpunk", "seed": 1}).json()["table_id"]
        for i in range(names):
            gm.post(f"/tables/{tid}/commands", json={"command": ADD.format(f"pc{i}")})
    return str(tid)


def load(
    url: str, tables: list[str], clients_per_table: int, pace_s: float = 0.0
) -> dict[str, Any]:
    """Every client sends commands to its table for SECONDS (from when every client is made
    and connected): each as soon as the last is answered, or with ``pace_s`` one every
    ``pace_s`` seconds (the clients' starts spread over the first ``pace_s``); return rate
    and latencies."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    count = len(tables) * clients_per_table
    ready, go, stop = threading.Barrier(count + 1), threading.Event(), [0.0]

    def client(tid: str, n: int, k: int) -> None:
        mine = []
        with httpx.Client(base_url=url, headers=AUTH, timeout=30, verify=False) as c:
            c.get(f"/tables/{tid}")  # connected before the clock starts
            ready.wait()
            go.wait()
            i, slot = 0, time.monotonic() + pace_s * k / count
            while time.monotonic() < stop[0] and i < 100_000:
                time.sleep(max(0.0, slot - time.monotonic()))
                slot += pace_s
                line = f"magicpunk {'damage' if i % 2 else 'heal'} pc{n % 4} 1"
                started = time.perf_counter()
                try:
                    code = c.post(f"/tables/{tid}/commands", json={"command": line}).status_code
                except httpx.HTTPError:
                    code = 0
                with lock:
                    statuses[code] = statuses.get(code, 0) + 1
                if code in (201, 422):
                    mine.append(time.perf_counter() - started)
                i += 1
        with lock:
            latencies.extend(mine)

    threads = [
        threading.Thread(target=client, args=(tid, n, k * clients_per_table + n))
        for k, tid in enumerate(tables)
        for n in range(clients_per_table)
    ]
    return run_clients(threads, ready, go, stop, SECONDS, latencies, statuses)


def run_clients(
    threads: list[threading.Thread],
    ready: threading.Barrier,
    go: threading.Event,
    stop: list[float],
    seconds: float,
    latencies: list[float],
    statuses: dict[int, int],
) -> dict[str, Any]:
    """Start the clients' ``threads``; once each is ``ready``, let them ``go`` until
    ``stop[0]``, ``seconds`` on; return the rate, p50/p99 of their answered commands'
    ``latencies`` and their ``statuses``."""
    for t in threads:
        t.start()
    ready.wait()
    stop[0] = time.monotonic() + seconds
    go.set()
    for t in threads:
        t.join()
    latencies.sort()
    if not latencies:
        raise SystemExit(f"no command answered: statuses {statuses}")
    return {
        "commands_per_s": len(latencies) / seconds,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
    }


PACE_SECONDS = float(os.environ.get("BENCH_PACE_SECONDS", "60"))
SEATS, SEAT_INTERVAL_S = 5, 10.0  # a table's pace: each of 5 seats one command every 10 s


def paced(url: str, tables: list[str], seconds: float = PACE_SECONDS) -> dict[str, object]:
    """Capacity at a table's pace (issue 26): every table has SEATS seats, each sending a
    command at Poisson arrivals (exponential gaps, mean SEAT_INTERVAL_S) for ``seconds``, an
    open loop (a late answer does not delay the next arrival of another seat); each seat on its
    own kept-alive ``http.client`` connection. Returns rate, p50/p99 and the statuses (0: a
    transport error)."""
    import http.client
    import random
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    headers = {**AUTH, "Content-Type": "application/json"}
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    count = len(tables) * SEATS
    ready, go, stop = threading.Barrier(count + 1), threading.Event(), [0.0]

    def seat(tid: str, n: int, rng: random.Random) -> None:
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        path, mine, codes = f"{parts.path}/tables/{tid}/commands", [], []
        try:
            conn.request("GET", f"{parts.path}/tables/{tid}", headers=AUTH)
            conn.getresponse().read()
            ready.wait()
            go.wait()
            at, i = time.monotonic() + rng.expovariate(1 / SEAT_INTERVAL_S), 0
            while at < stop[0] and i < 10_000:
                time.sleep(max(0.0, at - time.monotonic()))
                line = f"magicpunk {'damage' if i % 2 else 'heal'} pc{n % 4} 1"
                started, code = time.perf_counter(), 0
                for _attempt in range(2):  # the server closes a connection idle past its
                    try:  # keep-alive: a browser connects again, and so does a seat
                        conn.request("POST", path, json.dumps({"command": line}), headers)
                        answer = conn.getresponse()
                        answer.read()
                        code = answer.status
                        break
                    except (OSError, http.client.HTTPException):
                        conn.close()
                codes.append(code)
                if code in (201, 422):
                    mine.append(time.perf_counter() - started)
                at += rng.expovariate(1 / SEAT_INTERVAL_S)
                i += 1
        finally:
            conn.close()
            with lock:
                latencies.extend(mine)
                for code in codes:
                    statuses[code] = statuses.get(code, 0) + 1

    rng = random.Random(26)
    threads = [
        threading.Thread(target=seat, args=(tid, n, random.Random(rng.random())), daemon=True)
        for tid in tables
        for n in range(SEATS)
    ]
    out = run_clients(threads, ready, go, stop, seconds, latencies, statuses)
    errors = sum(v for k, v in statuses.items() if k not in (201, 422))
    return {"tables": len(tables), **out, "errors": errors}


def capacity(url: str, make_table: object, start: int = 200, most: int = 1600) -> dict:
    """:func:`paced` with ``start`` tables, then twice as many while p99 ≤ 50 ms with no error
    (up to ``most``): the first row is the goal's (200 tables × 5 seats, 100 commands/s), the
    largest passing table count the capacity."""
    rows, made, n = [], [], start
    while n <= most:
        made += [make_table(url) for _ in range(n - len(made))]  # type: ignore[operator]
        row = paced(url, made[:n])
        print(f"  paced, {n} tables × {SEATS} seats: {row}", flush=True)
        rows.append(row)
        if row["p99_ms"] > 50 or row["errors"]:
            break
        n *= 2
    passing = [r["tables"] for r in rows if r["p99_ms"] <= 50 and not r["errors"]]
    return {"rows": rows, "largest_tables": max(passing, default=0)}


def fanout(url: str, subscribers: int = 100, commands: int = 20) -> dict[str, float]:
    """Delay from each command's 201 to each subscriber's receipt of its record."""
    tid = table(url)
    received: dict[int, list[float]] = {}
    lock = threading.Lock()
    ready = threading.Barrier(subscribers + 1)
    start_seq = httpx.get(f"{url}/tables/{tid}", headers=AUTH).json()["seq"]

    def subscriber() -> None:
        got = 0
        with (
            httpx.Client(headers=AUTH, timeout=60, verify=False) as c,
            c.stream("GET", f"{url}/tables/{tid}/events?after={start_seq}") as stream,
        ):
            ready.wait()
            for line in stream.iter_lines():
                if line.startswith("id:"):
                    with lock:
                        received.setdefault(int(line[3:]), []).append(time.perf_counter())
                    got += 1
                    if got >= commands:
                        return

    threads = [threading.Thread(target=subscriber) for _ in range(subscribers)]
    for t in threads:
        t.start()
    ready.wait()
    sent: dict[int, float] = {}
    with httpx.Client(base_url=url, headers=AUTH) as gm:
        for i in range(commands):
            r = gm.post(
                f"/tables/{tid}/commands", json={"command": f"magicpunk damage pc{i % 4} 1"}
            )
            sent[r.json()["seqs"][0]] = time.perf_counter()
            time.sleep(0.1)
    for t in threads:
        t.join(timeout=60)
    delays = sorted(
        1000 * (at - sent[seq]) for seq, ats in received.items() if seq in sent for at in ats
    )
    return {
        "fanout_p50_ms": statistics.median(delays),
        "fanout_p99_ms": delays[int(len(delays) * 0.99)],
        "deliveries": len(delays),
    }


def first_table(spec: str) -> None:
    """Create a magicpunk table of EVENTS events (one character, damage and heal in turn)."""
    from tablelog.commands.magicpunk.table import AddCharacter, Damage, Heal
    from tablelog.session import Session

    session = Session.create(spec, "magicpunk", seed=2)
    with session.atomic():
        session.execute(AddCharacter("pc0", 8, 12, 10, 10, 26))
        for i in range(EVENTS - 1):
            session.execute(Damage("pc0", 1) if i % 2 else Heal("pc0", 1))
    session.log.close()


def rss_mb(proc: subprocess.Popen[bytes], url: str, ids: list[str]) -> float:
    """RSS of the server once it has opened every table of ``ids``."""
    with httpx.Client(base_url=url, headers=AUTH, timeout=300) as gm:
        for tid in ids:
            answer = gm.get(f"/tables/{tid}")
            assert answer.status_code == 200 and answer.json()["seq"] == EVENTS, answer.text
    status = Path(f"/proc/{proc.pid}/status").read_text().splitlines()
    return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def memory_file(folder: Path) -> float:
    """RSS (MB) of a server holding TABLES log files of EVENTS events each."""
    first_table(f"file:{folder}#t000")
    for i in range(1, TABLES):
        shutil.copy(folder / "t000.tlog", folder / f"t{i:03d}.tlog")
    with serving(f"file:{folder}") as (proc, url):
        return rss_mb(proc, url, [f"t{i:03d}" for i in range(TABLES)])


def memory_pg(pg: object, url: str) -> float:
    """RSS (MB) of a server holding TABLES PostgreSQL tables of EVENTS events each (the first
    made by the session, the others copied row by row in SQL)."""
    first_table(f"{url}#t000")
    sql = pg.sql  # type: ignore[attr-defined]
    sql(
        "INSERT INTO tablelog_tables SELECT 't' || lpad(n::text, 3, '0'), header, format, "
        "system, title, session_id, created FROM tablelog_tables, generate_series(1, %s) n "
        "WHERE table_id = 't000'",
        (TABLES - 1,),
        url=url,
    )
    sql(
        "INSERT INTO tablelog_records SELECT 't' || lpad(n::text, 3, '0'), seq, crc, "
        "payload, type, actor, at, cmd, req FROM tablelog_records, "
        "generate_series(1, %s) n WHERE table_id = 't000'",
        (TABLES - 1,),
        url=url,
    )
    with serving(url) as (proc, api):
        return rss_mb(proc, api, [f"t{i:03d}" for i in range(TABLES)])


def store_loads(store: str) -> dict[str, object]:
    """Every load on one store, one server process."""
    out: dict[str, object] = {}
    with serving(store) as (_, url):
        one = table(url)
        for clients in (1, 4, 16):
            out[f"one_table_{clients}_clients"] = load(url, [one], clients)
            print(f"  {clients:2d} clients: {out[f'one_table_{clients}_clients']}", flush=True)
        twenty = [table(url) for _ in range(20)]
        out["twenty_tables_4_clients"] = load(url, twenty, 4)
        print(f"  20 × 4: {out['twenty_tables_4_clients']}", flush=True)
        out["twenty_tables_4_clients_1_per_s"] = load(url, twenty, 4, pace_s=1.0)
        print(
            f"  20 × 4, each client 1 command/s: {out['twenty_tables_4_clients_1_per_s']}",
            flush=True,
        )
        out["fanout_100_subscribers"] = fanout(url)
        print(f"  fan-out: {out['fanout_100_subscribers']}", flush=True)
        if os.environ.get("BENCH_PACE", "1") != "0":
            out["paced"] = capacity(url, table)
    return out


@contextlib.contextmanager
def floor_serving(pg_url: str) -> Iterator[str]:
    """The floor peer (bench/floor_server.py) on ``pg_url``; yields its /api URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "floor_server.py"), pg_url, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(200):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None:
                    raise SystemExit("the floor peer did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/api"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def stdlib_client(url: str, tid: str) -> float:
    """Commands/s of one client on Python's own ``http.client`` (one kept-alive connection)
    for SECONDS, each as soon as the last is answered: the same requests as :func:`load`'s,
    from a client that spends about a third of httpx's CPU on each (what a round trip on
    this machine owes to the benchmark's client); the floor peer (:func:`floor_serving`)
    takes any ``tid``."""
    import http.client
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    headers = {**AUTH, "Content-Type": "application/json"}
    path, done = f"{parts.path}/tables/{tid}/commands", 0
    try:
        stop = time.monotonic() + SECONDS
        while time.monotonic() < stop and done < 100_000:
            line = f"magicpunk {'damage' if done % 2 else 'heal'} pc0 1"
            conn.request("POST", path, json.dumps({"command": line}), headers)
            answer = conn.getresponse()
            answer.read()
            if answer.status != 201:
                raise SystemExit(f"stdlib client: {answer.status}")
            done += 1
    finally:
        conn.close()
    return done / SECONDS


def peers(pg: object, rounds: int = 3) -> dict[str, object]:
    """One client over HTTP on PostgreSQL beside eventsourcing's recorder and pgbench (1
    writer each), in turn, ``rounds`` times: on a shared machine the load drifts, and
    measuring them side by side keeps each ratio to one moment; the medians are reported.
    The client is httpx, as in every load; the same client on ``http.client`` is measured
    beside it (``http_pg_1_stdlib_client_per_s``, ``ratio_stdlib_client``)."""
    url = pg.new_database()  # type: ignore[attr-defined]
    store_appends.prepare_peers(url, lambda q: pg.sql(q, url=url))  # type: ignore[attr-defined]
    rows: list[dict[str, float]] = []
    with serving(url) as (_, api), floor_serving(url) as floor:
        one = table(api)
        for _ in range(rounds):
            row = {
                "eventsourcing_1_per_s": store_appends.eventsourcing_rate(url, 1),
                "http_pg_1_client_per_s": load(api, [one], 1)["commands_per_s"],
                "http_pg_1_stdlib_client_per_s": stdlib_client(api, one),
                "http_floor_1_stdlib_client_per_s": stdlib_client(floor, "floor"),
                "pgbench_1_per_s": store_appends.pgbench_rate(
                    url, 1, store_appends.pgbench_path(pg)
                ),
            }
            row["ratio"] = row["http_pg_1_client_per_s"] / row["eventsourcing_1_per_s"]
            row["ratio_stdlib_client"] = (
                row["http_pg_1_stdlib_client_per_s"] / row["eventsourcing_1_per_s"]
            )
            row["ratio_floor"] = (
                row["http_floor_1_stdlib_client_per_s"] / row["eventsourcing_1_per_s"]
            )
            row["ratio_to_floor"] = (  # issue 26: >= 0.7
                row["http_pg_1_stdlib_client_per_s"] / row["http_floor_1_stdlib_client_per_s"]
            )
            print(f"  side by side: {row}", flush=True)
            rows.append(row)
        floor_twenty = load(floor, [f"t{i}" for i in range(20)], 4)
        print(f"  the floor, 20 × 4: {floor_twenty}", flush=True)
        floor_paced = (
            capacity(floor, lambda _url: f"t{time.monotonic_ns()}")
            if os.environ.get("BENCH_PACE", "1") != "0"
            else None
        )
    out: dict[str, object] = {
        "side_by_side": rows,
        "floor_twenty_tables_4_clients": floor_twenty,
        "floor_paced": floor_paced,
    }
    for key in rows[0]:
        out[key] = statistics.median(r[key] for r in rows)
    return out


def one_client() -> None:
    """``BENCH_SERVER_ONLY=one``: one client on one table on each store, then the side-by-side
    rounds; printed only."""
    out: dict[str, object] = {"uptime_before": uptime()}
    pg = start_server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for kind, store in (
                ("file", f"file:{Path(tmp) / 'tables'}"),
                ("pg", pg.new_database()),
            ):
                with serving(store) as (_, url):
                    out[f"{kind}_1_client"] = load(url, [table(url)], 1)
                print(f"  {kind}, 1 client: {out[f'{kind}_1_client']}", flush=True)
            out.update(peers(pg))
    finally:
        pg.stop()
    out["uptime_after"] = uptime()
    print(json.dumps(out, indent=1))


def paced_again() -> None:
    """``BENCH_SERVER_ONLY=paced``: the capacity at a table's pace on each store again, written
    into ``bench/results-server.json`` in place of the last run's (``paced_uptime``: the load
    of this run)."""
    results = HERE / "results-server.json"
    out = json.loads(results.read_text())
    pg = start_server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for kind, store in (
                ("file", f"file:{Path(tmp) / 'tables'}"),
                ("pg", pg.new_database()),
            ):
                print(f"{kind}:", flush=True)
                with serving(store) as (_, url):
                    out[kind]["paced"] = capacity(url, table)
    finally:
        pg.stop()
    out["paced_uptime"] = [uptime()]
    results.write_text(json.dumps(out, indent=1) + "\n")


def discord_interactions(store: str, count: int = 600) -> dict[str, Any]:
    """Round trips of one ``http.client`` client, in turn: a signed interaction ``/tl do
    line:LINE`` (its Ed25519 signature made before the clock starts) and the same command
    line to ``POST …/commands``; p50/p99 of each (ms)."""
    import http.client

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    port = free_port()
    proc = spawn(store, port, args=("--discord-public-key", public))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def signed(sub: str, n: int, **options: Any) -> tuple[str, dict[str, str]]:
        opts = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
        body = json.dumps(
            {
                "id": f"{n}",
                "application_id": "1",
                "type": 2,
                "token": "t",
                "channel_id": "1",
                "member": {"user": {"id": "1", "username": "gm"}},
                "data": {"name": "tl", "options": [{"name": sub, "type": 1, "options": opts}]},
            }
        )
        stamp = str(int(time.time()))
        signature = key.sign(stamp.encode() + body.encode()).hex()
        headers = {
            "Content-Type": "application/json",
            "X-Signature-Ed25519": signature,
            "X-Signature-Timestamp": stamp,
        }
        return body, headers

    def timed(path: str, body: str, headers: dict[str, str]) -> float:
        started = time.perf_counter()
        conn.request("POST", path, body, headers)
        answer = conn.getresponse()
        answer.read()
        took = time.perf_counter() - started
        if answer.status not in (200, 201):
            raise SystemExit(f"discord bench: {path} answered {answer.status}")
        return took * 1000

    try:
        tid = table(f"http://127.0.0.1:{port}/api")
        timed("/discord/interactions", *signed("bind", 0, table=tid, token=TOKEN))
        api_path = f"/api/tables/{tid}/commands"
        api_headers = {**AUTH, "Content-Type": "application/json"}
        took: dict[str, list[float]] = {"interaction": [], "api_command": []}
        for n in range(1, count + 1):
            line = f"magicpunk {'damage' if n % 2 else 'heal'} pc0 1"
            body, headers = signed("do", n, line=line)
            took["interaction"].append(timed("/discord/interactions", body, headers))
            took["api_command"].append(timed(api_path, json.dumps({"command": line}), api_headers))
    finally:
        conn.close()
        proc.terminate()
        proc.wait(timeout=30)
    out: dict[str, Any] = {"count": count}
    for name, values in took.items():
        cuts = statistics.quantiles(values, n=100)
        out[name] = {"p50_ms": round(cuts[49], 2), "p99_ms": round(cuts[98], 2)}
    return out


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    out: dict[str, object] = {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "seconds": SECONDS,
        "uptime_before": uptime(),
    }
    pg = start_server()
    try:
        out["postgresql"] = pg.sql("SHOW server_version")[0][0]
        with tempfile.TemporaryDirectory() as tmp:
            print("file store:", flush=True)
            out["file"] = store_loads(f"file:{Path(tmp) / 'tables'}")
            out["discord_file"] = discord_interactions(f"file:{Path(tmp) / 'discord'}")
            print("PostgreSQL:", flush=True)
            out["pg"] = store_loads(pg.new_database())
            out.update(peers(pg))
            (Path(tmp) / "mem").mkdir()
            out["rss_200_tables_file_mb"] = memory_file(Path(tmp) / "mem")
            out["rss_200_tables_pg_mb"] = memory_pg(pg, pg.new_database())
    finally:
        pg.stop()
    out["uptime_after"] = uptime()
    report(out)
    (HERE / "results-server.json").write_text(json.dumps(out, indent=1) + "\n")


def report(out: dict) -> None:
    """Print the figures beside their goals."""
    out["ratio_pg_1_client_vs_eventsourcing"] = out["ratio"]
    out["ratio_pg_1_client_vs_pgbench"] = out["http_pg_1_client_per_s"] / out["pgbench_1_per_s"]
    goals = [
        (
            "ratio_pg_1_client_vs_eventsourcing",
            out["ratio_pg_1_client_vs_eventsourcing"],
            ">= 0.5",
            out["ratio_pg_1_client_vs_eventsourcing"] >= 0.5,
        )
    ]
    goals.append(
        ("pg 1 client ÷ the floor", out["ratio_to_floor"], ">= 0.7", out["ratio_to_floor"] >= 0.7)
    )
    floor_twenty_p99 = out["floor_twenty_tables_4_clients"]["p99_ms"]
    for kind in ("file", "pg"):
        p99 = out[kind]["twenty_tables_4_clients"]["p99_ms"]
        goals.append(
            (
                f"{kind} 20×4 p99 ÷ the floor's",
                p99 / floor_twenty_p99,
                "<= 1.2",
                p99 <= 1.2 * floor_twenty_p99,
            )
        )
        if "paced" in out[kind]:
            first = out[kind]["paced"]["rows"][0]
            goals.append(
                (
                    f"{kind} 200×5 paced p99 ms",
                    first["p99_ms"],
                    "<= 50",
                    first["p99_ms"] <= 50 and not first["errors"],
                )
            )
            largest = out[kind]["paced"]["largest_tables"]
            goals.append((f"{kind} paced: most tables within", largest, ">= 200", largest >= 200))
    if out.get("floor_paced"):
        largest = out["floor_paced"]["largest_tables"]
        goals.append(("(the floor) paced: most tables", largest, "", True))
    for kind in ("file", "pg"):
        for load_name, label in (
            ("twenty_tables_4_clients", "20×4"),
            ("twenty_tables_4_clients_1_per_s", "20×4 at 1/s"),
        ):
            p99 = out[kind][load_name]["p99_ms"]
            goals.append((f"{kind} {label} p99 ms", p99, "<= 50", p99 <= 50))
        fan = out[kind]["fanout_100_subscribers"]["fanout_p99_ms"]
        goals.append((f"{kind} fan-out p99 ms", fan, "<= 100", fan <= 100))
    print(json.dumps(out, indent=1))
    for name, value, goal, met in goals:
        print(f"{name:40s} {value:10.2f} {goal:8s} {'met' if met else 'MISSED'}")
    print(f"{'(the same with an http.client client)':40s} {out['ratio_stdlib_client']:10.2f}")
    print(f"{'(the floor: HTTP + one INSERT, same)':40s} {out['ratio_floor']:10.2f}")
    floor_p99 = out["floor_twenty_tables_4_clients"]["p99_ms"]
    print(f"{'(the floor, 20×4 p99 ms)':40s} {floor_p99:10.2f}")


if __name__ == "__main__":
    if os.environ.get("BENCH_SERVER_ONLY") == "one":
        one_client()
    elif os.environ.get("BENCH_SERVER_ONLY") == "discord":
        with tempfile.TemporaryDirectory() as tmp:
            print(uptime())
            print(json.dumps(discord_interactions(f"file:{Path(tmp) / 'tables'}"), indent=1))
            print(uptime())
    elif os.environ.get("BENCH_SERVER_ONLY") == "paced":
        paced_again()
    else:
        main()
