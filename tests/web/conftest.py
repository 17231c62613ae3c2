"""Fixtures: a real `tablelog serve` process (tests/support/server.py) and headless Chromium with
a table's seat links (tests/support/browser.py)."""

from tests.support.browser import browser, seats  # noqa: F401 - fixtures
from tests.support.server import _close_clients, folder, server  # noqa: F401 - fixtures
