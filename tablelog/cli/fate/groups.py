"""The ``fate`` click group and its subgroups, plus shared option parsing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from tablelog.lang import say
from tablelog.refusals import Refused
from tablelog.rules.core import RuleViolation
from tablelog.rules.fate import typed_key
from tablelog.text import msg

__all__ = [
    "group",
    "master_group",
    "servant_group",
    "phantasm_group",
    "ability_group",
    "battle_group",
    "pairs",
    "WholeNumber",
    "Worded",
    "worded",
]

group = click.Group(
    "fate", help="Fan-made Fate TRPG: code casts, chants, Noble Phantasms, unique abilities."
)
master_group = click.Group("master", help="Masters: CC build, character grade.")
servant_group = click.Group("servant", help="Servants: HP, MP, NP budget, madness.")
phantasm_group = click.Group("phantasm", help="Servants' Noble Phantasms.")
ability_group = click.Group("ability", help="Masters' unique abilities.")
battle_group = click.Group("battle", help="Battle time: start and end.")
for _sub in (master_group, servant_group, phantasm_group, ability_group, battle_group):
    group.add_command(_sub)


def pairs(values: tuple[str, ...], option: str) -> tuple[tuple[str, str], ...]:
    """Split ``KEY=VALUE`` option values.

    Raises:
        click.BadParameter: a value without ``=`` (usage error, exit 2).
    """
    out = []
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key:
            raise click.BadParameter(
                say(msg("fate.usage.not_pair", "{value} is not KEY=VALUE", value=value)),
                param_hint=option,
            )
        out.append((key.strip(), rest.strip()))
    return tuple(out)


class WholeNumber(click.ParamType):  # type: ignore[type-arg]  # generic only in recent click
    """A whole number of at least ``minimum``; a negative positional argument gets this message
    instead of click's "No such option" when its command sets ``ignore_unknown_options``."""

    name = "integer"

    def __init__(self, minimum: int = 0, maximum: int = 10**9) -> None:
        self.minimum = minimum
        self.maximum = maximum

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                text = str(value).strip()
                number = int(text) if len(text) <= 20 else self.maximum + 1  # not converted
            except ValueError:
                self.fail(
                    say(
                        msg(
                            "fate.usage.not_whole",
                            "must be a whole number of {minimum} or more, got {value}",
                            minimum=self.minimum,
                            value=value,
                        )
                    ),
                    param,
                    ctx,
                )
        if number < self.minimum:
            self.fail(
                say(
                    msg(
                        "fate.usage.below_min",
                        "must be {minimum} or more, got {number}",
                        minimum=self.minimum,
                        number=number,
                    )
                ),
                param,
                ctx,
            )
        if number > self.maximum:
            self.fail(
                say(
                    msg(
                        "fate.usage.over_max",
                        "must be at most {maximum}, got {value}",
                        maximum=self.maximum,
                        value=str(value)[:24],
                    )
                ),
                param,
                ctx,
            )
        return number


def worded(parse: Callable[[str], Any], value: str, option: str) -> Any:
    """Return ``parse(value)``; a word the parser refuses is a usage error (exit 2) naming the
    option and the rule, with "did you mean" the game's words like it in every language (the
    fate declaration's ``vocabulary``) when the refusal names an unknown word.

    Raises:
        click.BadParameter: ``Invalid value for OPTION: RULE-ID: message; did you mean X?``.
    """
    try:
        return parse(value)
    except RuleViolation as exc:
        words = say(msg("core.usage.rule", "{rule}: {message}", rule=exc.rule_id, message=exc.msg))
        hint = Refused.of(exc, None).hint
        raise click.BadParameter(
            words + (say(hint) if hint is not None else ""), param_hint=option
        ) from None


class Worded(click.Choice):  # type: ignore[type-arg]  # generic only in recent click
    """A choice of the game's words (``front``, ``shoot`` …) that also takes the glossary's
    Japanese or Korean word for one (``前列``, ``전열``, ``射撃``): the key is what it returns."""

    def __init__(self, choices: tuple[str, ...] | list[str], kind: str) -> None:
        super().__init__(list(choices))
        self.kind = kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            value = typed_key(self.kind, value)
        return super().convert(value, param, ctx)
