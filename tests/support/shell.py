"""Drive `tablelog shell` on a pseudo-terminal (pexpect) from tests."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from tests.support.cli import ok

# A new prompt: prompt_toolkit turns bracketed paste on as each prompt starts (the redraw of an
# accepted line also shows the prompt text, without it), then the prompt text itself.
PROMPT = re.compile(r"\x1b\[\?2004h.*?(#\d+|\(no log\) \S+)>", re.S)


def spawn(log: Path, history: Path) -> Any:
    """Start `tablelog --log LOG shell` on a pseudo-terminal and wait for its first prompt."""
    import pexpect

    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", TABLELOG_HISTORY=str(history))
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from tablelog.cli.main import main; main()", "--log", str(log), "shell"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 500),
    )
    child.expect(PROMPT)
    return child


def type_line(child: Any, line: str) -> str:
    """Type LINE and Enter, wait for the next prompt; return what the shell printed between."""
    child.send(line + "\r")
    child.expect(PROMPT)
    return child.before  # type: ignore[no-any-return]


def leave(child: Any) -> int:
    """Press Ctrl-D at the prompt and return the shell's exit status."""
    import pexpect

    child.send("\x04")
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus  # type: ignore[no-any-return]


def events(log: Path) -> list[dict[str, Any]]:
    """The log's records as `log --json --all` prints them, without the `at` times and the
    chain hashes (`prev` starts from each log's own header, whose session id is its own)."""
    lines = ok(log, "log", "--all", "--json").splitlines()
    return [
        {k: v for k, v in json.loads(line).items() if k not in ("at", "prev")} for line in lines
    ]
