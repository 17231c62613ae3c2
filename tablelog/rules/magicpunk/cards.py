"""Mana cards (魔煌札): card codes, the session deck and how draws pick cards.

Cards are playing cards written ``AS 10H QD 2C`` (rank A 2-10 J Q K, suit S H D C) and ``JK1
JK2`` for the jokers. Draws the tool makes are decided by the keyed-hash randomness of
:mod:`tablelog.rules.core`, keyed by the number of active draws before them and by the log's
latest undo (CORE-RANDOM: the seed the decider passes), so that an undone draw made again draws
afresh and tells nothing of the pile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from tablelog.rules.core import RuleViolation, draw_index, require
from tablelog.rules.magicpunk.text import cards as count_cards
from tablelog.rules.magicpunk.text import listing
from tablelog.text import msg, msgn

__all__ = [
    "CARDS_RULE",
    "RANKS",
    "SUITS",
    "STANDARD_DECK",
    "DrawPlan",
    "is_card_code",
    "parse_card_list",
    "check_once",
    "parse_deck",
    "plan_random_draw",
    "plan_named_draw",
    "pick_random",
]

CARDS_RULE = "MP-CARDS"
"""Rule ID used for card-zone refusals (RULES.md, magicpunk preamble: cards and zones)."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
STANDARD_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + ("JK1", "JK2")
_VALID = frozenset(STANDARD_DECK)


def is_card_code(code: str) -> bool:
    """Return whether ``code`` is a card code (``AS``, ``10H``, ``JK1``; upper case)."""
    return code in _VALID


def parse_card_list(text: str | Sequence[str]) -> tuple[str, ...]:
    """Parse ``"AS,7H, jk1"`` (or a sequence of codes) into card codes.

    Args:
        text: Comma- or space-separated codes, any case, or a sequence of codes.

    Returns:
        The codes in the given order, upper-cased.

    Raises:
        RuleViolation: MP-CARDS if no card is named, a code is not a card, or a card is named
            twice.

    Source: RULES.md, magicpunk preamble (card codes).
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    codes = tuple(p.strip().upper() for p in parts if p.strip())
    require(
        codes,
        CARDS_RULE,
        msg("magicpunk.cards.none_named", "no card named (cards are written AS 10H QD 2C JK1)"),
    )
    bad = [c for c in codes if not is_card_code(c)]
    require(
        not bad,
        CARDS_RULE,
        msgn(
            "magicpunk.cards.not_cards",
            "{cards} is not a card (cards are written AS 10H QD 2C JK1)",
            "{cards} are not cards (cards are written AS 10H QD 2C JK1)",
            len(bad),
            cards=listing(bad),
        ),
    )
    check_once(codes)
    return codes


def check_once(codes: Sequence[str]) -> None:
    """Refuse a card named twice (MP-CARDS)."""
    twice = [c for c in dict.fromkeys(codes) if codes.count(c) > 1]
    require(
        not twice,
        CARDS_RULE,
        msg(
            "magicpunk.cards.twice",
            "{cards} named twice: name each card once",
            cards=listing(twice),
        ),
    )


def parse_deck(text: str | None) -> tuple[str, ...]:
    """Return the session deck: the 54 standard cards, or the list ``init --deck`` gave.

    Raises:
        RuleViolation: MP-CARDS if the list is empty, repeats a card or has an unknown code.

    Source: RULES.md, magicpunk preamble (Decision: 54 cards unless another list).
    """
    if text is None or not str(text).strip():
        return STANDARD_DECK
    return parse_card_list(text)


@attrs.frozen
class DrawPlan:
    """The cards one draw takes from the draw pile.

    Attributes:
        cards: The cards drawn, in order.
        reshuffle_at: Index in ``cards`` before which the discard pile was shuffled into the
            (then empty) draw pile, or None if no reshuffle happened.
    """

    cards: tuple[str, ...]
    reshuffle_at: int | None = None


def pick_random(seed: int, pile: Sequence[str], draw_no: int, index: int) -> str:
    """Return one card picked uniformly from ``pile`` for card ``index`` of draw ``draw_no``."""
    return pile[draw_index(seed, len(pile), "magicpunk.draw", draw_no, index)]


def plan_random_draw(
    seed: int, pile: Sequence[str], discard: Sequence[str], count: int, draw_no: int
) -> DrawPlan:
    """Draw ``count`` cards at random: first the draw pile, then the reshuffled discard pile.

    Args:
        seed: The session seed.
        pile: The draw pile (order is canonical, not physical).
        discard: The discard pile, oldest first.
        count: Cards to draw (>= 0).
        draw_no: The number of active draws before this one (the randomness key).

    Returns:
        The plan; ``reshuffle_at`` is set when the pile ran out.

    Raises:
        RuleViolation: MP-CARDS if the pile and discard pile together hold fewer than ``count``.

    Source: RULES.md, magicpunk preamble (Decision: randomness and undo; reshuffle).
    """
    require(
        count <= len(pile) + len(discard),
        CARDS_RULE,
        msg(
            "magicpunk.cards.cannot_draw",
            "cannot draw {cards}: {pile} in the draw pile and {discard} in the discard pile",
            cards=count_cards(count),
            pile=len(pile),
            discard=len(discard),
        ),
    )
    work, rest = list(pile), list(discard)
    drawn: list[str] = []
    reshuffle_at = None
    for i in range(count):
        if not work:
            reshuffle_at, work, rest = i, rest, []
        card = pick_random(seed, work, draw_no, i)
        work.remove(card)
        drawn.append(card)
    return DrawPlan(tuple(drawn), reshuffle_at)


def plan_named_draw(cards: Iterable[str], pile: Sequence[str], discard: Sequence[str]) -> DrawPlan:
    """Check the cards the table actually drew, reshuffling only when the pile is empty.

    Raises:
        RuleViolation: MP-CARDS if a card is not in the draw pile (nor, once the pile is
            empty, in the discard pile).

    Source: RULES.md, magicpunk preamble (cards; reshuffle).
    """
    work, rest = list(pile), list(discard)
    drawn: list[str] = []
    reshuffle_at = None
    for i, card in enumerate(cards):
        if not work and card in rest:
            reshuffle_at, work, rest = i, rest, []
        if card not in work:
            why = (
                msg(
                    "magicpunk.cards.in_discard_until_empty",
                    "it is in the discard pile, which is reshuffled in only once the draw pile "
                    "({cards}) is empty",
                    cards=count_cards(len(work)),
                )
                if card in rest
                else msg(
                    "magicpunk.cards.left_there", "{cards} left there", cards=count_cards(len(work))
                )
            )
            raise RuleViolation(
                CARDS_RULE,
                msg(
                    "magicpunk.cards.not_in_pile",
                    "{card} is not in the draw pile ({where})",
                    card=card,
                    where=why,
                ),
            )
        work.remove(card)
        drawn.append(card)
    return DrawPlan(tuple(drawn), reshuffle_at)
