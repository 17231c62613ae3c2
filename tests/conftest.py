"""Shared pytest configuration: hypothesis profiles, the PostgreSQL server fixture."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.support.pg import PgServer, start_server, unavailable

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
