"""An erratum in the pf2e data never changes how an old campaign reads (issue 12, point 1).

The installed package records logs (the downtime example and the longer campaign). A copy of the
package then gets an erratum: flaming costs 501 gp and is level 9 (pf2e_runes.csv), a longsword
costs 2 gp (pf2e_base_items.csv), and the DC table's level-8 entry (a rule constant) is 25. Run
from that copy in a subprocess, with no snapshot, each log verifies and shows exactly the state it
was played to; an action taken after the erratum uses the corrected data.
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
    "downtime": ROOT / "examples" / "pf2e-downtime.txt",
    "campaign": ROOT / "tests" / "data" / "campaigns" / "pf2e.txt",
}
ERRATA = {
    "rules/data/pf2e_runes.csv": (
        "flaming,flaming,property,flaming,1,weapon,8,500,",
        "flaming,flaming,property,flaming,1,weapon,9,501,",
    ),
    "rules/data/pf2e_base_items.csv": (
        "longsword,weapon,melee,,1d8,S P,versatile-p,0,1,",
        "longsword,weapon,melee,,1d8,S P,versatile-p,0,2,",
    ),
    "rules/pf2e/crafting.py": (
        "DC_BY_LEVEL = (\n    14,\n    15,\n    16,\n    18,\n    19,\n    20,\n    22,\n"
        "    23,\n    24,\n",
        "DC_BY_LEVEL = (\n    14,\n    15,\n    16,\n    18,\n    19,\n    20,\n    22,\n"
        "    23,\n    25,\n",
    ),
}


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the installed package with the errata applied; returns the PYTHONPATH root."""
    root = tmp_path_factory.mktemp("errata")
    shutil.copytree(
        Path(tablelog.__file__).parent,
        root / "tablelog",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for name, (old, new) in ERRATA.items():
        path = root / "tablelog" / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, name  # the erratum edits exactly one entry
        path.write_text(text.replace(old, new), encoding="utf-8")
    return root


def run_edited(root: Path, log: Path, *args: str) -> str:
    """Run ``tablelog --log LOG ARGS…`` from the edited copy; return its stdout (must succeed)."""
    code = (
        "import sys, tablelog; from tablelog.cli.main import main\n"
        f"assert tablelog.__file__.startswith({str(root)!r}), tablelog.__file__\n"
        "sys.argv[0] = 'tablelog'; sys.exit(main())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--log", str(log), *args],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    """Each script played with the unedited package: (log, its ``state --json``), no snapshot."""
    out = {}
    for name, script in SCRIPTS.items():
        log = tmp_path_factory.mktemp(name) / f"{name}.tlog"
        ok(log, "run", str(script))
        out[name] = (log, json.loads(ok(log, "state", "--json")))
        Path(f"{log}.snap").unlink(missing_ok=True)
    return out


@pytest.mark.rule("PF2E-PRICE-1")
@pytest.mark.rule("PF2E-RUNE-5")
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_log_recorded_before_the_erratum_reads_as_recorded(edited, recorded, name):
    """After the erratum the log verifies and folds to exactly its recorded state."""
    log, state = recorded[name]
    assert run_edited(edited, log, "verify").startswith(f"ok: {log}:")
    assert state == json.loads(run_edited(edited, log, "state", "--json"))


@pytest.mark.rule("PF2E-PRICE-1")
@pytest.mark.rule("PF2E-RUNE-5")
@pytest.mark.rule("PF2E-XFER-6")
def test_an_action_after_the_erratum_uses_the_corrected_data(edited, tmp_path):
    """On the downtime log, after the erratum: a new longsword costs 2 gp; moving frost (level 8)
    off longsword-1 is DC 25, and longsword-1 is then priced and levelled with the corrected
    flaming (+1 striking flaming: 35 + 65 + 501 = 601 gp, level 9); its state before the move
    still reads as recorded (level 8, 1100 gp)."""
    log = tmp_path / "after.tlog"
    ok(log, "run", str(SCRIPTS["downtime"]))  # played before the erratum: 44 records
    script = tmp_path / "after.txt"
    script.write_text(
        "pf2e item add sword-2 --base longsword --owner Valeros\n"
        "pf2e etch sword-2 weapon-potency-1 --by Valeros\n"
        "pf2e transfer frost --from longsword-1 --to sword-2 --by Valeros\n",
        encoding="utf-8",
    )
    run_edited(edited, log, "run", str(script))
    items = json.loads(run_edited(edited, log, "state", "--json"))["items"]
    before = json.loads(run_edited(edited, log, "state", "--json", "--at", "44"))["items"]
    moved = json.loads(run_edited(edited, log, "log", "--json").splitlines()[-1])
    facts = ("name", "level", "price_gp")
    assert (
        (moved["data"]["dc"], "sword-2" in before),
        tuple(items["sword-2"][f] for f in facts),
        tuple(items["longsword-1"][f] for f in facts),
        (before["longsword-1"]["level"], before["longsword-1"]["price_gp"]),
    ) == (
        (25, False),
        ("+1 frost longsword", 8, 535),
        ("+1 striking flaming longsword", 9, 601),
        (8, 1100),
    )


@pytest.mark.rule("PF2E-PRICE-1")
def test_a_new_item_after_the_erratum_has_the_corrected_base_price(edited, tmp_path):
    """A longsword added after the erratum costs 2 gp (1 gp in the recorded campaign)."""
    log = tmp_path / "base.tlog"
    ok(log, "init", "--system", "pf2e")
    run_edited(edited, log, "pf2e", "item", "add", "sword-9", "--base", "longsword")
    assert (
        json.loads(run_edited(edited, log, "state", "--json"))["items"]["sword-9"]["price_gp"] == 2
    )
