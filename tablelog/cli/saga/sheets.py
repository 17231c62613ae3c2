"""Unit sheets for ``saga unit add``: a JSON or TOML file and/or options, merged into a
:class:`~tablelog.events.saga.UnitSheet` (options win over the file).

Sheet keys (all optional except ``max_hp`` when no ``--max-hp`` is given): ``side``
(``ally``/``enemy``), ``max_hp``, ``hp``, ``lp``, ``stats`` {ability: N}, ``slv``
{weapon type: N}, ``weapons`` {weapon type: N or [N, N]}, ``resistances`` {attribute: N},
``five`` {element: N}, ``traits`` [{kind, value, on?}], ``race``, ``hp_floor_rate``,
``intrinsic_hp``, ``battle_rank``, ``guard_rate``, ``formation_attack``, ``formation_defense``.
See docs/saga.md.

Every number is a whole number within a bound far beyond the game (:data:`BOUNDS`); a value of
the wrong kind or out of bounds, or a key the sheet does not have (``resistence``), is a usage
error naming the sheet key or the option, with the value as it was written (JSON), never a Python
exception text.
"""

from __future__ import annotations

import difflib
import json
import pathlib
import tomllib
from fractions import Fraction
from typing import Any

import click

from tablelog.cli.core import parsed
from tablelog.cli.saga.calc_inputs import parse_resistances
from tablelog.events.saga import Trait, UnitSheet
from tablelog.lang import say
from tablelog.rules.saga import catalogue as cat
from tablelog.rules.saga.effects import TRAIT_KINDS
from tablelog.rules.saga.figures import parse_number
from tablelog.rules.saga.text import NAMED, key_of, term, unknown_named, words_of
from tablelog.rules.saga.vitals import check_floor_rate
from tablelog.text import Listed, Msg, msg

__all__ = [
    "BOUNDS",
    "SHEET_KEYS",
    "build_sheet",
    "check_keys",
    "check_known",
    "pairs",
    "read_sheet",
    "trait_of",
    "whole",
]

HP_BOUND = (0, 10**9)
STAT_BOUND = (0, 10**4)
SIGNED_BOUND = (-(10**4), 10**4)
MAX_SHEET_BYTES = 1 << 20  # a unit sheet is a few hundred bytes; /dev/zero is refused
BOUNDS: dict[str, tuple[int, int]] = {
    "max_hp": (1, 10**9),
    "hp": HP_BOUND,
    "lp": STAT_BOUND,
    "intrinsic_hp": (1, 10**9),
    "battle_rank": (1, 250),
    "stats": STAT_BOUND,
    "slv": STAT_BOUND,
    "weapons": STAT_BOUND,
    "resistances": SIGNED_BOUND,
    "five": SIGNED_BOUND,
    "traits": SIGNED_BOUND,
    "guard_rate": SIGNED_BOUND,
    "formation_attack": SIGNED_BOUND,
    "formation_defense": SIGNED_BOUND,
}
"""Sheet key -> (lowest, highest) whole number: HP up to 10⁹, stats and levels up to 10⁴,
resistances, five-element levels, trait values, guard and formation rates ±10⁴ (weaknesses and
penalties are negative)."""

SHEET_KEYS = (
    "side",
    "max_hp",
    "hp",
    "lp",
    "stats",
    "slv",
    "weapons",
    "resistances",
    "five",
    "traits",
    "race",
    "hp_floor_rate",
    "intrinsic_hp",
    "battle_rank",
    "guard_rate",
    "formation_attack",
    "formation_defense",
)
"""Every key a unit sheet may have (docs/saga.md)."""
TRAIT_KEYS = ("kind", "value", "on")

_OPTIONS = {
    "stats": "--stat",
    "slv": "--slv",
    "weapons": "--weapon",
    "five": "--five",
    "traits": "--trait",
    "resistances": "--resist",
}
_NAMES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "stats": ("SAGA-ATK-5", "stat", cat.ABILITIES),
    "slv": ("SAGA-ATK-5", "weapon type", cat.WEAPON_TYPES),
    "weapons": ("SAGA-ATK-5", "weapon type", cat.WEAPON_TYPES),
    "five": ("SAGA-ATK-9", "element", cat.ELEMENTS),
    "traits": ("SAGA-EFF-4", "trait kind", tuple(TRAIT_KINDS)),
}
"""Sheet key -> (rule, what its names are, the names it takes): a name outside them is a usage
error (issue 15 item 23: an unknown keyword value is exit 2 in every system)."""


def _shown(value: Any) -> str:
    """Return a value as the user wrote it in the sheet (JSON: null, "x", [1, 2])."""
    return json.dumps(value, ensure_ascii=False, default=str)


def whole(value: Any, label: Msg | str, bound: tuple[int, int], hint: str = "--sheet") -> int:
    """Return ``value`` if it is a whole number within ``bound``.

    Raises:
        click.BadParameter: naming ``label`` and the value (``max_hp must be a whole number
            from 1 to 1000000000, got "abc"``).
    """
    low, high = bound
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise click.BadParameter(
            say(
                msg(
                    "saga.sheet.whole",
                    "{label} must be a whole number from {low} to {high}, got {value}",
                    label=label,
                    low=low,
                    high=high,
                    value=_shown(value),
                )
            ),
            param_hint=hint,
        )
    return value


def read_sheet(path: str) -> dict[str, Any]:
    """Return the sheet file's data (``.toml`` read as TOML, anything else as JSON).

    Raises:
        click.BadParameter: an unreadable file, one that is no regular file (a FIFO is never
            waited on), is over :data:`MAX_SHEET_BYTES`, or does not parse to a table.
    """
    from tablelog.store.log import open_regular

    file = pathlib.Path(path)
    try:
        with open_regular(path) as raw:
            content = raw.read(MAX_SHEET_BYTES + 1)
        if len(content) > MAX_SHEET_BYTES:
            raise click.BadParameter(
                say(
                    msg(
                        "saga.sheet.too_big",
                        "{path}: a sheet is at most {most:,} bytes",
                        path=path,
                        most=MAX_SHEET_BYTES,
                    )
                ),
                param_hint="--sheet",
            )
        text = content.decode("utf-8")
        data = tomllib.loads(text) if file.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError) as exc:
        raise click.BadParameter(
            say(msg("saga.sheet.unreadable", "{path}: {error}", path=path, error=str(exc))),
            param_hint="--sheet",
        ) from None
    except RecursionError:  # json nests as deep as the file does
        raise click.BadParameter(
            say(msg("saga.sheet.too_deep", "{path}: nested too deeply", path=path)),
            param_hint="--sheet",
        ) from None
    if not isinstance(data, dict):
        raise click.BadParameter(
            say(msg("saga.sheet.not_a_table", "{path}: a sheet is a table of keys", path=path)),
            param_hint="--sheet",
        )
    return data


def pairs(
    values: tuple[str, ...], option: str, number: bool = True, bound: tuple[int, int] = SIGNED_BOUND
) -> list[tuple[str, Any]]:
    """Split ``KEY=VALUE`` option values (VALUE a whole number within ``bound`` when ``number``).

    Raises:
        click.BadParameter: a value without ``=``, a non-integer or out-of-bound number.
    """
    out: list[tuple[str, Any]] = []
    for text in values:
        key, sep, value = text.partition("=")
        if not sep or not key:
            raise click.BadParameter(
                say(msg("saga.usage.key_value", "{text!r}: expected KEY=VALUE", text=text)),
                param_hint=option,
            )
        if not number:
            out.append((key.strip(), value.strip()))
            continue
        try:
            parsed = int(value)
        except ValueError:
            raise click.BadParameter(
                say(
                    msg(
                        "saga.usage.not_whole",
                        "{text!r}: {value!r} is not a whole number",
                        text=text,
                        value=value,
                    )
                ),
                param_hint=option,
            ) from None
        if not bound[0] <= parsed <= bound[1]:
            raise click.BadParameter(
                say(
                    msg(
                        "saga.usage.pair_range",
                        "{text!r}: must be {low} to {high}",
                        text=text,
                        low=bound[0],
                        high=bound[1],
                    )
                ),
                param_hint=option,
            )
        out.append((key.strip(), parsed))
    return out


def trait_of(data: Any, label: str = "--trait") -> Trait:
    """Return a Trait from ``"KIND[/ON]=VALUE"`` text or a ``{kind, value, on}`` table.

    Raises:
        click.BadParameter: a malformed trait.
    """
    if isinstance(data, str):
        ((head, number),) = pairs((data,), "--trait", bound=BOUNDS["traits"])
        kind, _, after = head.partition("/")
        return Trait(
            kind=check_known("traits", kind, "--trait"), value=number, on=_on(after or None)
        )
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise click.BadParameter(
            say(
                msg(
                    "saga.sheet.trait_table",
                    "{label} must be a table with kind, value and maybe on, got {value}",
                    label=label,
                    value=_shown(data),
                )
            ),
            param_hint="--sheet",
        )
    check_keys(data, TRAIT_KEYS, label)
    on = data.get("on")
    if on is not None and not isinstance(on, str):
        raise click.BadParameter(_not_text(f"{label}.on", on), param_hint="--sheet")
    value = whole(data.get("value"), f"{label}.value", BOUNDS["traits"])
    return Trait(kind=check_known("traits", data["kind"], "--sheet"), value=value, on=_on(on))


def _on(on: str | None) -> str | None:
    """A trait's ``on``: an attribute or a weapon type given by any of its names becomes its id
    (``斬`` is ``slash``); anything else (``all``, ``spell`` …) stays as it is."""
    if on is None:
        return None
    found = key_of("attribute", on, cat.ATTRIBUTES)
    return found or key_of("weapon_type", on, cat.WEAPON_TYPES) or on


def check_keys(data: dict[str, Any], known: tuple[str, ...], where: Msg | str) -> None:
    """Refuse a key of ``data`` that is not in ``known`` (a typo would silently be ignored).

    Raises:
        click.BadParameter: naming the key, what it may have meant and the known keys.
    """
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = (
                msg("saga.sheet.did_you_mean", "; did you mean {key}?", key=_shown(close[0]))
                if close
                else ""
            )
            words = msg(
                "saga.sheet.unknown_key",
                "unknown key {key} in {where}{hint} (known: {known})",
                key=_shown(key),
                where=where,
                hint=hint,
                known=Listed(known, "comma"),
            )
            raise click.BadParameter(say(words), param_hint="--sheet")


def check_known(key: str, name: str, hint: str) -> str:
    """Return the id of a stat, weapon type, element or trait kind given by its id or by its
    glossary word in any language (``筋`` and ``근력`` are ``str``); refuse one the game does
    not have, with the closest name in any language.

    Args:
        key: The sheet key whose names are checked (``stats``, ``slv``, ``weapons``, ``five``,
            ``traits``).
        name: The name given (``luck`` in ``--stat luck=3``).
        hint: The option or ``--sheet``, named in the error.

    Returns:
        The id (``str``).

    Raises:
        click.BadParameter: ``SAGA-ATK-5: unknown stat 'luck' (known: str, …)`` (exit 2).
    """
    rule, what, known = _NAMES[key]
    kind = NAMED[what][0]
    found = key_of(kind, name, known)
    if found is not None:
        return found
    close = difflib.get_close_matches(name, words_of(kind, known), n=1)
    refusal = unknown_named(what, name, known, key_of(kind, close[0], known) if close else None)
    words = msg("core.usage.rule", "{rule}: {message}", rule=rule, message=refusal)
    raise click.BadParameter(say(words), param_hint=hint)


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    table = data.get(key, {})
    if not isinstance(table, dict):
        raise click.BadParameter(
            say(
                msg(
                    "saga.sheet.numbers_table",
                    "{key} must be a table of names and numbers, got {value}",
                    key=key,
                    value=_shown(table),
                )
            ),
            param_hint="--sheet",
        )
    return table


def _numbers(data: dict[str, Any], key: str, o: dict[str, Any]) -> dict[str, int]:
    """Return a sheet table of numbers merged with its repeated option (options win)."""
    found = {
        check_known(key, k, "--sheet"): whole(v, f"{key}.{k}", BOUNDS[key])
        for k, v in _table(data, key).items()
    }
    option = o.get(_OPTIONS[key][2:], ())
    given = pairs(tuple(option), _OPTIONS[key], bound=BOUNDS[key])
    found.update((check_known(key, name, _OPTIONS[key]), v) for name, v in given)
    return found


def _weapons(data: dict[str, Any], o: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    weapons: dict[str, tuple[int, ...]] = {}
    for name, value in _table(data, "weapons").items():
        kind = check_known("weapons", name, "--sheet")
        powers = value if isinstance(value, list) else [value]
        weapons[kind] = tuple(whole(p, f"weapons.{name}", BOUNDS["weapons"]) for p in powers)
    given: dict[str, list[int]] = {}
    for name, power in pairs(o.get("weapon", ()), "--weapon", bound=BOUNDS["weapons"]):
        given.setdefault(check_known("weapons", name, "--weapon"), []).append(power)
    weapons.update({kind: tuple(powers) for kind, powers in given.items()})
    return weapons


def _resistances(data: dict[str, Any], o: dict[str, Any]) -> dict[str, int]:
    resist = {
        key_of("attribute", k, cat.ATTRIBUTES) or k: whole(
            v, f"resistances.{k}", BOUNDS["resistances"]
        )
        for k, v in _table(data, "resistances").items()
    }
    given = parse_resistances(tuple(o.get("resist", ())))
    for attr, value in given.items():
        label = msg(
            "saga.sheet.resistance", "{attribute} resistance", attribute=term("attribute", attr)
        )
        whole(value, label, BOUNDS["resistances"], "--resist")
    resist.update(given)
    return resist


def _traits(data: dict[str, Any], o: dict[str, Any]) -> tuple[Trait, ...]:
    listed = data.get("traits", [])
    if not isinstance(listed, list):
        raise click.BadParameter(
            say(
                msg(
                    "saga.sheet.traits_list",
                    "traits must be a list of tables, got {value}",
                    value=_shown(listed),
                )
            ),
            param_hint="--sheet",
        )
    from_sheet = [
        trait_of(t, f"traits[{i}]") if not isinstance(t, str) else trait_of(t)
        for i, t in enumerate(listed)
    ]
    return tuple(from_sheet + [trait_of(t) for t in o.get("trait", ())])


def _rate(value: Any, hint: str) -> Fraction:
    """Return the HP floor rate (``50``, ``12.5``, ``"25/2"``) as an exact fraction.

    Outside 0..100 it is a usage error naming SAGA-HP-1 (issue 15 item 23).
    """
    if value is None:
        return Fraction(0)
    try:
        if isinstance(value, bool):
            raise ValueError
        rate = parse_number(str(value))
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(
            say(
                msg(
                    "saga.sheet.floor_rate",
                    "the HP floor rate must be a percentage such as 50 or 12.5, got {value}",
                    value=_shown(value),
                )
            ),
            param_hint=hint,
        ) from None
    return Fraction(parsed(check_floor_rate, rate, hint))


def _text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise click.BadParameter(_not_text(key, value), param_hint="--sheet")
    return value


def _not_text(key: str, value: Any) -> str:
    """The usage error's words for a sheet value that should be text (``race must be text``)."""
    return say(
        msg("saga.sheet.not_text", "{key} must be text, got {value}", key=key, value=_shown(value))
    )


def build_sheet(data: dict[str, Any], o: dict[str, Any]) -> UnitSheet:
    """Merge sheet-file data and options (options win) into a UnitSheet.

    Raises:
        click.BadParameter / click.UsageError: an unknown sheet key, a missing max HP, a
            malformed or out-of-bound value (naming the sheet key or the option).
    """
    check_keys(data, SHEET_KEYS, msg("saga.sheet.the_sheet", "the sheet"))

    def pick(key: str) -> int | None:
        if o.get(key) is not None:
            return o[key]  # type: ignore[no-any-return]  # bounded by the option's type
        if data.get(key) is None:
            return None
        return whole(data[key], key, BOUNDS[key])

    hp_max = pick("max_hp")
    if hp_max is None:
        raise click.UsageError(
            say(msg("saga.sheet.max_hp_required", "--max-hp (or max_hp in the sheet) is required"))
        )
    side = _text(data, "side")
    if side not in (None, "ally", "enemy"):
        raise click.BadParameter(
            say(
                msg(
                    "saga.sheet.side",
                    "side must be ally or enemy, got {value}",
                    value=_shown(side),
                )
            ),
            param_hint="--sheet",
        )
    hp = pick("hp")
    rate = (
        _rate(o["hp_floor_rate"], "--hp-floor-rate")
        if o.get("hp_floor_rate") is not None
        else _rate(data.get("hp_floor_rate"), "--sheet")
    )
    return UnitSheet(
        side="enemy" if o.get("enemy") or side == "enemy" else "ally",
        hp_max=hp_max,
        hp=hp_max if hp is None else hp,
        lp_max=pick("lp"),
        stats=_numbers(data, "stats", o),
        slv=_numbers(data, "slv", o),
        weapons=_weapons(data, o),
        resistances=_resistances(data, o),
        five=_numbers(data, "five", o),
        traits=_traits(data, o),
        race=o.get("race") if o.get("race") is not None else _text(data, "race"),
        hp_floor_rate=rate,
        intrinsic_hp=pick("intrinsic_hp"),
        battle_rank=pick("battle_rank"),
        guard_rate=pick("guard_rate") or 0,
        formation_attack=pick("formation_attack") or 0,
        formation_defense=pick("formation_defense") or 0,
    )
