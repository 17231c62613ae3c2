"""A real `tablelog serve` process for tests and clients of its API (fixtures re-exported by the
server and web tests' conftest)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

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


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    """A `tablelog serve` process on a fresh file store; yields its base URL."""
    port = free_port()
    out = (folder / "server.out").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from tablelog.cli.main import main; main()", "serve",
         "--store", f"file:{folder}", "--port", str(port)],
        env={**os.environ, "TABLELOG_SERVER_TOKEN": TOKEN},
        stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(f"{url}/api/health", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(timeout=10)
    out.close()
    assert "Traceback" not in (folder / "server.out").read_text()


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


