"""Fixtures: a real `tablelog serve` process (tests/support/server.py)."""

from tests.support.server import _close_clients, folder, server  # noqa: F401 - fixtures
