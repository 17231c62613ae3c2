"""One seat looping whole-log reads against another table's commands (issue 32, item 8), over
HTTP on loopback to a real ``tablelog serve`` on a file store: a player loops ``GET …/report``
(and ``…/history``) of a 5,000-event table while a GM sends notes to another table; prints the
GM's command latency p50 and max, quiet and under the loop, and how many reads the loop made.
Not part of ``make test``; ``python bench/hostile_reads.py [SECONDS]`` (default 6)."""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.server import ADD, TOKEN, free_port, spawn  # noqa: E402

EVENTS = 5_000


def latencies(base: str, tid: str, seconds: float) -> list[float]:
    """The GM's note latencies (s) on table ``tid`` for ``seconds``, one at a time."""
    took = []
    with httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as gm:
        end = time.monotonic() + seconds
        while time.monotonic() < end and len(took) < 100_000:
            start = time.perf_counter()
            gm.post(f"{base}/api/tables/{tid}/commands", json={"command": "note quiet"})
            took.append(time.perf_counter() - start)
            time.sleep(0.01)
    return took


def main(seconds: float) -> None:
    from tablelog.commands.core import AddNote
    from tablelog.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "tables"
        port = free_port()
        proc = spawn(f"file:{folder}", port)
        base = f"http://127.0.0.1:{port}"
        gm = httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        big = gm.post(f"{base}/api/tables", json={"system": "magicpunk"}).json()["table_id"]
        other = gm.post(f"{base}/api/tables", json={"system": "fate"}).json()["table_id"]
        gm.post(f"{base}/api/tables/{big}/commands", json={"command": ADD.format("Aria")})
        seat = {"name": "ann", "role": "player", "characters": ["Aria"]}
        token = gm.post(f"{base}/api/tables/{big}/seats", json=seat).json()["token"]
        proc.terminate()
        proc.wait()
        session = Session(str(folder / f"{big}.tlog"))
        with session.atomic():
            for i in range(EVENTS):
                session.execute(AddNote(f"note {i}"))
        session.log.close()
        proc = spawn(f"file:{folder}", port)
        try:
            quiet = latencies(base, other, seconds)
            stop, reads = threading.Event(), [0]

            def loop() -> None:
                with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
                    while not stop.is_set() and reads[0] < 100_000:
                        c.get(f"{base}/api/tables/{big}/report", params={"format": "md"})
                        c.get(f"{base}/api/tables/{big}/history/Aria")
                        reads[0] += 2

            looping = [threading.Thread(target=loop) for _ in range(2)]
            for t in looping:
                t.start()
            loud = latencies(base, other, seconds)
            stop.set()
            for t in looping:
                t.join()
        finally:
            proc.terminate()
            proc.wait()
    for label, took in (("quiet", quiet), ("one player looping reads", loud)):
        print(
            f"{label}: {len(took)} commands, p50 {statistics.median(took) * 1000:.1f} ms, "
            f"max {max(took) * 1000:.1f} ms"
        )
    print(f"whole-log reads made by the loop: {reads[0]} in {seconds:g} s")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 6.0)
