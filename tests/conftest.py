"""Shared pytest configuration: hypothesis profiles."""

import os
import tempfile

import pytest
from hypothesis import settings

# Child processes whose environment a test module captured at import time get a private cache
# too (never the real user's ~/.cache); each test then gets its own (the fixture below).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="tablelog-test-cache-")
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tablelog-test-config-")

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=50)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                   ) -> None:
    """Give each test its own snapshot cache and signing keys ($XDG_CACHE_HOME,
    $XDG_CONFIG_HOME; subprocesses inherit them), so no test reads or writes the real user's,
    and no test sees another's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
