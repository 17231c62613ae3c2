"""The server killed mid-stream of commands: what was answered 201 is in the log, no command is
half in it, and the restarted server serves the same state and resumes streams (file store)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from tablelog.store.log import LogFile
from tests.support.server import ADD, TOKEN, free_port


def start(folder: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-c", "from tablelog.cli.main import main; main()", "serve",
         "--store", f"file:{folder}", "--port", str(port)],
        env={**os.environ, "TABLELOG_SERVER_TOKEN": TOKEN}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def test_sigkill_during_commands_loses_nothing_answered_and_restarts_the_same(
        tmp_path: Path) -> None:
    """Four clients append two-event commands until the server is SIGKILLed: every command
    answered 201 is in the log whole, the log verifies, and after a restart the state and a
    stream resumed with Last-Event-ID continue from there."""
    port = free_port()
    proc = start(tmp_path, port)
    url = f"http://127.0.0.1:{port}/api"
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=url, headers=auth, timeout=10) as gm:
        tid = gm.post("/tables", json={"system": "magicpunk", "seed": 9}).json()["table_id"]
        for name in ("Aria", "Kai"):
            gm.post(f"/tables/{tid}/commands", json={"command": ADD.format(name)})
    answered: list[list[int]] = []
    stop = threading.Event()

    def client(n: int) -> None:
        with httpx.Client(base_url=url, headers=auth, timeout=5) as c:
            i = 0
            while not stop.is_set():
                i += 1
                try:
                    r = c.post(f"/tables/{tid}/commands",
                               json={"command": "magicpunk rest 10m", "request_id": f"c{n}-{i}"})
                except httpx.HTTPError:
                    return
                if r.status_code == 201:
                    answered.append(r.json()["seqs"])

    threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    while len(answered) < 12 and time.monotonic() < deadline:  # a busy machine: wait for work
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    stop.set()
    for t in threads:
        t.join(timeout=10)
    log = tmp_path / f"{tid}.tlog"
    records = LogFile(str(log)).scan_all(chain=True)
    seqs = {r.seq for r in records}
    assert answered and all(set(range(a, b + 1)) <= seqs for a, b in answered)
    assert [r.seq for r in records] == list(range(1, len(records) + 1))
    proc = start(tmp_path, port)
    try:
        with httpx.Client(base_url=url, headers=auth, timeout=10) as gm:
            assert records[-1].seq == gm.get(f"/tables/{tid}").json()["seq"]
            note = gm.post(f"/tables/{tid}/commands", json={"command": "note 'after the crash'"})
            assert 201 == note.status_code, note.text
            with gm.stream("GET", f"/tables/{tid}/events",
                           headers={"Last-Event-ID": str(records[-1].seq)}) as stream:
                first = next(line for line in stream.iter_lines() if line.startswith("id:"))
        assert f"id: {records[-1].seq + 1}" == first
    finally:
        proc.terminate()
        proc.wait(timeout=10)
