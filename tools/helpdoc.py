"""Regenerate the command references in docs/ from the commands' own `--help` (`make docs`).

A doc holds a block between two markers; the block is every command of the group the first
marker names, each as a heading and its `--help` text, in English at a fixed width::

    <!-- [[[help pf2e]]] -->   (a system's group and its subcommands; `core`: tablelog's own)
    <!-- [[[end]]] -->

`python -m tools.helpdoc` rewrites every stale block in docs/*.md; `--check` only names them
(exit 1). tests/contract/test_docs.py fails on a stale block and names the command.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from click.testing import CliRunner

from tablelog import systems
from tablelog.cli.help import speak, translate
from tablelog.cli.main import cli
from tablelog.lang import Words, reader, set_reader

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 88  # the terminal width the help is wrapped at, so the text is the same on any machine
COMMAND = "make docs"
BLOCK = re.compile(r"(<!-- \[\[\[help (\S+)\]\]\] -->\n)(.*?)(<!-- \[\[\[end\]\]\] -->)", re.S)
# The environment a reader may have set, left out so that no default shows what it holds.
UNSET = ("TABLELOG_LOG", "TABLELOG_ACTOR", "TABLELOG_LANG", "TABLELOG_HISTORY", "TZ", "COLUMNS")


def paths(group: str) -> Iterator[list[str]]:
    """Yield the command paths of a block: `core` is tablelog and its commands but the systems'
    groups; a system's name is its group and every command under it, depth first."""
    if group == "core":
        yield []
        ctx = click.Context(cli)
        for name in cli.list_commands(ctx):
            if name not in systems.names():
                yield from _walk(cli.get_command(ctx, name), [name])
    elif group in systems.REGISTRY:
        yield from _walk(cli.get_command(click.Context(cli), group), [group])
    else:
        raise ValueError(
            f"no command group {group!r} (core or a system: {sorted(systems.REGISTRY)})"
        )


def _walk(command: click.Command | None, path: list[str]) -> Iterator[list[str]]:
    """Yield PATH and, for a group, every command under it (in click's order)."""
    assert command is not None, path
    yield path
    if isinstance(command, click.Group):
        for name in command.list_commands(click.Context(command)):
            yield from _walk(command.get_command(click.Context(command), name), [*path, name])


def help_text(path: list[str]) -> str:
    """Return `tablelog PATH --help` as printed in English at WIDTH columns."""
    env: dict[str, str | None] = dict.fromkeys(UNSET)
    before = reader()
    try:
        _speak_as(Words("en"), path)  # click's words too: a process may have spoken another one
        result = CliRunner().invoke(
            cli,
            ["--lang", "en", *path, "--help"],
            prog_name="tablelog",
            env=env,
            terminal_width=WIDTH,
        )
    finally:
        _speak_as(before, path)
    if result.exit_code != 0:
        raise RuntimeError(f"tablelog {' '.join(path)} --help: exit {result.exit_code}")
    return result.output.rstrip() + "\n"


def _speak_as(words: Words, path: list[str]) -> None:
    """Make ``words`` the process's reader, click's own messages and the help of the commands
    on ``path`` and of those its help lists included (a system's group or a read command,
    loaded lazily, is no child of the root's: translating the root leaves it as it was)."""
    set_reader(words)
    speak(words)
    translate(cli, words)
    command: click.Command | None = cli
    for name in path:
        if not isinstance(command, click.Group):
            break
        command = command.get_command(click.Context(command), name)
        if command is not None:
            translate(command, words)
    if isinstance(command, click.Group):  # the commands its help lists, each with its line
        for name in command.list_commands(click.Context(command)):
            listed = command.get_command(click.Context(command), name)
            if listed is not None:
                translate(listed, words)


def block(group: str) -> str:
    """Return the generated text of a block: a heading and a fenced help text per command."""
    with _registry_only():
        parts = [_section(path) for path in paths(group)]
    return "\n" + "\n".join(parts) + "\n"


def _section(path: list[str]) -> str:
    """Return one command's heading and its help in a fenced block."""
    return f"### `{' '.join(['tablelog', *path])}`\n\n```text\n{help_text(path)}```\n"


@contextmanager
def _registry_only() -> Iterator[None]:
    """Hide the systems registered at run time (the tests' toy one): the reference is of the
    registry's systems, whatever a process registered before."""
    extra = {k: v for k, v in systems._LOADED.items() if k not in systems.REGISTRY}
    for name in extra:
        del systems._LOADED[name]
    try:
        yield
    finally:
        systems._LOADED.update(extra)


def regenerate(text: str) -> str:
    """Return TEXT with every block made current."""
    return BLOCK.sub(lambda m: m[1] + block(m[2]) + m[4], text)


def docs() -> list[Path]:
    """Return the docs that hold a block."""
    return [p for p in sorted((ROOT / "docs").glob("*.md")) if BLOCK.search(p.read_text("utf-8"))]


def main(argv: list[str]) -> int:
    """Rewrite the stale docs (or, with --check, name them); return the exit status."""
    stale = []
    for doc in docs():
        text = doc.read_text("utf-8")
        current = regenerate(text)
        if current != text:
            stale.append(doc.relative_to(ROOT))
            if "--check" not in argv:
                doc.write_text(current, "utf-8")
    for doc in stale:
        print(f"{doc}: {'stale: run ' + COMMAND if '--check' in argv else 'regenerated'}")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
