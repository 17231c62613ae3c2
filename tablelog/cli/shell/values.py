"""What a parameter takes, for completion: its choices, or this table's names, catalogue ids,
cards, seqs and rule IDs by the parameter's name. Used by the shell's completer and by the
bash/zsh/fish completion click provides (``_TABLELOG_COMPLETE``), which reads the log given by
``--log`` or ``$TABLELOG_LOG``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from tablelog.lang import say
from tablelog.systems import REGISTRY
from tablelog.text import msg

__all__ = ["Candidates", "param_values", "complete_from_log"]

Candidates = list[tuple[str, str]]  # (value, what it is)
_ENTITIES = {
    "name",
    "actor",
    "target",
    "targets",
    "holder",
    "master",
    "servant",
    "owner",
    "by",
    "to",
    "who",
    "cover_by",
    "source",
    "item",
    "item_id",
    "names_",
    "entity",
    "about",
}
_FATE_KINDS = ("attack", "defense", "heal", "buff", "curse")


def param_values(param: click.Parameter, state: Any, given: list[str]) -> Candidates:
    """Return the values ``param`` takes on ``state`` (None: no log), ``given`` the words
    already on the line."""
    if isinstance(param.type, click.Choice):
        return [(str(c), "") for c in param.type.choices]
    name = param.name or ""
    if name in _ENTITIES and state is not None:
        character = say(msg("core.shell.meta_character", "character"))
        item = say(msg("core.shell.meta_item", "item"))
        return [(n, character) for n in state.characters] + [(n, item) for n in state.items]
    found = _catalogue_values(name, state)
    if found is not None:
        return found
    return _state_values(name, state, given) if state is not None else []


def _catalogue_values(name: str, state: Any) -> Candidates | None:
    """Catalogue values by parameter name (runes, base items, techs, rule IDs, rarity rows)."""
    if name in ("rune", "swap"):
        from tablelog.lang import reader
        from tablelog.rules.pf2e import catalogue
        from tablelog.text import Term

        english = reader().lang == "en"
        return [
            (
                r.id,
                say(
                    msg(
                        "core.shell.meta_rune",
                        "level {level}, {name}",
                        level=r.level,
                        name=r.name if english else Term("pf2e.rune", r.id),
                    )
                ),
            )
            for r in catalogue.runes().values()
        ]
    if name == "base":
        from tablelog.rules.pf2e import catalogue as base_catalogue

        return [(b.id, b.category) for b in base_catalogue.base_items().values()]
    if name == "tech_id":
        from tablelog.rules.saga import catalogue as techs

        session = list(state.extra.get("techs", {})) if state is not None else []
        own = say(msg("core.shell.meta_session_tech", "session tech"))
        return [(t, own) for t in session] + [(i, techs.tech(i).name_ja) for i in techs.tech_ids()]
    if name == "rule_id":
        from tablelog.rules import reference

        return [(e.id, e.title) for e in reference.entries().values()]
    if name in ("material", "quality", "design"):
        from tablelog.rules import glossary
        from tablelog.rules.magicpunk import procurement as proc

        names = glossary.entries(f"magicpunk.{name}")
        return [
            (row, " ".join(w for w in (names.get(row, {}).get(k) for k in ("ja", "ko")) if w))
            for row in proc.TABLES[name]
        ]
    return None


def _state_values(name: str, state: Any, given: list[str]) -> Candidates:
    """Values read from the session: cards, seqs, NP ids, fate cast kinds."""
    if name in ("cards", "cards_text"):
        card = say(msg("core.shell.meta_card", "card"))
        return [(c, card) for c in _cards_near(state, given)]
    if name in ("seq", "at_seq", "until"):
        return [(str(s), "") for s in range(state.seq, max(0, state.seq - 30), -1)]
    if name == "np_id":
        return [
            (np, say(msg("core.shell.meta_owner", "{owner}'s", owner=owner)))
            for owner, c in state.characters.items()
            for np in (c.get("phantasms") or {})
        ]
    if name == "kind" and state.system == "fate":
        return [(k, "") for k in _FATE_KINDS]
    return []


def _cards_near(state: Any, given: Iterable[str]) -> list[str]:
    """Cards held by the characters or items named on the line; when they hold none (`charge
    a-battery ` before its `--from Aria`: an empty battery), every held card."""
    every = [*state.characters.values(), *state.items.values()]
    named = [state.entity(w) for w in given if state.entity(w) is not None]
    cards = [c for h in named for c in _held(h)]
    return cards or [c for h in every for c in _held(h)]


def _held(record: dict[str, Any]) -> list[str]:
    return list(record.get("hand") or record.get("cards") or [])


def complete_from_log(root: click.Group) -> None:
    """Let click's shell completion offer the log's names, the catalogues and seqs: every
    parameter :func:`param_values` knows gets a completion function (commands imported now),
    a catalogue's only in the commands of the system that owns it (:data:`_OWNERS`: another
    system's ``rune`` or ``base`` is offered nothing from pf2e's)."""
    for command, system in _walk(root, click.Context(root), None):
        for param in command.params:
            owner = _OWNERS.get(param.name or "")
            if owner is not None and owner != system:
                continue
            if param.name in _KNOWN or param.name in _ENTITIES:
                # click keeps the ``shell_complete=`` function of a parameter here
                param._custom_shell_complete = _complete


_OWNERS = {
    "rune": "pf2e",
    "swap": "pf2e",
    "base": "pf2e",
    "tech_id": "saga",
    "material": "magicpunk",
    "quality": "magicpunk",
    "design": "magicpunk",
    "np_id": "fate",
    "kind": "fate",
}
"""The system whose catalogue or state a parameter's values come from, by parameter name."""


_KNOWN = {
    "rune",
    "swap",
    "base",
    "tech_id",
    "rule_id",
    "material",
    "quality",
    "design",
    "cards",
    "cards_text",
    "seq",
    "at_seq",
    "until",
    "np_id",
    "kind",
}


def _walk(
    command: click.Command, ctx: click.Context, system: str | None
) -> Iterable[tuple[click.Command, str | None]]:
    """Yield every command under ``command`` with the system whose group it is in (None: a
    core command)."""
    yield command, system
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                inner = name if system is None and name in REGISTRY else system
                yield from _walk(sub, ctx, inner)


def _complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Offer the values that start with ``incomplete``, each one shell word.

    A name from the log is data from others: bash inserts a completion as it is and runs it on
    Enter, so there each value is quoted (``'x$(touch${IFS}pwned)'``: a name, never a command
    substitution); zsh (``compadd``) and fish quote what they insert. A value holding a control
    character (only a crafted log has one) is not offered.
    """
    import os
    import shlex

    from click.shell_completion import CompletionItem

    from tablelog.rules.core import escape_text

    given = [str(v) for v in ctx.params.values() if isinstance(v, str)]
    found = param_values(param, _log_state(ctx), given)
    bash = os.environ.get("_TABLELOG_COMPLETE", "").startswith("bash")
    return [
        CompletionItem(shlex.quote(v) if bash else v, help=meta or None)
        for v, meta in found
        if v.casefold().startswith(incomplete.casefold()) and escape_text(v) == v
    ]


def _log_state(ctx: click.Context) -> Any:
    """Fold the log ``--log`` names (None when it cannot be read: completion never fails)."""
    from tablelog.session import Session

    path = ctx.find_root().params.get("log_path") or "session.tlog"
    try:
        return Session(path, snapshots=True).state()
    except Exception:  # noqa: BLE001 - no log, or an unusable one: complete without names
        return None
