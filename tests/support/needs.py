"""Tests that need a component this machine may lack: under ``CI=true`` they fail (a skip in
CI would hide a missing component), on a user's machine they skip and say how to get it."""

from __future__ import annotations

import os

import pytest


def missing(reason: str) -> None:
    """Fail under ``CI=true``, else skip (also at module level), naming ``reason``."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"required in CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)
