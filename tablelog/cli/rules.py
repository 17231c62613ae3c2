"""``tablelog rules``: look up a rule ID an error or a history line names (no log needed)."""

from __future__ import annotations

import json
import textwrap
from typing import TYPE_CHECKING

import click

from tablelog.cli.core import domain_errors, reader
from tablelog.lang import say
from tablelog.rules import reference
from tablelog.text import msg

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
        raise click.UsageError(
            say(msg("core.rules.id_or_system", "give a RULE-ID or --system, not both"))
        )
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


def _translated(entry: RuleEntry, field: str) -> str:
    """Return an entry's ``title``, ``text`` or ``decision`` in the reader's language: the
    catalogue's ``rule.<ID>.<field>`` entry (:func:`tablelog.lang.extract.rule_texts`), the
    English text where it has none."""
    english: str = getattr(entry, field)
    lang = reader().lang
    if lang == "en" or not english:
        return english
    from tablelog.lang.catalog import translations

    found: str = translations(lang).pgettext(f"rule.{entry.id}.{field}", english)
    return found


def _explained(entry: RuleEntry) -> str:
    title, text, decision = (_translated(entry, f) for f in ("title", "text", "decision"))
    lines = [
        say(
            msg(
                "core.rules.heading",
                "{rule} ({system}): {title}",
                rule=entry.id,
                system=entry.system,
                title=title,
            )
        )
    ]
    labelled = (
        ("", text),
        (say(msg("core.rules.seed_label", "seed: ")), entry.seed),
        (say(msg("core.rules.decision_label", "decision: ")), decision),
    )
    for label, value in labelled:
        if value:
            lines += _wrapped(f"{label}{value}", "    " if label else "  ")
    return "\n".join(lines)


def _wrapped(text: str, indent: str) -> list[str]:
    """Wrap ``text`` at :data:`_WIDTH` columns (:func:`textwrap.wrap` in English); a text with
    wide characters (Japanese, Korean) by display width, two columns a wide character, at a
    space where the line has one, else between any two characters (Japanese has no spaces)."""
    from tablelog.cli.columns import display_width

    if reader().lang == "en" or display_width(text) == len(text):
        return textwrap.wrap(text, _WIDTH, initial_indent="  ", subsequent_indent=indent)
    lines: list[str] = []
    line, lead = "", "  "
    for ch in " ".join(text.split()):
        if not line and ch == " ":
            continue
        if display_width(lead + line + ch) > _WIDTH and line:
            cut = line.rfind(" ")
            if ch != " " and cut > 0:
                lines.append(lead + line[:cut].rstrip())
                line = line[cut + 1 :]
            else:
                lines.append(lead + line.rstrip())
                line = ""
            lead = indent
            if ch == " ":
                continue
        line += ch
    return lines + ([lead + line.rstrip()] if line.strip() else [])


def _echo_list(found: list[RuleEntry]) -> None:
    from tablelog.cli.columns import table_lines

    rows = [[e.id, e.system, _translated(e, "title")] for e in found]
    headers = [
        say(msg("core.rules.col_rule", "rule")),
        say(msg("core.rules.col_system", "system")),
        say(msg("core.rules.col_title", "title")),
    ]
    for line in table_lines(headers, rows):
        click.echo(line)
    click.echo(say(msg("core.rules.explains_one", "(tablelog rules RULE-ID explains one)")))


COMMANDS = [rules]
