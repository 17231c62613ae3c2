"""Signing keys: ``tablelog key new`` (yours, kept in your own config directory) and
``tablelog key add`` (the log's roster). See docs/RELIABILITY.md, "Signed records"."""

from __future__ import annotations

from typing import Any

import click

from tablelog.cli.core import Env, appending, domain_errors, echo, execute
from tablelog.rules.core import RuleViolation

__all__ = ["COMMANDS", "refuse_a_key_not_held"]


@click.group("key")
def key() -> None:
    """Signing keys: every record you append is signed with your actor's key once you have one.

    Example: tablelog --actor Ann key new   (then give the GM the public key it prints)
    """


@key.command("new")
@click.pass_context
@domain_errors
def new(ctx: click.Context) -> None:
    """Make your actor's private key (never overwrites one) and print its public key.

    The private key stays in ~/.config/tablelog (mode 0600); only the public key is shared.
    Example: tablelog --actor Ann key new
    """
    from tablelog.store.keys import key_path, private_key, public_hex

    env: Env = ctx.obj
    made = private_key(env.actor) is None
    found = private_key(env.actor, create=True)
    echo(
        f"{'new key' if made else 'key'} of {env.actor}: {public_hex(found)} "
        f"(private part: {key_path(env.actor)})"
    )


@key.command("add")
@click.argument("name", required=False)
@click.argument("public_key", required=False)
@appending
def add(ctx: click.Context, name: str | None, public_key: str | None) -> None:
    """Add a public key to the log's roster, signed with your key (CORE-KEY).

    Without arguments: your own key (made if missing); the first key of a log is its owner's,
    the GM's. With NAME PUBLIC_KEY: the owner adds a player's key (as `key new` printed it), or
    replaces it. Example: tablelog --actor GM key add Ann 3f0c…
    """
    from tablelog.cli.core import session_of
    from tablelog.commands.core import AddKey
    from tablelog.store.keys import private_key, public_hex, signer

    env: Env = ctx.find_object(Env)  # type: ignore[assignment]
    if public_key is None:
        if name not in (None, env.actor):
            raise click.UsageError(
                "give the public key to add for another actor: key add NAME PUBLIC_KEY"
            )
        name, public_key = env.actor, public_hex(private_key(env.actor, create=True))
    session_of(ctx).log.signer = signer(env.actor)
    execute(ctx, AddKey(str(name), public_key, env.actor))


def refuse_a_key_not_held(session: Any, actor: str) -> None:
    """Refuse an append by an actor the log's roster has a key for unless this user holds that
    very key: its records would be unsigned or signed by another key, and `verify` would
    refuse the log from that record on (a player at a second machine, a GM at the table's
    laptop). Actors without a key in the roster append as before, unsigned.

    Args:
        session: The open :class:`~tablelog.session.Session`.
        actor: Who appends (``--actor``).

    Raises:
        RuleViolation: CORE-KEY, naming the roster's key and this machine's (or none).

    Source: issue 13 (signed records: every record a keyed actor appends is signed with that
    actor's private key); docs/RELIABILITY.md, "Signed records".
    """
    from tablelog.projections.core import roster
    from tablelog.store.keys import private_key, public_hex

    keys = roster(session.state())
    expected = keys.get(actor)
    if expected is None:
        return
    key = private_key(actor)
    held = None if key is None else public_hex(key)
    if held == expected:
        return
    owner = next(iter(keys))
    here = f"this machine's key for it is {held}" if held else "this machine holds none"
    then = f"append from the machine that holds that key, or have the roster's owner {owner!r} "
    if actor == owner:
        then = "append from the machine that holds that key (the owner's key adds every other)"
    elif held:
        then += f"add this one (tablelog --actor {owner} key add {actor} {held})"
    else:
        then += f"add a new one (tablelog --actor {actor} key new prints it)"
    raise RuleViolation(
        "CORE-KEY",
        f"the log's roster has a key for {actor!r} ({expected[:16]}…) but {here}: "
        f"its records would fail verify; {then}",
    )


COMMANDS = [key]
