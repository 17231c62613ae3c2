"""``--help`` fits the terminal in Japanese and Korean (tablelog/cli/wrapping.py): lines are
measured in columns (a wide character two), Japanese breaks between characters with kinsoku,
Korean at its spaces; nothing is lost; English is click's own output, byte for byte."""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from tablelog.cli.columns import display_width
from tablelog.cli.help import speak, translate
from tablelog.cli.main import cli
from tablelog.cli.wrapping import NO_END, NO_START, HelpContext, is_wide, wrap_text
from tablelog.lang import Words, set_reader

WIDTHS = (60, 80)
# The one kind of line allowed to be wider than the terminal: an option's term whose choice
# metavar is one unbreakable token (`--usage [armor|…|weapon]`); click writes the first column
# as it is, in every language (English too), and it holds no wide character.
CHOICE_TERM = re.compile(r"^ +--[\w-]+ \[[^\s\]]+\]$")
JA_NO_START = {ch for ch in NO_START if is_wide(ch)}
JA_NO_END = {ch for ch in NO_END if is_wide(ch)}


def _speak(lang: str) -> None:
    words = Words(lang)
    set_reader(words)
    speak(words)
    translate(cli, words)


def _paths() -> Iterator[list[str]]:
    """Every command path: the root, each system group and core command, and each below."""

    def walk(command: click.Command, path: list[str]) -> Iterator[list[str]]:
        yield path
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    yield from walk(sub, [*path, name])

    yield from walk(cli, [])


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """Leave the process in English, every command's help too (a command is translated again
    to the reader's language when it is next resolved)."""
    yield
    _speak("en")
    list(_paths())


def _help(lang: str, path: list[str], width: int) -> str:
    _speak(lang)
    result = CliRunner().invoke(
        cli,
        ["--lang", lang, *path, "--help"],
        prog_name="tablelog",
        env={"TABLELOG_LANG": None, "COLUMNS": None},
        terminal_width=width,
    )
    assert result.exit_code == 0, (path, result.output)
    return result.output


def _rendered(path: list[str], width: int) -> tuple[click.Command, str, str]:
    """Return the command at ``path`` and its help by the wide formatter and by click's own."""
    ctx: click.Context = HelpContext(cli, info_name="tablelog", terminal_width=width)
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        sub = command.get_command(ctx, name)
        assert sub is not None, path
        command = sub
        ctx = command.context_class(command, info_name=name, parent=ctx)
    wide = command.get_help(ctx)
    formatter = click.Context.make_formatter(ctx)  # click's own, as every command used before
    command.format_help(ctx, formatter)
    return command, wide, formatter.getvalue().rstrip("\n")


def _squeezed(text: str) -> str:
    return "".join(text.replace("\b", "").split())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_every_help_line_fits_the_terminal(lang: str, width: int) -> None:
    """Each line of every command's --help is at most the terminal's width in columns; no line
    starts with 、 or 。 (in Japanese: with no closing mark or small kana, and none ends with
    an opening bracket)."""
    paths = list(_paths())
    assert len(paths) > 50
    for path in paths:
        for line in _help(lang, path, width).splitlines():
            where = f"tablelog {' '.join(path)} --help: {line!r}"
            if not CHOICE_TERM.match(line):
                assert display_width(line) <= width, where
            stripped = line.strip()
            if not stripped:
                continue
            assert stripped[0] not in "、。", where
            if lang == "ja":
                assert stripped[0] not in JA_NO_START, where
                assert stripped[-1] not in JA_NO_END, where


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_wrapping_loses_nothing(lang: str, width: int) -> None:
    """The help, its line breaks and indentation removed, is click's unwrapped text, and holds
    the catalogue's text of the command's help and of each option's."""
    _speak(lang)
    for path in _paths():
        command, wide, plain = _rendered(path, width)
        assert _help(lang, path, width) == wide + "\n", path
        assert _squeezed(wide) == _squeezed(plain), path
        texts = [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
        for text in texts:
            assert _squeezed(text.partition("\f")[0]) in _squeezed(wide), (path, text)


def test_the_japanese_help_of_procure_is_wrapped() -> None:
    """The --request-id help, a ~100-column line before, is wrapped under its column."""
    text = _help("ja", ["magicpunk", "procure"], 80)
    lines = [line for line in text.splitlines() if "このidのコマンドが" in line]
    assert lines and lines[0].startswith("  --request-id ID ")
    assert max(display_width(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("width", [60, 80, 88])
@pytest.mark.parametrize(
    "path",
    [[], ["roll"], ["key", "new"], ["pf2e"], ["magicpunk", "procure"], ["saga"]]
    + [["fate", "master", "add"]],  # its English help quotes Korean words: still click's own
)
def test_english_help_is_clicks_own(path: list[str], width: int) -> None:
    """English --help is byte for byte what click's own formatter writes."""
    _speak("en")
    output = _help("en", path, width)
    _, wide, plain = _rendered(path, width)
    assert output == plain + "\n"
    assert wide == plain


def test_kinsoku() -> None:
    """Japanese breaks between characters, never before a closing mark or small kana, never
    after an opening bracket; Korean breaks at spaces; the width counts two a wide character."""
    text = "「カード」を一枚引く。ちょっと待って（数秒）、それから振る。"
    for width in range(6, 30):  # the widest unbreakable piece, 「カー, is 6 columns
        lines = wrap_text(text, width).splitlines()
        assert "".join(lines) == text
        for line in lines:
            assert display_width(line) <= width, (width, line)
            assert line[0] not in NO_START and line[-1] not in NO_END, (width, line)
    korean = "룬을 받을 수 없는 아이템으로의 이전은 자동 대실패로 기록된다"
    lines = wrap_text(korean, 20).splitlines()
    assert " ".join(lines) == korean
    assert all(display_width(line) <= 20 for line in lines)
    assert wrap_text("plain words " * 10, 30) == click.formatting.wrap_text("plain words " * 10, 30)
