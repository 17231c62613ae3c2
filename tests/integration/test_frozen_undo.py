"""Undo and redo of every action of every frozen real-system log (issue 12, items 3 and 5).

The property tests (tests/property/test_core.py) check the undo decider on random toy histories;
these check it on the real systems' played logs, both formats: an undo the decider allows leaves
a history whose every later event still holds where it stands, and a redo of it gives back
exactly the state before; an undo it refuses is CORE-UNDO, names each later event that depends on
the action (or says the action is undone already), and leaves the log byte for byte unchanged.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tablelog import actions, systems
from tablelog.commands.core import Redo, Undo
from tablelog.events.core import MARKERS
from tablelog.projections.history import state_json
from tablelog.rules.core import RuleViolation
from tablelog.session import Session

FROZEN = Path(__file__).resolve().parents[1] / "data" / "frozen"
LOGS = sorted(FROZEN.glob("format-*/*.tlog"))
DEPENDS = re.compile(r"#(\d+) cannot be undone: later events depend on it: #\d+ ")
LATER = re.compile(r"(?:^|; )#(\d+) [a-z0-9]+\.[A-Za-z]+ \(")  # each later event listed


def _first_seqs(path: Path) -> list[int]:
    """Return the first seq of every action of events in the log, in log order."""
    session = Session(str(path), snapshots=False)
    summaries = list(session.summaries())
    seqs = [rec.seq for rec, _ in session.events() if rec.type not in MARKERS]
    return sorted({actions.action_of(summaries, seq).first for seq in seqs})


def _state(path: Path) -> dict:
    session = Session(str(path), snapshots=False)
    folded = session.state()
    return {**state_json(folded, systems.get(folded.system).to_json), "seq": 0}


def _refusal(path: Path, first: int) -> str:
    """Undo the action ``first`` on the log at ``path``; return the refusal's message, or ""
    when the undo is appended (then every later event holds and a redo restores the state)."""
    before_bytes, before = path.read_bytes(), _state(path)
    try:
        Session(str(path), snapshots=False).execute(Undo(target=first))
    except RuleViolation as exc:
        assert ("CORE-UNDO", before_bytes) == (exc.rule_id, path.read_bytes())
        return exc.message
    assert Session(str(path), snapshots=False, chain=True).unheld() == []
    Session(str(path), snapshots=False).execute(Redo(target=first))
    assert before == _state(path)
    return ""


@pytest.mark.rule("CORE-UNDO")
@pytest.mark.rule("CORE-REDO")
@pytest.mark.parametrize("frozen", LOGS, ids=[str(p.relative_to(FROZEN)) for p in LOGS])
def test_every_undo_the_decider_allows_holds_and_every_refusal_names_why(
    frozen: Path, tmp_path: Path
) -> None:
    """Each action of the log, undone on a fresh copy: allowed (later events hold, redo gives
    the state back) or refused naming later events; the log holds some allowed, and the logs
    of the four seed systems some refused too (a system whose events never depend on earlier
    ones, such as a fifth one's first log, may have none to refuse)."""
    allowed, refused = 0, 0
    for first in _first_seqs(frozen):
        path = tmp_path / f"{first}.tlog"
        shutil.copy(frozen, path)
        message = _refusal(path, first)
        if not message:
            allowed += 1
            continue
        refused += 1
        depends = DEPENDS.match(message)
        if depends is None:
            assert f"#{first} is already undone" == message
            continue
        listed = message.split("later events depend on it: ", 1)[1]
        later = [int(seq) for seq in LATER.findall(listed)]
        assert (first <= int(depends.group(1)), later and first < min(later)) == (True, True)
    seeded = frozen.name.split("-")[0] in ("fate", "magicpunk", "pf2e", "saga")  # history
    assert (allowed > 0, refused > 0 or not seeded) == (True, True)
