"""Completion in bash, zsh and fish (click's `_TABLELOG_COMPLETE` protocol) offers the log's
names and the catalogues, as docs/COMMANDS.md says (the shell)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import ok


def complete(words: str, cword: int, shell: str = "bash", **env: str) -> list[str]:
    """What `tablelog` offers for COMP_WORDS=WORDS at index CWORD (the values only)."""
    done = subprocess.run(
        [sys.executable, "-c", "from tablelog.cli.main import main; main()"],
        env=dict(
            os.environ,
            _TABLELOG_COMPLETE=f"{shell}_complete",
            COMP_WORDS=words,
            COMP_CWORD=str(cword),
            **env,
        ),
        capture_output=True,
        text=True,
        check=True,
    )
    if shell == "bash":
        return [line.split(",", 1)[1] for line in done.stdout.splitlines() if line]
    return done.stdout.splitlines()[1::3]  # zsh: type, value, help


def test_bash_completes_names_and_runes_from_the_log(tmp_path: Path) -> None:
    """`pf2e etch ` offers the log's characters and items; `… longsword-1 fl` the runes."""
    log = tmp_path / "smithy.tlog"
    ok(log, "init", "--system", "pf2e")
    ok(log, "pf2e", "character", "add", "Valeros")
    ok(log, "pf2e", "item", "add", "longsword-1", "--base", "longsword", "--owner", "Valeros")
    assert complete(f"tablelog --log {log} pf2e etch ", 5) == ["Valeros", "longsword-1"]
    assert complete(f"tablelog --log {log} pf2e etch longsword-1 fl", 6) == [
        "flaming",
        "flickering",
        "flurrying",
    ]
    assert complete(f"tablelog --log {log} note x --about ", 6) == ["Valeros", "longsword-1"]


def test_zsh_reads_the_log_from_the_environment(tmp_path: Path) -> None:
    """With $TABLELOG_LOG set, `saga cast G` offers Gustave."""
    log = tmp_path / "wolf.tlog"
    ok(log, "init", "--system", "saga")
    ok(log, "saga", "unit", "add", "Gustave", "--max-hp", "320")
    assert complete("tablelog saga cast G", 3, "zsh", TABLELOG_LOG=str(log)) == ["Gustave"]


def fish(words: str, token: str) -> list[str]:
    """What `tablelog` offers fish for the command line WORDS whose last token is TOKEN
    (fish passes the token being typed, not an index): `value<TAB>what it is` lines."""
    done = subprocess.run(
        [sys.executable, "-c", "from tablelog.cli.main import main; main()"],
        env=dict(
            os.environ, _TABLELOG_COMPLETE="fish_complete", COMP_WORDS=words, COMP_CWORD=token
        ),
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split(",", 1)[1] for line in done.stdout.splitlines()]  # type,value<TAB>help


def test_fish_offers_names_and_techs(tmp_path: Path) -> None:
    """fish (docs/COMMANDS.md's third shell): `saga cast ` offers Gustave as a character, and
    `… Gustave kiri-ha` the catalogue's kiri-harai with its Japanese name."""
    log = tmp_path / "wolf.tlog"
    ok(log, "init", "--system", "saga")
    ok(log, "saga", "unit", "add", "Gustave", "--max-hp", "320")
    assert fish(f"tablelog --log {log} saga cast ", "") == ["Gustave\tcharacter"]
    assert fish(f"tablelog --log {log} saga cast Gustave kiri-ha", "kiri-ha") == [
        "kiri-harai\t斬り払い"
    ]


def test_without_a_log_commands_still_complete(tmp_path: Path) -> None:
    """No log: names are simply not offered, and command names still are."""
    missing = tmp_path / "none.tlog"
    assert complete(f"tablelog --log {missing} pf2e etch ", 5) == []
    assert complete(f"tablelog --log {missing} stat", 3) == ["state", "status"]


def test_bash_completes_a_hostile_name_as_one_quoted_word(tmp_path: Path) -> None:
    """A player names a character `x$(touch${IFS}pwned)`: bash is offered it quoted, and the
    completed command line, run by bash, passes the name as text (no `pwned` file: bash once
    got it raw, inserted it as it was and ran the command substitution on Enter); zsh, which
    quotes what it inserts, gets it as it is."""
    log = tmp_path / "s.tlog"
    name = "x$(touch${IFS}pwned)"
    ok(log, "init", "--system", "pf2e")
    ok(log, "pf2e", "character", "add", name)
    offered = complete(f"tablelog --log {log} pf2e etch ", 5)
    assert offered == ["'x$(touch${IFS}pwned)'"]
    line = subprocess.run(
        ["bash", "-c", f"printf %s {offered[0]}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert (name, False) == (line.stdout, (tmp_path / "pwned").exists())
    assert [name] == complete(f"tablelog --log {log} pf2e etch ", 5, "zsh")


@pytest.mark.slow
def test_a_catalogue_is_offered_only_in_its_own_systems_commands(tmp_path: Path) -> None:
    """`fate master add … --quality ` is a circuit grade: it offers nothing from magicpunk's
    procurement qualities (a parameter name two systems share); `magicpunk procure` still
    offers them."""
    log = tmp_path / "war.tlog"
    ok(log, "init", "--system", "fate")
    words = f"tablelog --log {log} fate master add Kiritsugu --quality "
    assert complete(words, len(words.split())) == []
    magicpunk = complete(f"tablelog --log {log} magicpunk procure x --quality ", 7)
    assert magicpunk == ["poor", "standard", "fine", "masterwork", "legendary"]
