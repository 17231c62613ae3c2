"""``tablelog discord``: the Discord application's commands (docs/DISCORD.md)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

import click

from tablelog.cli.core import CliError

__all__ = ["COMMANDS"]


@click.group("discord")
def discord() -> None:
    """The table in Discord: the slash commands to register for `tablelog serve
    --discord-public-key`.

    Example: tablelog discord commands > commands.json
    """


@discord.command("commands")
@click.option(
    "--register",
    is_flag=True,
    help="Send them to Discord (replacing the application's commands) instead of printing.",
)
@click.option(
    "--bot-token",
    envvar="TABLELOG_DISCORD_BOT_TOKEN",
    metavar="TOKEN",
    help="The application's bot token (default $TABLELOG_DISCORD_BOT_TOKEN).",
)
@click.option(
    "--application-id",
    envvar="TABLELOG_DISCORD_APPLICATION_ID",
    metavar="ID",
    help="The application's id (default $TABLELOG_DISCORD_APPLICATION_ID).",
)
@click.option("--guild", metavar="ID", help="Register in this server only (at once, for trying).")
def commands(
    register: bool, bot_token: str | None, application_id: str | None, guild: str | None
) -> None:
    """Print the application-command JSON of /tl (names and descriptions with their ja and ko
    localizations), or register it with Discord.

    Example: tablelog discord commands --register --application-id 1234 --guild 5678
    """
    from tablelog.server.discord.catalogue import application_commands
    from tablelog.server.discord.route import API

    made = application_commands()
    if not register:
        click.echo(json.dumps(made, ensure_ascii=False, indent=2))
        return
    if not bot_token or not application_id:
        raise CliError("--register needs --bot-token and --application-id", 2)
    api = os.environ.get("TABLELOG_DISCORD_API", API).rstrip("/")
    where = f"/guilds/{guild}" if guild else ""
    request = urllib.request.Request(
        f"{api}/applications/{application_id}{where}/commands",
        json.dumps(made).encode(),
        {
            "Authorization": f"Bot {bot_token}",
            "Content-Type": "application/json",
            "User-Agent": "DiscordBot (tablelog, 0.1)",
        },
        method="PUT",  # bulk overwrite: the application's commands become these
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            registered = json.loads(answer.read() or b"[]")
    except urllib.error.HTTPError as exc:
        raise CliError(f"Discord refused the commands: {exc.code} {exc.reason}", 3) from None
    except (OSError, ValueError) as exc:
        raise CliError(f"Discord could not be reached ({type(exc).__name__})", 3) from None
    names = ", ".join(str(c.get("name")) for c in registered if isinstance(c, dict))
    click.echo(f"registered: {names}")


COMMANDS = [discord]
