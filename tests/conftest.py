"""Shared pytest configuration: hypothesis profiles, the PostgreSQL server fixture."""

import os
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.support.pg import PgServer, start_server, unavailable

# Child processes whose environment a test module captured at import time get a private cache
# too (never the real user's ~/.cache); each test then gets its own (the fixture below).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="tablelog-test-cache-")
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tablelog-test-config-")

# What tablelog says is English unless a test asks for another language (a developer's own
# LANG=ja_JP.UTF-8 must not change what the tests read): tablelog.lang.choose.
os.environ["TABLELOG_LANG"] = "en"
# Times show as recorded (UTC) unless a test gives a zone (a developer's own TZ must not change
# what the tests read either): tablelog.lang.times.
os.environ.pop("TZ", None)

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=50)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    """A PostgreSQL server for the session's tests (tests/support/pg.py): skipped without one
    on a user's machine, failed under CI."""
    try:
        found = start_server()
    except RuntimeError as exc:
        unavailable(str(exc))
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Give each test its own snapshot cache and signing keys ($XDG_CACHE_HOME,
    $XDG_CONFIG_HOME; subprocesses inherit them), so no test reads or writes the real user's,
    and no test sees another's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
