"""command_words splits a line exactly as shlex.split(line, comments=True) does (words and
errors), on lines made of the characters that matter to quoting."""

from __future__ import annotations

import shlex

from hypothesis import given
from hypothesis import strategies as st

from tablelog.cli.core import command_words

LINES = st.text(alphabet=" \t#'\"\\ab\u00e9", max_size=16)


def split(fn: object, line: str) -> object:
    """The words, or ("error", message) when the line does not split."""
    try:
        return fn(line)  # type: ignore[operator]
    except ValueError as exc:
        return ("error", str(exc))


@given(LINES)
def test_command_words_splits_as_shlex_does(line: str) -> None:
    """The same words, or the same error, as shlex."""
    assert split(lambda text: shlex.split(text, comments=True), line) == split(command_words, line)


def test_command_words_examples() -> None:
    """Quotes, escapes and comments, with values."""
    assert command_words('note \'a b\' "say \\"hi\\"" "x\\y" c # a comment') == [
        "note",
        "a b",
        'say "hi"',
        "x\\y",
        "c",
    ]
