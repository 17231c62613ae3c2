"""Names entering the log read back cleanly in every system (CORE-NAME), and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import ok, refused

ADD = {
    "pf2e": ("pf2e", "character", "add", "{}", "--level", "3"),
    "magicpunk": (
        "magicpunk",
        "character",
        "add",
        "{}",
        "--body",
        "8",
        "--sense",
        "8",
        "--intellect",
        "8",
        "--magic",
        "8",
        "--hp",
        "20",
    ),
    "fate": ("fate", "servant", "add", "{}", "--hp", "60", "--mp", "60"),
    "saga": ("saga", "unit", "add", "{}", "--max-hp", "100"),
}
BAD = {
    "": "cannot be empty",
    "  ": "cannot be empty",
    " Zed": "cannot start or end with a space",
    "a\nb": "control characters",
    "x\x1b[31mred": "control characters",
    "n" * 65: "at most 64",
    "Zoe\u0308": "not in composed form",
    ".": "no URL path segment",
    "..": "no URL path segment",
    "Ann,Bo": "cannot hold a comma",
}


@pytest.mark.parametrize("system", sorted(ADD))
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_names_are_refused_in_every_system(tmp_path: Path, system: str, name: str) -> None:
    """Empty, padded, control-character, overlong, decomposed names, ``.``/``..`` and names with
    a comma (issue 15 item 22) exit 1 with CORE-NAME."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", system)
    args = [a.format(name) if a == "{}" else a for a in ADD[system]]
    err = refused(log, *args)
    assert err.startswith("error: CORE-NAME: ")
    assert BAD[name] in err


@pytest.mark.parametrize("system", sorted(ADD))
def test_a_taken_name_is_core_name_in_every_system(tmp_path: Path, system: str) -> None:
    """Adding a name the session already has exits 1 with CORE-NAME."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", system)
    args = [a.format("Zoë") if a == "{}" else a for a in ADD[system]]
    ok(log, *args)
    assert refused(log, *args).startswith("error: CORE-NAME: ")


@pytest.mark.rule("CORE-NAME")
@pytest.mark.parametrize(
    "args",
    [
        ("pf2e", "item", "add", "{}", "--base", "dagger"),
        ("magicpunk", "item", "add", "{}", "--owner", "Zoë"),
    ],
)
@pytest.mark.parametrize("name", [".", ".."])
def test_an_item_named_dot_or_dot_dot_is_refused(
    tmp_path: Path, args: tuple[str, ...], name: str
) -> None:
    """``.`` and ``..`` are no URL path segment: an item so named is CORE-NAME too."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", args[0])
    if args[0] == "magicpunk":  # an item has an owner there
        ok(log, *[a.format("Zoë") if a == "{}" else a for a in ADD["magicpunk"]])
    err = refused(log, *[a.format(name) if a == "{}" else a for a in args])
    assert err == (
        f"error: CORE-NAME: a name cannot be {name!r}, which is no URL path segment "
        "(RFC 3986 §5.2.4): the table's pages could not name it\n"
    )
