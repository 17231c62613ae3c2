"""The appender of tests/faults/appender.py on a PostgreSQL table: a child process that appends
in a loop and reports each success (``SEQ note I``) once ``Session.execute`` returned, i.e. once
the command's transaction committed.

Usage: ``python tests/faults/pg_appender.py URL#ID``. Each append's statement sleeps 5 ms (a slow
transaction), so that a kill often lands inside one.
"""

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]

import appender  # noqa: E402

from tablelog.store import pgappend  # noqa: E402

pgappend.APPEND += " AND pg_sleep(0.005)::text = ''"  # the append's statement waits
pgappend.APPEND_ONE += " AND pg_sleep(0.005)::text = ''"  # as must a one-record command's

if __name__ == "__main__":
    appender.main(sys.argv[1])
