"""Modifiers of a Noble Phantasm: the special abilities the seed states with numbers, as data.

The seed lets each NP carry special abilities agreed with the GM (노블 판타즘 2.③). The ones the
seed states with numbers are declared on the NP as ``--mod KEY=VALUE`` (FATE-NP-13), one way for
every NP: :data:`MODS` says, for each key, its value's shape, which NPs it fits and what it does;
the deciders read the parsed :class:`NPMods`, never an NP's name. The keys and the seed examples
they come from:

==========================  ================================================================
``concealment=true``        −2 HP per tile (인비지블 에어's [은폐]: one grade less damage)
``hp-per-tile=N``           add N (may be negative) to the HP damage per tile
``mp-per-tile=N``           add N to the MP damage per tile
``piercing=true``           each ``+`` adds 5 HP per tile instead of 3 MP (게 불그's [관통])
``damage=none``             the NP deals no damage (룰 브레이커)
``targets=N``               targets per release instead of the type's number
``mp-cost=N``               add N to the release MP cost
``ignores-defense=true``    defense tiles cannot reduce it; anti-magic does (자바니야's [영체타격])
``reality-marble=true``     the field or army is a reality marble (고유결계)
``upkeep-per-unit=N``       add N to an army's upkeep per unit per round (왕의 군세's [보급]: −1)
``widen=TYPE``              with ``--use-plus``, as many targets as a TYPE NP, same MP (게 불그's
                            [확장]: anti-army)
``plus-hp=N``               with ``--use-plus``, N more HP per tile (엑스칼리버's [위력Ⅰ]: 2)
``plus-mp=N``               with ``--use-plus``, each ``+`` adds N MP per tile instead of 3
                            (엑스칼리버's [위력Ⅱ]: 6)
``wound=N``                 a hit that deals HP damage also gives N injury grades (게 보's
                            [부상]: 1) …
``wound-max=N``             … up to N from this NP on one target (게 보: 4)
``drain=N``                 a field: everyone else loses N HP at each round start (블러드포트
                            안드로메다's [고갈Ⅰ]: 8)
``drain-offset=true``       each anti-magic grade cancels 2 HP of the drain ([상쇄])
``absorb=true``             the owner gains half the HP drained as MP ([흡수])
``shot-mp=N``               a field: ``fate use … shoot`` turns a judgment into critical:attack
                            for N MP a shot (게이트 오브 바빌론, 무한의 검제's [사격]: 5) …
``shots=N``                 … up to N shots in one judgment (게이트 오브 바빌론: 2)
``familiar-mp=N``           an army: each release summons ``--units`` familiars at N MP each,
                            no limit, no upkeep (프렐라티즈 스펠북's [소환]: 5) …
``familiar-discount=N``     … N MP less each ([지원]: 2) …
``familiar-points=N``       … each a unit of N stat points (3)
``charge-mp=N``             an attack NP: once per release, ``fate use … charge`` deals N-tile
                            NP damage for N MP (고르디어스 휠's [선회]: 20 MP) …
``charge-tiles=N``          … of N tiles (3)
``ignores-attacks=true``    an always-active defensive NP of grade B or lower raises no
                            critical:defense tiles and ignores attacks of its grade or lower
                            (갓 핸드; FATE-NP-15)
==========================  ================================================================

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 2.③, 3.②, 5. and 5-2. (examples); FATE-NP-13,
FATE-NP-15.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from tablelog.rules.core import RuleViolation, require
from tablelog.rules.fate.text import listing
from tablelog.text import Listed, Term, msg

__all__ = [
    "NPMods",
    "ModSpec",
    "MODS",
    "parse_mods",
    "typed_mods",
    "mod_texts",
    "MOD_KEYS",
    "check_mods_fit",
]


@attrs.frozen
class NPMods:
    """Parsed NP modifiers (see the module docstring for the keys)."""

    hp_per_tile: int = 0
    mp_per_tile: int = 0
    piercing: bool = False
    no_damage: bool = False
    targets: int | None = None
    mp_cost: int = 0
    ignores_defense: bool = False
    reality_marble: bool = False
    upkeep_per_unit: int = 0
    widen: str | None = None
    plus_hp: int = 0
    plus_mp: int | None = None
    wound: int = 0
    wound_max: int | None = None
    drain: int = 0
    drain_offset: bool = False
    absorb: bool = False
    shot_mp: int | None = None
    shots: int = 1
    familiar_mp: int | None = None
    familiar_discount: int = 0
    familiar_points: int = 0
    charge_mp: int | None = None
    charge_tiles: int = 1
    ignores_attacks: bool = False

    @property
    def plus_abilities(self) -> bool:
        """True when the NP has an ability that ``--use-plus`` sets off on an attack."""
        return self.widen is not None or bool(self.plus_hp) or self.plus_mp is not None


@attrs.frozen
class ModSpec:
    """What one modifier key is.

    Attributes:
        field: The :class:`NPMods` attribute it sets.
        kind: ``"int"``, ``"flag"`` or ``"choice"``.
        fits: The NPs it may be declared on: ``"any"``, ``"attack"`` (attack NPs of an attack
            type), ``"field"``, ``"army"``, ``"marble"`` (field or army), ``"always-defense"``.
        minimum: The smallest number taken (``int``).
        choices: The values taken (``choice``).
    """

    field: str
    kind: str
    fits: str = "any"
    minimum: int = -1000
    choices: tuple[str, ...] = ()


MODS: dict[str, ModSpec] = {
    "concealment": ModSpec("concealment", "flag", "attack"),
    "hp-per-tile": ModSpec("hp_per_tile", "int", "attack"),
    "mp-per-tile": ModSpec("mp_per_tile", "int", "attack"),
    "piercing": ModSpec("piercing", "flag", "attack"),
    "damage": ModSpec("no_damage", "choice", "attack", choices=("none", "normal")),
    "targets": ModSpec("targets", "int", "attack", minimum=1),
    "mp-cost": ModSpec("mp_cost", "int"),
    "ignores-defense": ModSpec("ignores_defense", "flag", "attack"),
    "reality-marble": ModSpec("reality_marble", "flag", "marble"),
    "upkeep-per-unit": ModSpec("upkeep_per_unit", "int", "army"),
    "widen": ModSpec(
        "widen", "choice", "attack", choices=("anti-army", "anti-fortress", "anti-country")
    ),
    "plus-hp": ModSpec("plus_hp", "int", "attack"),
    "plus-mp": ModSpec("plus_mp", "int", "attack", minimum=0),
    "wound": ModSpec("wound", "int", "attack", minimum=0),
    "wound-max": ModSpec("wound_max", "int", "attack", minimum=1),
    "drain": ModSpec("drain", "int", "field", minimum=0),
    "drain-offset": ModSpec("drain_offset", "flag", "field"),
    "absorb": ModSpec("absorb", "flag", "field"),
    "shot-mp": ModSpec("shot_mp", "int", "field", minimum=0),
    "shots": ModSpec("shots", "int", "field", minimum=1),
    "familiar-mp": ModSpec("familiar_mp", "int", "army", minimum=0),
    "familiar-discount": ModSpec("familiar_discount", "int", "army", minimum=0),
    "familiar-points": ModSpec("familiar_points", "int", "army", minimum=0),
    "charge-mp": ModSpec("charge_mp", "int", "attack", minimum=0),
    "charge-tiles": ModSpec("charge_tiles", "int", "attack", minimum=1),
    "ignores-attacks": ModSpec("ignores_attacks", "flag", "always-defense"),
}
"""Every modifier key (the module docstring says what each does and where the seed states it)."""

MOD_KEYS = tuple(MODS)
_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}
_FITS = {
    "attack": msg("fate.mod.fits_attack", "an attack NP"),
    "field": msg("fate.mod.fits_field", "a bounded field"),
    "army": msg("fate.mod.fits_army", "an army"),
    "marble": msg("fate.mod.fits_marble", "a bounded field or an army"),
    "always-defense": msg("fate.mod.fits_always_defense", "an always-active defensive NP"),
}


ModValue = int | bool | str
"""A modifier's value as the state holds it: a number, true/false, or a word (``none``)."""


MOD_LIMIT = 1000
"""The largest size of a numeric modifier: far past any NP of the seed (its examples move a number
by 1 to 20), small enough that every figure computed from it can be stored."""


def _as_int(key: str, value: ModValue, minimum: int) -> int:
    text = str(value).strip()
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif len(text) > 12:  # not converted: a 5,000-digit text is refused as it stands
        number = MOD_LIMIT + 1
    else:
        try:
            number = int(text)
        except ValueError:
            raise RuleViolation(
                "FATE-NP-13",
                msg(
                    "fate.mod.not_a_number",
                    "modifier {key}={value} needs a whole number (e.g. {key}=-2)",
                    key=key,
                    value=value,
                ),
            ) from None
    require(
        -MOD_LIMIT <= number <= MOD_LIMIT,
        "FATE-NP-13",
        msg(
            "fate.mod.out_of_range",
            "modifier {key}={value}: a number from -{most} to {most}",
            key=key,
            value=text[:20],
            most=MOD_LIMIT,
        ),
    )
    require(
        number >= minimum,
        "FATE-NP-13",
        msg(
            "fate.mod.below_minimum",
            "modifier {key}={value} is below {minimum}{why}",
            key=key,
            value=number,
            minimum=minimum,
            why=msg("fate.mod.one_target", ": an NP hits at least one target")
            if key == "targets"
            else "",
        ),
    )
    return number


def _as_flag(key: str, value: ModValue) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    require(
        text in _TRUE | _FALSE,
        "FATE-NP-13",
        msg(
            "fate.mod.not_a_flag",
            "modifier {key}={value} needs true or false",
            key=key,
            value=value,
        ),
    )
    return text in _TRUE


def _as_choice(key: str, value: ModValue, choices: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    require(
        text in choices,
        "FATE-NP-13",
        msg(
            "fate.mod.not_a_choice",
            "modifier {key}={value}: use {choices}",
            key=key,
            value=value,
            choices=listing(choices, "or"),
        ),
    )
    return text


def typed_mods(mods: Mapping[str, ModValue]) -> dict[str, ModValue]:
    """Return the modifiers with typed values: numbers as ints, flags as bools, words as text
    (what the state and its JSON hold).

    Raises:
        RuleViolation: FATE-NP-13 for an unknown key or a value of the wrong shape.

    Source: FATE-NP-13 (modifiers recorded on the NP).
    """
    out: dict[str, ModValue] = {}
    for key, value in mods.items():
        spec = MODS.get(key)
        if spec is None:
            raise RuleViolation(
                "FATE-NP-13",
                msg(
                    "fate.mod.unknown",
                    "unknown modifier {key} (known: {keys})",
                    key=key,
                    keys=Listed(MOD_KEYS, "comma"),
                ),
            )
        if spec.kind == "int":
            out[key] = _as_int(key, value, spec.minimum)
        elif spec.kind == "flag":
            out[key] = _as_flag(key, value)
        else:
            out[key] = _as_choice(key, value, spec.choices)
    return out


def mod_texts(mods: Mapping[str, ModValue]) -> dict[str, str]:
    """Return the modifiers as canonical text (``-2``, ``true``, ``none``), as events record them.

    Raises:
        RuleViolation: FATE-NP-13 as :func:`typed_mods`.
    """
    return {
        key: (str(value).lower() if isinstance(value, bool) else str(value))
        for key, value in typed_mods(mods).items()
    }


def parse_mods(mods: Mapping[str, ModValue]) -> NPMods:
    """Parse ``{key: value}`` modifiers (text as typed, or typed values) into :class:`NPMods`.

    Raises:
        RuleViolation: FATE-NP-13 for an unknown key or a value of the wrong shape.

    Source: 노블 판타즘 5. (e.g. 피해점이 2점 낮아지는 대신 [은폐]); FATE-NP-13.
    """
    fields: dict[str, object] = {}
    for key, value in typed_mods(mods).items():
        fields[MODS[key].field] = value == "none" if key == "damage" else value
    concealed = fields.pop("concealment", False)
    result = NPMods(**fields)  # type: ignore[arg-type]
    return attrs.evolve(result, hp_per_tile=result.hp_per_tile - (2 if concealed else 0))


def check_mods_fit(mods: Mapping[str, ModValue], np_type: str, form: str, release: str) -> None:
    """Refuse a modifier declared on an NP it does not fit (``drain`` on an anti-unit NP …).

    Raises:
        RuleViolation: FATE-NP-13 naming the key and the NPs it fits.

    Source: 노블 판타즘 2.③ (특수 능력 … 진행자와의 상의 하에 조율); FATE-NP-13, FATE-NP-15.
    """
    attack = form == "attack" and np_type not in ("army", "field")
    kinds = {
        "any": True,
        "attack": attack,
        "field": np_type == "field",
        "army": np_type == "army",
        "marble": np_type in ("army", "field"),
        "always-defense": form == "defense" and release == "always",
    }
    for key in mods:
        fits = MODS[key].fits if key in MODS else "any"
        if kinds[fits]:
            continue
        what = {"key": key, "fits": _FITS.get(fits), "np_type": Term("fate.np_type", np_type)}
        raise RuleViolation(
            "FATE-NP-13",
            msg(
                "fate.mod.misfit_always",
                "modifier {key} is for {fits}, not an always-active {np_type} {form} NP",
                **what,
                form=Term("fate.form", form),
            )
            if release == "always"
            else msg(
                "fate.mod.misfit_true_name",
                "modifier {key} is for {fits}, not a true-name {np_type} {form} NP",
                **what,
                form=Term("fate.form", form),
            ),
        )
