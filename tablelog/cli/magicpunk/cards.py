"""Card and time commands: draw, play, charge, circulate, rest, dawn."""

from __future__ import annotations

import click

from tablelog.cli.core import appending, parsed
from tablelog.cli.magicpunk.options import COUNT, NumericArgs, card_words, names
from tablelog.commands.magicpunk import Charge, Circulate, Dawn, Draw, Play, Rest
from tablelog.lang import say
from tablelog.rules.magicpunk.cards import parse_card_list
from tablelog.rules.magicpunk.clock import REST_PACKAGES
from tablelog.text import msg

__all__ = ["COMMANDS"]


@click.command("draw", cls=NumericArgs)
@click.argument("name")
@click.argument("count", type=COUNT, required=False)
@click.option(
    "--cards",
    "cards_text",
    metavar="C,C…",
    help="The cards actually drawn at the table (must be in the draw pile).",
)
@appending
def draw(ctx: click.Context, name: str, count: int | None, cards_text: str | None) -> object:
    """NAME draws COUNT cards (default 1) from the draw pile.

    Without --cards the tool draws at random from the session seed; undoing and drawing again
    draws afresh. A short pile is drawn out, then the discard pile is reshuffled in.

    Example: tablelog magicpunk draw Aria 4 --cards AS,7H,JK1,3C
    """
    cards = parsed(parse_card_list, cards_text, "--cards") if cards_text is not None else None
    return Draw(who=name, count=count, cards=cards)


@click.command("play")
@click.argument("name")
@click.argument("cards", nargs=-1, required=True)
@appending
def play(ctx: click.Context, name: str, cards: tuple[str, ...]) -> object:
    """NAME plays CARDS from hand to the discard pile.

    Example: tablelog magicpunk play Bram KD
    """
    return Play(who=name, cards=parsed(parse_card_list, card_words(cards), "CARDS"))


@click.command("charge")
@click.argument("item")
@click.argument("cards", nargs=-1, required=True)
@click.option("--from", "by", required=True, metavar="NAME", help="Whose hand the cards leave.")
@appending
def charge(ctx: click.Context, item: str, cards: tuple[str, ...], by: str) -> object:
    """Move CARDS from a hand into ITEM (e.g. an A-battery).

    Example: tablelog magicpunk charge a-battery AS --from Aria
    """
    codes = parsed(parse_card_list, card_words(cards), "CARDS")
    return Charge(item=item, by=by, cards=codes)


@click.command("circulate")
@click.argument("holder")
@click.option("--all", "all_cards", is_flag=True, help="Every card held (the default).")
@click.option(
    "--random", "random_count", type=COUNT, metavar="N", help="N cards held, chosen at random."
)
@click.option("--cards", "cards_text", metavar="C,C…", help="The cards the player or GM names.")
@appending
def circulate(
    ctx: click.Context,
    holder: str,
    all_cards: bool,
    random_count: int | None,
    cards_text: str | None,
) -> object:
    """GM-forced circulation (MP-CIRC-3): HOLDER (character or item) discards and redraws.

    Example: tablelog magicpunk circulate Aria --random 2
    """
    if all_cards and (random_count is not None or cards_text is not None):
        raise click.UsageError(
            say(msg("magicpunk.circulate.choose_one", "choose one of --all, --random N, --cards"))
        )
    cards = parsed(parse_card_list, cards_text, "--cards") if cards_text is not None else None
    return Circulate(holder=holder, random=random_count, cards=cards)


@click.command("rest")
@click.argument("package", type=click.Choice(list(REST_PACKAGES)))
@click.option(
    "--who", metavar="NAME,…", help="Who rests, each named once (default: every character)."
)
@click.option(
    "--sleep/--no-sleep",
    default=None,
    help="8h sleeps unless --no-sleep; 1h only with --sleep; 10m never.",
)
@appending
def rest(ctx: click.Context, package: str, who: str | None, sleep: bool | None) -> object:
    """Take a rest package (MP-REST-1): the clock advances; sleep and dawn circulate cards.

    Example: tablelog magicpunk rest 8h --who Aria,Bram
    """
    return Rest(package=package, who=names(who), sleep=sleep)


@click.command("dawn")
@appending
def dawn(ctx: click.Context) -> object:
    """Advance the clock to the next 06:00; every item circulates its cards (MP-CIRC-2).

    Example: tablelog magicpunk dawn
    """
    return Dawn()


COMMANDS = (draw, play, charge, circulate, rest, dawn)
