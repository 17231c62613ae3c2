"""The HTML report rendered in headless Chromium (Debian's ``chromium``), with a screenshot
artefact. Without Chromium the test is skipped on a user's machine and fails in CI (CI=true):
`.ci/run` installs it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import ok
from tests.support.needs import missing

ROOT = Path(__file__).resolve().parents[2]
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


def chromium() -> str:
    """Return the browser's path, or skip (fail under CI=true) naming the fix."""
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    )
    if found is None:
        missing("no chromium: apt-get install chromium to render the report in a browser")
    return found


def artefacts() -> Path:
    """Return the folder for test artefacts (tests/artifacts/, not tracked)."""
    folder = ROOT / "tests" / "artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.slow
def test_report_renders_in_chromium(tmp_path):
    """Chromium loads the fate report offline: the DOM it built holds the two HP/MP/LP charts'
    series, and its screenshot (a PNG artefact) is written."""
    browser = chromium()
    log = tmp_path / "war.tlog"
    ok(log, "run", str(ROOT / "examples" / "fate-fourth-war.txt"))
    page = tmp_path / "report.html"
    ok(log, "report", "--format", "html", "-o", str(page))
    url = page.as_uri()
    profile = ["--user-data-dir=" + str(tmp_path / "profile")]
    dom = subprocess.run(
        [browser, *FLAGS, *profile, "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    for gauge in ("hp", "mp", "tiles"):
        assert sum(f'id="series-{gauge}-{i}"' in dom for i in range(6)) == 5
    assert "Fourth war, night one" in dom
    shot = artefacts() / "report-fate-fourth-war.png"
    shot.unlink(missing_ok=True)
    subprocess.run(
        [
            browser,
            *FLAGS,
            *profile,
            f"--screenshot={shot}",
            "--window-size=1200,3200",
            "--hide-scrollbars",
            url,
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000
