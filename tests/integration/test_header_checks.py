"""Every header field is checked fully when a log is opened (issue 13, item 6): a header whose
options a system refuses, or whose fields have the wrong type or shape, is exit 3 with one line
for every command, `verify` included, never a traceback or a rule's exit 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablelog.store.format import Header, pack_header
from tests.support import toy
from tests.support.cli import invoke

toy.install()

COMMANDS = [
    ("state",),
    ("log",),
    ("verify",),
    ("verify", "--repair"),
    ("note", "x"),
    ("undo",),
    ("replay",),
]


def header_log(
    tmp_path: Path, system: str = "magicpunk", options: Any = None, **fields: Any
) -> Path:
    """A log whose header holds ``options`` and ``fields`` as given, however wrong."""
    path = tmp_path / "h.tlog"
    values = {
        "session_id": "0" * 32,
        "system": system,
        "created": "2026-01-01T00:00:00.000000Z",
        "seed": 1,
        "title": "",
        "options": {} if options is None else options,
        **fields,
    }
    path.write_bytes(pack_header(Header(**values)))  # as a hostile tool would write it
    return path


def assert_unusable(path: Path, fragment: str) -> None:
    """Every command: exit 3, one `error:` line naming ``fragment``, the log unchanged."""
    before = path.read_bytes()
    for args in COMMANDS:
        result = invoke(path, *args)
        assert result.exit_code == 3, (args, result.output)
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, args
        assert fragment in result.stderr, (args, result.stderr)
        assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"clock": 5}, "option clock is not a string: 5"),
        ({"clock": [1, 22]}, "option clock is not a string: [1, 22]"),
        ({"deck": 3}, "option deck is not a string: 3"),
        ({"deck": ["AS", "KD"]}, "option deck is not a string: ['AS', 'KD']"),
        ({"deck": "AS,KD,AS"}, "MP-CARDS: AS named twice: name each card once"),
        ({"clock": "0 25:00"}, "MP-CLOCK: clock '0 25:00': the day is 1 to 10000"),
        ({"colour": "red"}, "magicpunk sessions take no option 'colour'"),
    ],
)
def test_magicpunk_options_are_checked_on_open(
    tmp_path: Path, options: dict, fragment: str
) -> None:
    """A magicpunk header whose clock or deck is of the wrong type, a deck with a duplicate, a
    bad clock, an unknown option: exit 3 ("header options refused") for every command."""
    path = header_log(tmp_path, options=options)
    assert_unusable(path, f"{path}: header options refused: {fragment}")


def test_an_option_for_a_system_without_options_is_refused(tmp_path: Path) -> None:
    """pf2e takes no init option: a header with one is unusable."""
    path = header_log(tmp_path, "pf2e", {"clock": "1 12:00"})
    assert_unusable(path, "pf2e sessions take no option 'clock'")


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"options": [1, 2]}, "options of the wrong type"),
        ({"options": {1: "x"}}, "option name 1 is not a string"),
        ({"options": {"deck": {"AS": 1}}}, "option deck is a dict"),
        ({"session_id": "\x1b[2J"}, "session_id '\\x1b[2J' is not 1-64 of"),
        ({"created": "yesterday"}, "created 'yesterday' is not YYYY-MM-DDTHH:MM:SS.ffffffZ"),
        ({"title": 7}, "title is not a string"),
    ],
)
def test_header_fields_of_the_wrong_shape_are_refused(
    tmp_path: Path, fields: dict, fragment: str
) -> None:
    """Options that are no map, an option name that is no string, an option value that is no
    plain value, a session id or creation time of the wrong shape: a malformed header."""
    path = header_log(tmp_path, "toy", **fields)
    assert_unusable(path, f"{path}: malformed header (")
    assert fragment in invoke(path, "state").stderr


def test_good_magicpunk_options_open(tmp_path: Path) -> None:
    """The options `init` writes (strings the system accepts) open as before."""
    path = header_log(tmp_path, options={"clock": "2 08:30", "deck": "AS,KD,QH"})
    result = invoke(path, "state")
    assert (result.exit_code, result.stderr) == (0, "")
    assert 'clock: {"day": 2, "minutes": 510}' in result.stdout
