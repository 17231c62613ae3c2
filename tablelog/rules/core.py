"""Shared machinery of the pure rules layer: the rule violation, deterministic randomness, money.

Nothing here does I/O, reads the clock or uses :mod:`random`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from tablelog.text import Msg, english, msg

if TYPE_CHECKING:  # imported where used: start-up of every command pays for what it imports
    from fractions import Fraction

__all__ = [
    "RuleViolation",
    "Unknown",
    "check_name",
    "check_text",
    "escape_text",
    "draw_fraction",
    "draw_index",
    "rekeyed_seed",
    "gp_text",
    "require",
    "MAX_NAME_CHARS",
]

MAX_NAME_CHARS = 64


class Unknown(NamedTuple):
    """What an UNKNOWN-NAME refusal could not find, for "did you mean" (each face suggests
    from it): ``kind`` is ``"name"`` (a character or item), ``"character"``, ``"item"``,
    ``"rune"``, ``"base item"``, ``"tech"``, ``"rule id"`` or another catalogue's word;
    ``name`` the word given."""

    kind: str
    name: str


class RuleViolation(Exception):
    """A command (or an event on replay) that the rules refuse.

    Args:
        rule_id: The RULES.md ID of the clause that refuses it (e.g. ``"PF2E-ETCH-1"``), or
            ``"UNKNOWN-NAME"`` / ``"CORE-…"`` where no game rule applies.
        message: What was refused, naming the values involved: a :class:`~tablelog.text.Msg`
            (template id and values; each face renders it in its reader's language).
        unknown: For UNKNOWN-NAME, what was not found (:class:`Unknown`): the faces suggest
            names like it.

    Attributes:
        msg: The message as data.
        message: The message in English (the CLI's words), every secret shown.
    """

    def __init__(self, rule_id: str, message: Msg, unknown: Unknown | None = None) -> None:
        super().__init__(rule_id, message)
        self.rule_id = rule_id
        self.msg = message
        self.unknown = unknown
        self._english: str | None = None

    @property
    def message(self) -> str:
        if self._english is None:
            self._english = english(self.msg)
        return self._english

    def __str__(self) -> str:
        return f"{self.rule_id}: {self.message}"


def require(condition: object, rule_id: str, message: Msg, unknown: Unknown | None = None) -> None:
    """Raise :class:`RuleViolation` ``rule_id`` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise RuleViolation(rule_id, message, unknown)


# Characters that steer a terminal or hide what it shows: the C0 and C1 controls and DEL (ESC
# starts the sequences that erase, rewrite or retitle a terminal; a newline forges a line), the
# line and paragraph separators, and every format character (Unicode category Cf, as of Unicode
# 15: the bidirectional marks reorder a line; the zero-width space, the word joiner, the BOM, the
# soft hyphen … are invisible, so "Ann\u200b" would look exactly like "Ann"). check_name refuses
# Cc and Cf in a name; what it refuses at entry is shown escaped when a crafted log holds it.
_FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd"
    "\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
_MARKS = f"\x7f-\x9f\u2028\u2029{_FORMAT}"
_UNSAFE_RE = re.compile(f"[\x00-\x1f{_MARKS}]")
_UNSAFE_IN_LINES_RE = re.compile(f"[\x00-\x08\x0b-\x1f{_MARKS}]")  # tab and newline allowed
# What Python makes of bytes that are not UTF-8 in a command line or a file read leniently (the
# ``surrogateescape`` lone surrogates): text that cannot be stored, whatever its size.
_NOT_UTF8_RE = re.compile("[\ud800-\udfff]")
_SHORT_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def escape_text(text: str) -> str:
    """Return ``text`` with every control character written as an escape: ``\\n``, ``\\t``,
    ``\\r``, ``\\b``, ``\\f`` or ``\\uXXXX`` (valid inside a JSON string too), so that a
    string from a log (a note, an actor, a title, a name) shows as text on any terminal and
    never moves the cursor, rewrites the screen, sets the window title or starts a new line.

    Args:
        text: Any string; one whole output line at a time (its own line breaks are escaped).

    Returns:
        The same string where it has no such character (most strings: one regex scan).
    """
    if _UNSAFE_RE.search(text) is None:
        return text
    return _UNSAFE_RE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    """One character as JSON writes it: a short escape, ``\\uXXXX``, or a surrogate pair."""
    char = match.group()
    code = ord(char)
    if code > 0xFFFF:  # a tag character …: as JSON writes it, two escapes
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return _SHORT_ESCAPES.get(char, f"\\u{code:04x}")


def require_utf8(text: str, rule_id: str, what: Msg | str) -> None:
    """Refuse text holding bytes that are not UTF-8 (a command line in another encoding).

    Raises:
        RuleViolation: ``rule_id``, the text shown with those bytes as ``\\xNN``.
    """
    if _NOT_UTF8_RE.search(text) is not None:
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise RuleViolation(
            rule_id,
            msg(
                "core.text.not_utf8",
                "{what} holds bytes that are not UTF-8 text: '{text}'",
                what=what,
                text=escape_text(shown),
            ),
        )


def check_text(text: str, what: Msg | str, lines: bool = False) -> None:
    """Refuse free text that holds control characters where it enters (``--title``,
    ``undo --reason``, a note): they would steer other players' terminals when it is shown.

    Args:
        text: The text.
        what: What it is, for the message (``"the title"``).
        lines: Allow line breaks and tabs (a note may have several lines; they are escaped
            when shown).

    Raises:
        RuleViolation: CORE-TEXT, naming the text and the first such character.
    """
    require_utf8(text, "CORE-TEXT", what)
    found = (_UNSAFE_IN_LINES_RE if lines else _UNSAFE_RE).search(text)
    if found is not None:
        raise RuleViolation(
            "CORE-TEXT",
            msg(
                "core.text.control",
                "{what} cannot hold control characters ({char} in '{text}')",
                what=what,
                char=escape_text(found.group()),
                text=escape_text(text),
            ),
        )


def check_name(name: str, what: Msg | str | None = None) -> None:
    """Refuse a character, item or other table name that would not read back cleanly.

    A name is 1 to 64 characters, has no leading or trailing spaces, no control characters and no
    comma (options list names separated by commas), is not ``.`` or ``..`` (no URL path segment:
    RFC 3986 §5.2.4 resolves them away, so the server's ``…/state/NAME`` could not name it), and
    is in Unicode composed form (NFC), so two names that look alike are the same string.

    Raises:
        RuleViolation: CORE-NAME, saying what is wrong.
    """
    import unicodedata

    if what is None:
        what = msg("core.what.name", "a name")
    require_utf8(name, "CORE-NAME", what)
    if not name.strip():
        raise RuleViolation(
            "CORE-NAME", msg("core.name.empty", "{what} cannot be empty", what=what)
        )
    if not (name == name.strip()):
        raise RuleViolation(
            "CORE-NAME",
            msg(
                "core.name.space",
                "{what} cannot start or end with a space: {name!r}",
                what=what,
                name=name,
            ),
        )
    if len(name) > MAX_NAME_CHARS:
        raise RuleViolation(
            "CORE-NAME",
            msg(
                "core.name.long",
                "{what} has {n} characters; at most {most}",
                what=what,
                n=len(name),
                most=MAX_NAME_CHARS,
            ),
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
        raise RuleViolation(
            "CORE-NAME",
            msg(
                "core.name.control",
                "{what} cannot hold control characters: {name!r}",
                what=what,
                name=name,
            ),
        )
    if not ("," not in name):
        raise RuleViolation(
            "CORE-NAME",
            msg(
                "core.name.comma",
                "{what} cannot hold a comma (commas separate names in options like --who A,B): "
                "{name!r}",
                what=what,
                name=name,
            ),
        )
    if not (name not in (".", "..")):
        raise RuleViolation(
            "CORE-NAME",
            msg(
                "core.name.dots",
                "{what} cannot be {name!r}, which is no URL path segment (RFC 3986 §5.2.4): the "
                "table's pages could not name it",
                what=what,
                name=name,
            ),
        )
    composed = unicodedata.normalize("NFC", name)
    if name != composed:
        raise RuleViolation(
            "CORE-NAME",
            msg(
                "core.name.composed",
                "{what} {name!r} is not in composed form; write it as {composed!r}",
                what=what,
                name=name,
                composed=composed,
            ),
        )


_SCALE = 1 << 64


def _digest(seed: int, key: tuple[object, ...]) -> int:
    material = "\x1f".join(str(part) for part in key).encode("utf-8")
    seed_bytes = (seed & ((1 << 512) - 1)).to_bytes(64, "big")
    import hashlib

    h = hashlib.blake2b(material, key=seed_bytes, digest_size=8)
    return int.from_bytes(h.digest(), "big")


def draw_fraction(seed: int, *key: object) -> Fraction:
    """Return a uniform draw in [0, 1) decided by the session seed and a key.

    The same seed and key give the same value on every machine and Python version (a keyed
    BLAKE2b hash, not :mod:`random`), so a decision can be remade identically after an undo.

    Args:
        seed: The session's random seed (from the log header).
        *key: What identifies this draw (e.g. ``"draw", 3, 0`` for the first card of the fourth
            draw); parts are turned to text.

    Returns:
        An exact fraction with denominator 2**64.
    """
    from fractions import Fraction

    return Fraction(_digest(seed, key), _SCALE)


def rekeyed_seed(seed: int, *key: object) -> int:
    """Return a new 63-bit seed decided by ``seed`` and ``key`` (CORE-RANDOM: the session seed
    keyed by the latest undo/redo marker)."""
    return _digest(seed, key) >> 1


def draw_index(seed: int, n: int, *key: object) -> int:
    """Return a uniform index in ``range(n)`` decided by the session seed and a key.

    Args:
        seed: The session's random seed.
        n: How many choices (>= 1).
        *key: What identifies this draw.

    Returns:
        An int in [0, n).

    Raises:
        ValueError: if ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"draw_index needs n >= 1, got {n}")
    return _digest(seed, key) * n >> 64


def gp_text(cp: int) -> str:
    """Format a money amount in copper pieces as gp (``749850`` -> ``"7498.5 gp"``)."""
    sign = "-" if cp < 0 else ""
    whole, rest = divmod(abs(cp), 100)
    frac = f".{rest:02d}".rstrip("0") if rest else ""
    return f"{sign}{whole}{frac} gp"
