"""The declaration of a rule system: everything the core needs to know about it, in one value.

A system lives in its own modules, one per layer (docs/ARCHITECTURE.md); its declaration module
(``tablelog/systems/<system>.py``) gathers them into one :class:`System`, and the registry
(:mod:`tablelog.systems`) names that module in one line. The core (session, replay, CLI, server)
reads a system only through its :class:`System`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import attrs
import click

from tablelog.commands.core import deciders
from tablelog.events.core import Event, registered_types
from tablelog.lang import say
from tablelog.projections.core import State, evolvers, preconditions
from tablelog.rules.core import RuleViolation
from tablelog.text import Msg, msg

__all__ = [
    "System",
    "Hidden",
    "Headline",
    "StatusView",
    "Handlers",
    "handlers",
    "lazy",
    "lazy_group",
    "string_options",
    "parsed",
]

Handler = Callable[[Any, Any], Any]


@attrs.frozen
class Hidden:
    """What a seat that is not the GM's may not see of a table (SERVER.md §3).

    Attributes:
        owner_fields: Entity fields (lists) only the owner's seats see; to others each element
            shows as ``"?"`` and the list keeps its length (magicpunk's ``hand``, ``cards``).
        owner_events: Event type -> ``(owner field, whether it names an item, list fields)``:
            the list fields of such a log record show as ``"?"`` to seats that do not own it.
        enemy_fields: Fields of a character whose ``side`` is ``"enemy"`` that are ``null`` to
            players and observers (saga's HP and LP).
        enemy_sheets: Event type -> ``(sheet fields, data fields)`` nulled in a log record whose
            ``data.sheet.side`` is ``"enemy"``.
        enemy_events: Event type -> ``(unit field, data fields)``: the data fields are ``null``
            to players and observers in a log record whose unit field names an enemy (what a
            hit took off its hidden HP tells that HP: saga's ``hp_lost``).
        drawn: Event type -> the list fields that hold cards drawn from the draw pile: ``"?"``
            in a preview (a dry run) to every seat, the GM's too (the pile's order is no seat's).
        rolled: Event type -> ``(target field, dealer field or "", damage field)``: the damage
            such an event rolled, public even when its target's HP is hidden (the game shows
            it): a report for a seat that may not see the target's HP counts it as the damage
            the dealer rolled against hidden enemies, never as HP lost (saga's hits and
            poison; a redacted record's texts are each system's ``describes_redacted``).
    """

    owner_fields: tuple[str, ...] = ()
    owner_events: Mapping[str, tuple[str, bool, tuple[str, ...]]] = attrs.Factory(dict)
    enemy_fields: tuple[str, ...] = ()
    enemy_sheets: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = attrs.Factory(dict)
    enemy_events: Mapping[str, tuple[str, tuple[str, ...]]] = attrs.Factory(dict)
    drawn: Mapping[str, tuple[str, ...]] = attrs.Factory(dict)
    rolled: Mapping[str, tuple[str, str, str]] = attrs.Factory(dict)


@attrs.frozen
class Headline:
    """A total a table of one system cares about.

    ``measure``: ``events`` (how many events of ``types``), ``actions`` (how many commands hold
    one), ``added``/``removed`` (list elements that entered or left ``field`` of any character
    or item), ``gained``/``lost`` (the sum of a figure's rises or falls). ``types`` empty: any
    event.
    """

    label: Msg
    measure: str
    types: tuple[str, ...] = ()
    field: str = ""


@attrs.frozen
class StatusView:
    """How ``tablelog status`` shows a system (from the JSON state, SPEC).

    Attributes:
        line: ``fn(name, record) -> parts``: the figures of one character or item, each a
            sentence as data (:class:`~tablelog.text.Msg`) or a plain string (a name); a part
            that reads as nothing is left out.
        clock: ``fn(state_json) -> Msg``: the clock line (None: no clock line).
    """

    line: Callable[[str, dict[str, Any]], list[Msg | str]]
    clock: Callable[[dict[str, Any]], Msg | str] | None = None


@attrs.frozen
class Handlers:
    """A system's catalogue of event types and its evolver, precondition and decider tables."""

    events: tuple[type[Event], ...]
    evolvers: Mapping[type, Handler]
    preconditions: Mapping[type, Handler]
    deciders: Mapping[type, Handler]


@attrs.frozen
class System:
    """One rule system, as the core sees it.

    Attributes:
        name: The system id (``--system``, the log header, the event type prefix).
        title: Its name in prose ("Pathfinder 2e"); its doc is docs/<system>.md.
        description: One line (``init --help``, error messages).
        handlers: Its event types and its evolver, precondition and decider tables.
        init_state: ``fn(state, options)``: set up a new session's state from the ``init``
            options (raises RuleViolation or ValueError for a bad option).
        group: Returns the ``tablelog <system>`` click group (imported when first used).
        options: The ``init`` options it takes, as click options (strings, kept in the header).
        check_options: ``fn(options)`` checking a header's options beyond their names (raises
            ValueError or RuleViolation); None: only the names and that each is a string.
        to_json: ``fn(state) -> dict`` rendering ``state --json`` (None: the generic one).
        data_files: The packaged data files its rules read (``tablelog/rules/data/…``): part
            of its snapshot key.
        code: The packages whose source is part of its snapshot key (its events, projection
            and rules).
        acts_for: Command class -> the field naming the acting character: a player seat may
            issue it for one of its own characters; every other system command is the GM's.
        hidden: What seats other than the GM's may not see.
        headlines: The totals the session report shows first for it (``tablelog report``).
        status: Returns its :class:`StatusView` (imported when first used; None: HP only).
        rule_ids: The rule IDs its refusals and events may name beyond the core's (None: the
            entries of ``tablelog/rules/data/rules.toml`` for this system).
        records: The TypedDicts of its entity records (``characters`` and ``items`` values):
            each record the evolvers build is one of them (docs/NEW-SYSTEM.md, "State and typed
            state").
        texts: The module of its events' texts (:mod:`tablelog.texts`), imported when a face
            first describes one of its events.
        vocabulary: Kind of word -> ``fn(state or None) -> words``: the catalogue an unknown
            word of that kind (:class:`~tablelog.rules.core.Unknown`) may have meant
            (``"rune"``, ``"tech"`` …); the table's names are the core's.
        suggest: ``fn(violation, state) -> (suggestions, hint) or None``: what a refusal of
            its rules points to beyond "did you mean" (magicpunk: the holder's cards).
        adds: Command class -> the field holding the name it adds to the table (a character,
            an item, a unit): the decide step refuses a name that differs from a taken one
            only by case unless the command's ``force`` is set (CORE-NAME).
        shown: A character's or item's field -> ``fn(value, record or None) -> value``: the
            value as the text views show it (``state``, ``status``, a change's old and new
            value; ``record`` is the whole record where the view has it): a
            :class:`~tablelog.text.Shown` each language writes its own way (pf2e: an item's
            generated name). JSON shows the value as it is.
        sheet: Returns its :class:`~tablelog.texts.sheet.Sheet` (how its records read: the
            page, the ccfolia and Udonarium exports), or None.
        given: Command class -> ``(field, table option)`` pairs: the fields that report what
            was drawn or rolled at the table instead of tablelog (``--cards``, ``--dice``,
            ``--roll``), each a player seat may fill only when the table allows its option
            (CORE-GIVEN); the options listed are the ones ``table allow`` takes for it.
        rolled: Event type tag -> ``fn(record data) -> bool``: whether such a record's outcome
            was drawn or rolled by tablelog (not given): a player may not undo or redo its
            own action holding one (CORE-REROLL).
        blind: Command class -> ``fn(command) -> command``: what a player's dry run of it is
            decided as, so that its answer never depends on what the seat may not see
            (CORE-UNSEEN; magicpunk: a draw of given cards as a draw of as many unseen ones).
        stand_ins: ``fn(state, hidden)``: replace in place (on a copy) what seats but the GM's
            may not see of the units named ``hidden`` (the enemies) by stand-ins, for a
            player's dry run (CORE-UNSEEN; saga: stand-in HP and LP); None: nothing to replace.
    """

    name: str
    title: str
    description: str
    handlers: Handlers
    init_state: Callable[[State, dict[str, Any]], None]
    group: Callable[[], click.Group]
    options: tuple[click.Option, ...] = ()
    check_options: Callable[[dict[str, Any]], None] | None = None
    to_json: Callable[[State], dict[str, Any]] | None = None
    data_files: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    acts_for: Mapping[type, str] = attrs.Factory(dict)
    hidden: Hidden = Hidden()
    headlines: tuple[Headline, ...] = ()
    status: Callable[[], StatusView] | None = None
    rule_ids: frozenset[str] | None = None
    records: tuple[type, ...] = ()
    texts: str = ""
    vocabulary: Mapping[str, Callable[[Any], Any]] = attrs.Factory(dict)
    suggest: Callable[[Any, State], Any] | None = None
    adds: Mapping[type, str] = attrs.Factory(dict)
    shown: Mapping[str, Callable[[Any, Mapping[str, Any] | None], Any]] = attrs.Factory(dict)
    sheet: Callable[[], Any] | None = None
    given: Mapping[type, tuple[tuple[str, str], ...]] = attrs.Factory(dict)
    rolled: Mapping[str, Callable[[Mapping[str, Any]], bool]] = attrs.Factory(dict)
    blind: Mapping[type, Callable[[Any], Any]] = attrs.Factory(dict)
    stand_ins: Callable[[State, frozenset[str]], None] | None = None

    @property
    def table_options(self) -> tuple[str, ...]:
        """The table options its commands offer (``given-cards`` …), in the core's order."""
        from tablelog.events.core import GIVEN_OPTIONS

        named = {option for pairs in self.given.values() for _, option in pairs}
        return tuple(option for option in GIVEN_OPTIONS if option in named)

    @property
    def option_names(self) -> tuple[str, ...]:
        """The names of the ``init`` options (``clock``, ``deck`` …)."""
        return tuple(str(option.name) for option in self.options)


def parsed(parse: Callable[[Any], Any], value: Any, option: str) -> Any:
    """Return ``parse(value)``; a value the parser refuses is a usage error, not a refusal.

    A word or a number the game has no such thing as (an unknown rule name, card code, rank or
    notation) is the same kind of mistake in every system: exit 2 (issue 15 item 23).

    Args:
        parse: A rule module's parser of the option's text (it raises :class:`RuleViolation`).
        value: The text given.
        option: The option or argument named in the error (``--rules``, ``NOTATION``).

    Raises:
        click.BadParameter: ``Invalid value for OPTION: RULE-ID: message`` (exit 2).
    """
    try:
        return parse(value)
    except RuleViolation as exc:
        words = say(msg("core.usage.rule", "{rule}: {message}", rule=exc.rule_id, message=exc.msg))
        raise click.BadParameter(words, param_hint=option) from None


def handlers(*packages: str) -> Handlers:
    """Collect the event types, evolvers, preconditions and deciders of ``packages``.

    Imports every module of each package (a plain module counts as one), then keeps the event
    classes and command classes defined there, with the functions registered for them.

    Args:
        packages: Dotted names: the system's events, projection and commands packages.

    Returns:
        The tables: event classes by type tag order, ``{event class: fn}`` evolvers and
        preconditions, ``{command class: fn}`` deciders.
    """
    names = [module.__name__ for package in packages for module in _modules(package)]

    def own(cls: type) -> bool:
        return any(cls.__module__ == n or cls.__module__.startswith(n + ".") for n in names)

    events = tuple(cls for cls in registered_types().values() if own(cls))
    return Handlers(
        events=events,
        evolvers={cls: fn for cls, fn in evolvers().items() if cls in events},
        preconditions={cls: fn for cls, fn in preconditions().items() if cls in events},
        deciders={cls: fn for cls, fn in deciders().items() if own(cls)},
    )


def _modules(name: str) -> list[ModuleType]:
    """Import ``name`` and, for a package, every module below it."""
    top = importlib.import_module(name)
    found = [top]
    for info in pkgutil.walk_packages(getattr(top, "__path__", []), prefix=f"{name}."):
        found.append(importlib.import_module(info.name))
    return found


def lazy(module: str, name: str) -> Callable[[], Any]:
    """Return a function that imports ``module`` and returns its attribute ``name``."""

    def load() -> Any:
        return getattr(importlib.import_module(module), name)

    return load


def lazy_group(module: str) -> Callable[[], click.Group]:
    """Return a function that imports ``module`` and returns its ``group`` (the CLI group)."""
    return lazy(module, "group")


def string_options(system: str, names: tuple[str, ...], options: dict[str, Any]) -> None:
    """Check that every header option is one ``system`` takes (``names``) and a string.

    Raises:
        ValueError: naming the option and why.
    """
    for key, value in options.items():
        if key not in names:
            raise ValueError(f"{system} sessions take no option {key!r}")
        if type(value) is not str:
            raise ValueError(f"option {key} is not a string: {value!r}")
