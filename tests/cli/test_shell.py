"""`tablelog shell` through a pseudo-terminal (pexpect): the implied system, Tab completion,
history across sessions, Ctrl-C and Ctrl-D, undo/redo/status as words, another writer; and the
completer's candidates for each kind of parameter."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.document import Document

from tablelog.cli.core import Env
from tablelog.cli.main import cli
from tablelog.cli.shell import Shell
from tablelog.cli.shell.completion import ShellCompleter, split_line
from tests.support.cli import ok, refused
from tests.support.needs import missing
from tests.support.shell import PROMPT, events, leave, spawn, type_line

try:
    import pexpect  # noqa: F401 - tests.support.shell drives it
except ImportError:  # a skip in CI would hide it: needs.missing fails there
    missing("pexpect is missing: make test installs it (pip install pexpect)")


@pytest.fixture
def war(tmp_path: Path) -> Path:
    """A fate log with two masters."""
    log = tmp_path / "war.tlog"
    ok(log, "init", "--system", "fate", "--seed", "7")
    for name in ("Kiritsugu", "Tokiomi"):
        ok(
            log,
            "fate",
            "master",
            "add",
            name,
            "--quality",
            "B",
            "--quantity",
            "C",
            "--crest",
            "D",
            "--attribute",
            "fire",
            "--hp",
            "40",
            "--mp",
            "30",
            "--cc-budget",
            "20",
        )
    return log


def test_implied_system_and_tab_completion(war: Path, tmp_path: Path) -> None:
    """`cha<Tab>Toki<Tab><Enter>` runs `fate chant Tokiomi`: the event is printed and logged."""
    child = spawn(war, tmp_path / "history")
    child.send("cha\t")
    child.expect("nt")
    child.send("Toki\t")
    child.expect("omi")
    child.send("\r")
    child.expect(r"#3 fate\.Chanted Tokiomi chants\r\n")
    child.expect(PROMPT)
    assert leave(child) == 0
    last = events(war)[-1]
    assert (last["type"], last["data"]) == ("fate.Chanted", {"name": "Tokiomi"})


def test_ctrl_c_cancels_the_line_and_ctrl_d_leaves(war: Path, tmp_path: Path) -> None:
    """A note typed and cancelled with Ctrl-C is not logged; Ctrl-D leaves with status 0."""
    before = war.read_bytes()
    child = spawn(war, tmp_path / "history")
    child.send("note lost")
    child.expect("lost")
    child.send("\x03")
    child.expect(PROMPT)
    assert leave(child) == 0
    assert before == war.read_bytes()


def test_history_is_kept_across_sessions(war: Path, tmp_path: Path) -> None:
    """A line typed in one shell comes back with Up in the next one."""
    history = tmp_path / "history"
    child = spawn(war, history)
    assert "#3 core.Noted" in type_line(child, "note first")
    assert leave(child) == 0
    child = spawn(war, history)
    child.send("\x1b[A")
    child.expect("first")
    child.send("\r")
    child.expect(r"#4 core\.Noted")
    child.expect(PROMPT)
    assert leave(child) == 0
    assert [e["data"] for e in events(war)[-2:]] == [{"text": "first"}] * 2


def test_a_history_file_it_cannot_use_is_one_warning(war: Path, tmp_path: Path) -> None:
    """$TABLELOG_HISTORY naming a directory: one warning line on the first line typed, then the
    shell goes on (it printed a traceback and `Press ENTER to continue...` at each line)."""
    child = spawn(war, tmp_path)
    printed = type_line(child, "note one")
    assert f"warning: the history is kept for this session only ({tmp_path}: Is a directory)" in (
        printed
    )
    assert "#3 core.Noted" in printed
    printed = type_line(child, "note two")
    assert "#4 core.Noted" in printed
    assert "warning" not in printed and "Traceback" not in printed + child.before
    assert leave(child) == 0


@pytest.mark.rule("CORE-UNDO")
def test_undo_redo_status_and_errors(war: Path, tmp_path: Path) -> None:
    """undo, redo and status are words; a refused line prints its error and the shell goes on."""
    child = spawn(war, tmp_path / "history")
    assert "error: UNKNOWN-NAME: no character named Nobody" in type_line(child, "chant Nobody")
    assert "#3 core.Undone #2" in type_line(child, "undo")
    assert "#4 core.Redone #2" in type_line(child, "redo")
    assert "Tokiomi    master  HP 40/40  MP 30/30  tiles 6/6\r\n" in type_line(child, "status")
    assert leave(child) == 0


def test_another_writer_is_seen_on_the_next_line(war: Path, tmp_path: Path) -> None:
    """A note appended by another process while the shell is open is undone by its `undo`."""
    child = spawn(war, tmp_path / "history")
    ok(war, "note", "from elsewhere")
    assert "#4 core.Undone #3" in type_line(child, "undo")
    assert leave(child) == 0


@pytest.mark.parametrize("command", ["shell", "serve --port 0"])
def test_a_script_cannot_start_a_shell_or_a_server(war: Path, tmp_path: Path, command: str) -> None:
    """`shell` or `serve` as a script line is a usage error naming the line."""
    script = tmp_path / "s.txt"
    script.write_text(f"{command}\n")
    name = command.split()[0]
    assert (
        f"error: s.txt line 1: {name} runs from the command line, not from a script or the shell\n"
    ) == refused(war, "run", str(script), status=2).replace(f"{tmp_path}/", "")


def test_serve_and_shell_are_refused_in_the_shell_which_goes_on(war: Path, tmp_path: Path) -> None:
    """In the interactive shell (its own event loop) `serve` and `shell` get one error line each,
    not a traceback; the shell goes on, and `help` does not list them."""
    child = spawn(war, tmp_path / "history")
    for name in ("serve", "shell"):
        printed = type_line(child, name)
        assert (
            f"error: {name} runs from the command line, not from a script or the shell" in printed
        )
        assert "Traceback" not in printed
    listed = type_line(child, "help")
    assert "  chant " in listed
    assert "  serve " not in listed and "  shell " not in listed
    assert "#3 core.Noted" in type_line(child, "note still-here")
    assert leave(child) == 0


# -- the completer's candidates -------------------------------------------------------------


def completions(log: Path, text: str) -> list[str]:
    """What Tab offers after TEXT on LOG (the completion texts, without their spaces)."""
    shell = Shell(Env(log_path=str(log), actor="gm"), cli)
    completer = ShellCompleter(shell.resolve, shell.first_words, shell.state)
    return [c.text.rstrip() for c in completer.get_completions(Document(text), None)]


def test_completion_of_names_options_and_seqs(war: Path) -> None:
    """Names of the table, a command's options, choices, seqs latest first, quoting."""
    assert completions(war, "cha") == ["chant"]
    assert completions(war, "serv") == ["servant"]  # not serve: it cannot run in the shell
    assert completions(war, "cast Kiritsugu attack --target T") == ["Tokiomi"]
    assert completions(war, "note x --about ") == ["Kiritsugu", "Tokiomi"]
    assert completions(war, "cast Kiritsugu attack --ti") == ["--tiles"]
    assert completions(war, "cast Kiritsugu attack --ta") == ["--target"]
    assert completions(war, "cast Tokiomi ") == ["attack", "defense", "heal", "buff", "curse"]
    assert completions(war, "row Tokiomi ") == ["front", "back"]
    assert completions(war, "undo ") == ["2", "1"]
    assert completions(war, "rules pf2e-xfer-6") == ["PF2E-XFER-6"]
    assert split_line("chant 'Toki") == (["chant"], "Toki")  # an open quote: still completed


def test_completion_of_catalogues_and_cards(tmp_path: Path) -> None:
    """Runes and base items (pf2e), techs with their Japanese names (saga), a hand (magicpunk)."""
    pf2e = tmp_path / "p.tlog"
    ok(pf2e, "init", "--system", "pf2e")
    assert {"flaming", "frost"} <= set(completions(pf2e, "etch sword-1 f"))
    assert completions(pf2e, "item add s-1 --base long") == ["longsword", "longbow"]
    saga = tmp_path / "s.tlog"
    ok(saga, "init", "--system", "saga")
    assert "kiri-harai" in completions(saga, "cast Gustave kiri")
    shell = Shell(Env(log_path=str(saga), actor="gm"), cli)
    completer = ShellCompleter(shell.resolve, shell.first_words, shell.state)
    shown = {
        c.text.rstrip(): c.display_meta_text
        for c in completer.get_completions(Document("cast Gustave kiri-ha"), None)
    }
    assert shown == {"kiri-harai": "斬り払い"}  # the Japanese name beside the id
    mp = tmp_path / "m.tlog"
    ok(mp, "init", "--system", "magicpunk")
    ok(
        mp,
        "magicpunk",
        "character",
        "add",
        "Aria",
        "--body",
        "8",
        "--sense",
        "12",
        "--intellect",
        "10",
        "--magic",
        "10",
        "--hp",
        "26",
    )
    ok(mp, "magicpunk", "draw", "Aria", "2", "--cards", "AS,3C")
    assert completions(mp, "play Aria ") == ["AS", "3C"]
    ok(mp, "magicpunk", "item", "add", "a-battery", "--owner", "Aria")
    assert completions(mp, "charge a-battery ") == ["AS", "3C"]  # it holds none: Aria's
    assert {"magic-shell", "magic-silver-thread", "magic-wood", "magic-beast-hide"} == set(
        completions(mp, "procure Aria --material mag")
    )


# -- piped input: the exit status ---------------------------------------------------------


def piped(log: Path, text: str) -> tuple[int, str, str]:
    """Run `tablelog --log LOG shell` with TEXT on its standard input (not a terminal)."""
    import subprocess
    import sys

    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from tablelog.cli.main import main; main()",
            "--log",
            str(log),
            "shell",
        ],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return result.returncode, result.stdout, result.stderr


def test_piped_lines_exit_with_their_worst_status(war: Path) -> None:
    """A refused line makes piped input exit 1 (as the CLI would); clean lines exit 0."""
    assert piped(war, "chant Nobody\n") == (
        1,
        "",
        "error: UNKNOWN-NAME: no character named Nobody\n",
    )
    assert piped(war, "chant Tokiomi\n")[0] == 0


@pytest.mark.parametrize("text", ["status\n", ""])
def test_piped_input_on_no_log_exits_3_with_its_error(tmp_path: Path, text: str) -> None:
    """`echo status | … shell` and `… shell </dev/null` on a missing log: one error line, 3."""
    log = tmp_path / "missing.tlog"
    assert (3, "", f"error: no log at {log} (create one with: tablelog init)\n") == piped(log, text)


def test_exit_with_a_word_is_refused_and_help_names_a_command(war: Path) -> None:
    """`exit now` complains and the shell goes on (status 2 at the end); `help chant` prints
    chant's own help."""
    status, out, err = piped(war, "help chant\nexit now\nnote after\n")
    assert status == 2
    assert err == "error: exit takes no words (got now); the shell goes on\n"
    assert out.startswith("Usage: tablelog fate chant [OPTIONS] NAME\n")
    assert "#3 core.Noted 'after'\n" in out
