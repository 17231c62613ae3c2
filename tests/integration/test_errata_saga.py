"""An erratum in the saga rules never changes a campaign recorded before it (issue 12, item 1).

The campaign tests/data/campaigns/saga.txt is recorded with the package as it is; then a copy of
the package gets an erratum — kiri-harai's rank-1 power 23 → 40 in ``rules/data/saga_techs.csv``
and the wood terrain's levels (5, 0, −5, 0, 0) → (9, 0, −9, 0, 0) in ``rules/saga/five.py`` (the
campaign's first battle is on wood) — and a separate Python process with ``PYTHONPATH`` on the
copy folds the recorded log to exactly the ``state --json`` it had after every one of its
records, verifies it, and takes new actions with the corrected data.
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

CAMPAIGN = Path(__file__).resolve().parents[1] / "data" / "campaigns" / "saga.txt"
OLD_POWER = "kiri-harai,斬り払い,weapon-tech,1h-sword,standard-1h-sword,slash,single,23,"
NEW_POWER = "kiri-harai,斬り払い,weapon-tech,1h-sword,standard-1h-sword,slash,single,40,"
OLD_WOOD = '"wood": (5, 0, -5, 0, 0),'
NEW_WOOD = '"wood": (9, 0, -9, 0, 0),'


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name} no longer holds {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def erratum(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the installed package with the two corrections made."""
    root = tmp_path_factory.mktemp("erratum")
    shutil.copytree(
        Path(tablelog.__file__).parent,
        root / "tablelog",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    _edit(root / "tablelog" / "rules" / "data" / "saga_techs.csv", OLD_POWER, NEW_POWER)
    _edit(root / "tablelog" / "rules" / "saga" / "five.py", OLD_WOOD, NEW_WOOD)
    return root


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The campaign's log and its state, both from the unedited package."""
    log = tmp_path_factory.mktemp("before") / "bloodroot.tlog"
    ok(log, "run", str(CAMPAIGN))
    return log, json.loads(ok(log, "state", "--json"))


def _copy_of(log: Path, where: Path) -> Path:
    """The log alone (no snapshot beside it: the fold starts from the header)."""
    where.mkdir()
    shutil.copy(log, where / log.name)
    return where / log.name


def tablelog_in(package: Path, log: Path, *args: str) -> str:
    """Run ``tablelog --log LOG ARGS…`` in a new process that imports ``package``'s tablelog."""
    code = (
        "import sys, tablelog; from tablelog.cli.main import main; "
        f"assert tablelog.__file__.startswith({str(package)!r}), tablelog.__file__; "
        "sys.argv[0] = 'tablelog'; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--log", str(log), *args],
        capture_output=True,
        text=True,
        cwd=package,
        env={**os.environ, "PYTHONPATH": str(package)},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def states_in(package: Path, log: Path, last: int) -> list[dict]:
    """Return ``state --at N --json`` for N = 1…last, folded by ``package`` in one process."""
    code = (
        "import json, sys; from click.testing import CliRunner; "
        "from tablelog.cli.main import cli; "
        f"args = ['--log', {str(log)!r}, 'state', '--json', '--at']; "
        f"outs = [CliRunner().invoke(cli, [*args, str(n)]) for n in range(1, {last} + 1)]; "
        "assert all(o.exit_code == 0 for o in outs), [o.output for o in outs]; "
        "print(json.dumps([json.loads(o.stdout) for o in outs]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=package,
        env={**os.environ, "PYTHONPATH": str(package)},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.rule("SAGA-ATK-6")
@pytest.mark.rule("SAGA-FIVE-1")
def test_a_log_recorded_before_the_erratum_folds_to_its_recorded_state(
    erratum: Path, recorded: tuple[Path, dict], tmp_path: Path
) -> None:
    """The edited package verifies the old log and prints exactly the state recorded, at the
    end and after each record."""
    log, state = recorded
    copy = _copy_of(log, tmp_path / "after")
    assert tablelog_in(erratum, copy, "verify").startswith(f"ok: {copy}: {state['seq']} records")
    assert state == json.loads(tablelog_in(erratum, copy, "state", "--json"))
    every = [
        json.loads(ok(log, "state", "--json", "--at", str(n))) for n in range(1, state["seq"] + 1)
    ]
    assert every == states_in(erratum, copy, state["seq"])


@pytest.mark.rule("SAGA-ATK-6")
def test_a_cast_after_the_erratum_uses_the_corrected_power(
    erratum: Path, recorded: tuple[Path, dict], tmp_path: Path
) -> None:
    """The same kiri-harai (roll 1) on the same state: power 23 before, 40 after, more damage."""
    log, _ = recorded
    cast = ("saga", "cast", "Gustave", "kiri-harai", "--target", "Alpha", "--roll", "1")
    before = _copy_of(log, tmp_path / "before")
    after = _copy_of(log, tmp_path / "after")
    ok(before, *cast)
    tablelog_in(erratum, after, *cast)
    old_hit = json.loads(ok(before, "log", "--json").splitlines()[-1])["data"]
    new_hit = json.loads(tablelog_in(erratum, after, "log", "--json").splitlines()[-1])["data"]
    assert (old_hit["breakdown"]["tech_power"], new_hit["breakdown"]["tech_power"]) == ("23", "40")
    assert new_hit["damage"] > old_hit["damage"]


@pytest.mark.rule("SAGA-FIVE-1")
def test_a_battle_after_the_erratum_uses_the_corrected_levels(
    erratum: Path, recorded: tuple[Path, dict], tmp_path: Path
) -> None:
    """A wood battle started after the erratum has wood 9, earth −9; the first battle of the
    campaign (wood, before it) recorded wood 5, earth −5."""
    log, _ = recorded
    after = _copy_of(log, tmp_path / "after")
    tablelog_in(erratum, after, "saga", "battle", "start", "--terrain", "wood")
    levels = json.loads(tablelog_in(erratum, after, "state", "--json"))["clock"]["levels"]
    assert (levels["wood"], levels["earth"]) == (9, -9)
    first = next(
        json.loads(line)["data"]
        for line in ok(log, "log", "--json").splitlines()
        if json.loads(line)["type"] == "saga.BattleStarted"
    )
    assert (first["levels"]["wood"], first["levels"]["earth"]) == (5, -5)
