"""Property test of the jsonl export: random valid histories -> export -> import -> the same
bytes (SPEC: "Exports, import, the session report"; issue 19)."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from tablelog.commands.core import AddNote, Redo, Undo
from tablelog.exports.importer import import_jsonl
from tablelog.exports.jsonl import export_jsonl
from tablelog.rules.core import RuleViolation
from tablelog.session import Session
from tests.support import toy

toy.install()

NAMES = ("a", "b", "c")
steps = st.lists(
    st.tuples(
        st.one_of(
            st.builds(toy.AddCounter, st.sampled_from(NAMES), st.integers(0, 9)),
            st.builds(toy.SpendPoints, st.sampled_from(NAMES), st.integers(0, 6)),
            st.builds(toy.RollDie, st.sampled_from(NAMES)),
            st.builds(
                toy.SpendBoth, st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(0, 4)
            ),  # two events: a batch with ``more``
            st.builds(AddNote, st.text(min_size=1, max_size=40)),  # any text, JSON-escaped
            st.builds(Undo, st.none() | st.integers(1, 30)),
            st.builds(Redo, st.none() | st.integers(1, 30)),
        ),
        st.none() | st.from_regex(r"[A-Za-z0-9._:-]{1,12}", fullmatch=True),  # request ids
        st.sampled_from(["gm", "ana", "ümit"]),
    ),
    max_size=20,
)


def play(path: Path, history: list[tuple[object, str | None, str]]) -> None:
    """Run the commands as their actors with their request ids (refusals skipped)."""
    Session.create(str(path), "toy", title="prop", seed=5)
    for command, request_id, actor in history:
        try:
            Session(str(path), actor).execute(command, request_id=request_id)
        except RuleViolation:
            continue


@given(steps)
@example([(AddNote("0\x85 \u2028"), None, "ana")])  # found: NEL and LS are line breaks to some
def test_export_then_import_gives_the_same_bytes(history: list) -> None:
    """Whatever the history (batches, undo, redo, notes, request ids, actors), importing its
    export writes exactly the original log's bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        original = Path(tmp) / "a.tlog"
        play(original, history)
        out = io.StringIO()
        written = export_jsonl(Session(str(original)), out)
        copy = Path(tmp) / "b.tlog"
        done = import_jsonl(io.StringIO(out.getvalue()), str(copy))
        assert original.read_bytes() == copy.read_bytes()
        assert written == done.records == len(out.getvalue().splitlines()) - 1
