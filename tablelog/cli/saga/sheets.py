"""Unit sheets for ``saga unit add``: a JSON or TOML file and/or options, merged into a
:class:`~tablelog.events.saga.UnitSheet` (options win over the file).

Sheet keys (all optional except ``max_hp`` when no ``--max-hp`` is given): ``side``
(``ally``/``enemy``), ``max_hp``, ``hp``, ``lp``, ``stats`` {ability: N}, ``slv``
{weapon type: N}, ``weapons`` {weapon type: N or [N, N]}, ``resistances`` {attribute: N},
``five`` {element: N}, ``traits`` [{kind, value, on?}], ``race``, ``hp_floor_rate``,
``intrinsic_hp``, ``battle_rank``, ``guard_rate``, ``formation_attack``, ``formation_defense``.
See docs/saga.md.
"""

from __future__ import annotations

import json
import pathlib
import tomllib
from fractions import Fraction
from typing import Any

import click

from tablelog.cli.saga.calc_inputs import parse_resistances
from tablelog.events.saga import Trait, UnitSheet

__all__ = ["build_sheet", "pairs", "read_sheet", "trait_of"]


def read_sheet(path: str) -> dict[str, Any]:
    """Return the sheet file's data (``.toml`` read as TOML, anything else as JSON).

    Raises:
        click.BadParameter: an unreadable file or one that does not parse to a table.
    """
    file = pathlib.Path(path)
    try:
        text = file.read_text(encoding="utf-8")
        data = tomllib.loads(text) if file.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="--sheet") from None
    if not isinstance(data, dict):
        raise click.BadParameter(f"{path}: a sheet is a table of keys", param_hint="--sheet")
    return data


def pairs(values: tuple[str, ...], option: str, number: bool = True) -> list[tuple[str, Any]]:
    """Split ``KEY=VALUE`` option values (VALUE an int when ``number``).

    Raises:
        click.BadParameter: a value without ``=`` or with a non-integer number.
    """
    out = []
    for text in values:
        key, sep, value = text.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{text!r}: expected KEY=VALUE", param_hint=option)
        try:
            out.append((key.strip(), int(value) if number else value.strip()))
        except ValueError:
            raise click.BadParameter(
                f"{text!r}: {value!r} is not an integer", param_hint=option
            ) from None
    return out


def trait_of(data: Any) -> Trait:
    """Return a Trait from ``"KIND[/ON]=VALUE"`` text or a ``{kind, value, on}`` table.

    Raises:
        click.BadParameter: a malformed trait.
    """
    try:
        if isinstance(data, str):
            ((head, value),) = pairs((data,), "--trait")
            kind, _, on = head.partition("/")
            return Trait(kind=kind, value=value, on=on or None)
        return Trait(kind=str(data["kind"]), value=int(data["value"]), on=data.get("on"))
    except (KeyError, TypeError, ValueError):
        raise click.BadParameter(f"bad trait {data!r}", param_hint="--trait") from None


def _weapons(data: dict[str, Any], o: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    raw = data.get("weapons", {})
    weapons = {k: tuple(v) if isinstance(v, list) else (int(v),) for k, v in raw.items()}
    given: dict[str, list[int]] = {}
    for kind, power in pairs(o.get("weapon", ()), "--weapon"):
        given.setdefault(kind, []).append(power)
    weapons.update({kind: tuple(powers) for kind, powers in given.items()})
    return weapons


def _resistances(data: dict[str, Any], o: dict[str, Any]) -> dict[str, int]:
    resist = dict(data.get("resistances", {}))
    resist.update(parse_resistances(tuple(o.get("resist", ()))))
    return resist


def build_sheet(data: dict[str, Any], o: dict[str, Any]) -> UnitSheet:
    """Merge sheet-file data and options (options win) into a UnitSheet.

    Raises:
        click.BadParameter / click.UsageError: a missing max HP or a malformed value.
    """

    def pick(key: str, option: str | None = None) -> Any:
        value = o.get(option or key)
        return value if value is not None else data.get(key)

    hp_max = pick("max_hp")
    if hp_max is None:
        raise click.UsageError("--max-hp (or max_hp in the sheet) is required")
    weapons, resist = _weapons(data, o), _resistances(data, o)
    enemy = o.get("enemy") or data.get("side") == "enemy"
    try:
        return UnitSheet(
            side="enemy" if enemy else "ally",
            hp_max=int(hp_max),
            hp=int(pick("hp") or hp_max),
            lp_max=None if pick("lp") is None else int(pick("lp")),
            stats={**data.get("stats", {}), **dict(pairs(o.get("stat", ()), "--stat"))},
            slv={**data.get("slv", {}), **dict(pairs(o.get("slv", ()), "--slv"))},
            weapons=weapons,
            resistances=resist,
            five={**data.get("five", {}), **dict(pairs(o.get("five", ()), "--five"))},
            traits=tuple(trait_of(t) for t in [*data.get("traits", []), *o.get("trait", ())]),
            race=pick("race"),
            hp_floor_rate=Fraction(str(pick("hp_floor_rate") or 0)),
            intrinsic_hp=pick("intrinsic_hp"),
            battle_rank=pick("battle_rank"),
            guard_rate=int(pick("guard_rate") or 0),
            formation_attack=int(pick("formation_attack") or 0),
            formation_defense=int(pick("formation_defense") or 0),
        )
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        raise click.BadParameter(f"bad unit sheet value: {exc}") from None
