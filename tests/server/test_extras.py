"""A server without the charts extra serves every report but the one with charts, which it
refuses with 501 ``not_installed`` naming the extra, as the CLI does (docs/COMMANDS.md,
"Installing")."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.server import api, commands, serving

ROAD = Path(__file__).parents[2] / "examples" / "saga-wolf-road.txt"
LINES = [
    line
    for line in ROAD.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith(("#", "init "))
]

WITHOUT = """\
import importlib.abc, os, sys

BLOCKED = set(os.environ.get("TABLELOG_TEST_WITHOUT", "").split(",")) - {""}


class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
"""
"""A ``sitecustomize`` that makes the modules $TABLELOG_TEST_WITHOUT names unimportable."""


def test_a_report_with_charts_names_the_charts_extra(tmp_path: Path) -> None:
    """Without matplotlib the saga road's html report is 501 naming `tablelog[charts]`; its
    Markdown report is served as ever, and the server prints no traceback."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(WITHOUT)
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)
    env = {"PYTHONPATH": path, "TABLELOG_TEST_WITHOUT": "matplotlib"}
    with serving(f"file:{tmp_path / 'tables'}", tmp_path / "server.out", env=env) as url:
        gm = api(url)
        made = gm.post("/tables", json={"system": "saga", "title": "Road", "seed": 42})
        tid = made.json()["table_id"]
        commands(gm, tid, *LINES)
        html = gm.get(f"/tables/{tid}/report", params={"format": "html"})
        md = gm.get(f"/tables/{tid}/report", params={"format": "md"})
    error = html.json()["error"]
    assert (html.status_code, error["code"]) == (501, "not_installed")
    assert error["message"].endswith("pip install 'tablelog[charts]'"), error["message"]
    assert md.status_code == 200 and "Wolf" in md.text
