"""Frozen logs of every real system must fold, verify and give their recorded state forever.

``tests/data/frozen/format-N/`` holds logs written by a released tablelog, one per example
session (and per generated campaign), each beside the ``state --json`` it printed then. They are
never regenerated: a change that stops any of them from opening, verifying or folding to exactly
that state is a broken promise to every table with a campaign (docs/FORMAT.md). ``SHA256SUMS``
pins their bytes.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from tests.support.cli import ok

FROZEN = Path(__file__).resolve().parents[1] / "data" / "frozen"
LOGS = sorted(FROZEN.glob("format-*/*.tlog"))


def test_every_frozen_log_is_pinned_and_unchanged() -> None:
    """Every frozen log is listed in SHA256SUMS with the hash of its bytes."""
    pinned = dict(line.split()[::-1] for line in (FROZEN / "SHA256SUMS").read_text().splitlines())
    found = {str(p.relative_to(FROZEN)): hashlib.sha256(p.read_bytes()).hexdigest() for p in LOGS}
    assert pinned == found
    assert {"fate", "magicpunk", "pf2e", "saga"} <= {p.name.split("-")[0] for p in LOGS}


@pytest.mark.parametrize("frozen", LOGS, ids=lambda p: str(p.relative_to(FROZEN)))
def test_a_frozen_log_folds_verifies_and_gives_its_recorded_state(frozen: Path,
                                                                  tmp_path: Path) -> None:
    """The log (copied: commands may write a snapshot beside it) verifies, and state --json is
    exactly what the release that wrote it printed."""
    path = tmp_path / frozen.name
    shutil.copy(frozen, path)
    recorded = json.loads(frozen.with_suffix(".state.json").read_text(encoding="utf-8"))
    assert ok(path, "verify").startswith(f"ok: {path}: {recorded['seq']} records")
    assert recorded == json.loads(ok(path, "state", "--json"))
    (tmp_path / (frozen.name + ".snap")).unlink(missing_ok=True)
    assert recorded == json.loads(ok(path, "state", "--json"))  # and again without a snapshot
