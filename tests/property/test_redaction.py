"""Hidden information, as a property: for random magicpunk histories, no answer a player seat
gets (state, past state, log, history, the event stream, the seat's own command answers) holds a
card that is hidden in another character's hand or item — in its data or in its words (an
event's text, history's ``explain``, a refusal that would say where a card is) — or the session
seed (SERVER.md §3).

The second property (issue 32) adds ann's own draws (tablelog's and given), the GM's and ann's
undos and redos (allowed or refused: CORE-REROLL), the table option for given cards and ann's
previews (dry runs of draws, plays and charges naming any card): no answer at any step holds a
hidden card but the one ann typed, and a preview naming a card answers alike wherever the card is
hidden (draw pile, Kai's hand, Kai's battery: CORE-UNSEEN). 60 histories, every one of the 12
routes of :data:`ROUTES`. The third: a saga player's preview of a hit answers alike whatever the
enemy's hidden HP and LP (20 pairs of tables)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.server import limits, views
from tablelog.server.tables import Refusal, Seat, Tables

SEED = 738291645  # an unmistakable number: it must never reach a player
ADD = "magicpunk character add {} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26"
GM = Seat("gm", "gm")
ANN = Seat("ann", "player", ("Aria",))
SETUP = Seat("setup", "gm")  # another GM seat: the one that set the table up

lines = st.lists(
    st.one_of(
        st.builds(
            "magicpunk draw {} {}".format, st.sampled_from(["Aria", "Kai"]), st.integers(1, 3)
        ),
        st.builds(
            "magicpunk circulate {} --random 1".format,
            st.sampled_from(["Aria", "Kai", "bat-Aria", "bat-Kai"]),
        ),
        st.sampled_from(["magicpunk rest 8h", "magicpunk dawn", "magicpunk rest 10m"]),
        st.builds(lambda who: f"charge:{who}", st.sampled_from(["Aria", "Kai"])),
        st.builds(lambda who: f"play:{who}", st.sampled_from(["Aria", "Kai"])),
    ),
    max_size=12,
)


def leaves(data: Any) -> set[str]:
    """Every word in a JSON answer: of its strings (``"Kai draws 10S"``, ``"drawn = 9S"``, a
    refusal's message) and keys."""
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(data)))


def refusals(table: Any, cards: set[str]) -> list[str]:
    """ann's refused dry runs that name each card: a draw of it, a play of it by Aria."""
    said = []
    for card in sorted(cards):
        for line in (f"magicpunk draw Aria 1 --cards {card}", f"magicpunk play Aria {card}"):
            try:
                views.command(table, ANN, line, None, True)
            except Refusal as refusal:
                said.append(refusal.message)
    return said


def run(table: Any, line: str) -> Any:
    """Run a line as the GM (``charge:WHO`` and ``play:WHO`` take WHO's first card)."""
    kind, _, who = line.partition(":")
    if kind in ("charge", "play"):
        hand = table.state().characters[who]["hand"]
        if not hand:
            return None
        line = (
            f"magicpunk charge bat-{who} {hand[0]} --from {who}"
            if kind == "charge"
            else f"magicpunk play {who} {hand[0]}"
        )
    try:
        return views.command(table, GM, line, None, False)[0]
    except Refusal:
        return None


@settings(max_examples=25)
@given(lines)
def test_no_answer_to_a_player_holds_anothers_hidden_card_or_the_seed(history: list[str]) -> None:
    """After any history, ann (who plays Aria) sees none of the cards in Kai's hand or Kai's
    battery, in any view, and never the seed."""
    with tempfile.TemporaryDirectory() as tmp:
        tables = Tables(f"file:{Path(tmp) / 'tables'}")
        table = tables.create("magicpunk", "t", SEED, {})
        for line in (
            ADD.format("Aria"),
            ADD.format("Kai"),
            "magicpunk item add bat-Aria --owner Aria",
            "magicpunk item add bat-Kai --owner Kai",
        ):
            views.command(table, GM, line, None, False)
        answers: list[Any] = []
        for line in history:
            run(table, line)
            answers.append(views.command(table, ANN, "magicpunk draw Aria 1", None, True)[0])
        state = table.state()
        hidden = set(state.characters["Kai"]["hand"]) | set(state.items["bat-Kai"]["cards"])
        answers += [
            views.state(table, ANN, None),
            views.log(table, ANN, 0, True, 10_000),
            views.history(table, ANN, "Kai"),
            views.history(table, ANN, "bat-Kai"),
            views.history(table, ANN, "Aria"),
            views.entity(table, ANN, "Kai"),
            [line for _, line in views.stream_lines(table, ANN, 0)],
        ]
        answers += [views.state(table, ANN, seq) for seq in range(0, state.seq + 1, 3)]
        seen = leaves(answers)
        assert not hidden & seen, (hidden & seen, history)
        said = refusals(table, hidden)  # they name the card ann asked for, never its place
        assert not [m for m in said if "(it is in" in m or "Kai" in m], (said, history)
        assert str(SEED) not in json.dumps(answers)


CARDS = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", *range(2, 11), "J", "Q", "K")]
ROUTES = (
    "command",
    "dry run",
    "refusal",
    "undo",
    "redo",
    "state",
    "state at",
    "log",
    "history",
    "entity",
    "events",
    "report",
)
"""Every route of the second property: what ann reads, and how she acts and previews."""

steps = st.lists(
    st.one_of(
        st.builds(
            "magicpunk draw {} {}".format, st.sampled_from(["Aria", "Kai"]), st.integers(1, 3)
        ),
        st.sampled_from(
            [
                "magicpunk rest 8h",
                "magicpunk circulate Kai --random 1",
                "undo",
                "redo",
                "table allow given-cards",
                "table forbid given-cards",
                "charge:Kai",
                "play:Kai",
                "ann:undo",
                "ann:redo",
                "ann:play:Aria",
                "ann:charge:Aria",
            ]
        ),
        st.builds("ann:magicpunk draw Aria {}".format, st.integers(1, 2)),
        st.builds("ann:magicpunk draw Aria 1 --cards {}".format, st.sampled_from(CARDS)),
        st.builds("preview:magicpunk draw Aria 1 --cards {}".format, st.sampled_from(CARDS)),
        st.builds("preview:magicpunk play Aria {}".format, st.sampled_from(CARDS)),
        st.builds(
            "preview:magicpunk charge bat-Aria {} --from Aria".format, st.sampled_from(CARDS)
        ),
    ),
    max_size=14,
)


def secret_cards(table: Any) -> set[str]:
    """The cards in Kai's hand and battery now that no public record ever named (a card played
    or circulated away, then undone or drawn back, was seen by all when it was)."""
    state = table.state()
    held = set(state.characters["Kai"]["hand"]) | set(state.items["bat-Kai"]["cards"])
    public: set[str] = set()
    for rec in table.records_after(0):
        if rec.type == "magicpunk.CardsPlayed":
            public |= set(rec.data["cards"])
        elif rec.type == "magicpunk.CardsCirculated":
            public |= set(rec.data["discarded"])
    return held - public


def as_ann(table: Any, line: str, dry: bool) -> tuple[set[str], Any]:
    """Run ``line`` as ann (``play:Aria``, ``charge:Aria``: Aria's first card); return the
    routes it took (its kind, and ``refusal`` when refused) and what ann read (the answer, or
    the refusal's words and values)."""
    hand = table.state().characters["Aria"]["hand"]
    if line in ("play:Aria", "charge:Aria"):
        if not hand:
            return set(), None
        verb = line.partition(":")[0]
        line = (
            f"magicpunk play Aria {hand[0]}"
            if verb == "play"
            else f"magicpunk charge bat-Aria {hand[0]} --from Aria"
        )
    route = line if line in ("undo", "redo") else "dry run" if dry else "command"
    try:
        return {route}, views.command(table, ANN, line, None, dry)[0]
    except Refusal as refusal:
        said = [refusal.message, refusal.rule, refusal.params, refusal.suggestions]
        return {route, "refusal"}, said


def normal(said: Any, card: str) -> str:
    """An answer as JSON with the card it names written CARD."""
    return re.sub(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])", "CARD", json.dumps(said))


def same_wherever_hidden(table: Any, line: str) -> None:
    """Fail unless ann's dry run ``line`` answers alike (status, words, values) for a card in
    the draw pile, in Kai's hand and in Kai's battery: no answer is an oracle of where a hidden
    card is (CORE-UNSEEN)."""
    state = table.state()
    places = (
        state.deck["_pile"],  # type: ignore[index]
        state.characters["Kai"]["hand"],
        state.items["bat-Kai"]["cards"],
    )
    named = next(w for w in line.split() if w in CARDS)
    answers = {}
    for cards in places:
        if cards:
            card = sorted(cards)[0]
            routes, said = as_ann(table, line.replace(named, card), True)
            answers[card] = (tuple(sorted(routes)), normal(said, card))
    assert len(set(answers.values())) <= 1, answers


@settings(max_examples=60)
@given(steps)
def test_no_draw_undo_redo_or_preview_tells_a_player_a_hidden_card(history: list[str]) -> None:
    """After any history of draws (the GM's and ann's, tablelog's and given), undos and redos
    (the GM's and ann's, allowed or refused), table options and ann's previews, no answer ann
    got at any step, nor any view of hers at the end, holds a card hidden in Kai's hand or
    battery (but the one she typed herself), nor the seed; every route is tried."""
    tried: set[str] = set()
    unlimited = mock.patch.object(limits, "COMMANDS_BURST", 10**9)  # ann probes patiently
    with tempfile.TemporaryDirectory() as tmp, unlimited:
        tables = Tables(f"file:{Path(tmp) / 'tables'}")
        table = tables.create("magicpunk", "t", SEED, {})
        for line in (
            ADD.format("Aria"),
            ADD.format("Kai"),
            "magicpunk item add bat-Aria --owner Aria",
            "magicpunk item add bat-Kai --owner Kai",
        ):
            views.command(table, SETUP, line, None, False)  # gm's bare undo leaves it
        for line in [*history, "preview:magicpunk draw Aria 1", "ann:undo", "ann:redo"]:
            who, _, rest = line.partition(":")
            if who not in ("ann", "preview"):
                run(table, line)
                continue
            routes, said = as_ann(table, rest, who == "preview")
            tried |= routes
            if who == "preview" and set(rest.split()) & set(CARDS):
                same_wherever_hidden(table, rest)
            typed = set(rest.split()) & set(CARDS)
            leaked = secret_cards(table) - typed
            assert not leaked & leaves(said), (leaked & leaves(said), line, said, history)
            assert str(SEED) not in json.dumps(said)
        end = table.state()
        final = {
            "state": views.state(table, ANN, None),
            "state at": [views.state(table, ANN, seq) for seq in range(0, end.seq + 1, 2)],
            "log": views.log(table, ANN, 0, True, 10_000),
            "history": [views.history(table, ANN, n) for n in ("Kai", "bat-Kai", "Aria")],
            "entity": views.entity(table, ANN, "Kai"),
            "events": [line for _, line in views.stream_lines(table, ANN, 0)],
            "report": views.report(table, ANN, "md", None),
        }
        tried |= set(final)
        hidden = secret_cards(table)
        seen = leaves(final)
        assert not hidden & seen, (hidden & seen, history)
        assert str(SEED) not in json.dumps(final)
    TRIED.update(tried)


TRIED: set[str] = set()
"""The routes the histories of the second property tried, all of them (the next test)."""


def test_the_second_property_tried_every_route() -> None:
    """Over its histories, the property above tried every route of :data:`ROUTES`."""
    if not TRIED:
        test_no_draw_undo_redo_or_preview_tells_a_player_a_hidden_card()
    assert set(ROUTES) == TRIED, set(ROUTES) - TRIED


SAGA_SETUP = (
    "saga unit add Gustave --max-hp 320 --lp 12 --stat str=40 --slv 1h-sword=10 "
    "--weapon 1h-sword=30 --resist 20",
    "table allow given-factors",
)
P = Seat("p", "player", ("Gustave",))


def saga_preview(hp: int, lp: int | None, line: str) -> str:
    """p's dry run of ``line`` at a table whose enemy Rat has ``hp`` (and ``lp``) hidden, as
    JSON without what the stand-in dice decide (the damage and its breakdown)."""
    with tempfile.TemporaryDirectory() as tmp:
        table = Tables(f"file:{Path(tmp) / 'tables'}").create("saga", "t", SEED, {})
        lives = f" --lp {lp}" if lp is not None else ""
        for setup in (
            *SAGA_SETUP,
            f"saga unit add Rat --enemy --max-hp {hp}{lives} --stat vit=10 --resist 0",
        ):
            views.command(table, GM, setup, None, False)
        said: Any = views.command(table, P, line, None, True)[0]  # a hit: no refusal
    rolled = ("damage", "shown", "random_factor", "breakdown")
    events = [
        [e["type"], {k: v for k, v in e["data"].items() if k not in rolled}] for e in said["events"]
    ]
    return json.dumps([events, said["changes"]], sort_keys=True)


@settings(max_examples=20)
@given(
    st.tuples(st.integers(1, 400), st.one_of(st.none(), st.integers(1, 12))),
    st.tuples(st.integers(1, 400), st.one_of(st.none(), st.integers(1, 12))),
    st.sampled_from(
        [
            "saga cast Gustave kiri-harai --target Rat",
            "saga cast Gustave kiri-harai --target Rat --roll 1.05",
            "saga cast Gustave kiri-harai --target Rat --roll 0.95",
        ]
    ),
)
def test_a_players_saga_preview_answers_alike_whatever_an_enemys_hidden_hp(
    one: tuple[int, int | None], other: tuple[int, int | None], line: str
) -> None:
    """Two tables whose enemy Rat differs only in its hidden HP and LP (a hit fells it at one,
    not at the other): p's preview of her hit on it answers the same (CORE-UNSEEN)."""
    assert saga_preview(*one, line) == saga_preview(*other, line)
