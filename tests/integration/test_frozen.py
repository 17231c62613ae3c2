"""Frozen logs of every real system must fold, verify and give their recorded state forever.

``tests/data/frozen/format-N/`` holds logs written by a released tablelog, one per example
session (and per generated campaign), each beside the ``state --json`` it printed then. They are
never regenerated: a change that stops any of them from opening, verifying or folding to exactly
that state is a broken promise to every table with a campaign (docs/FORMAT.md). ``SHA256SUMS``
pins their bytes (here); tests/contract/test_systems.py folds, verifies and compares each one with
its system's contract.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from tablelog import systems

FROZEN = Path(__file__).resolve().parents[1] / "data" / "frozen"
LOGS = sorted(FROZEN.glob("format-*/*.tlog"))


def test_every_frozen_log_is_pinned_and_unchanged() -> None:
    """Every frozen log is listed in SHA256SUMS with the hash of its bytes."""
    pinned = dict(line.split()[::-1] for line in (FROZEN / "SHA256SUMS").read_text().splitlines())
    found = {str(p.relative_to(FROZEN)): hashlib.sha256(p.read_bytes()).hexdigest() for p in LOGS}
    assert pinned == found
    assert set(systems.REGISTRY) <= {p.name.split("-")[0] for p in LOGS}
