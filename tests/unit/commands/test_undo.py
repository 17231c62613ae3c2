"""The undo decider, pure: given a history, when undo or redo, then markers or a refusal with
its reasons (tablelog/actions.py), on the toy test system."""

from __future__ import annotations

import pytest

from tablelog import actions
from tablelog.events.core import Event, Redone, SeatAdded, SeatRevoked, Undone
from tablelog.projections.core import State, fold_collecting, undone_after
from tablelog.rules.core import RuleViolation
from tests.support import toy

toy.install()

HISTORY: list[tuple[str, Event]] = [  # (actor, event), seqs 1…
    ("gm", toy.CounterAdded("a", 5)),
    ("gm", toy.CounterAdded("b", 5)),
    ("Ann", toy.PointsSpent("a", 2, {})),
    ("Bo", toy.PointsSpent("a", 3, {})),
]


def refold_of(history: list[tuple[str, Event]]) -> actions.Refold:
    """A refold over an in-memory history (the session's reads the log from a checkpoint)."""

    def refold(undone: set[int], first: int) -> tuple[State, list]:
        state = State(system="toy")
        toy.init_state(state, {})
        pairs = [
            (seq, None if isinstance(e, Undone | Redone) else e)
            for seq, (_, e) in enumerate(history, start=1)
        ]
        return state, fold_collecting(state, pairs, undone)

    return refold


def summaries(history: list[tuple[str, Event]]) -> list[actions.Summary]:
    return [
        actions.summary(seq, seq, "", actor, e.TYPE, getattr(e, "target", 0))
        for seq, (actor, e) in enumerate(history, start=1)
    ]


def markers(history: list[tuple[str, Event]]) -> list[actions.Marker]:
    return [
        (seq, e.TYPE, e.target)
        for seq, (_, e) in enumerate(history, start=1)
        if isinstance(e, Undone | Redone)
    ]


def test_undo_of_the_latest_action_gives_one_marker_and_the_state_without_it() -> None:
    """Given four actions, when undo #4, then Undone(4) and a's 3 points are back."""
    action = actions.action_of(summaries(HISTORY), 4)
    events, state = actions.decide_undo(action, [], "typo", refold_of(HISTORY))
    assert [Undone(target=4, reason="typo")] == events
    assert state.characters["a"]["hp"] == 3


def test_undo_of_an_action_a_later_one_depends_on_is_refused_with_the_reasons() -> None:
    """Given a spend of 3 after a spend of 2 from 5, undoing the add of a (#1) is refused: both
    spends depend on it, each listed with its rule."""
    with pytest.raises(RuleViolation) as refusal:
        actions.decide_undo(actions.action_of(summaries(HISTORY), 1), [], "", refold_of(HISTORY))
    assert (refusal.value.rule_id, refusal.value.message) == (
        "CORE-UNDO",
        "#1 cannot be undone: later events depend on it: "
        "#3 toy.PointsSpent (TOY-SPEND-1: a: no counter 2); "
        "#4 toy.PointsSpent (TOY-SPEND-1: a: no counter 3)",
    )


def test_undo_of_an_older_action_nothing_depends_on_is_allowed() -> None:
    """Undoing b's creation (#2) leaves every later action holding."""
    events, state = actions.decide_undo(
        actions.action_of(summaries(HISTORY), 2), [], "", refold_of(HISTORY)
    )
    assert [Undone(target=2)] == events and "b" not in state.characters


def test_undo_of_an_undone_action_is_refused() -> None:
    """Given #4 undone, undo #4 again is refused."""
    history = [*HISTORY, ("gm", Undone(target=4))]
    with pytest.raises(RuleViolation, match="CORE-UNDO: #4 is already undone"):
        actions.decide_undo(
            actions.action_of(summaries(history), 4), markers(history), "", refold_of(history)
        )


def test_redo_is_refused_when_what_came_after_no_longer_allows_it() -> None:
    """Given Bo's spend of 3 undone and then Ann spending 3 more (a at 0), redoing Bo's spend is
    refused: a has 0 < 3 where it stands."""
    history = [*HISTORY, ("Bo", Undone(target=4)), ("Ann", toy.PointsSpent("a", 3, {}))]
    with pytest.raises(RuleViolation) as refusal:
        actions.decide_redo(
            actions.action_of(summaries(history), 4), markers(history), 4, refold_of(history)
        )
    assert "#6 toy.PointsSpent (TOY-SPEND-1: a: 0 < 3)" in refusal.value.message


def test_latest_active_and_latest_undone_are_the_typing_actors() -> None:
    """Ann's latest action is #3, Bo's #4; after both undo, each one's redo is their own."""
    assert actions.latest_active(summaries(HISTORY), [], "Ann").first == 3
    history = [*HISTORY, ("Ann", Undone(target=3)), ("Bo", Undone(target=4))]
    assert (
        actions.latest_undone(summaries(history), markers(history), "Ann"),
        actions.latest_undone(summaries(history), markers(history), "Bo"),
    ) == (3, 4)


def test_latest_undone_after_a_new_action_of_the_actor_is_refused() -> None:
    """Ann undid #3 and then acted (#6): her bare redo has nothing to redo."""
    history = [*HISTORY, ("Ann", Undone(target=3)), ("Ann", toy.PointsSpent("b", 1, {}))]
    with pytest.raises(
        RuleViolation,
        match="CORE-REDO: nothing to redo: Ann has taken a new "
        r"action \(#6\)",
    ):
        actions.latest_undone(summaries(history), markers(history), "Ann")


def test_actions_of_a_format_1_log_are_runs_of_one_time_and_actor() -> None:
    """Records without a command id group by (at, actor), as format 1 wrote them."""
    rows = [
        actions.summary(1, None, "t1", "gm", "toy.X"),
        actions.summary(2, None, "t1", "gm", "toy.X"),
        actions.summary(3, None, "t2", "gm", "toy.X"),
        actions.summary(4, 4, "t2", "gm", "toy.X"),
    ]
    assert [(a.first, a.last) for a in actions._groups(rows)] == [(1, 2), (3, 3), (4, 4)]
    assert undone_after([(5, "core.Undone", 1)]) == {1}


def test_after_a_redo_a_bare_redo_has_nothing_left_to_redo() -> None:
    """Ann undid #3 and redid it: a second bare redo says nothing is undone, not that #3 is a
    new action (found by a newcomer's QA)."""
    history = [*HISTORY, ("Ann", Undone(target=3)), ("Ann", Redone(target=3))]
    with pytest.raises(
        RuleViolation,
        match="CORE-REDO: nothing to redo: Ann has undone nothing that is still undone",
    ):
        actions.latest_undone(summaries(history), markers(history), "Ann")


@pytest.mark.rule("CORE-SEAT")
@pytest.mark.parametrize(
    ("event", "what"),
    [(SeatAdded("bob", "player", ("a",), "0" * 64), "adds"), (SeatRevoked("bob"), "revokes")],
)
def test_undo_or_redo_of_a_seat_record_is_refused(event: Event, what: str) -> None:
    """Given a seat record at #5: undo #5 is refused with CORE-SEAT, and so is a redo of it
    where an older log already undid it (#6)."""
    history = [*HISTORY, ("gm", event)]
    with pytest.raises(RuleViolation) as undo:
        actions.decide_undo(actions.action_of(summaries(history), 5), [], "", refold_of(history))
    history.append(("gm", Undone(target=5)))
    with pytest.raises(RuleViolation) as redo:
        actions.decide_redo(
            actions.action_of(summaries(history), 5), markers(history), 5, refold_of(history)
        )
    tail = (
        ": seats are revoked (DELETE /api/tables/ID/seats/NAME) and added again with a new "
        "token (POST /api/tables/ID/seats), not "
    )
    assert [
        ("CORE-SEAT", f"#5 {what} a seat of the table, which an undo never takes back{tail}undone"),
        ("CORE-SEAT", f"#5 {what} a seat of the table, which a redo never restores{tail}redone"),
    ] == [(r.value.rule_id, r.value.message) for r in (undo, redo)]


@pytest.mark.rule("CORE-UNDO")
def test_an_undo_refusal_tells_each_seat_what_it_may_see_of_each_reason() -> None:
    """#5 cannot be undone: #6 (Aria's hidden draw of 5D, now in Kai's hand) and #7 (Kai's
    public play of 9S, now in the draw pile) no longer hold. Each reason is blurred only for
    the seats that may not see it (SERVER.md §3): ann (Aria) reads her draw whole and Kai's play
    with the card's place blurred; bo (Kai) reads Kai's play with its place blurred, and
    nothing of Aria's draw; the GM reads all."""
    import tablelog.projections.magicpunk as P
    from tablelog.events.magicpunk import CardsDrawn, CardsPlayed, CharacterAdded
    from tablelog.lang import Words
    from tablelog.projections.core import evolve
    from tablelog.projections.magicpunk.zones import check_held, not_in_pile
    from tablelog.server.redact import Viewer

    now = State("magicpunk")  # Kai holds 5D; 9S is in the draw pile
    P.init_state(now, {})
    for event in (
        CharacterAdded("Kai", 10, 10, 10, 10, 30),
        CardsDrawn("Kai", ("5D",), 0, named=True),
    ):
        evolve(now, event)
    drawn = RuleViolation("MP-CARDS", not_in_pile(now, "5D"))
    with pytest.raises(RuleViolation) as not_held:
        check_held(now, "Kai", ("9S",))
    played = not_held.value
    failed = [
        (6, CardsDrawn("Aria", ("5D",), 3), drawn),
        (7, CardsPlayed("Kai", ("9S",)), played),
    ]
    with pytest.raises(RuleViolation) as refused:
        actions.decide_undo(
            actions.Action(5, 5, "gm"), [], "", lambda _u, _f: (State("magicpunk"), failed)
        )
    said = {
        seat: Words("en", Viewer.of(role, chars, State("magicpunk")).sees)(refused.value.msg)
        for seat, role, chars in (
            ("ann", "player", ["Aria"]),
            ("bo", "player", ["Kai"]),
            ("gm", "gm", []),
        )
    }
    head = "#5 cannot be undone: later events depend on it: "
    assert {
        "ann": f"{head}#6 magicpunk.CardsDrawn (MP-CARDS: 5D is not in the draw pile (it is "
        f"not where you can see it)); #7 magicpunk.CardsPlayed (MP-CARDS: 9S is not held by Kai "
        f"(it is not where you can see it))",
        "bo": f"{head}#6 magicpunk.CardsDrawn (MP-CARDS: what it names is hidden); "
        f"#7 magicpunk.CardsPlayed (MP-CARDS: 9S is not held by Kai (it is not where you can "
        f"see it))",
        "gm": f"{head}#6 magicpunk.CardsDrawn ({drawn}); #7 magicpunk.CardsPlayed ({played})",
    } == said
