"""The rule reference (`tablelog rules`): every rule ID the product can name has an entry.

The IDs are found by scanning the source: the rule argument of every ``RuleViolation(...)`` and
``require(...)`` call (literals, and the module constants such as ``CARDS_RULE`` it names), and,
since IDs also travel through parameters (``rule_id="UNKNOWN-NAME"``) and events' ``rules=``
lists, every string literal of the package that has the shape of a rule ID.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tablelog import systems
from tablelog.rules import reference
from tablelog.rules.core import RuleViolation

PACKAGE = Path(__file__).resolve().parents[3] / "tablelog"


def _prefixes() -> dict[str, tuple[str, ...]]:
    """Each system's rule-ID prefix as its first entry in rules.toml carries it (``MP-``; the
    core's: ``CORE-``, ``UNKNOWN-``): a new system's prefix is read, never listed here."""
    found: dict[str, tuple[str, ...]] = {"core": ("CORE-", "UNKNOWN-")}
    for entry in reference.entries().values():
        found.setdefault(entry.system, (entry.id.split("-")[0] + "-",))
    return found


PREFIX = _prefixes()
RULE_ID = re.compile(
    r"UNKNOWN-NAME|CORE-[A-Z]+|("
    + "|".join(re.escape(p[0][:-1]) for name, p in PREFIX.items() if name != "core")
    + r")-[A-Z]+(-\d+)?"
)


def _trees() -> list[ast.Module]:
    return [ast.parse(p.read_text("utf-8")) for p in sorted(PACKAGE.rglob("*.py"))]


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "RULE-ID"`` assignments."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


def _rule_argument(call: ast.Call) -> ast.expr | None:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    position = {"RuleViolation": 0, "require": 1}.get(name or "")
    if position is None:
        return None
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg in ("rule_id", "rule")), None)


def refusal_ids() -> set[str]:
    """Rule IDs written in the rule argument of RuleViolation and require calls."""
    return {i for i in rule_arguments(_trees()) if RULE_ID.fullmatch(i)}


def rule_arguments(trees: list[ast.Module]) -> set[str]:
    """The strings in the rule argument of RuleViolation and require calls of ``trees`` (the
    module constants they name read through)."""
    constants = {k: v for tree in trees for k, v in _constants(tree).items()}
    found = set()
    for tree in trees:
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            argument = _rule_argument(call)
            for node in ast.walk(argument) if argument is not None else ():
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
                elif isinstance(node, ast.Name) and node.id in constants:
                    found.add(constants[node.id])
    return found


def literal_ids() -> set[str]:
    """Every string literal of the package shaped like a rule ID."""
    return {
        node.value
        for tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and RULE_ID.fullmatch(node.value)
    }


def test_every_id_a_refusal_can_name_has_an_entry() -> None:
    """The scan finds the refusals' IDs (well over a hundred) and each one has an entry."""
    named = refusal_ids()
    assert len(named) >= 100
    assert {"UNKNOWN-NAME", "CORE-NAME", "MP-CARDS", "PF2E-XFER-6"} <= named
    assert sorted(named - set(reference.entries())) == []


def test_every_rule_id_in_the_source_has_an_entry() -> None:
    """IDs passed through parameters and named by events' rule lists have entries too."""
    assert sorted(literal_ids() - set(reference.entries())) == []


def message_ids(trees: list[ast.Module]) -> set[str]:
    """Rule IDs that open a message written whole (``CliError(f"CORE-IMPORT: {source} …")``):
    the literal start of every string and f-string of ``trees`` shaped ``ID: …``."""
    starts = (
        RULE_ID.match(node.value)
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
    return {m.group() for m in starts if m is not None and m.string[m.end() :].startswith(": ")}


@pytest.mark.rule("CORE-IMPORT")
def test_every_id_that_opens_an_error_message_has_an_entry() -> None:
    """An ID written at the start of an error line (as import's CORE-IMPORT was, before a
    RuleViolation carried it) is found and can be looked up too."""
    written = [ast.parse('raise CliError(f"CORE-IMPORT: {source} {exc}; nothing created", 1)')]
    assert {"CORE-IMPORT"} == message_ids(written)
    assert "CORE-IMPORT" in refusal_ids()
    assert sorted(message_ids(_trees()) - set(reference.entries())) == []


def test_entries_are_complete_and_belong_to_their_system() -> None:
    """Every entry has a title, a seed line and a text, and its ID carries its system's prefix."""
    for entry in reference.entries().values():
        assert entry.title and entry.seed and entry.text, entry.id
        assert entry.id.startswith(PREFIX[entry.system]), entry.id
    assert sorted(PREFIX) == sorted(["core", *systems.REGISTRY])  # every system has rules
    assert len(set(PREFIX.values())) == len(PREFIX)  # one prefix per system, none shared
    assert {"FATE-", "MP-", "PF2E-", "SAGA-"} <= {p[0] for p in PREFIX.values()}
    order = [e.system for e in reference.entries().values()]
    runs = [system for i, system in enumerate(order) if i == 0 or order[i - 1] != system]
    assert runs[0] == "core" and len(runs) == len(set(runs)), runs  # core first, each one block


def test_lookup_of_an_id_ignores_case() -> None:
    """`pf2e-xfer-6` finds PF2E-XFER-6: the transfer costs a tenth of the rune's price."""
    [entry] = reference.lookup("pf2e-xfer-6")
    assert entry.id == "PF2E-XFER-6"
    assert "a tenth of the rune's price" in entry.text
    assert entry.seed.startswith("pf2e-runes.ja.txt, ルーンの転送")


def test_lookup_of_a_family_lists_its_ids() -> None:
    """SAGA-ATK is the sixteen attack-damage clauses; SAGA-AT is no family (parts end at '-')."""
    assert [f"SAGA-ATK-{n}" for n in range(1, 17)] == [e.id for e in reference.lookup("SAGA-ATK")]
    with pytest.raises(RuleViolation) as refusal:
        reference.lookup("SAGA-AT")
    assert refusal.value.rule_id == "UNKNOWN-NAME"
