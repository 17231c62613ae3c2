"""Fate entity records, typed: the shape of every value of ``state.characters`` (no items).

The records stay plain dicts (JSON-ready, the ``state --json`` view and the snapshots hold them
as they are); these TypedDicts let mypy check every key the fate code reads or writes, and the
contract test checks the records folded from real logs against them (``SYSTEM.records``).
Keys starting with ``_`` are private (not in ``state --json``).

Kinds (fate-codecast-phantasm.ko.txt; RULES.md FATE-*):

- :class:`Master`: a magus with a code-cast build (코드 캐스트 1.1; FATE-CC-1 … -10): circuit
  quality and quantity, crest, attributes, the power per magic kind and the judgment-tile pool,
  spells stored in the crest, the unique-ability character grade (고유 능력; FATE-UA-2).
- :class:`Servant`: a servant with an NP budget and madness enhancement (노블 판타즘 1.;
  FATE-NP-1, FATE-NP-4); servants have no code-cast tiles (``tiles`` 0).
- Both share :class:`CharacterBase`: HP, MP, tiles, chants (코드 캐스트 2.; FATE-CHANT-*), row
  (FATE-NP-7), timed :class:`Effect` s (FATE-CAST-5, -7, -8, FATE-NP-9), :class:`Phantasm` s by id
  (an NP of a servant or a master's unique ability, FATE-NP-1 … -13, FATE-UA-1/3), injury
  (FATE-CAST-9), a :class:`Field` (FATE-NP-10, -12) and an :class:`Army` (FATE-NP-11) when one is
  up, and the private judgment bookkeeping of a battle (FATE-NP-6, -8, -9, -13, -14).

Text fields that name a closed set (``row``, an effect's ``kind``, an NP's ``type``, ``form`` and
``release``) are ``str``: the events record them as ``str``, and the deciders and the CLI admit
only the values each field's comment names.
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from tablelog.projections.core import State

__all__ = [
    "Army",
    "Character",
    "CharacterBase",
    "Effect",
    "Extra",
    "Field",
    "Master",
    "Phantasm",
    "PhantasmNumbers",
    "Servant",
    "characters",
    "extra_of",
    "find",
    "madness",
    "up_np",
]


class Effect(TypedDict):
    """A timed effect on a character (FATE-CAST-5, -7, -8, FATE-NP-9): ``turns_left`` None lasts
    until the battle ends; ``per_turn`` caps the tiles that meet hits in one turn; ``counter`` is
    an EX defensive NP's counter (``{"hp", "np_hp", "round"}``)."""

    id: int
    kind: str  # "defense", "buff", "curse" or "np-defense"
    grade: int
    tiles: int
    turns_left: int | None
    target: str
    source: str
    block_hp: int
    block_mp: int
    injury: bool
    per_turn: int | None
    chanted: bool
    counter: dict[str, int] | None


class PhantasmNumbers(TypedDict):
    """The numbers a PhantasmAdded gave an NP (FATE-NP-2, -5 … -9, -12, -13): ``targets`` None is
    the whole front row (FATE-NP-7); ``mp_formula`` how the MP cost was reached."""

    points: int
    mp_cost: int
    hp_per_tile: int
    mp_per_tile: int
    targets: int | None
    tiles: int
    block_per_tile: int
    mp_formula: str


class Phantasm(PhantasmNumbers):
    """A Noble Phantasm (a servant's) or a unique ability (a master's, ``unique``), by its id:
    its grade, type, form and release, its numbers, ``mods`` the modifiers by key (a flag, a
    number or text, FATE-NP-13), ``starting`` a master's starting ability (FATE-UA-3)."""

    grade: str
    type: str  # an NP type: anti-unit … anti-world, army, field (FATE-NP-3)
    form: str  # "attack" or "defense"
    release: str  # "true-name" or "always"
    mods: dict[str, int | bool | str]
    unique: bool
    starting: bool


class Field(TypedDict):
    """A bounded field up (FATE-NP-10, -12): its NP, grade, whether a reality marble, whether the
    release used the grade's plus, and the round it went up in."""

    np: str
    grade: str
    reality_marble: bool
    plus_used: bool
    round: int


class Army(TypedDict):
    """An army out (FATE-NP-11), or an NP's familiars (``familiars``, no upkeep)."""

    np: str
    units: int
    free_units: int
    stat_points: int
    upkeep_per_round: int
    round: int
    plus_used: bool
    familiars: bool


class CharacterBase(TypedDict):
    """What masters and servants both have (see the module docstring).

    Private: ``_np_turn`` ``[round, turn]`` of the last true-name release and ``_acted``
    ``[round, turn, what]`` of the last other judgment (FATE-NP-14); ``_released`` NP id -> its
    once-per-release ability is ready (FATE-NP-13); ``_wounds`` wound -> injury grades;
    ``_always_uses`` NP id -> uses this round (FATE-NP-8); ``_battle_uses`` always-active
    defensive NPs used this battle (FATE-NP-9); ``_turn_use`` effect id -> tiles a per-turn
    effect gave this turn.
    """

    hp: int
    hp_max: int
    mp: int
    mp_max: int
    chants: int
    row: str  # "front" or "back"
    effects: list[Effect]
    phantasms: dict[str, Phantasm]
    anti_magic: int
    injury: int
    field: Field | None
    army: Army | None
    tiles: int
    tiles_max: int
    _np_turn: list[int] | None
    _acted: list[int | str] | None
    _released: dict[str, bool]
    _wounds: dict[str, int]
    _always_uses: dict[str, int]
    _battle_uses: list[str]
    _turn_use: dict[str, int]


class Master(CharacterBase):
    """A master (코드 캐스트 1.1; FATE-CC-1 … -10, FATE-UA-2): ``power`` of the circuit quality,
    ``powers`` by magic kind, ``stored`` kind -> grade of a spell in the crest, ``none_kind`` the
    kind an attribute ``none`` picked, ``cc_budget`` the CC the build had."""

    role: Literal["master"]
    quality: str
    quantity: str
    crest: str
    attributes: list[str]
    none_kind: str | None
    power: int
    powers: dict[str, int]
    hollow: bool
    stored: dict[str, int]
    character_grade: int
    cc_budget: int


class Servant(CharacterBase):
    """A servant (노블 판타즘 1.; FATE-NP-1, FATE-NP-4): ``madness`` its madness-enhancement grade,
    ``raging`` whether it is on, ``np_points`` spent of ``np_budget``."""

    role: Literal["servant"]
    madness: str | None
    raging: bool
    np_budget: int
    np_points: int


Character = Master | Servant
"""A fate character record; ``role`` tells which."""


class Extra(TypedDict):
    """The fate part of ``state.extra`` (private, not an entity): the id the next raised effect
    gets, and the ids of the casts and releases in effect (the seqs of their events; negative for
    a v1 log), which outcomes name as their ``cause``: a set, so a long campaign's many casts
    cost each event one look-up, not a walk through all of them."""

    next_effect: int
    actions: set[int]


def characters(state: State) -> dict[str, Character]:
    """Return the state's characters, typed (the same dict: changes go to the state)."""
    return cast("dict[str, Character]", state.characters)


def extra_of(state: State) -> Extra:
    """Return the fate part of ``state.extra``, typed (the same dict); ``init_state`` made it."""
    return cast("Extra", state.extra["fate"])


def find(state: State, name: str) -> Character | None:
    """Return the character ``name``, or None when there is none (evolvers skip it)."""
    return characters(state).get(name)


def madness(who: Character) -> str | None:
    """Return the grade of a servant's madness enhancement (FATE-NP-4); None for a servant
    without one and for a master."""
    return who["madness"] if who["role"] == "servant" else None


def up_np(up: Field | Army | None) -> str | None:
    """Return the NP id of a field or army that is up, or None when none is."""
    return None if up is None else up["np"]
