"""Option parsing shared by the Magic Punk commands (usage errors exit 2)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import click

from tablelog.lang import say
from tablelog.text import Listed, msg

__all__ = [
    "Amount",
    "MONEY",
    "HP",
    "STAT",
    "COUNT",
    "SIGNED",
    "NumericArgs",
    "names",
    "key_values",
    "skill_ranks",
    "suggesting",
    "card_words",
    "numbers",
]


class Amount(click.IntRange):
    """A whole number within bounds, refused in words: ``must be 0 or more, got -100``.

    The upper bounds are far beyond anything the game needs; they keep numbers small enough to
    be logged (a number of 2**64 or more cannot be encoded).
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number: int = click.INT.convert(value, param, ctx)
        if self.min is not None and number < self.min:
            self.fail(
                say(
                    msg(
                        "magicpunk.option.below",
                        "must be {least} or more, got {number}",
                        least=self.min,
                        number=number,
                    )
                ),
                param,
                ctx,
            )
        if self.max is not None and number > self.max:
            self.fail(
                say(
                    msg(
                        "magicpunk.option.above",
                        "must be at most {most}, got {number}",
                        most=self.max,
                        number=number,
                    )
                ),
                param,
                ctx,
            )
        return number


MONEY = Amount(0, 10**9)
"""Mj (money, prices), living points."""
HP = Amount(0, 10**9)
"""Hit points: damage, healing, max HP."""
STAT = Amount(0, 10**4)
"""Abilities, magic slots, conversion points, card and dice lists."""
COUNT = Amount(1, 10**4)
"""Counts that start at 1: cards to draw or circulate, spell tiers, leisure rolls."""
SIGNED = Amount(-(10**4), 10**4)
"""The GM's ±n on the rarity table; a region's safety value (a shift either way)."""
_NUMBER = re.compile(r"-\d+")


class NumericArgs(click.Command):
    """A command with a numeric argument: ``-5`` reaches the argument's type (and is refused in
    words, ``must be 0 or more``) instead of click reading it as an unknown option ``-5``.

    Other unknown options are still refused as click refuses them (``No such option``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["context_settings"] = {
            **(kwargs.get("context_settings") or {}),
            "ignore_unknown_options": True,
        }
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        known = self._known(ctx)
        for token in args:
            if token == "--":
                break
            name = token.split("=", 1)[0]
            if token.startswith("-") and not _NUMBER.fullmatch(token) and name not in known:
                raise click.NoSuchOption(name, possibilities=sorted(known), ctx=ctx)
        return super().parse_args(ctx, args)

    def _known(self, ctx: click.Context) -> set[str]:
        """The option names of the command (its help option's included), made once."""
        made: set[str] | None = getattr(self, "_known_names", None)
        if made is None or ctx.help_option_names != getattr(self, "_known_for", None):
            made = {
                name
                for p in self.get_params(ctx)
                for name in (*p.opts, *p.secondary_opts)
                if name.startswith("-")
            }
            self._known_names, self._known_for = made, list(ctx.help_option_names)
        return made


def names(text: str | None, option: str = "--who") -> tuple[str, ...] | None:
    """Split ``"Aria,Bram"`` into names (None stays None).

    Raises:
        click.BadParameter: an empty list, a blank name (``"Aria,,Bram"``) or a name given
            twice.
    """
    if text is None:
        return None
    parts = tuple(part.strip() for part in text.split(","))
    if not any(parts):
        raise click.BadParameter(
            say(msg("magicpunk.option.no_name", "name at least one character")),
            param_hint=option,
        )
    if not all(parts):
        raise click.BadParameter(
            say(msg("magicpunk.option.blank_name", "{text!r} has a blank name", text=text)),
            param_hint=option,
        )
    twice = [n for n in dict.fromkeys(parts) if parts.count(n) > 1]
    if twice:
        raise click.BadParameter(
            say(
                msg(
                    "magicpunk.option.names_twice",
                    "{names} named twice: name each once",
                    names=Listed(tuple(twice), "comma"),
                )
            ),
            param_hint=option,
        )
    return parts


def key_values(pairs: Iterable[str], option: str, as_int: bool = False) -> dict[str, Any]:
    """Parse repeated ``NAME=VALUE`` options into a dict (``--skill swordplay=expert``).

    With ``as_int`` the values are whole numbers 0..10000 (:data:`STAT`). A name given twice is
    a usage error (the last one would win silently).
    """
    found: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise click.BadParameter(
                say(msg("magicpunk.option.not_pair", "{pair!r} is not NAME=VALUE", pair=pair)),
                param_hint=option,
            )
        if (key.strip().lower() if as_int else key.strip()) in found:
            raise click.BadParameter(
                say(
                    msg(
                        "magicpunk.option.key_twice",
                        "{key} is given twice: give each once",
                        key=key.strip(),
                    )
                ),
                param_hint=option,
            )
        if as_int:
            try:
                number = int(value)
            except ValueError:
                raise click.BadParameter(
                    say(
                        msg(
                            "magicpunk.option.pair_not_number",
                            "{pair!r}: {value!r} is not a number",
                            pair=pair,
                            value=value,
                        )
                    ),
                    param_hint=option,
                ) from None
            if not STAT.min <= number <= STAT.max:  # type: ignore[operator]
                raise click.BadParameter(
                    say(
                        msg(
                            "magicpunk.option.pair_range",
                            "{pair!r}: must be {least} to {most}",
                            pair=pair,
                            least=STAT.min,
                            most=STAT.max,
                        )
                    ),
                    param_hint=option,
                )
            found[key.strip().lower()] = number
        else:
            found[key.strip()] = value.strip()
    return found


def skill_ranks(pairs: Iterable[str]) -> dict[str, str]:
    """Parse repeated ``--skill NAME=RANK`` options, each rank as written.

    Raises:
        click.BadParameter: a malformed pair, a skill given twice, or a rank other than novice,
            expert, master or 1-3 (MP-REBUILD-5; exit 2, issue 15 item 23).
    """
    from tablelog.rules.magicpunk.rebuild import skill_rank

    found = key_values(pairs, "--skill")
    for rank in found.values():
        suggesting(skill_rank, rank, "--skill")
    return found


def suggesting(parse: Callable[[str], Any], value: str, option: str) -> Any:
    """Return ``parse(value)``; a value it refuses is a usage error (exit 2), as with
    :func:`~tablelog.systems.declaration.parsed`, that also says "did you mean" when the word is
    one the rule does not know (its ``unknown``): the closest ids and names, in any language, of
    the system's ``vocabulary`` (``--material 魔煌`` -> ``did you mean 魔煌銀?``).

    Raises:
        click.BadParameter: ``Invalid value for OPTION: RULE-ID: message; did you mean …?``.
    """
    from tablelog.refusals import Refused
    from tablelog.rules.core import RuleViolation

    try:
        return parse(value)
    except RuleViolation as exc:
        raise click.BadParameter(say(Refused.of(exc, None).sentence()), param_hint=option) from None


def card_words(words: Iterable[str]) -> str:
    """Join CARD arguments (``AS 7H`` or ``AS,7H``) into one list text for parsing."""
    return ",".join(words)


def numbers(text: str | None, option: str, bound: Amount = STAT) -> tuple[int, ...] | None:
    """Parse ``"3,17,9"`` into integers within ``bound`` (None stays None)."""
    if text is None:
        return None
    try:
        found = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise click.BadParameter(
            say(
                msg("magicpunk.option.not_numbers", "{text!r} is not a list of numbers", text=text)
            ),
            param_hint=option,
        ) from None
    out = [n for n in found if not bound.min <= n <= bound.max]  # type: ignore[operator]
    if out:
        raise click.BadParameter(
            say(
                msg(
                    "magicpunk.option.numbers_range",
                    "{numbers}: each must be {least} to {most}",
                    numbers=Listed(tuple(out), "comma"),
                    least=bound.min,
                    most=bound.max,
                )
            ),
            param_hint=option,
        )
    return found
