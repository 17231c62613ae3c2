"""The layers of docs/ARCHITECTURE.md are checked by `make lint` (import-linter, pyproject.toml
[tool.importlinter]): an upward import makes it fail (issue 26)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=tree, env=env, capture_output=True, text=True
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package and its pyproject.toml (the contracts)."""
    skip = shutil.ignore_patterns("*.pyc", "__pycache__")
    shutil.copytree(ROOT / "tablelog", tmp_path / "tablelog", ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        ("rules/core.py", "from tablelog.cli import core as _face", "Layers"),
        ("projections/core.py", "import tablelog.session as _loop", "Layers"),
        ("store/format.py", "import tablelog.projections.core as _state", "The store imports only"),
        (
            "commands/pf2e/runes.py",
            "import tablelog.commands.saga.cast as _other",
            "No rule system",
        ),
    ],
)
def test_an_upward_import_breaks_the_lint(tree: Path, module: str, line: str, broken: str) -> None:
    """The tree as it is keeps every contract; one import against them breaks the named one."""
    if not LINT_IMPORTS.exists():
        pytest.fail(f"{LINT_IMPORTS} is missing: install the lint extra (make lint does)")
    kept = _lint(tree)
    assert kept.returncode == 0, kept.stdout[-2000:]
    path = tree / "tablelog" / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    failed = _lint(tree)
    assert failed.returncode == 1, failed.stdout[-2000:]
    assert f"{broken}" in failed.stdout and "BROKEN" in failed.stdout
