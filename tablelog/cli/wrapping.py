"""``--help`` wrapped by display width, so Japanese and Korean help fits the terminal.

Click's :class:`click.HelpFormatter` measures text in characters and breaks lines only at
spaces: a Japanese sentence (no spaces, two columns a character) becomes one line twice as wide
as the terminal, and a Korean one (spaces, but two columns a syllable) wraps at twice the width.
:class:`WideHelpFormatter` measures in terminal columns (East Asian Width W and F count 2:
:func:`tablelog.cli.columns.display_width`), breaks Japanese between any two characters with
the basic *kinsoku* rules (no line starts with closing punctuation, a small kana or ``ー``; none
ends with an opening bracket), and breaks Korean at its spaces only. Text with no wide character
is left to click's own formatter, and so is every help in English (:class:`HelpContext`), so
English help is byte for byte what click writes.

:func:`wide_help` makes it the formatter of a command and every command below it (click makes a
new :class:`click.Context` per command, of the command's ``context_class``; the root's class is
not inherited).
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterable, Sequence

import click

from tablelog.cli.columns import display_width

__all__ = [
    "WideHelpFormatter",
    "HelpContext",
    "WIDE_LANGUAGES",
    "wide_help",
    "wrap_text",
    "columns",
    "is_wide",
]

NO_START = frozenset(
    "、。，．・：；？！‼⁇⁈⁉゛゜ヽヾゝゞ々〻ー‐゠–〜～…‥"
    "）］｝〕〉》」』】〙〗〟’”｠»"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    ")]},.:;!?%"
)
"""Characters no line may start with: closing punctuation, small kana, the long-vowel mark."""

NO_END = frozenset("（［｛〔〈《「『【〘〖〝‘“｟«([{")
"""Characters no line may end with: opening brackets and quotes."""

_HANGUL = (
    (0x1100, 0x11FF),  # Jamo
    (0x3130, 0x318F),  # compatibility Jamo
    (0xA960, 0xA97F),  # Jamo extended A
    (0xAC00, 0xD7AF),  # syllables
    (0xD7B0, 0xD7FF),  # Jamo extended B
)


def columns(text: str) -> int:
    """Return the terminal columns ``text`` takes, ANSI escape sequences not counted.

    Args:
        text: Any text (a line or part of one).

    Returns:
        The width in columns: 2 for each East Asian Wide or Full-width character, else 1.
    """
    from click._compat import strip_ansi

    return display_width(strip_ansi(text))


def is_wide(text: str) -> bool:
    """Return True when ``text`` holds a character two columns wide (East Asian W or F)."""
    return any(unicodedata.east_asian_width(ch) in "WF" for ch in text)


def _hangul(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _HANGUL)


def _ideographic(ch: str) -> bool:
    """A character a line may break before or after with no space (kana, kanji, full-width
    punctuation): wide, and not Hangul (Korean breaks at its spaces)."""
    return unicodedata.east_asian_width(ch) in "WF" and not _hangul(ch)


def _may_break(before: str, after: str) -> bool:
    """May a line end after ``before`` and the next start with ``after`` (two characters that
    stand side by side, no space between them)?"""
    if not (_ideographic(before) or _ideographic(after)):
        return False
    if _hangul(before) or _hangul(after):
        return False
    return after not in NO_START and before not in NO_END


class _WideWrapper(textwrap.TextWrapper):
    """A :class:`textwrap.TextWrapper` that measures in columns and splits Japanese words
    between characters (kinsoku kept: a piece never starts with :data:`NO_START` nor ends
    with :data:`NO_END`)."""

    def _split(self, text: str) -> list[str]:
        pieces: list[str] = []
        for chunk in super()._split(text):
            if not chunk.strip() or not is_wide(chunk):
                pieces.append(chunk)
                continue
            start = 0
            for i in range(1, len(chunk)):
                if _may_break(chunk[i - 1], chunk[i]):
                    pieces.append(chunk[start:i])
                    start = i
            pieces.append(chunk[start:])
        return pieces

    def _handle_long_word(
        self, reversed_chunks: list[str], cur_line: list[str], cur_len: int, width: int
    ) -> None:
        space_left = max(width - cur_len, 1)
        if self.break_long_words:
            chunk = reversed_chunks[-1]
            end, used = 0, 0
            while end < len(chunk) and used + columns(chunk[end]) <= space_left:
                used += columns(chunk[end])
                end += 1
            if end == 0 and not cur_line:
                end = 1  # a wide character in a single free column: it goes on, over by one
            cur_line.append(chunk[:end])
            reversed_chunks[-1] = chunk[end:]
        elif not cur_line:
            cur_line.append(reversed_chunks.pop())

    def _wrap_chunks(self, chunks: list[str]) -> list[str]:
        """:meth:`textwrap.TextWrapper._wrap_chunks` measured in columns (no ``max_lines``)."""
        lines: list[str] = []
        if self.width <= 0:
            raise ValueError(f"invalid width {self.width!r} (must be > 0)")
        chunks.reverse()
        while chunks:
            cur_line: list[str] = []
            cur_len = 0
            indent = self.subsequent_indent if lines else self.initial_indent
            width = self.width - columns(indent)
            if self.drop_whitespace and chunks[-1].strip() == "" and lines:
                del chunks[-1]
            while chunks:
                n = columns(chunks[-1])
                if cur_len + n > width:
                    break
                cur_line.append(chunks.pop())
                cur_len += n
            if chunks and columns(chunks[-1]) > width:
                self._handle_long_word(chunks, cur_line, cur_len, width)
                cur_len = sum(map(columns, cur_line))
            if self.drop_whitespace and cur_line and cur_line[-1].strip() == "":
                cur_len -= columns(cur_line[-1])
                del cur_line[-1]
            if cur_line:
                lines.append(indent + "".join(cur_line))
        return lines


def wrap_text(
    text: str,
    width: int = 78,
    initial_indent: str = "",
    subsequent_indent: str = "",
    preserve_paragraphs: bool = False,
) -> str:
    """Wrap ``text`` to ``width`` columns: :func:`click.formatting.wrap_text`, measured in
    terminal columns and breaking Japanese between characters.

    Args:
        text: The text; with ``preserve_paragraphs``, paragraphs are separated by an empty
            line, and one whose first line is ``\\b`` alone is kept as it is (indented only).
        width: The widest a line may be, in columns, indents included (> 0).
        initial_indent: Put before the first line.
        subsequent_indent: Put before every other line.
        preserve_paragraphs: Wrap each paragraph on its own, keeping its indentation.

    Returns:
        The lines joined by ``\\n`` (no newline at the end). A word wider than the line (no
        space and no place a line may break) is cut at the width.

    Raises:
        ValueError: ``width`` leaves no column for text.
    """
    text = text.expandtabs()
    wrapper = _WideWrapper(
        width,
        initial_indent=initial_indent,
        subsequent_indent=subsequent_indent,
        replace_whitespace=False,
    )
    if not preserve_paragraphs:
        return wrapper.fill(text)
    paragraphs: list[tuple[int, bool, str]] = []
    buf: list[str] = []
    indent: int | None = None

    def flush() -> None:
        if not buf:
            return
        if buf[0].strip() == "\b":
            paragraphs.append((indent or 0, True, "\n".join(buf[1:])))
        else:
            paragraphs.append((indent or 0, False, " ".join(buf)))
        del buf[:]

    for line in text.splitlines():
        if not line:
            flush()
            indent = None
        else:
            if indent is None:
                stripped = line.lstrip()
                indent = columns(line) - columns(stripped)
                line = stripped
            buf.append(line)
    flush()
    out = []
    first, rest = wrapper.initial_indent, wrapper.subsequent_indent
    for extra, raw, para in paragraphs:
        wrapper.initial_indent, wrapper.subsequent_indent = first + " " * extra, rest + " " * extra
        if raw:
            lines = para.splitlines()
            out.append(
                "\n".join(
                    (wrapper.initial_indent if i == 0 else wrapper.subsequent_indent) + line
                    for i, line in enumerate(lines)
                )
            )
        else:
            out.append(wrapper.fill(para))
    wrapper.initial_indent, wrapper.subsequent_indent = first, rest
    return "\n\n".join(out)


class WideHelpFormatter(click.HelpFormatter):
    """Click's help formatter, wrapping by display width (see the module's docstring).

    Each of :meth:`write_usage`, :meth:`write_text` and :meth:`write_dl` hands text with no
    wide character to click's own method unchanged, so English help is exactly click's.
    """

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        """Write the usage line: ``prefix`` (click's ``Usage:``), ``prog``, then ``args``
        wrapped under the end of ``prog`` (or on the next lines when that leaves < 20 columns).
        """
        if prefix is None:
            prefix = "{usage} ".format(usage=click.formatting._("Usage:"))  # type: ignore[attr-defined]
        if not is_wide(prefix + prog + args):
            super().write_usage(prog, args, prefix)
            return
        usage_prefix = f"{prefix:>{self.current_indent}}{prog} "
        text_width = self.width - self.current_indent
        if not args:
            self.write(usage_prefix.rstrip(" ") + "\n")
            return
        if text_width >= columns(usage_prefix) + 20:
            indent = " " * columns(usage_prefix)
            self.write(wrap_text(args, text_width, usage_prefix, indent))
        else:
            self.write(usage_prefix + "\n")
            indent = " " * (max(self.current_indent, columns(prefix)) + 4)
            self.write(wrap_text(args, text_width, indent, indent))
        self.write("\n")

    def write_text(self, text: str) -> None:
        """Write ``text`` re-wrapped to the width at the current indentation, its paragraphs
        kept (a ``\\b`` paragraph as it is)."""
        if not is_wide(text):
            super().write_text(text)
            return
        indent = " " * self.current_indent
        self.write(wrap_text(text, self.width, indent, indent, preserve_paragraphs=True))
        self.write("\n")

    def write_dl(
        self,
        rows: Sequence[tuple[str, str]] | Iterable[tuple[str, str]],
        col_max: int = 30,
        col_spacing: int = 2,
    ) -> None:
        """Write a definition list (the options, the commands): each term, then its text
        wrapped in a second column that starts ``col_spacing`` columns after the widest term
        (at most ``col_max`` columns wide; a wider term has its text start on the next line).

        Raises:
            TypeError: A row is not of two columns.
        """
        rows = list(rows)
        if not any(is_wide(cell) for row in rows for cell in row):
            super().write_dl(rows, col_max, col_spacing)
            return
        if {len(row) for row in rows} - {1, 2} or not any(len(row) == 2 for row in rows):
            raise TypeError("Expected two columns for definition list")
        first_col = min(max(columns(row[0]) for row in rows), col_max) + col_spacing
        for row in rows:
            first, second = row[0], (row[1] if len(row) > 1 else "")
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if columns(first) <= first_col - col_spacing:
                self.write(" " * (first_col - columns(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            text_width = max(self.width - first_col - 2, 10)
            lines = wrap_text(second, text_width, preserve_paragraphs=True).splitlines()
            if not lines:
                self.write("\n")
                continue
            self.write(f"{lines[0]}\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n")


WIDE_LANGUAGES = ("ja", "ko")
"""The readers' languages whose help :class:`HelpContext` wraps by display width."""


class HelpContext(click.Context):
    """A :class:`click.Context` whose help is written by :class:`WideHelpFormatter` when the
    reader's language is Japanese or Korean (:data:`WIDE_LANGUAGES`), else by click's own
    formatter: English help is what it always was, even where it quotes a wide word."""

    def make_formatter(self) -> click.HelpFormatter:
        """Return the formatter of this command's help (the terminal's width, at most
        ``max_content_width`` columns, as click's)."""
        from tablelog.lang import reader

        if self.formatter_class is click.HelpFormatter and reader().lang in WIDE_LANGUAGES:
            return WideHelpFormatter(width=self.terminal_width, max_width=self.max_content_width)
        return super().make_formatter()


def wide_help(command: click.Command) -> click.Command:
    """Have ``command`` and every command below it (a group's ``commands``) write their help
    with :class:`WideHelpFormatter`. A command with a context class of its own keeps it.

    Returns:
        ``command`` itself.
    """
    if command.context_class is click.Context:
        command.context_class = HelpContext
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            wide_help(sub)
    return command
