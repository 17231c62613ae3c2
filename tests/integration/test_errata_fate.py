"""A fate campaign outlives an erratum: logs fold to the state they were played to, new actions
use the corrected rules (issue 12, point 1).

The installed package is copied to a temporary directory and three of fate's rules are changed
there: an entry of the NP cost table (anti-unit 5 MP per grade -> 6), an entry of the NP points
table (A++ 11 points -> 12) and a rule constant (2 MP per cast tile -> 3). Logs recorded with the
unedited package are then read by the edited copy in a subprocess (``PYTHONPATH`` pointing at it,
run from the copy's directory so that the worktree is not on the path).
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

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = {
    "example": ROOT / "examples" / "fate-fourth-war.txt",
    "campaign": ROOT / "tests" / "data" / "campaigns" / "fate.txt",
}
ERRATA = {
    "rules/fate/phantasm.py": [
        ('_PER_GRADE_MP = {"anti-unit": 5,', '_PER_GRADE_MP = {"anti-unit": 6,'),
        ('"A": (5, 8, 11, 14)', '"A": (5, 8, 12, 14)'),
    ],
    "rules/fate/casting.py": [("MP_PER_TILE = 2\n", "MP_PER_TILE = 3\n")],
}


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the installed package with the errata applied; returns the PYTHONPATH entry."""
    root = tmp_path_factory.mktemp("errata")
    package = root / "tablelog"
    shutil.copytree(
        Path(tablelog.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    for relative, changes in ERRATA.items():
        path = package / relative
        text = path.read_text(encoding="utf-8")
        for old, new in changes:
            assert text.count(old) == 1, f"{relative}: {old!r} is not there once"
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return root


def edited_cli(root: Path, log: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``tablelog --log LOG ARGS…`` with the edited package first on the path."""
    code = "import sys; from tablelog.cli.main import main; sys.argv[0] = 'tablelog'; main()"
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, "-c", code, "--log", str(log), *args],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def played(tmp_path: Path, script: str) -> tuple[Path, str]:
    """A log played from ``script`` with the unedited package, its recorded ``state --json``."""
    log = tmp_path / f"{script}.tlog"
    ok(log, "run", str(SCRIPTS[script]))
    state = ok(log, "state", "--json")
    Path(f"{log}.snap").unlink(missing_ok=True)  # the edited copy folds the log itself
    return log, state


def test_the_edited_copy_is_the_one_the_subprocess_runs(edited: Path, tmp_path: Path) -> None:
    """The subprocess imports tablelog from the edited copy, which has the errata."""
    code = (
        "import tablelog.rules.fate as f; print(f.MP_PER_TILE, f.release_mp_cost("
        "'anti-unit', 'attack', 'true-name', f.parse_grade('C')))"
    )
    env = {**os.environ, "PYTHONPATH": str(edited)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=edited,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out == "3 18\n"


@pytest.mark.rule("FATE-NP-5")
@pytest.mark.rule("FATE-CAST-3")
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_a_log_from_before_the_errata_folds_to_its_recorded_state(
    edited: Path, tmp_path: Path, script: str
) -> None:
    """The example and the campaign, played before the errata, give exactly their recorded
    ``state --json`` and verify, read by the edited package."""
    log, recorded = played(tmp_path, script)
    after = edited_cli(edited, log, "state", "--json")
    assert (after.returncode, after.stderr) == (0, "")
    assert json.loads(recorded) == json.loads(after.stdout)
    assert recorded == after.stdout
    verified = edited_cli(edited, log, "verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.mark.rule("FATE-NP-5")
@pytest.mark.rule("FATE-NP-2")
@pytest.mark.rule("FATE-CAST-3")
def test_actions_after_the_errata_use_the_corrected_rules(edited: Path, tmp_path: Path) -> None:
    """After the errata: a C anti-unit NP costs 6 x 3 = 18 MP, an A++ NP 12 points, a 2-tile
    cast 3 x 2 = 6 MP; what was set up before keeps its numbers (Saber's excalibur: 11 points)."""
    log, recorded = played(tmp_path, "campaign")
    for line in (
        ["fate", "phantasm", "add", "Archer", "kanshou", "--grade", "C", "--type", "anti-unit"],
        ["fate", "servant", "add", "Gawain", "--hp", "60", "--mp", "60", "--np-budget", "15"],
        [
            "fate",
            "phantasm",
            "add",
            "Gawain",
            "galatine",
            "--grade",
            "A++",
            "--type",
            "anti-fortress",
        ],
        ["fate", "battle", "start"],
        ["fate", "cast", "Kirei", "defense", "--grade", "1", "--tiles", "2"],
    ):
        done = edited_cli(edited, log, *line)
        assert done.returncode == 0, done.stderr
    state = json.loads(edited_cli(edited, log, "state", "--json").stdout)["characters"]
    assert state["Archer"]["phantasms"]["kanshou"]["mp_cost"] == 18
    assert (
        state["Gawain"]["phantasms"]["galatine"]["points"],
        state["Gawain"]["np_points"],
    ) == (12, 12)
    assert state["Saber"]["phantasms"]["excalibur"]["points"] == 11
    assert state["Kirei"]["phantasms"]["black-keys"]["mp_cost"] == 20
    before = json.loads(recorded)["characters"]["Kirei"]["mp"]
    assert before - state["Kirei"]["mp"] == 6
