"""``make bench-server``: the table server under load over HTTP, on loopback (file store).

Prints, and writes to ``bench/results-server.json``:
- commands/s and p50/p99 latency of ``POST …/commands`` (a magicpunk damage or heal) for one
  table with 1, 4 and 16 clients, and for 20 tables × 4 clients;
- live fan-out: 100 event-stream subscribers on one table, the delay from a command's 201 to each
  subscriber's receipt of its record, p50/p99;
- the server's resident memory holding 200 tables of 10,000 events each.
Every request loop is bounded in time and count, and only 127.0.0.1 is ever a target.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.server import ADD, free_port  # noqa: E402

TOKEN = "bench-token"
SECONDS = 6.0


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from tablelog.cli.main import main; main()",
                             "serve", "--store",
                             f"file:{folder}", "--port", str(port)],
                            env={**os.environ, "TABLELOG_SERVER_TOKEN": TOKEN},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/api"
    for _ in range(200):
        try:
            httpx.get(f"{url}/health", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def table(url: str, names: int = 4) -> str:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}) as gm:
        tid = gm.post("/tables", json={"system": "magicpunk", "seed": 1}).json()["table_id"]
        for i in range(names):
            gm.post(f"/tables/{tid}/commands", json={"command": ADD.format(f"pc{i}")})
    return str(tid)


def load(url: str, tables: list[str], clients_per_table: int) -> dict[str, float]:
    """Every client sends commands to its table for SECONDS; return rate and latencies."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + SECONDS

    def client(tid: str, n: int) -> None:
        mine = []
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"},
                          timeout=30) as c:
            i = 0
            while time.monotonic() < stop and i < 100_000:
                line = f"magicpunk {'damage' if i % 2 else 'heal'} pc{n % 4} 1"
                started = time.perf_counter()
                try:
                    r = c.post(f"/tables/{tid}/commands", json={"command": line})
                except httpx.HTTPError:
                    code = 0
                else:
                    code = r.status_code
                with lock:
                    statuses[code] = statuses.get(code, 0) + 1
                if code in (201, 422):
                    mine.append(time.perf_counter() - started)
                i += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(tid, n)) for tid in tables
               for n in range(clients_per_table)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()
    if not latencies:
        raise SystemExit(f"no command answered: statuses {statuses}")
    return {"commands_per_s": len(latencies) / SECONDS,
            "p50_ms": 1000 * latencies[len(latencies) // 2],
            "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)]}


def fanout(url: str, subscribers: int = 100, commands: int = 20) -> dict[str, float]:
    """Delay from each command's 201 to each subscriber's receipt of its record."""
    tid = table(url)
    received: dict[int, list[float]] = {}
    lock = threading.Lock()
    ready = threading.Barrier(subscribers + 1)
    start_seq = httpx.get(f"{url}/tables/{tid}", headers={"Authorization": f"Bearer {TOKEN}"}
                          ).json()["seq"]

    def subscriber() -> None:
        got = 0
        with httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as c, \
                c.stream("GET", f"{url}/tables/{tid}/events?after={start_seq}") as stream:
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
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}) as gm:
        for i in range(commands):
            r = gm.post(f"/tables/{tid}/commands", json={"command": f"magicpunk damage pc{i % 4} 1"})
            sent[r.json()["seqs"][0]] = time.perf_counter()
            time.sleep(0.1)
    for t in threads:
        t.join(timeout=60)
    delays = sorted(1000 * (at - sent[seq]) for seq, ats in received.items() if seq in sent
                    for at in ats)
    return {"fanout_p50_ms": statistics.median(delays),
            "fanout_p99_ms": delays[int(len(delays) * 0.99)], "deliveries": len(delays)}


def memory(folder: Path) -> dict[str, float]:
    """RSS of a server that has opened 200 tables of 10,000 events each."""
    from tablelog.commands.magicpunk.table import AddCharacter, Damage, Heal
    from tablelog.session import Session

    first = folder / "t000.tlog"
    Session.create(str(first), "magicpunk", seed=2)
    session = Session(str(first))
    with session.atomic():
        session.execute(AddCharacter("pc0", 8, 12, 10, 10, 26))
        for i in range(9999):
            session.execute(Damage("pc0", 1) if i % 2 else Heal("pc0", 1))
    for i in range(1, 200):
        shutil.copy(first, folder / f"t{i:03d}.tlog")
    proc, url = serve(folder)
    try:
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"},
                          timeout=120) as gm:
            for i in range(200):
                gm.get(f"/tables/t{i:03d}/state")
        rss_kb = next(int(line.split()[1]) for line in
                      Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                      if line.startswith("VmRSS:"))
        return {"rss_200_tables_mb": rss_kb / 1024}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = serve(Path(tmp) / "tables")
        try:
            one = table(url)
            for clients in (1, 4, 16):
                out[f"one_table_{clients}_clients"] = load(url, [one], clients)
            out["twenty_tables_4_clients"] = load(url, [table(url) for _ in range(20)], 4)
            out["fanout_100_subscribers"] = fanout(url)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        mem = Path(tmp) / "mem"
        mem.mkdir()
        out["memory"] = memory(mem)
    print(json.dumps(out, indent=2))
    (ROOT / "bench" / "results-server.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
