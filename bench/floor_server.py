"""The floor of a command over HTTP, a peer of ``make bench-server``: the server's own stack
(Litestar on uvicorn, a synchronous handler on a worker thread, a JSON body in and out) whose
``POST /api/tables/ID/commands`` does nothing but commit one row to PostgreSQL (one ``INSERT``,
autocommit, as eventsourcing's recorder and pgbench commit one). What any command over HTTP on
this machine costs before tablelog parses, decides or redacts anything; bench/server.py measures
it beside ``tablelog serve`` and eventsourcing with the same clients.

Usage: ``python bench/floor_server.py POSTGRESQL_URL PORT`` (serves 127.0.0.1 until killed).
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import psycopg
import uvicorn
from litestar import Litestar, get, post

CREATE = (
    "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, line text, at timestamptz)"
)
INSERT = "INSERT INTO bench_floor (line, at) VALUES (%s, now())"


def app(url: str) -> Litestar:
    """The floor app on the PostgreSQL at ``url`` (one connection per worker thread)."""
    local = threading.local()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(CREATE)

    def connection() -> Any:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = psycopg.connect(url, autocommit=True)
        return conn

    @get("/api/health", sync_to_thread=False)
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @get("/api/tables/{table_id:str}", sync_to_thread=False)
    def table(table_id: str) -> dict[str, str]:
        return {"table_id": table_id}

    @post("/api/tables/{table_id:str}/commands", sync_to_thread=True, status_code=201)
    def command(table_id: str, data: dict[str, Any]) -> dict[str, Any]:
        connection().execute(INSERT, (str(data["command"]),), prepare=True)
        return {"seqs": [1], "events": [], "changes": []}

    return Litestar([health, table, command])


if __name__ == "__main__":
    uvicorn.run(app(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
