"""The Makefile's virtual environment: one made by an unsupported Python is made again, never
reused; a supported one is kept; `make clean` removes it and the demo log."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.needs import missing

ROOT = Path(__file__).resolve().parents[2]

if shutil.which("make") is None:
    missing("needs make (apt-get install make)")


def script(path: Path, text: str) -> Path:
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)
    return path


@pytest.fixture
def maker(tmp_path: Path) -> Path:
    """A stand-in for `python3`: `-m venv DIR` links DIR/bin/python to this interpreter (no
    pip, so the test is fast); anything else runs this interpreter."""
    return script(
        tmp_path / "python3",
        f'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then\n'
        f'  mkdir -p "$3/bin" && ln -s {sys.executable} "$3/bin/python"\n'
        f'else exec {sys.executable} "$@"; fi\n',
    )


def make(venv: Path, python: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(ROOT),
            f"VENV={venv}",
            f"PYTHON={python}",
            *targets,
        ],
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_venv_made_by_an_old_python_is_made_again(tmp_path: Path, maker: Path) -> None:
    """A .venv whose python is 3.8 is removed and made with $(PYTHON); the version is kept."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    script(
        venv / "bin" / "python",
        'if [ "$1" = "-V" ]; then echo "Python 3.8.10"; exit 0; fi\nexit 1\n',
    )
    (venv / "stale").write_text("left by the old environment")
    done = make(venv, maker, f"{venv}/python-version")
    assert done.returncode == 0, done.stderr
    said = f"{venv} was made by an unsupported Python (Python 3.8.10): making it again"
    assert said in done.stdout
    assert not (venv / "stale").exists()
    version = f"Python {sys.version_info.major}.{sys.version_info.minor}."
    assert (venv / "python-version").read_text().startswith(version)


def test_a_supported_venv_is_reused(tmp_path: Path, maker: Path) -> None:
    """A .venv of a supported Python stays as it is, and its version file does not change."""
    venv = tmp_path / "venv"
    assert make(venv, maker, f"{venv}/python-version").returncode == 0
    (venv / "kept").write_text("mine")
    stamp = (venv / "python-version").stat().st_mtime_ns
    again = make(venv, maker, f"{venv}/python-version")
    assert (again.stdout, (venv / "kept").read_text()) == ("", "mine")
    assert stamp == (venv / "python-version").stat().st_mtime_ns


def test_an_unsupported_python_is_refused(tmp_path: Path) -> None:
    """With no .venv and PYTHON a 3.8, make stops and says which Python it needs."""
    old = script(
        tmp_path / "python3.8", 'if [ "$1" = "-V" ]; then echo "Python 3.8.10"; fi\nexit 1\n'
    )
    done = make(tmp_path / "venv", old, f"{tmp_path}/venv/python-version")
    assert done.returncode != 0
    assert "tablelog needs Python >= 3.11" in done.stdout
    assert not (tmp_path / "venv").exists()


def test_clean_removes_the_venv_and_the_demo_log(tmp_path: Path, maker: Path) -> None:
    """`make -n clean` names the environment, the caches and the demo log with its side files."""
    planned = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-n",
            "-C",
            str(ROOT),
            f"VENV={tmp_path}/venv",
            f"DEMO_LOG={tmp_path}/demo.tlog",
            "clean",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"rm -rf {tmp_path}/venv build *.egg-info .pytest_cache" in planned
    demo = f"{tmp_path}/demo.tlog"
    assert f"rm -f {demo} {demo}.lock {demo}.snap" in planned


def test_two_demos_at_once_each_get_a_log_of_their_own(tmp_path: Path) -> None:
    """Two `make demo` at once (the same user) both finish, each with its own fresh log in a
    folder of its own under TMPDIR (one shared path per user once made the second fail)."""
    bin_dir = Path(sys.executable).parent
    tablelog = bin_dir / "tablelog"
    if not tablelog.exists():
        missing("needs tablelog installed beside this interpreter (pip install -e .)")
    venv = bin_dir.parent
    run = [
        "make",
        "--no-print-directory",
        "-C",
        str(ROOT),
        f"VENV={venv}",
        "-o",
        f"{venv}/bin/tablelog",  # installed already: not made again
        "demo",
    ]
    env = {"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path)}
    both = [subprocess.Popen(run, stdout=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    said = [p.communicate(timeout=300)[0] for p in both]
    assert [p.returncode for p in both] == [0, 0], said
    logs = {
        line.split(" --log ")[1].split()[0]
        for out in said
        for line in out.splitlines()
        if line.startswith("tablelog is in")
    }
    assert len(logs) == 2 and all(Path(log).is_file() for log in logs)
    assert all(Path(log).parent.parent == tmp_path for log in logs)


def planned_installs(tmp_path: Path, target: str) -> list[str]:
    """The `pip install` lines `make -n TARGET` plans for a fresh virtual environment."""
    planned = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(ROOT), f"VENV={tmp_path}/venv", target],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [
        line.split(" install --quiet ")[1] for line in planned.splitlines() if " install " in line
    ]


def test_the_demo_installs_tablelog_alone(tmp_path: Path) -> None:
    """`make demo` installs tablelog without an extra (its session is a file store's); `make test`
    installs every extra with the test and lint tools."""
    assert planned_installs(tmp_path, "demo") == ["--upgrade pip", "-e ."]
    assert planned_installs(tmp_path, "test") == ["--upgrade pip", "-e '.[test,lint]'"]
