"""Exports, import and the session report, measured (issue 19): ``python bench/exports.py``.

Prints (and writes bench/exports.json):
- export (jsonl, csv, the ccfolia room log: issue 28) and import throughput, events/s, on a
  1,000,000-event log
  (``BENCH_EVENTS``), each in a fresh process, timed inside it (start-up excluded);
- their peak RSS (VmHWM) at 10,000 and at 1,000,000 events: streaming keeps it flat;
- beside them, a plain replay (``state``) of the same log in the same kind of process: the
  ratios to it hold on a loaded machine, where absolute figures do not;
- the time to build the HTML report of a 10,000-event magicpunk session (a real system: HP
  charts of five characters), in a fresh process, start-up and imports included, and the
  report's build and render parts inside it.

Logs are built in bench/work/: the toy system's events for the big logs (bench/logs.py), and
real magicpunk commands run in one atomic batch for the report's session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = HERE / "work"
sys.path[:0] = [str(HERE), str(ROOT)]

import logs  # noqa: E402

PY = sys.executable
BIG = int(os.environ.get("BENCH_EVENTS", "1000000"))
SMALL = 10_000

CHILD = """
import io, os, sys, time
sys.path[:0] = [{here!r}, {root!r}]
import logs
from tablelog.session import Session
from tablelog.exports.jsonl import export_jsonl
from tablelog.exports.importer import import_jsonl
from tablelog.exports.changes import export_csv
from tablelog.cli.interop import export_room_log
what, log, out = sys.argv[1:4]
for path in (out,):
    if os.path.exists(path):
        os.remove(path)
t = time.perf_counter()
if what == "replay":  # the yardstick: a fold of the same log in the same kind of process
    n = Session(log, snapshots=False).state().seq
elif what == "import":
    with open(log, encoding="utf-8") as f:
        n = import_jsonl(f, out).records
else:
    with open(out, "w", encoding="utf-8", newline="") as f:
        session = Session(log, snapshots=False)
        if what == "jsonl":
            export_jsonl(session, f)
        elif what == "ccfolia-log":
            export_room_log(session, False, f)
        else:
            export_csv(session, f)
        n = session.state().seq
elapsed = time.perf_counter() - t
hwm = [l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
print(n, elapsed, int(hwm) / 1024)
"""


def child(what: str, log: Path, out: Path) -> tuple[int, float, float]:
    """Run one export or import in a fresh process: (events, seconds, peak RSS MB)."""
    code = CHILD.format(here=str(HERE), root=str(ROOT))
    done = subprocess.run(
        [PY, "-c", code, what, str(log), str(out)], check=True, capture_output=True, text=True
    )
    n, seconds, mb = done.stdout.split()
    return int(n), float(seconds), float(mb)


def report_session(path: Path, events: int) -> None:
    """Write a magicpunk session of about ``events`` events: five characters taking damage,
    healing and the GM's notes, appended in one atomic batch."""
    from tablelog.commands.core import AddNote
    from tablelog.commands.magicpunk.table import AddCharacter, Damage, Heal
    from tablelog.session import Session

    for suffix in ("", ".snap", ".lock"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    session = Session.create(str(path), "magicpunk", title="A long night", seed=3)
    names = ["Aria", "Bram", "Cato", "Dina", "Eske"]
    with session.atomic():
        for name in names:
            session.execute(
                AddCharacter(name=name, body=10, sense=10, intellect=10, magic=10, hp=40)
            )
        for i in range(events - len(names)):
            name = names[i % len(names)]
            if i % 25 == 24:
                session.execute(AddNote(text=f"ruling {i}"))
            elif i % 2:
                session.execute(Heal(target=name, amount=1 + i % 3))
            else:
                session.execute(Damage(target=name, amount=1 + i % 4))


def bench_report(path: Path) -> dict[str, float]:
    """Time `tablelog report --format html` on the session (a fresh process), and inside one
    process the build and the render."""
    out = WORK / "report.html"
    t = time.perf_counter()
    cli = str(Path(PY).parent / "tablelog")  # the installed console script, as a user runs it
    subprocess.run(
        [cli, "--log", str(path), "report", "--format", "html", "-o", str(out)], check=True
    )
    wall = time.perf_counter() - t
    from tablelog.exports import render
    from tablelog.exports.report import build
    from tablelog.session import Session

    t = time.perf_counter()
    made = build(Session(str(path), snapshots=False))
    built = time.perf_counter() - t
    t = time.perf_counter()
    render.html_page(made)
    return {
        "report_html_10k_s": wall,
        "report_build_10k_s": built,
        "report_render_10k_s": time.perf_counter() - t,
        "report_html_bytes": out.stat().st_size,
    }


def main() -> None:
    WORK.mkdir(exist_ok=True)
    out: dict[str, float] = {"events": BIG, "load_1m_at_start": os.getloadavg()[0]}
    for n in (SMALL, BIG):
        log = WORK / f"exports-{n}.tlog"
        logs.make_log(str(log), n)
        jsonl, csv_out, copy = (
            WORK / f"exports-{n}.jsonl",
            WORK / f"exports-{n}.csv",
            WORK / f"exports-{n}-copy.tlog",
        )
        for what, target in (
            ("replay", WORK / "unused"),
            ("jsonl", jsonl),
            ("csv", csv_out),
            ("ccfolia-log", WORK / f"exports-{n}.html"),
            ("import", copy),
        ):
            events, seconds, mb = child(what, jsonl if what == "import" else log, target)
            assert events == n, (what, events, n)
            tag = "10k" if n == SMALL else "big"
            out[f"{what}_eps_{tag}"] = n / seconds
            out[f"{what}_rss_mb_{tag}"] = mb
        assert log.read_bytes() == copy.read_bytes(), "import is not byte for byte"
    for what in ("jsonl", "csv", "ccfolia-log", "import"):
        out[f"{what}_to_replay_big"] = out[f"{what}_eps_big"] / out["replay_eps_big"]
    out["ccfolia-log_to_jsonl_10k"] = out["ccfolia-log_eps_10k"] / out["jsonl_eps_10k"]
    session = WORK / "report-10k.tlog"
    report_session(session, SMALL)
    out.update(bench_report(session))
    for key, value in out.items():
        print(f"{key:24} {value:14,.3f}" if isinstance(value, float) else f"{key:24} {value}")
    (HERE / "exports.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
