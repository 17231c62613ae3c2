"""`table allow|forbid`: the table options that let players give physical cards, dice and random
factors (CORE-GIVEN; docs/SERVER.md, "Who chooses an outcome"), through the CLI, which has no
seats and takes `--cards`, `--dice` and `--roll` whatever the options say."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.support.cli import ok, refused
from tests.support.server import ADD


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A magicpunk log with Aria, seed 7."""
    path = tmp_path / "t.tlog"
    ok(path, "init", "--system", "magicpunk", "--seed", "7")
    ok(path, *shlex.split(ADD.format("Aria")))
    return path


@pytest.mark.rule("CORE-GIVEN")
def test_the_gm_allows_and_forbids_given_cards(log: Path) -> None:
    """allow appends core.TableOptionSet (allowed), forbid another (not); the log reads both."""
    assert (
        (ok(log, "table", "allow", "given-cards").splitlines()[0])
        == "#2 core.TableOptionSet players may give given-cards (table allow given-cards)"
    )
    forbid = json.loads(ok(log, "table", "forbid", "given-cards", "--json"))
    assert (
        forbid["type"],
        forbid["data"],
    ) == ("core.TableOptionSet", {"option": "given-cards", "allowed": False})
    assert forbid["event"] == (
        "players no longer give given-cards: tablelog draws and rolls for them"
    )


@pytest.mark.rule("CORE-GIVEN")
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ("allow", "given-factors"),
            "magicpunk has no table option 'given-factors' (it has given-cards, given-dice)",
        ),
        (("forbid", "given-dice"), "the table does not allow given-dice already"),
    ],
)
def test_an_option_the_system_has_not_or_one_already_so_is_refused(
    log: Path, args: tuple[str, ...], says: str
) -> None:
    """A saga option on a magicpunk log, or forbidding what is off, is CORE-GIVEN, exit 1."""
    assert f"error: CORE-GIVEN: {says}" == refused(log, "table", *args).splitlines()[0]


def test_an_unknown_option_is_a_usage_error(log: Path) -> None:
    """`table allow luck` is exit 2, naming the choices."""
    said = refused(log, "table", "allow", "luck", status=2)
    assert "given-cards" in said and "given-dice" in said and "given-factors" in said


@pytest.mark.rule("CORE-GIVEN")
def test_the_command_line_gives_cards_whatever_the_options(log: Path) -> None:
    """The CLI has no seats: `draw --cards` appends with every option off."""
    assert ok(log, "magicpunk", "draw", "Aria", "--cards", "KH").startswith(
        "#2 magicpunk.CardsDrawn Aria draws KH"
    )
