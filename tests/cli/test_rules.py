"""`tablelog rules`: look up what a rule ID in an error or a history line means."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tablelog.cli.main import cli
from tests.support.cli import ok, refused


def rules(*args: str) -> str:
    result = CliRunner().invoke(cli, ["rules", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_one_id_is_explained_with_its_seed_and_decision() -> None:
    """The entry names the rule, its seed section and the decision, wrapped at 100 columns."""
    lines = rules("PF2E-XFER-6").splitlines()
    assert lines[0] == "PF2E-XFER-6 (pf2e): Transfer DC and cost"
    assert "  seed: pf2e-runes.ja.txt, ルーンの転送 Transferring Runes" in lines
    assert any(line.startswith("  decision: --outcome records") for line in lines)
    assert all(len(line) <= 100 for line in lines)


def test_an_id_an_error_names_can_be_looked_up(tmp_path: Path) -> None:
    """The rule ID of a real refusal (a pf2e etch without the formula) has an entry."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "pf2e")
    ok(log, "pf2e", "character", "add", "Valeros", "--level", "8")
    ok(log, "pf2e", "item", "add", "sword", "--base", "longsword", "--owner", "Valeros")
    err = refused(log, "pf2e", "etch", "sword", "flaming", "--by", "Valeros")
    rule_id = err.split(": ")[1]
    assert rule_id == "PF2E-ETCH-1"
    assert rules(rule_id).startswith("PF2E-ETCH-1 (pf2e): Etching a rune\n")


def test_system_lists_its_ids() -> None:
    """--system core lists the core IDs, UNKNOWN-NAME first, and how to explain one."""
    lines = rules("--system", "core").splitlines()
    assert lines[0].split() == ["rule", "system", "title"]
    assert lines[1].startswith("UNKNOWN-NAME  core")
    assert {"CORE-UNDO", "CORE-REDO", "CORE-NAME", "CORE-SYSTEM"} <= {
        line.split()[0] for line in lines[1:-1]
    }
    assert lines[-1] == "(tablelog rules RULE-ID explains one)"


def test_json_keys() -> None:
    """--json prints a list of {id, title, system, seed, text, decision}."""
    [entry] = json.loads(rules("MP-PULL-1", "--json"))
    assert list(entry) == ["id", "title", "system", "seed", "text", "decision"]
    assert (entry["id"], entry["system"]) == ("MP-PULL-1", "magicpunk")


def test_an_unknown_id_is_refused(tmp_path: Path) -> None:
    """An ID nobody uses exits 1 with UNKNOWN-NAME; an ID with --system is a usage error."""
    err = refused(tmp_path / "none.tlog", "rules", "PF2E-XFER-66")
    assert err.startswith("error: UNKNOWN-NAME: no rule ID 'PF2E-XFER-66'")
    refused(tmp_path / "none.tlog", "rules", "MP-PULL-1", "--system", "saga", status=2)
