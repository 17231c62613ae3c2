"""A child process that appends to a PostgreSQL table in a loop and reports each success.

Usage: ``python tests/faults/pg_appender.py URL#ID``. After ``Session.execute`` returns (the
command's transaction committed), it prints ``SEQ TEXT`` and flushes: a line on stdout is a
reported success. Every third command is a two-event batch, and each append's transaction
sleeps 5 ms before its inserts (a slow commit), so that a kill often lands inside a transaction.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support import toy  # noqa: E402

toy.install()

from tablelog.commands.core import AddNote  # noqa: E402
from tablelog.events.core import Noted  # noqa: E402
from tablelog.session import Session  # noqa: E402
from tablelog.store.pgsql import SQL  # noqa: E402

SQL.SHARED = "SELECT pg_advisory_xact_lock_shared(%s), pg_sleep(0.005)"  # inside the transaction


def main(spec: str) -> None:
    session = Session(spec)
    i = 0
    while True:
        text = f"note {i}"
        if i % 3 == 2:
            session.state()
            session._write([Noted(text=text), Noted(text=text + " (2)")])
            seq = session._end.seq - 1  # type: ignore[union-attr]
            session._state = None
        else:
            seq = session.execute(AddNote(text=text)).applied[0].seq
        print(seq, text, flush=True)
        i += 1


if __name__ == "__main__":
    main(sys.argv[1])
