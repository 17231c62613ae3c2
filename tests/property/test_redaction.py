"""Hidden information, as a property: for random magicpunk histories, no answer a player seat
gets (state, past state, log, history, the event stream, the seat's own command answers) holds a
card that is hidden in another character's hand or item — in its data or in its words (an
event's text, history's ``explain``, a refusal that would say where a card is) — or the session
seed (SERVER.md §3)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.server import views
from tablelog.server.tables import Refusal, Seat, Tables

SEED = 738291645  # an unmistakable number: it must never reach a player
ADD = "magicpunk character add {} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26"
GM = Seat("gm", "gm")
ANN = Seat("ann", "player", ("Aria",))

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
