"""The shell's history of lines, kept across sessions in one file (``$TABLELOG_HISTORY``).

Imported only when a shell prompts (prompt_toolkit is not loaded for other commands).

A history file that cannot be read or written (a directory, a read-only file, a full disk)
never stops the shell: the lines are kept for this session only and the shell says so once.
"""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.history import FileHistory

__all__ = ["KeptHistory"]


class KeptHistory(FileHistory):
    """prompt_toolkit's file history that survives a file it cannot use.

    Attributes:
        problem: ``"PATH: reason"`` once reading or writing the file failed, else None (the
            lines typed since are kept in memory, as prompt_toolkit keeps every line).
    """

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.problem: str | None = None

    def load_history_strings(self) -> Iterable[str]:
        try:
            return list(super().load_history_strings())
        except OSError as exc:
            self.problem = f"{self.filename!s}: {exc.strerror or exc}"
            return []

    def store_string(self, string: str) -> None:
        if self.problem is not None:
            return
        try:
            super().store_string(string)
        except OSError as exc:
            self.problem = f"{self.filename!s}: {exc.strerror or exc}"
