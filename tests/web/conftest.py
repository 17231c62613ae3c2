"""Fixtures: a real `tablelog serve` process (tests/support/server.py) and headless Chromium with
a table's seat links (tests/support/browser.py).

Every browser test is a slow one (issue 31 item 6, "a suite that tells the truth fast"): they
take about 67 s of the suite's 175 s on two cores, so `make test` leaves them to `make
test-slow`, which `.ci/run` and the README's test command also run (under `CI=true` they fail
rather than skip without Chromium, as before)."""

from pathlib import Path

import pytest

from tests.support.browser import browser, seats  # noqa: F401 - fixtures
from tests.support.server import _close_clients, folder, server  # noqa: F401 - fixtures

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark this folder's tests slow (the hook sees every collected test: only these)."""
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.slow)
