"""A real `tablelog serve` process for tests and clients of its API (fixtures re-exported by the
server and web tests' conftest)."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

TOKEN = "server-secret-token"
ADD = "magicpunk character add {} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the server's file store."""
    return tmp_path_factory.mktemp("tables")


def spawn(
    store: str,
    port: int,
    out: Any = subprocess.DEVNULL,
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start `tablelog serve --store STORE --port PORT [ARGS…]` (with ``env`` added to the
    environment) and wait until it answers."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tablelog.cli.main import main; main()",
            "serve",
            "--store",
            store,
            "--port",
            str(port),
            *args,
        ],
        env={**os.environ, "TABLELOG_SERVER_TOKEN": TOKEN, **(env or {})},
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    for _ in range(200):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"tablelog serve --store {store} did not start")


@contextlib.contextmanager
def serving(
    store: str, log: Path, args: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> Iterator[str]:
    """A `tablelog serve` process on ``store`` (its output in ``log``); yields its base URL and
    checks, once it stopped, that it printed no traceback and no command's output."""
    port = free_port()
    with log.open("w") as out:
        proc = spawn(store, port, out, args, env)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    printed = log.read_text()
    assert "Traceback" not in printed
    assert "LitestarWarning" not in printed  # e.g. sync_to_thread given to an async handler
    # what a command line prints is its answer's, never the server's console (lines.py)
    assert [line for line in printed.splitlines() if re.match(r"#\d+ ", line)] == []


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    """A `tablelog serve` process on a fresh file store; yields its base URL."""
    with serving(f"file:{folder}", folder / "server.out") as url:
        yield url


CLIENTS: list[httpx.Client] = []


@pytest.fixture(scope="module", autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while CLIENTS:
        CLIENTS.pop().close()


def api(server: str, token: str | None = TOKEN) -> httpx.Client:
    """A client of the server's /api as ``token`` (closed when the module's tests end)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = httpx.Client(base_url=f"{server}/api", headers=headers, timeout=10)
    CLIENTS.append(client)
    return client


def commands(client: httpx.Client, table_id: str, *lines: str) -> None:
    """Run command ``lines`` at a table, each of which must be appended (201)."""
    for line in lines:
        done = client.post(f"/tables/{table_id}/commands", json={"command": line})
        assert done.status_code == 201, done.text


def sse_records(stream: httpx.Response, count: int | None = None) -> list[tuple[int, Any]]:
    """Read an event stream's records as ``(id, data)`` until ``count`` of them, or its end."""
    import json

    got: list[tuple[int, Any]] = []
    event_id = None
    for line in stream.iter_lines():
        if line.startswith("id:"):
            event_id = int(line[3:].strip())
        elif line.startswith("data:") and event_id is not None:
            got.append((event_id, json.loads(line[5:])))
            if len(got) == count:
                break
    return got
