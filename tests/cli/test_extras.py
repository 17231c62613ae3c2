"""Without its extras (pyproject.toml) tablelog runs every file-store command, and a command that
needs a missing one says, in one line and with exit status 3, which extra to install.

Each command runs in a subprocess whose imports of the extras' modules fail as they do where
the packages are not installed (a finder first on ``sys.meta_path``), so the suite, which has
every extra, checks the plain ``pip install tablelog`` too."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tablelog.cli.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[2]

WITHOUT = """\
import importlib.abc, sys

BLOCKED = set(sys.argv[1].split(","))


class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
sys.argv = ["tablelog", *sys.argv[2:]]
from tablelog.cli.main import main

main()
"""
"""``python -c WITHOUT MODULES ARGS…``: ``tablelog ARGS…`` as if MODULES were not installed."""


def without(
    modules: str, *args: str, cwd: Path, stdin: str = "", **environ: str
) -> subprocess.CompletedProcess[str]:
    """Run ``tablelog ARGS`` in ``cwd`` as if the comma-separated ``modules`` were missing (with
    ``environ`` added to the environment)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TABLELOG_LANG": "en",
        "XDG_CONFIG_HOME": str(cwd / "config"),  # no signing key of the user's own
        **environ,
    }
    env.pop("TABLELOG_LOG", None)
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, modules, *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


NONE = ",".join(EXTRAS)
"""Every extra's module missing: what ``pip install tablelog`` gives."""

FILE_COMMANDS = [
    ["state"],
    ["state", "Valeros", "--json"],
    ["log", "--all"],
    ["history", "Valeros"],
    ["replay", "--until", "3"],
    ["status"],
    ["note", "a ruling"],
    ["undo"],
    ["redo"],
    ["roll", "2D6", "--reason", "spot"],
    ["pf2e", "character", "add", "Seelah", "--level", "3"],
    ["verify"],
    ["export", "--format", "jsonl", "-o", "out.jsonl"],
    ["export", "--format", "csv", "-o", "out.csv"],
    ["report"],
    ["report", "--format", "json"],
    ["--log", "saga.tlog", "report"],
    ["--log", "saga.tlog", "status"],
    ["copy", "demo.tlog", "copied.tlog"],
    ["rules", "PF2E-ETCH-1"],
    ["serve", "--help"],
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose demo.tlog ran the pf2e example and saga.tlog the saga one (its units have
    HP and LP: its report has charts), every extra's module missing."""
    where = tmp_path_factory.mktemp("plain")
    for log, example in [("demo.tlog", "pf2e-downtime.txt"), ("saga.tlog", "saga-wolf-road.txt")]:
        script = str(ROOT / "examples" / example)
        done = without(NONE, "--log", log, "run", script, cwd=where)
        assert (done.returncode, done.stderr) == (0, "")
    return where


@pytest.mark.parametrize("args", FILE_COMMANDS, ids=" ".join)
def test_each_file_store_command_runs_without_the_extras(played: Path, args: list[str]) -> None:
    """A file-store command succeeds with no extra installed, and says nothing on stderr."""
    done = without(NONE, "--log", "demo.tlog", *args, cwd=played)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout


def test_the_shell_runs_without_the_extras(played: Path) -> None:
    """The shell (lines piped in) works with no extra installed."""
    done = without(NONE, "--log", "demo.tlog", "shell", cwd=played, stdin="status\nstate\n")
    assert done.returncode == 0, done.stderr
    assert "Valeros" in done.stdout


def test_init_without_the_extras(tmp_path: Path) -> None:
    """``init`` of a file log needs no extra."""
    done = without(NONE, "--log", "new.tlog", "init", "--system", "saga", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "new.tlog").is_file()


def needs(feature: str, module: str, extra: str) -> str:
    """The one line a command that needs a missing extra ends with."""
    return (
        f"error: {feature} needs {module}, which is not installed: "
        f"pip install 'tablelog[{extra}]'\n"
    )


SERVER = "the table server (tablelog serve)"
POSTGRES = "a PostgreSQL store (postgresql://)"
SIGN = "signing (init --sign, tablelog key, a signed log)"
CHARTS = "the report's charts (report --format html)"


@pytest.mark.parametrize(
    ("missing", "args", "said"),
    [
        (
            "uvicorn,litestar",
            ["serve", "--store", "file:tables"],
            needs(SERVER, "uvicorn", "server"),
        ),
        ("litestar", ["serve", "--store", "file:tables"], needs(SERVER, "litestar", "server")),
        (
            "psycopg",
            ["--log", "postgresql://nobody@127.0.0.1:1/none", "init", "--system", "saga"],
            needs(POSTGRES, "psycopg", "postgres"),
        ),
        (
            "psycopg",
            ["copy", "demo.tlog", "postgresql://nobody@127.0.0.1:1/none"],
            needs(POSTGRES, "psycopg", "postgres"),
        ),
        (
            "cryptography",
            ["--log", "signed.tlog", "init", "--system", "saga", "--sign"],
            needs(SIGN, "cryptography", "sign"),
        ),
        (
            "matplotlib",
            ["--log", "saga.tlog", "report", "--format", "html", "-o", "report.html"],
            needs(CHARTS, "matplotlib", "charts"),
        ),
    ],
    ids=["serve", "serve-litestar", "postgresql-init", "postgresql-copy", "init-sign", "report"],
)
def test_a_command_that_needs_a_missing_extra_names_it(
    played: Path, missing: str, args: list[str], said: str
) -> None:
    """Exit 3 (the command cannot run here) and one line naming the extra, no traceback; nothing
    is written."""
    before = sorted(p.name for p in played.iterdir())
    done = without(missing, *args, cwd=played, TABLELOG_SERVER_TOKEN="t" * 24)
    assert (3, said) == (done.returncode, done.stderr)
    assert before == sorted(p.name for p in played.iterdir())


def test_verify_of_a_signed_log_names_the_sign_extra(tmp_path: Path) -> None:
    """A log signed where cryptography is installed: verify where it is not names the extra,
    and reading the log needs none."""
    config = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    made = without(
        "", "--log", "s.tlog", "init", "--system", "saga", "--sign", cwd=tmp_path, **config
    )
    assert made.returncode == 0, made.stderr
    elsewhere = {"XDG_CONFIG_HOME": str(tmp_path / "elsewhere")}  # a machine without the key
    done = without("cryptography", "--log", "s.tlog", "verify", cwd=tmp_path, **elsewhere)
    assert (3, needs(SIGN, "cryptography", "sign")) == (done.returncode, done.stderr)
    read = without("cryptography", "--log", "s.tlog", "state", cwd=tmp_path, **elsewhere)
    assert read.returncode == 0


def test_discord_on_a_server_without_the_sign_extra_names_it(tmp_path: Path) -> None:
    """The server extra without the sign extra: serving Discord's endpoint (its requests are
    signed) names the sign extra, exit 3."""
    args = ["serve", "--store", "file:tables", "--discord-public-key", "ab" * 32]
    done = without("cryptography", *args, cwd=tmp_path, TABLELOG_SERVER_TOKEN="t" * 24)
    assert (3, needs(SIGN, "cryptography", "sign")) == (done.returncode, done.stderr)


def test_every_extra_is_declared_and_left_out_of_the_plain_install() -> None:
    """Each extra named by the CLI is one of pyproject.toml's, requiring its module's package,
    which the plain dependencies do not; `all` brings each and `test` brings `all`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    plain = " ".join(project["dependencies"])
    for module, extra in EXTRAS.items():
        assert any(req.startswith(module) for req in extras[extra]), (module, extra)
        assert module not in plain
    assert extras["all"] == ["tablelog[server,postgres,sign,charts]"]
    assert {"server", "postgres", "sign", "charts"} == set(EXTRAS.values())
    assert "tablelog[all]" in extras["test"]
