"""`tablelog shell` against the CLI (issue 20): keystrokes and command latency.

Keystrokes: each example session (examples/*.txt) typed in the shell, with the Tab completion the
shell offers, beside the same lines typed as CLI commands (`tablelog LINE` with $TABLELOG_LOG
exported, the CLI's most favourable case). In the shell the system word is implied after `init`;
a word costs the fewest keys of: typing it whole plus a space, or typing a prefix the completer
completes uniquely plus one Tab (the completion adds the space). The completer is the shell's
own, on the session as it stands before each line (the lines are run as they are counted).

Latency: 1,000 commands typed into one shell on a pseudo-terminal (pexpect), from Enter to the
next prompt, p50 and p99; beside the same commands each run as one CLI process (fewer runs: a
process costs about a second here). The mix: status, a note, undo, redo, a dry-run cast, a
character's state.

Run: .venv/bin/python bench/shell_bench.py  (writes bench/shell_results.json)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from prompt_toolkit.document import Document  # noqa: E402

from tablelog.cli.core import Env  # noqa: E402
from tablelog.cli.main import cli  # noqa: E402
from tablelog.cli.scripts import script_lines  # noqa: E402
from tablelog.cli.shell import Shell  # noqa: E402
from tablelog.cli.shell.completion import ShellCompleter  # noqa: E402
from tests.support.shell import PROMPT  # noqa: E402

MIX = [
    "status",
    "note tick",
    "undo",
    "redo",
    "cast Kiritsugu heal --grade 1 --tiles 1 --dry-run",
    "state Tokiomi",
]
SHELL_COMMANDS = int(os.environ.get("SHELL_COMMANDS", 1000))
CLI_COMMANDS = int(os.environ.get("CLI_COMMANDS", 60))


def word_cost(completer: ShellCompleter, typed: str, word: str, last: bool) -> int:
    """Keys for one word after ``typed``: the shortest unique-completion prefix plus Tab, or the
    whole word plus a space (no space after the last word: Enter follows)."""
    literal = shlex.quote(word)
    whole = len(literal) + (0 if last else 1)
    for k in range(len(literal)):
        found = [c.text for c in completer.get_completions(Document(typed + literal[:k]), None)]
        if found == [f"{literal} "]:
            return min(whole, k + 1)
    return whole


def keystrokes(script: Path, work: Path) -> dict[str, int]:
    """Keys to type every line of SCRIPT in the shell (with Tab) and as CLI commands."""
    lines = [shlex.join(argv) for _, argv in script_lines(script.read_text("utf-8"))]
    system = lines[0].split("--system ")[1].split()[0]
    shell = Shell(Env(log_path=str(work / f"{script.stem}.tlog"), actor="gm"), cli)
    completer = ShellCompleter(shell.resolve, shell.first_words, shell.state)
    shell_keys = cli_keys = 0
    for line in lines:
        cli_keys += len("tablelog ") + len(line) + 1
        words = shlex.split(line.removeprefix(f"{system} "))
        typed = ""
        for i, word in enumerate(words):
            shell_keys += word_cost(completer, typed, word, i == len(words) - 1)
            typed += shlex.quote(word) + " "
        shell_keys += 1  # Enter
        shell.refresh()
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            shell.run_line(line)
        if err.getvalue():
            raise SystemExit(f"{script.name}: {line}: {err.getvalue()}")
    return {"lines": len(lines), "cli": cli_keys, "shell": shell_keys}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _cpu_ms(pid: int) -> float:
    """User + system CPU time of process PID so far, in ms (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def shell_latency(log: Path, history: Path, count: int) -> tuple[list[float], float]:
    """Milliseconds from Enter to the next prompt for COUNT commands in one shell on a pty, and
    the shell's CPU time per command (ms): a machine shared with other work stretches the first,
    hardly the second."""
    import pexpect

    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", TABLELOG_HISTORY=str(history))
    child = pexpect.spawn(
        str(Path(sys.executable).parent / "tablelog"),
        ["--log", str(log), "shell"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 300),
    )
    child.delaybeforesend = None
    child.expect(PROMPT)
    times = []
    cpu_before = _cpu_ms(child.pid)
    for i in range(count):
        start = time.perf_counter()
        child.send(MIX[i % len(MIX)] + "\r")
        child.expect(PROMPT)
        times.append((time.perf_counter() - start) * 1000)
        if "error:" in child.before:
            raise SystemExit(f"{MIX[i % len(MIX)]}: {child.before}")
    cpu = (_cpu_ms(child.pid) - cpu_before) / count
    child.send("\x04")
    child.expect(pexpect.EOF)
    return times, cpu


def cli_latency(log: Path, count: int) -> tuple[list[float], float]:
    """Milliseconds for COUNT commands of the mix, each one `tablelog` process, and the CPU
    time per process (ms)."""
    import resource

    exe = str(Path(sys.executable).parent / "tablelog")
    times = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for i in range(count):
        argv = shlex.split(MIX[i % len(MIX)])
        argv = argv if argv[0] in ("status", "note", "undo", "redo", "state") else ["fate", *argv]
        start = time.perf_counter()
        subprocess.run([exe, "--log", str(log), *argv], check=True, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000 / count
    return times, cpu


def summary(times: list[float], cpu: float) -> dict[str, float]:
    return {
        "n": len(times),
        "p50_ms": round(percentile(times, 50), 2),
        "p99_ms": round(percentile(times, 99), 2),
        "mean_ms": round(statistics.mean(times), 2),
        "cpu_ms_per_command": round(cpu, 2),
    }


def main() -> None:
    results: dict[str, object] = {"keystrokes": {}, "latency": {}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for script in sorted((ROOT / "examples").glob("*.txt")):
            counts = keystrokes(script, work)
            counts["saved_pct"] = round(100 * (1 - counts["shell"] / counts["cli"]), 1)
            results["keystrokes"][script.stem] = counts  # type: ignore[index]
        war = work / "fate-fourth-war.tlog"
        shell_times = shell_latency(war, work / "history", SHELL_COMMANDS)
        cli_times = cli_latency(war, CLI_COMMANDS)
    results["latency"] = {
        "shell": summary(*shell_times),
        "cli": summary(*cli_times),
        "mix": MIX,
        "python": sys.version.split()[0],
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    for name, c in results["keystrokes"].items():  # type: ignore[attr-defined]
        print(
            f"{name:<22} {c['lines']:>3} lines  CLI {c['cli']:>5} keys  shell {c['shell']:>5} "
            f"keys  ({c['saved_pct']}% fewer)"
        )
    for name, s in results["latency"].items():  # type: ignore[union-attr]
        if isinstance(s, dict):
            print(
                f"{name:<6} n={s['n']:<5} p50 {s['p50_ms']:>8} ms  p99 {s['p99_ms']:>8} ms  "
                f"CPU {s['cpu_ms_per_command']:>7} ms/command"
            )
    (HERE / "shell_results.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
