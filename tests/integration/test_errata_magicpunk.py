"""An erratum to Magic Punk's rule tables never changes a log played before it (issue 12).

The test records a session with the installed package, then copies the package, edits three
rule tables in the copy (a 1-minute briefing allows 2 preparations each instead of 6; an 8-hour
rest lasts 9 hours; alloy has rarity 2 instead of 1) and, in a subprocess whose PYTHONPATH is the
edited copy, folds the old log to exactly the `state --json` it had. Actions taken after the
erratum use the edited tables; the briefing the old log left open keeps the limit it began with.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tablelog
from tests.support.cli import ok

# The CLI run from the copy (PYTHONPATH comes before the installed package, editable or not;
# the subprocess runs outside the source tree, so that `-c` does not import it from the cwd).
LAUNCHER = "import sys; import tablelog.cli.main as m; sys.argv[0] = 'tablelog'; m.main()"

ERRATA = {  # file in the package -> (text before, text after)
    "rules/magicpunk/combat.py": ('"1m": 6,', '"1m": 2,'),
    "rules/magicpunk/clock.py": ('"8h": 480}', '"8h": 540}'),
    "rules/magicpunk/procurement.py": ('"alloy": 1,', '"alloy": 2,'),
}

BEFORE = [  # played with the installed package
    ("init", "--system", "magicpunk", "--seed", "5", "--clock", "1 22:00"),
    (
        "magicpunk",
        "character",
        "add",
        "Aria",
        "--body",
        "8",
        "--sense",
        "12",
        "--intellect",
        "10",
        "--magic",
        "10",
        "--hp",
        "26",
        "--money",
        "3000",
    ),
    ("magicpunk", "item", "add", "a-battery", "--owner", "Aria"),
    ("magicpunk", "draw", "Aria", "3", "--cards", "AS,7H,JK1"),
    ("magicpunk", "charge", "a-battery", "AS", "--from", "Aria"),
    ("magicpunk", "procure", "Aria", "--material", "alloy", "--quality", "fine"),
    ("magicpunk", "damage", "Aria", "30", "--pull-punches"),
    ("magicpunk", "heal", "Aria", "100"),
    ("magicpunk", "rest", "8h"),
    ("magicpunk", "briefing", "start", "1m"),
    *[("magicpunk", "briefing", "prepare", "Aria")] * 3,
]


def _edited_copy(root: Path) -> Path:
    """Copy the installed package under ``root`` and apply :data:`ERRATA`; return the path."""
    package = root / "tablelog"
    shutil.copytree(
        Path(tablelog.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    for name, (old, new) in ERRATA.items():
        path = package / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    return root


def _edited(pythonpath: Path, *args: str, code: str = LAUNCHER) -> subprocess.CompletedProcess[str]:
    """Run ``python -c CODE ARGS…`` with the edited copy first on the path."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    env.pop("TABLELOG_LOG", None)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=pythonpath,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def erratum(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    """The edited package's path, a log played before the erratum, and its state then."""
    tmp = tmp_path_factory.mktemp("errata")
    log = tmp / "before.tlog"
    for args in BEFORE:
        ok(log, *args)
    recorded = json.loads(ok(log, "state", "--json"))
    Path(f"{log}.snap").unlink(missing_ok=True)
    return _edited_copy(tmp / "edited"), log, recorded


def test_the_subprocess_runs_the_edited_copy(erratum):
    """The subprocess imports tablelog from the edited copy, not from the installed one."""
    package, _, _ = erratum
    out = _edited(
        package,
        code="import tablelog.rules.magicpunk.clock as c; print(c.__file__, c.REST_PACKAGES['8h'])",
    ).stdout.split()
    assert (str(package / "tablelog" / "rules" / "magicpunk" / "clock.py"), "540") == tuple(out)


@pytest.mark.rule("MP-REST-1")
@pytest.mark.rule("MP-BRIEF-1")
@pytest.mark.rule("MP-PROC-2")
def test_a_log_played_before_the_erratum_folds_to_its_recorded_state(erratum):
    """The old log verifies and folds, without a snapshot, to exactly the state it had:
    day 2 06:00 after an 8-hour rest from 22:00, HP 26 of 26, 3 preparations taken."""
    package, log, recorded = erratum
    copy = log.with_name("old.tlog")
    shutil.copy(log, copy)
    verified = _edited(package, "--log", str(copy), "verify")
    assert verified.returncode == 0, verified.stderr
    folded = _edited(package, "--log", str(copy), "state", "--json")
    assert folded.returncode == 0, folded.stderr
    assert recorded == json.loads(folded.stdout)
    assert recorded["clock"] == {"day": 2, "minutes": 360}
    assert recorded["table"]["briefing"] == {
        "package": "1m",
        "by_actor": {"pc:Aria": 3},
        "by_side": {"pc": 3},
    }


@pytest.mark.rule("MP-REST-1")
@pytest.mark.rule("MP-BRIEF-1")
@pytest.mark.rule("MP-PROC-2")
def test_actions_after_the_erratum_use_the_edited_tables(erratum):
    """After the erratum: an 8h rest lasts 540 minutes, alloy + fine is rarity 3, a new 1m
    briefing allows 2 preparations each; the open briefing keeps its 6."""
    package, log, _ = erratum
    after = log.with_name("after.tlog")
    shutil.copy(log, after)
    for args in (
        ("magicpunk", "briefing", "prepare", "Aria"),  # a 4th of the old 6
        ("magicpunk", "briefing", "end"),
        ("magicpunk", "briefing", "start", "1m"),
        ("magicpunk", "briefing", "prepare", "Aria"),
        ("magicpunk", "briefing", "prepare", "Aria"),
    ):
        assert _edited(package, "--log", str(after), *args).returncode == 0, args
    third = _edited(package, "--log", str(after), "magicpunk", "briefing", "prepare", "Aria")
    assert (third.returncode, third.stderr) == (
        1,
        "error: MP-BRIEF-1: 1m briefing: each takes at most 2 preparations, and this one "
        "has already taken 2\n",
    )
    rest = _edited(package, "--log", str(after), "magicpunk", "rest", "8h", "--no-sleep")
    assert "day 2 06:00 to day 2 15:00" in rest.stdout
    procured = _edited(
        package,
        "--log",
        str(after),
        "magicpunk",
        "procure",
        "Aria",
        "--material",
        "alloy",
        "--quality",
        "fine",
    )
    assert "Aria procures rarity 3: Intellect check, challenge +3" in procured.stdout
