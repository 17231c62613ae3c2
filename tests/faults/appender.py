"""A child process that appends notes in a loop and reports each success on stdout.

Usage: ``python tests/faults/appender.py LOG``. After ``Session.execute`` returns (the batch is
written and fsynced), it prints ``SEQ TEXT`` and flushes: a line on stdout is a reported success.
Every fourth command is a two-event batch and every fifth note is long, and ``os.write`` is slowed
down to 4 KiB per call (a slow disk), so that a kill often lands in the middle of a write.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support import toy  # noqa: E402

toy.install()

from tablelog.commands.core import AddNote  # noqa: E402
from tablelog.events.core import Noted  # noqa: E402
from tablelog.session import Session  # noqa: E402

_write = os.write


def _slow_write(fd: int, data: bytes) -> int:
    """Write at most 4 KiB, then pause: a slow disk, so kills land mid-write."""
    written = _write(fd, bytes(data[:4096]))
    time.sleep(0.002)
    return written


def main(path: str) -> None:
    os.write = _slow_write
    session = Session(path)
    i = 0
    while True:
        text = f"note {i} " + ("x" * 200_000 if i % 5 == 4 else "")
        if i % 4 == 3:
            session.state()
            session.writer.write([Noted(text=text), Noted(text=text + " (2)")], session.actor)
            seq = session.end.seq - 1  # type: ignore[union-attr]
            session._state = None
        else:
            seq = session.execute(AddNote(text=text)).applied[0].seq
        print(seq, f"note {i}", flush=True)
        i += 1


if __name__ == "__main__":
    main(sys.argv[1])
