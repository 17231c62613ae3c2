"""A PostgreSQL server for the tests: ``$TABLELOG_TEST_PG`` when set, else a throwaway one.

The throwaway server comes from the ``pgserver`` package (a PostgreSQL server in a wheel, in the
test extras): ``pgserver.get_server(DIR)`` runs ``initdb`` and starts it on a Unix socket in DIR.
As root (CI runs as root) pgserver creates a system user ``pgserver`` and runs the server as that
user (PostgreSQL refuses to run as root), making the data directory's parents traversable: the
directory is a fresh ``mkdtemp`` under the system's temporary directory, so only that is opened
up. ``restart`` and ``stop`` work only on a server the tests started.

Where neither is available the PostgreSQL tests skip, saying how to enable them; under
``CI=true`` they fail instead (SERVER.md §1: never skipped in CI).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import tempfile
import urllib.parse
import uuid
import warnings
from typing import Any

from tests.support.needs import missing

__all__ = ["PgServer", "start_server", "unavailable"]

HOW = (
    "set $TABLELOG_TEST_PG to a PostgreSQL URL (e.g. postgresql://localhost/tablelog_test) "
    "or install the test extras (pip install -e '.[test]', which brings pgserver)"
)


class PgServer:
    """A PostgreSQL server the tests use.

    Attributes:
        url: A libpq URL of a database the tests may create tables in.
        owned: Whether the tests started it (then it can be restarted and stopped).
    """

    def __init__(self, url: str, handle: Any = None, pgdata: str | None = None) -> None:
        self.url = url
        self.handle = handle
        self.pgdata = pgdata
        self.owned = handle is not None

    def table(self, prefix: str = "t") -> str:
        """Return ``URL#ID`` of a table id no test used before."""
        return f"{self.url}#{prefix}{uuid.uuid4().hex[:12]}"

    def sql(
        self,
        statement: str,
        params: tuple[Any, ...] = (),
        url: str | None = None,
    ) -> list[tuple[Any, ...]]:
        """Run one statement on the test database (autocommit); return its rows, if any."""
        import psycopg

        with psycopg.connect(url or self.url, autocommit=True) as conn:
            cur = conn.execute(statement, params)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []

    def new_database(self) -> str:
        """Create an empty database; return its URL (for schema-on-first-use tests)."""
        name = f"tablelog_{uuid.uuid4().hex[:12]}"
        self.sql(f"CREATE DATABASE {name}")
        return with_database(self.url, name)

    def _pg_ctl(self, *args: str) -> None:
        from pgserver import _commands

        _commands.pg_ctl(
            ["-w", *args], pgdata=self.pgdata, user=self.handle.system_user, timeout=60
        )

    def restart(self) -> None:
        """Restart the server (fast shutdown: open connections are cut)."""
        if not self.owned:
            missing("restarting needs a server the tests started (unset $TABLELOG_TEST_PG)")
        self._pg_ctl("restart", "-m", "fast")

    def password_role(self) -> tuple[str, str]:
        """Create a login role that must give a password; return ``(name, password)``.

        On a server the tests started, a line of pg_hba.conf makes the role use a password over
        the socket (the server trusts every other local user).
        """
        name, password = f"tl_pw_{uuid.uuid4().hex[:8]}", "right-password"
        self.sql(f"CREATE ROLE {name} LOGIN PASSWORD '{password}'")
        if self.owned:
            assert self.pgdata is not None
            hba = os.path.join(self.pgdata, "pg_hba.conf")
            with open(hba, encoding="utf-8") as f:
                rules = f.read()
            with open(hba, "w", encoding="utf-8") as f:
                f.write(f"local all {name} scram-sha-256\n{rules}")
            self.sql("SELECT pg_reload_conf()")
        return name, password

    def stop(self) -> None:
        """Stop a server the tests started and remove its data directory."""
        if not self.owned:
            return
        with contextlib.suppress(Exception):
            self._pg_ctl("stop", "-m", "fast")
        atexit.unregister(self.handle._cleanup)  # stopped here (its own stop misses a restart)
        shutil.rmtree(os.path.dirname(self.pgdata or ""), ignore_errors=True)


def with_database(url: str, name: str) -> str:
    """Return ``url`` naming database ``name`` instead of its own."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))


def start_server() -> PgServer:
    """Return the server of ``$TABLELOG_TEST_PG``, else start a throwaway one with pgserver.

    Raises:
        RuntimeError: neither is available (the message says how to enable the tests).
    """
    given = os.environ.get("TABLELOG_TEST_PG")
    if given:
        return PgServer(given)
    try:
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import pgserver
    except ImportError:
        raise RuntimeError(f"PostgreSQL tests need a server: {HOW}") from None
    base = tempfile.mkdtemp(prefix="tablelog-pg-")
    pgdata = os.path.join(base, "data")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            handle = pgserver.get_server(pgdata, cleanup_mode="stop")
    except (OSError, subprocess.SubprocessError) as exc:
        shutil.rmtree(base, ignore_errors=True)
        raise RuntimeError(f"pgserver could not start PostgreSQL ({exc}): {HOW}") from None
    return PgServer(handle.get_uri(), handle, pgdata)


def unavailable(reason: str) -> None:
    """Fail under CI, else skip: PostgreSQL tests never pass silently in CI."""
    missing(f"PostgreSQL: {reason}")
