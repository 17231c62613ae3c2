"""Signing keys: ``tablelog key new`` (yours, kept in your own config directory) and
``tablelog key add`` (the log's roster). See docs/RELIABILITY.md, "Signed records"."""

from __future__ import annotations

import click

from tablelog.cli.core import Env, appending, domain_errors, echo
from tablelog.lang import say
from tablelog.text import msg

__all__ = ["COMMANDS"]


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
    facts = {"actor": env.actor, "key": public_hex(found), "path": key_path(env.actor)}
    if made:
        said = msg("core.key.new", "new key of {actor}: {key} (private part: {path})", **facts)
    else:
        said = msg("core.key.known", "key of {actor}: {key} (private part: {path})", **facts)
    echo(say(said))


@key.command("add")
@click.argument("name", required=False)
@click.argument("public_key", required=False)
@appending
def add(ctx: click.Context, name: str | None, public_key: str | None) -> object:
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
                say(
                    msg(
                        "core.key.add_other",
                        "give the public key to add for another actor: key add NAME PUBLIC_KEY",
                    )
                )
            )
        name, public_key = env.actor, public_hex(private_key(env.actor, create=True))
    session_of(ctx).log.signer = signer(env.actor)
    return AddKey(str(name), public_key, env.actor)


COMMANDS = [key]
