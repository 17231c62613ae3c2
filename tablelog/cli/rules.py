"""``tablelog rules``: look up a rule ID an error or a history line names (no log needed)."""

from __future__ import annotations

import json
import textwrap
from typing import TYPE_CHECKING

import click

from tablelog.cli.core import domain_errors
from tablelog.rules import reference

if TYPE_CHECKING:
    from tablelog.rules.reference import RuleEntry

__all__ = ["COMMANDS"]

_WIDTH = 100


@click.command("rules")
@click.argument("rule_id", metavar="[RULE-ID]", required=False)
@click.option(
    "--system", type=click.Choice(list(reference.systems())), help="List one system's rule IDs."
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of entries.")
@domain_errors
def rules(rule_id: str | None, system: str | None, as_json: bool) -> None:
    """Explain a rule ID: what the tool enforces, the seed section, the decision where the seed
    is silent. Without RULE-ID, list every ID; a family (SAGA-ATK) lists its IDs.

    Example: tablelog rules PF2E-XFER-6
    """

    if rule_id is not None and system is not None:
        raise click.UsageError("give a RULE-ID or --system, not both")
    if rule_id is not None:
        found = reference.lookup(rule_id)
    else:
        found = [e for e in reference.entries().values() if system in (None, e.system)]
    if as_json:
        click.echo(json.dumps([e.to_json() for e in found], ensure_ascii=False))
    elif len(found) == 1 and rule_id is not None:
        click.echo(_explained(found[0]))
    else:
        _echo_list(found)


def _explained(entry: RuleEntry) -> str:
    lines = [f"{entry.id} ({entry.system}): {entry.title}"]
    for label, value in (("", entry.text), ("seed: ", entry.seed), ("decision: ", entry.decision)):
        if value:
            lines += textwrap.wrap(
                f"{label}{value}",
                _WIDTH,
                initial_indent="  ",
                subsequent_indent="    " if label else "  ",
            )
    return "\n".join(lines)


def _echo_list(found: list[RuleEntry]) -> None:
    from tablelog.cli.columns import table_lines

    rows = [[e.id, e.system, e.title] for e in found]
    for line in table_lines(["rule", "system", "title"], rows):
        click.echo(line)
    click.echo("(tablelog rules RULE-ID explains one)")


COMMANDS = [rules]
