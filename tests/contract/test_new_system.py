"""A fifth system in one command (issue 31 item 3): `make new-system` writes stubs that keep the
contract, and `make frozen` records their frozen log.

The test copies the package and what its contract suite reads into a temporary tree, adds a
throwaway system ``zeta`` there (tools/new_system.py, then tools/frozen.py) and runs the contract
suite, the frozen-log pins, the rule reference's checks and the JSON sample of its command (read
from its campaign script) on that copy, in a subprocess: this repository's registry never holds
it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tablelog import systems
from tests.support.needs import missing

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("tablelog", "tools", "tests", "docs", "bench", "examples", ".ci")
COPIED_FILES = ("README.md", "pyproject.toml")
SUITE = (
    "tests/contract/test_systems.py",
    "tests/contract/test_docs.py",
    "tests/integration/test_frozen.py",
    "tests/unit/rules/test_reference.py",
    "tests/cli/test_json_appending.py::test_every_appending_command_has_a_sample",
    "tests/cli/test_json_appending.py::test_json_shows_the_events_and_changes[zeta add]",
)
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".cache", "work", "artifacts", "*.snap")


def _copy(target: Path) -> Path:
    """Copy the tree the contract suite reads into ``target``; return it."""
    for name in COPIED:
        shutil.copytree(ROOT / name, target / name, ignore=IGNORED)
    for name in COPIED_FILES:
        shutil.copy(ROOT / name, target / name)
    return target


def _run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python ARGS`` in the copy, its own package first on the path."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )


@pytest.mark.slow
def test_a_generated_system_keeps_the_contract_in_a_copy_of_the_tree(tmp_path: Path) -> None:
    """`tools/new_system.py zeta` then `tools/frozen.py zeta` in a copy of the tree give a
    system the contract suite passes: its events, help, doc, rules, frozen log and pins, and the
    JSON sample its campaign gives its command."""
    tree = _copy(tmp_path / "tree")
    made = _run(tree, "-m", "tools.new_system", "zeta")
    assert made.returncode == 0, made.stderr
    assert "tablelog/systems/zeta.py" in made.stdout.split()
    frozen = _run(tree, "-m", "tools.frozen", "zeta")
    assert frozen.returncode == 0, frozen.stderr
    suite = _run(tree, "-m", "pytest", "-p", "no:cacheprovider", "-q", *SUITE)
    assert suite.returncode == 0, suite.stdout[-4000:]
    assert "error" not in suite.stdout.splitlines()[-1], suite.stdout[-4000:]
    again = _run(tree, "-m", "tools.frozen", "zeta")
    assert (again.returncode, "is frozen already" in again.stderr) == (2, True)
    assert "zeta" not in systems.REGISTRY


@pytest.mark.slow
def test_the_generated_code_passes_the_format_and_lint_checks(tmp_path: Path) -> None:
    """The stubs of a system with the longest name allowed are formatted as ruff formats them
    and pass ruff's rules."""
    beside = Path(sys.executable).parent / "ruff"
    ruff = str(beside) if beside.exists() else shutil.which("ruff")
    if ruff is None:
        missing("needs ruff (pip install -e '.[lint]')")
    tree = _copy(tmp_path / "tree")
    made = _run(tree, "-m", "tools.new_system", "abcdefghijkl")
    assert made.returncode == 0, made.stderr
    files = [p for p in made.stdout.split() if p.endswith(".py")]
    for check in (["format", "--check"], ["check"]):
        done = subprocess.run(
            [ruff, *check, *files], cwd=tree, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_a_name_that_is_no_system_id_or_is_taken_is_refused(tmp_path: Path) -> None:
    """A malformed name, a core module's name and an existing system are refused (exit 2), and
    nothing is written."""
    from tools import new_system

    for name in ("Zeta", "z", "core", "pf2e", "zeta-2"):
        assert new_system.main([name, "--root", str(tmp_path)]) == 2, name
    assert list(tmp_path.iterdir()) == []
