"""Where a command's CPU goes in the table server, beyond the HTTP layer (issue 26: "the
server's CPU per command beyond the floor's itemised"): ``views.command`` run in-process, as
the server's request thread runs it, on the file store and on PostgreSQL, under cProfile;
each stage's cumulative CPU per command:

- parse: the server's grammar (``server.grammar.parse_line``);
- authorise: the seat's permission and blind-preview checks (``authorizer``,
  ``trust.blind_preview``, the player's budget);
- decide: the decider, its trial evolve and change report (``decision.decide``);
- append: framing and writing the records (``Writer.write``: the store's round trip on
  PostgreSQL, the file's write and fsync);
- evolve: the decided state kept, the table's tail (``Session._evolved``, ``Table._keep_written``);
- answer: the command's answer, its sentences and redaction (``views._answer``, ``viewer_of``);
- other: the rest of ``views.command`` (the table's lock, a look at its end, bookkeeping).

``python bench/server_stages.py`` (uses ``$TABLELOG_TEST_PG`` or a throwaway pgserver; prints a
table; ``BENCH_STAGES_COMMANDS``, default 2000). cProfile's own cost inflates every figure
alike (about 2x here); read the shares, and the total beside ``make bench-server``'s CPU per
command. Not part of ``make test``.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablelog.server import views  # noqa: E402
from tablelog.server.tables import Seat, Tables  # noqa: E402
from tests.support.pg import start_server  # noqa: E402

COMMANDS = int(os.environ.get("BENCH_STAGES_COMMANDS", "2000"))
ADD = "magicpunk character add {} --body 8 --sense 12 --intellect 10 --magic 10 --hp 26"
STAGES = {
    "parse": ["grammar.py:.*(parse_line)"],
    "authorise": ["views.py:.*(authorize)", "trust.py:.*(blind_preview)"],
    "decide": ["decision.py:.*(decide)"],
    "append": ["writer.py:.*(write)"],
    "evolve": ["session.py:.*(_evolved)", "tables.py:.*(_keep_written)"],
    "answer": ["views.py:.*(_answer)", "views.py:.*(viewer_of)"],
}


def run(store: str) -> dict[str, float]:
    """Return each stage's CPU ms per command, and the whole ``views.command``'s."""
    import re

    tables = Tables(store)
    table = tables.create("magicpunk", "stages", 7, {})
    gm = Seat("gm", "gm")
    for name in ("Aria", "Kai", "Mio", "Ren"):
        views.command(table, gm, ADD.format(name), None, False)
    lines = [
        f"magicpunk {'damage' if i % 2 == 0 else 'heal'} {('Aria', 'Kai', 'Mio', 'Ren')[i % 4]} 1"
        for i in range(COMMANDS)
    ]
    for line in lines[:200]:  # warm: imports, prepared statements, caches
        views.command(table, gm, line, None, False)
    profile = cProfile.Profile(time.process_time)
    started = time.process_time()
    profile.enable()
    for line in lines:
        views.command(table, gm, line, None, False)
    profile.disable()
    whole = (time.process_time() - started) * 1000 / COMMANDS
    stats = pstats.Stats(profile)
    out = {"whole (profiled)": whole}
    for stage, patterns in STAGES.items():
        total = 0.0
        for (path, _line, name), row in stats.stats.items():  # type: ignore[attr-defined]
            where = f"{os.path.basename(path)}:{_line}({name})"
            if any(
                re.fullmatch(p.replace("(", r"\(").replace(")", r"\)"), where) for p in patterns
            ):
                total += row[3]  # cumulative time
        out[stage] = total * 1000 / COMMANDS
    out["other"] = whole - sum(out[stage] for stage in STAGES)
    tables.close()
    plain_started = time.process_time()  # the same commands without the profiler
    tables = Tables(store)
    table = tables.get(table.table_id)
    for line in lines:
        views.command(table, gm, line, None, False)
    out["whole (plain)"] = (time.process_time() - plain_started) * 1000 / COMMANDS
    tables.close()
    return out


def main() -> None:
    pg = start_server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            results = {
                "file": run(f"file:{Path(tmp) / 'tables'}"),
                "PostgreSQL": run(pg.new_database()),
            }
    finally:
        pg.stop()
    keys = list(results["file"])
    print(f"{'CPU ms per command':20s}" + "".join(f"{k:>14s}" for k in results))
    for key in keys:
        print(f"{key:20s}" + "".join(f"{results[k][key]:14.3f}" for k in results))


if __name__ == "__main__":
    main()
