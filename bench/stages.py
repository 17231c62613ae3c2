"""What a command costs the server, stage by stage (issue 26): CPU per command of each step of
``POST …/commands`` beyond the HTTP stack (which the floor peer measures), in-process.

The same table and lines as ``make bench-server``'s loads (a magicpunk table of four characters,
``magicpunk damage|heal pcN 1`` alternating), as the GM and as a player seat, on the file store
and on PostgreSQL: each step timed with ``time.thread_time`` around the very calls the route
makes (tablelog/server/views.py ``command``), N commands each, median of three rounds:

- parse: the line into its command record (tablelog.server.grammar.parse_line, click);
- authorise: the seat's check of the record;
- decide: the session's decision on the state in memory (a dry run of the same record);
- append: the rest of ``Table.command`` (decide again, envelope, write, evolve, keep);
- render: the JSON answer, redacted for the seat (views._answer).

Usage: ``.venv/bin/python bench/stages.py [N]`` (default 2,000); prints a table and JSON. Uses
``$TABLELOG_TEST_PG``, else a throwaway pgserver.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

from tablelog.server import views  # noqa: E402
from tablelog.server.grammar import parse_line  # noqa: E402
from tablelog.server.redact import Viewer  # noqa: E402
from tablelog.server.tables import Seat, Tables  # noqa: E402
from tests.support.pg import start_server  # noqa: E402
from tests.support.server import ADD  # noqa: E402

STAGES = ("parse", "authorise", "decide", "append", "render")


def _table(tables: Tables) -> tuple[object, Seat]:
    table = tables.create("magicpunk", "stages", 1, {})
    gm = Seat("gm", "gm")
    for i in range(4):
        table.command(parse_line(ADD.format(f"pc{i}")).command, gm)
    views.add_seat(table, "ann", "player", ["pc0"], "0" * 64)
    return table, gm


def rounds(store: str, n: int, seat: Seat) -> dict[str, float]:
    """CPU µs per command of each stage, median of three rounds of ``n`` commands."""
    tables = Tables(store)
    table, _ = _table(tables)
    found: dict[str, list[float]] = {stage: [] for stage in STAGES}
    for _ in range(3):
        spent = dict.fromkeys(STAGES, 0.0)
        for i in range(n):
            line = f"magicpunk {'damage' if i % 2 else 'heal'} pc0 1"
            t0 = time.thread_time()
            parsed = parse_line(line)
            t1 = time.thread_time()
            views.authorizer(table, seat)(parsed.command, parsed.words)  # type: ignore[arg-type]
            t2 = time.thread_time()
            table.command(parsed.command, Seat("gm", "gm"), dry_run=True)  # type: ignore[attr-defined]
            t3 = time.thread_time()
            outcome, _ = table.command(parsed.command, Seat("gm", "gm"))  # type: ignore[attr-defined]
            t4 = time.thread_time()
            viewer = Viewer.of(seat.role, seat.characters, table.current())  # type: ignore[attr-defined]
            views._answer(table, outcome, viewer, None, preview=False)  # type: ignore[arg-type]
            t5 = time.thread_time()
            took = (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)
            for stage, seconds in zip(STAGES, took, strict=True):
                spent[stage] += seconds
        for stage in STAGES:
            found[stage].append(1e6 * spent[stage] / n)
    tables.close()
    return {stage: statistics.median(v) for stage, v in found.items()}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    pg = start_server()
    out: dict[str, dict[str, float]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for kind, store in (("file", f"file:{Path(tmp) / 't'}"), ("pg", pg.new_database())):
                for who in (Seat("gm", "gm"), Seat("ann", "player", ("pc0",))):
                    key = f"{kind} {who.role}"
                    out[key] = rounds(store, n, who)
                    row = "  ".join(f"{s} {out[key][s]:7.0f}" for s in STAGES)
                    print(f"{key:12s} {row}", flush=True)
    finally:
        pg.stop()
    for row in out.values():
        row["total"] = sum(row.values())
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
