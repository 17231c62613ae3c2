"""Property tests of undo's marker bookkeeping (tablelog/actions.py, issue 13 item 8): keeping
only the latest marker of each target decides exactly what every marker decides."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from tablelog import actions
from tablelog.events.core import Redone, Undone
from tablelog.projections.core import undone_after
from tablelog.rules.core import RuleViolation

ACTORS = ("gm", "Ann")
EVENTS = 6  # seqs 1..6 are events (gm, Ann alternating); markers follow from #7
marker_rows = st.lists(
    st.tuples(
        st.sampled_from((Undone.TYPE, Redone.TYPE)), st.integers(1, EVENTS), st.sampled_from(ACTORS)
    ),
    max_size=40,
)


def history(rows: list[tuple[str, int, str]]) -> tuple[list[actions.Summary], list[actions.Marker]]:
    """Summaries of six one-event actions then one marker per row; and the markers."""
    summaries = [
        actions.summary(seq, seq, "", ACTORS[seq % 2], "toy.PointsSpent")
        for seq in range(1, EVENTS + 1)
    ]
    markers = []
    for seq, (kind, target, actor) in enumerate(rows, start=EVENTS + 1):
        summaries.append(actions.summary(seq, seq, "", actor, kind, target))
        markers.append((seq, kind, target))
    return summaries, markers


def outcome(call: Callable[..., object], *args: object) -> object:
    """What ``call(*args)`` returns, or the refusal it raises (rule and message)."""
    try:
        return call(*args)
    except RuleViolation as exc:
        return exc.rule_id, exc.message


@given(marker_rows)
def test_the_latest_marker_of_each_target_decides_what_every_marker_decides(
    rows: list[tuple[str, int, str]],
) -> None:
    """For any markers: the same undone set, the same action to undo, the same one to redo,
    and one kept marker per target at most."""
    summaries, markers = history(rows)
    kept = actions.Markers(markers)
    assert len(kept) == len({target for _, _, target in markers})
    assert undone_after(markers) == undone_after(kept)
    for actor in ACTORS:
        for find in (actions.latest_active, actions.latest_undone):
            assert outcome(find, summaries, markers, actor) == outcome(find, summaries, kept, actor)
